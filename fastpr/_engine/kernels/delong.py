"""DeLong's placement values for AUC-ROC in one merge pass (DeLong et al. 1988; Sun & Xu 2014).

The placement of a positive is the fraction of negatives scored below it (ties count 1/2); the
placement of a negative is the fraction of positives scored above it. AUC-ROC is the mean of
either, and the variances of the two sets give the variance of the AUC. Inputs are each class's
scores sorted ascending, unweighted, no NaN.
"""
import numpy as np

from ..jit import jit


@jit(inline="always")
def _add(moments, k, placement, count):
    """Accumulate ``count`` copies of a placement, centred at 1/2 against cancellation."""
    centred = placement - 0.5
    moments[k] += count * centred
    moments[k + 1] += count * centred * centred


@jit
def placements(pos, neg, of_pos, of_neg):
    """Mean and sample variance of each class's placements: (mean_pos, var_pos, mean_neg,
    var_neg). Each placement is also written to ``of_pos`` / ``of_neg`` (sorted order) unless
    that output is empty; a single AUC needs only the moments, paired tests need the values."""
    n_pos, n_neg = pos.size, neg.size
    moments = np.zeros(4)
    below = 0  # negatives strictly below the current positive
    i = 0
    while i < n_pos:
        value = pos[i]
        while below < n_neg and neg[below] < value:
            below += 1
        equal = below
        while equal < n_neg and neg[equal] == value:
            equal += 1
        placement = (below + 0.5 * (equal - below)) / n_neg
        start = i
        while i < n_pos and pos[i] == value:
            i += 1
        _add(moments, 0, placement, i - start)
        if of_pos.size:
            of_pos[start:i] = placement
    lower = n_pos  # positives at indices >= lower score above the current negative
    j = n_neg - 1
    while j >= 0:
        value = neg[j]
        while lower > 0 and pos[lower - 1] > value:
            lower -= 1
        equal = lower
        while equal > 0 and pos[equal - 1] == value:
            equal -= 1
        placement = ((n_pos - lower) + 0.5 * (lower - equal)) / n_pos
        end = j
        while j >= 0 and neg[j] == value:
            j -= 1
        _add(moments, 2, placement, end - j)
        if of_neg.size:
            of_neg[j + 1:end + 1] = placement
    out = np.empty(4)
    for k, n in ((0, n_pos), (2, n_neg)):
        mean_centred = moments[k] / n
        out[k] = 0.5 + mean_centred
        out[k + 1] = (moments[k + 1] - n * mean_centred * mean_centred) / (n - 1) if n > 1 else 0.0
    return out
