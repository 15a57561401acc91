"""Andrew's monotone chain for the ROC convex hull (docs/math/hull.rst).

Operating points arrive sorted by (fp, tp), so the upper hull is one stack pass: a new point pops
every vertex that it makes a non-right turn (collinear points are dropped). Rows of the stack are
(fp, tp, threshold). The caller owns the stack and grows it when full, so memory follows the hull.
"""
import numpy as np

from ..jit import helper, jit
from .area import interpolated_segment

HULL_COLUMNS = 3


@jit(inline="always")
def push(hull, n, fp, tp, threshold):
    """Add point (fp, tp) to the hull in hull[:n]; returns the new n. Needs n < len(hull)."""
    while n >= 2:
        fp0 = hull[n - 2, 0]
        tp0 = hull[n - 2, 1]
        turn = (hull[n - 1, 0] - fp0) * (tp - tp0) - (hull[n - 1, 1] - tp0) * (fp - fp0)
        if turn < 0.0:
            break
        n -= 1
    hull[n, 0] = fp
    hull[n, 1] = tp
    hull[n, 2] = threshold
    return n + 1


@helper
def grown(hull):
    """A stack of twice the capacity holding the same rows.

    Copied by a loop: a slice assignment of one array to another compiles numba's shape-error
    reporting, seconds of compile time.
    """
    bigger = np.empty((2 * hull.shape[0], HULL_COLUMNS))
    for k in range(hull.shape[0]):
        for c in range(HULL_COLUMNS):
            bigger[k, c] = hull[k, c]
    return bigger


@helper
def hull_areas(hull):
    """(2 x count-space ROC area, interpolated PR area in tp units) along the hull vertices."""
    roc = 0.0
    pr = 0.0
    for k in range(1, hull.shape[0]):
        fp_a, tp_a = hull[k - 1, 0], hull[k - 1, 1]
        fp_b, tp_b = hull[k, 0], hull[k, 1]
        roc += (fp_b - fp_a) * (tp_a + tp_b)
        if tp_b > tp_a:
            pr += interpolated_segment(tp_a, fp_a, tp_b, fp_b)
    return roc, pr


@helper
def upper_hull(rows):
    """Hull vertices of (fp, tp, threshold) rows sorted by (fp, tp), as a stack with room left.

    Returns (stack, count). The hull of a union of point sets is the hull of the union of their
    hulls, so rows may be the concatenated hulls of consecutive stretches of one curve.
    """
    hull = np.empty((rows.shape[0] + 1, HULL_COLUMNS))
    n = 0
    for k in range(rows.shape[0]):
        n = push(hull, n, rows[k, 0], rows[k, 1], rows[k, 2])
    return hull, n
