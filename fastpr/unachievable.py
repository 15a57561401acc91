"""The unachievable region of PR space and normalised AUC-PR (Boyd et al. 2012).

At prevalence pi no ranking can have precision below ``pi r / (1 - pi + pi r)`` at recall r: that
is the precision of the worst ranking, every negative above every positive. So a PR area is never
0, and its floor grows with pi. Comparing areas across data sets of different skew therefore needs
the floor subtracted: the normalised area ``AUCNPR = (AUCPR - AUCPR_min) / (1 - AUCPR_min)``
(docs/math/unachievable.rst).
"""
import math

import numpy as np

from . import _validation
from ._engine.kernels.area import worst_ranking_interpolated_area
from ._engine.kernels.normalised import normalised_areas
from ._engine.kernels.partial import worst_ranking_partial_area
from ._engine.ranking import SortedRanking, sweep_ranking
from ._validation import Interval, OneOf, options
from ._rankings import AVERAGES, evaluations, per_ranking, rankings_of
from ._undefined import PLURALS, warn_if_undefined
from .exceptions import InputValueError
from .partial import (RECALL_RANGE, area_of_points, interpolated_only, partial_areas, pr_area,
                      whole)
from .results import PR_METHODS, Evaluation

_UNIT_WEIGHTS = np.empty(0)


@options(prevalence=Interval(0, 1, closed="neither"))
def min_precision(recall, prevalence):
    """The lowest precision any ranking reaches at ``recall`` when positives make up ``prevalence``.

    It belongs to the worst ranking, in which every negative outranks every positive:
    ``p_min(r) = pi r / (1 - pi + pi r)``. The region below this curve is unachievable.

    Parameters
    ----------
    recall : float or array-like
        Recall values in [0, 1].
    prevalence : float
        Fraction of positives, strictly between 0 and 1.

    Returns
    -------
    float or ndarray
        Same shape as ``recall``.

    Examples
    --------
    >>> import fastpr
    >>> fastpr.min_precision([0.0, 0.5, 1.0], 0.1)
    array([0.        , 0.05263158, 0.1       ])
    """
    recall, pi = _validation.rates("recall", recall), prevalence
    result = pi * recall / (1.0 - pi + pi * recall)
    return result if result.ndim else float(result)


def _worst_ranking(n_pos, n_neg):
    """Every negative (one tied block, weight n_neg) above n_pos positives with distinct scores.

    Tying the negatives changes no estimator: points with tp = 0 add no area, and the last of
    them, (0, N), is the same point either way.
    """
    positives = np.arange(n_pos, dtype=np.float64)
    negatives = np.array([n_pos], dtype=np.float64) if n_neg > 0 else np.empty(0)
    return SortedRanking(positives, _UNIT_WEIGHTS, negatives, np.full(negatives.size, n_neg))


_partial_floor = np.vectorize(worst_ranking_partial_area, otypes=[np.float64])


def partial_auc_pr_floor(n_pos, n_neg, recall_low, recall_high):
    """The worst ranking's interpolated area over recall in [recall_low, recall_high]: the floor
    of ``auc_pr(recall_range=(recall_low, recall_high))`` at class totals ``n_pos``, ``n_neg``.
    Elementwise (scalars or arrays that broadcast; a float for scalars); NaN without positives,
    ``recall_high - recall_low`` without negatives. Over (0, 1) the floor of the whole area."""
    floors = _partial_floor(n_pos, n_neg, recall_low, recall_high)
    return floors if floors.ndim else float(floors)


def normalised_partial_auc_pr(areas, floors, recall_low, recall_high):
    """``(area - floor) / (w - floor)``, ``w = recall_high - recall_low``: partial areas over a
    recall range normalised by their floors (:func:`partial_auc_pr_floor`), 0 for the worst
    ranking and 1 for a perfect one. Elementwise; NaN where the floor leaves less than 2**-26 of
    ``w`` (``auc_npr``'s rule, applied to area / w and floor / w)."""
    width = recall_high - recall_low
    values = normalised_areas(np.asarray(areas) / width, np.asarray(floors) / width)
    return values if values.ndim else float(values)


@options(n_pos=Interval(0, None, closed="neither"), n_neg=Interval(0, None, closed="left"),
         method=OneOf(PR_METHODS), recall_range=RECALL_RANGE)
def auc_pr_min(n_pos, n_neg, *, method="interpolated", recall_range=None):
    """The AUC-PR that ``method`` gives the worst ranking: the floor of the achievable areas.

    The worst ranking puts every negative above every positive. For ``"interpolated"`` its area
    has the closed form ``1 + (1 - pi) ln(1 - pi) / pi`` (Boyd et al. 2012), which depends on the
    prevalence ``pi = n_pos / (n_pos + n_neg)`` alone and holds for any (weighted) totals. Every
    other estimator gives the worst ranking its own area at the given counts, computed exactly
    from that ranking: there ``n_pos`` must be a whole number of unit-weight positives.

    Parameters
    ----------
    n_pos : float
        Number (total weight) of positives, > 0.
    n_neg : float
        Number (total weight) of negatives, >= 0; with none, every ranking is perfect and the
        minimum is 1.
    method : str, default="interpolated"
        An estimator of :func:`fastpr.auc_pr`.
    recall_range : (float, float), default=None
        ``(r0, r1)``: the floor of ``auc_pr(recall_range=(r0, r1))``, the worst ranking's
        interpolated area over recall in [r0, r1] (only for ``method="interpolated"``); None,
        or (0, 1), the floor of the whole area.

    Returns
    -------
    float

    Notes
    -----
    O(1) for ``"interpolated"``; O(n_pos) time and memory for the others. The ``"hull"`` area of
    the worst ranking is ``pi``: its ROC hull is the diagonal. Over a recall range the floor is
    ``w (u + g(d)) / (1 + u)`` with ``x = n_pos / n_neg``, ``w = r1 - r0``, ``u = x r0``,
    ``d = x w / (1 + u)`` and ``g(d) = (d - ln(1 + d)) / d`` (:doc:`/math/partial`).

    Examples
    --------
    >>> import fastpr
    >>> round(fastpr.auc_pr_min(50, 50), 4), round(fastpr.auc_pr_min(10, 90), 4)
    (0.3069, 0.0518)
    >>> round(fastpr.auc_pr_min(10, 90, method="average_precision"), 4)
    0.0567
    >>> round(fastpr.auc_pr_min(10, 90, recall_range=(0.5, 1.0)), 4)
    0.0384
    """
    interpolated_only(method, recall_range)
    if not whole(recall_range):
        return partial_auc_pr_floor(n_pos, n_neg, *recall_range)
    if method != "interpolated" and n_pos != int(n_pos):
        raise InputValueError("{argument} must be a whole number for method={method!r}, whose "
                              "worst-case area depends on unit steps of true positives; got "
                              "{value!r}.", argument="n_pos", method=method, value=n_pos)
    if method == "interpolated":
        return float(worst_ranking_interpolated_area(n_pos, n_neg))
    return Evaluation.from_row(sweep_ranking(_worst_ranking(int(n_pos), n_neg)).row).area(method)


def auc_pr_floor(n_pos, n_neg, method):
    """:func:`auc_pr_min` of a (checked) ``method`` at the class totals of a ranking: NaN
    without positives, where no area is defined, and 1 without negatives, whatever the method."""
    if n_pos == 0:
        return math.nan
    return auc_pr_min(n_pos, n_neg, method=method) if n_neg > 0 else 1.0


def auc_pr_floors(n_pos, n_neg, method):
    """:func:`auc_pr_floor` of class totals (scalars, or arrays of one shape), each distinct
    pair of totals computed once."""
    totals = np.stack([np.ravel(n_pos), np.ravel(n_neg)], axis=1)
    pairs, inverse = np.unique(totals, axis=0, return_inverse=True)
    floors = np.array([auc_pr_floor(p, n, method) for p, n in pairs.tolist()])
    return floors[inverse.reshape(-1)].reshape(np.shape(n_pos))


def normalised_auc_pr(areas, n_pos, n_neg, method):
    """Normalised areas of ``method`` from its areas and the class totals (scalars, or arrays
    of one shape)."""
    return normalised_areas(areas, auc_pr_floors(n_pos, n_neg, method))


@options(method=OneOf(PR_METHODS), average=OneOf(AVERAGES), recall_range=RECALL_RANGE)
def auc_npr(y_true, y_score=None, *, method="interpolated", sample_weight=None,
            pos_label=None, groups=None, offsets=None, average=None, recall_range=None):
    """Normalised AUC-PR: the area above the unachievable floor, as a fraction of what is left.

    ``(AUCPR - AUCPR_min) / (1 - AUCPR_min)`` with both terms from the same estimator
    (Boyd et al. 2012): 0 for the worst ranking, 1 for a perfect one, whatever the prevalence, so
    values from data sets of different skew can be compared and averaged.

    Parameters
    ----------
    y_true, y_score, sample_weight, pos_label, groups, offsets
        As in :func:`fastpr.evaluate`: a 2-D ``y_score``, ``groups`` or ``offsets`` give one
        value per ranking. Or a :class:`fastpr.SweptRanking` alone, in place of all of them.
    method : str, default="interpolated"
        An estimator of :func:`fastpr.auc_pr`; other than ``"interpolated"``, the positives must
        add up to a whole number (see :func:`auc_pr_min`).
    average : {None, "macro"}, default=None
        For many rankings, as in :func:`fastpr.auc_pr`.
    recall_range : (float, float), default=None
        ``(r0, r1)``: normalise the partial area over recall in [r0, r1]
        (``auc_pr(recall_range=...)``) by the floor over the same range
        (``auc_pr_min(recall_range=...)``): ``(area - floor) / (r1 - r0 - floor)``, 0 for the
        worst ranking and 1 for a perfect one. Only for ``method="interpolated"``.

    Returns
    -------
    float or ndarray
        NaN with ``UndefinedMetricWarning`` when either class is missing. For many rankings an
        array of one value per ranking, unless ``average="macro"`` (their mean where defined);
        for a table of models a dict ``{name: value}``.

    Examples
    --------
    >>> import fastpr
    >>> y, s = [1, 0, 1, 1, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.6, 0.1]
    >>> round(fastpr.auc_npr(y, s), 3)
    0.626
    >>> fastpr.auc_npr(y, [s, s[::-1]]).round(3)
    array([0.626, 0.045])
    >>> round(fastpr.auc_npr(y, s, recall_range=(0.5, 1.0)), 3)
    0.357
    """
    interpolated_only(method, recall_range)
    partial = not whole(recall_range)
    if y_score is None:  # a SweptRanking (its module is imported at first use, not with fastpr)
        from .swept import given_sweep

        swept = given_sweep(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label,
                            groups=groups, offsets=offsets)
        e = swept.evaluation
        if partial:
            area = area_of_points(pr_area(recall_range), [swept.thresholds, swept.tp, swept.fp],
                                  e.n_pos, e.n_neg)
            return normalised_partial_auc_pr(area, partial_auc_pr_floor(
                e.n_pos, e.n_neg, *recall_range), *recall_range)
        return float(normalised_auc_pr(e.area(method), e.n_pos, e.n_neg, method))
    if partial:
        rankings, areas, n_pos, n_neg = partial_areas(y_true, y_score, sample_weight, pos_label,
                                                      groups, offsets, pr_area(recall_range))
        floors = partial_auc_pr_floor(n_pos, n_neg, *recall_range)
        values = normalised_partial_auc_pr(areas, floors, *recall_range)
        width = recall_range[1] - recall_range[0]
        if rankings.index is None:
            warn_if_undefined(n_pos[0], n_neg[0], "normalised AUC-PR", floors=floors[0] / width)
            return float(values[0])
        warn_if_undefined(n_pos, n_neg, "normalised AUC-PR", floors=floors / width,
                          unit=PLURALS[rankings.index_name])
        return per_ranking(rankings, values, average)
    rankings = rankings_of(y_true, y_score, sample_weight, pos_label, groups, offsets)
    result = evaluations(rankings)
    floors = auc_pr_floors(result.n_pos, result.n_neg, method)
    unit = None if rankings.index is None else PLURALS[rankings.index_name]
    warn_if_undefined(result.n_pos, result.n_neg, "normalised AUC-PR", floors=floors, unit=unit)
    values = normalised_areas(result.area(method), floors)
    return float(values) if rankings.index is None else per_ranking(rankings, values, average)
