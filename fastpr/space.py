"""Relations between ROC and PR space (SPEC sections 4 and 6)."""
import math

from ._kernels.area import log1p_excess


def interpolated_auc_pr_min(n_pos, n_neg):
    """Interpolated AUC-PR of the worst ranking: ``1 + (1 - pi) ln(1 - pi) / pi``.

    With ``x = P / N`` this is ``(x - log1p(x)) / x``, evaluated without cancellation even at
    extreme skew. Every segment of the worst ranking has local skew 0, so the finite-count area
    equals the closed form exactly. NaN when there are no positives.

    >>> round(interpolated_auc_pr_min(1, 9), 4)    # prevalence 0.1
    0.0518
    >>> round(interpolated_auc_pr_min(1, 1), 4)    # prevalence 0.5
    0.3069
    """
    if n_pos <= 0:
        return math.nan
    if n_neg == 0:
        return 1.0
    x = n_pos / n_neg
    return log1p_excess(x) / x
