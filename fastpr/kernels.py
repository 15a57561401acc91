"""Compiled entry points for callers inside their own ``@numba.njit`` code: every area of one
ranking at once, with no Python overhead when called from jitted code (and callable from Python
too). The learners' kernels (the change of AP for a swap, LambdaMART's sums and gradients) are
in :mod:`fastpr.learn.kernels`.

``summary(y_true, y_score, sample_weight)`` checks only what costs little next to its own work,
raising ``ValueError`` that names the argument and the first position at fault: the lengths of
the arrays (numba does not check indices, so an array too short would be read past its end), NaN
among the scores, and weights that are NaN, negative or infinite. The rest is the caller's to
ensure:

- ``y_true``: 1-D bool array (True = positive);
- ``y_score``: 1-D float64 or float32 array of the same length;
- ``sample_weight``: 1-D float64 array of finite weights >= 0, or an empty float64 array for
  unit weights.

It returns every area at once; index it with the constants below. Undefined areas (no
positives, or no negatives for AUC-ROC) are NaN. It sorts each class with a radix sort written
for this, or, for a large unweighted class, as :func:`fastpr.evaluate` sorts (NumPy's sort,
reached through ``numba.objmode``: that block holds the GIL, so threads that call ``summary`` at
once take turns for it).

Examples
--------
>>> import numba
>>> import numpy as np
>>> from fastpr import kernels
>>> @numba.njit
... def best_of(y_true, candidate_scores):
...     no_weights = np.empty(0)
...     best = 0.0
...     for k in range(candidate_scores.shape[0]):
...         area = kernels.summary(y_true, candidate_scores[k], no_weights)[kernels.INTERPOLATED]
...         best = max(best, area)
...     return best
>>> y = np.array([True, False, True, False])
>>> round(best_of(y, np.array([[0.9, 0.1, 0.8, 0.2], [0.1, 0.9, 0.2, 0.8]])), 6)
1.0
"""
from ._engine.kernels.rows import summary
from ._engine.kernels.summary import (
    AUC_ROC,
    AUC_ROC_HULL,
    AVERAGE_PRECISION,
    DAVIS_GOADRICH,
    HULL,
    INTERPOLATED,
    LINEAR,
    LOWER_TRAPEZOID,
    UPPER_TRAPEZOID,
)

__all__ = [
    "AUC_ROC",
    "AUC_ROC_HULL",
    "AVERAGE_PRECISION",
    "DAVIS_GOADRICH",
    "HULL",
    "INTERPOLATED",
    "LINEAR",
    "LOWER_TRAPEZOID",
    "UPPER_TRAPEZOID",
    "summary",
]
