"""One binary ranking as scikit-learn's curves accept it: labels, scores, weights and the
positive class, checked."""
from typing import NamedTuple

import numpy as np

from . import _checks, _rankings


class BinaryRanking(NamedTuple):
    is_positive: np.ndarray
    scores: np.ndarray  # not yet checked for NaN and infinities: ``_rankings`` does that
    weights: np.ndarray  # or None
    score_dtype: np.dtype  # as given: precision-recall thresholds come back in it
    distinct: np.ndarray  # where ``scores`` are ranks, the given scores they stand for, or None
    n_labels: int  # distinct values of y_true


def binary_ranking(y_true, y_score, pos_label, sample_weight, target=None):
    """Check one ranking: a binary target, or a multiclass one with ``pos_label`` named (the
    rest are negatives); without ``pos_label`` the labels must be {0, 1} or {-1, 1}.
    ``target``: ``_checks.target_type`` of ``y_true`` where the caller has it already."""
    y = _checks.column_or_1d("y_true", y_true)
    kind, classes = target or _checks.target_type("y_true", y)
    if not (kind == "binary" or (kind == "multiclass" and pos_label is not None)):
        raise _checks.unsupported(kind)
    if pos_label is None:
        pos_label = _checks.default_pos_label(classes)
    scores = _checks.scores("y_score", y_score, check_finite=False)
    weights = _checks.weights(sample_weight)
    _checks.consistent_length(y_true=y, y_score=scores.values, sample_weight=weights)
    return BinaryRanking(_checks.positives(y, pos_label), scores.values, weights, scores.dtype,
                         scores.distinct, classes.size)


def given_thresholds(ranking, thresholds):
    """Thresholds of the ranking's points as the scores that the caller gave: the same array,
    or, where ``_checks.scores`` ranked them, the given values in their dtype (+inf, at the
    origin, becomes float64 with the rest)."""
    if ranking.distinct is None:
        return thresholds
    finite = np.isfinite(thresholds)
    if finite.all():
        return ranking.distinct[thresholds.astype(np.intp)]
    given = np.full(thresholds.shape, np.inf)
    given[finite] = ranking.distinct[thresholds[finite].astype(np.intp)]
    return given


def points(ranking, first, rule):
    """Rows (thresholds, tp, fp) of the ranking, origin first, without those that ``rule``
    drops from column ``first`` on (see ``_rankings.points``)."""
    return _rankings.points(ranking.is_positive, ranking.scores, ranking.weights, first, rule)
