"""A permutation test and a bootstrap sharded over processes give the
single-process result bit for bit.

    python python/examples/sharded.py [--dask]

Each permutation (resample) k draws from its own random stream, derived
from the seed and k alone, so any split of the index range, computed in any
process or on any machine, concatenated in index order, is the single run.
The plans pickle with their data; the shares are NumPy arrays of the
permuted (resampled) values. With --dask the same shares run on a
dask.distributed LocalCluster (pip install "dask[distributed]").
"""

import sys
from concurrent.futures import ProcessPoolExecutor

import numpy as np

import adaptive_comp_metrics as acm


def main() -> None:
    rng = np.random.default_rng(7)
    human = rng.random(2000)
    model = human + rng.normal(0, 0.4, 2000)
    test = acm.PermutationTest(human, model, "rho_w", permutations=20_000, seed=2020)
    boot = acm.Bootstrap(
        human, model, acm.Statistic("tau_w", weigher="hyperbolic"), resamples=4_000, seed=2020
    )

    single_test, single_boot = test.run(), boot.run()

    with ProcessPoolExecutor(max_workers=4) as pool:
        starts, stops = zip(*test.shards(8), strict=False)
        sharded_test = test.finish(np.concatenate(list(pool.map(test.replicates, starts, stops))))
        starts, stops = zip(*boot.shards(8), strict=False)
        sharded_boot = boot.finish(np.concatenate(list(pool.map(boot.replicates, starts, stops))))

    assert sharded_test == single_test, (sharded_test, single_test)
    assert sharded_boot == single_boot, (sharded_boot, single_boot)
    print(
        f"rho_w = {single_test.statistic:.4f}, p = {single_test.pvalue:.2e} "
        f"(null mean {single_test.null_mean:.4f}): 8 shares over processes, identical"
    )
    ci = single_boot.confidence_interval
    print(f"tau_w 95% BCa interval [{ci.low:.4f}, {ci.high:.4f}]: identical")

    if "--dask" in sys.argv:
        from dask.distributed import Client, LocalCluster

        with LocalCluster(n_workers=2, threads_per_worker=1) as cluster, Client(cluster) as c:
            futures = [c.submit(test.replicates, a, b) for a, b in test.shards(8)]
            assert test.finish(np.concatenate(c.gather(futures))) == single_test
        print("dask.distributed LocalCluster: identical")


if __name__ == "__main__":
    main()
