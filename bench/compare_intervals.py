#!/usr/bin/env python
"""One-run timings of the interval targets (issues: intervals at the speed of one sort; the
bootstrap at memory speed).

    python bench/compare_intervals.py            # 1,000 replicates of 1M; DeLong at 10M
    python bench/compare_intervals.py --quick    # 200 replicates of 200k; DeLong at 1M
    python bench/compare_intervals.py --baseline /path/to/older/source/tree

Rows: the stratified percentile bootstrap on all of numba's threads and on one, against a Python
loop of scikit-learn's ``average_precision_score`` on resampled rows (timed for a few replicates
and scaled to the same count, since the loop is linear in replicates); ``compare`` of 5 models
scored on the same examples; DeLong's interval against ``evaluate`` on the same data,
interleaved. With ``--baseline``, the bootstrap and ``compare`` are also timed with the fastpr
package found in that directory (in a child process, each of its timings taken between two of
this tree's), so that old and new code are compared under the same load. Medians; the machine is
described first.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

import numba
import numpy as np

BENCH_DIR = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, BENCH_DIR)

import fastpr  # noqa: E402
from benchmarks._data import make_batch, make_ranking  # noqa: E402
from compare import (fmt_ratio, fmt_time, interleaved_medians, machine_description,  # noqa: E402
                     sklearn_metrics, _load)

N_MODELS = 5


def case_call(case, n, n_boot):
    """The call that a case times, on its data, compiled and warmed: made the same way here and
    in a baseline's child process, so both time the same work."""
    if case == "bootstrap":
        y, s = make_ranking(n, "float64", 0.01)
        fastpr.bootstrap(y[:1000], s[:1000], n_boot=10, seed=0)
        return lambda: fastpr.bootstrap(y, s, n_boot=n_boot, seed=0)
    y, s = make_batch(N_MODELS, n, prevalence=0.01)
    fastpr.compare(y[:1000], s[:, :1000], n_boot=10, seed=0)
    return lambda: fastpr.compare(y, s, n_boot=n_boot, seed=0)


def _baseline_child(case, n, n_boot):
    """Print the seconds of one call of the case (run with the baseline's fastpr first on the
    path)."""
    call = case_call(case, n, n_boot)
    start = time.perf_counter()
    call()
    print(time.perf_counter() - start)


def _baseline_seconds(source, case, n, n_boot):
    env = dict(os.environ, PYTHONPATH=source)
    out = subprocess.run([sys.executable, os.path.abspath(__file__), "--baseline-child", case,
                          str(n), str(n_boot)], capture_output=True, text=True, env=env,
                         cwd=source, timeout=3600)
    if out.returncode != 0:
        raise RuntimeError(f"baseline child failed:\n{out.stderr}")
    return float(out.stdout.split()[-1])


def timed_against_baseline(case, n, n_boot, repeats, baseline):
    """(median seconds here, median seconds of the baseline or None), interleaved."""
    call = case_call(case, n, n_boot)
    here, there = [], []
    for _ in range(repeats):
        here.append(interleaved_medians([call], 1)[0])
        if baseline:
            there.append(_baseline_seconds(baseline, case, n, n_boot))
    return statistics.median(here), statistics.median(there) if there else None


def _on_threads(n_threads, call):
    def run():
        threads = numba.get_num_threads()
        numba.set_num_threads(n_threads)
        try:
            call()
        finally:
            numba.set_num_threads(threads)
    return run


def bootstrap_rows(n, n_boot, repeats, sk_replicates, baseline):
    threads = numba.get_num_threads()
    t_all, t_old = timed_against_baseline("bootstrap", n, n_boot, repeats, baseline)
    (t_one,) = interleaved_medians([_on_threads(1, case_call("bootstrap", n, n_boot))], repeats)
    y, s = make_ranking(n, "float64", 0.01)
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
    rows = [
        dict(case=f"{case}, {threads} threads", fast=t_all, other=t_sk,
             note=f"sklearn AP loop (scaled from {sk_replicates} replicates)",
             ratio=t_sk / t_all if t_sk else None, ratio_note="sklearn / fastpr", key="boot"),
        dict(case=f"{case}, 1 thread", fast=t_one, other=t_all, note=f"{threads} threads",
             ratio=t_one / t_all, ratio_note="speed-up from threads", key="one"),
    ]
    if t_old is not None:
        rows.append(dict(case=f"{case}, {threads} threads", fast=t_all, other=t_old,
                         note="baseline source, same run", ratio=t_old / t_all,
                         ratio_note="baseline / this", key="boot_old"))
    return rows


def compare_rows(n, n_boot, repeats, baseline):
    threads = numba.get_num_threads()
    t_new, t_old = timed_against_baseline("compare", n, n_boot, repeats, baseline)
    case = (f"compare, {N_MODELS} models on the same n={n:,}, 1%, {n_boot:,} replicates, "
            f"{threads} threads")
    row = dict(case=case, fast=t_new, other=t_old, note="baseline source, same run",
               ratio=t_old / t_new if t_old else None, ratio_note="baseline / this",
               key="compare")
    return [row]


def delong_row(n, repeats):
    y, s = make_ranking(n, "float64", 0.01)
    fastpr.delong(y[:1000], s[:1000])
    fastpr.evaluate(y[:1000], s[:1000])
    t_delong, t_evaluate = interleaved_medians(
        [lambda: fastpr.delong(y, s), lambda: fastpr.evaluate(y, s)], repeats)
    return dict(case=f"DeLong interval, n={n:,}, 1%", fast=t_delong, other=t_evaluate,
                note="evaluate on the same data", ratio=t_delong / t_evaluate,
                ratio_note="DeLong / evaluate", key="delong")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--baseline", metavar="SOURCE_DIR",
                        help="a source tree holding an older fastpr package to time beside")
    parser.add_argument("--baseline-child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.baseline_child:
        case, n, n_boot = args.baseline_child
        _baseline_child(case, int(n), int(n_boot))
        return
    baseline = os.path.abspath(args.baseline) if args.baseline else None
    load_at_start = _load()
    if args.quick:
        n, n_boot, delong_n = 200_000, 200, 1_000_000
    else:
        n, n_boot, delong_n = 1_000_000, 1000, 10_000_000
    rows = (bootstrap_rows(n, n_boot, 3, 5, baseline) + compare_rows(n, n_boot, 3, baseline)
            + [delong_row(delong_n, 7)])
    print(machine_description(load_at_start))
    if baseline:
        print(f"- baseline: the fastpr package in {baseline}")
    print()
    print("| case | fastpr | compared with | its time | ratio |")
    print("|---|---:|---|---:|---:|")
    for row in rows:
        print(f"| {row['case']} | {fmt_time(row['fast'])} | {row['note']} | "
              f"{fmt_time(row['other'])} | {fmt_ratio(row['ratio'])} ({row['ratio_note']}) |")
    print()
    by_key = {row["key"]: row for row in rows}
    boot, one, paired, delong = (by_key[k] for k in ("boot", "one", "compare", "delong"))
    print(f"- {boot['case']}: {boot['fast']:.2f} s (target at 1,000 x 1M: <= 2.5 s); "
          f"{fmt_ratio(boot['ratio'])} faster than the scikit-learn loop (target >= 100x); "
          f"{one['ratio']:.2f}x from threads")
    print(f"- {paired['case']}: {paired['fast']:.2f} s (target at 1,000 x 1M: <= 10 s)")
    print(f"- {delong['case']}: {delong['ratio']:.2f}x evaluate (target <= 2x)")


if __name__ == "__main__":
    main()
