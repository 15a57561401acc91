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
from .sweep import in_units, scale_of
from .walk import DOWN
from .walk import beyond_helper as beyond
from .walk import ties_helper as ties

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
    """The first point of the run of equal tp that holds point k (tp never falls; x / 1.0 is
    x exactly)."""
    return _first_reaching(points, k, 1, 1.0, points[1, k])


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


@jit(inline="always")
def _count_below(ascending, value, inclusive):
    """How many of ``ascending`` lie below ``value`` (or at it, if ``inclusive``)."""
    low, high = 0, ascending.size
    while low < high:
        middle = (low + high) // 2
        if ascending[middle] < value or (inclusive and ascending[middle] == value):
            low = middle + 1
        else:
            high = middle
    return low


@jit(inline="always")
def _beats(kind, key, stamp, other, other_stamp):
    """Whether a point beats another for ``kind`` as :func:`best_indices` breaks ties: ``key``
    is (precision, tp) for precision at a recall, (fp, -) for TNR at a TPR; ``stamp`` orders
    the points (later: a lower threshold); ``other_stamp`` is -1 where there is no other."""
    if other_stamp < 0:
        return True
    if kind == PRECISION_AT_RECALL:  # the best precision, then the higher recall, then earlier
        return key[0] > other[0] or (key[0] == other[0] and (
            key[1] > other[1] or (key[1] == other[1] and stamp < other_stamp)))
    if kind == TNR_AT_TPR:  # the lowest fp, then the later point (the higher TPR)
        return key[0] < other[0] or (key[0] == other[0] and stamp > other_stamp)
    return stamp > other_stamp  # the last point that meets the level


@jit
def best_points_in_one_walk(pos, pos_w, neg, neg_w, pos_total, neg_total, kind, levels, out):
    """``out[:, i]``: (threshold, tp, fp) of the point that :func:`best_indices` finds for
    ``levels[i]``, NaN where it finds none, in one walk over a ranking (each class's scores
    sorted ascending, and their weights or empty arrays, as ``sweep`` takes them) that keeps
    none of its points: what a single query needs, without the sweep's O(n) buffer of points.
    ``pos_total`` and ``neg_total`` are the sweep's class totals.

    The walk sums tp and fp as ``sweep`` does, so its points are the sweep's to the bit. A point
    meets the levels up to its rate (from its rate on, for an FPR): in ascending order a prefix
    (suffix) of them, so it competes only in the slot of the last (first) level it meets, and a
    pass over the slots at the end gives each level the best of the slots that meet it.
    O(n log L) for L levels, O(L) memory.
    """
    m = levels.size
    for i in range(m):
        out[0, i] = out[1, i] = out[2, i] = math.nan
    if pos_total == 0.0 or (kind >= TPR_AT_FPR and neg_total == 0.0):
        return
    order = np.argsort(levels)
    ascending = levels[order]
    stamps = np.full(m, -1, dtype=np.int64)
    keys = np.zeros((m, 2))
    chosen = np.empty((m, 3))
    key = np.zeros(2)
    scale = scale_of(pos, pos_w, neg, neg_w)
    inverse = 1.0 / scale  # (a power of two: the product rounds as the sweep's quotient)
    neg_unit = neg_w.size == 0
    # The current point (the origin first, stamp 0) and the first point of its run of equal tp:
    # the answer of the two kinds that take the last point meeting a level.
    threshold = run_threshold = math.inf
    tp = fp = run_tp = run_fp = 0.0
    stamp = 0
    i = pos.size - 1
    j = neg.size - 1
    while True:
        tp_c = tp * inverse
        fp_c = fp * inverse
        if tp_c != run_tp:
            run_threshold, run_tp, run_fp = threshold, tp_c, fp_c
        slot = -1
        if kind == TPR_AT_FPR:
            slot = _count_below(ascending, fp_c / neg_total, False)  # (levels >= the FPR)
            slot = slot if slot < m else -1
        elif kind == TNR_AT_TPR:
            slot = _count_below(ascending, tp_c / pos_total, True) - 1
            key[0] = fp_c
        elif tp_c + fp_c > 0.0:  # (a precision: not the origin)
            precision = tp_c / (tp_c + fp_c)
            if kind == RECALL_AT_PRECISION:
                slot = _count_below(ascending, precision, True) - 1
            else:
                slot = _count_below(ascending, tp_c / pos_total, True) - 1
                key[0] = precision
                key[1] = tp_c
        if slot >= 0 and _beats(kind, key, stamp, keys[slot], stamps[slot]):
            stamps[slot] = stamp
            keys[slot, 0] = key[0]
            keys[slot, 1] = key[1]
            if kind == RECALL_AT_PRECISION or kind == TPR_AT_FPR:
                chosen[slot, 0], chosen[slot, 1], chosen[slot, 2] = run_threshold, run_tp, run_fp
            else:
                chosen[slot, 0], chosen[slot, 1], chosen[slot, 2] = threshold, tp_c, fp_c
        # On to the next point.
        moved = False
        while i >= 0 or j >= 0:
            bound = pos[i] if i >= 0 else -math.inf
            if neg_unit and j >= 0 and neg[j] > bound:
                # Negatives above every positive left: each of their points has the tp of the
                # point before it and more fp (whole counts: exactly more), so it loses to that
                # point for every kind, or shares its run: only fp moves.
                j_start = j
                j = beyond(neg, j, bound, DOWN)
                fp += float(j_start - j) * scale
                continue
            threshold = pos[i] if j < 0 or (i >= 0 and pos[i] >= neg[j]) else neg[j]
            taken_pos, i = ties(pos, pos_w, i, threshold, DOWN)
            taken_neg, j = ties(neg, neg_w, j, threshold, DOWN)
            dtp = in_units(taken_pos, scale)
            dfp = in_units(taken_neg, scale)
            if dtp > 0.0 or dfp > 0.0:  # (a threshold of no weight makes no point)
                tp += dtp
                fp += dfp
                stamp += 1
                moved = True
                break
        if not moved:
            break
    # Each level: the best of the slots of the levels at or above it (at or below it, for an
    # FPR), which hold the points that meet it.
    best = -1
    for k in range(m):
        s = k if kind == TPR_AT_FPR else m - 1 - k
        if stamps[s] >= 0 and (best < 0 or _beats(kind, keys[s], stamps[s], keys[best],
                                                  stamps[best])):
            best = s
        if best >= 0:
            out[0, order[s]] = chosen[best, 0]
            out[1, order[s]] = chosen[best, 1]
            out[2, order[s]] = chosen[best, 2]
