"""DeLong's placement values for AUC-ROC in one merge pass (DeLong et al. 1988; Sun & Xu 2014).

The placement of a positive is the fraction of negatives scored below it (ties count 1/2); the
placement of a negative is the fraction of positives scored above it. AUC-ROC is the mean of
either, and the variances of the two sets give the variance of the AUC. Inputs are each class's
scores sorted ascending, unweighted, no NaN.
"""
import numpy as np

from ..jit import jit
from .walk import DOWN, UP
from .walk import beyond_helper as beyond
from .walk import tie_step_helper as tie_step


@jit(inline="always")
def _add(moments, k, placement, count):
    """Accumulate ``count`` copies of a placement, centred at 1/2 against cancellation."""
    centred = placement - 0.5
    moments[k] += count * centred
    moments[k + 1] += count * centred * centred


@jit
def placements(pos, neg, of_pos, of_neg):
    """Mean and sample variance of each class's placements: (mean_pos, var_pos, mean_neg,
    var_neg), the positives' summed walking up, the negatives' walking down. Each placement is
    also written to ``of_pos`` / ``of_neg`` (sorted order) unless that output is empty; a single
    AUC needs only the moments, paired tests need the values."""
    n_pos, n_neg = pos.size, neg.size
    moments = np.zeros(4)
    no_weights = moments[:0]
    i = j = np.int64(0)
    while i < n_pos:  # walking up: the negatives below a positive score, then its ties
        start = i
        below = j = beyond(neg, j, pos[i], UP)
        _, count, i, tied, j = tie_step(pos, no_weights, neg, no_weights, i, j, UP)
        placement = (below + 0.5 * tied) / n_neg
        _add(moments, 0, placement, count)
        if of_pos.size:
            of_pos[start:i] = placement
    i, j = n_pos - 1, n_neg - 1
    while j >= 0:  # walking down: the positives above a negative score, then its ties
        end = j
        i = beyond(pos, i, neg[j], DOWN)
        above = n_pos - 1 - i
        _, tied, i, count, j = tie_step(pos, no_weights, neg, no_weights, i, j, DOWN)
        placement = (above + 0.5 * tied) / n_pos
        _add(moments, 2, placement, count)
        if of_neg.size:
            of_neg[j + 1:end + 1] = placement
    out = np.empty(4)
    for k, n in ((0, n_pos), (2, n_neg)):
        mean_centred = moments[k] / n
        out[k] = 0.5 + mean_centred
        out[k + 1] = (moments[k + 1] - n * mean_centred * mean_centred) / (n - 1) if n > 1 else 0.0
    return out
