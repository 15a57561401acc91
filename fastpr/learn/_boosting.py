"""What the XGBoost and LightGBM adapters share: their options, and the labels of each data set
a booster hands over, checked once and kept while the same data set comes back round after
round."""
import numpy as np

from .._validation import OneOf, options
from .labels import GRADIENT_OPTIONS, METRICS, FixedLabels

# Data sets kept at once: the training set and a few evaluation sets, which a booster hands over
# in turn every round.
_KEPT = 8


class KeptLabels:
    """:class:`FixedLabels` of the labels, query groups and example weights handed over, made
    again only for data not seen among the last few sets (comparing arrays costs a pass at memory
    speed; checking labels and grouping them again costs several)."""

    def __init__(self):
        self._kept = []  # (y_true, group sizes, sample_weight, FixedLabels), newest last

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
        labels = FixedLabels(y_true, offsets=offsets, sample_weight=sample_weight)
        self._kept = [*self._kept[1 - _KEPT:], (*(_copy(a) for a in key), labels)]
        return labels

    def __getstate__(self):  # a pickled adapter (inside a pickled model) keeps no data
        return {"_kept": []}


def _copy(array):
    return None if array is None else np.array(array, copy=True)


def _same(array, kept):
    if array is None or kept is None:
        return array is kept
    return array.shape == kept.shape and np.array_equal(array, kept)


class GradientsAdapter:
    """The options of an adapter's objective (those of ``lambdamart_gradients``) and its kept
    labels."""

    @options(**GRADIENT_OPTIONS)
    def __init__(self, *, pairs="topk", k=32, ranknet=None, score_normalization=None,
                 query_normalization=True):
        self.options = {"pairs": pairs, "k": k, "ranknet": ranknet,
                        "score_normalization": score_normalization,
                        "query_normalization": query_normalization}
        self._labels = KeptLabels()


class MetricAdapter:
    """The metric name of an adapter's eval metric and its kept labels."""

    @options(name=OneOf(METRICS))
    def __init__(self, name="auc_pr"):
        self.name = name
        self._labels = KeptLabels()
