"""Precision-recall-gain curves and their area (Flach & Kull, NeurIPS 2015).

Gains rescale precision and recall harmonically so that the always-positive classifier sits at 0
and a perfect one at 1: ``gain(x) = (x - pi) / ((1 - pi) x)`` with ``pi`` the prevalence. In
counts, precision gain is ``1 - (P / N) FP / TP`` and recall gain ``1 - (P / N) FN / TP``.
Along a correctly interpolated PR segment (``fp = a + s tp``) both are linear in ``1 / tp``, so
each segment is a straight line in PRG space and trapezoids give its area exactly.
"""
import math
from dataclasses import dataclass

import numpy as np

from .results import Result


@dataclass(frozen=True, repr=False, eq=False)
class PRGCurve(Result):
    """Operating points in precision-recall-gain space, origin first, with crossing points.

    ``is_crossing`` marks points added where the curve crosses recall gain 0 and, to the right of
    it, precision gain 0; their counts ``tp``, ``fp`` are fractional and their ``thresholds`` NaN
    (they are reached by randomising between neighbouring thresholds). Points with no true
    positive have recall gain ``-inf``. ``area`` is :func:`auc_prg`.
    """

    recall_gain: np.ndarray
    precision_gain: np.ndarray
    thresholds: np.ndarray
    tp: np.ndarray
    fp: np.ndarray
    is_crossing: np.ndarray
    n_pos: float
    n_neg: float
    area: float


def _gains(tp, fp, precision, n_pos, n_neg):
    """(recall gain, precision gain) from counts; at tp = 0 the precision limit of pr_curve.

    ``1 - (P FP) / (N TP)`` rather than ``1 - (P / N) (FP / TP)``: at the last point both
    products are ``P N`` and precision gain comes out exactly 0.
    """
    some = tp > 0
    scaled_tp = n_neg * tp
    fp_ratio = np.empty_like(tp)
    np.divide(n_pos * fp, scaled_tp, out=fp_ratio, where=some)
    with np.errstate(divide="ignore"):  # precision 0 at recall 0: gain -inf
        fp_ratio[~some] = (n_pos / n_neg) * (1.0 - precision[~some]) / precision[~some]
    fn_ratio = np.full_like(tp, np.inf)
    np.divide(n_pos * (n_pos - tp), scaled_tp, out=fn_ratio, where=some)
    return 1.0 - fn_ratio, 1.0 - fp_ratio


def _recall_gain_crossing(tp, fp, recall_gain, n_pos, n_neg):
    """Index of the first point with recall gain >= 0, and (tp, fp) where the curve reaches 0.

    Recall gain is 0 at recall = prevalence, ``tp = P^2 / (P + N)``; the crossing is interpolated
    on its segment (fp linear in tp). None when a point sits exactly on the axis.
    """
    first = int(np.argmax(recall_gain >= 0))
    if recall_gain[first] == 0:
        return first, None
    tp_zero = n_pos * n_pos / (n_pos + n_neg)
    tp_a, tp_b, fp_a, fp_b = tp[first - 1], tp[first], fp[first - 1], fp[first]
    return first, (tp_zero, fp_a + (tp_zero - tp_a) * (fp_b - fp_a) / (tp_b - tp_a))


def _precision_gain_crossings(tp, fp, precision_gain, n_pos, n_neg):
    """(after, tp, fp) of the points where each segment crosses precision gain 0.

    Precision gain is 0 where ``fp = r tp`` with ``r = N / P``. On a segment with ``dtp > 0``
    the line ``fp = fp_a + s (tp - tp_a)`` meets it at ``tp = tp_a + (r tp_a - fp_a) / (s - r)``
    (an offset from A, so no cancellation); on a vertical drop at ``fp = r tp_a``. The sign
    change makes ``s != r``. ``after`` is the index of each segment's start.
    """
    after = np.flatnonzero(precision_gain[:-1] * precision_gain[1:] < 0)
    tp_a, fp_a = tp[after], fp[after]
    dtp, dfp = tp[after + 1] - tp_a, fp[after + 1] - fp_a
    neg_per_pos = n_neg / n_pos
    sloped = dtp > 0
    slope = np.divide(dfp, dtp, out=np.zeros_like(dfp), where=sloped)
    offset = np.divide(neg_per_pos * tp_a - fp_a, slope - neg_per_pos, out=np.zeros_like(dfp),
                       where=sloped)
    tp_cross = tp_a + offset
    return after, tp_cross, tp_cross * neg_per_pos


def _trapezoid_area(recall_gain, precision_gain):
    return float(np.sum(np.diff(recall_gain) * (precision_gain[1:] + precision_gain[:-1]) / 2))


def _undefined_curve(curve):
    nan = np.full(curve.tp.shape, np.nan)
    return PRGCurve(nan, nan.copy(), curve.thresholds, curve.tp, curve.fp,
                    np.zeros(curve.tp.shape, dtype=bool), curve.n_pos, curve.n_neg, np.nan)


def _inserted(columns, where, values):
    """Every column with its value inserted before index (or indices) ``where``."""
    return tuple(np.insert(column, where, value) for column, value in zip(columns, values))


def prg_curve_of(curve):
    """The :class:`PRGCurve` of a :class:`fastpr.PRCurve`."""
    if curve.n_pos == 0 or curve.n_neg == 0:
        return _undefined_curve(curve)
    # Gains are ratios of products of two counts, which overflow or underflow with weights near
    # 1e+-300; counts scaled by a power of two (exactly) to at most 1 give the same gains bit for
    # bit wherever the products were finite and normal, and the right ones elsewhere.
    scale = math.ldexp(1.0, -math.frexp(max(curve.n_pos, curve.n_neg))[1])
    n_pos, n_neg = curve.n_pos * scale, curve.n_neg * scale
    tp, fp = curve.tp * scale, curve.fp * scale
    recall_gain, precision_gain = _gains(tp, fp, curve.precision, n_pos, n_neg)
    columns = (curve.thresholds, tp, fp, recall_gain, precision_gain,
               np.zeros(tp.shape, dtype=bool))
    start, crossing = _recall_gain_crossing(tp, fp, recall_gain, n_pos, n_neg)
    if crossing is not None:
        tp_zero, fp_zero = crossing
        precision_gain_zero = 1.0 - (n_pos * fp_zero) / (n_neg * tp_zero)
        columns = _inserted(columns, start,
                            (np.nan, tp_zero, fp_zero, 0.0, precision_gain_zero, True))
    # From the recall-gain crossing on, split segments where precision gain changes sign.
    _, tp, fp, _, precision_gain, _ = columns
    after, tp_cross, fp_cross = _precision_gain_crossings(
        tp[start:], fp[start:], precision_gain[start:], n_pos, n_neg
    )
    recall_gain_cross = 1.0 - (n_pos * (n_pos - tp_cross)) / (n_neg * tp_cross)
    columns = _inserted(columns, start + after + 1,
                        (np.nan, tp_cross, fp_cross, recall_gain_cross, 0.0, True))
    thresholds, tp, fp, recall_gain, precision_gain, is_crossing = columns
    area = _trapezoid_area(recall_gain[start:], precision_gain[start:])
    return PRGCurve(recall_gain, precision_gain, thresholds, tp / scale, fp / scale, is_crossing,
                    curve.n_pos, curve.n_neg, area)
