"""The learners' compiled entry points, for callers inside their own ``@numba.njit`` code
(:mod:`fastpr.learn`'s functions call the same kernels; :mod:`fastpr.kernels` has every area of
one ranking).

A learner that optimises AUC-PR calls them thousands of times per second; they run with no
Python overhead from jitted code (and work from Python too). They check only what costs little
next to their own work (one pass over ``order`` and the scores), raising ``ValueError`` that
names the argument and the first position at fault: the lengths of the arrays and ``offsets``
(numba does not check indices, so an array too short would be read or written past its end),
that ``order`` is a permutation of ``range(n)`` (each row written once), NaN among the scores,
``group_scale`` finite and >= 0, and ``k >= 1``. A position outside the ranking gives
``swap_delta_at`` and ``move_delta_at`` NaN (an exception there would cost a loop of queries
most of its speed).

A ranking ranks examples by
descending score, ties in row order (a stable sort, as XGBoost's), and many rankings are
segments of a row order: ranking g is rows ``order[offsets[g]:offsets[g + 1]]`` (int64), best
first, with ``offsets`` int64 from 0 to n (``[0, n]`` for one ranking). The kernels read the
labels in that same order, ``ranked_true = y_true[order]`` (bool), so that they read them in
sequence. Outputs are float64 arrays of length n indexed by row, written by the kernel; scores
here are float64.

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
>>> from fastpr.learn import kernels
>>> @numba.njit
... def best_swap(ranked_true):
...     table = np.empty((ranked_true.size + 1, kernels.AP_DELTA_COLUMNS))
...     kernels.ap_delta_table(ranked_true, table)
...     best, where = -np.inf, (0, 0)
...     for p in range(ranked_true.size):
...         for q in range(p + 1, ranked_true.size):
...             gain = kernels.swap_delta_at(table, p, q)
...             if gain > best:
...                 best, where = gain, (p, q)
...     return best, where

Ranked negative, positive, negative, positive, AP is (1/2 + 2/4) / 2 = 0.5; swapping the first
and the last makes it 1:

>>> best_swap(np.array([False, True, False, True]))
(0.5, (0, 3))
"""
from ._kernels.ap_deltas import N_COLUMNS as AP_DELTA_COLUMNS
from ._kernels.ap_deltas import fill_table as ap_delta_table
from ._kernels.ap_deltas import move_delta_at, swap_delta_at
from ._kernels.lambdas import all_pairs_gradients, lambda_sums_into, top_k_gradients
from ._kernels.order import descending_order, ranking_order

__all__ = [
    "AP_DELTA_COLUMNS",
    "all_pairs_gradients",
    "ap_delta_table",
    "descending_order",
    "lambda_sums_into",
    "move_delta_at",
    "ranking_order",
    "swap_delta_at",
    "top_k_gradients",
]
