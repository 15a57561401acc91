"""Operating points as curves: ROC, PR, the ROC convex hull and the achievable PR curve."""
from dataclasses import dataclass

import numpy as np

from . import _validation
from ._engine.kernels.rows import AUC_PR_HULL
from ._engine.ranking import sort_ranking, sweep_ranking
from .results import Result


@dataclass(frozen=True, repr=False)
class ROCCurve(Result):
    """Operating points in descending threshold order, origin first.

    ``thresholds[j]``: predict positive iff ``score >= thresholds[j]``; point 0 predicts nothing
    positive and carries ``+inf`` (scikit-learn's convention).
    """

    thresholds: np.ndarray
    tp: np.ndarray
    fp: np.ndarray
    fpr: np.ndarray
    tpr: np.ndarray
    n_pos: float
    n_neg: float


@dataclass(frozen=True, repr=False)
class PRCurve(Result):
    """Operating points in PR space, origin first (same points and thresholds as the ROC curve).

    At recall 0 precision is its limit from the right along the next segment (SPEC section 4):
    ``dTP / (dTP + dFP)`` of the first step for the origin, 0 for points with tp = 0 and fp > 0.
    """

    thresholds: np.ndarray
    tp: np.ndarray
    fp: np.ndarray
    recall: np.ndarray
    precision: np.ndarray
    n_pos: float
    n_neg: float


@dataclass(frozen=True, repr=False)
class ROCHull(Result):
    """Vertices of the ROC convex hull, origin to (N, P), with the thresholds that reach them."""

    thresholds: np.ndarray
    tp: np.ndarray
    fp: np.ndarray
    fpr: np.ndarray
    tpr: np.ndarray
    n_pos: float
    n_neg: float


@dataclass(frozen=True, repr=False)
class PRPoints(Result):
    """Points along correctly interpolated PR segments (fp linear in tp between the ends)."""

    tp: np.ndarray
    fp: np.ndarray
    recall: np.ndarray
    precision: np.ndarray


@dataclass(frozen=True, repr=False)
class AchievablePRCurve(Result):
    """The achievable PR curve: ROC-hull vertices in PR space joined by interpolated points.

    ``is_vertex`` marks hull vertices; ``thresholds`` is NaN between vertices, where the curve is
    reached by randomising between the two neighbouring thresholds. ``area`` is
    ``auc_pr(method="hull")``.
    """

    recall: np.ndarray
    precision: np.ndarray
    tp: np.ndarray
    fp: np.ndarray
    is_vertex: np.ndarray
    thresholds: np.ndarray
    area: float


def _ratio(numerator, denominator):
    if denominator == 0:
        return np.full(numerator.shape, np.nan)
    return numerator / denominator


def _precision_along(tp, fp, first_step_precision):
    """tp / (tp + fp), with the SPEC's limits at recall 0."""
    called = tp + fp
    precision = np.divide(tp, called, out=np.zeros_like(tp), where=called > 0)
    precision[called == 0] = first_step_precision
    return precision


def _first_step_precision(tp, fp):
    dtp, dfp = tp[1] - tp[0], fp[1] - fp[0]
    return dtp / (dtp + dfp)


def _each_row(curve, y_true, y_score, sample_weight, pos_label, **options):
    """``curve`` of every row of a 2-D y_score (labels and weights shared or per row): a list.

    Curves differ in length, so there is no array to fill: each row is one single call.
    """
    is_positive, scores, weights = _validation.check_batch_inputs(y_true, y_score,
                                                                  sample_weight, pos_label)

    def row_of(values, r):
        return values if values is None or values.ndim == 1 else values[r]

    return [curve(row_of(is_positive, r), scores[r], sample_weight=row_of(weights, r), **options)
            for r in range(scores.shape[0])]


def roc_curve_from_counts(thresholds, tp, fp):
    """The ROC curve of operating points given as counts, origin first and (P, N) last."""
    n_pos, n_neg = float(tp[-1]), float(fp[-1])
    return ROCCurve(thresholds, tp, fp, _ratio(fp, n_neg), _ratio(tp, n_pos), n_pos, n_neg)


def pr_curve_from_counts(thresholds, tp, fp):
    """The PR curve of operating points given as counts, origin first and (P, N) last."""
    n_pos, n_neg = float(tp[-1]), float(fp[-1])
    precision = _precision_along(tp, fp, _first_step_precision(tp, fp))
    return PRCurve(thresholds, tp, fp, _ratio(tp, n_pos), precision, n_pos, n_neg)


def _points(y_true, y_score, sample_weight, pos_label):
    ranking = sort_ranking(y_true, y_score, sample_weight, pos_label)
    return sweep_ranking(ranking, with_points=True).points


def roc_curve(y_true, y_score, *, sample_weight=None, pos_label=None):
    """ROC operating points, one per distinct score (SPEC sections 2 and 3).

    Parameters as in :func:`fastpr.evaluate`. Rates that a missing class leaves undefined are
    NaN, with ``UndefinedMetricWarning``. A 2-D ``y_score`` (one ranking per row) gives a list
    of curves, one per row, each equal to the single call (this holds for every curve function).

    Examples
    --------
    >>> import fastpr
    >>> c = fastpr.roc_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> c.fpr, c.tpr
    (array([0. , 0. , 0.5, 0.5, 1. ]), array([0. , 0.5, 0.5, 1. , 1. ]))
    >>> rows = fastpr.roc_curve([0, 0, 1, 1], [[0.1, 0.4, 0.35, 0.8], [4, 3, 2, 1]])
    >>> len(rows), rows[1].tpr
    (2, array([0. , 0. , 0. , 0.5, 1. ]))
    """
    y_score = _validation.as_array("y_score", y_score)
    if y_score.ndim == 2:
        return _each_row(roc_curve, y_true, y_score, sample_weight, pos_label)
    curve = roc_curve_from_counts(*_points(y_true, y_score, sample_weight, pos_label))
    _validation.warn_if_undefined(curve.n_pos, curve.n_neg, roc=True)
    return curve


def pr_curve(y_true, y_score, *, sample_weight=None, pos_label=None):
    """PR operating points, one per distinct score, origin first (SPEC sections 2 and 4).

    Straight lines between these points are not the PR curve: use :func:`interpolate_pr` or
    :func:`achievable_pr_curve` to draw it.

    Examples
    --------
    >>> import fastpr
    >>> c = fastpr.pr_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> c.recall, c.precision
    (array([0. , 0.5, 0.5, 1. , 1. ]), array([1.        , 1.        , 0.5       , 0.66666667, 0.5       ]))
    """
    y_score = _validation.as_array("y_score", y_score)
    if y_score.ndim == 2:
        return _each_row(pr_curve, y_true, y_score, sample_weight, pos_label)
    curve = pr_curve_silently(y_true, y_score, sample_weight, pos_label)
    _validation.warn_if_undefined(curve.n_pos, curve.n_neg, pr=True)
    return curve


def pr_curve_silently(y_true, y_score, sample_weight=None, pos_label=None):
    """:func:`pr_curve` without its warning, for callers that warn about their own metric."""
    return pr_curve_from_counts(*_points(y_true, y_score, sample_weight, pos_label))


def _hull(y_true, y_score, sample_weight, pos_label):
    sweep = sweep_ranking(sort_ranking(y_true, y_score, sample_weight, pos_label))
    fp, tp, thresholds = sweep.hull.T.copy()
    n_pos, n_neg = tp[-1], fp[-1]
    return sweep, ROCHull(thresholds, tp, fp, _ratio(fp, n_neg), _ratio(tp, n_pos), n_pos, n_neg)


def roc_convex_hull(y_true, y_score, *, sample_weight=None, pos_label=None):
    """Vertices of the ROC convex hull (upper-left hull of all points, origin and (N, P)).

    Collinear points are dropped. Built by Andrew's monotone chain during the same pass that
    finds the operating points, O(k) for k thresholds.

    Examples
    --------
    >>> import fastpr
    >>> h = fastpr.roc_convex_hull([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> h.fpr, h.tpr, h.thresholds
    (array([0. , 0. , 0.5, 1. ]), array([0. , 0.5, 1. , 1. ]), array([ inf, 0.8 , 0.35, 0.1 ]))
    """
    y_score = _validation.as_array("y_score", y_score)
    if y_score.ndim == 2:
        return _each_row(roc_convex_hull, y_true, y_score, sample_weight, pos_label)
    hull = _hull(y_true, y_score, sample_weight, pos_label)[1]
    _validation.warn_if_undefined(hull.n_pos, hull.n_neg, roc=True)
    return hull


def _interpolated_points(tp_a, fp_a, tp_b, fp_b, n_steps):
    """Points splitting each segment A->B into ``n_steps`` equal tp steps, plus the last B."""
    segment = np.repeat(np.arange(tp_a.size), n_steps)
    first = np.cumsum(n_steps) - n_steps
    fraction = (np.arange(segment.size) - first[segment]) / n_steps[segment]
    tp = np.append(tp_a[segment] + fraction * (tp_b - tp_a)[segment], tp_b[-1])
    fp = np.append(fp_a[segment] + fraction * (fp_b - fp_a)[segment], fp_b[-1])
    return tp, fp, np.append(fraction == 0, True)


def achievable_pr_curve(y_true, y_score, *, sample_weight=None, pos_label=None,
                        max_recall_step=0.01):
    """The achievable PR curve: the ROC convex hull mapped to PR space, correctly interpolated.

    Between hull vertices A and B the curve is the image of the ROC segment (achievable by
    randomising between their thresholds), a hyperbola in PR space. It is sampled so that
    neighbouring points are at most ``max_recall_step`` apart in recall.

    Examples
    --------
    >>> import fastpr
    >>> c = fastpr.achievable_pr_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], max_recall_step=0.25)
    >>> c.recall, c.precision.round(3), c.is_vertex
    (array([0.  , 0.25, 0.5 , 0.75, 1.  , 1.  ]), array([1.   , 1.   , 1.   , 0.75 , 0.667, 0.5  ]), array([ True, False,  True, False,  True,  True]))
    """
    _validation.recall_step(max_recall_step)
    y_score = _validation.as_array("y_score", y_score)
    if y_score.ndim == 2:
        return _each_row(achievable_pr_curve, y_true, y_score, sample_weight, pos_label,
                         max_recall_step=max_recall_step)
    sweep, hull = _hull(y_true, y_score, sample_weight, pos_label)
    _validation.warn_if_undefined(hull.n_pos, hull.n_neg, pr=True)
    n_pos, tp, fp, is_vertex = _sampled_segments(hull.tp, hull.fp, hull.n_pos, max_recall_step)
    thresholds = np.full(tp.shape, np.nan)
    thresholds[is_vertex] = hull.thresholds
    precision = _precision_along(tp, fp, _first_step_precision(hull.tp, hull.fp))
    return AchievablePRCurve(tp / n_pos, precision, tp, fp, is_vertex, thresholds,
                             float(sweep.row[AUC_PR_HULL]))


def _sampled_segments(tp, fp, n_pos, max_recall_step):
    """Interpolated points between neighbouring (tp, fp), at most ``max_recall_step`` apart in
    recall; returns (n_pos or NaN when there are no positives, tp, fp, is_vertex)."""
    n_pos = n_pos if n_pos > 0 else np.nan
    step_recall = np.diff(tp) / n_pos
    n_steps = np.maximum(1, np.ceil(np.nan_to_num(step_recall) / max_recall_step)).astype(np.int64)
    return n_pos, *_interpolated_points(tp[:-1], fp[:-1], tp[1:], fp[1:], n_steps)


def interpolated_pr_curve(y_true, y_score, *, sample_weight=None, pos_label=None,
                          max_recall_step=0.01):
    """The PR curve as it should be drawn: every operating point joined by interpolated points.

    Between neighbouring operating points false positives grow linearly with true positives
    (Davis & Goadrich 2006), so precision follows a hyperbola, not a straight line. The curve is
    sampled so that neighbouring points are at most ``max_recall_step`` apart in recall; its
    area is ``auc_pr(method="interpolated")``.

    Parameters
    ----------
    y_true, y_score, sample_weight, pos_label
        As in :func:`fastpr.evaluate`.
    max_recall_step : float, default=0.01
        In (0, 1].

    Returns
    -------
    PRPoints
        ``tp``, ``fp``, ``recall`` and ``precision``, origin first; the operating points of
        :func:`pr_curve` are among them. For a 2-D ``y_score``, a list of one per row.

    Examples
    --------
    >>> import fastpr
    >>> c = fastpr.interpolated_pr_curve([0, 1, 0, 1], [0.9, 0.8, 0.3, 0.2], max_recall_step=0.25)
    >>> c.recall, c.precision.round(3)
    (array([0.  , 0.  , 0.25, 0.5 , 0.5 , 0.75, 1.  ]), array([0.   , 0.   , 0.333, 0.5  , 0.333, 0.429, 0.5  ]))
    """
    _validation.recall_step(max_recall_step)
    y_score = _validation.as_array("y_score", y_score)
    if y_score.ndim == 2:
        return _each_row(interpolated_pr_curve, y_true, y_score, sample_weight, pos_label,
                         max_recall_step=max_recall_step)
    _, tp, fp = _points(y_true, y_score, sample_weight, pos_label)
    _validation.warn_if_undefined(tp[-1], fp[-1], pr=True)
    n_pos, tp_s, fp_s, _ = _sampled_segments(tp, fp, tp[-1], max_recall_step)
    precision = _precision_along(tp_s, fp_s, _first_step_precision(tp, fp))
    return PRPoints(tp_s, fp_s, tp_s / n_pos, precision)


def interpolate_pr(tp_a, fp_a, tp_b, fp_b, n_pos, *, step=1.0):
    """Intermediate PR points between operating points A and B (Davis & Goadrich 2006, Table 1).

    False positives grow linearly with true positives between A and B, at the local skew
    ``s = (fp_b - fp_a) / (tp_b - tp_a)``; the points sit at ``tp_a, tp_a + step, ..., tp_b``
    (the last step may be shorter).

    Examples
    --------
    >>> import fastpr
    >>> t = fastpr.interpolate_pr(5, 5, 10, 30, 20)
    >>> t.fp, t.recall, t.precision.round(3)
    (array([ 5., 10., 15., 20., 25., 30.]), array([0.25, 0.3 , 0.35, 0.4 , 0.45, 0.5 ]), array([0.5  , 0.375, 0.318, 0.286, 0.265, 0.25 ]))
    """
    tp_a, fp_a, tp_b, fp_b, n_pos, step = _validation.segment(tp_a, fp_a, tp_b, fp_b, n_pos, step)
    n_steps = max(1, int(np.ceil((tp_b - tp_a) / step)))
    tp = np.minimum(tp_a + step * np.arange(n_steps + 1), tp_b)
    if tp_b > tp_a:
        fp = fp_a + (fp_b - fp_a) * (tp - tp_a) / (tp_b - tp_a)
    else:  # a vertical drop: just its two ends
        fp = np.array([fp_a, fp_b])
    first_step = (tp_b - tp_a) / ((tp_b - tp_a) + (fp_b - fp_a))
    return PRPoints(tp, fp, tp / n_pos, _precision_along(tp, fp, first_step))
