"""Gap bins: the sorted negatives cut where a positive score separates them.

A bin is a maximal run of sorted negatives that lie strictly between the same two consecutive
distinct positive scores, or that tie with the same positive score. Within a bin tp is constant,
so the sweep's points there share one recall: they add nothing to any PR area or to the ROC hull,
their ROC area is their total weight times that tp, and the first point at that recall (the
highest precision there, which the trapezoid estimators and the best F1 use) and the last (where
the next rise starts) are kept when the bin's negatives become one threshold of their total
weight. So with unit weights, sweeping the positives against the bins' totals gives every area,
the class totals and the best F1 of the full sweep, from O(P) entries instead of O(n): a
bootstrap replicate then needs only the positives' counts and the bins' totals.
"""
import numpy as np

from ..jit import jit
from .walk import UP
from .walk import beyond_helper as beyond
from .walk import tie_step_helper as tie_step


@jit
def gap_bin_starts(pos, neg):
    """Where each bin of ``neg`` starts, then ``neg.size``: positions in the sorted negatives.

    Both classes sorted ascending. A negative's bin is 2 i, with i the number of positives
    below it, plus 1 when it ties with the next positive: non-decreasing along ``neg``, and the
    same for two negatives exactly when they share a bin.
    """
    starts = np.empty(neg.size + 1, dtype=np.int64)
    no_weights = np.empty(0)
    n_bins = 0
    i = j = np.int64(0)
    while j < neg.size:
        first = j
        if i == pos.size:  # above every positive: one bin
            j = neg.size
        else:  # below the next positive score, then tied with it
            j = beyond(neg, j, pos[i], UP)
            if j == first:
                _, _, i, _, j = tie_step(pos, no_weights, neg, no_weights, i, j, UP)
        if j > first:
            starts[n_bins] = first
            n_bins += 1
    starts[n_bins] = neg.size
    return starts[: n_bins + 1].copy()
