"""Curves as results: ROC, PR, the ROC convex hull and the achievable PR curve, built from counts.

Every curve type lists its fields in one order: the two coordinates it is drawn in (x first),
then the thresholds and the counts (tp, fp) behind each point, then per-point flags, then
scalars (class totals, area). :func:`fastpr.sweep` and the curve functions of one ranking read
these from one sorted, swept ranking; the builders here take its counts.
"""
import math
from dataclasses import dataclass

import numpy as np

from ._validation import Interval, options
from .exceptions import InputValueError
from .results import Result

# The constraint on ``max_recall_step``, for every function that samples a curve along recall.
RECALL_STEP = Interval(0, 1, closed="right")
_MOST_POINTS = 2.0**48
_COUNT = Interval(0, None, closed="left")


@dataclass(frozen=True, repr=False, eq=False)
class ROCCurve(Result):
    """Points in ROC space in descending threshold order, origin first: the operating points of
    :func:`fastpr.roc_points`, or the vertices of :func:`fastpr.roc_convex_hull`.

    ``thresholds[j]``: predict positive iff ``score >= thresholds[j]``; point 0 predicts nothing
    positive and carries ``+inf`` (scikit-learn's convention).
    """

    fpr: np.ndarray
    tpr: np.ndarray
    thresholds: np.ndarray
    tp: np.ndarray
    fp: np.ndarray
    n_pos: float
    n_neg: float


@dataclass(frozen=True, repr=False, eq=False)
class PRCurve(Result):
    """Operating points in PR space, origin first (same points and thresholds as the ROC curve).

    At recall 0 precision is its limit from the right along the next segment:
    ``dTP / (dTP + dFP)`` of the first step for the origin, 0 for points with tp = 0 and fp > 0.
    """

    recall: np.ndarray
    precision: np.ndarray
    thresholds: np.ndarray
    tp: np.ndarray
    fp: np.ndarray
    n_pos: float
    n_neg: float


@dataclass(frozen=True, repr=False, eq=False)
class PRPoints(Result):
    """Points along correctly interpolated PR segments (fp linear in tp between the ends)."""

    recall: np.ndarray
    precision: np.ndarray
    tp: np.ndarray
    fp: np.ndarray


@dataclass(frozen=True, repr=False, eq=False)
class AchievablePRCurve(Result):
    """The achievable PR curve: ROC-hull vertices in PR space joined by interpolated points.

    ``is_vertex`` marks hull vertices; ``thresholds`` is NaN between vertices, where the curve is
    reached by randomising between the two neighbouring thresholds. ``area`` is
    ``auc_pr(method="hull")``.
    """

    recall: np.ndarray
    precision: np.ndarray
    thresholds: np.ndarray
    tp: np.ndarray
    fp: np.ndarray
    is_vertex: np.ndarray
    area: float


def _ratio(numerator, denominator):
    if denominator == 0:
        return np.full(numerator.shape, np.nan)
    return numerator / denominator


def precision_along(tp, fp, through_tp, through_fp):
    """Precision ``tp / (tp + fp)`` of points on the curve through the points ``through_*``.

    Where nothing is called positive (the origin) it is the limit from the right along the
    curve's first segment, ``dTP / (dTP + dFP)``: the one rule for every PR curve at recall 0
    (NaN for a curve of one point). Points with tp = 0 and fp > 0 have precision 0.
    """
    called = tp + fp
    precision = np.divide(tp, called, out=np.zeros_like(tp), where=called > 0)
    precision[called == 0] = _first_segment_precision(through_tp, through_fp)
    return precision


def _first_segment_precision(tp, fp):
    if len(tp) < 2:
        return math.nan
    dtp, dfp = tp[1] - tp[0], fp[1] - fp[0]
    return dtp / (dtp + dfp) if dtp + dfp > 0 else math.nan


def roc_curve_from_counts(thresholds, tp, fp):
    """The ROC curve of points given as counts, origin first and (P, N) last."""
    n_pos, n_neg = float(tp[-1]), float(fp[-1])
    return ROCCurve(_ratio(fp, n_neg), _ratio(tp, n_pos), thresholds, tp, fp, n_pos, n_neg)


def pr_curve_from_counts(thresholds, tp, fp):
    """The PR curve of operating points given as counts, origin first and (P, N) last."""
    n_pos, n_neg = float(tp[-1]), float(fp[-1])
    return PRCurve(_ratio(tp, n_pos), precision_along(tp, fp, tp, fp), thresholds, tp, fp,
                   n_pos, n_neg)


def _interpolated_points(tp, fp, n_steps):
    """Points splitting segment k of the polyline (tp, fp) into ``n_steps[k]`` equal tp steps,
    plus the last point; and whether each is one of the given points."""
    tp_a, fp_a = tp[:-1], fp[:-1]
    segment = np.repeat(np.arange(tp_a.size), n_steps)
    first = np.cumsum(n_steps) - n_steps
    fraction = (np.arange(segment.size) - first[segment]) / n_steps[segment]
    tp_s = np.append(tp_a[segment] + fraction * np.diff(tp)[segment], tp[-1])
    fp_s = np.append(fp_a[segment] + fraction * np.diff(fp)[segment], fp[-1])
    return tp_s, fp_s, np.append(fraction == 0, True)


def _sampled(tp, fp, max_recall_step):
    """Interpolated points along the polyline (tp, fp), at most ``max_recall_step`` apart in
    recall; returns (recall, tp, fp, is_given_point)."""
    n_pos = tp[-1] if tp[-1] > 0 else np.nan
    step_recall = np.diff(tp) / n_pos
    n_steps = np.maximum(1, np.ceil(np.nan_to_num(step_recall) / max_recall_step))
    if n_steps.sum() > _MOST_POINTS:  # (no machine holds them; int64 counts would wrap first)
        raise InputValueError("{argument}={value!r} would draw {count:.3g} points.",
                              argument="max_recall_step", value=max_recall_step,
                              count=n_steps.sum())
    n_steps = n_steps.astype(np.int64)
    tp_s, fp_s, is_given = _interpolated_points(tp, fp, n_steps)
    return tp_s / n_pos, tp_s, fp_s, is_given


def interpolated_from_counts(tp, fp, max_recall_step):
    """:class:`PRPoints` along the correctly interpolated curve through operating points."""
    recall, tp_s, fp_s, _ = _sampled(tp, fp, max_recall_step)
    return PRPoints(recall, precision_along(tp_s, fp_s, tp, fp), tp_s, fp_s)


def achievable_from_hull(hull, area, max_recall_step):
    """The :class:`AchievablePRCurve` through the vertices of a ROC hull (a :class:`ROCCurve`)
    whose interpolated area is ``area``."""
    recall, tp, fp, is_vertex = _sampled(hull.tp, hull.fp, max_recall_step)
    thresholds = np.full(tp.shape, np.nan)
    thresholds[is_vertex] = hull.thresholds
    return AchievablePRCurve(recall, precision_along(tp, fp, hull.tp, hull.fp), thresholds, tp,
                             fp, is_vertex, float(area))


@options(tp_a=_COUNT, fp_a=_COUNT, tp_b=_COUNT, fp_b=_COUNT, n_pos=_COUNT,
         step=Interval(0, None, closed="neither"))
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
    _check_segment(tp_a, fp_a, tp_b, fp_b, n_pos)
    n_steps = max(1, int(np.ceil((tp_b - tp_a) / step)))
    tp = np.minimum(tp_a + step * np.arange(n_steps + 1), tp_b)
    if tp_b > tp_a:
        fp = fp_a + (fp_b - fp_a) * (tp - tp_a) / (tp_b - tp_a)
    else:  # a vertical drop: just its two ends
        fp = np.array([fp_a, fp_b])
    precision = precision_along(tp, fp, (tp_a, tp_b), (fp_a, fp_b))
    return PRPoints(tp / n_pos, precision, tp, fp)


def _check_segment(tp_a, fp_a, tp_b, fp_b, n_pos):
    """Two operating points A -> B in count space, B not before A, within the positives."""
    if tp_b < tp_a or fp_b < fp_a:
        raise InputValueError(
            "B must not precede A: got A = (tp {tp_a:g}, fp {fp_a:g}) and B = (tp {tp_b:g}, fp "
            "{fp_b:g}).", argument="tp_b" if tp_b < tp_a else "fp_b", tp_a=tp_a, fp_a=fp_a,
            tp_b=tp_b, fp_b=fp_b)
    if tp_b == tp_a and fp_b == fp_a:
        raise InputValueError("A and B are the same point (tp {tp_a:g}, fp {fp_a:g}).",
                              argument="tp_b", tp_a=tp_a, fp_a=fp_a)
    if n_pos < tp_b or n_pos == 0:
        raise InputValueError("{argument} must be > 0 and at least tp_b = {tp_b:g}, got "
                              "{value:g}.", argument="n_pos", tp_b=tp_b, value=n_pos)
