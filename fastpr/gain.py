"""Precision-recall-gain curves and their area (Flach & Kull, NeurIPS 2015).

Gains rescale precision and recall harmonically so that the always-positive classifier sits at 0
and a perfect one at 1: ``gain(x) = (x - pi) / ((1 - pi) x)`` with ``pi`` the prevalence. In
counts, precision gain is ``1 - (P / N) FP / TP`` and recall gain ``1 - (P / N) FN / TP``.
Along a correctly interpolated PR segment (``fp = a + s tp``) both are linear in ``1 / tp``, so
each segment is a straight line in PRG space and trapezoids give its area exactly.
"""
from dataclasses import dataclass

import numpy as np

from ._undefined import warn_if_undefined
from .curves import pr_curve_silently
from .results import Result


@dataclass(frozen=True, repr=False)
class PRGCurve(Result):
    """Operating points in precision-recall-gain space, origin first, with crossing points.

    ``is_crossing`` marks points added where the curve crosses recall gain 0 and, to the right of
    it, precision gain 0; their counts ``tp``, ``fp`` are fractional and their ``thresholds`` NaN
    (they are reached by randomising between neighbouring thresholds). Points with no true
    positive have recall gain ``-inf``. ``area`` is :func:`auc_prg`.
    """

    thresholds: np.ndarray
    tp: np.ndarray
    fp: np.ndarray
    recall_gain: np.ndarray
    precision_gain: np.ndarray
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
    return PRGCurve(curve.thresholds, curve.tp, curve.fp, nan, nan.copy(),
                    np.zeros(curve.tp.shape, dtype=bool), curve.n_pos, curve.n_neg, np.nan)


def _inserted(columns, where, values):
    """Every column with its value inserted before index (or indices) ``where``."""
    return tuple(np.insert(column, where, value) for column, value in zip(columns, values))


def _prg_curve(y_true, y_score, sample_weight, pos_label):
    curve = pr_curve_silently(y_true, y_score, sample_weight, pos_label)
    n_pos, n_neg = curve.n_pos, curve.n_neg
    if n_pos == 0 or n_neg == 0:
        return _undefined_curve(curve)
    tp, fp = curve.tp, curve.fp
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
    return PRGCurve(thresholds, tp, fp, recall_gain, precision_gain, is_crossing, n_pos, n_neg,
                    area)


def prg_curve(y_true, y_score, *, sample_weight=None, pos_label=None):
    """The precision-recall-gain curve: every operating point in gain space, plus crossings.

    Parameters
    ----------
    y_true, y_score, sample_weight, pos_label
        As in :func:`fastpr.evaluate`.

    Returns
    -------
    PRGCurve
        Points in descending threshold order (the order of :func:`fastpr.pr_curve`), with
        ``recall_gain``, ``precision_gain``, ``tp``, ``fp``, ``thresholds``, ``is_crossing`` and
        the ``area`` of :func:`auc_prg`.

    Notes
    -----
    As in the authors' software, a point is added where the curve crosses recall gain 0 (at
    recall = prevalence) and where, to the right of that, it crosses precision gain 0; both are
    placed exactly on their segment of the correctly interpolated curve (fp linear in tp), which
    in gain space is a straight line. Only the part with recall gain >= 0 is drawn in the
    authors' plots; points to its left are kept (recall gain down to ``-inf`` at tp = 0). At
    tp = 0 precision gain follows :func:`fastpr.pr_curve`'s precision limit (the authors leave the
    origin's NaN). Gains are undefined without positives or without negatives: NaN, with
    ``UndefinedMetricWarning``. Cost: that of :func:`fastpr.pr_curve` plus O(k) NumPy work.

    Examples
    --------
    >>> import fastpr
    >>> c = fastpr.prg_curve([1, 1, 0, 0, 1, 0], [0.8, 0.8, 0.6, 0.4, 0.4, 0.2])
    >>> c.recall_gain, c.precision_gain, c.is_crossing
    (array([-inf, 0. , 0.5, 0.5, 1. , 1. ]), array([1. , 1. , 1. , 0.5 , 0.33333333, 0. ]), array([False,  True, False, False, False, False]))
    """
    curve = _prg_curve(y_true, y_score, sample_weight, pos_label)
    warn_if_undefined(curve.n_pos, curve.n_neg, "Precision-recall gain")
    return curve


def auc_prg(y_true, y_score, *, sample_weight=None, pos_label=None):
    """Area under the precision-recall-gain curve (AUPRG), as Flach & Kull define it.

    Parameters
    ----------
    y_true, y_score, sample_weight, pos_label
        As in :func:`fastpr.evaluate`.

    Returns
    -------
    float
        At most 1 (a perfect ranking); 0 for a ranking no better than calling everything
        positive; negative where precision gain is mostly below 0. NaN, with
        ``UndefinedMetricWarning``, without positives or without negatives.

    Notes
    -----
    The definition of the authors' R package ``prg`` (``calc_auprg``) and Python package
    ``pyprg``: the area over recall gain from 0 to 1 only, the curve entering at its crossing of
    recall gain 0; regions where precision gain is negative count as negative area. Between
    operating points the curve is a straight line in gain space (the image of the correctly
    interpolated PR segment), so the trapezoid rule is exact there. The paper relates the area
    to the expected F1 score on a harmonic scale.

    Examples
    --------
    >>> import fastpr
    >>> round(fastpr.auc_prg([1, 1, 0, 0, 1, 0], [0.8, 0.8, 0.6, 0.4, 0.4, 0.2]), 6)   # 17 / 24
    0.708333
    """
    curve = _prg_curve(y_true, y_score, sample_weight, pos_label)
    warn_if_undefined(curve.n_pos, curve.n_neg, "AUPRG")
    return curve.area
