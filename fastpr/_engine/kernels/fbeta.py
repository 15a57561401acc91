"""The F-measure from counts: one formula for the kernels and the API."""
from ..jit import shared


@shared
def f_beta(tp, fp, n_pos, b2):
    """``(1 + b^2) TP / ((1 + b^2) TP + b^2 FN + FP)`` with ``FN = P - TP`` folded into the sum
    and ``b2`` = beta squared; scalars or NumPy arrays of counts."""
    return (1.0 + b2) * tp / (tp + fp + b2 * n_pos)
