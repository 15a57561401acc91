"""What the XGBoost and LightGBM adapters share: their options, and the labels of each data set
a booster hands over, checked once and kept while the same data set comes back round after
round."""
import warnings

import numpy as np

from .._validation import Boolean, Integer, Interval, Metric, OneOf, metric_spec, options
from ._random_queries import RandomQueries
from .labels import GRADIENT_OPTIONS, METRICS, FixedLabels

# One ranking longer than this many times k makes the objective of one query warn.
LONG_RANKING = 50
# Data sets kept at once: the training set and a few evaluation sets, which a booster hands over
# in turn every round.
_KEPT = 8


class KeptLabels:
    """:class:`FixedLabels` of the labels, query groups and example weights handed over, made
    again only for data not seen among the last few sets (comparing arrays costs a pass at memory
    speed; checking labels and grouping them again costs several)."""

    def __init__(self, build=None):
        self._kept = []  # (y_true, group sizes, sample_weight, FixedLabels), newest last
        self._build = build  # None: FixedLabels

    def get(self, y_true, group_sizes, sample_weight):
        """The FixedLabels of ``y_true`` in query groups of ``group_sizes`` (consecutive rows;
        None: one ranking) with per-example ``sample_weight`` (or None)."""
        key = (y_true, group_sizes, sample_weight)
        for entry in self._kept:
            if all(_same(a, b) for a, b in zip(key, entry)):
                return entry[-1]
        offsets = None
        if group_sizes is not None:
            offsets = np.concatenate(([0], np.cumsum(group_sizes, dtype=np.int64)))
        labels = (FixedLabels(y_true, offsets=offsets, sample_weight=sample_weight)
                  if self._build is None else self._build(y_true))
        self._kept = [*self._kept[1 - _KEPT:], (*(_copy(a) for a in key), labels)]
        return labels

    def __getstate__(self):  # a pickled adapter (inside a pickled model) keeps no data
        return {"_kept": [], "_build": self._build}


def _copy(array):
    return None if array is None else np.array(array, copy=True)


def _same(array, kept):
    if array is None or kept is None:
        return array is kept
    return array.shape == kept.shape and np.array_equal(array, kept)


class GradientsAdapter:
    """The options of an adapter's objective, its kept labels, and the random queries of data
    without query groups."""

    @options(**GRADIENT_OPTIONS, ungrouped=OneOf(("random_queries", "one_query")),
             query_positives=Integer(minimum=1), rescale=Boolean(),
             logistic_weight=Interval(0.0, 1.0, closed="left"), seed=Integer(minimum=0))
    def __init__(self, *, pairs="topk", k=32, ranknet=None, score_normalization=None,
                 query_normalization=True, ungrouped="random_queries", query_positives=None,
                 rescale=True, logistic_weight=0.75, seed=0):
        self.options = {"pairs": pairs, "k": k, "ranknet": ranknet,
                        "score_normalization": score_normalization,
                        "query_normalization": query_normalization}
        self.ungrouped = ungrouped
        # k // 8 (4 at k = 32) and three quarters logistic loss: what bench/learner_quality.py
        # picked for doing no harm (see the learners guide).
        self.query_positives = max(1, k // 8) if query_positives is None else query_positives
        self.rescale = rescale
        self.logistic_weight = logistic_weight
        self.seed = seed
        self._rng = np.random.default_rng(seed)
        self._labels = KeptLabels()
        self._queries = KeptLabels(_QueriesOf(self.query_positives))
        self._warned = None  # the labels of one ranking last warned about

    def _gradients(self, y_true, y_pred, group_sizes, group_weight):
        """(grad, hess) of labels ``y_true`` and margins ``y_pred`` in query groups of sizes
        ``group_sizes`` (None: no groups) weighted by ``group_weight`` (or None)."""
        if group_sizes is None and self.ungrouped == "random_queries":
            return self._queries.get(y_true, None, None).gradients(
                y_pred, self._rng, self.rescale, self.logistic_weight, **self.options)
        labels = self._labels.get(y_true, group_sizes, None)
        if group_sizes is None and labels is not self._warned:
            n, k = labels.n_pos[0] + labels.n_neg[0], self.options["k"]
            if n > LONG_RANKING * k:
                self._warned = labels
                warnings.warn(
                    f"One ranking of {n} rows is much longer than k={k}: its top-k pairs give "
                    "large gradients to its first rows alone and its hessians sum to a few "
                    "units whatever its length, so trees with min_child_weight=1 hardly split "
                    "and the model stays far behind logistic loss. ungrouped='random_queries' "
                    "(the default) deals the rows into random queries instead.",
                    UserWarning, stacklevel=3)
        return labels.lambdamart_gradients(y_pred, group_weight=group_weight, **self.options)


class _QueriesOf:
    """Makes the :class:`RandomQueries` of labels (a class, not a closure: adapters pickle)."""

    def __init__(self, query_positives):
        self.query_positives = query_positives

    def __call__(self, y_true):
        return RandomQueries(y_true, self.query_positives)


class MetricAdapter:
    """The metric name of an adapter's eval metric and its kept labels."""

    @options(name=Metric(METRICS))
    def __init__(self, name="auc_pr"):
        self.name = metric_spec(name).text
        self._labels = KeptLabels()
