#!/usr/bin/env python
"""fastpr's ``recall_at_precision`` against torchmetrics' ``binary_recall_at_fixed_precision``
(CPU, exact mode: ``thresholds=None``), at 10^6 and 10^7 rows.

    python bench/compare_operating.py           # needs torch and torchmetrics
    python bench/compare_operating.py --quick   # 10^5 and 10^6 rows

Prints the same-run ratio of the medians of interleaved calls and whether the two agree (the
recall, and the threshold where one is found). Scores are probabilities in (0, 1), as
torchmetrics expects (it applies a sigmoid to scores outside [0, 1]); torchmetrics gets them as
a float64 tensor, so that both see the same values.
"""
import argparse
import gc
import os
import statistics
import sys
import time

BENCH_DIR = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, BENCH_DIR)

import numpy as np  # noqa: E402

import fastpr  # noqa: E402
from benchmarks._data import make_ranking  # noqa: E402

MIN_PRECISION = 0.3


def _time(function):
    gc.collect()
    start = time.perf_counter()
    result = function()
    return time.perf_counter() - start, result


def main():
    import torch
    import torchmetrics
    from torchmetrics.functional.classification import binary_recall_at_fixed_precision

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    sizes = (10**5, 10**6) if args.quick else (10**6, 10**7)
    print(f"torch {torch.__version__}, torchmetrics {torchmetrics.__version__}, torch threads "
          f"{torch.get_num_threads()}; min_precision = {MIN_PRECISION}; medians of "
          f"{args.repeats} interleaved calls")
    print("| n | fastpr (ms) | torchmetrics (ms) | torchmetrics / fastpr | recall | "
          "same threshold |")
    print("|---:|---:|---:|---:|---|---|")
    for n in sizes:
        y, s = make_ranking(n)
        preds, target = torch.from_numpy(s), torch.from_numpy(y.astype(np.int64))

        def ours():
            return fastpr.recall_at_precision(y, s, MIN_PRECISION)

        def theirs():
            return binary_recall_at_fixed_precision(preds, target, MIN_PRECISION)

        ours(), theirs()  # compile, warm
        times = {"fastpr": [], "torchmetrics": []}
        for _ in range(args.repeats):
            elapsed, mine = _time(ours)
            times["fastpr"].append(elapsed)
            elapsed, (recall, threshold) = _time(theirs)
            times["torchmetrics"].append(elapsed)
        a, b = (statistics.median(times[k]) for k in ("fastpr", "torchmetrics"))
        # (torchmetrics computes its curve in float32: recalls agree to single precision)
        gap = abs(float(recall) - mine.value) / max(mine.value, 1e-300)
        same_threshold = float(threshold) == mine.threshold
        print(f"| {n:,} | {1e3 * a:.0f} | {1e3 * b:.0f} | {b / a:.1f}x | "
              f"{mine.value:.6f}, relative difference {gap:.1e} | {same_threshold} |")


if __name__ == "__main__":
    main()
