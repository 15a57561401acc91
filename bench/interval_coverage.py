#!/usr/bin/env python
"""Empirical coverage of fastpr's AUC-PR intervals on binormal data of known true area.

    python bench/interval_coverage.py            # 200 data sets per cell (several minutes)
    python bench/interval_coverage.py --trials 50

Each cell draws data sets from ``datasets.binormal`` (negatives N(0, 1), positives
N(separation, 1)) at one size and prevalence; the true AUC-PR of the population comes from
``datasets.binormal_auc_pr`` (numerical integration). The table reports the share of 95%
intervals that contain it, per interval method, and the mean interval width. A method is honest
when its coverage is near 0.95. Prints a markdown table for the README.
"""
import argparse
import time

import numpy as np

import fastpr
from fastpr import datasets

SIZES = (500, 2000, 10_000)
PREVALENCES = (0.05, 0.2, 0.5)
SEPARATION = 1.5
METHODS = ("percentile", "basic", "bca", "binomial", "logit")


def cell(n, prevalence, trials, n_boot):
    truth = datasets.binormal_auc_pr(prevalence, SEPARATION)
    hits = {m: 0 for m in METHODS}
    widths = {m: [] for m in METHODS}
    for seed in range(trials):
        y, s = datasets.binormal(n, prevalence, SEPARATION, seed=seed)
        if y.all() or not y.any():
            continue
        intervals = {}
        bca = fastpr.bootstrap(y, s, n_boot=n_boot, seed=seed, interval="bca")
        percentile = fastpr.bootstrap(y, s, n_boot=n_boot, seed=seed)
        basic = fastpr.bootstrap(y, s, n_boot=n_boot, seed=seed, interval="basic")
        intervals.update(percentile=percentile, basic=basic, bca=bca)
        for rule in ("binomial", "logit"):
            intervals[rule] = fastpr.confidence_interval(y, s, rule=rule)
        for m, ci in intervals.items():
            hits[m] += ci.low <= truth <= ci.high
            widths[m].append(ci.high - ci.low)
    return truth, {m: hits[m] / trials for m in METHODS}, {m: np.mean(widths[m]) for m in METHODS}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=200)
    parser.add_argument("--n-boot", type=int, default=500)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    print(f"Coverage of 95% intervals for the interpolated AUC-PR; binormal scores, separation "
          f"{SEPARATION}; {args.trials} data sets per row, {args.n_boot} bootstrap replicates.")
    print()
    print("| n | prevalence | true AUC-PR | " + " | ".join(METHODS) + " |")
    print("|---:|---:|---:|" + "---:|" * len(METHODS))
    for n in SIZES:
        for prevalence in PREVALENCES:
            truth, coverage, width = cell(n, prevalence, args.trials, args.n_boot)
            cells = " | ".join(f"{coverage[m]:.2f} ({width[m]:.3f})" for m in METHODS)
            print(f"| {n:,} | {prevalence} | {truth:.3f} | {cells} |", flush=True)
    print()
    print(f"Cells: coverage (mean width). Run time {time.perf_counter() - start:.0f} s.")


if __name__ == "__main__":
    main()
