"""Entry points under fork and under concurrent Python threads, on every numba threading layer.

Each case runs in a fresh interpreter, so that a process killed by a threading layer, or a
threading layer started here, cannot affect the suite's own process; a timeout turns a hang into
a failure.
"""
import os
import subprocess
import sys

import pytest

# Work that takes the threaded paths on two threads: groups= and offsets= over enough rows for
# several ranges of segments plus a long group, a 2-D batch over enough scores for blocks of
# rows, a bootstrap and a paired comparison.
_SETUP = """
import warnings
import numpy as np
import fastpr

warnings.simplefilter("ignore", fastpr.UndefinedMetricWarning)
rng = np.random.default_rng(0)
n = 30_000
y = rng.random(n) < 0.2
s = np.round(rng.random(n) + 0.3 * y, 3)
w = rng.random(n)
groups = rng.integers(0, 300, n)
groups[:2000] = 300
offsets = np.r_[0, np.sort(rng.choice(n, 200, replace=False)), n]
rows = rng.random((40, 4000)) + 0.3 * y[:4000]


def work(_=None):
    return [fastpr.evaluate(y, s, groups=groups).to_dict(),
            fastpr.evaluate(y, s, sample_weight=w, offsets=offsets).to_dict(),
            fastpr.evaluate(y[:4000], rows).to_dict(),
            fastpr.bootstrap(y, s, n_boot=20, seed=1).replicates,
            fastpr.compare(y, [s, s[::-1]], n_boot=10, seed=2).replicates]


def same(a, b):
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, z) for x, z in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return np.array_equal(np.asarray(a), np.asarray(b), equal_nan=np.asarray(a).dtype.kind == "f")
"""

_FORK = """
import multiprocessing
from concurrent.futures import ProcessPoolExecutor

import numba

expected = work()  # in the parent, before any fork
# Nor by the thread count: under GNU OpenMP, a child forked after the layer started dies at its
# own first parallel region.
try:
    layer = numba.threading_layer()
except ValueError:  # not started
    layer = None
assert layer is None, f"fastpr started numba's {layer} threading layer"
fork = multiprocessing.get_context("fork")
with fork.Pool(2) as pool:
    children = pool.map_async(work, range(2)).get(timeout=120)
with ProcessPoolExecutor(2, mp_context=fork) as executor:
    children += list(executor.map(work, range(2), timeout=120))
assert all(same(expected, child) for child in children), "a forked child computed otherwise"
print("ok")
"""

_LAYER = """
import numba

try:
    numba.get_num_threads()  # starts the layer that NUMBA_THREADING_LAYER names
except ValueError as error:
    print("unavailable:", str(error).replace("\\n", " "))
    raise SystemExit
"""

_THREADS = """
import threading

expected = work()
results = []
threads = [threading.Thread(target=lambda: results.extend(work() for _ in range(2)))
           for _ in range(4)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
assert len(results) == 8 and all(same(expected, result) for result in results)
print("ok", numba.threading_layer())
"""


# One FixedLabels shared by threads that score different scores at once (its buffers are kept
# from call to call, one set per thread): each thread must get what the same object gave for
# the same scores called one call at a time, for every metric, on each path of ``metric`` (one
# ranking, weights, groups), for the sums and gradients, and through one shared adapter.
_SHARED_LABELS = """
import threading

from fastpr.learn import METRICS, FixedLabels
from fastpr.learn import lightgbm as fastpr_lgb


def scored(labels, scores):
    values = [labels.metric(scores, name) for name in METRICS]
    if labels.n_groups > 1:
        values.append(labels.metric(scores, "auc_pr", average=None))
    if labels is not weighted and labels is not weighted_groups:  # (no gradients with weights)
        values += [labels.lambda_sums(scores), *labels.lambdamart_gradients(scores),
                   *labels.lambdamart_gradients(scores, pairs="all")]
    return values


shared = [FixedLabels(y), FixedLabels(y, groups=groups)]
weighted, weighted_groups = FixedLabels(y, sample_weight=w), FixedLabels(y, groups=groups,
                                                                           sample_weight=w)
shared += [weighted, weighted_groups]
adapter = fastpr_lgb.Metric("average_precision")  # its labels kept by data set


def all_scored(row):
    return [scored(labels, row) for labels in shared] + [
        adapter.evaluate(y, row, weight, None) for weight in (None, w)]


rows = {seed: np.random.default_rng(seed).random((3, n)) for seed in range(4)}
expected = {seed: [all_scored(row) for row in rows[seed]] for seed in rows}  # one at a time
start = threading.Barrier(len(rows))
wrong = []


def thread(seed):
    start.wait()
    for _ in range(2):
        got = [all_scored(row) for row in rows[seed]]
        if not same(got, expected[seed]):
            wrong.append(seed)


threads = [threading.Thread(target=thread, args=(seed,)) for seed in rows]
for t in threads:
    t.start()
for t in threads:
    t.join()
assert not wrong, f"threads {sorted(set(wrong))} got other results than one call at a time"
print("ok")
"""


def _run(script, prelude="", **env):
    """stdout of ``prelude``, the shared setup and ``script`` in a fresh interpreter on two
    threads."""
    environment = {**os.environ, "NUMBA_NUM_THREADS": "2", **env}
    try:
        done = subprocess.run([sys.executable, "-c", prelude + _SETUP + script], env=environment,
                              capture_output=True, text=True, timeout=240)
    except subprocess.TimeoutExpired as expired:
        pytest.fail(f"hung: {expired.stderr}")
    assert done.returncode == 0, f"exit {done.returncode}: {done.stdout}{done.stderr}"
    return done.stdout.strip()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork here")
def test_forked_children_compute_what_the_parent_computed_and_no_threading_layer_starts():
    assert _run(_FORK) == "ok"


@pytest.mark.parametrize("layer", ["workqueue", "omp", "tbb"])
def test_threads_calling_at_once_get_the_serial_results_on_every_threading_layer(layer):
    out = _run(_THREADS, _LAYER, NUMBA_THREADING_LAYER=layer)
    if out.startswith("unavailable:"):
        pytest.skip(f"numba's {layer} threading layer: {out}")
    assert out == f"ok {layer}"



def test_threads_sharing_one_fixed_labels_get_what_calls_one_at_a_time_get():
    assert _run(_SHARED_LABELS) == "ok"
