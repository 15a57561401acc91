#!/usr/bin/env python
"""What a new user, a fresh container or a CI job waits for: first calls in fresh processes.

    python bench/cold_start.py                      # every row (a few minutes on 2 cores)
    python bench/cold_start.py --rows empty warm    # some of: empty further commands warm readonly
    python bench/cold_start.py --repeats 5          # medians of 5 processes per first call

Every row runs in new processes with the kernel cache in a new directory (``NUMBA_CACHE_DIR``),
so nothing compiled earlier is reused unless the row says so. Times are taken inside the child
(interpreter start-up excluded) except for the commands, which are timed whole. The first calls
(empty, further) are medians of ``--repeats`` processes (3 by default), each with its own cache:
on a shared machine, compare their CPU times, which other work inflates less than wall time.

* empty: ``import fastpr`` and the first ``evaluate`` (float64, n = 1,000) on an empty cache.
* further: the first call of each further feature when the cache holds what ``evaluate``
  (float64) compiled (a copy of that cache per row): float32 scores, a 2-D batch, ``groups=``,
  the curves, ``bootstrap`` and ``delong``.
* commands: ``fastpr demo`` and ``fastpr evaluate`` on a 1,000-row CSV from an empty cache, and
  scikit-learn's ``average_precision_score`` + ``roc_auc_score`` on the same CSV for comparison.
* warm: ``import fastpr`` + first ``evaluate`` with the cache warm (median of 5 processes), and
  for reference ``import numpy, numba`` alone, the floor under any numba library.
* readonly: the same from a copy of the package whose cache ``fastpr warmup`` filled, after the
  copy was made read-only (``chmod -R a-w``; as root, which ignores file modes, a read-only bind
  mount in a user namespace via ``unshare``) and with ``NUMBA_CACHE_DIR`` unset.
"""
import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numba

BENCH_DIR = os.path.dirname(os.path.abspath(__file__))
REPO_DIR = os.path.dirname(BENCH_DIR)
sys.path.insert(0, BENCH_DIR)

from compare import _load, fmt_time, machine_description  # noqa: E402

_CHILD = """
import json, time
start = time.perf_counter(), time.process_time()
import numpy as np
import fastpr
from fastpr._engine import jit as _jit
imported = time.perf_counter(), time.process_time()
rng = np.random.default_rng(0)
y = rng.random(1000) < 0.3
s = 1 / (1 + np.exp(-(rng.standard_normal(1000) + 1.5 * y)))
called = time.perf_counter(), time.process_time()
{call}
done = time.perf_counter(), time.process_time()
compiled = sum(sum(k.stats.cache_misses.values()) for k in _jit.kernels())
print(json.dumps([[a - b for a, b in zip(imported, start)], [a - b for a, b in zip(done, called)],
                  compiled]))
"""
_EVALUATE = "fastpr.evaluate(y, s)"
FURTHER = {
    "evaluate, float32": "fastpr.evaluate(y, s.astype(np.float32))",
    "evaluate, 2-D batch (10 x 1,000)": "fastpr.evaluate(y, np.stack([rng.permutation(s) "
                                        "for _ in range(10)]))",
    "evaluate, groups= (10 groups)": "fastpr.evaluate(y, s, groups=np.arange(1000) % 10)",
    "roc_points + pr_curve + roc_convex_hull": "fastpr.roc_points(y, s); fastpr.pr_curve(y, s); "
                                              "fastpr.roc_convex_hull(y, s)",
    "bootstrap (200 replicates)": "fastpr.bootstrap(y, s, n_boot=200, seed=0)",
    "delong": "fastpr.delong(y, s)",
}
SKLEARN = """
import numpy as np
from sklearn.metrics import average_precision_score, roc_auc_score
data = np.genfromtxt({path!r}, delimiter=",", names=True)
print(average_precision_score(data["y"], data["s"]), roc_auc_score(data["y"], data["s"]))
"""


def _env(cache, site=None):
    """Environment of a child importing fastpr from ``site`` (children run elsewhere than the
    repository, whose directory would come first on the path)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [site or REPO_DIR] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
    env.pop("NUMBA_CACHE_DIR", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed package has its bytecode compiled
    if cache:
        env["NUMBA_CACHE_DIR"] = cache
    return env


def _child(call, cache, site=None, wrap=()):
    out = subprocess.run([*wrap, sys.executable, "-c", _CHILD.format(call=call)],
                         env=_env(cache, site), cwd=tempfile.gettempdir(), capture_output=True,
                         text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def _children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _timed_command(args, cache=None):
    """(wall, CPU) seconds of a whole process, and the line of its stderr that says compiling."""
    start = time.perf_counter(), _children_cpu()
    out = subprocess.run([sys.executable, *args], env=_env(cache), cwd=tempfile.gettempdir(),
                         capture_output=True, text=True, check=True)
    notice = next((line for line in out.stderr.splitlines() if "compiling" in line), "")
    return [time.perf_counter() - start[0], _children_cpu() - start[1]], notice


def read_only_wrapper(path):
    """Command prefix that runs a child with ``path`` read-only (None: not possible here).

    Root ignores file modes, so as root ``path`` is bind-mounted read-only in a private mount
    namespace instead; otherwise ``chmod -R a-w`` does it (undone by the caller's cleanup).
    """
    if os.geteuid() != 0:
        subprocess.run(["chmod", "-R", "a-w", path], check=True)
        return ()
    wrap = ("unshare", "--user", "--map-root-user", "--mount", "sh", "-c",
            'mount --bind -o ro "$0" "$0" && exec "$@"', path)
    probe = subprocess.run([*wrap, "true"], capture_output=True)
    return wrap if probe.returncode == 0 else None


def _medians(times):
    """Median (wall, CPU) of several [wall, CPU] pairs."""
    return [statistics.median(t[k] for t in times) for k in (0, 1)]


def empty_rows(work, repeats):
    """Rows of the empty cache, and the cache that the first of the processes filled."""
    caches = [os.path.join(work, f"evaluate{k}") for k in range(repeats)]
    runs = [_child(_EVALUATE, cache) for cache in caches]
    return caches[0], [
        (f"empty cache: import fastpr (median of {repeats})", _medians([r[0] for r in runs]),
         None, ""),
        (f"empty cache: first evaluate, float64 (n = 1,000; median of {repeats})",
         _medians([r[1] for r in runs]), max(r[2] for r in runs), "<= 3 s")]


def further_rows(work, evaluate_cache, repeats):
    rows = []
    for name, call in FURTHER.items():
        runs = []
        for k in range(repeats):
            cache = os.path.join(work, f"{name.split()[0]}{len(rows)}-{k}")
            shutil.copytree(evaluate_cache, cache)
            runs.append(_child(call, cache))
        rows.append((f"evaluate cached: first {name} (median of {repeats})",
                     _medians([r[1] for r in runs]), max(r[2] for r in runs), "<= 2 s"))
    return rows


def command_rows(work):
    csv = os.path.join(work, "small.csv")
    with open(csv, "w") as f:
        f.write("y,s\n")
        for k in range(1000):
            f.write(f"{int(k % 7 < 2)},{((k * 7919) % 1000) / 1000 + (k % 7 < 2) * 0.3:.4f}\n")
    demo, demo_notice = _timed_command(["-m", "fastpr", "demo", "--out",
                                        os.path.join(work, "demo")], os.path.join(work, "demo-c"))
    cli, cli_notice = _timed_command(["-m", "fastpr", "evaluate", csv, "--label", "y", "--score",
                                      "s"], os.path.join(work, "cli-c"))
    sklearn, _ = _timed_command(["-c", SKLEARN.format(path=csv)])
    print(f"stderr of fastpr demo: {demo_notice!r}\nstderr of fastpr evaluate: {cli_notice!r}",
          file=sys.stderr)
    return [("empty cache: `fastpr demo` (whole process, figures included)", demo, None,
             "<= 10 s"),
            ("empty cache: `fastpr evaluate small.csv` (whole process, 1,000 rows)", cli, None, ""),
            ("scikit-learn on small.csv: genfromtxt + AP + ROC AUC (whole process)", sklearn,
             None, "")]


_IMPORT_NUMBA = """
import json, time
start = time.perf_counter(), time.process_time()
import numpy, numba
print(json.dumps([a - b for a, b in zip((time.perf_counter(), time.process_time()), start)]))
"""


def warm_rows(evaluate_cache, repeats=5):
    runs = [_child(_EVALUATE, evaluate_cache) for _ in range(repeats)]
    floor = [json.loads(subprocess.run([sys.executable, "-c", _IMPORT_NUMBA], env=_env(None),
                                       cwd=tempfile.gettempdir(), capture_output=True, text=True,
                                       check=True).stdout)
             for _ in range(repeats)]
    return [(f"warm cache: import fastpr + first evaluate (median of {repeats})", _median(runs),
             max(r[2] for r in runs), "<= 0.35 s"),
            (f"for reference: import numpy + numba alone (median of {repeats})",
             [statistics.median(f[k] for f in floor) for k in (0, 1)], None, "")]


def _median(runs):
    """Median (wall, CPU) of import + first call over child runs."""
    return [statistics.median(imported[k] + first[k] for imported, first, _ in runs)
            for k in (0, 1)]


def readonly_rows(work, repeats=5):
    site = os.path.join(work, "site")
    shutil.copytree(os.path.join(REPO_DIR, "fastpr"), os.path.join(site, "fastpr"),
                    ignore=shutil.ignore_patterns("__pycache__"))
    start = time.perf_counter(), _children_cpu()
    subprocess.run([sys.executable, "-m", "fastpr", "warmup"], env=_env(None, site), cwd=site,
                   check=True, capture_output=True)
    warmup = [time.perf_counter() - start[0], _children_cpu() - start[1]]
    jobs = numba.config.NUMBA_NUM_THREADS  # warmup's default
    rows = [(f"`fastpr warmup` into a copy of the package (whole process, {jobs} processes at "
             "once)", warmup, None, "")]
    wrap = read_only_wrapper(site)
    if wrap is None:
        return rows + [("read-only package: (cannot make it read-only here)", (None, None), None,
                        "")]
    try:
        runs = [_child(_EVALUATE, None, site, wrap) for _ in range(repeats)]
    finally:
        subprocess.run(["chmod", "-R", "u+w", site], check=True)
    return rows + [(f"read-only package warmed by `fastpr warmup`: import + first evaluate "
                    f"(median of {repeats})", _median(runs), max(r[2] for r in runs), "<= 0.5 s")]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    choices = ("empty", "further", "commands", "warm", "readonly")
    parser.add_argument("--rows", nargs="+", choices=choices, default=choices)
    parser.add_argument("--repeats", type=int, default=3,
                        help="processes per first call, for medians (default 3)")
    args = parser.parse_args(argv)
    load_at_start = _load()
    started = time.perf_counter()
    rows = []
    with tempfile.TemporaryDirectory(prefix="fastpr-cold-") as work:
        evaluate_cache, empty = empty_rows(work, args.repeats)
        rows += empty if "empty" in args.rows else []
        if "further" in args.rows:
            rows += further_rows(work, evaluate_cache, args.repeats)
        if "commands" in args.rows:
            rows += command_rows(work)
        if "warm" in args.rows:
            rows += warm_rows(evaluate_cache)
        if "readonly" in args.rows:
            rows += readonly_rows(work)
    elapsed = time.perf_counter() - started
    command = "python bench/cold_start.py" + (" " + " ".join(sys.argv[1:]) if sys.argv[1:]
                                               else "")
    print(f"## fastpr cold start ({command})\n")
    print(machine_description(load_at_start))
    print(f"\nTotal run time {elapsed:.0f} s. 'time' is wall-clock time, what a user waits (the "
          "targets apply to it); 'CPU' is the process's CPU time, which other work on the "
          "machine inflates less. 'kernels compiled' counts kernel signatures compiled in the "
          "process (0: all loaded from the cache).\n")
    print("| case | time | CPU | kernels compiled | target |")
    print("|---|---:|---:|---:|---|")
    for name, (wall, cpu), compiled, target in rows:
        verdict = ""
        if target and wall is not None:
            verdict = target + (" met" if wall <= float(target.split()[1]) else " MISSED")
        print(f"| {name} | {fmt_time(wall)} | {fmt_time(cpu)} | "
              f"{'' if compiled is None else compiled} | {verdict} |")


if __name__ == "__main__":
    main()
