"""ROC space and PR space hold the same operating points (Davis & Goadrich 2006).

With the class totals P and N fixed, a point with recall > 0 determines its confusion matrix, so a
ROC point maps to one PR point and back (Theorem 3.1), and one curve dominates another in ROC
space exactly when it does in PR space (Theorem 3.2), provided each space interpolates correctly:
straight lines in ROC space, hyperbolas (fp linear in tp) in PR space (docs/math/hull.rst).
"""
import numpy as np

from . import _validation
from ._validation import Interval, OneOf, options
from .curves import PRCurve, ROCCurve, pr_curve_from_counts, roc_curve_from_counts
from .exceptions import InputTypeError, InputValueError

_SPACES = ("roc", "pr")
# Class totals of points given without their curve (a curve carries its own).
_CLASS_TOTAL = Interval(0, None, closed="neither")


def roc_to_pr(fpr, tpr=None, *, n_pos=None, n_neg=None):
    """Map ROC points (or a whole ROC curve) to PR space.

    ``recall = tpr`` and ``precision = tpr P / (tpr P + fpr N)``.

    Parameters
    ----------
    fpr : float, array-like, or a ROC curve
        False-positive rates in [0, 1]; or a :class:`ROCCurve` (a curve or a hull), which
        carries its own counts and gives a :class:`PRCurve` (with its conventions at recall 0).
    tpr : float or array-like
        True-positive rates in [0, 1], same shape as ``fpr``.
    n_pos, n_neg : float
        Class totals, both > 0.

    Returns
    -------
    (recall, precision) arrays, or a PRCurve for a curve. Precision at the origin
    (``fpr = tpr = 0``) is undefined and NaN; with ``tpr = 0 < fpr`` it is 0.

    Examples
    --------
    >>> import fastpr
    >>> fastpr.roc_to_pr([0.0025, 0.015], [0.25, 0.5], n_pos=20, n_neg=2000)
    (array([0.25, 0.5 ]), array([0.5 , 0.25]))
    """
    if isinstance(fpr, ROCCurve) and tpr is None:
        curve = fpr
        return pr_curve_from_counts(curve.thresholds, curve.tp, curve.fp)
    fpr, tpr = _validation.rates("fpr", fpr), _validation.rates("tpr", tpr)
    _check_same_shape(fpr=fpr, tpr=tpr)
    n_pos, n_neg = _CLASS_TOTAL.check("n_pos", n_pos), _CLASS_TOTAL.check("n_neg", n_neg)
    # 1 / (1 + FP / TP) with FP / TP = (fpr / tpr) (N / P): TP and FP themselves can overflow
    # or underflow (totals near 1e308 or 1e-300) where the ratios do not.
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        false_per_true = (fpr / tpr) * (n_neg / n_pos)
        precision = np.where(fpr == 0, np.where(tpr == 0, np.nan, 1.0),
                             1.0 / (1.0 + false_per_true))
    return tpr, precision[()]  # (a NumPy scalar for scalar rates, as NumPy divides them)


def pr_to_roc(recall, precision=None, *, n_pos=None, n_neg=None):
    """Map PR points (or a whole PR curve) to ROC space: recover each confusion matrix.

    ``TP = recall P``, ``FP = TP (1 - precision) / precision``, so ``fpr = FP / N``. A point
    with recall 0 has TP = 0 and any FP: it has no unique confusion matrix and is rejected.

    Parameters
    ----------
    recall : float, array-like, or a PRCurve
        Recalls in (0, 1]; or a :class:`PRCurve`, which carries its counts (its recall-0 points
        included) and gives a :class:`ROCCurve`.
    precision : float or array-like
        Precisions in (0, 1], same shape as ``recall``.
    n_pos, n_neg : float
        Class totals, both > 0; a point implying more false positives than ``n_neg`` is rejected.

    Returns
    -------
    (fpr, tpr) arrays, or a ROCCurve for a curve.

    Examples
    --------
    >>> import fastpr
    >>> fastpr.pr_to_roc([0.25, 0.5], [0.5, 0.25], n_pos=20, n_neg=2000)
    (array([0.0025, 0.015 ]), array([0.25, 0.5 ]))
    """
    if isinstance(recall, PRCurve) and precision is None:
        return roc_curve_from_counts(recall.thresholds, recall.tp, recall.fp)
    recall = _validation.rates("recall", recall, low_inclusive=False)
    precision = _validation.rates("precision", precision, low_inclusive=False)
    _check_same_shape(recall=recall, precision=precision)
    n_pos, n_neg = _CLASS_TOTAL.check("n_pos", n_pos), _CLASS_TOTAL.check("n_neg", n_neg)
    tp = recall * n_pos
    fp = tp * (1.0 - precision) / precision
    _check_at_most_n_neg(fp, n_neg)
    return np.minimum(fp / n_neg, 1.0), recall  # (rounding can carry it just past 1)


def _envelopes(x, y, grid):
    """Lowest and highest y of a monotone polyline at each grid value of x.

    ``x`` and ``y`` never decrease along the polyline; repeated x values form a vertical step, so
    at a step the two differ, elsewhere both are the linear interpolation.
    """
    left = np.searchsorted(x, grid, side="left")
    right = np.searchsorted(x, grid, side="right")
    on_point = right > left
    before = np.clip(left - 1, 0, x.size - 1)
    after = np.clip(left, 0, x.size - 1)
    span = x[after] - x[before]
    with np.errstate(invalid="ignore", divide="ignore"):
        t = np.where(span > 0, (grid - x[before]) / span, 0.0)
    between = y[before] + t * (y[after] - y[before])
    low = np.where(on_point, y[np.clip(left, 0, x.size - 1)], between)
    high = np.where(on_point, y[np.clip(right - 1, 0, x.size - 1)], between)
    return low, high


def _roc_dominates(a, b, tolerance):
    """Everywhere on the fpr axis, a's tpr (the bottom and top of any vertical step) >= b's."""
    fpr_a, tpr_a = a.fp / a.n_neg, a.tp / a.n_pos
    fpr_b, tpr_b = b.fp / b.n_neg, b.tp / b.n_pos
    grid = np.union1d(fpr_a, fpr_b)
    low_a, high_a = _envelopes(fpr_a, tpr_a, grid)
    low_b, high_b = _envelopes(fpr_b, tpr_b, grid)
    return bool(np.all(low_a >= low_b - tolerance) and np.all(high_a >= high_b - tolerance))


def _pr_dominates(a, b, tolerance):
    """Everywhere on the recall axis, a's precision (both ends of any drop) >= b's.

    Along a segment fp / P is linear in recall, so precision ``r / (r + fp / P)`` follows the
    hyperbola of docs/math/interpolation.rst; at each recall of either curve both ends of a drop
    are compared, which covers the segments in between. At recall 0 precision is a limit that
    fp / P decides.
    """
    recall_a, excess_a = a.tp / a.n_pos, a.fp / a.n_pos
    recall_b, excess_b = b.tp / b.n_pos, b.fp / b.n_pos
    grid = np.union1d(recall_a, recall_b)
    # Along a drop fp grows, so the lowest fp at a recall is its highest precision.
    top_a, bottom_a = _envelopes(recall_a, excess_a, grid)
    top_b, bottom_b = _envelopes(recall_b, excess_b, grid)
    positive = grid > 0
    at_zero = ~positive
    if np.any(top_a[at_zero] > top_b[at_zero] + tolerance) or np.any(
            bottom_a[at_zero] > bottom_b[at_zero] + tolerance):
        return False
    r = grid[positive]
    for fp_a, fp_b in ((top_a, top_b), (bottom_a, bottom_b)):
        precision_a = r / (r + fp_a[positive])
        precision_b = r / (r + fp_b[positive])
        if np.any(precision_a < precision_b - tolerance):
            return False
    return True


@options(space=OneOf(_SPACES), tolerance=Interval(0, None, closed="left"))
def dominates(curve_a, curve_b, *, space="roc", tolerance=1e-12):
    """Whether ``curve_a`` is nowhere below ``curve_b`` (Davis & Goadrich 2006, Theorem 3.2).

    Parameters
    ----------
    curve_a, curve_b : ROCCurve or PRCurve
        Curves from :func:`fastpr.roc_points`, :func:`fastpr.roc_convex_hull` or
        :func:`fastpr.pr_curve`; each carries its counts, so any of them can be compared in
        either space.
    space : {"roc", "pr"}, default="roc"
        ``"roc"``: tpr against fpr with straight lines between points. ``"pr"``: precision
        against recall with the correct, hyperbolic interpolation. For curves over the same
        P and N the two answers agree (Theorem 3.2); linear interpolation in PR space would
        break that.
    tolerance : float, default=1e-12
        Absolute slack on rates and precisions, for rounding in the interpolation.

    Returns
    -------
    bool
        True also when the curves coincide.

    Examples
    --------
    >>> import fastpr
    >>> y = [1, 0, 1, 0, 0]
    >>> better = fastpr.roc_points(y, [0.9, 0.8, 0.7, 0.2, 0.1])
    >>> worse = fastpr.roc_points(y, [0.9, 0.8, 0.1, 0.2, 0.7])
    >>> fastpr.dominates(better, worse), fastpr.dominates(worse, better, space="pr")
    (True, False)
    """
    for name, curve in (("curve_a", curve_a), ("curve_b", curve_b)):
        _check_curve(name, curve)
    check = _roc_dominates if space == "roc" else _pr_dominates
    return check(curve_a, curve_b, tolerance)


# ----------------------------------------------------------------------------- input checks
def _check_same_shape(**arrays):
    (name_a, a), (name_b, b) = arrays.items()
    if a.shape != b.shape:
        raise InputValueError("{other} and {argument} have different shapes: {shape_a} and "
                              "{shape_b}.", argument=name_b, other=name_a, shape_a=a.shape,
                              shape_b=b.shape)


def _check_at_most_n_neg(fp, n_neg):
    """The false positives that precision implies must not exceed n_neg (with rounding slack)."""
    _validation.refuse_first(fp > n_neg * (1 + 1e-12), "precision", fp,
                             "false positives implied by {argument} is {value}"
                             + (" at {where}" if fp.ndim else "") + ", more than n_neg = "
                             "{n_neg}.", n_neg=n_neg)


def _check_curve(name, curve):
    """A curve object carrying counts, with both classes present."""
    if not all(hasattr(curve, field) for field in ("tp", "fp", "n_pos", "n_neg")):
        raise InputTypeError("{argument} must be a curve from fastpr.roc_points, fastpr.pr_curve "
                             "or fastpr.roc_convex_hull, got {kind}.", argument=name,
                             kind=type(curve).__name__)
    if not (curve.n_pos > 0 and curve.n_neg > 0):
        raise InputValueError("{argument} needs positives and negatives, got n_pos = {n_pos} and "
                              "n_neg = {n_neg}.", argument=name, n_pos=curve.n_pos,
                              n_neg=curve.n_neg)
