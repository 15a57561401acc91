"""The compacted state of fastpr.Accumulator: distinct scores ascending with each class's weight.

Preconditions (checked by the API, not here): scores hold no NaN and are sorted ascending;
weights are finite and >= 0, an empty weight array meaning unit weights. Outputs are float64.
Scores that compare equal (-0.0 and 0.0) are one entry, stored as +0.0; an entry whose weights
are both 0 is dropped, as the sweep drops a threshold whose examples all weigh 0.
"""
import numpy as np

from .._jit import jit


@jit(inline="always")
def _take_ties(scores, weights, i, threshold):
    """Consume scores[i ..] equal to threshold from the bottom; returns (weight taken, new i)."""
    unit = weights.size == 0
    taken = 0.0
    while i < scores.size and scores[i] == threshold:
        taken += 1.0 if unit else weights[i]
        i += 1
    return taken, i


@jit
def _compact_into(pos, pos_w, neg, neg_w, scores, pos_out, neg_out):
    """Merge-walk both classes upwards; returns the number of entries (stored if room is given)."""
    store = scores.size > 0
    i = 0
    j = 0
    n = 0
    while i < pos.size or j < neg.size:
        if j == neg.size or (i < pos.size and pos[i] <= neg[j]):
            threshold = pos[i]
        else:
            threshold = neg[j]
        taken_pos, i = _take_ties(pos, pos_w, i, threshold)
        taken_neg, j = _take_ties(neg, neg_w, j, threshold)
        if taken_pos == 0.0 and taken_neg == 0.0:
            continue
        if store:
            scores[n] = threshold + 0.0  # -0.0 + 0.0 is +0.0
            pos_out[n] = taken_pos
            neg_out[n] = taken_neg
        n += 1
    return n


@jit
def compact_classes(pos, pos_w, neg, neg_w):
    """(scores, pos_weight, neg_weight) of one ranking given as each class's sorted scores.

    Two passes (count, then fill) so that heavy ties never allocate more than the result.
    """
    none = np.empty(0)
    n = _compact_into(pos, pos_w, neg, neg_w, none, none, none)
    scores = np.empty(n)
    pos_out = np.empty(n)
    neg_out = np.empty(n)
    _compact_into(pos, pos_w, neg, neg_w, scores, pos_out, neg_out)
    return scores, pos_out, neg_out


@jit
def merge_states(scores_a, pos_a, neg_a, scores_b, pos_b, neg_b):
    """The compacted state holding two compacted states; weights of equal scores add up."""
    size = scores_a.size + scores_b.size
    scores = np.empty(size)
    pos = np.empty(size)
    neg = np.empty(size)
    i = 0
    j = 0
    n = 0
    while i < scores_a.size or j < scores_b.size:
        if j == scores_b.size or (i < scores_a.size and scores_a[i] < scores_b[j]):
            scores[n], pos[n], neg[n] = scores_a[i], pos_a[i], neg_a[i]
            i += 1
        elif i == scores_a.size or scores_b[j] < scores_a[i]:
            scores[n], pos[n], neg[n] = scores_b[j], pos_b[j], neg_b[j]
            j += 1
        else:
            scores[n], pos[n], neg[n] = scores_a[i], pos_a[i] + pos_b[j], neg_a[i] + neg_b[j]
            i += 1
            j += 1
        n += 1
    return scores[:n].copy(), pos[:n].copy(), neg[:n].copy()
