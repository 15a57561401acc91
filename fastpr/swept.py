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
import functools
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
from .operating import LEVELS, Prepared, query_once, warn_unmet
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
    once). Its methods ``recall_at_precision``, ``precision_at_recall``, ``tpr_at_fpr`` and
    ``tnr_at_tpr`` answer the functions of those names in O(log n) per level, after one O(n)
    preparation at the first of them.

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

    @functools.cached_property
    def _operating(self):
        # Built at the first operating-point query, O(n); each query after it is O(log n).
        return Prepared(self.thresholds, self.tp, self.fp, self.hull_thresholds, self.hull_tp,
                        self.hull_fp, self.n_pos, self.n_neg)

    def _query(self, kind, level):
        result = self._operating.query(kind, level)
        warn_unmet([result])
        return result

    @options(min_precision=LEVELS)
    def recall_at_precision(self, min_precision):
        """:func:`fastpr.recall_at_precision` of this ranking, O(log n) per level after the
        first query of the object, which prepares it in O(n)."""
        return self._query("recall_at_precision", min_precision)

    @options(min_recall=LEVELS)
    def precision_at_recall(self, min_recall):
        """:func:`fastpr.precision_at_recall` of this ranking, O(log n) per level after the
        first query of the object."""
        return self._query("precision_at_recall", min_recall)

    @options(max_fpr=LEVELS)
    def tpr_at_fpr(self, max_fpr):
        """:func:`fastpr.tpr_at_fpr` of this ranking, O(log n) per level after the first
        query of the object."""
        return self._query("tpr_at_fpr", max_fpr)

    @options(min_tpr=LEVELS)
    def tnr_at_tpr(self, min_tpr):
        """:func:`fastpr.tnr_at_tpr` of this ranking, O(log n) per level after the first
        query of the object."""
        return self._query("tnr_at_tpr", min_tpr)


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
    return swept_ranking(sort_ranking(y_true, y_score, sample_weight, pos_label))


def swept_ranking(ranking):
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
        swept = swept_ranking(next(sorted_rankings(rankings)))
        warn_if_undefined(swept.n_pos, swept.n_neg, *undefined)
        return read(swept)
    results, totals = [], []
    for ranking in sorted_rankings(rankings):  # read at once: one ranking's points held at a time
        swept = swept_ranking(ranking)
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


def _operating_points(kind, level, y_true, y_score, sample_weight, pos_label, groups, offsets):
    """The OperatingPoints of ``kind`` at ``level`` of one ranking, or a list of one per ranking
    (a dict by name for a table of models), with one warning for the levels left NaN."""
    rankings = rankings_of(y_true, y_score, sample_weight, pos_label, groups, offsets,
                           nan_in_sort=False)
    results = [query_once(ranking, kind, level) for ranking in sorted_rankings(rankings)]
    if rankings.index is None:
        warn_unmet(results)
        return results[0]
    warn_unmet(results, rankings.index.tolist(), PLURALS[rankings.index_name])
    return per_ranking(rankings, results)


@options(min_precision=LEVELS)
def recall_at_precision(y_true, y_score, min_precision, *, sample_weight=None, pos_label=None,
                        groups=None, offsets=None):
    """The best recall with precision >= ``min_precision``: at a single threshold, and mixing
    two thresholds at random (the achievable point).

    Parameters
    ----------
    y_true, y_score, sample_weight, pos_label, groups, offsets
        As in :func:`fastpr.evaluate`.
    min_precision : float or sequence of float
        The precision to reach, in [0, 1]; several levels cost one sort and one sweep.

    Returns
    -------
    OperatingPoints
        ``value`` (the recall), its ``threshold`` (predict positive iff
        ``score >= threshold``), the counts ``tp``, ``fp``, ``tn``, ``fn`` and the rates
        ``precision``, ``recall``, ``fpr``, ``tnr`` there; then the ``achievable`` recall of
        the best random mixture of two thresholds, its ``high_threshold``,
        ``low_threshold`` and ``mixing_probability`` and its expected counts. Floats for one
        level, arrays of one entry per level for several. For a 2-D ``y_score``, ``groups``
        or ``offsets``, a list of one per ranking; for a table of models a dict by name.

    Notes
    -----
    Precision is ``tp / (tp + fp)`` as a double, as :func:`fastpr.pr_curve` gives it, and the
    threshold must reach ``min_precision`` with it; where nothing is called positive precision
    is undefined, so that threshold never qualifies. A threshold keeps or drops a whole group
    of tied scores, as the curves do. Where no threshold reaches the level (or there are no
    positives) every field is NaN, with one ``UndefinedMetricWarning`` naming the levels (and
    the rankings).

    Among thresholds of equal best recall the one of higher precision wins, then the higher
    threshold. torchmetrics' ``binary_recall_at_fixed_precision`` breaks ties alike, but where
    no threshold qualifies it returns recall 0 (and a threshold of 1e6) instead of NaN.

    The achievable point: a classifier that predicts positive above ``high_threshold`` and,
    with probability ``mixing_probability``, between ``low_threshold`` and it, has expected
    counts on the chord between the two operating points. The best such mixtures lie on the
    ROC convex hull, along which precision falls as recall rises, so the best one under the
    constraint is where the hull (its image, the achievable PR curve) crosses precision
    ``min_precision``; see :doc:`/math/operating`. It is reported where it beats the single
    threshold by more than 1e-12, else it is that threshold (probability 0).

    Cost: one sort and one sweep (as :func:`fastpr.evaluate`), then one more walk over the
    sorted scores for every level together, storing no operating points, and O(log n) per
    level on the ROC hull.
    :meth:`fastpr.SweptRanking.recall_at_precision` answers more levels without sweeping again,
    O(log n) each.

    Examples
    --------
    >>> import fastpr
    >>> y = [1, 1, 0, 1, 0, 1, 0, 0]
    >>> s = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2]
    >>> r = fastpr.recall_at_precision(y, s, 0.7)
    >>> r.value, r.threshold, r.precision
    (0.75, 0.6, 0.75)

    Randomising between thresholds 0.8 and 0.4 reaches more (rounded here for print):

    >>> round(r.achievable, 4), r.high_threshold, r.low_threshold, round(r.mixing_probability, 4)
    (0.875, 0.8, 0.4, 0.75)
    >>> fastpr.recall_at_precision(y, s, [0.5, 0.7, 1.0]).value
    array([1.  , 0.75, 0.5 ])
    """
    return _operating_points("recall_at_precision", min_precision, y_true, y_score,
                             sample_weight, pos_label, groups, offsets)


@options(min_recall=LEVELS)
def precision_at_recall(y_true, y_score, min_recall, *, sample_weight=None, pos_label=None,
                        groups=None, offsets=None):
    """The best precision with recall >= ``min_recall``: at a single threshold, and mixing two
    thresholds at random.

    Parameters and results as in :func:`recall_at_precision`, ``value`` being the precision.

    Notes
    -----
    Among thresholds of equal best precision the one of higher recall wins, then the higher
    threshold (torchmetrics' ``binary_precision_at_fixed_recall`` alike). At
    ``min_recall=0`` the threshold must still call something positive, where precision is
    defined. Along the ROC hull precision falls as recall rises, so the achievable point sits
    where the hull reaches recall ``min_recall`` exactly.

    Examples
    --------
    >>> import fastpr
    >>> r = fastpr.precision_at_recall([1, 1, 0, 1, 0, 1, 0, 0],
    ...                                [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2], 0.8)
    >>> r.value, r.threshold, round(r.achievable, 4), round(r.mixing_probability, 4)
    (0.6666666666666666, 0.4, 0.7273, 0.6)
    """
    return _operating_points("precision_at_recall", min_recall, y_true, y_score, sample_weight,
                             pos_label, groups, offsets)


@options(max_fpr=LEVELS)
def tpr_at_fpr(y_true, y_score, max_fpr, *, sample_weight=None, pos_label=None, groups=None,
               offsets=None):
    """The best TPR (sensitivity) with FPR <= ``max_fpr``: at a single threshold, and mixing two
    thresholds at random.

    Parameters and results as in :func:`recall_at_precision`, ``value`` being the TPR; NaN
    without positives or without negatives.

    Notes
    -----
    Among thresholds of equal best TPR the one of lower FPR wins, then the higher threshold.
    The origin (nothing positive, threshold ``inf``) meets every level. The achievable point
    is the ROC convex hull at FPR ``max_fpr``. torchmetrics' ``binary_sensitivity_at_specificity``
    asks for specificity >= 1 - ``max_fpr`` instead (the same constraint, up to rounding).

    Examples
    --------
    >>> import fastpr
    >>> r = fastpr.tpr_at_fpr([1, 1, 0, 1, 0, 1, 0, 0],
    ...                       [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2], 0.1)
    >>> r.value, r.fpr, round(r.achievable, 4), r.low_threshold
    (0.5, 0.0, 0.6, 0.4)
    """
    return _operating_points("tpr_at_fpr", max_fpr, y_true, y_score, sample_weight, pos_label,
                             groups, offsets)


@options(min_tpr=LEVELS)
def tnr_at_tpr(y_true, y_score, min_tpr, *, sample_weight=None, pos_label=None, groups=None,
               offsets=None):
    """The best TNR (specificity) with TPR (sensitivity) >= ``min_tpr``: at a single threshold,
    and mixing two thresholds at random.

    Parameters and results as in :func:`recall_at_precision`, ``value`` being the TNR; NaN
    without positives or without negatives.

    Notes
    -----
    Among thresholds of equal best TNR the one of higher TPR wins, then the higher threshold.
    The achievable point is where the ROC convex hull reaches TPR ``min_tpr``.
    torchmetrics' ``binary_specificity_at_sensitivity`` answers the same question.

    Examples
    --------
    >>> import fastpr
    >>> r = fastpr.tnr_at_tpr([1, 1, 0, 1, 0, 1, 0, 0],
    ...                       [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2], 0.9)
    >>> r.value, r.threshold, round(r.achievable, 4)
    (0.5, 0.4, 0.6)
    """
    return _operating_points("tnr_at_tpr", min_tpr, y_true, y_score, sample_weight, pos_label,
                             groups, offsets)
