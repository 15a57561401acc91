"""The F-measure along the PR curve, its best operating point, and iso-F lines for plotting.

``F_beta = (1 + beta^2) TP / ((1 + beta^2) TP + beta^2 FN + FP)``, the weighted harmonic mean of
precision and recall, is computed from the counts (not from rounded precision and recall), so
the origin (nothing called positive) has F = 0. :func:`fastpr.f_beta_curve` and
:func:`fastpr.max_f_beta` read it from one swept ranking.
"""
from dataclasses import dataclass

import numpy as np

from ._engine.kernels.fmeasure import f_beta
from ._validation import Integer, Interval, options
from .results import Result

# The constraint on ``beta``, the weight of recall relative to precision, wherever it is taken.
BETA = Interval(0, None, closed="neither")


@dataclass(frozen=True, repr=False, eq=False)
class FBetaCurve(Result):
    """F-beta at every operating point of :func:`fastpr.pr_curve`, origin first.

    ``recall``, ``precision`` and ``thresholds`` are the PR curve's; ``f`` is 0 at the origin.
    """

    recall: np.ndarray
    precision: np.ndarray
    thresholds: np.ndarray
    f: np.ndarray
    beta: float


@dataclass(frozen=True, repr=False, eq=False)
class MaxFBeta(Result):
    """The largest F-beta over the operating points and the point that reaches it."""

    value: float
    recall: float
    precision: float
    threshold: float
    beta: float


def f_beta_from_counts(tp, fp, n_pos, beta):
    """F-beta of counts (arrays or scalars); NaN without positives, 0 where TP is 0 (the
    origin, where F-beta is 0 for every beta, though precision is 0 / 0)."""
    if n_pos == 0:
        return np.full(np.shape(tp), np.nan)
    with np.errstate(invalid="ignore"):  # 0 / 0 at the origin where b^2 underflows to 0
        f = f_beta(tp, fp, n_pos, beta)
    return np.where(tp > 0, f, 0.0)


def f_beta_curve_of(curve, beta):
    """The :class:`FBetaCurve` of a :class:`fastpr.PRCurve` (beta checked)."""
    f = f_beta_from_counts(curve.tp, curve.fp, curve.n_pos, beta)
    return FBetaCurve(curve.recall, curve.precision, curve.thresholds, f, beta)


def max_f_beta_of(curve, beta):
    """The :class:`MaxFBeta` of a :class:`fastpr.PRCurve` (beta checked): the first maximum,
    that is at the highest threshold, as the points run from the highest threshold down."""
    if curve.n_pos == 0:
        return MaxFBeta(np.nan, np.nan, np.nan, np.nan, beta)
    f = f_beta_curve_of(curve, beta).f
    best = int(np.argmax(f))
    return MaxFBeta(float(f[best]), float(curve.recall[best]), float(curve.precision[best]),
                    float(curve.thresholds[best]), beta)


@options(f=Interval(0, 1, closed="neither"), beta=BETA, n_points=Integer(minimum=2))
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
    # (1 + b^2) r - b^2 f written as (1 + b^2) (r - start) + f start: no cancellation near
    # the start. For b > 1 everything divided through by b^2, which then cannot overflow; where
    # b^2 underflows (b < 1e-162), F is precision, and the line starts at recall 0.
    if beta <= 1.0:
        b2 = beta * beta
        start = b2 * f / (1.0 + b2 - f)
        scale, top = 1.0 + b2, f
    else:
        inverse = (1.0 / beta) ** 2
        start = f / (1.0 + inverse * (1.0 - f))
        scale, top = 1.0 + inverse, inverse * f
    recall = np.linspace(start, 1.0, n_points)
    with np.errstate(invalid="ignore"):  # 0 / 0 at the start where b^2 or 1 / b^2 underflows
        precision = np.minimum(top * recall / (scale * (recall - start) + top * start), 1.0)
    precision[0] = 1.0
    return recall, precision
