#!/usr/bin/env python
"""Operating points against ``fastpr.evaluate`` of the same rows, and the cost of one more query.

    python bench/operating_points.py            # n = 10M
    python bench/operating_points.py --quick    # n = 1M, fewer repeats

Prints, from one run with the calls interleaved (medians of the repeats):

* ``evaluate`` of n rows, and against it: one ``recall_at_precision`` call at three levels (one
  sort, evaluate's sweep and one more walk); ``sweep`` followed by the four kinds of operating
  points (each at three levels) from the SweptRanking; ``sweep`` alone;
* the time of one more query of a prepared SweptRanking (``recall_at_precision`` at one level,
  after the first query built its O(n) preparation) at n from 10^4 to n: O(log n), so flat.
"""
import argparse
import gc
import os
import statistics
import sys
import time

BENCH_DIR = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, BENCH_DIR)

import fastpr  # noqa: E402
from benchmarks._data import make_ranking  # noqa: E402

LEVELS = [0.1, 0.2, 0.3]  # precisions and recalls that the data reach (1% positives)


def _time(function):
    gc.collect()
    start = time.perf_counter()
    function()
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--n", type=int, default=None)
    args = parser.parse_args()
    n = args.n or (10**6 if args.quick else 10**7)
    repeats = 5 if args.quick else 9
    y, s = make_ranking(n)

    def four():
        swept = fastpr.sweep(y, s)
        swept.recall_at_precision(LEVELS)
        swept.precision_at_recall(LEVELS)
        swept.tpr_at_fpr([0.01, 0.05, 0.1])
        swept.tnr_at_tpr([0.8, 0.9, 0.95])

    calls = {
        "evaluate": lambda: fastpr.evaluate(y, s),
        "recall_at_precision (3 levels)": lambda: fastpr.recall_at_precision(y, s, LEVELS),
        "sweep + 4 kinds x 3 levels": four,
        "sweep": lambda: fastpr.sweep(y, s),
    }
    for call in calls.values():  # compile and warm
        call()
    times = {name: [] for name in calls}
    for _ in range(repeats):
        for name, call in calls.items():
            times[name].append(_time(call))
    base = statistics.median(times["evaluate"])
    print(f"n = {n:,}, {repeats} interleaved repeats, medians")
    print("| call | time (ms) | / evaluate |")
    print("|---|---:|---:|")
    for name, values in times.items():
        median = statistics.median(values)
        print(f"| {name} | {1e3 * median:.1f} | {median / base:.2f}x |")

    print("\nOne more query of a prepared SweptRanking (recall_at_precision at one level):")
    print("| n | time per query (us) |")
    print("|---:|---:|")
    size = 10**4
    while size <= n:
        swept = fastpr.sweep(*make_ranking(size, seed=1))
        swept.recall_at_precision(0.1)  # the O(n) preparation, once
        per_call = []
        for _ in range(repeats):
            start = time.perf_counter()
            for level in (0.1, 0.2, 0.3, 0.4) * 50:
                swept.recall_at_precision(level)
            per_call.append((time.perf_counter() - start) / 200)
        print(f"| {size:,} | {1e6 * statistics.median(per_call):.1f} |")
        size *= 10


if __name__ == "__main__":
    main()
