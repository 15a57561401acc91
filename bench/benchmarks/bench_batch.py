"""Many rankings per call: 2-D batches on 1 and 2 threads, ragged groups, one-vs-rest classes.

Python loops over single calls (fastpr's and scikit-learn's) are measured by the same suite as
baselines. ``setup`` compiles (or loads from cache) every kernel on a small slice first.
"""
import warnings

import numba
import numpy as np

import fastpr

from ._data import make_batch, make_groups

THREADS = [1, 2]


def _threads(n_threads):
    numba.set_num_threads(min(n_threads, numba.config.NUMBA_NUM_THREADS))


class Batch:
    """evaluate on a (rankings, n) batch of scores sharing one label vector."""

    params = ([100, 1_000], [1_000, 10_000], THREADS)
    param_names = ["rankings", "n", "threads"]

    def setup(self, rankings, n, threads):
        self.y, self.s = make_batch(rankings, n)
        _threads(threads)
        fastpr.evaluate(self.y, self.s[:2])

    def teardown(self, rankings, n, threads):
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)

    def time_evaluate(self, rankings, n, threads):
        fastpr.evaluate(self.y, self.s)

    def time_auc_pr_per_row_labels(self, rankings, n, threads):
        fastpr.auc_pr(np.broadcast_to(self.y, self.s.shape), self.s)


class BatchShapes:
    """evaluate on many short rankings and on a few long ones (shared labels)."""

    params = ([(100_000, 100), (10, 1_000_000)], THREADS)
    param_names = ["rankings_x_n", "threads"]

    def setup(self, shape, threads):
        self.y, self.s = make_batch(*shape)
        _threads(threads)
        fastpr.evaluate(self.y, self.s[:2])

    def teardown(self, shape, threads):
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)

    def time_evaluate(self, shape, threads):
        fastpr.evaluate(self.y, self.s)


class BatchBaselines:
    """Python loops over single calls, the thing a batch call replaces (one thread)."""

    params = ([100], [10_000])
    param_names = ["rankings", "n"]

    def setup(self, rankings, n):
        from sklearn.metrics import average_precision_score

        self.sklearn_ap = average_precision_score
        self.y, self.s = make_batch(rankings, n)
        fastpr.evaluate(self.y, self.s[0])

    def time_loop_fastpr_evaluate(self, rankings, n):
        for row in self.s:
            fastpr.evaluate(self.y, row)

    def time_loop_sklearn_average_precision(self, rankings, n):
        for row in self.s:
            self.sklearn_ap(self.y, row)


class Groups:
    """One ranking of ~100 rows per query, split by shuffled group ids or by offsets."""

    params = ([1_000, 100_000], THREADS)
    param_names = ["groups", "threads"]

    def setup(self, n_groups, threads):
        y, s, groups, self.offsets, shuffle = make_groups(n_groups)
        self.y, self.s = y, s
        self.shuffled = (y[shuffle], s[shuffle], groups[shuffle])
        _threads(threads)
        warnings.simplefilter("ignore", fastpr.UndefinedMetricWarning)
        fastpr.evaluate(y[:1000], s[:1000], groups=groups[:1000])

    def teardown(self, n_groups, threads):
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)

    def time_groups(self, n_groups, threads):
        y, s, groups = self.shuffled
        fastpr.evaluate(y, s, groups=groups)

    def time_offsets(self, n_groups, threads):
        fastpr.evaluate(self.y, self.s, offsets=self.offsets)


class Multiclass:
    """One-vs-rest over 10 classes of 100,000 samples."""

    def setup(self):
        rng = np.random.default_rng(0)
        self.y = rng.integers(0, 10, 100_000)
        self.p = rng.random((100_000, 10))
        fastpr.multiclass.auc_pr(self.y[:100], self.p[:100], labels=np.arange(10))

    def time_macro_auc_pr(self):
        fastpr.multiclass.auc_pr(self.y, self.p)

    def time_micro_auc_pr(self):
        fastpr.multiclass.auc_pr(self.y, self.p, average="micro")
