"""SplitMix64 floats for the reference generators, as tests/common/splitmix.rs
makes them in Rust: output k (0-based) of SplitMix64 seeded with s is
mix(s + (k+1)*gamma); a float is its top 53 bits / 2**53.

The generators in the folders below import it with
`sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))`.
"""

import numpy as np

GAMMA = np.uint64(0x9E3779B97F4A7C15)


def splitmix_floats(seed, count):
    """The first `count` floats of SplitMix64 seeded with `seed`."""
    with np.errstate(over="ignore"):
        z = np.uint64(seed) + GAMMA * np.arange(1, count + 1, dtype=np.uint64)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    return (z >> np.uint64(11)).astype(np.float64) * 2.0**-53
