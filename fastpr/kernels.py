"""Compiled entry points for callers inside their own ``@numba.njit`` code.

Learners that optimise AUC-PR call it thousands of times per second; these functions run with no
Python overhead when called from jitted code (and work from Python too). They check only what
costs little next to their own work, raising ``ValueError``: the lengths of the arrays,
``offsets``, that ``order`` holds row numbers, and NaN among the scores of ``summary``; numba
does not check indices, so an array too short would be read or written past its end. A position
outside the ranking gives ``swap_delta_at`` and ``move_delta_at`` NaN, not an exception. The
rest is the caller's to ensure:

- ``y_true``: 1-D bool array (True = positive);
- ``y_score``: 1-D float64 or float32 array of the same length;
- ``sample_weight``: 1-D float64 array of finite weights >= 0, or an empty float64 array for
  unit weights.

``summary`` costs a sort of each class plus one pass. Once a class has 8,192 values and there
are no weights, it sorts as :func:`fastpr.evaluate` does, through ``numba.objmode``, which holds
the GIL: threads that call ``summary`` at once take turns for that step. Undefined areas (no
positives, or no negatives for AUC-ROC) are NaN.

``summary`` returns every area at once; index it with the constants below.

For learners (see :mod:`fastpr.learn`, which calls the same kernels): a ranking ranks examples by
descending score, ties in row order (a stable sort, as XGBoost's), and many rankings are
segments of a row order: ranking g is rows ``order[offsets[g]:offsets[g + 1]]`` (int64), best
first, with ``offsets`` int64 from 0 to n (``[0, n]`` for one ranking). The kernels take the
labels in that same order, ``ranked_true = y_true[order]`` (bool). Outputs are float64 arrays
of length n indexed by row, written by the kernel; scores here are float64.

- ``descending_order(y_score, order)``: the ranking of one array; ``ranking_order(y_score,
  offsets, order)`` of each segment ``offsets[g]:offsets[g + 1]`` of it.
- ``ap_delta_table(ranked_true, table)``: prepares one ranking in a float64 table of shape
  (n + 1, ``AP_DELTA_COLUMNS``) and returns its average precision; then ``swap_delta_at(table,
  p, q)`` and ``move_delta_at(table, p, q)`` give the change of AP (after minus before) when
  the examples at positions p and q swap, or the example at p moves to q, in O(1).
- ``lambda_sums_into(ranked_true, order, offsets, out)``: ``|dAP|`` summed over each example's
  opposite-label partners in its ranking, written into ``out`` (what
  :func:`fastpr.learn.lambda_sums` returns for labels and scores).
- ``top_k_gradients(ranked_true, y_score, order, offsets, group_scale, k, ranknet,
  score_normalization, query_normalization, grad, hess)`` and ``all_pairs_gradients(
  ranked_true, order, offsets, group_scale, query_normalization, grad, hess)``: LambdaMART
  gradients and hessians of AP as :func:`fastpr.learn.lambdamart_gradients`
  (``group_scale``: a factor per ranking, or an empty array for 1).

Rankings without positives get 0 from the sums and gradients; ``ap_delta_table`` needs one.

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
from ._engine.kernels.ap_deltas import N_COLUMNS as AP_DELTA_COLUMNS
from ._engine.kernels.ap_deltas import fill_table as ap_delta_table
from ._engine.kernels.ap_deltas import move_delta_at, swap_delta_at
from ._engine.kernels.lambdas import all_pairs_gradients, lambda_sums_into, top_k_gradients
from ._engine.kernels.order import descending_order, ranking_order
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
    "AP_DELTA_COLUMNS",
    "AUC_ROC",
    "AUC_ROC_HULL",
    "AVERAGE_PRECISION",
    "DAVIS_GOADRICH",
    "HULL",
    "INTERPOLATED",
    "LINEAR",
    "LOWER_TRAPEZOID",
    "UPPER_TRAPEZOID",
    "all_pairs_gradients",
    "ap_delta_table",
    "descending_order",
    "lambda_sums_into",
    "move_delta_at",
    "ranking_order",
    "summary",
    "swap_delta_at",
    "top_k_gradients",
]
