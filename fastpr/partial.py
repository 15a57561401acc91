"""Partial areas (docs/math/partial.rst): AUC-ROC over FPR in [0, f], raw and McClish-standardised,
and the interpolated AUC-PR over a recall range. ``fastpr.auc_roc(max_fpr=...)``,
``fastpr.auc_pr(recall_range=...)`` and ``fastpr.auc_npr(recall_range=...)`` read them here; the
standardisation (:func:`mcclish`) and the floor (``fastpr.unachievable.partial_auc_pr_floor``)
are NumPy formulas that work elementwise on arrays of areas (bootstrap replicates, say).
"""
import numpy as np

from ._engine.kernels.layout import NEG_WEIGHT, POS_WEIGHT
from ._engine.kernels.partial import partial_auc_pr, partial_auc_roc
from ._engine.kernels.summary import too_far_apart
from ._engine.ranking import sweep_ranking
from ._engine.tables import read_each
from ._rankings import per_ranking, rankings_of
from ._undefined import PLURALS, warn_if_undefined
from ._validation import Interval, Range
from .exceptions import InputValueError

# The partial areas' ranges, as the public functions declare them: a range of recall, and the
# end of a range of FPR that starts at 0.
RECALL_RANGE = Range(0.0, 1.0)
MAX_FPR = Interval(0, 1, closed="right")


def mcclish(area, max_fpr):
    """McClish's standardisation (1989) of a raw partial AUC-ROC over FPR in [0, max_fpr]:
    ``(1 + (area - m) / (M - m)) / 2`` with ``m = max_fpr**2 / 2`` (the diagonal's area) and
    ``M = max_fpr`` (a perfect ranking's), so that a random ranking scores 0.5 and a perfect one
    1; the formula of scikit-learn's ``roc_auc_score(max_fpr=...)``. Elementwise on arrays; at
    ``max_fpr = 1`` the area itself."""
    least, most = 0.5 * max_fpr**2, max_fpr
    return 0.5 * (1.0 + (area - least) / (most - least))


def roc_area(max_fpr):
    """The kernel of the raw area over FPR in [0, max_fpr], as :func:`partial_areas` calls it."""
    return lambda points, n_points, n_pos, n_neg: partial_auc_roc(points, n_points, n_pos,
                                                                  n_neg, max_fpr)


def pr_area(recall_range):
    """The kernel of the interpolated area over ``recall_range``, as :func:`partial_areas` calls
    it."""
    low, high = recall_range
    return lambda points, n_points, n_pos, n_neg: partial_auc_pr(points, n_points, n_pos, low,
                                                                 high)


def area_of_points(area, points, n_pos, n_neg):
    """``area`` (:func:`roc_area`, :func:`pr_area`) of a ranking's operating points (rows
    thresholds, tp, fp), NaN where the class totals lie too far apart for any area."""
    points = np.ascontiguousarray(points, dtype=np.float64)
    value = area(points, points.shape[1], n_pos, n_neg)
    return np.nan if too_far_apart(n_pos, n_neg) else value


def partial_areas(y_true, y_score, sample_weight, pos_label, groups, offsets, area):
    """(rankings, values, n_pos, n_neg): ``area`` of every ranking (arrays of one entry each;
    for one ranking too), each ranking swept once with its points stored."""
    rankings = rankings_of(y_true, y_score, sample_weight, pos_label, groups, offsets,
                           nan_in_sort=False)

    def read(ranking):
        swept = sweep_ranking(ranking, with_points=True)
        n_pos, n_neg = swept.row[POS_WEIGHT], swept.row[NEG_WEIGHT]
        return area_of_points(area, swept.points, n_pos, n_neg), n_pos, n_neg

    values, n_pos, n_neg = np.array(read_each(rankings, read), dtype=np.float64).reshape(-1, 3).T
    return rankings, values, n_pos, n_neg


def partial_metric(y_true, y_score, sample_weight, pos_label, groups, offsets, average, area,
                   metric, transform=None):
    """A partial area (``area``, then ``transform`` of the values) of one ranking or of many, as
    the area functions return theirs, warning once where ``metric`` ("AUC-ROC", "AUC-PR") is
    undefined."""
    rankings, values, n_pos, n_neg = partial_areas(y_true, y_score, sample_weight, pos_label,
                                                   groups, offsets, area)
    if transform is not None:
        values = transform(values)
    if rankings.index is None:
        warn_if_undefined(n_pos[0], n_neg[0], metric)
        return float(values[0])
    warn_if_undefined(n_pos, n_neg, metric, unit=PLURALS[rankings.index_name])
    return per_ranking(rankings, values, average)


def interpolated_only(method, recall_range):
    """Refuse a recall range for an estimator other than "interpolated"."""
    if recall_range is not None and method != "interpolated":
        raise InputValueError("recall_range={range!r} needs method='interpolated', the one "
                              "estimator with a curve between the operating points to integrate "
                              "over part of the recall axis; got {argument}={method!r}.",
                              argument="method", range=recall_range, method=method)


def whole(recall_range):
    """Whether a recall range is None or all of [0, 1] (the full area)."""
    return recall_range is None or tuple(recall_range) == (0.0, 1.0)
