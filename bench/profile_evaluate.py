#!/usr/bin/env python
"""Where the time of ``fastpr.evaluate`` goes: each stage timed on its own.

    python bench/profile_evaluate.py            # n = 10M, plus the n = 1000 call overhead
    python bench/profile_evaluate.py --n 1000000

A developer's tool, not a benchmark: it reaches into private modules (``fastpr._validation``,
``fastpr._ranking``, ``fastpr._kernels``) and mirrors ``_ranking.sort_ranking`` stage by stage,
so it needs updating when those internals change. Stages that no longer exist are reported as
such instead of failing. The "walk only" line is a kernel written here that does the merge-walk
over the two sorted classes (ties and the ROC sum) and nothing else: the gap between it and the
full sweep is the cost of the PR areas and the hull.
"""
import argparse
import gc
import os
import statistics
import sys
import time

import numpy as np

BENCH_DIR = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, BENCH_DIR)

import fastpr  # noqa: E402
from benchmarks._data import make_ranking  # noqa: E402


def median(func, repeats):
    """Median seconds of one call; GC collected once, then off (a collect per call would flush
    the caches and inflate the small-n timings)."""
    times = []
    func()
    gc.collect()
    gc.disable()
    try:
        for _ in range(repeats):
            start = time.perf_counter()
            func()
            times.append(time.perf_counter() - start)
    finally:
        gc.enable()
    return statistics.median(times)


def _walk_kernel():
    import numba

    @numba.njit(cache=False, nogil=True)
    def walk(pos, neg):
        i = pos.size - 1
        j = neg.size - 1
        tp = 0.0
        fp = 0.0
        roc2 = 0.0
        points = 0
        while i >= 0 or j >= 0:
            if j < 0 or (i >= 0 and pos[i] >= neg[j]):
                threshold = pos[i]
            else:
                threshold = neg[j]
            start = i
            while i >= 0 and pos[i] == threshold:
                i -= 1
            dtp = float(start - i)
            start = j
            while j >= 0 and neg[j] == threshold:
                j -= 1
            dfp = float(start - j)
            roc2 += dfp * (2.0 * tp + dtp)
            tp += dtp
            fp += dfp
            points += 1
        return roc2, points

    return walk


def stages(y, s, repeats):
    """[(stage, seconds or None)] for one ranking."""
    from fastpr import _validation
    from fastpr import _ranking
    from fastpr._kernels import sweep as _sweep

    out = []

    def t(name, func):
        try:
            out.append((name, median(func, repeats)))
        except Exception as err:  # an internal that changed shape: report, keep going
            out.append((f"{name} [failed: {type(err).__name__}: {err}]", None))

    t("validation: check_binary_inputs (label mask + score checks)",
      lambda: _validation.check_binary_inputs(y, s, None, None))
    mask, scores, _ = _validation.check_binary_inputs(y, s, None, None)
    t("  of which positive_mask(y_true)", lambda: _validation.positive_mask(y, None))
    t("  of which scores(y_score) (dtype + NaN check)", lambda: _validation.scores(s))
    t("split: ~mask", lambda: ~mask)
    neg_mask = ~mask
    t("split: scores[mask] (positives)", lambda: scores[mask])
    t("split: scores[~mask] (negatives)", lambda: scores[neg_mask])
    try:
        from fastpr._kernels.split import split_by_class
    except ImportError:
        split_by_class = None
    if split_by_class is not None:
        split_by_class(scores[:10], mask[:10])
        t("split: split_by_class kernel (both classes, one pass)",
          lambda: split_by_class(scores, mask))
    pos, neg = scores[mask], scores[neg_mask]
    t(f"np.sort positives ({pos.size:,})", lambda: np.sort(pos))
    t(f"np.sort negatives ({neg.size:,})", lambda: np.sort(neg))
    pos.sort()
    neg.sort()
    t("sort_ranking total (validation + split + sorts)",
      lambda: _ranking.sort_ranking(y, s, None, None))
    empty_w = np.empty(0, dtype=np.float64)
    no_points = np.empty((0, 3))
    _sweep.sweep(pos, empty_w, neg, empty_w, no_points)
    t("numba sweep (areas, hull, ROC)", lambda: _sweep.sweep(pos, empty_w, neg, empty_w, no_points))
    walk = _walk_kernel()
    walk(pos[:10], neg[:10])
    t("  reference: merge-walk only (ties + ROC, written here)", lambda: walk(pos, neg))
    ranking = _ranking.sort_ranking(y, s, None, None)
    t("run_sweep (wrapper + sweep)", lambda: _ranking.run_sweep(ranking))
    sweep = _ranking.run_sweep(ranking)
    from fastpr import metrics as _metrics
    if hasattr(_metrics, "_evaluation_from_sweep"):
        t("Evaluation from sweep (Python result)", lambda: _metrics._evaluation_from_sweep(sweep))
    t("evaluate total", lambda: fastpr.evaluate(y, s))
    t("reference: np.sort(y_score)", lambda: np.sort(s))
    return out


def report(title, rows, unit, scale):
    print(f"\n### {title}\n")
    print(f"| stage | median ({unit}) |")
    print("|---|---:|")
    for name, seconds in rows:
        print(f"| {name} | {'n/a' if seconds is None else f'{seconds * scale:.1f}'} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=10_000_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--dtype", default="float64")
    parser.add_argument("--prevalence", type=float, default=0.01)
    parser.add_argument("--scores", default="continuous", choices=["continuous", "ties"])
    args = parser.parse_args()

    y, s = make_ranking(args.n, args.dtype, args.prevalence, args.scores)
    fastpr.evaluate(y[:1000], s[:1000])
    try:
        big = stages(y, s, args.repeats)
    except (ImportError, AttributeError, TypeError) as err:
        sys.exit(f"fastpr internals changed ({err!r}); update bench/profile_evaluate.py")
    report(f"evaluate stages, n={args.n:,} {args.dtype}, {args.prevalence:.1%} positives, "
           f"{args.scores} scores", big, "ms", 1e3)
    y1, s1 = make_ranking(1000, args.dtype, args.prevalence, args.scores)
    report("evaluate stages, n=1,000 (per-call overhead)", stages(y1, s1, 2000), "µs", 1e6)


if __name__ == "__main__":
    main()
