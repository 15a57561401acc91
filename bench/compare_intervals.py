#!/usr/bin/env python
"""One-run timings of the interval targets (issue: intervals at the speed of one sort).

    python bench/compare_intervals.py           # 1,000 replicates of 1M; DeLong at 10M
    python bench/compare_intervals.py --quick   # 200 replicates of 200k; DeLong at 1M

Rows: the stratified percentile bootstrap on all of numba's threads and on one, against a Python
loop of scikit-learn's ``average_precision_score`` on resampled rows (timed for a few replicates
and scaled to the same count, since the loop is linear in replicates); DeLong's interval against
``evaluate`` on the same data, interleaved. Medians; the machine is described first.
"""
import argparse
import os
import sys
import time

import numba
import numpy as np

BENCH_DIR = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, BENCH_DIR)

import fastpr  # noqa: E402
from benchmarks._data import make_ranking  # noqa: E402
from compare import (fmt_ratio, fmt_time, interleaved_medians, machine_description,  # noqa: E402
                     sklearn_metrics, _load)


def bootstrap_rows(n, n_boot, repeats, sk_replicates):
    y, s = make_ranking(n, "float64", 0.01)
    fastpr.bootstrap(y[:1000], s[:1000], n_boot=10, seed=0)
    threads = numba.get_num_threads()

    def run(n_threads):
        def call():
            numba.set_num_threads(n_threads)
            try:
                fastpr.bootstrap(y, s, n_boot=n_boot, seed=0)
            finally:
                numba.set_num_threads(threads)
        return call

    t_all, t_one = interleaved_medians([run(threads), run(1)], repeats)
    metrics = sklearn_metrics()
    t_sk = None
    if metrics is not None:
        rng = np.random.default_rng(0)
        pos, neg = np.flatnonzero(y), np.flatnonzero(~y)
        start = time.perf_counter()
        for _ in range(sk_replicates):
            rows = np.concatenate([rng.choice(pos, pos.size), rng.choice(neg, neg.size)])
            metrics.average_precision_score(y[rows], s[rows])
        t_sk = (time.perf_counter() - start) / sk_replicates * n_boot
    case = f"bootstrap, {n_boot:,} stratified replicates of n={n:,}, 1%"
    return [
        dict(case=f"{case}, {threads} threads", fast=t_all, other=t_sk,
             note=f"sklearn AP loop (scaled from {sk_replicates} replicates)",
             ratio=t_sk / t_all if t_sk else None, ratio_note="sklearn / fastpr"),
        dict(case=f"{case}, 1 thread", fast=t_one, other=t_all, note=f"{threads} threads",
             ratio=t_one / t_all, ratio_note="speed-up from threads"),
    ]


def delong_row(n, repeats):
    y, s = make_ranking(n, "float64", 0.01)
    fastpr.delong(y[:1000], s[:1000])
    fastpr.evaluate(y[:1000], s[:1000])
    t_delong, t_evaluate = interleaved_medians(
        [lambda: fastpr.delong(y, s), lambda: fastpr.evaluate(y, s)], repeats)
    return dict(case=f"DeLong interval, n={n:,}, 1%", fast=t_delong, other=t_evaluate,
                note="evaluate on the same data", ratio=t_delong / t_evaluate,
                ratio_note="DeLong / evaluate")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    load_at_start = _load()
    if args.quick:
        rows = bootstrap_rows(200_000, 200, 3, 5) + [delong_row(1_000_000, 5)]
    else:
        rows = bootstrap_rows(1_000_000, 1000, 3, 5) + [delong_row(10_000_000, 7)]
    print(machine_description(load_at_start))
    print()
    print("| case | fastpr | compared with | its time | ratio |")
    print("|---|---:|---|---:|---:|")
    for row in rows:
        print(f"| {row['case']} | {fmt_time(row['fast'])} | {row['note']} | "
              f"{fmt_time(row['other'])} | {fmt_ratio(row['ratio'])} ({row['ratio_note']}) |")
    print()
    boot, one, delong = rows
    print(f"- {boot['case']}: {boot['fast']:.2f} s (target at 1,000 x 1M: <= 5 s); "
          f"{fmt_ratio(boot['ratio'])} faster than the scikit-learn loop (target >= 60x); "
          f"{one['ratio']:.2f}x from threads")
    print(f"- {delong['case']}: {delong['ratio']:.2f}x evaluate (target <= 2x)")


if __name__ == "__main__":
    main()
