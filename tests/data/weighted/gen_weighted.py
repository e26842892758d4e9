"""Reference values for ρ_w and τ_w (Lombardo et al. 2020, Eq. 8–9).

An independent NumPy implementation of the paper's definitions, used as
golden values by tests/correlation/weighted.rs. Run from the repository root:

    python3 tests/data/weighted/gen_weighted.py > tests/data/weighted/golden.txt

Data come from a SplitMix64 generator so that the Rust test regenerates the
same inputs without reading them from a file. Output: one line per case,
`name n0 rho_w tau_w`, with values printed by repr (round-trip exact).
"""

import numpy as np
from scipy.stats import rankdata

MASK = (1 << 64) - 1


def splitmix64(seed):
    state = seed & MASK
    while True:
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        yield z ^ (z >> 31)


def uniform(seed, n):
    g = splitmix64(seed)
    return np.array([(next(g) >> 11) * 2.0**-53 for _ in range(n)])


def weighted(x, y, n0):
    # Ranks: 1 = largest score, ties averaged.
    a = rankdata(-x, method="average")
    b = rankdata(-y, method="average")

    def f(r):
        return 1.0 / (r + n0) ** 2

    w = f(a) + f(b)
    w = w / w.sum()
    am, bm = (w * a).sum(), (w * b).sum()
    rho = (w * (a - am) * (b - bm)).sum() / np.sqrt(
        (w * (a - am) ** 2).sum() * (w * (b - bm) ** 2).sum()
    )
    sa = np.sign(a[None, :] - a[:, None])
    sb = np.sign(b[None, :] - b[:, None])
    ww = np.outer(w, w)
    num = (ww * sa * sb).sum()
    za = (ww * (sa != 0)).sum()
    zb = (ww * (sb != 0)).sum()
    tau = num / np.sqrt(za * zb)
    return rho, tau


cases = []
# Continuous data, weakly correlated.
x = uniform(1, 200)
y = 0.5 * x + uniform(2, 200)
cases.append(("continuous200", x, y))
# Heavy ties: scores on a 5-point scale.
x = np.floor(uniform(3, 300) * 5)
y = np.floor((0.7 * uniform(3, 300) + 0.3 * uniform(4, 300)) * 5)
cases.append(("ties300", x, y))
for name, x, y in cases:
    for n0 in (0.0, 2.0, 5.0):
        rho, tau = weighted(x, y, n0)
        print(name, repr(n0), repr(float(rho)), repr(float(tau)))
