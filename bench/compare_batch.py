#!/usr/bin/env python
"""One-run comparison for many rankings per call: threads, scikit-learn loops, ragged groups.

    python bench/compare_batch.py            # the target sizes (about a minute on 2 cores)
    python bench/compare_batch.py --quick    # a tenth of the rankings and groups

Rows (medians; timings of the compared sides interleaved so that drift hits both alike):

* calibration: a loop of independent work under numba's ``prange`` on 2 threads against 1; on a
  machine shared with other work this ceiling falls below 2x, and every thread ratio with it.
* ``evaluate`` on 1,000 rankings x 10,000 samples (shared labels) on 2 threads against 1 thread
  (``numba.set_num_threads``), and against Python loops of single calls: scikit-learn's
  ``average_precision_score`` and fastpr's own ``evaluate``.
* ``evaluate`` on other shapes, 2 threads against 1: the same batch with per-row labels,
  100,000 rankings x 100 and 10 rankings x 1,000,000.
* ``evaluate`` per group on 100,000 groups of 50..150 rows (about 10M rows): ``groups=`` with ids
  in shuffled row order and ``offsets=`` over rows stored group by group, on 2 and 1 threads.
"""
import argparse
import sys
import time
import warnings

import numba
import numpy as np
from benchmarks._data import make_batch, make_groups
from compare import _load, fmt_ratio, fmt_time, interleaved_medians, machine_description

import fastpr


def _on_threads(n_threads, func):
    def timed():
        numba.set_num_threads(n_threads)
        func()
    return timed


@numba.njit(parallel=True, cache=True)
def _independent_work(n_tasks, n):
    """A perfectly parallel loop: what 2 threads can gain on this machine right now."""
    out = np.zeros(n_tasks)
    for task in numba.prange(n_tasks):
        total = 0.0
        for i in range(n):
            total += np.sqrt(i + task)
        out[task] = total
    return out


def calibration_row(repeats):
    _independent_work(2, 10)

    def work():
        _independent_work(8, 10_000_000)

    two, one = interleaved_medians([_on_threads(2, work), _on_threads(1, work)], repeats)
    label = ("calibration: perfectly parallel numba loop, 2 threads vs 1 thread (the machine's "
             "ceiling for thread speed-up)")
    return (label, two, one, None)


def batch_rows(n_rankings, n, repeats, sk_repeats):
    from sklearn.metrics import average_precision_score

    y, s = make_batch(n_rankings, n)
    fastpr.evaluate(y, s[:2])

    def batch():
        fastpr.evaluate(y, s)
    two, one = interleaved_medians([_on_threads(2, batch), _on_threads(1, batch)], repeats)

    def sklearn_loop():
        for row in s:
            average_precision_score(y, row)

    def fastpr_loop():
        for row in s:
            fastpr.evaluate(y, row)

    two_again, sk, loop = interleaved_medians(
        [_on_threads(2, batch), sklearn_loop, _on_threads(1, fastpr_loop)], sk_repeats)
    label = f"{n_rankings:,} rankings x {n:,}"
    return [
        (f"evaluate, {label}: 2 threads vs 1 thread", two, one, 1.6),
        (f"evaluate, {label}, 2 threads, vs loop of sklearn average_precision_score", two_again,
         sk, 50.0),
        (f"evaluate, {label}, 2 threads, vs loop of fastpr.evaluate (1 thread)", two_again, loop,
         None),
    ]


def shape_rows(scale, repeats):
    """2 threads vs 1 on other batch shapes: per-row labels, many short rows, a few long ones."""
    rows = []
    for n_rankings, n, per_row in ((1000 // scale, 10_000, True), (100_000 // scale, 100, False),
                                   (10, 1_000_000 // scale, False)):
        y, s = make_batch(n_rankings, n)
        labels = np.broadcast_to(y, s.shape).copy() if per_row else y
        fastpr.evaluate(labels[:2] if per_row else labels, s[:2])

        def batch():
            fastpr.evaluate(labels, s)
        two, one = interleaved_medians([_on_threads(2, batch), _on_threads(1, batch)], repeats)
        kind = "per-row labels" if per_row else "shared labels"
        rows.append((f"evaluate, {n_rankings:,} rankings x {n:,} ({kind}): 2 threads vs 1 thread",
                     two, one, None))
    return rows


def group_rows(n_groups, repeats):
    y, s, groups, offsets, shuffle = make_groups(n_groups)
    y_shuffled, s_shuffled, groups_shuffled = y[shuffle], s[shuffle], groups[shuffle]
    warnings.simplefilter("ignore", fastpr.UndefinedMetricWarning)
    fastpr.evaluate(y[:1000], s[:1000], groups=groups[:1000])

    def by_groups():
        fastpr.evaluate(y_shuffled, s_shuffled, groups=groups_shuffled)

    def by_offsets():
        fastpr.evaluate(y, s, offsets=offsets)

    times = interleaved_medians([_on_threads(2, by_groups), _on_threads(1, by_groups),
                                 _on_threads(2, by_offsets), _on_threads(1, by_offsets)], repeats)
    label = f"{n_groups:,} groups of ~100 rows ({y.size / 1e6:.1f}M rows)"
    return [(f"evaluate per group, {label}, groups= (shuffled ids)", times[0], times[1], None),
            (f"evaluate per group, {label}, offsets=", times[2], times[3], None)]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of the rankings and groups")
    parser.add_argument("--repeats", type=int, default=5, help="repeats of fastpr (default 5)")
    parser.add_argument("--sklearn-repeats", type=int, default=3,
                        help="repeats of the Python loops (default 3)")
    args = parser.parse_args(argv)
    scale = 10 if args.quick else 1
    before = numba.get_num_threads()
    load_at_start = _load()
    started = time.perf_counter()
    try:
        rows = [calibration_row(args.repeats)]
        rows += batch_rows(1000 // scale, 10_000, args.repeats, args.sklearn_repeats)
        rows += shape_rows(scale, args.repeats)
        groups = group_rows(100_000 // scale, args.repeats)
    finally:
        numba.set_num_threads(before)
    elapsed = time.perf_counter() - started

    command = "python bench/compare_batch.py" + (" " + " ".join(sys.argv[1:])
                                                 if sys.argv[1:] else "")
    print(f"## fastpr batches ({command})\n")
    print(machine_description(load_at_start))
    print(f"\nMedians of {args.repeats} runs (fastpr) and {args.sklearn_repeats} (Python loops). "
          f"Total run time {elapsed:.0f} s.\n")
    print("| case | fastpr | baseline | ratio | target |")
    print("|---|---|---|---|---|")
    for name, fast, base, target in rows:
        ratio = base / fast
        verdict = "" if target is None else f">= {target:g}x " + ("met" if ratio >= target
                                                                else "MISSED")
        print(f"| {name} | {fmt_time(fast)} | {fmt_time(base)} | {fmt_ratio(ratio)} | {verdict} |")
    for name, two, one in ((name, two, one) for name, two, one, _ in groups):
        verdict = ("<= 2 s " + ("met" if two <= 2.0 else "MISSED")) if not args.quick else ""
        print(f"| {name}: 2 threads (baseline: 1 thread) | {fmt_time(two)} | {fmt_time(one)} | "
              f"{fmt_ratio(one / two)} | {verdict} |")


if __name__ == "__main__":
    main()
