#!/usr/bin/env python
"""Does fastpr's AP objective give better models than logistic loss on binary tasks?

    python bench/learner_quality.py                # tune, then report on fresh seeds (hours on
                                                   # 2 cores; minutes with --jobs 16)
    python bench/learner_quality.py --quick        # a smoke run: two small sets, few rounds
    python bench/learner_quality.py --speed        # one round at 10^6 rows: objective vs logistic

As a boosting user would measure it: XGBoost and LightGBM, each data set split 60/20/20
(stratified) into train / validation / test, depth 6, learning rate 0.1, up to 300 rounds,
early stopping after 30 rounds without a better validation AUC-PR (fastpr's ``Metric``), the
library's other defaults; the test AUC-PR (interpolated) at the best round. Every objective is
paired with ``binary:logistic`` (LightGBM: ``binary``) on the same split and seed, and the
table gives the paired differences of test AUC-PR: their mean, standard deviation and wins.

Objectives
----------
* ``logistic``: the library's own logistic loss (the baseline).
* ``AP, random queries``: ``fastpr.learn.*.Objective(query_positives=R,
  logistic_weight=w)``, each round's rows dealt into random stratified queries of about R
  positives, top-k (k = 32) AP gradients per query, rescaled so that the hessians sum to
  n p (1 - p), then (with w > 0) mixed with logistic loss's: (1 - w) AP + w logistic.
* ``pairwise, same queries``: the ablation. The same random queries (the same seed, so the
  same partitions round by round), the same top-k pairs, RankNet factor, score and query
  normalisation, rescaling and mixing, but every pair weighs 1 instead of its ``|dAP|``: what
  the AP weighting adds to pairwise ranking.
* ``AP, one query``: ``Objective(ungrouped="one_query")``, XGBoost's ``rank:map`` on one
  ranking of all rows (what ``Objective()`` did before).

Tuning: R in {2, 4, 8, 16} and w in {0, 0.25, 0.5, 0.75} (rescaled) are tried on the tuning
seeds (0, 1). The pick, declared before the run: among the candidates whose worst mean paired
difference over a (library, data set) is at least -0.01, the best mean over every (library,
data set, tuning seed); if none is, the best worst. It is then run, with the others above (and
with w = 0 at the same R), on fresh seeds (100 to 104) for the report. A data set's seed draws
the data (generated sets), the split and the objective's random queries. The objective's
defaults (``query_positives = k // 8``, ``logistic_weight=0.75``) are this pick, at commit
32f437a (bench/results/learner_quality.md).

Data sets (offline: generated, or bundled with scikit-learn)
------------------------------------------------------------
``make_classification`` at 0.2% (100k rows), 1% (50k) and 5% (30k) positives; a nonlinear
generator at 1% (50k: products, squares and absolute values of normal features, plus noise,
cut at its 99th percentile); ``make_hastie_10_2`` with its positives subsampled to 2% (about
30k rows); ``make_friedman1`` cut at its 98th percentile (50k); scikit-learn's bundled digits,
"9" against the rest (1,797 rows, 10%).
"""
import argparse
import json
import os
import statistics
import sys
import time
import warnings

BENCH_DIR = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, BENCH_DIR)

if "--jobs" in sys.argv or "--quick" in sys.argv:  # one thread per job, set before numba starts
    os.environ.setdefault("NUMBA_NUM_THREADS", "1")
    os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402
from compare import machine_description  # noqa: E402

from fastpr.learn import FixedLabels  # noqa: E402
from fastpr.learn import lightgbm as fastpr_lgb  # noqa: E402
from fastpr.learn import xgboost as fastpr_xgb  # noqa: E402
# The ablation deals the same random queries as the objective; only a bench reaches this far.
from fastpr.learn._random_queries import RandomQueries  # noqa: E402

TUNE_SEEDS = (0, 1)
REPORT_SEEDS = (100, 101, 102, 103, 104)
QUERY_POSITIVES = (2, 4, 8, 16)
LOGISTIC_WEIGHTS = (0.0, 0.25, 0.5, 0.75)
K = 32
PATIENCE = 30
# The tuning's pick: the best mean paired difference among the candidates whose worst mean over
# a (library, data set) is no worse than this; if none is, the best worst.
HARMLESS = -0.01


# ----------------------------------------------------------------------------- data
def _subsample_positives(x, y, share, rng):
    positives, negatives = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
    keep = rng.choice(positives, round(share / (1 - share) * negatives.size), replace=False)
    rows = np.sort(np.concatenate([keep, negatives]))
    return x[rows], y[rows]


def make_data(name, seed, scale=1.0):
    """(x, y) of data set ``name``, drawn with ``seed``; ``scale`` shrinks the generated ones."""
    from sklearn import datasets

    rng = np.random.default_rng(seed)
    size = lambda n: max(2000, int(n * scale))  # noqa: E731
    if name.startswith("syn"):
        share, n = {"syn 0.2%": (0.002, 100_000), "syn 1%": (0.01, 50_000),
                    "syn 5%": (0.05, 30_000)}[name]
        x, y = datasets.make_classification(size(n), n_features=20, n_informative=6,
                                            n_redundant=4, weights=[1 - share], flip_y=0,
                                            class_sep=0.8, random_state=seed)
    elif name == "nonlinear 1%":
        x = rng.normal(size=(size(50_000), 10))
        logit = (1.5 * np.sin(2 * x[:, 0]) * x[:, 1] + x[:, 2] ** 2 - 1.5 * np.abs(x[:, 3])
                 + x[:, 4] * x[:, 5] + 0.5 * x[:, 6] + rng.normal(size=x.shape[0]))
        y = (logit > np.quantile(logit, 0.99)).astype(int)
    elif name == "hastie 2%":
        x, y = datasets.make_hastie_10_2(size(60_000), random_state=seed)
        x, y = _subsample_positives(x, (y > 0).astype(int), 0.02, rng)
    elif name == "friedman 2%":
        x, target = datasets.make_friedman1(size(50_000), n_features=10, noise=1.0,
                                            random_state=seed)
        y = (target > np.quantile(target, 0.98)).astype(int)
    elif name == "digits 9":
        x, digit = datasets.load_digits(return_X_y=True)
        y = (digit == 9).astype(int)
    else:
        raise ValueError(name)
    return x.astype(np.float32), y.astype(np.float32)


DATA_SETS = ("syn 0.2%", "syn 1%", "syn 5%", "nonlinear 1%", "hastie 2%", "friedman 2%",
             "digits 9")


def split(x, y, seed):
    from sklearn.model_selection import train_test_split

    x_train, x_rest, y_train, y_rest = train_test_split(x, y, test_size=0.4, stratify=y,
                                                        random_state=seed)
    x_valid, x_test, y_valid, y_test = train_test_split(x_rest, y_rest, test_size=0.5,
                                                        stratify=y_rest, random_state=seed)
    return (x_train, y_train), (x_valid, y_valid), (x_test, y_test)


# ----------------------------------------------------------------------------- the ablation
class PairwiseSameQueries:
    """Top-k pairwise (RankNet) gradients in the same random queries as ``Objective(seed=...,
    query_positives=...)``: every pair's weight 1 where the objective has ``|dAP|``, all else
    alike (the pairs, the RankNet factor, score and query normalisation, the rescaling)."""

    def __init__(self, query_positives, rescale, logistic_weight, seed, k=K):
        self.query_positives, self.rescale, self.k = query_positives, rescale, k
        self.logistic_weight = logistic_weight
        self._rng = np.random.default_rng(seed)
        self._kept = None  # (labels, RandomQueries)

    def __call__(self, scores, data):  # xgb.train(obj=...) and lgb.train's params["objective"]
        y = data.get_label()
        if self._kept is None or not np.array_equal(self._kept[0], y):
            self._kept = (np.array(y), RandomQueries(y, self.query_positives))
        queries = self._kept[1]
        scores = np.asarray(scores, dtype=np.float64)
        grad, hess = self.gradients(y == 1, scores, queries.deal(self._rng),
                                    queries.n_queries, queries.hessian_sum)
        w = self.logistic_weight
        if w:  # as the objective mixes in logistic loss
            probability = 1.0 / (1.0 + np.exp(-scores))
            grad = (1 - w) * grad + w * (probability - (y == 1))
            hess = (1 - w) * hess + w * np.maximum(probability * (1 - probability), 1e-16)
        return grad, hess

    def gradients(self, positive, scores, codes, n_queries, hessian_sum):
        n = scores.size
        order = np.lexsort((np.arange(n), -scores, codes))  # by query, score down, row
        bounds = np.searchsorted(codes[order], np.arange(n_queries + 1))
        grad, hess = np.zeros(n), np.zeros(n)
        for q in range(n_queries):
            rows = order[bounds[q]:bounds[q + 1]]
            label, score = positive[rows], scores[rows]
            top = min(self.k, rows.size)
            i = np.arange(top)[:, None]
            j = np.arange(rows.size)[None, :]
            pair = (j > i) & (label[:top, None] != label[None, :])
            upper_positive = np.broadcast_to(label[:top, None], pair.shape)[pair]
            upper = np.broadcast_to(i, pair.shape)[pair]
            lower = np.broadcast_to(j, pair.shape)[pair]
            high = np.where(upper_positive, upper, lower)  # the positive of each pair
            low = np.where(upper_positive, lower, upper)
            delta = np.ones(high.size)
            if score[0] != score[-1]:  # score normalisation, as rank:map's
                delta /= np.abs(score[high] - score[low]) + 0.01
            sigmoid = 1.0 / (1.0 + np.exp(-(score[high] - score[low])))
            lam = (sigmoid - 1.0) * delta
            h = np.maximum(sigmoid * (1.0 - sigmoid), 1e-16) * delta * 2.0
            g_q = np.bincount(high, lam, rows.size) - np.bincount(low, lam, rows.size)
            h_q = np.bincount(high, h, rows.size) + np.bincount(low, h, rows.size)
            total = -2.0 * lam.sum()
            norm = np.log2(1.0 + total) / total if total > 0 else 1.0
            grad[rows], hess[rows] = g_q * norm, h_q * norm
        if self.rescale and hess.sum() > 0:
            factor = hessian_sum / hess.sum()
            grad, hess = grad * factor, hess * factor
        return grad, hess


# ----------------------------------------------------------------------------- one run
def objective_of(variant, seed, library):
    """(built-in objective name or None, custom objective or None) of ``variant``."""
    kind = variant[0]
    module = fastpr_xgb if library == "xgboost" else fastpr_lgb
    if kind == "logistic":
        return ("binary:logistic" if library == "xgboost" else "binary"), None
    if kind == "ap":
        return None, module.Objective(query_positives=variant[1], rescale=variant[2],
                                      logistic_weight=variant[3], seed=seed)
    if kind == "pairwise":
        return None, PairwiseSameQueries(variant[1], variant[2], variant[3], seed)
    if kind == "one_query":
        return None, module.Objective(ungrouped="one_query")
    raise ValueError(variant)


def train_once(library, data_name, seed, variant, rounds, scale):
    """{test AUC-PR, best round, rounds trained, seconds per round} of one run."""
    warnings.filterwarnings("ignore", "One ranking of", UserWarning)  # one_query on purpose
    (x, y), (xv, yv), (xt, yt) = split(*make_data(data_name, seed, scale), seed)
    builtin, custom = objective_of(variant, seed, library)
    start = time.perf_counter()
    if library == "xgboost":
        import xgboost as xgb

        train, valid = xgb.DMatrix(x, y, nthread=1), xgb.DMatrix(xv, yv, nthread=1)
        params = {"tree_method": "hist", "max_depth": 6, "eta": 0.1, "nthread": 1,
                  "seed": seed, "disable_default_eval_metric": 1}
        if builtin:
            params["objective"] = builtin
        booster = xgb.train(params, train, rounds, evals=[(valid, "valid")], obj=custom,
                            custom_metric=fastpr_xgb.Metric("auc_pr"), maximize=True,
                            early_stopping_rounds=PATIENCE, verbose_eval=False)
        seconds = time.perf_counter() - start
        trained, best = booster.num_boosted_rounds(), booster.best_iteration + 1
        margins = booster.predict(xgb.DMatrix(xt, nthread=1), output_margin=True,
                                  iteration_range=(0, best))
    else:
        import lightgbm as lgb

        train = lgb.Dataset(x, y, free_raw_data=False)
        valid = lgb.Dataset(xv, yv, reference=train)
        params = {"objective": builtin or custom, "max_depth": 6, "num_leaves": 64,
                  "learning_rate": 0.1, "num_threads": 1, "seed": seed, "verbosity": -1,
                  "metric": "None", "deterministic": True}
        booster = lgb.train(params, train, rounds, valid_sets=[valid],
                            feval=fastpr_lgb.Metric("auc_pr"),
                            callbacks=[lgb.early_stopping(PATIENCE, verbose=False)])
        seconds = time.perf_counter() - start
        trained, best = booster.current_iteration(), booster.best_iteration or rounds
        margins = booster.predict(xt, num_iteration=best, raw_score=True)
    test = FixedLabels(yt).metric(np.asarray(margins, dtype=np.float64), "auc_pr")
    return {"library": library, "data": data_name, "seed": seed, "variant": list(variant),
            "test": test, "best": best, "rounds": trained, "seconds_per_round": seconds / trained}


def _run(job):
    return train_once(*job)


def run_jobs(jobs, n_jobs, label):
    """Results of ``jobs`` (tuples of train_once's arguments), on ``n_jobs`` processes."""
    results, start = [], time.perf_counter()
    if n_jobs > 1:
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(n_jobs) as pool:
            for i, result in enumerate(pool.imap_unordered(_run, jobs), 1):
                results.append(result)
                if i % 20 == 0 or i == len(jobs):
                    print(f"  {label}: {i}/{len(jobs)} runs, {time.perf_counter() - start:.0f}"
                          " s", file=sys.stderr, flush=True)
    else:
        for i, job in enumerate(jobs, 1):
            results.append(_run(job))
            print(f"  {label}: {i}/{len(jobs)} runs, {time.perf_counter() - start:.0f} s",
                  file=sys.stderr, flush=True)
    return results


def warm_up():
    """Compile fastpr's kernels once in this process, before the workers fork."""
    warnings.filterwarnings("ignore", "One ranking of", UserWarning)  # one_query on purpose
    rng = np.random.default_rng(0)
    y = (rng.random(2000) < 0.05).astype(np.float32)
    for library in ("xgboost", "lightgbm"):
        for variant in (("ap", 16, True, 0.5), ("one_query",), ("pairwise", 16, True, 0.5)):
            data = _Labels(y, np.empty(0) if library == "xgboost" else None)
            objective_of(variant, 0, library)[1](rng.normal(size=2000), data)
    FixedLabels(y).metric(rng.normal(size=2000), "auc_pr")


class _Labels:
    """What the objectives read of a DMatrix (no groups: ``none`` is empty) or a Dataset
    (None)."""

    def __init__(self, y, none):
        self.y, self.none = y, none

    def get_label(self):
        return self.y

    def get_group(self):
        return self.none

    def get_weight(self):
        return self.none


# ----------------------------------------------------------------------------- tables
def paired(results, variant, baseline=("logistic",)):
    """{(library, data): [paired differences of test AUC-PR, by seed]} of ``variant``."""
    index = {(r["library"], r["data"], r["seed"], tuple(r["variant"])): r for r in results}
    out = {}
    for (library, data, seed, v), r in sorted(index.items()):
        if v == tuple(variant) and (library, data, seed, tuple(baseline)) in index:
            base = index[(library, data, seed, tuple(baseline))]
            out.setdefault((library, data), []).append(r["test"] - base["test"])
    return out


def _mean_sd_wins(values):
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    wins = sum(v > 0 for v in values)
    return f"{statistics.mean(values):+.3f} ± {sd:.3f} ({wins}/{len(values)})"


def tuning_table(results, candidates):
    lines = ["| R (positives per query) | rescaled | logistic weight | mean paired Δ test AUC-PR "
             "| wins | worst (library, data set) mean |", "|---|---|---|---|---|---|"]
    means, worsts = {}, {}
    for variant in candidates:
        diffs = paired(results, variant)
        values = [v for vs in diffs.values() for v in vs]
        worsts[variant] = min(statistics.mean(vs) for vs in diffs.values())
        means[variant] = statistics.mean(values)
        lines.append(f"| {variant[1]} | {'yes' if variant[2] else 'no'} | {variant[3]} | "
                     f"{means[variant]:+.4f} | {sum(v > 0 for v in values)}/{len(values)} | "
                     f"{worsts[variant]:+.3f} |")
    harmless = [v for v in candidates if worsts[v] >= HARMLESS]
    best = (max(harmless, key=means.get) if harmless else max(candidates, key=worsts.get))
    return "\n".join(lines), best


def report_table(results, library, variants, names):
    index = {(r["library"], r["data"], r["seed"], tuple(r["variant"])): r for r in results}
    data_sets = sorted({r["data"] for r in results if r["library"] == library},
                       key=lambda d: DATA_SETS.index(d) if d in DATA_SETS else 99)
    header = ["data set", "logistic test AUC-PR"] + [f"Δ {names[v]}" for v in variants[1:]]
    header += [f"best round / s per round: {names[v]}" for v in variants]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for data in data_sets:
        rows = {v: [r for (lib, d, _, vv), r in sorted(index.items())
                    if lib == library and d == data and vv == v] for v in variants}
        cells = [data, f"{statistics.mean(r['test'] for r in rows[variants[0]]):.3f}"]
        for v in variants[1:]:
            diffs = paired(results, v).get((library, data), [])
            cells.append(_mean_sd_wins(diffs) if diffs else "n/a")
        for v in variants:
            cells.append(f"{statistics.median(r['best'] for r in rows[v]):.0f} / "
                         f"{1000 * statistics.median(r['seconds_per_round'] for r in rows[v]):.1f}"
                         " ms")
        lines.append("| " + " | ".join(cells) + " |")
    totals = ["all", ""]
    for v in variants[1:]:
        diffs = paired(results, v)
        values = [x for (lib, _), xs in diffs.items() if lib == library for x in xs]
        totals.append(_mean_sd_wins(values))
    lines.append("| " + " | ".join(totals + [""] * len(variants)) + " |")
    return "\n".join(lines)


# ----------------------------------------------------------------------------- speed
def speed(n, rounds):
    """Median seconds of the random-query objective's call against a whole binary:logistic
    round, XGBoost at ``n`` rows (20 features, 1% positives), trained in lockstep."""
    import xgboost as xgb
    from sklearn.datasets import make_classification

    x, y = make_classification(n, n_features=20, n_informative=6, weights=[0.99],
                               random_state=0)
    train = xgb.DMatrix(x.astype(np.float32), y.astype(np.float32))
    params = {"tree_method": "hist", "max_depth": 6, "eta": 0.1, "seed": 0,
              "disable_default_eval_metric": 1}
    logistic = xgb.Booster({**params, "objective": "binary:logistic"}, [train])
    custom = xgb.Booster(params, [train])
    objective = fastpr_xgb.Objective()
    objective(np.zeros(n), train)  # compiled, labels checked (as in a training's first round)
    round_seconds, call_seconds, custom_round_seconds = [], [], []

    def timed(margins, data):
        start = time.perf_counter()
        out = objective(margins, data)
        call_seconds.append(time.perf_counter() - start)
        return out

    for i in range(rounds):  # in lockstep, so that drift hits both alike
        start = time.perf_counter()
        logistic.update(train, i)
        round_seconds.append(time.perf_counter() - start)
        start = time.perf_counter()
        custom.update(train, i, fobj=timed)
        custom_round_seconds.append(time.perf_counter() - start)
    # Where the call's time goes: dealing the random queries, and the rest (the ranking by
    # query, the kernels, the rescaling) after the labels kept from round to round.
    queries = RandomQueries(y.astype(np.float32), K // 2)
    rng, margins = np.random.default_rng(0), custom.predict(train, output_margin=True)
    deal, rest = [], []
    for _ in range(rounds):
        start = time.perf_counter()
        queries.deal(rng)
        deal.append(time.perf_counter() - start)
        start = time.perf_counter()
        queries.gradients(margins, rng, True, 0.0, "topk", K, None, None, True)
        rest.append(time.perf_counter() - start - deal[-1])
    return (statistics.median(round_seconds), statistics.median(call_seconds),
            statistics.median(custom_round_seconds), statistics.median(deal),
            statistics.median(rest))


# ----------------------------------------------------------------------------- main
def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run")
    parser.add_argument("--jobs", type=int, default=1, help="processes (one thread each)")
    parser.add_argument("--speed", action="store_true", help="only the 10^6-row timing")
    parser.add_argument("--rows", type=int, default=1_000_000, help="rows of --speed")
    parser.add_argument("--json", help="write every run's result here")
    args = parser.parse_args()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    print(machine_description(load))
    print(f"- command: python bench/learner_quality.py {' '.join(sys.argv[1:])}")
    import lightgbm
    import xgboost

    print(f"- xgboost {xgboost.__version__}, lightgbm {lightgbm.__version__}\n")
    if args.speed:
        logistic, call, custom, deal, rest = speed(args.rows, 12)
        print(f"XGBoost hist, depth 6, {args.rows:,} rows, 1% positives, "
              f"{os.environ.get('OMP_NUM_THREADS', 'all')} threads; medians of 12 rounds:\n")
        print("| binary:logistic round | Objective() call (random queries) | ratio | "
              "of which: dealing the queries | the rest of the gradients | "
              "whole round with Objective() |\n|---|---|---|---|---|---|")
        print(f"| {logistic * 1000:.0f} ms | {call * 1000:.0f} ms | {call / logistic:.2f} | "
              f"{deal * 1000:.0f} ms | {rest * 1000:.0f} ms | {custom * 1000:.0f} ms |")
        return
    rounds, scale = (40, 0.2) if args.quick else (300, 1.0)
    data_sets = ("syn 1%", "digits 9") if args.quick else DATA_SETS
    tune_seeds = TUNE_SEEDS[:1] if args.quick else TUNE_SEEDS
    report_seeds = REPORT_SEEDS[:2] if args.quick else REPORT_SEEDS
    candidates = [("ap", r, True, w) for r in QUERY_POSITIVES for w in LOGISTIC_WEIGHTS]
    if args.quick:
        candidates = [("ap", 16, True, 0.0), ("ap", 4, True, 0.5)]
    libraries = ("xgboost", "lightgbm")
    warm_up()

    jobs = [(lib, d, s, v, rounds, scale) for lib in libraries for d in data_sets
            for s in tune_seeds for v in [("logistic",), *candidates]]
    tuning = run_jobs(jobs, args.jobs, "tuning")
    if args.json:  # kept even if the report is cut short
        with open(args.json, "w") as out:
            json.dump({"tuning": tuning}, out)
    table, best = tuning_table(tuning, candidates)
    print(f"### Tuning: seeds {', '.join(map(str, tune_seeds))}, both libraries, every data "
          "set\n")
    print(table)
    print(f"\nChosen: R = {best[1]}, rescaled: {'yes' if best[2] else 'no'}, logistic weight "
          f"{best[3]}\n")

    pure = ("ap", best[1], True, 0.0)
    variants = [("logistic",), best, ("pairwise", *best[1:]), ("one_query",)]
    names = {variants[0]: "logistic", best: f"AP, random queries (R={best[1]}, w={best[3]})",
             variants[2]: "pairwise, same queries", variants[3]: "AP, one query"}
    if best != pure:
        variants.insert(2, pure)
        names[pure] = f"AP, random queries (R={best[1]}, w=0)"
    jobs = [(lib, d, s, v, rounds, scale) for lib in libraries for d in data_sets
            for s in report_seeds for v in variants]
    report = run_jobs(jobs, args.jobs, "report")
    for library in libraries:
        print(f"### {library}: fresh seeds {', '.join(map(str, report_seeds))}; Δ = test "
              "AUC-PR minus logistic's on the same split and seed, mean ± sd (wins)\n")
        print(report_table(report, library, variants, names))
        print()
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"tuning": tuning, "report": report, "chosen": list(best)}, out)
    print(f"- load average (1 min) at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
