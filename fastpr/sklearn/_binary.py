"""One binary ranking as scikit-learn's curves accept it: labels, scores, weights and the
positive class, checked."""
import math
from typing import NamedTuple

import numpy as np

from .._engine.kernels.split import split_by_label
from .._engine.ranking import SortedRanking, sort_split
from .. import _validation
from . import _rankings

# The input of the curves' common case, split and sorted by class straight from the labels.
_SPLIT_LABELS = (np.dtype(np.int64), np.dtype(np.bool_), np.dtype(np.float64))
_SPLIT_SCORES = (np.dtype(np.float64), np.dtype(np.float32))


class BinaryRanking(NamedTuple):
    is_positive: np.ndarray  # None where ``classes`` holds the ranking
    scores: np.ndarray  # not yet checked for NaN and infinities: ``_rankings`` does that
    weights: np.ndarray  # or None
    score_dtype: np.dtype  # as given: precision-recall thresholds come back in it
    distinct: np.ndarray  # where ``scores`` are ranks, the given scores they stand for, or None
    n_labels: int  # distinct values of y_true
    classes: SortedRanking = None  # unweighted, sorted by class, checked: see ``split``


def binary_ranking(y_true, y_score, pos_label, sample_weight, target=None, *, split=False):
    """Check one ranking: a binary target, or a multiclass one with ``pos_label`` named (the
    rest are negatives); without ``pos_label`` the labels must be {0, 1} or {-1, 1}.
    ``target``: ``_validation.target_type`` of ``y_true`` where the caller has it already.
    ``split``: for :func:`points`, which may then get the ranking sorted by class already."""
    if split and (ranking := _split_ranking(y_true, y_score, pos_label, sample_weight)):
        return ranking
    y = y_true if (type(y_true) is np.ndarray and y_true.ndim == 1
                   and y_true.dtype.isnative) else _validation.column_or_1d("y_true", y_true)
    kind, classes = target or _validation.target_type("y_true", y)
    if not (kind == "binary" or (kind == "multiclass" and pos_label is not None)):
        raise _validation.unsupported(kind, ", whose curve needs pos_label to name the positive "
                                      "class" if kind == "multiclass" else "")
    if pos_label is None:
        pos_label = _validation.sk_default_pos_label(classes.tolist())
    scores = _validation.sk_scores("y_score", y_score, check_finite=False)
    weights = _validation.sk_weights(sample_weight)
    if y.shape[0] != scores.values.shape[0] or (weights is not None
                                                 and weights.shape[0] != y.shape[0]):
        _validation.consistent_length(y_true=y, y_score=scores.values, sample_weight=weights)
    return BinaryRanking(np.asarray(y == pos_label, dtype=bool), scores.values, weights,
                         scores.dtype, scores.distinct, classes.size)


def _split_ranking(y_true, y_score, pos_label, sample_weight):
    """The ranking of the common case (unweighted 1-D arrays of numeric labels and float scores)
    split and sorted by class as its labels are read, one pass in place of the checks' three;
    None for any other input, or labels that the checks must judge (no binary target, or
    labels other than {0, 1} and {-1, 1} without ``pos_label``), which then take them."""
    if not (sample_weight is None and type(y_true) is np.ndarray
            and type(y_score) is np.ndarray and y_true.dtype in _SPLIT_LABELS
            and y_score.dtype in _SPLIT_SCORES and y_true.ndim == 1
            and y_true.shape == y_score.shape and y_true.size
            and y_true.flags.c_contiguous and y_score.flags.c_contiguous
            and (pos_label is None or (type(pos_label) is int
                                       and abs(pos_label) <= _validation.EXACT_INTEGER))):
        return None
    n = y_score.size
    pos, neg = np.empty(n, y_score.dtype), np.empty(n, y_score.dtype)
    n_pos, other, n_neither = split_by_label(y_true, y_score, 1 if pos_label is None else
                                             pos_label, pos, neg)
    if n_neither or (n_pos < n and not _binary_class(other, pos_label)):
        return None
    classes = _rankings.checked_ends(sort_split(pos[:n_pos], None, neg[: n - n_pos], None),
                                     y_score)
    return BinaryRanking(None, y_score, None, y_score.dtype, None, (n_pos > 0) + (n_pos < n),
                         classes)


def _binary_class(label, pos_label):
    """Whether the label beside the positive one makes a binary target of it: a whole number
    (float labels may be NaN or fractions, a "continuous" target), and without ``pos_label``
    one that makes the positive label 1 ({0, 1} or {-1, 1})."""
    if not (math.isfinite(label) and label == math.trunc(label) and abs(label) < 2.0**63):
        return False
    return pos_label is not None or label in (0, -1)


def given_thresholds(ranking, thresholds):
    """Thresholds of the ranking's points as the scores that the caller gave: the same array
    (its zero signed as scikit-learn signs it, see :func:`_signed_zero`), or, where
    ``_validation.sk_scores`` ranked them, the given values in their dtype (+inf, at the origin,
    becomes float64 with the rest)."""
    if ranking.distinct is None:
        return _signed_zero(ranking, thresholds)
    finite = np.isfinite(thresholds)
    if finite.all():
        return ranking.distinct[thresholds.astype(np.intp)]
    given = np.full(thresholds.shape, np.inf)
    given[finite] = ranking.distinct[thresholds[finite].astype(np.intp)]
    return given


def _signed_zero(ranking, thresholds):
    """``thresholds`` (sorted either way) with a threshold of 0 carrying the sign of the last
    score equal to 0 (of nonzero weight) in the given order, as scikit-learn's: 0.0 and -0.0
    tie, and its stable sort leaves the last of them at the end of their run, whose score is
    the threshold. Changed in place."""
    if not thresholds.size:
        return thresholds
    first, last = thresholds[0], thresholds[-1]
    if first > 0 and last > 0 or first < 0 and last < 0:  # no 0 between them (two reads)
        return thresholds
    ascending = thresholds[::-1] if first > last else thresholds
    k = np.searchsorted(ascending, 0.0)
    if ascending[k] == 0:  # (k is a position: the largest threshold is >= 0)
        ascending[k] = math.copysign(0.0, ranking.scores[_last_zero(ranking.scores,
                                                                    ranking.weights)])
    return thresholds


def _last_zero(scores, weights):
    """The position of the last score equal to 0 (of nonzero weight; there is one), searched
    from the end in blocks that double: zeros are often many, and a pass would cost more."""
    stop, block = scores.size, 1 << 12
    while True:
        start = max(0, stop - block)
        hits = scores[start:stop] == 0
        if weights is not None:
            hits &= weights[start:stop] != 0
        found = hits.nonzero()[0]
        if found.size:
            return start + found[-1]
        stop, block = start, 2 * block


def points(ranking, first, rule):
    """Rows (thresholds, tp, fp) of the ranking, origin first, without those that ``rule``
    drops from column ``first`` on (see ``_rankings.points``)."""
    if ranking.classes is not None:
        return _rankings.unit_points(ranking.classes, first, rule)
    return _rankings.points(ranking.is_positive, ranking.scores, ranking.weights, first, rule)
