"""The F-measure of operating points from their counts: one formula for the kernels and the API."""
import math

from ..jit import jit, shared


@shared
def f_beta(tp, fp, n_pos, beta2):
    """``(1 + b^2) TP / ((1 + b^2) TP + b^2 FN + FP)`` with ``b^2 = beta2``, FN = P - TP folded
    into the sum (scalars or arrays; P > 0)."""
    return (1.0 + beta2) * tp / (tp + fp + beta2 * n_pos)


@jit
def max_f1(points, n_points, n_pos):
    """Best F1 over the first ``n_points`` operating points (tp row 1, fp row 2 of ``points``);
    NaN without positives, as F1 is undefined there."""
    if n_pos == 0.0:
        return math.nan
    best = 0.0
    for k in range(n_points):
        best = max(best, f_beta(points[1, k], points[2, k], n_pos, 1.0))
    return best
