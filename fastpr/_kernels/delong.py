"""DeLong's placement values for AUC-ROC in one merge pass (DeLong et al. 1988; Sun & Xu 2014).

The placement of a positive is the fraction of negatives scored below it (ties count 1/2); the
placement of a negative is the fraction of positives scored above it. AUC-ROC is the mean of
either, and the variances of the two sets give the variance of the AUC. Inputs are each class's
scores sorted ascending, unweighted, no NaN.
"""
import numpy as np

from .._jit import jit


@jit
def placements(pos, neg):
    """(positive placements, negative placements), in the sorted order of each class."""
    n_pos, n_neg = pos.size, neg.size
    of_pos = np.empty(n_pos)
    of_neg = np.empty(n_neg)
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
        while i < n_pos and pos[i] == value:
            of_pos[i] = placement
            i += 1
    j = n_neg - 1
    lower = n_pos  # positives at indices >= lower score above the current negative
    while j >= 0:
        value = neg[j]
        while lower > 0 and pos[lower - 1] > value:
            lower -= 1
        equal = lower
        while equal > 0 and pos[equal - 1] == value:
            equal -= 1
        placement = ((n_pos - lower) + 0.5 * (lower - equal)) / n_pos
        while j >= 0 and neg[j] == value:
            of_neg[j] = placement
            j -= 1
    return of_pos, of_neg
