"""Timings of ``evaluate``, ``auc_pr`` (every method) and ``auc_roc``, with np.sort and
scikit-learn measured by the same suite as baselines.

Data come from ``_data.make_ranking`` (fixed seed) in ``setup``; ``setup`` also calls the function
once, so numba compilation (or loading its on-disk cache) never falls inside a timing.
"""
import numpy as np

import fastpr

from ._data import DTYPES, PREVALENCES, SCORES, make_ranking

# (label, dtype, prevalence, scores) for the headline targets at n = 10M.
TARGET_CASES = {
    "float64 1%": ("float64", 0.01, "continuous"),
    "float32 1%": ("float32", 0.01, "continuous"),
    "float64 50%": ("float64", 0.5, "continuous"),
    "float64 1% ties": ("float64", 0.01, "ties"),
}


def _warm(func, y_true, y_score, **kwargs):
    """Compile (or load from cache) the kernels for this dtype outside any timing."""
    func(y_true[:1000], y_score[:1000], **kwargs)


class EvaluateSize:
    """evaluate against n and dtype (1% positives, continuous scores); np.sort as the yardstick."""

    params = ([1_000, 10_000, 100_000, 1_000_000], list(DTYPES))
    param_names = ["n", "dtype"]

    def setup(self, n, dtype):
        self.y, self.s = make_ranking(n, dtype, 0.01)
        _warm(fastpr.evaluate, self.y, self.s)

    def time_evaluate(self, n, dtype):
        fastpr.evaluate(self.y, self.s)

    def time_np_sort(self, n, dtype):
        np.sort(self.s)


class EvaluateShape:
    """evaluate against prevalence, ties and dtype at n = 1M."""

    params = (list(PREVALENCES), list(SCORES), list(DTYPES))
    param_names = ["prevalence", "scores", "dtype"]

    def setup(self, prevalence, scores, dtype):
        self.y, self.s = make_ranking(1_000_000, dtype, prevalence, scores)
        _warm(fastpr.evaluate, self.y, self.s)

    def time_evaluate(self, prevalence, scores, dtype):
        fastpr.evaluate(self.y, self.s)

    def time_np_sort(self, prevalence, scores, dtype):
        np.sort(self.s)


class EvaluateTargets10M:
    """The issue's headline cases at n = 10M, each with np.sort of the same scores."""

    params = list(TARGET_CASES)
    param_names = ["case"]
    number = 1
    repeat = (3, 7, 30.0)
    warmup_time = 0.0
    timeout = 600

    def setup(self, case):
        dtype, prevalence, scores = TARGET_CASES[case]
        self.y, self.s = make_ranking(10_000_000, dtype, prevalence, scores)
        _warm(fastpr.evaluate, self.y, self.s)

    def time_evaluate(self, case):
        fastpr.evaluate(self.y, self.s)

    def time_np_sort(self, case):
        np.sort(self.s)


class AucPR:
    """auc_pr for every method; n = 1000 is the Python-call overhead case (target <= 20 us)."""

    params = ([1_000, 100_000, 1_000_000], list(fastpr.PR_METHODS))
    param_names = ["n", "method"]

    def setup(self, n, method):
        self.y, self.s = make_ranking(n, "float64", 0.01)
        _warm(fastpr.auc_pr, self.y, self.s, method=method)

    def time_auc_pr(self, n, method):
        fastpr.auc_pr(self.y, self.s, method=method)


class AucROC:
    params = [1_000, 100_000, 1_000_000]
    param_names = ["n"]

    def setup(self, n):
        self.y, self.s = make_ranking(n, "float64", 0.01)
        _warm(fastpr.auc_roc, self.y, self.s)

    def time_auc_roc(self, n):
        fastpr.auc_roc(self.y, self.s)


class Sklearn:
    """Baseline: scikit-learn's average_precision_score and roc_auc_score (skipped if absent)."""

    params = [1_000, 100_000, 1_000_000]
    param_names = ["n"]

    def setup(self, n):
        try:
            from sklearn import metrics
        except ImportError:
            raise NotImplementedError("scikit-learn is not installed")
        self.metrics = metrics
        self.y, self.s = make_ranking(n, "float64", 0.01)
        metrics.average_precision_score(self.y[:1000], self.s[:1000])

    def time_average_precision(self, n):
        self.metrics.average_precision_score(self.y, self.s)

    def time_average_precision_plus_roc_auc(self, n):
        self.metrics.average_precision_score(self.y, self.s)
        self.metrics.roc_auc_score(self.y, self.s)


class EvaluateMemory:
    """Peak memory of evaluate beyond its inputs, in units of 8n bytes (target <= 2).

    ``tracemalloc`` sees NumPy's allocations but not arrays that numba kernels allocate (NRT); the
    RSS high-water mark (reset through /proc/self/clear_refs, Linux only, with glibc told to mmap
    large blocks) sees both. The RSS figure is the one to hold against the target.
    """

    params = [1_000_000, 10_000_000]
    param_names = ["n"]
    unit = "8n bytes"
    timeout = 600

    def setup(self, n):
        from ._data import fix_mmap_threshold

        fix_mmap_threshold()
        self.y, self.s = make_ranking(n, "float64", 0.01)
        _warm(fastpr.evaluate, self.y, self.s)

    def track_extra_memory_tracemalloc(self, n):
        import tracemalloc

        tracemalloc.start()
        try:
            fastpr.evaluate(self.y, self.s)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        return peak / (8 * n)

    def track_extra_memory_rss(self, n):
        from ._data import rss_high_water_mark

        before = rss_high_water_mark(reset=True)
        if before is None:
            return float("nan")
        fastpr.evaluate(self.y, self.s)
        return (rss_high_water_mark() - before) / (8 * n)
