"""PR analysis at another base rate: ROC points stay, precision moves.

The shift is defined in docs/math/unachievable.rst.
"""
from dataclasses import dataclass

import numpy as np

from . import _validation
from ._engine.ranking import SortedRanking, sweep_ranking
from ._rankings import sort_ranking
from ._validation import Interval, options
from ._undefined import warn_if_undefined_in
from .curves import PRCurve, pr_curve_from_counts
from .exceptions import InputValueError
from .results import Evaluation, Result


@dataclass(frozen=True, repr=False, eq=False)
class PrevalenceShift(Result):
    """A ranking's PR curve and every area, with negatives reweighted to a target prevalence.

    ``negative_weight`` multiplies each negative's weight; ``evaluation.n_neg`` is the
    resulting total. ROC metrics are unchanged by construction.
    """

    prevalence: float
    observed_prevalence: float
    negative_weight: float
    evaluation: Evaluation
    curve: PRCurve


@options(prevalence=Interval(0, 1, closed="neither"))
def at_prevalence(y_true, y_score, prevalence, *, sample_weight=None, pos_label=None):
    """The PR curve and areas a ranking would have if positives made up ``prevalence``.

    Changing the base rate leaves every ROC point where it is and moves precision to
    ``pi' r / (pi' r + (1 - pi') fpr)``. Weighting each negative by
    ``P (1 - pi') / (pi' N)`` does exactly that, so every estimator of :func:`fastpr.auc_pr`
    comes out at the new prevalence from the same single pass. The typical use: negatives were
    down-sampled for testing, and the area that matters is the one at the deployment base rate.

    Parameters
    ----------
    y_true, y_score, sample_weight, pos_label
        As in :func:`fastpr.evaluate`; both classes must be present.
    prevalence : float
        The target fraction of positives, strictly between 0 and 1.

    Returns
    -------
    PrevalenceShift

    Examples
    --------
    >>> import fastpr
    >>> y, s = [1, 0, 1, 1, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.6, 0.1]
    >>> shifted = fastpr.at_prevalence(y, s, 0.01)
    >>> round(shifted.negative_weight, 1), round(shifted.evaluation.auc_pr, 4)
    (99.0, 0.3439)
    >>> round(shifted.evaluation.auc_roc, 4), round(fastpr.auc_roc(y, s), 4)
    (0.7222, 0.7222)
    """
    target = prevalence
    ranking = sort_ranking(y_true, y_score, sample_weight, pos_label)
    n_pos, n_neg = _total(ranking.pos, ranking.pos_weight), _total(ranking.neg, ranking.neg_weight)
    _validation.both_classes(n_pos, n_neg, "change the prevalence")
    factor = n_pos * (1.0 - target) / (target * n_neg)
    if not np.isfinite(factor * n_neg):
        raise InputValueError("{argument}={value!r} would make the negatives weigh more than "
                              "the largest double in all.", argument="prevalence", value=target)
    negative_weight = ranking.neg_weight * factor if ranking.neg_weight.size else np.full(
        ranking.neg.size, factor)
    shifted = SortedRanking(ranking.pos, ranking.pos_weight, ranking.neg, negative_weight)
    swept = sweep_ranking(shifted, with_points=True)
    evaluation = Evaluation.from_row(swept.row)
    # As evaluate warns: classes whose totals double precision cannot weigh against each other.
    warn_if_undefined_in(evaluation, "AUC-ROC", "AUC-PR", "normalised AUC-PR")
    return PrevalenceShift(
        prevalence=target,
        observed_prevalence=n_pos / (n_pos + n_neg),
        negative_weight=factor,
        evaluation=evaluation,
        curve=pr_curve_from_counts(*swept.points),
    )


def _total(scores, weights):
    return float(weights.sum()) if weights.size else float(scores.size)
