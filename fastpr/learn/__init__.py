"""AUC-PR inside a learner's loop: exact changes of average precision, LambdaMART gradients and
metrics of labels that stay fixed while the scores change.

- :func:`swap_delta`: how much average precision changes when two examples swap places or one
  moves, O(1) per question after an O(n) preparation.
- :func:`lambda_sums`: for every example, ``|dAP|`` summed over all its opposite-label partners,
  O(n) after the sort.
- :func:`lambdamart_gradients`: gradients and hessians of XGBoost's ``rank:map`` (top-k pairs)
  or over all pairs, in float64.
- :class:`FixedLabels`: labels and groups checked once, then any of fastpr's metrics, the sums
  and the gradients for each new set of scores (boosting rounds, early stopping, search).

Rankings here order examples by descending score with ties in row order (a stable sort, as
XGBoost's), and average precision is that of these positions. ``fastpr.learn.kernels`` has the
same computations for compiled callers.
"""
from .deltas import SwapDelta, swap_delta
from .gradients import lambda_sums, lambdamart_gradients
from .labels import METRICS, FixedLabels

__all__ = [
    "METRICS",
    "FixedLabels",
    "SwapDelta",
    "lambda_sums",
    "lambdamart_gradients",
    "swap_delta",
]
