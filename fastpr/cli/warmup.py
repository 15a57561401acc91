"""``fastpr warmup``: compile every kernel signature the library uses into the kernel cache.

Each feature runs the public API on a few examples in every form that reaches a kernel with
different types (float32 and float64 scores, weights, label dtypes, one ranking or many), so
that later processes load everything from the cache. Run it where the cache will be read: in an
image build, as the user that installed the package, it fills the package's own cache, which a
read-only container then uses without any setting.

Compiling takes most of a minute on one core, and numba compiles one kernel at a time in a
process, so the features can run in several processes at once (``run(jobs=...)``): the first
feature, which compiles the sweep and the other kernels that every feature calls, runs here;
the others then run side by side, each in a fresh process that loads those from the cache.
(Processes save into one cache safely: see ``numba_private._IndexDataFile``.)
"""
import importlib.util
import itertools
import json
import os
import subprocess
import sys
import time
import warnings
from concurrent.futures import ThreadPoolExecutor, as_completed

import numpy as np

import fastpr

from .. import kernels
from ..exceptions import UndefinedMetricWarning
from .._engine import jit as _jit
from .._engine import ranking
from .._engine.kernels.merge_sort import merge_halves

_LABELS = np.array([1, 0, 1, 1, 0, 0, 1, 0, 0, 1, 0, 0])
_SCORES = np.array([0.9, 0.8, 0.7, 0.7, 0.6, 0.5, 0.4, 0.4, 0.3, 0.2, 0.1, 0.0])
_WEIGHTS = np.array([1.0, 2.0, 0.5, 1.0, 1.0, 0.0, 3.0, 1.0, 1.0, 2.0, 1.0, 1.0])


def _score_forms():
    return _SCORES, _SCORES.astype(np.float32)


def _frozen(array):
    """A read-only copy: numba compiles kernels again for read-only arrays, which is how
    ``fastpr evaluate`` (pyarrow) and memory-mapped data hand them over."""
    array = np.array(array)
    array.flags.writeable = False
    return array


def _evaluate():
    for labels in (_LABELS, *(_LABELS.astype(t) for t in (np.int32, np.uint8, np.float64, bool))):
        for scores in _score_forms():
            for weights in (None, _WEIGHTS):
                fastpr.evaluate(labels, scores, sample_weight=weights)
                fastpr.evaluate(_frozen(labels), _frozen(scores),
                                sample_weight=None if weights is None else _frozen(weights))
    fastpr.evaluate(_LABELS.astype(np.float32), _SCORES, pos_label=1.0)
    fastpr.evaluate(_LABELS.astype(bool), _SCORES, pos_label=False)
    fastpr.auc_pr_min(3, 9)
    fastpr.auc_pr_min(3, 9, method="average_precision")
    # The merge of a large class's halves, sorted on two threads (kernels/class_sort.py),
    # which rankings this short never reach.
    for scores in _score_forms():
        merge_halves(scores, 6, np.empty_like(scores), 0, scores.size)


def _batches():
    for scores in _score_forms():
        rows = np.stack([scores, scores[::-1]])
        for labels in (_LABELS, np.stack([_LABELS, _LABELS[::-1]])):
            for weights in (None, _WEIGHTS):
                fastpr.evaluate(labels, rows, sample_weight=weights)
                fastpr.evaluate(_frozen(labels), _frozen(rows),
                                sample_weight=None if weights is None else _frozen(weights))


def _groups():
    ids = np.arange(_LABELS.size) // 4  # three groups, each with both classes
    for scores in _score_forms():
        for weights in (None, _WEIGHTS):
            fastpr.evaluate(_LABELS, scores, sample_weight=weights, groups=ids)
            fastpr.evaluate(_LABELS, scores, sample_weight=weights, groups=ids.astype(str))
            fastpr.evaluate(_LABELS, scores, sample_weight=weights, offsets=[0, 4, 8, 12])
            for groups in (ids, ids.astype(str)):
                fastpr.evaluate(_frozen(_LABELS), _frozen(scores), groups=_frozen(groups),
                                sample_weight=None if weights is None else _frozen(weights))
    # Segments from 1,024 rows on are sorted by NumPy and recorded one by one.
    many = np.resize(_LABELS, 2048)
    fastpr.evaluate(many, np.linspace(0, 1, many.size), groups=np.zeros(many.size, int))


def _curves():
    from .. import sklearn as drop_in  # (scikit-learn itself is not needed)

    for scores in _score_forms():
        # The drop-in's curves split the labels' arrays as they read them, in these types.
        # (Either may be read-only: a pandas column, say, and a model's fresh scores.)
        for labels in (_LABELS, _LABELS.astype(bool), _LABELS.astype(np.float64)):
            for labels_form, scores_form in itertools.product((labels, _frozen(labels)),
                                                              (scores, _frozen(scores))):
                drop_in.precision_recall_curve(labels_form, scores_form)
        for weights in (None, _WEIGHTS):
            drop_in.roc_curve(_LABELS, scores, sample_weight=weights)
            drop_in.det_curve(_LABELS, scores, sample_weight=weights, drop_intermediate=True)
            fastpr.roc_points(_LABELS, scores, sample_weight=weights)
            fastpr.pr_curve(_LABELS, scores, sample_weight=weights)
            fastpr.roc_convex_hull(_LABELS, scores, sample_weight=weights)
            fastpr.achievable_pr_curve(_LABELS, scores, sample_weight=weights)
            fastpr.max_f_beta(_LABELS, scores, sample_weight=weights)
            fastpr.prg_curve(_LABELS, scores, sample_weight=weights)
            fastpr.evaluate_at_thresholds(_LABELS, scores, [0.5], sample_weight=weights)


def _intervals():
    for scores in _score_forms():
        for weights in (None, _WEIGHTS):
            for resampling in ("multinomial", "poisson"):
                fastpr.bootstrap(_LABELS, scores, n_boot=4, seed=0, sample_weight=weights,
                                 resampling=resampling, metric="max_f1")
            fastpr.bootstrap_sample(_LABELS, scores, 1, seed=0, sample_weight=weights)
            for metric in ("auc_pr", "max_f1"):  # (the replicates with points and without)
                fastpr.compare(_LABELS, [scores, scores[::-1]], n_boot=4, seed=0,
                               sample_weight=weights, metric=metric)
        fastpr.bootstrap(_LABELS, scores, n_boot=4, seed=0, interval="bca")
        fastpr.confidence_interval(_LABELS, scores, rule="logit")
        fastpr.delong(_LABELS, scores)
        fastpr.compare(_LABELS, [scores, scores[::-1]], metric="auc_roc", test="delong")


def _accumulator():
    for scores in _score_forms():
        for weights in (None, _WEIGHTS):
            a, b = fastpr.Accumulator(), fastpr.Accumulator()
            a.update(_LABELS[:6], scores[:6], sample_weight=None if weights is None
                     else weights[:6])
            b.update(_LABELS[6:], scores[6:], sample_weight=None if weights is None
                     else weights[6:])
            a.merge(b).evaluate()


def _compiled_callers():
    """``fastpr.kernels`` as user code inside ``@numba.njit`` calls it (bool labels)."""
    for scores in _score_forms():
        for weights in (np.empty(0), _WEIGHTS):
            kernels.summary(_LABELS.astype(bool), scores, weights)


def _learn():
    """fastpr.learn: the learner's sums, gradients, deltas and repeated metrics."""
    from .. import learn

    ids = np.arange(_LABELS.size) // 4
    for scores in _score_forms():
        learn.lambda_sums(_LABELS, scores)
        learn.lambda_sums(_LABELS, scores, groups=ids)
        for pairs in ("topk", "all"):
            learn.lambdamart_gradients(_LABELS, scores, pairs=pairs)  # one ranking: chunks
            learn.lambdamart_gradients(_LABELS, scores, offsets=[0, 4, 8, 12], pairs=pairs,
                                       group_weight=[1.0, 2.0, 1.0])
        # One ranking's pairs with options other than XGBoost's default: their own kernel.
        learn.lambdamart_gradients(_LABELS, scores, ranknet=False)
        deltas = learn.swap_delta(_LABELS, scores)
        deltas.swap([0, 1], [2, 3])
        deltas.move([0, 1], [2, 3])
        for name in ("auc_pr", "auc_pr_dg", "recall_at_precision@0.5"):
            learn.FixedLabels(_LABELS).metric(scores, name)


def _compiled_learners():
    """``fastpr.learn.kernels`` as user code inside ``@numba.njit`` calls them."""
    from ..learn import kernels as learn_kernels
    labels = _LABELS.astype(bool)
    offsets = np.array([0, 6, 12])
    order = np.empty(_SCORES.size, dtype=np.int64)
    out, grad, hess = np.empty(_SCORES.size), np.empty(_SCORES.size), np.empty(_SCORES.size)
    learn_kernels.descending_order(_SCORES, order)
    learn_kernels.ranking_order(_SCORES, offsets, order)
    ranked_true = labels[order]
    learn_kernels.lambda_sums_into(ranked_true, order, offsets, out)
    learn_kernels.top_k_gradients(ranked_true, _SCORES, order, offsets, np.empty(0), 32, True,
                                  True, True, grad, hess)
    learn_kernels.all_pairs_gradients(ranked_true, order, offsets, np.empty(0), True, grad, hess)
    table = np.empty((_SCORES.size + 1, learn_kernels.AP_DELTA_COLUMNS))
    learn_kernels.ap_delta_table(ranked_true, table)
    learn_kernels.swap_delta_at(table, 0, 1)
    learn_kernels.move_delta_at(table, 0, 1)


def _distributed():
    """Only where Dask is installed (fastpr.distributed needs it)."""
    if importlib.util.find_spec("dask") is None:
        return
    import dask.array as da

    from .. import distributed

    for scores in _score_forms():
        distributed.evaluate(da.from_array(_LABELS, chunks=6), da.from_array(scores, chunks=6),
                             n_ranges=2)


def _long_float32():
    """The paths of long float32 rankings (see ``ranking._FLOAT32_SWEEP_MIN``), whose sweeps
    keep float32 scores: the features that sweep one ranking, on the small examples."""
    short_enough = ranking._FLOAT32_SWEEP_MIN
    ranking._FLOAT32_SWEEP_MIN = 0
    try:
        for feature in (_evaluate, _groups, _curves, _intervals, _accumulator):
            feature()
    finally:
        ranking._FLOAT32_SWEEP_MIN = short_enough


# The first compiles what every other feature calls; the longest of the others come first, so
# that processes running them side by side finish together.
FEATURES = {
    "evaluate": _evaluate,
    "learn": _learn,
    "batches": _batches,
    "intervals": _intervals,
    "compiled callers": _compiled_callers,
    "compiled learners": _compiled_learners,
    "distributed": _distributed,
    "long float32": _long_float32,
    "groups": _groups,
    "curves": _curves,
    "accumulator": _accumulator,
}
class FeatureFailed(RuntimeError):
    """A feature that ``run`` gave to another process failed there (its stderr says how)."""


# What a process running one feature elsewhere executes: it prints ``run_in_child``'s result.
_CHILD = ("import json, sys; from fastpr.cli import warmup; "
          "print(json.dumps(warmup.run_in_child(*sys.argv[1:])))")


def run(features=tuple(FEATURES), report=None, jobs=1):
    """Run ``features`` (names in FEATURES), calling ``report(name, seconds, compiled, loaded)``
    after each with the kernel signatures it compiled and loaded from the cache; returns the
    kernels whose compiled code could not be saved.

    With ``jobs`` above 1 and a cache on disk, the features after the first run in up to
    ``jobs`` fresh processes at once, reported as they finish; a failure there raises
    :class:`FeatureFailed`.
    """
    features = list(features)
    if jobs <= 1 or len(features) < 3 or _jit.cache_dir() is None:
        _run_here(features, report)
        return list(_jit.unsaved)
    _run_here(features[:1], report)
    return [*_jit.unsaved, *_run_elsewhere(features[1:], report, jobs)]


def _run_here(features, report):
    _jit.on_first_compile(None)  # (warmup compiles on purpose, and reports what)
    for name in features:
        before = _counts()
        start = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedMetricWarning)
            FEATURES[name]()
        after = _counts()
        if report is not None:
            report(name, time.perf_counter() - start, after[0] - before[0], after[1] - before[1])


def _run_elsewhere(features, report, jobs):
    """Run each feature in a fresh process of its own, up to ``jobs`` at once, into this
    process's cache; returns the kernels that they could not save."""
    package_parent = os.path.dirname(os.path.dirname(os.path.abspath(fastpr.__file__)))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [package_parent, *filter(None, [os.environ.get("PYTHONPATH")])]))
    where = _jit.cache_dir()
    running = set()  # the children's processes, to stop on an interrupt

    def in_child(name):
        with subprocess.Popen([sys.executable, "-c", _CHILD, where, name], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as child:
            running.add(child)
            try:
                stdout, stderr = child.communicate()
            finally:
                running.discard(child)
        if child.returncode != 0:
            raise FeatureFailed(f"{name!r} failed in its own process:\n{stderr.strip()}")
        return json.loads(stdout.strip().splitlines()[-1])

    unsaved = []
    with ThreadPoolExecutor(jobs) as pool:  # threads that wait on the processes
        names = {pool.submit(in_child, name): name for name in features}
        try:
            for future in as_completed(names):
                counts, kernels = future.result()
                unsaved += kernels
                if report is not None:
                    report(names[future], *counts)
        except FeatureFailed:
            pool.shutdown(cancel_futures=True)  # (those running finish first)
            raise
        except KeyboardInterrupt:  # start no more, and stop those running (their saves are
            pool.shutdown(cancel_futures=True, wait=False)  # whole files: the cache stays sound)
            for child in list(running):
                child.terminate()
            raise
    return unsaved


def run_in_child(cache_dir, name):
    """Feature ``name`` in a process that ``run`` started: ((seconds, compiled, loaded), the
    kernels not saved). Refuses to compile into any cache but ``cache_dir``, its parent's."""
    if _jit.cache_dir() != cache_dir:
        raise RuntimeError(f"this process caches kernels in {_jit.cache_dir()}, its parent in "
                           f"{cache_dir}")
    reports = []
    _run_here([name], lambda *report: reports.append(report[1:]))
    return reports[0], list(_jit.unsaved)


def _counts():
    """(signatures compiled, signatures loaded from the cache) by all kernels so far."""
    kernels = _jit.kernels()
    return (sum(sum(k.stats.cache_misses.values()) for k in kernels),
            sum(sum(k.stats.cache_hits.values()) for k in kernels))
