#!/usr/bin/env python
"""One-run timings of top k and the partial areas against ``evaluate`` of the same rows.

    python bench/partial_top_k.py            # 10^7 rows, 1% positives, 7 interleaved repeats
    python bench/partial_top_k.py --quick    # 10^6 rows

Each call sorts and sweeps the ranking as ``evaluate`` does, storing its operating points (three
doubles per distinct score), then reads them: the partial areas up to the end of their range,
top k by bisection. Medians of interleaved repeats, each as a ratio to ``evaluate``'s median of
the same run; the machine is described first.
"""
import argparse
import os
import sys
import time

BENCH_DIR = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, BENCH_DIR)

import fastpr  # noqa: E402
from benchmarks._data import make_ranking  # noqa: E402
from compare import fmt_ratio, fmt_time, interleaved_medians, machine_description, _load  # noqa


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10^6 rows instead of 10^7")
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args(argv)
    n = 10**6 if args.quick else 10**7
    load_at_start = _load()
    started = time.perf_counter()
    y, s = make_ranking(n, "float64", 0.01)
    cases = [
        ("evaluate", lambda: fastpr.evaluate(y, s)),
        ("top_k(k=1000)", lambda: fastpr.top_k(y, s, 1000)),
        ("top_k(k=[10, 100, 1000, 10000])", lambda: fastpr.top_k(y, s, [10, 100, 1000, 10000])),
        ('top_k(k="positives")', lambda: fastpr.top_k(y, s, "positives")),
        ("auc_roc(max_fpr=0.1)", lambda: fastpr.auc_roc(y, s, max_fpr=0.1)),
        ("auc_roc(max_fpr=0.1, mcclish=True)",
         lambda: fastpr.auc_roc(y, s, max_fpr=0.1, mcclish=True)),
        ("auc_pr(recall_range=(0.2, 0.8))", lambda: fastpr.auc_pr(y, s, recall_range=(0.2, 0.8))),
        ("auc_npr(recall_range=(0.2, 0.8))",
         lambda: fastpr.auc_npr(y, s, recall_range=(0.2, 0.8))),
    ]
    for _, call in cases:  # compiled and warmed
        call()
    medians = interleaved_medians([call for _, call in cases], args.repeats)
    print(machine_description(load_at_start))
    print(f"\nn = {n:,}, float64, 1% positives; medians of {args.repeats} interleaved repeats; "
          f"run time {time.perf_counter() - started:.0f} s\n")
    print("| call | time | / evaluate |\n|---|---:|---:|")
    for (name, _), median in zip(cases, medians):
        print(f"| {name} | {fmt_time(median)} | {fmt_ratio(median / medians[0])} |")


if __name__ == "__main__":
    main()
