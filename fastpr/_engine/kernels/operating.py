"""Operating points under a constraint (docs/math/operating.rst): the best rate at a single
threshold, for the four kinds below.

``points`` are the sweep's operating points (rows threshold, tp, fp; origin first, thresholds
descending, so tp and fp never fall), ``n_points`` of them valid; ``pos_total``/``neg_total``
are P and N. Rates are doubles of the counts, as the curves give them: precision
``tp / (tp + fp)`` (undefined at the origin), recall = TPR ``tp / P``, FPR ``fp / N``, TNR
``(N - fp) / N``; a level is met where that double is >= (<= for FPR) the level.

Along a run of equal tp, fp rises and so precision and TNR fall: the run's first point is best
for every kind. So the value depends only on the points where tp rises (and the first point),
and is the same when the negatives between two positives arrive as one column (gap bins).

Among the thresholds that reach the best value, :func:`best_indices` picks the one with the
best other rate of the pair (precision for recall at a precision, recall for precision at a
recall, FPR for TPR at an FPR, TPR for TNR at a TPR), then the highest threshold.
"""
import math

import numpy as np

from ..jit import jit

RECALL_AT_PRECISION = 0  # the best recall with precision >= level
PRECISION_AT_RECALL = 1  # the best precision with recall >= level
TPR_AT_FPR = 2  # the best TPR with FPR <= level
TNR_AT_TPR = 3  # the best TNR with TPR >= level


@jit
def best_value(points, n_points, pos_total, neg_total, kind, level):
    """The best rate of ``kind`` at a single threshold whose constraint rate meets ``level``;
    NaN where none does, without positives, or (TPR at FPR, TNR at TPR) without negatives.
    One pass over the points."""
    if pos_total == 0.0 or (kind >= TPR_AT_FPR and neg_total == 0.0):
        return math.nan
    best = -1.0
    for k in range(n_points):
        tp = points[1, k]
        fp = points[2, k]
        if kind == RECALL_AT_PRECISION:
            meets = tp + fp > 0.0 and tp / (tp + fp) >= level
            value = tp / pos_total
        elif kind == PRECISION_AT_RECALL:
            meets = tp + fp > 0.0 and tp / pos_total >= level
            value = tp / (tp + fp)
        elif kind == TPR_AT_FPR:
            meets = fp / neg_total <= level
            value = tp / pos_total
        else:
            meets = tp / pos_total >= level
            value = (neg_total - fp) / neg_total
        if meets and value > best:
            best = value
    return best if best >= 0.0 else math.nan


@jit(inline="always")
def _step_back(points, k, best, arg):
    """The best precision and its point among points k .. after taking point k into the best
    (``best``, ``arg``) of the points after it: ties go to the higher recall, then the higher
    threshold."""
    tp = points[1, k]
    fp = points[2, k]
    if tp + fp > 0.0:
        precision = tp / (tp + fp)
        # Going back, tp never rises: an equal precision at an equal tp is the same point at a
        # higher threshold; at a lower tp it loses to the higher recall.
        if precision > best or (precision == best and tp == points[1, arg]):
            return precision, k
    return best, arg


@jit
def precision_suffix(points, n_points, out):
    """``out[k]``: the point of best precision among points k .. n_points - 1 (ties: the higher
    recall, then the higher threshold), -1 where none has a precision (only the origin). One
    pass from the end; it serves every query of precision at a recall, and of recall at a
    precision, by binary search."""
    arg = -1
    best = -1.0
    for k in range(n_points - 1, -1, -1):
        best, arg = _step_back(points, k, best, arg)
        out[k] = arg


@jit(inline="always")
def _first_reaching(points, n_points, row, total, level):
    """The first k with ``points[row, k] / total >= level`` (rows that never fall), n_points
    where none does."""
    low, high = 0, n_points
    while low < high:
        middle = (low + high) // 2
        if points[row, middle] / total >= level:
            high = middle
        else:
            low = middle + 1
    return low


@jit(inline="always")
def _run_start(points, k):
    """The first point of the run of equal tp that holds point k."""
    low, high = 0, k
    tp = points[1, k]
    while low < high:
        middle = (low + high) // 2
        if points[1, middle] >= tp:
            high = middle
        else:
            low = middle + 1
    return low


@jit(inline="always")
def _precision_of(points, k):
    return points[1, k] / (points[1, k] + points[2, k])


@jit
def best_indices(points, n_points, pos_total, neg_total, kind, levels, suffix, out):
    """``out[i]``: the point that :func:`best_value` finds for ``levels[i]`` (ties broken as the
    module says), -1 where it is NaN. ``suffix``: :func:`precision_suffix` of the points (for
    the two kinds with precision; any array for the others). O(log n) per level."""
    undefined = pos_total == 0.0 or (kind >= TPR_AT_FPR and neg_total == 0.0)
    for i in range(levels.size):
        level = levels[i]
        found = -1
        if undefined:
            pass
        elif kind == RECALL_AT_PRECISION:
            # The last k whose suffix reaches the level: the best recall that meets it.
            low, high = 0, n_points
            while low < high:
                middle = (low + high) // 2
                arg = suffix[middle]
                if arg >= 0 and _precision_of(points, arg) >= level:
                    low = middle + 1
                else:
                    high = middle
            if low > 0:
                found = _run_start(points, low - 1)
        elif kind == PRECISION_AT_RECALL:
            first = _first_reaching(points, n_points, 1, pos_total, level)
            if first < n_points:
                found = suffix[first]
        elif kind == TPR_AT_FPR:
            # The last k with fp / N <= level (fp never falls; the origin always meets it).
            low, high = 0, n_points
            while low < high:
                middle = (low + high) // 2
                if points[2, middle] / neg_total <= level:
                    low = middle + 1
                else:
                    high = middle
            found = _run_start(points, low - 1)
        else:
            first = _first_reaching(points, n_points, 1, pos_total, level)
            if first < n_points:
                # The last point of equal fp: the highest TPR at that TNR.
                low, high = first, n_points - 1
                while low < high:
                    middle = (low + high + 1) // 2
                    if points[2, middle] <= points[2, first]:
                        low = middle
                    else:
                        high = middle - 1
                found = low
        out[i] = found


@jit
def best_indices_in_one_pass(points, n_points, pos_total, neg_total, kind, levels, out):
    """:func:`best_indices` without a suffix to keep: for the two kinds with precision, one pass
    from the end answers every level as the suffix's best precision grows (O(n + L log L) for
    L levels, and no O(n) buffer); the others by binary search."""
    if kind >= TPR_AT_FPR:
        no_suffix = np.empty(0, dtype=np.int64)
        best_indices(points, n_points, pos_total, neg_total, kind, levels, no_suffix, out)
        return
    for i in range(levels.size):
        out[i] = -1
    if pos_total == 0.0:
        return
    if kind == RECALL_AT_PRECISION:
        # The first point from the end whose suffix reaches a level is the last point that
        # reaches it: levels in ascending order are reached in turn.
        order = np.argsort(levels)
        waiting = 0
        starts = np.empty(0, dtype=np.int64)
    else:
        # Each level's answer is the suffix's best where recall first reaches the level: the
        # levels in descending order of that point.
        starts = np.empty(levels.size, dtype=np.int64)
        for i in range(levels.size):
            starts[i] = _first_reaching(points, n_points, 1, pos_total, levels[i])
        order = np.argsort(starts)[::-1]
        waiting = 0
        while waiting < levels.size and starts[order[waiting]] >= n_points:
            waiting += 1  # (recall never reaches them: -1)
    best = -1.0
    arg = -1
    for k in range(n_points - 1, -1, -1):
        if waiting == levels.size:
            break
        best, arg = _step_back(points, k, best, arg)
        if kind == RECALL_AT_PRECISION:
            while waiting < levels.size and arg >= 0 and best >= levels[order[waiting]]:
                out[order[waiting]] = _run_start(points, k)
                waiting += 1
        else:
            while waiting < levels.size and starts[order[waiting]] == k:
                out[order[waiting]] = arg
                waiting += 1

