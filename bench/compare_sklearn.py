#!/usr/bin/env python
"""One-run comparison of fastpr.sklearn's drop-in functions with scikit-learn's own.

    python bench/compare_sklearn.py            # n = 1,000 and 1,000,000; cross_validate on 10^6
    python bench/compare_sklearn.py --quick    # fewer repeats, cross_validate on 10^5 rows

Rows (medians; the two sides of each ratio are timed in the same run, interleaved, so that drift
in the machine hits both alike):

* each drop-in function (``average_precision_score``, ``roc_auc_score``,
  ``precision_recall_curve``, ``roc_curve``, ``det_curve``) on a binary ranking of n rows
  (int64 {0, 1} labels, 10% positives, float64 scores ``sigmoid(normal + 1.5 y)``; two such
  rankings in turn, so that no call repeats the one before): at
  n = 1,000 the median of blocks of single calls, at n = 1,000,000 of a few calls. The "engine"
  column times what the drop-in is built on, the engine's sort and walk of bool labels and
  float64 scores (the lean sweep of AUC-ROC and average precision for the areas, the walk that
  finds the operating points for the curves): the floor under the drop-in, whose own share is
  its checks and scikit-learn's conventions.
* the multilabel and multiclass paths: ``average_precision_score`` over 5 labels (macro),
  ``roc_auc_score`` over 5 classes one-vs-rest and one-vs-one, and
  ``label_ranking_average_precision_score`` over rows of 10 labels, n rows of scores in all.
* ``cross_validate(LogisticRegression(), X, y, scoring=["average_precision", "roc_auc"], cv=5)``
  on 10^6 rows, unpatched and inside ``fastpr.sklearn.patched()``: the total of the folds'
  ``score_time``, which includes the estimator's ``decision_function``. That matrix product
  runs on BLAS's threads, which on a machine whose cores are busy with other work wait on
  each other for longer than the patched metrics take; so the row is measured twice, with
  BLAS's default threads and with BLAS on one thread (``threadpoolctl``), to show the
  metrics' share apart from that contention.
"""
import argparse
import itertools
import statistics
import sys
import time
import warnings

import numpy as np
from benchmarks._data import make_ranking
from compare import (
    _load,
    fmt_ratio,
    fmt_time,
    interleaved_medians,
    machine_description,
    single_call_median,
)

import fastpr.sklearn as fs
from fastpr.sklearn import _rankings

TARGETS = {1_000: 30.0, 1_000_000: 20.0}
CV_TARGET = 10.0
BINARY = ("average_precision_score", "roc_auc_score", "precision_recall_curve", "roc_curve",
          "det_curve")


def _sklearn():
    try:
        import sklearn.metrics
    except ImportError:
        sys.exit("this benchmark needs scikit-learn: pip install -e \".[bench]\"")
    return sklearn.metrics


def _single_calls_interleaved(funcs, calls, rounds=10):
    """Median seconds of one call of each callable (``calls[k]`` calls of ``funcs[k]`` in
    all), timed one by one in ``rounds`` interleaved blocks so that the machine's drift hits
    every callable alike."""
    times = [[] for _ in funcs]
    for _ in range(rounds):
        for k, func in enumerate(funcs):
            if func is not None:
                times[k].append(single_call_median(func, calls[k] // rounds, warmup=5))
    return [statistics.median(t) if t else None for t in times]


def _time_pair(ours, theirs, engine, n, repeats):
    """Median seconds of (drop-in, scikit-learn, engine)."""
    if n <= 10_000:
        return _single_calls_interleaved([ours, theirs, engine], [2000, 200, 2000])
    for func in (ours, theirs, engine):  # paths that only large rankings take compile here
        for _ in range(2):  # (both inputs of an alternating callable)
            if func is not None:
                func()
    return interleaved_medians([ours, theirs, engine], repeats)


def _alternating(func, inputs):
    """A callable that calls ``func`` on each of ``inputs`` in turn: fastpr.sklearn keeps the
    areas of the last ranking for a call on equal input (``_last_ranking``), which calls of
    one metric on one input over and over would time instead of the metric."""
    turns = itertools.cycle(inputs)
    return lambda: func(*next(turns))


def binary_rows(metrics, n, repeats):
    rankings = [make_ranking(n, prevalence=0.1, seed=seed) for seed in (0, 1)]
    labelled = [(y.astype(np.int64), scores) for y, scores in rankings]
    rows = []
    for name in BINARY:
        ours, theirs = getattr(fs, name), getattr(metrics, name)
        engine = _rankings.points if name.endswith("curve") else _rankings.binary_areas
        times = _time_pair(_alternating(ours, labelled), _alternating(theirs, labelled),
                           _alternating(engine, [(*r, None) for r in rankings]), n, repeats)
        rows.append((f"`{name}`, binary", n, *times))
        print(f"  measured: {name} at n={n:,}", file=sys.stderr, flush=True)
    return rows


def multi_rows(metrics, n, repeats):
    rng = np.random.default_rng(1)
    n_classes = 5
    codes = rng.integers(0, n_classes, n)
    logits = rng.standard_normal((n, n_classes)) + 1.5 * (codes[:, None] == np.arange(n_classes))
    proba = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    indicator = (rng.random((n, n_classes)) < 0.2).astype(np.int64)
    label_scores = rng.standard_normal((n, n_classes)) + indicator
    rows_of_ten = max(1, n // 10)
    ranked = (rng.random((rows_of_ten, 10)) < 0.3).astype(np.int64)
    ranking_scores = np.round(rng.standard_normal((rows_of_ten, 10)) + ranked, 1)
    cases = [
        ("`average_precision_score`, 5 labels, macro", "average_precision_score",
         (indicator, label_scores), {}),
        ("`roc_auc_score`, 5 classes, ovr", "roc_auc_score", (codes, proba),
         {"multi_class": "ovr"}),
        ("`roc_auc_score`, 5 classes, ovo", "roc_auc_score", (codes, proba),
         {"multi_class": "ovo"}),
        (f"`label_ranking_average_precision_score`, rows of 10 labels ({rows_of_ten:,} rows)",
         "label_ranking_average_precision_score", (ranked, ranking_scores), {}),
    ]
    rows = []
    for label, name, args, kwargs in cases:
        ours, theirs = getattr(fs, name), getattr(metrics, name)
        times = _time_pair(lambda f=ours, a=args, k=kwargs: f(*a, **k),
                           lambda f=theirs, a=args, k=kwargs: f(*a, **k), None, n, repeats)
        rows.append((label, n, *times))
        print(f"  measured: {label} at n={n:,}", file=sys.stderr, flush=True)
    return rows


def cross_validate_row(n, repeats, blas_threads=None):
    """Median total score_time (patched, unpatched), with BLAS limited to ``blas_threads``
    threads (None: BLAS's own default) while it runs."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import cross_validate
    from threadpoolctl import threadpool_limits

    rng = np.random.default_rng(2)
    X = rng.standard_normal((n, 4))
    y = (X[:, 0] - X[:, 1] + 2 * rng.standard_normal(n) > 2).astype(np.int64)
    scoring = ["average_precision", "roc_auc"]
    plain, patched = [], []
    for _ in range(repeats):
        for seconds, patch in ((plain, False), (patched, True)):
            if patch:
                fs.patch()
            try:
                with threadpool_limits(blas_threads, user_api="blas"):
                    result = cross_validate(LogisticRegression(), X, y, scoring=scoring, cv=5)
            finally:
                fs.unpatch()
            seconds.append(result["score_time"].sum())
    print("  measured: cross_validate", file=sys.stderr, flush=True)
    return statistics.median(patched), statistics.median(plain)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="fewer repeats; cross_validate on 10^5 rows")
    parser.add_argument("--repeats", type=int, help="repeats at n = 10^6 (default 3)")
    args = parser.parse_args(argv)
    repeats = args.repeats or (2 if args.quick else 3)
    cv_rows = 100_000 if args.quick else 1_000_000
    metrics = _sklearn()
    load_at_start = _load()
    started = time.perf_counter()
    rows = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # no case here is undefined; keep stderr for progress
        for n in TARGETS:
            rows += binary_rows(metrics, n, repeats)
            rows += multi_rows(metrics, n, repeats)
        cross_validations = [(blas, *cross_validate_row(cv_rows, repeats, blas))
                             for blas in (None, 1)]
    elapsed = time.perf_counter() - started

    command = "python bench/compare_sklearn.py" + (" " + " ".join(sys.argv[1:])
                                                   if sys.argv[1:] else "")
    print(f"## fastpr.sklearn against scikit-learn ({command})\n")
    print(machine_description(load_at_start))
    print(f"\nMedians: at n = 1,000 of 10 interleaved blocks of single calls (2,000 calls in all, "
          f"200 for scikit-learn), at n = 1,000,000 of {repeats} interleaved runs. Total run time "
          f"{elapsed:.0f} s.\n")
    print("| case | n | fastpr.sklearn | scikit-learn | sklearn / fastpr | target | "
          "engine |")
    print("|---|---:|---:|---:|---:|---|---:|")
    for label, n, ours, theirs, engine in rows:
        ratio = theirs / ours
        target = TARGETS[n]
        verdict = f">= {target:g}x " + ("met" if ratio >= target else "MISSED")
        print(f"| {label} | {n:,} | {fmt_time(ours)} | {fmt_time(theirs)} | {fmt_ratio(ratio)} "
              f"| {verdict} | {fmt_time(engine)} |")
    for blas, cv_patched, cv_plain in cross_validations:
        ratio = cv_plain / cv_patched
        verdict = f">= {CV_TARGET:g}x " + ("met" if ratio >= CV_TARGET else "MISSED")
        threads = "BLAS's default threads" if blas is None else f"BLAS on {blas} thread"
        print(f"| `cross_validate`, LogisticRegression, scoring AP + ROC AUC, cv=5: total "
              f"score_time, patched (baseline: unpatched), {threads} | {cv_rows:,} | "
              f"{fmt_time(cv_patched)} | {fmt_time(cv_plain)} | {fmt_ratio(ratio)} | {verdict} "
              "| |")


if __name__ == "__main__":
    main()
