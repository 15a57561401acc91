"""The honest hull protocol (docs/math/hull.rst): choose hull thresholds on tuning data, apply
them to test data.

The ROC convex hull of a test set is a classifier fitted to that test set: it picks the
thresholds that happen to work best there, so its area is optimistic. The honest protocol picks
the hull's thresholds on tuning data and reports the test-set curve through exactly those
thresholds.
"""
from dataclasses import dataclass

import numpy as np

from . import _validation
from ._engine.ranking import SortedRanking, sweep_ranking
from ._rankings import sort_ranking
from ._undefined import warn_if_undefined_in
from .results import Evaluation, Result
from .swept import roc_convex_hull


@dataclass(frozen=True, repr=False, eq=False)
class ThresholdEvaluation(Result):
    """Test-set operating points at given thresholds, origin first, and their areas.

    ``thresholds[j]``: positive iff ``score >= thresholds[j]``, the highest threshold that
    reaches the point. The origin carries ``+inf`` and the point that calls everything positive
    ``-inf`` (when some test score lies below every threshold). ``evaluation`` holds every AUC of
    this curve.
    """

    thresholds: np.ndarray
    tp: np.ndarray
    fp: np.ndarray
    evaluation: Evaluation


def hull_thresholds(y_tune, s_tune, *, sample_weight=None, pos_label=None):
    """Thresholds of the ROC-convex-hull vertices of a tuning set, highest first.

    The origin (nothing positive) needs no threshold: every curve starts there. Pass the
    result to :func:`evaluate_at_thresholds` with test data.

    Examples
    --------
    >>> import fastpr
    >>> fastpr.hull_thresholds([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    array([0.8 , 0.35, 0.1 ])
    """
    return roc_convex_hull(y_tune, s_tune, sample_weight=sample_weight,
                           pos_label=pos_label).thresholds[1:]


def evaluate_at_thresholds(y_true, y_score, thresholds, *, sample_weight=None, pos_label=None):
    """The curve of a test set through exactly the given thresholds, with every area.

    Each test score is replaced by the number of thresholds at or below it; that is a monotone
    map, so the operating points of the mapped scores are exactly those of the thresholds
    (thresholds that select the same test examples give one point). Areas come from the same
    one-pass sweep as :func:`fastpr.evaluate`.

    Parameters
    ----------
    y_true, y_score, sample_weight, pos_label
        The test set, as in :func:`fastpr.evaluate`.
    thresholds : array-like
        Score thresholds, any order, no NaN; typically :func:`hull_thresholds` of tuning data.

    Returns
    -------
    ThresholdEvaluation
        With an ``UndefinedMetricWarning`` where an area is undefined (a class missing from
        the test set), as :func:`fastpr.evaluate` warns.

    Examples
    --------
    >>> import fastpr
    >>> t = fastpr.hull_thresholds([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> r = fastpr.evaluate_at_thresholds([1, 0, 1, 0], [0.9, 0.5, 0.3, 0.2], t)
    >>> r.thresholds, r.tp, r.fp
    (array([ inf, 0.8 , 0.35, 0.1 ]), array([0., 1., 1., 2.]), array([0., 0., 1., 2.]))
    """
    cuts = np.unique(_validation.scores(thresholds, name="thresholds"))
    ranking = sort_ranking(y_true, y_score, sample_weight, pos_label)
    binned = SortedRanking(_bin(ranking.pos, cuts), ranking.pos_weight,
                           _bin(ranking.neg, cuts), ranking.neg_weight)
    swept = sweep_ranking(binned, with_points=True)
    bins, tp, fp = swept.points
    # Bin k >= 1 is reached by threshold cuts[k - 1]; bin 0 holds scores below every threshold.
    point_thresholds = np.empty_like(bins)
    point_thresholds[0] = np.inf
    point_thresholds[1:] = np.append(-np.inf, cuts)[bins[1:].astype(np.intp)]
    evaluation = Evaluation.from_row(swept.row)
    warn_if_undefined_in(evaluation, "AUC-ROC", "AUC-PR", "normalised AUC-PR")  # as evaluate
    return ThresholdEvaluation(point_thresholds, tp, fp, evaluation)


def _bin(sorted_scores, cuts):
    """Number of cuts at or below each score; sorted input stays sorted."""
    return np.searchsorted(cuts, sorted_scores, side="right").astype(np.float64)
