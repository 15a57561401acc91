"""Every curve of a ranking, read from one sort and one pass.

:func:`sweep` sorts a ranking and sweeps it once, keeping what every curve, figure and summary
of it needs: the operating points, the vertices of the ROC convex hull and the
:class:`fastpr.Evaluation`, as a :class:`SweptRanking`. Each curve function
(:func:`roc_points`, :func:`pr_curve`, ...) sweeps the data it is given, or reads a
SweptRanking given in its place without touching the data again; the figures of
:mod:`fastpr.plot` draw everything from one.

Every function here takes one ranking, a 2-D batch, a table of models, ``groups`` or ``offsets``
alike and returns the single result for one ranking, a list for many (an array for
:func:`auc_prg`), a dict keyed by name for a table of models, each entry equal to the single
call.
"""
from dataclasses import dataclass

import numpy as np

from ._engine.ranking import sweep_ranking
from ._engine.tables import sorted_rankings
from ._validation import OneOf, options
from ._rankings import AVERAGES, per_ranking, rankings_of, sort_ranking
from ._undefined import PLURALS, warn_if_undefined
from .curves import (
    RECALL_STEP,
    achievable_from_hull,
    interpolated_from_counts,
    pr_curve_from_counts,
    roc_curve_from_counts,
)
from .fmeasure import BETA, f_beta_curve_of, max_f_beta_of
from .gain import prg_curve_of
from .exceptions import InputTypeError
from .results import Evaluation, Result

# What each function returns as NaN when a class is missing, for its one warning (the metric
# names of fastpr._undefined).
_EVERY_AREA = ("AUC-ROC", "AUC-PR", "normalised AUC-PR")
_ROC = ("AUC-ROC",)
_PR = ("AUC-PR",)
_F_BETA = ("F-beta",)
_GAIN_CURVE = ("Precision-recall gain",)
_GAIN_AREA = ("AUPRG",)


@dataclass(frozen=True, repr=False, eq=False)
class SweptRanking(Result):
    """One ranking after one sort and one pass: its operating points, ROC hull and summaries.

    ``thresholds``, ``tp``, ``fp``: the operating points in descending threshold order, origin
    first (those of :func:`fastpr.roc_points`). ``hull_thresholds``, ``hull_tp``, ``hull_fp``:
    the vertices of the ROC convex hull, from the origin to (N, P). ``evaluation``: every
    summary, as :func:`fastpr.evaluate` gives it. Pass it alone, in place of the data, to the
    curve functions of this module, :func:`fastpr.max_f_beta`, :func:`fastpr.auc_prg`,
    :func:`fastpr.auc_npr` or a figure of :mod:`fastpr.plot`: each reads these arrays and
    shares them (no copies), without sorting again and without warning (:func:`sweep` warned
    once).

    Examples
    --------
    >>> import fastpr
    >>> s = fastpr.sweep([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> s.evaluation.auc_roc, fastpr.roc_convex_hull(s).tpr, fastpr.max_f_beta(s).value
    (0.75, array([0. , 0.5, 1. , 1. ]), 0.8)
    """

    thresholds: np.ndarray
    tp: np.ndarray
    fp: np.ndarray
    hull_thresholds: np.ndarray
    hull_tp: np.ndarray
    hull_fp: np.ndarray
    evaluation: Evaluation

    @property
    def n_pos(self):
        """Total weight of the positives."""
        return self.evaluation.n_pos

    @property
    def n_neg(self):
        """Total weight of the negatives."""
        return self.evaluation.n_neg


def _roc(swept):
    return roc_curve_from_counts(swept.thresholds, swept.tp, swept.fp)


def _pr(swept):
    return pr_curve_from_counts(swept.thresholds, swept.tp, swept.fp)


def _hull(swept):
    return roc_curve_from_counts(swept.hull_thresholds, swept.hull_tp, swept.hull_fp)


def _prg(swept):
    return prg_curve_of(_pr(swept))


def _prg_area(swept):
    return _prg(swept).area


def given_sweep(y_true, y_score, **data):
    """``y_true`` when it is a SweptRanking given alone (``y_score`` and every value of ``data``
    None), else None; the data must then hold ``y_score``."""
    if isinstance(y_true, SweptRanking):
        given = [name for name, value in {"y_score": y_score, **data}.items()
                 if value is not None]
        if given:
            names = ["y_score", *data]
            raise InputTypeError("A SweptRanking carries its own scores, weights and labels: "
                                 "pass it alone, without {names}.", argument=given[0],
                                 names=f"{', '.join(names[:-1])} or {names[-1]}")
        return y_true
    if y_score is None:
        raise InputTypeError("{argument} is missing: pass y_true and y_score, or a SweptRanking.",
                             argument="y_score")
    return None


def swept_silently(y_true, y_score, sample_weight=None, pos_label=None):
    """The SweptRanking of one ranking without a warning, for callers that warn about what they
    show (the figures)."""
    return _swept(sort_ranking(y_true, y_score, sample_weight, pos_label))


def _swept(ranking):
    """The SweptRanking of one sorted ranking."""
    swept = sweep_ranking(ranking, with_points=True)
    hull_fp, hull_tp, hull_thresholds = swept.hull.T.copy()
    thresholds, tp, fp = swept.points
    return SweptRanking(thresholds, tp, fp, hull_thresholds, hull_tp, hull_fp,
                        Evaluation.from_row(swept.row))


def _itself(swept):
    return swept


def _read(read, undefined, y_true, y_score, sample_weight, pos_label, groups, offsets,
          average=None, *, number=False):
    """``read(swept)`` of one ranking, or of each of many (a list; an array or its macro
    ``average`` for a ``number``), after one warning about the ``undefined`` metrics; of a
    SweptRanking given in place of ``y_true``, without a warning.
    """
    swept = given_sweep(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label,
                        groups=groups, offsets=offsets)
    if swept is not None:
        return read(swept)
    rankings = rankings_of(y_true, y_score, sample_weight, pos_label, groups, offsets,
                           nan_in_sort=False)
    if rankings.index is None:
        swept = _swept(next(sorted_rankings(rankings)))
        warn_if_undefined(swept.n_pos, swept.n_neg, *undefined)
        return read(swept)
    results, totals = [], []
    for ranking in sorted_rankings(rankings):  # read at once: one ranking's points held at a time
        swept = _swept(ranking)
        results.append(read(swept))
        totals.append((swept.n_pos, swept.n_neg, swept.evaluation.auc_pr_min))
    n_pos, n_neg, floors = np.array(totals).T
    warn_if_undefined(n_pos, n_neg, *undefined, floors=floors,
                      unit=PLURALS[rankings.index_name])
    return per_ranking(rankings, np.array(results, dtype=np.float64) if number else results,
                       average)


def sweep(y_true, y_score, *, sample_weight=None, pos_label=None, groups=None, offsets=None):
    """Sort and sweep a ranking once, keeping every curve and summary of it.

    Parameters
    ----------
    y_true, y_score, sample_weight, pos_label, groups, offsets
        As in :func:`fastpr.evaluate`.

    Returns
    -------
    SweptRanking
        The operating points, the ROC convex hull and the :class:`fastpr.Evaluation`; every
        curve function of one ranking (:func:`roc_points`, :func:`pr_curve`, ...) and every
        figure takes it in place of the data and reads its curve without sorting again. For a
        2-D ``y_score``, ``groups`` or ``offsets``, a list of one per ranking; for a table of
        models a dict ``{name: SweptRanking}`` in column order.

    Notes
    -----
    The cost of :func:`fastpr.evaluate` plus storing the operating points (three doubles per
    distinct score). Warns as :func:`fastpr.evaluate` does about metrics that a missing class
    leaves undefined; the curves read from it do not warn again.

    Examples
    --------
    >>> import fastpr
    >>> s = fastpr.sweep([1, 0, 1, 1, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.6, 0.1])
    >>> round(s.evaluation.auc_pr, 4), fastpr.pr_curve(s).recall
    (0.7407, array([0.        , 0.33333333, 0.33333333, 0.66666667, 1.        , 1.        ]))
    """
    return _read(_itself, _EVERY_AREA, y_true, y_score, sample_weight, pos_label, groups,
                 offsets)


def roc_points(y_true, y_score=None, *, sample_weight=None, pos_label=None, groups=None,
               offsets=None):
    """ROC operating points, one per distinct score.

    Parameters as in :func:`fastpr.evaluate`, or a :class:`fastpr.SweptRanking` alone in place
    of all of them (read without sorting again). Rates that a missing class leaves undefined
    are NaN, with ``UndefinedMetricWarning``. A 2-D ``y_score``, ``groups`` or ``offsets`` give
    a list of curves, one per ranking, and a table of models a dict ``{name: curve}`` in column
    order, each equal to the single call (as every curve function). It is
    ``fastpr.sklearn.roc_curve``'s curve as a :class:`fastpr.ROCCurve`, every point kept.

    Examples
    --------
    >>> import fastpr
    >>> c = fastpr.roc_points([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> c.fpr, c.tpr
    (array([0. , 0. , 0.5, 0.5, 1. ]), array([0. , 0.5, 0.5, 1. , 1. ]))
    >>> rows = fastpr.roc_points([0, 0, 1, 1], [[0.1, 0.4, 0.35, 0.8], [4, 3, 2, 1]])
    >>> len(rows), rows[1].tpr
    (2, array([0. , 0. , 0. , 0.5, 1. ]))
    """
    return _read(_roc, _ROC, y_true, y_score, sample_weight, pos_label, groups, offsets)


def pr_curve(y_true, y_score=None, *, sample_weight=None, pos_label=None, groups=None,
             offsets=None):
    """PR operating points, one per distinct score, origin first.

    Straight lines between these points are not the PR curve: use
    :func:`interpolated_pr_curve` or :func:`achievable_pr_curve` to draw it. Parameters and
    results as in :func:`roc_points`.

    Examples
    --------
    >>> import fastpr
    >>> c = fastpr.pr_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> c.recall, c.precision
    (array([0. , 0.5, 0.5, 1. , 1. ]), array([1.        , 1.        , 0.5       , 0.66666667, 0.5       ]))
    """
    return _read(_pr, _PR, y_true, y_score, sample_weight, pos_label, groups, offsets)


def roc_convex_hull(y_true, y_score=None, *, sample_weight=None, pos_label=None, groups=None,
                    offsets=None):
    """Vertices of the ROC convex hull (upper-left hull of all points, origin and (N, P)).

    Collinear points are dropped. Built by Andrew's monotone chain during the same pass that
    finds the operating points, O(k) for k thresholds. Parameters and results as in
    :func:`roc_points`: a :class:`fastpr.ROCCurve` of the vertices.

    Examples
    --------
    >>> import fastpr
    >>> h = fastpr.roc_convex_hull([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> h.fpr, h.tpr, h.thresholds
    (array([0. , 0. , 0.5, 1. ]), array([0. , 0.5, 1. , 1. ]), array([ inf, 0.8 , 0.35, 0.1 ]))
    """
    return _read(_hull, _ROC, y_true, y_score, sample_weight, pos_label, groups, offsets)


@options(max_recall_step=RECALL_STEP)
def achievable_pr_curve(y_true, y_score=None, *, sample_weight=None, pos_label=None,
                        groups=None, offsets=None, max_recall_step=0.01):
    """The achievable PR curve: the ROC convex hull mapped to PR space, correctly interpolated.

    Between hull vertices A and B the curve is the image of the ROC segment (achievable by
    randomising between their thresholds), a hyperbola in PR space. It is sampled so that
    neighbouring points are at most ``max_recall_step`` (in (0, 1]) apart in recall. Other
    parameters and results as in :func:`roc_points`.

    Examples
    --------
    >>> import fastpr
    >>> c = fastpr.achievable_pr_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], max_recall_step=0.25)
    >>> c.recall, c.precision.round(3), c.is_vertex
    (array([0.  , 0.25, 0.5 , 0.75, 1.  , 1.  ]), array([1.   , 1.   , 1.   , 0.75 , 0.667, 0.5  ]), array([ True, False,  True, False,  True,  True]))
    """
    def achievable(swept):
        return achievable_from_hull(_hull(swept), swept.evaluation.auc_pr_hull, max_recall_step)

    return _read(achievable, _PR, y_true, y_score, sample_weight, pos_label, groups, offsets)


@options(max_recall_step=RECALL_STEP)
def interpolated_pr_curve(y_true, y_score=None, *, sample_weight=None, pos_label=None,
                          groups=None, offsets=None, max_recall_step=0.01):
    """The PR curve as it should be drawn: every operating point joined by interpolated points.

    Between neighbouring operating points false positives grow linearly with true positives
    (Davis & Goadrich 2006), so precision follows a hyperbola, not a straight line. The curve is
    sampled so that neighbouring points are at most ``max_recall_step`` apart in recall; its
    area is ``auc_pr(method="interpolated")``.

    Parameters
    ----------
    y_true, y_score, sample_weight, pos_label, groups, offsets
        As in :func:`fastpr.evaluate`; or a :class:`fastpr.SweptRanking` alone, in place of all
        of them.
    max_recall_step : float, default=0.01
        In (0, 1].

    Returns
    -------
    PRPoints
        ``recall``, ``precision``, ``tp`` and ``fp``, origin first; the operating points of
        :func:`pr_curve` are among them. For many rankings, a list of one per ranking (a dict
        by name for a table of models).

    Examples
    --------
    >>> import fastpr
    >>> c = fastpr.interpolated_pr_curve([0, 1, 0, 1], [0.9, 0.8, 0.3, 0.2], max_recall_step=0.25)
    >>> c.recall, c.precision.round(3)
    (array([0.  , 0.  , 0.25, 0.5 , 0.5 , 0.75, 1.  ]), array([0.   , 0.   , 0.333, 0.5  , 0.333, 0.429, 0.5  ]))
    """
    return _read(lambda swept: interpolated_from_counts(swept.tp, swept.fp, max_recall_step),
                 _PR, y_true, y_score, sample_weight, pos_label, groups, offsets)


@options(beta=BETA)
def f_beta_curve(y_true, y_score=None, *, beta=1.0, sample_weight=None, pos_label=None, groups=None,
                 offsets=None):
    """F-beta at every operating point (one per distinct score), origin first.

    Parameters
    ----------
    y_true, y_score, sample_weight, pos_label, groups, offsets
        As in :func:`fastpr.evaluate`; or a :class:`fastpr.SweptRanking` alone, in place of all
        of them.
    beta : float, default=1.0
        Weight of recall relative to precision: finite and > 0 (``beta=1`` is F1).

    Returns
    -------
    FBetaCurve
        ``recall``, ``precision``, ``thresholds`` as in :func:`pr_curve`, and ``f``. For many
        rankings, a list of one per ranking (a dict by name for a table of models).

    Notes
    -----
    ``F_beta = (1 + beta^2) TP / ((1 + beta^2) TP + beta^2 FN + FP)``, the weighted harmonic mean
    of precision and recall, computed from the counts (not from rounded precision and recall),
    so the origin (nothing called positive) has F = 0. With no positives F is undefined: NaN,
    with ``UndefinedMetricWarning``. Cost: one sort and one pass, as :func:`pr_curve`.

    Examples
    --------
    >>> import fastpr
    >>> c = fastpr.f_beta_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> c.thresholds, c.f
    (array([ inf, 0.8 , 0.4 , 0.35, 0.1 ]), array([0.        , 0.66666667, 0.5       , 0.8       , 0.66666667]))
    """
    return _read(lambda swept: f_beta_curve_of(_pr(swept), beta), _F_BETA, y_true, y_score,
                 sample_weight, pos_label, groups, offsets)


@options(beta=BETA)
def max_f_beta(y_true, y_score=None, *, beta=1.0, sample_weight=None, pos_label=None, groups=None,
               offsets=None):
    """The best F-beta of a ranking and the recall, precision and threshold that reach it.

    Parameters
    ----------
    y_true, y_score, sample_weight, pos_label, groups, offsets
        As in :func:`fastpr.evaluate`; or a :class:`fastpr.SweptRanking` alone, in place of all
        of them.
    beta : float, default=1.0
        Weight of recall relative to precision: finite and > 0.

    Returns
    -------
    MaxFBeta
        ``value``, ``recall``, ``precision``, ``threshold`` (predict positive iff
        ``score >= threshold``) and ``beta``. All NaN, with ``UndefinedMetricWarning``, when
        there are no positives. For many rankings, a list of one per ranking (a dict by name
        for a table of models).

    Notes
    -----
    The maximum is taken over the operating points; when several reach it (exactly, in floating
    point), the highest threshold wins, that is the one that calls the fewest examples positive.
    Nothing is lost by ignoring the points between them: along a correctly interpolated segment
    (TP and FP both linear in one parameter, as when randomising between neighbouring
    thresholds) F-beta is a ratio of two linear functions of that parameter, hence monotone, so
    its maximum over the whole interpolated curve lies at an operating point.

    Examples
    --------
    >>> import fastpr
    >>> best = fastpr.max_f_beta([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> best.value, best.threshold, best.precision, best.recall
    (0.8, 0.35, 0.6666666666666666, 1.0)
    """
    return _read(lambda swept: max_f_beta_of(_pr(swept), beta), _F_BETA, y_true, y_score,
                 sample_weight, pos_label, groups, offsets)


def prg_curve(y_true, y_score=None, *, sample_weight=None, pos_label=None, groups=None,
              offsets=None):
    """The precision-recall-gain curve: every operating point in gain space, plus crossings.

    Parameters
    ----------
    y_true, y_score, sample_weight, pos_label, groups, offsets
        As in :func:`fastpr.evaluate`; or a :class:`fastpr.SweptRanking` alone, in place of all
        of them.

    Returns
    -------
    PRGCurve
        Points in descending threshold order (the order of :func:`pr_curve`), with
        ``recall_gain``, ``precision_gain``, ``thresholds``, ``tp``, ``fp``, ``is_crossing`` and
        the ``area`` of :func:`auc_prg`. For many rankings, a list of one per ranking (a dict
        by name for a table of models).

    Notes
    -----
    As in the authors' software, a point is added where the curve crosses recall gain 0 (at
    recall = prevalence) and where, to the right of that, it crosses precision gain 0; both are
    placed exactly on their segment of the correctly interpolated curve (fp linear in tp), which
    in gain space is a straight line. Only the part with recall gain >= 0 is drawn in the
    authors' plots; points to its left are kept (recall gain down to ``-inf`` at tp = 0). At
    tp = 0 precision gain follows :func:`pr_curve`'s precision limit (the authors leave the
    origin's NaN). Gains are undefined without positives or without negatives: NaN, with
    ``UndefinedMetricWarning``. Cost: that of :func:`pr_curve` plus O(k) NumPy work.

    Examples
    --------
    >>> import fastpr
    >>> c = fastpr.prg_curve([1, 1, 0, 0, 1, 0], [0.8, 0.8, 0.6, 0.4, 0.4, 0.2])
    >>> c.recall_gain, c.precision_gain, c.is_crossing
    (array([-inf, 0. , 0.5, 0.5, 1. , 1. ]), array([1. , 1. , 1. , 0.5 , 0.33333333, 0. ]), array([False,  True, False, False, False, False]))
    """
    return _read(_prg, _GAIN_CURVE, y_true, y_score, sample_weight, pos_label, groups, offsets)


@options(average=OneOf(AVERAGES))
def auc_prg(y_true, y_score=None, *, sample_weight=None, pos_label=None, groups=None,
            offsets=None, average=None):
    """Area under the precision-recall-gain curve (AUPRG), as Flach & Kull define it.

    Parameters
    ----------
    y_true, y_score, sample_weight, pos_label, groups, offsets
        As in :func:`fastpr.evaluate`; or a :class:`fastpr.SweptRanking` alone, in place of all
        of them.
    average : {None, "macro"}, default=None
        For many rankings, as in :func:`fastpr.auc_pr`.

    Returns
    -------
    float or ndarray
        At most 1 (a perfect ranking); 0 for a ranking no better than calling everything
        positive; negative where precision gain is mostly below 0. NaN, with
        ``UndefinedMetricWarning``, without positives or without negatives. For many rankings
        an array of one area per ranking, unless ``average="macro"``; for a table of models a
        dict ``{name: area}``.

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
    return _read(_prg_area, _GAIN_AREA, y_true, y_score, sample_weight, pos_label,
                 groups, offsets, average, number=True)
