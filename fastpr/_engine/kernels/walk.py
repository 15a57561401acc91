"""The walk over a ranking's two classes, each sorted ascending, threshold by threshold: every
score equal to the threshold is taken from both classes at once, so ties come out right by
construction. The sweeps, compaction, DeLong's placements and the gap bins all walk with these
steps: ``tie_step`` (the next threshold of either class), ``ties`` (one class at a threshold where
the other has none) and ``beyond`` (a stretch of one class beyond the other's next score: a tight
loop, where stepping threshold by threshold would mispredict a branch at every class change).

A walk goes ``DOWN`` from the top (indices from the last to -1) or ``UP`` from the bottom (from 0
to the size; start at ``np.int64(0)``, as for a literal 0 numba compiles the steps once more),
and sums a tie's weights in that order. Empty weights are unit weights: a tie counts its scores.
"""
from ..jit import helper, jit

DOWN, UP = -1, 1


@jit(inline="always")
def ties(scores, weights, i, threshold, step):
    """(weight of the scores equal to ``threshold`` from ``scores[i]`` on in direction ``step``,
    the index past them)."""
    unit = weights.size == 0
    taken = 0.0
    # (i >= 0 spelled out, not i != -1: it spares numba's check for negative indices)
    while (i >= 0 if step < 0 else i < scores.size) and scores[i] == threshold:
        taken += 1.0 if unit else weights[i]
        i += step
    return taken, i


@jit(inline="always")
def tie_step(pos, pos_w, neg, neg_w, i, j, step):
    """One threshold of the walk whose next scores are ``pos[i]`` and ``neg[j]`` (an index past
    the end: none left): (threshold, positive weight, new i, negative weight, new j), where the
    threshold is the next score of either class in direction ``step``."""
    if step < 0:
        first_pos = j < 0 or (i >= 0 and pos[i] >= neg[j])
    else:
        first_pos = j == neg.size or (i < pos.size and pos[i] <= neg[j])
    threshold = pos[i] if first_pos else neg[j]
    taken_pos, i = ties(pos, pos_w, i, threshold, step)
    taken_neg, j = ties(neg, neg_w, j, threshold, step)
    return threshold, taken_pos, i, taken_neg, j


@jit(inline="always")
def beyond(scores, i, bound, step):
    """The index past the scores from ``scores[i]`` on, in direction ``step``, that lie strictly
    beyond ``bound`` (above it walking down, below it walking up)."""
    if step < 0:
        while i >= 0 and scores[i] > bound:
            i -= 1
    else:
        while i < scores.size and scores[i] < bound:
            i += 1
    return i


# The same steps as helpers, compiled once and called: inlined, they buy compaction its speed
# (twice that of the called steps) but cost the other walks compile time at first use for no
# measurable speed.
ties_helper, tie_step_helper, beyond_helper = (helper(getattr(step, "py_func", step))
                                               for step in (ties, tie_step, beyond))
