#!/usr/bin/env python
"""One-run comparison of fastpr.learn against what a learner calls in its inner loop.

    python bench/learners.py              # the target sizes (about 4 minutes on 2 cores)
    python bench/learners.py --quick      # a tenth of the sizes, a smoke run (under a minute)
    python bench/learners.py --rounds 20  # more boosting rounds in the practitioner's table
    python bench/learners.py --only lambda_sums --repeats 9  # one group of rows, focused

Prints the machine first, then one line per row as it is measured, then the targets and the
practitioner's table. Every ratio comes from timings taken in this one run, the two sides
interleaved so that drift in the machine hits both alike; times are medians.

Rows
----
* ``lambda_sums`` on 10^6 and 10^7 rows (1% positives) against ``fastpr.evaluate`` on the same
  rows (target <= 2x), both as one call and as the method of ``FixedLabels`` kept between calls.
* top-k (k = 32) LambdaMART gradients of one 10^6-row ranking against the time XGBoost's
  ``rank:map`` adds to a boosting round over ``binary:logistic`` (target >= 10x faster): both
  from the practitioner's table below, the gradients timed inside the custom objective, the
  time added as the median over rounds of a ``rank:map`` round minus the same ``logistic`` one.
* ``swap_delta`` queries per second inside ``@numba.njit`` (``kernels.swap_delta_at`` on
  random pairs of positions; target >= 10^7 per second), and through ``SwapDelta.swap``.
* an eval-metric call at 10^7 rows, ``fastpr.learn.xgboost.Metric("auc_pr")`` as XGBoost calls
  it, against ``Booster.eval`` with XGBoost's own ``aucpr`` (target >= 10x faster).
* ``FixedLabels.metric`` at n = 1,000 against ``np.sort`` of the same scores, 5% and 30%
  positives, for auc_pr, average_precision and auc_roc (target <= 2x); blocks of single calls.
* ``kernels.summary`` inside ``@numba.njit`` against the Python call ``fastpr.evaluate`` at
  10^3, 10^5 and 10^6 rows (target: not slower).
* the practitioner's table: XGBoost (``hist``, depth 6, eta 0.3) on a synthetic, learnable and
  imbalanced set (10^6 training rows, 0.5% positives, 2.5 * 10^5 held out, fixed seed) trained
  with ``binary:logistic``, ``rank:map`` and fastpr's top-k and all-pairs objectives, trained in
  lockstep (round i of each in turn): the median seconds of a round and the held-out AUC-PR
  (interpolated, as XGBoost's ``aucpr``) after ``--rounds`` rounds.

Needs xgboost for the XGBoost rows (they are skipped, saying so, without it); not lightgbm.
"""
import argparse
import os
import statistics
import sys
import time
import warnings

import numba
import numpy as np
from benchmarks._data import make_ranking
from compare import (
    _load,
    _version,
    fmt_ratio,
    fmt_time,
    interleaved_medians,
    machine_description,
    single_call_median,
    summaries_in_njit,
)

import fastpr
from fastpr import kernels
from fastpr.learn import FixedLabels, lambda_sums, swap_delta
from fastpr.learn import xgboost as fastpr_xgb

try:
    import xgboost as xgb
except ImportError:
    xgb = None

MISSING_XGBOOST = "xgboost is not installed (pip install xgboost): its rows are skipped"
_THREADS = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
# XGBoost's trees, the same for every objective of the practitioner's table.
_TREE_PARAMS = {"tree_method": "hist", "max_depth": 6, "eta": 0.3, "nthread": _THREADS,
                "seed": 0, "disable_default_eval_metric": 1}
_FEATURES = 20
# The groups of rows, in the order they are measured (``--only``).
_GROUPS = ("lambda_sums", "boosting", "swap_delta", "eval_metric", "fixed_labels", "summary")
_PREVALENCE = 0.005


def _progress(what):
    print(f"  measured: {what}", file=sys.stderr, flush=True)


def interleaved_call_medians(funcs, calls, blocks):
    """Median over ``blocks`` of the median seconds of one call in a block of ``calls`` single
    calls, the functions' blocks taken in turn (GC off while timing)."""
    block_medians = [[] for _ in funcs]
    for func in funcs:
        for _ in range(calls // 5):  # warm the caches and the buffers
            func()
    for _ in range(blocks):
        for k, func in enumerate(funcs):
            block_medians[k].append(single_call_median(func, calls, warmup=0))
    return [statistics.median(m) for m in block_medians]


def _row(case, fast, base, base_name, target, ok):
    """One measured row: ``ok(ratio)`` decides whether the target is met."""
    ratio = fast / base if fast is not None and base is not None else None
    row = {"case": case, "fast": fast, "base": base, "base_name": base_name, "ratio": ratio,
           "target": target, "met": None if ratio is None else ok(ratio)}
    _progress(case)
    return row


# ----------------------------------------------------------------------------- the rows
def lambda_sums_rows(sizes, repeats):
    """The one call (labels checked and buffers made each time) and the method of labels kept
    from call to call (a learner's loop), each against ``evaluate``."""
    rows = []
    for n in sizes:
        y, s = make_ranking(n, "float64", 0.01)
        labels = FixedLabels(y)
        lambda_sums(y[:1000], s[:1000])
        fastpr.evaluate(y, s)  # warm the pages and the allocator
        lambda_sums(y, s)
        labels.lambda_sums(s)
        t_sums, t_kept, t_eval = interleaved_medians(
            [lambda y=y, s=s: lambda_sums(y, s), lambda f=labels.lambda_sums, s=s: f(s),
             lambda y=y, s=s: fastpr.evaluate(y, s)], repeats)
        rows.append(_row(f"lambda_sums, n={n:,}, 1% positives", t_sums, t_eval, "evaluate",
                         "<= 2x", lambda r: r <= 2.0))
        rows.append(_row(f"FixedLabels.lambda_sums (labels kept), n={n:,}, 1% positives",
                         t_kept, t_eval, "evaluate", "<= 2x", lambda r: r <= 2.0))
    return rows


@numba.njit
def _swap_queries(table, p, q, rounds):
    total = 0.0
    for _ in range(rounds):
        for k in range(p.size):
            total += kernels.swap_delta_at(table, p[k], q[k])
    return total


def swap_delta_rows(sizes, queries, repeats):
    rows = []
    rng = np.random.default_rng(1)
    for n in sizes:
        y, s = make_ranking(n, "float64", 0.1)
        deltas = swap_delta(y, s)
        ranked_true = y[deltas.order]
        table = np.empty((n + 1, kernels.AP_DELTA_COLUMNS))
        kernels.ap_delta_table(ranked_true, table)
        p = rng.integers(0, n, queries)
        q = rng.integers(0, n, queries)
        _swap_queries(table, p[:10], q[:10], 1)  # compile outside the timing
        t_njit, t_python = interleaved_medians(
            [lambda t=table, p=p, q=q: _swap_queries(t, p, q, 10),
             lambda f=deltas.swap, p=p, q=q: f(p, q)], repeats)
        njit_rate = 10 * queries / t_njit
        python_rate = queries / t_python
        rows.append({"case": f"swap_delta queries per second, ranking of n={n:,}, "
                             f"{queries:,} random pairs", "njit_rate": njit_rate,
                     "python_rate": python_rate, "target": ">= 1e7/s inside njit",
                     "met": njit_rate >= 1e7})
        _progress(rows[-1]["case"])
    return rows


def fixed_labels_rows(calls, blocks):
    rows = []
    for prevalence in (0.05, 0.3):
        y, s = make_ranking(1000, "float64", prevalence)
        labels = FixedLabels(y)
        for name in ("auc_pr", "average_precision", "auc_roc"):
            t_metric, t_sort = interleaved_call_medians(
                [lambda f=labels.metric, s=s, name=name: f(s, name),
                 lambda s=s: np.sort(s)], calls, blocks)
            rows.append(_row(f"FixedLabels.metric({name!r}), n=1,000, {prevalence:.0%} "
                             "positives", t_metric, t_sort, "np.sort", "<= 2x",
                             lambda r: r <= 2.0))
    return rows


def summary_rows(sizes, repeats):
    rows = []
    no_weights = np.empty(0)
    summaries = summaries_in_njit()
    for n in sizes:
        rankings = max(1, 10**5 // n)  # about 10^5 rows a timing, whatever n
        y, s = make_ranking(n, "float64", 0.1)
        score_rows = np.stack([np.roll(s, k) for k in range(rankings)])
        summaries(y, score_rows[:1], no_weights)  # compile outside the timing
        fastpr.evaluate(y, s)
        t_njit, t_eval = interleaved_medians(
            [lambda y=y, rows=score_rows: summaries(y, rows, no_weights),
             lambda y=y, rows=score_rows: [fastpr.evaluate(y, row) for row in rows]], repeats)
        rows.append(_row(f"kernels.summary inside @njit, n={n:,}, 10% positives", t_njit /
                         rankings, t_eval / rankings, "evaluate", "<= 1x",
                         lambda r: r <= 1.0))
    return rows


def eval_metric_row(n, repeats):
    if xgb is None:
        return None
    y, s = make_ranking(n, "float64", 0.01)
    data = xgb.DMatrix(np.zeros((n, 1), dtype=np.float32), label=y.astype(np.float32),
                       base_margin=np.log(s / (1.0 - s)), nthread=_THREADS)
    # Without trees the predictions are the base margins: the model here is the scores.
    booster = xgb.train({"objective": "binary:logistic", "eval_metric": "aucpr",
                         "nthread": _THREADS}, data, 0)
    predt = booster.predict(data)
    metric = fastpr_xgb.Metric("auc_pr")
    metric(predt, data)
    booster.eval(data)
    t_fast, t_xgb = interleaved_medians([lambda: metric(predt, data),
                                         lambda: booster.eval(data)], repeats)
    return _row(f"eval metric, n={n:,}, 1% positives: Metric('auc_pr') on the float32 "
                "predictions", t_fast, t_xgb, "XGBoost aucpr (Booster.eval)", ">= 10x faster",
                lambda r: r <= 0.1)


# ----------------------------------------------------------------------------- boosting
def imbalanced_set(n_train, n_test, seed=0):
    """(x, y, signal) of ``n_train + n_test`` rows: 20 standard normal features, a signal with
    linear, interaction and non-linear parts, and positive where the signal plus logistic noise
    is in its top 0.5%."""
    rng = np.random.default_rng(seed)
    n = n_train + n_test
    x = rng.standard_normal((n, _FEATURES), dtype=np.float32)
    weights = rng.normal(size=_FEATURES) / np.arange(1, _FEATURES + 1)
    signal = x @ weights + 0.8 * x[:, 0] * x[:, 1] + np.sin(2.0 * x[:, 2])
    logit = signal + rng.logistic(size=n)
    y = (logit > np.quantile(logit, 1.0 - _PREVALENCE)).astype(np.float32)
    return x, y, signal


class _TimedObjective:
    """A custom objective that records the seconds each of its calls takes."""

    def __init__(self, objective):
        self.objective = objective
        self.seconds = []

    def __call__(self, predt, dtrain):
        start = time.perf_counter()
        out = self.objective(predt, dtrain)
        self.seconds.append(time.perf_counter() - start)
        return out


def boosting_table(n_train, rounds):
    """({objective: (seconds of each round, seconds of each objective call or None, held-out
    AUC-PR after ``rounds`` rounds)}, held-out AUC-PR of the noiseless signal).

    The boosters train in lockstep, round i of each in turn, so that drift in the machine hits
    every objective's rounds alike."""
    n_test = n_train // 4
    x, y, signal = imbalanced_set(n_train, n_test)
    train = xgb.DMatrix(x[:n_train], label=y[:n_train], nthread=_THREADS)
    test = xgb.DMatrix(x[n_train:], nthread=_THREADS)
    y_test = y[n_train:]
    setups = [("binary:logistic", {"objective": "binary:logistic"}, None),
              ("rank:map (XGBoost)", {"objective": "rank:map"}, None),
              ("fastpr top-k (k=32), custom objective", {},
               _TimedObjective(fastpr_xgb.Objective(ungrouped="one_query"))),
              ("fastpr all pairs, custom objective", {},
               _TimedObjective(fastpr_xgb.Objective(pairs="all", ungrouped="one_query")))]
    # rank:map's one ranking on purpose (its speed is what is compared): not the warning about it
    warnings.filterwarnings("ignore", "One ranking of", UserWarning)
    boosters = [xgb.Booster({**_TREE_PARAMS, **params}, [train]) for _, params, _ in setups]
    seconds = [[] for _ in setups]
    for i in range(rounds):
        for booster, (_, _, objective), times in zip(boosters, setups, seconds):
            start = time.perf_counter()
            booster.update(train, i, fobj=objective)
            times.append(time.perf_counter() - start)
    table = {}
    for booster, (name, _, objective), times in zip(boosters, setups, seconds):
        margin = booster.predict(test, output_margin=True)
        table[name] = (times, objective.seconds if objective else None,
                       fastpr.auc_pr(y_test, margin))
    _progress(f"{rounds} rounds of each objective")
    return table, fastpr.auc_pr(y_test, signal[n_train:])


def gradient_row(table, n_train):
    """The top-k objective's calls against the median over rounds of what a round of
    ``rank:map`` took beyond the same round of ``binary:logistic``."""
    added = statistics.median(
        ranking - logistic for ranking, logistic in zip(table["rank:map (XGBoost)"][0],
                                                        table["binary:logistic"][0]))
    gradients = statistics.median(table["fastpr top-k (k=32), custom objective"][1])
    if added <= 0.0:  # noise larger than what rank:map adds: no ratio to report
        added = None
    return _row(f"top-k (k=32) gradients, one ranking of n={n_train:,} (objective call, "
                "median over rounds)", gradients, added, "rank:map round - logistic round",
                ">= 10x faster", lambda r: r <= 0.1)


# ----------------------------------------------------------------------------- output
def _speed_cell(row):
    if row["ratio"] is None:
        return "n/a"
    if row["ratio"] < 1.0:
        return f"{fmt_ratio(1.0 / row['ratio'])} faster"
    return fmt_ratio(row["ratio"])


def ratio_table(rows):
    lines = ["| case | fastpr | baseline | fastpr / baseline | target | |",
             "|---|---:|---|---:|---|---|"]
    for row in rows:
        if "njit_rate" in row:
            lines.append(f"| {row['case']} | {row['njit_rate']:.3g}/s inside njit | "
                         f"{row['python_rate']:.3g}/s via SwapDelta.swap | | {row['target']} | "
                         f"{_mark(row['met'])} |")
            continue
        lines.append(f"| {row['case']} | {fmt_time(row['fast'])} | {row['base_name']} "
                     f"{fmt_time(row['base'])} | {_speed_cell(row)} | {row['target']} | "
                     f"{_mark(row['met'])} |")
    return "\n".join(lines)


def _mark(met):
    return "n/a" if met is None else "met" if met else "MISSED"


def practitioner_table(table, ceiling, n_train, rounds):
    lines = [(f"XGBoost, {n_train:,} training rows, {_PREVALENCE:.1%} positives, "
              f"{n_train // 4:,} held out; hist, depth 6, eta 0.3, {_THREADS} threads; "
              f"{rounds} rounds. The noiseless signal itself scores {ceiling:.4f} held out."),
             "",
             "| objective | seconds per round | of which the objective | held-out AUC-PR |",
             "|---|---:|---:|---:|"]
    for name, (round_seconds, objective_seconds, auc_pr) in table.items():
        objective = ("" if objective_seconds is None
                     else f"{statistics.median(objective_seconds):.3f}")
        lines.append(f"| {name} | {statistics.median(round_seconds):.3f} | {objective} | "
                     f"{auc_pr:.4f} |")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="a tenth of the sizes and fewer repeats (a smoke run)")
    parser.add_argument("--rounds", type=int, default=None,
                        help="boosting rounds per objective (default 10, 3 quick)")
    parser.add_argument("--repeats", type=int, default=None,
                        help="repeats of each timing (default 5, 3 quick)")
    parser.add_argument("--only", choices=_GROUPS, action="append", default=None,
                        help="measure only these groups of rows (repeatable; default all)")
    args = parser.parse_args(argv)
    groups = args.only or _GROUPS
    scale = 10 if args.quick else 1
    rounds = args.rounds or (3 if args.quick else 10)
    repeats = args.repeats or (3 if args.quick else 5)
    n_train = 10**6 // scale

    load_at_start = _load()
    print(f"## fastpr.learn performance (python bench/learners.py {' '.join(sys.argv[1:])})\n")
    print(machine_description(load_at_start))
    print(f"- xgboost {_version('xgboost') or 'not installed'}, "
          f"lightgbm {_version('lightgbm') or 'not installed'} (not needed)")
    if xgb is None:
        print(f"- {MISSING_XGBOOST}")
    print(flush=True)

    started = time.perf_counter()
    rows = []
    table = None
    if "lambda_sums" in groups:
        rows.extend(lambda_sums_rows([10**6 // scale, 10**7 // scale], repeats))
    if xgb is not None and "boosting" in groups:
        table, ceiling = boosting_table(n_train, rounds)
        rows.append(gradient_row(table, n_train))
    if "swap_delta" in groups:
        rows.extend(swap_delta_rows([1000, 10**6 // scale], 10**6 // scale, repeats))
    if xgb is not None and "eval_metric" in groups:
        rows.append(eval_metric_row(10**7 // scale, repeats))
    if "fixed_labels" in groups:
        rows.extend(fixed_labels_rows(200 if args.quick else 1000, 3 if args.quick else 7))
    if "summary" in groups:
        rows.extend(summary_rows([1000, 10**5 // scale, 10**6 // scale], repeats))
    elapsed = time.perf_counter() - started

    print(f"Medians of {repeats} interleaved timings; n = 1,000 rows: medians of blocks of "
          f"single calls. Scores sigmoid(normal + 1.5 y) unless stated. Total {elapsed:.0f} s; "
          f"load average (1 min) at the end {_load():.2f}.\n")
    print(ratio_table(rows))
    print()
    if table is not None:
        print(practitioner_table(table, ceiling, n_train, rounds))
    elif xgb is None:
        print(MISSING_XGBOOST)


if __name__ == "__main__":
    main()
