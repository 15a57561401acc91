#!/usr/bin/env python
"""Exact evaluation on Dask against one process on the same rows: same-run ratios (not in CI).

The fair comparison: the predictions are generated once, persisted on a ``LocalCluster`` of
worker processes (one thread each) and gathered into this process before any timing, so that
``fastpr.distributed.evaluate`` times the evaluation of data already on the workers and
``fastpr.evaluate`` the same rows already in memory. The timed runs of the two alternate.
Reported: the median of each and their ratio, the median of the ratios of each Dask run to the
single-process run after it (robust to the drifting load of a shared machine), and the ratio of
the fastest runs. Data: ``y = u < 1%``, ``score = sigmoid(normal + 1.5 y)``, nearly every score
distinct (the most data to move).

Each worker count gets a fresh cluster; each size is generated on it, timed and dropped. Every
line carries the load average of the machine (``os.getloadavg``) before and after, since a shared
machine's other work shows up in the timings. Every run's result is compared with
``fastpr.evaluate`` on every field. One more run per size records Dask's task stream: the time
spent in each kind of task and in transfers, summed over the workers.

    python bench/distributed.py                      # 10M and 30M rows, 1 and 2 workers
    python bench/distributed.py --sizes 10M --workers 2 --repeat 5
"""
import argparse
import collections
import os
import resource
import subprocess
import sys
import time

# Python puts this script's folder first on sys.path, where this file would shadow the
# ``distributed`` package that dask.distributed imports.
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _HERE]

import dask.array as da  # noqa: E402
import numpy as np  # noqa: E402
from dask.distributed import Client, LocalCluster, get_task_stream, wait  # noqa: E402
from dask.utils import key_split  # noqa: E402

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


def _load():
    return "/".join(f"{value:.2f}" for value in os.getloadavg())


def _largest_difference(result, local):
    """The largest relative difference over every field of the two Evaluations."""
    def relative(a, b):
        return 0.0 if a == b else abs(a - b) / max(abs(b), 1e-300)
    return max(relative(getattr(result, name), value) for name, value in local.to_dict().items())


def run(client, n, args):
    """(median distributed wall, median single-process wall) at ``n`` rows on ``client``."""
    y, score = client.persist(predictions(n, args.chunk, args.seed))
    wait([y, score])
    y_local, score_local = np.asarray(y.compute()), np.asarray(score.compute())
    # Untimed, one of each: every path of this size compiled and warm, here and on the workers.
    fastpr.evaluate(y_local, score_local)
    fastpr.distributed.evaluate(y, score)
    load_before = _load()
    distributed, local = [], []
    for _ in range(args.repeat):
        start = time.perf_counter()
        result = fastpr.distributed.evaluate(y, score)
        distributed.append(time.perf_counter() - start)
        start = time.perf_counter()
        expected = fastpr.evaluate(y_local, score_local)
        local.append(time.perf_counter() - start)
    peaks = client.run(_peak_rss_gib)
    with get_task_stream(client) as stream:
        fastpr.distributed.evaluate(y, score)
    wall, wall_local = float(np.median(distributed)), float(np.median(local))
    paired = float(np.median(np.array(distributed) / np.array(local)))
    workers = len(client.scheduler_info()["workers"])
    print(f"n={n:,} partitions={y.numblocks[0]} workers={workers}: Dask median {wall:.2f} s "
          f"(runs {', '.join(f'{w:.2f}' for w in distributed)}), one process median "
          f"{wall_local:.2f} s (runs {', '.join(f'{w:.2f}' for w in local)}): ratio of medians "
          f"{wall / wall_local:.2f}x, median of paired ratios {paired:.2f}x, of the fastest runs "
          f"{min(distributed) / min(local):.2f}x; load {load_before} -> {_load()}; largest "
          f"relative difference {_largest_difference(result, expected):.1e}; peak RSS per worker "
          + ", ".join(f"{peaks[w]:.2f}" for w in sorted(peaks)) + " GiB", flush=True)
    print("  where the time goes (one more run, task stream, seconds summed over workers): "
          + _task_times(stream.data), flush=True)
    del y, score
    return wall, wall_local


def _task_times(records):
    """Compute and transfer time by task name, largest first, from a task stream."""
    totals = collections.Counter()
    for record in records:
        name = key_split(record["key"])
        for part in record["startstops"]:
            action = "compute" if part["action"] == "compute" else "transfer"
            totals[f"{name} {action}" if action == "compute" else action] += (
                part["stop"] - part["start"])
    # (Steps under 5 ms in all, such as the items read from each task's tuple, are left out.)
    return ", ".join(f"{name} {seconds:.2f}" for name, seconds in totals.most_common()
                     if seconds >= 0.005)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10M,30M")
    parser.add_argument("--workers", default="2,1", help="worker counts, one cluster each")
    parser.add_argument("--chunk", type=_rows, default="2.5M", help="rows per partition")
    parser.add_argument("--seed", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=7, help="timed runs per size (median)")
    args = parser.parse_args()
    sizes = [_rows(s) for s in args.sizes.split(",")]
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True, cwd=os.path.dirname(_HERE)).stdout.strip()
    cpu = next((line.split(":", 1)[1].strip() for line in subprocess.run(
        ["lscpu"], capture_output=True, text=True).stdout.splitlines()
        if line.startswith("Model name")), "?")
    print(f"commit {commit}; {cpu}, {os.cpu_count()} CPUs; fastpr {fastpr.__file__}", flush=True)
    walls = {}
    for n_workers in (int(w) for w in args.workers.split(",")):
        with LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster, Client(cluster) as client:
            rng = np.random.default_rng(0)
            warm_y, warm_s = rng.random(20_000) < 0.01, rng.random(20_000)
            # Imports and JIT caches on every worker and here.
            fastpr.distributed.evaluate(da.from_array(warm_y, chunks=5_000),
                                        da.from_array(warm_s, chunks=5_000))
            fastpr.evaluate(warm_y, warm_s)
            for n in sizes:
                walls[n_workers, n] = run(client, n, args)
    for n_workers in sorted({w for w, _ in walls}):
        for n0, n1 in zip(sizes, sizes[1:]):
            (d0, l0), (d1, l1) = walls[n_workers, n0], walls[n_workers, n1]
            print(f"{n_workers} workers, {n0:,} -> {n1:,} rows (x{n1 / n0:g}): Dask time "
                  f"x{d1 / d0:.2f}, one process x{l1 / l0:.2f}")
    for n in sizes:
        if (1, n) in walls and (2, n) in walls:
            print(f"{n:,} rows, 1 -> 2 workers: Dask time x{walls[2, n][0] / walls[1, n][0]:.2f}")


if __name__ == "__main__":
    main()
