"""Compiled entry points for callers inside their own ``@numba.njit`` code.

Learners that optimise AUC-PR call it thousands of times per second; these functions run with no
Python overhead when called from jitted code (and work from Python too). They do not validate:

- ``y_true``: 1-D bool array (True = positive);
- ``y_score``: 1-D float64 or float32 array of the same length, no NaN;
- ``sample_weight``: 1-D float64 array of finite weights >= 0, or an empty float64 array for
  unit weights.

They sort each class with a radix sort written for this (NumPy's SIMD sort cannot be called from
compiled code, and numba's quicksort is about 3.5x slower on varied data); for one big ranking
from Python, :func:`fastpr.evaluate` with NumPy's sort is faster. Undefined areas (no positives,
or no negatives for AUC-ROC) are NaN.

``summary`` returns every area at once; index it with the constants below.

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
