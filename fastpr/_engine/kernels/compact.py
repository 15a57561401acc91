"""The compacted state of fastpr.Accumulator: distinct scores ascending with each class's weight.

Preconditions (checked by the API, not here): scores hold no NaN and are sorted ascending;
weights are finite and >= 0, an empty weight array meaning unit weights. ``compact_into``
writes float64; ``merge_into`` writes the inputs' weight type (float64 or int64).
Scores that compare equal (-0.0 and 0.0) are one entry, stored as +0.0; an entry whose weights
are both 0 is dropped, as the sweep drops a threshold whose examples all weigh 0.
"""
import numpy as np

from ..jit import jit
from .walk import UP, tie_step


@jit
def compact_into(pos, pos_w, neg, neg_w, scores, pos_out, neg_out):
    """Merge-walk both classes upwards into the outputs (room for every score of both classes);
    returns the number of entries written."""
    i = j = np.int64(0)
    n = 0
    while i < pos.size or j < neg.size:
        threshold, taken_pos, i, taken_neg, j = tie_step(pos, pos_w, neg, neg_w, i, j, UP)
        if taken_pos == 0.0 and taken_neg == 0.0:
            continue
        scores[n] = threshold + 0.0  # -0.0 + 0.0 is +0.0
        pos_out[n] = taken_pos
        neg_out[n] = taken_neg
        n += 1
    return n


@jit
def merge_into(scores_a, pos_a, neg_a, scores_b, pos_b, neg_b, scores, pos, neg):
    """Merge two compacted states into the outputs (room for both); returns the entry count.

    Weights of equal scores add up, in the weights' own type: float64, or int64 for the exact
    counts of ``fastpr.Accumulator`` (whose totals the caller keeps below 2^63). The loop is
    branch-free (each step takes the smaller head, or both when equal, by arithmetic on the
    comparison): states from different partitions interleave at random, where a branch would
    mispredict at every other step.
    """
    i = 0
    j = 0
    n = 0
    while i < scores_a.size and j < scores_b.size:
        a = scores_a[i]
        b = scores_b[j]
        take_a = a <= b
        take_b = b <= a
        scores[n] = a if take_a else b
        # A weight times a bool is itself or 0 of its own type (finite weights): no float
        # detour for int64 counts.
        pos[n] = pos_a[i] * take_a + pos_b[j] * take_b
        neg[n] = neg_a[i] * take_a + neg_b[j] * take_b
        i += take_a
        j += take_b
        n += 1
    for k in range(i, scores_a.size):
        scores[n], pos[n], neg[n] = scores_a[k], pos_a[k], neg_a[k]
        n += 1
    for k in range(j, scores_b.size):
        scores[n], pos[n], neg[n] = scores_b[k], pos_b[k], neg_b[k]
        n += 1
    return n
