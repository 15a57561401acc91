#!/usr/bin/env python
"""Exact evaluation on Dask: wall time, throughput and peak memory per worker (not in CI).

Predictions are generated inside the partitions (dask.array random with a fixed seed), so no
data passes through the client: ``y = u < 1%``, ``score = sigmoid(normal + 1.5 y)``, nearly every
score distinct (the hardest case for memory). Each size runs on a fresh LocalCluster of worker
processes so that the peak RSS of every worker belongs to that size alone.

    python bench/distributed.py                  # 10M and 100M rows, 2 workers
    python bench/distributed.py --sizes 10M,30M --check
"""
import argparse
import os
import resource
import sys
import time

# Python puts this script's folder first on sys.path, where this file would shadow the
# ``distributed`` package that dask.distributed imports.
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _HERE]

import dask  # noqa: E402
import dask.array as da  # noqa: E402
import numpy as np  # noqa: E402
from dask.distributed import Client, LocalCluster  # noqa: E402

import fastpr  # noqa: E402
import fastpr.distributed  # noqa: E402


def _rows(text):
    text = text.strip().upper()
    scale = {"K": 10**3, "M": 10**6}.get(text[-1], 1)
    return int(float(text.rstrip("KM")) * scale)


def predictions(n, chunk, seed):
    rng = da.random.default_rng(seed)
    y = rng.random(n, chunks=chunk) < 0.01
    score = 1.0 / (1.0 + np.exp(-(rng.standard_normal(n, chunks=chunk) + 1.5 * y)))
    return y, score


def _peak_rss_gib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20  # Linux: KiB


def run(n, args):
    with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        warm_y, warm_s = predictions(20_000, 5_000, 0)
        fastpr.distributed.evaluate(warm_y, warm_s)  # imports and JIT caches on every worker
        client.run(lambda: __import__("gc").collect())
        baseline = client.run(_peak_rss_gib)
        y, score = predictions(n, args.chunk, args.seed)
        # Another seed: the same work under other task keys than the evaluated columns.
        y_other, score_other = predictions(n, args.chunk, args.seed + 1)
        start = time.perf_counter()
        dask.compute(y_other.sum(), score_other.sum())
        generate = time.perf_counter() - start
        walls = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            result = fastpr.distributed.evaluate(y, score)
            walls.append(time.perf_counter() - start)
        peaks = client.run(_peak_rss_gib)
    wall = float(np.median(walls))
    print(f"n={n:,} partitions={y.numblocks[0]} workers={args.workers}: median wall "
          f"{wall:.2f} s (runs: {', '.join(f'{w:.2f}' for w in walls)}), {n / wall / 1e6:.2f} M "
          f"rows/s; generating the data alone (sum of each column): {generate:.2f} s; peak RSS "
          "per worker (GiB) "
          + ", ".join(f"{peaks[w]:.2f} (after warm-up {baseline[w]:.2f})" for w in sorted(peaks)),
          flush=True)
    print(f"  auc_roc={result.auc_roc:.12g} auc_pr={result.auc_pr:.12g} "
          f"n_thresholds={result.n_thresholds}", flush=True)
    if args.check:
        y_local, score_local = (np.asarray(a) for a in (y.compute(), score.compute()))
        start = time.perf_counter()
        local = fastpr.evaluate(y_local, score_local)
        print(f"  single process fastpr.evaluate: {time.perf_counter() - start:.2f} s; "
              f"largest relative difference over all fields: "
              f"{max(_relative(getattr(result, k), v) for k, v in local.to_dict().items()):.1e}",
              flush=True)
    return wall


def _relative(a, b):
    return abs(a - b) / max(abs(b), 1e-300)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10M,100M")
    parser.add_argument("--chunk", type=_rows, default="2.5M", help="rows per partition")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per size (median)")
    parser.add_argument("--check", action="store_true",
                        help="also gather the data and compare with fastpr.evaluate")
    args = parser.parse_args()
    sizes = [_rows(s) for s in args.sizes.split(",")]
    walls = [run(n, args) for n in sizes]
    for (n0, w0), (n1, w1) in zip(zip(sizes, walls), list(zip(sizes, walls))[1:]):
        print(f"{n0:,} -> {n1:,} rows (x{n1 / n0:g}): time x{w1 / w0:.2f}")


if __name__ == "__main__":
    main()
