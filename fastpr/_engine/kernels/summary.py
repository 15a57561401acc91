"""Normalise the sweep's running sums into areas."""
import numpy as np

from ..jit import helper, shared
from . import layout
from . import sweep as _sweep

# Positions in the summary vector: the areas of a row (``layout``), in its order.
(AUC_ROC, AUC_ROC_HULL, INTERPOLATED, DAVIS_GOADRICH, AVERAGE_PRECISION, LOWER_TRAPEZOID,
 UPPER_TRAPEZOID, LINEAR, HULL) = (column - layout.FIRST_AREA for column in (
     layout.AUC_ROC, layout.AUC_ROC_HULL, layout.AUC_PR, layout.AUC_PR_DG,
     layout.AVERAGE_PRECISION, layout.AUC_PR_LOWER, layout.AUC_PR_UPPER, layout.AUC_PR_LINEAR,
     layout.AUC_PR_HULL))
N_SUMMARY = layout.N_SUMMARY
# The largest ratio of the class totals at which areas are reported. The sweep's terms in PR
# areas are about P^2 / N in its units (the worst ranking's area is about P / 2N), so when the
# positives are the lighter class they reach the smallest doubles at a ratio near 2**640; one
# limit either way, well inside that, keeps every area to full relative precision.
MAX_CLASS_RATIO = 2.0**600
_INVERSE_RATIO = 1.0 / MAX_CLASS_RATIO  # multiplying by it cannot overflow


@shared
def too_far_apart(n_pos, n_neg):
    """Where both classes weigh something and one more than MAX_CLASS_RATIO times the other (in
    any common units; scalars or arrays)."""
    return (n_pos > 0.0) & (n_neg > 0.0) & ((n_pos < n_neg * _INVERSE_RATIO)
                                            | (n_neg < n_pos * _INVERSE_RATIO))


@helper
def summarise_into(stats, out):
    """Write the areas from the statistics of ``sweep`` into ``out[:N_SUMMARY]``: NaN where a
    missing class leaves them undefined, and all NaN where the class totals differ by more than
    ``MAX_CLASS_RATIO``.

    Writing into a slice of the caller's row, rather than assigning a new array to that slice:
    numba compiles an array-to-array slice assignment with its shape-error reporting, which costs
    seconds of compile time once per process.
    """
    n_pos = stats[_sweep.TP]  # the totals in the sweep's units, like the sums
    n_neg = stats[_sweep.FP]
    if too_far_apart(n_pos, n_neg):
        n_pos = n_neg = 0.0
    pr_scale = n_pos if n_pos > 0.0 else np.nan
    roc_scale = 2.0 * n_pos * n_neg if n_pos > 0.0 and n_neg > 0.0 else np.nan
    out[AUC_ROC] = stats[_sweep.ROC2] / roc_scale
    out[AUC_ROC_HULL] = stats[_sweep.HULL_ROC2] / roc_scale
    out[INTERPOLATED] = stats[_sweep.INTERPOLATED] / pr_scale
    out[DAVIS_GOADRICH] = stats[_sweep.DAVIS_GOADRICH] / pr_scale
    out[AVERAGE_PRECISION] = stats[_sweep.AVERAGE_PRECISION] / pr_scale
    out[LOWER_TRAPEZOID] = stats[_sweep.LOWER2] / (2.0 * pr_scale)
    out[UPPER_TRAPEZOID] = stats[_sweep.UPPER2] / (2.0 * pr_scale)
    # Both join the last point of one recall to the first point of the next.
    out[LINEAR] = out[LOWER_TRAPEZOID]
    out[HULL] = stats[_sweep.HULL_INTERPOLATED] / pr_scale
    # Every area lies in [0, 1]; rounding can carry a sum an ulp or two past an end.
    for k in range(N_SUMMARY):
        if out[k] > 1.0:
            out[k] = 1.0
        elif out[k] < 0.0:
            out[k] = 0.0
