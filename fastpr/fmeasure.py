"""The F-measure along the PR curve, its best operating point, and iso-F lines for plotting."""
from dataclasses import dataclass

import numpy as np

from . import _validation
from ._engine.kernels.fmeasure import f_beta
from .curves import pr_curve_silently
from .results import Result


@dataclass(frozen=True, repr=False)
class FBetaCurve(Result):
    """F-beta at every operating point of :func:`fastpr.pr_curve`, origin first.

    ``thresholds``, ``precision`` and ``recall`` are the PR curve's; ``f`` is 0 at the origin.
    """

    thresholds: np.ndarray
    precision: np.ndarray
    recall: np.ndarray
    f: np.ndarray
    beta: float


@dataclass(frozen=True, repr=False)
class MaxFBeta(Result):
    """The largest F-beta over the operating points and the point that reaches it."""

    value: float
    threshold: float
    precision: float
    recall: float
    beta: float


def f_beta_from_counts(tp, fp, n_pos, beta):
    """(1 + b^2) TP / ((1 + b^2) TP + b^2 FN + FP), with FN = P - TP folded into the sum."""
    if n_pos == 0:
        return np.full(tp.shape, np.nan)
    return f_beta(tp, fp, n_pos, beta * beta)


def _f_beta_curve(y_true, y_score, beta, sample_weight, pos_label):
    beta = _validation.beta(beta)
    curve = pr_curve_silently(y_true, y_score, sample_weight, pos_label)
    f = f_beta_from_counts(curve.tp, curve.fp, curve.n_pos, beta)
    return FBetaCurve(curve.thresholds, curve.precision, curve.recall, f, beta), curve.n_pos


def f_beta_curve(y_true, y_score, *, beta=1.0, sample_weight=None, pos_label=None):
    """F-beta at every operating point (one per distinct score), origin first.

    Parameters
    ----------
    y_true, y_score, sample_weight, pos_label
        As in :func:`fastpr.evaluate`.
    beta : float, default=1.0
        Weight of recall relative to precision: finite and > 0 (``beta=1`` is F1).

    Returns
    -------
    FBetaCurve
        ``thresholds``, ``precision``, ``recall`` as in :func:`fastpr.pr_curve`, and ``f``.

    Notes
    -----
    ``F_beta = (1 + beta^2) TP / ((1 + beta^2) TP + beta^2 FN + FP)``, the weighted harmonic mean
    of precision and recall, computed from the counts (not from rounded precision and recall),
    so the origin (nothing called positive) has F = 0. With no positives F is undefined: NaN,
    with ``UndefinedMetricWarning``. Cost: one sort and one pass, as :func:`fastpr.pr_curve`.

    Examples
    --------
    >>> import fastpr
    >>> c = fastpr.f_beta_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> c.thresholds, c.f
    (array([ inf, 0.8 , 0.4 , 0.35, 0.1 ]), array([0.        , 0.66666667, 0.5       , 0.8       , 0.66666667]))
    """
    curve, n_pos = _f_beta_curve(y_true, y_score, beta, sample_weight, pos_label)
    _validation.warn_if_class_missing("F-beta", n_pos)
    return curve


def max_f_beta(y_true, y_score, *, beta=1.0, sample_weight=None, pos_label=None):
    """The best F-beta of a ranking and the threshold, precision and recall that reach it.

    Parameters
    ----------
    y_true, y_score, sample_weight, pos_label
        As in :func:`fastpr.evaluate`.
    beta : float, default=1.0
        Weight of recall relative to precision: finite and > 0.

    Returns
    -------
    MaxFBeta
        ``value``, ``threshold`` (predict positive iff ``score >= threshold``), ``precision``,
        ``recall`` and ``beta``. All NaN, with ``UndefinedMetricWarning``, when there are no
        positives.

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
    curve, n_pos = _f_beta_curve(y_true, y_score, beta, sample_weight, pos_label)
    _validation.warn_if_class_missing("F-beta", n_pos)
    if n_pos == 0:
        return MaxFBeta(np.nan, np.nan, np.nan, np.nan, curve.beta)
    best = int(np.argmax(curve.f))  # the first maximum: points run from the highest threshold
    return MaxFBeta(float(curve.f[best]), float(curve.thresholds[best]),
                    float(curve.precision[best]), float(curve.recall[best]), curve.beta)


def iso_f_curve(f, *, beta=1.0, n_points=100):
    """The line of constant F-beta in PR space, for drawing under a PR curve.

    Parameters
    ----------
    f : float
        The F-beta value of the line, in (0, 1).
    beta : float, default=1.0
        Finite and > 0.
    n_points : int, default=100
        Number of points, evenly spaced in recall; at least 2.

    Returns
    -------
    recall, precision : ndarray of shape (n_points,)
        Recall rising from where the line leaves precision 1 to recall 1.

    Notes
    -----
    Solving ``f = (1 + b^2) p r / (b^2 p + r)`` for precision gives
    ``p = f r / ((1 + b^2) r - b^2 f)``, which falls as recall grows. It reaches precision 1 at
    ``r = b^2 f / (1 + b^2 - f)`` and ends at recall 1 with ``p = f / (1 + b^2 - b^2 f)``.

    Examples
    --------
    >>> import fastpr
    >>> r, p = fastpr.iso_f_curve(0.5, n_points=3)
    >>> r, p
    (array([0.33333333, 0.66666667, 1.        ]), array([1.        , 0.4       , 0.33333333]))
    """
    f = _validation.f_level(f)
    beta = _validation.beta(beta)
    n_points = _validation.point_count(n_points)
    b2 = beta * beta
    start = b2 * f / (1.0 + b2 - f)
    recall = np.linspace(start, 1.0, n_points)
    # (1 + b^2) r - b^2 f rewritten as (1 + b^2) (r - start) + f start: no cancellation near
    # the start, where precision comes out as exactly 1.
    precision = np.minimum(f * recall / ((1.0 + b2) * (recall - start) + f * start), 1.0)
    return recall, precision
