#!/usr/bin/env python
"""One-run comparison of fastpr against np.sort, scikit-learn and (if installed) torchmetrics.

    python bench/compare.py            # full run, n = 10M (a few minutes)
    python bench/compare.py --quick    # n = 1M, fewer repeats (under a minute)
    python bench/compare.py --n 3000000

Prints a description of the machine and a markdown table for the README's Performance section.
Every ratio comes from timings taken in this one run, interleaved (fastpr, np.sort, fastpr, ...)
so that drift in the machine affects both sides alike. Reported times are medians.

Rows
----
* ``evaluate`` at n (default 10M) for the headline cases, against ``np.sort(y_score)`` of the same
  scores and against scikit-learn's ``average_precision_score`` + ``roc_auc_score`` together.
* ``auc_pr`` at n = 1000: the cost of one Python call (median of many single calls, in us),
  against ``np.sort`` and scikit-learn's ``average_precision_score`` alone.
* import + first ``evaluate`` in a fresh interpreter with numba's cache warm (time measured inside
  the child, so interpreter start-up is excluded), against ``import sklearn.metrics``.
* peak extra memory of ``evaluate`` beyond its inputs, in a fresh interpreter, as a multiple of
  8n bytes: ``tracemalloc`` (NumPy's allocations) and the RSS high-water mark (everything,
  numba's NRT included; Linux only), against ``np.sort`` and scikit-learn measured the same way.
"""
import argparse
import functools
import gc
import json
import os
import platform
import statistics
import subprocess
import sys
import time

import numpy as np

BENCH_DIR = os.path.dirname(os.path.abspath(__file__))
REPO_DIR = os.path.dirname(BENCH_DIR)
sys.path.insert(0, BENCH_DIR)

import fastpr  # noqa: E402
from benchmarks._data import make_ranking, rss_high_water_mark  # noqa: E402

# label, dtype, prevalence, scores, label dtype
BIG_CASES = [
    ("float64, 1% positives", "float64", 0.01, "continuous", "bool"),
    ("float32, 1% positives", "float32", 0.01, "continuous", "bool"),
    ("float64, 50% positives", "float64", 0.5, "continuous", "bool"),
    ("float64, 1%, heavy ties (2 decimals)", "float64", 0.01, "ties", "bool"),
    ("float64, 1%, int64 {0,1} labels", "float64", 0.01, "continuous", "int64"),
]

FIRST_EVALUATE = "fastpr.evaluate([1, 0, 1, 1, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.6, 0.1])"


# ----------------------------------------------------------------------------- environment
def _version(module_name):
    try:
        module = __import__(module_name)
    except ImportError:
        return None
    return getattr(module, "__version__", "?")


def _cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _cpu_flags():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    flags = set(line.split(":", 1)[1].split())
                    return [x for x in ("avx2", "avx512f", "avx512_vbmi2") if x in flags]
    except OSError:
        pass
    return []


def _memory_gib():
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    return int(line.split()[1]) / 2**20
    except OSError:
        pass
    return None


def _git_commit():
    try:
        out = subprocess.run(["git", "-C", REPO_DIR, "describe", "--always", "--dirty"],
                             capture_output=True, text=True, timeout=10)
        return out.stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        return None


def _load():
    return os.getloadavg()[0] if hasattr(os, "getloadavg") else None


def machine_description(load_at_start=None):
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count()
    memory = _memory_gib()
    lines = [
        f"- CPU: {_cpu_model()} ({', '.join(_cpu_flags()) or 'no AVX2/AVX-512 flags'})",
        f"- cores: {usable} usable of {os.cpu_count()}"
        + (f"; memory {memory:.1f} GiB" if memory else ""),
        f"- OS: {platform.platform()}",
        f"- Python {platform.python_version()}; fastpr {fastpr.__version__}"
        + (f" (git {_git_commit()})" if _git_commit() else ""),
        "- numpy {}, numba {}, scikit-learn {}, torchmetrics {}".format(
            _version("numpy"), _version("numba"), _version("sklearn") or "not installed",
            _version("torchmetrics") or "not installed"),
    ]
    load = _load()
    if load is not None:
        # This script keeps about one core busy, so ~1 at the end is its own load.
        busy = (load_at_start or 0.0) > 0.7 or load > 1.7
        start = load_at_start or 0.0
        lines.append(f"- load average (1 min) at start / end: {start:.2f} / {load:.2f}"
                     + ("  (other work was running: timings are pessimistic)" if busy else ""))
    threads = os.environ.get("NUMBA_NUM_THREADS")
    if threads:
        lines.append(f"- NUMBA_NUM_THREADS={threads}")
    return "\n".join(lines)


# ----------------------------------------------------------------------------- timing helpers
def interleaved_medians(funcs, repeats):
    """Median seconds of each callable, timed in turn ``repeats`` times (GC off while timing)."""
    times = [[] for _ in funcs]
    for _ in range(repeats):
        for k, func in enumerate(funcs):
            if func is None:
                continue
            gc.collect()
            gc.disable()
            try:
                start = time.perf_counter()
                func()
                times[k].append(time.perf_counter() - start)
            finally:
                gc.enable()
    return [statistics.median(t) if t else None for t in times]


def single_call_median(func, calls, warmup=50):
    """Median seconds of one call, over ``calls`` calls timed one by one."""
    for _ in range(warmup):
        func()
    times = []
    gc.disable()
    try:
        for _ in range(calls):
            start = time.perf_counter()
            func()
            times.append(time.perf_counter() - start)
    finally:
        gc.enable()
    return statistics.median(times)


def fmt_time(seconds):
    if seconds is None:
        return "n/a"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    if seconds < 1.0:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"


def fmt_ratio(x):
    return "n/a" if x is None else f"{x:.2f}x" if x < 10 else f"{x:.0f}x"


# ----------------------------------------------------------------------------- baselines
def sklearn_metrics():
    try:
        from sklearn import metrics
    except ImportError:
        return None
    return metrics


def torchmetrics_pair():
    """(AP + AUROC callable factory) from torchmetrics, or None when it is not installed."""
    try:
        import torch
        from torchmetrics.functional.classification import binary_auroc, binary_average_precision
    except ImportError:
        return None

    def make(y_true, y_score):
        preds = torch.from_numpy(np.ascontiguousarray(y_score))
        target = torch.from_numpy(np.asarray(y_true, dtype=np.int64))

        def call():
            binary_average_precision(preds, target)
            binary_auroc(preds, target)

        return call

    return make


# ----------------------------------------------------------------------------- the rows
def big_rows(n, repeats, sk_repeats, metrics, torch_make):
    rows = []
    for label, dtype, prevalence, scores, label_dtype in BIG_CASES:
        y, s = make_ranking(n, dtype, prevalence, scores)
        if label_dtype != "bool":
            y = y.astype(label_dtype)
        fastpr.evaluate(y[:1000], s[:1000])  # compile / load the cache for this dtype
        fastpr.evaluate(y, s)  # warm the pages and the allocator
        np.sort(s)
        t_fast, t_sort = interleaved_medians(
            [lambda: fastpr.evaluate(y, s), lambda: np.sort(s)], repeats)
        t_sk = t_tm = None
        if metrics is not None:
            def sk():
                metrics.average_precision_score(y, s)
                metrics.roc_auc_score(y, s)
            (t_sk,) = interleaved_medians([sk], sk_repeats)
        if torch_make is not None:
            tm = torch_make(y, s)
            tm()
            (t_tm,) = interleaved_medians([tm], sk_repeats)
        rows.append(dict(case=f"evaluate, n={n:,}, {label}", fast=t_fast, sort=t_sort,
                         sklearn=t_sk, torch=t_tm, key=(dtype, prevalence, scores, label_dtype)))
        print(f"  measured: {rows[-1]['case']}", file=sys.stderr, flush=True)
    return rows


def small_row(calls, sk_calls, metrics, torch_make):
    n = 1000
    y, s = make_ranking(n, "float64", 0.01)
    t_fast = single_call_median(lambda: fastpr.auc_pr(y, s), calls)
    t_sort = single_call_median(lambda: np.sort(s), calls)
    t_sk = t_tm = None
    if metrics is not None:
        t_sk = single_call_median(lambda: metrics.average_precision_score(y, s), sk_calls, 10)
    if torch_make is not None:
        t_tm = single_call_median(torch_make(y, s), sk_calls, 10)
    print("  measured: auc_pr at n=1000", file=sys.stderr, flush=True)
    return dict(case="auc_pr, one Python call, n=1,000 (sklearn: AP only)", fast=t_fast,
                sort=t_sort, sklearn=t_sk, torch=t_tm, key="small")


@functools.cache
def summaries_in_njit():
    """A user's own ``@numba.njit`` loop calling ``fastpr.kernels.summary`` on each row of
    scores: ``loop(y_true, score_rows, no_weights)`` returns the sum of their AUC-PR."""
    import numba

    from fastpr import kernels

    @numba.njit
    def loop(y_true, score_rows, no_weights):
        total = 0.0
        for k in range(score_rows.shape[0]):
            total += kernels.summary(y_true, score_rows[k], no_weights)[kernels.INTERPOLATED]
        return total

    return loop


def kernel_rows(metrics, rankings=2000):
    """Per-call cost of fastpr.kernels.summary inside a user's own @njit loop."""
    all_areas = summaries_in_njit()
    rows = []
    for n in (1000, 100):
        y, s = make_ranking(n, "float64", 0.1)
        score_rows = np.stack([np.roll(s, k) for k in range(rankings)])
        no_weights = np.empty(0)
        all_areas(y, score_rows[:2], no_weights)  # compile outside the timing
        (t_loop,) = interleaved_medians([lambda: all_areas(y, score_rows, no_weights)], 7)
        t_sort = single_call_median(lambda: np.sort(s), 2000)
        t_sk = None
        if metrics is not None:
            t_sk = single_call_median(lambda: metrics.average_precision_score(y, s), 200, 10)
        rows.append(dict(case=f"kernels.summary per call inside @njit, n={n:,}, 10% positives "
                              "(np.sort col: one Python np.sort call; sklearn: AP only)",
                         fast=t_loop / rankings, sort=t_sort, sklearn=t_sk, torch=None,
                         key=f"kernel{n}"))
        print(f"  measured: kernels.summary at n={n}", file=sys.stderr, flush=True)
    return rows


def _child_seconds(code):
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=REPO_DIR, timeout=300)
    if out.returncode != 0:
        raise RuntimeError(f"child failed:\n{out.stderr}")
    return float(out.stdout.split()[-1])


def import_row(repeats, metrics):
    timer = "import time\nt0 = time.perf_counter()\n{}\nprint(time.perf_counter() - t0)"
    fast_code = timer.format("import fastpr\n" + FIRST_EVALUATE)
    _child_seconds(fast_code)  # make sure numba's cache is warm (and the OS file cache)
    fast = statistics.median(_child_seconds(fast_code) for _ in range(repeats))
    np_code = timer.format("import numpy")
    numpy_time = statistics.median(_child_seconds(np_code) for _ in range(repeats))
    sk = None
    if metrics is not None:
        sk_code = timer.format("import sklearn.metrics")
        _child_seconds(sk_code)
        sk = statistics.median(_child_seconds(sk_code) for _ in range(repeats))
    print("  measured: import + first evaluate", file=sys.stderr, flush=True)
    return dict(case="fresh process: import + first evaluate, warm numba cache "
                     "(np.sort col: import numpy; sklearn col: import sklearn.metrics)",
                fast=fast, sort=numpy_time, sklearn=sk, torch=None, key="import")


def memory_child(n):
    """Runs in a fresh interpreter: peak extra memory per 8n bytes, printed as JSON."""
    import tracemalloc

    y, s = make_ranking(n, "float64", 0.01)
    fastpr.evaluate(y[:1000], s[:1000])
    metrics = sklearn_metrics()
    calls = {"fastpr": lambda: fastpr.evaluate(y, s), "np.sort": lambda: np.sort(s)}
    if metrics is not None:
        calls["sklearn"] = lambda: (metrics.average_precision_score(y, s),
                                    metrics.roc_auc_score(y, s))
    result = {}
    for name, call in calls.items():
        before = rss_high_water_mark(reset=True)
        call()
        after = rss_high_water_mark()
        rss = None if before is None else (after - before) / (8 * n)
        gc.collect()
        tracemalloc.start()
        call()
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        result[name] = {"tracemalloc": peak / (8 * n), "rss": rss}
    print(json.dumps(result))


def memory_row(n):
    # A fixed glibc mmap threshold gives every large array fresh pages that go back to the OS
    # when freed, so the RSS high-water mark counts what a call allocates, not reused heap.
    env = dict(os.environ, MALLOC_MMAP_THRESHOLD_="65536")
    out = subprocess.run([sys.executable, os.path.abspath(__file__), "--memory-child", str(n)],
                         capture_output=True, text=True, cwd=REPO_DIR, timeout=600, env=env)
    if out.returncode != 0:
        raise RuntimeError(f"memory child failed:\n{out.stderr}")
    mem = json.loads(out.stdout.strip().splitlines()[-1])
    print("  measured: memory", file=sys.stderr, flush=True)
    return dict(case=f"evaluate peak extra memory, n={n:,} float64, in units of 8n bytes "
                     "(tracemalloc / RSS high-water mark)", mem=mem, key="memory")


# ----------------------------------------------------------------------------- output
def _mem_cell(entry):
    if entry is None:
        return "n/a"
    rss = "n/a" if entry["rss"] is None else f"{entry['rss']:.2f}"
    return f"{entry['tracemalloc']:.2f} / {rss}"


def table(rows, with_torch):
    head = ["case", "fastpr", "np.sort", "fastpr / np.sort", "sklearn AP+ROC AUC",
            "sklearn / fastpr"]
    if with_torch:
        head += ["torchmetrics AP+AUROC", "torchmetrics / fastpr"]
    rule = "|" + "|".join(["---"] + ["---:"] * (len(head) - 1)) + "|"
    lines = ["| " + " | ".join(head) + " |", rule]
    for row in rows:
        if row["key"] == "memory":
            mem = row["mem"]
            fast = mem["fastpr"]
            cells = [row["case"], _mem_cell(fast), _mem_cell(mem.get("np.sort")),
                     fmt_ratio(fast["tracemalloc"] / mem["np.sort"]["tracemalloc"]),
                     _mem_cell(mem.get("sklearn")),
                     fmt_ratio(mem["sklearn"]["tracemalloc"] / fast["tracemalloc"])
                     if "sklearn" in mem else "n/a"]
            if with_torch:
                cells += ["", ""]
        else:
            ratio = lambda a, b: None if a is None or b is None else a / b  # noqa: E731
            cells = [row["case"], fmt_time(row["fast"]), fmt_time(row["sort"]),
                     fmt_ratio(ratio(row["fast"], row["sort"])), fmt_time(row["sklearn"]),
                     fmt_ratio(ratio(row["sklearn"], row["fast"]))]
            if with_torch:
                cells += [fmt_time(row["torch"]), fmt_ratio(ratio(row["torch"], row["fast"]))]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def target_report(rows, n):
    """The issue's targets, each marked met or missed from this run's numbers."""
    out = []

    def mark(ok):
        return "MET   " if ok else "MISSED"

    for row in rows:
        key = row["key"]
        if isinstance(key, tuple) and key[3] == "bool":
            r_sort = row["fast"] / row["sort"]
            line = f"{row['case']}: {r_sort:.2f}x np.sort (target <= 1.5x) {mark(r_sort <= 1.5)}"
            if row["sklearn"] is not None:
                speed = row["sklearn"] / row["fast"]
                line += f"; {speed:.1f}x faster than sklearn (target >= 20x) {mark(speed >= 20)}"
            out.append(line)
        elif key == "small":
            line = f"auc_pr at n=1000: {row['fast'] * 1e6:.1f} µs (target <= 20 µs) " \
                   f"{mark(row['fast'] <= 20e-6)}"
            out.append(line)
        elif key == "import":
            out.append(f"import + first evaluate: {row['fast']:.3f} s (target <= 1.0 s) "
                       f"{mark(row['fast'] <= 1.0)}")
        elif key == "memory":
            fast = row["mem"]["fastpr"]
            worst = max(v for v in (fast["tracemalloc"], fast["rss"]) if v is not None)
            out.append(f"peak extra memory: {worst:.2f} x 8n bytes (target <= 2) "
                       f"{mark(worst <= 2.0)}")
    if n != 10_000_000:
        out.append(f"(n = {n:,}; the size targets are stated for n = 10,000,000)")
    return "\n".join("- " + line for line in out)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="n = 1M and fewer repeats")
    parser.add_argument("--n", type=int, help="size of the large cases (default 10M, 1M quick)")
    parser.add_argument("--repeats", type=int, help="repeats of fastpr / np.sort (default 7)")
    parser.add_argument("--sklearn-repeats", type=int, help="repeats of sklearn (default 3)")
    parser.add_argument("--memory-child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.memory_child:
        memory_child(args.memory_child)
        return

    n = args.n or (1_000_000 if args.quick else 10_000_000)
    repeats = args.repeats or (3 if args.quick else 7)
    sk_repeats = args.sklearn_repeats or (2 if args.quick else 3)
    calls = 500 if args.quick else 5000
    import_repeats = 3 if args.quick else 5

    metrics = sklearn_metrics()
    torch_make = torchmetrics_pair()
    load_at_start = _load()
    started = time.perf_counter()
    rows = big_rows(n, repeats, sk_repeats, metrics, torch_make)
    rows.append(small_row(calls, calls // 10, metrics, torch_make))
    rows.extend(kernel_rows(metrics))
    rows.append(import_row(import_repeats, metrics))
    rows.append(memory_row(n))
    elapsed = time.perf_counter() - started

    command = "python bench/compare.py" + (" " + " ".join(sys.argv[1:]) if sys.argv[1:] else "")
    print(f"## fastpr performance ({command})\n")
    print(machine_description(load_at_start))
    print(f"\nMedians of {repeats} runs (fastpr, np.sort), {sk_repeats} (sklearn"
          f"{', torchmetrics' if torch_make else ''}) at n = {n:,}; {calls} single calls at "
          f"n = 1,000; {import_repeats} fresh interpreters. Scores are sigmoid(normal + 1.5 y); "
          "labels bool unless stated. Total run time "
          f"{elapsed:.0f} s.\n")
    print(table(rows, torch_make is not None))
    print("\nTargets:\n" + target_report(rows, n))


if __name__ == "__main__":
    main()
