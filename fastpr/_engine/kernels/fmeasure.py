"""The F-measure of operating points from their counts: one formula for the kernels and the API."""
import math

from ..jit import jit, shared


@shared
def f_beta(tp, fp, n_pos, beta):
    """``(1 + b^2) TP / ((1 + b^2) TP + b^2 FN + FP)``, FN = P - TP folded into the sum
    (scalars or arrays; P > 0). For b > 1 divided through by b^2, so that b^2 neither overflows
    nor underflows for any finite b > 0: F then tends to recall, as for b < 1 to precision.
    Where b^2 and 1 + b^2 are exact (b = 1/2, 1, 2, ...), equal F of whole counts are equal."""
    if beta <= 1.0:
        b2 = beta * beta
        return (1.0 + b2) * tp / (tp + fp + b2 * n_pos)
    inverse = (1.0 / beta) ** 2
    return (1.0 + inverse) * tp / (inverse * (tp + fp) + n_pos)


@jit
def max_f1(points, n_points, n_pos):
    """Best F1 over the first ``n_points`` operating points (tp row 1, fp row 2 of ``points``);
    NaN without positives, as F1 is undefined there."""
    if n_pos == 0.0:
        return math.nan
    best = 0.0
    for k in range(n_points):
        f1 = f_beta(points[1, k], points[2, k], n_pos, 1.0)
        best = f1 if f1 > best else best  # max(best, f1), which numba compiles a function for
    return best
