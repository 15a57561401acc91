"""One pass over the sorted scores: operating points, AUC-ROC, every PR area and the hull.

Preconditions (checked by the API, not here): ``pos`` and ``neg`` hold the scores of each class
sorted ascending with no NaN; ``pos_w`` / ``neg_w`` are the matching finite non-negative weights, or
empty arrays for unit weights. ``points`` is an (m, 3) float64 output for (threshold, tp, fp) rows:
m = 0 stores nothing, otherwise m must exceed the number of distinct scores.
"""
import numpy as np

from .._jit import jit
from .area import davis_goadrich_segment, interpolated_segment
from .hull import hull_areas, new_hull, push

# Indices into the statistics vector returned by sweep().
N_POS, N_NEG, N_POINTS, ROC2, INTERPOLATED, DAVIS_GOADRICH, AVERAGE_PRECISION = range(7)
LOWER2, UPPER2, HULL_ROC2, HULL_INTERPOLATED, N_STATS = range(7, 12)


@jit(inline="always")
def _take_ties(scores, weights, i, threshold):
    """Consume scores[.. i] equal to threshold from the top; returns (weight taken, new i)."""
    taken = 0.0
    if weights.size == 0:
        start = i
        while i >= 0 and scores[i] == threshold:
            i -= 1
        return float(start - i), i
    while i >= 0 and scores[i] == threshold:
        taken += weights[i]
        i -= 1
    return taken, i


@jit
def sweep(pos, pos_w, neg, neg_w, points):
    """Walk both classes from the highest score down, one operating point per distinct score.

    Returns (stats, hull): ``stats`` is indexed by the module constants (areas unnormalised: ROC
    and trapezoid sums doubled, PR areas in tp units); ``hull`` holds the ROC-hull vertices as
    (fp, tp, threshold) rows, origin first. A threshold whose examples all weigh 0 makes no point.
    """
    store = points.shape[0] > 0
    stats = np.zeros(N_STATS)
    i = pos.size - 1
    j = neg.size - 1
    tp = 0.0
    fp = 0.0
    group_max_precision = 1.0  # highest precision at the current recall; (0, 1) starts the curve
    n_points = 1
    if store:
        points[0, 0] = np.inf
        points[0, 1] = 0.0
        points[0, 2] = 0.0
    hull = new_hull()
    hull, n_hull = push(hull, 0, 0.0, 0.0, np.inf)
    while i >= 0 or j >= 0:
        if j < 0 or (i >= 0 and pos[i] >= neg[j]):
            threshold = pos[i]
        else:
            threshold = neg[j]
        dtp, i = _take_ties(pos, pos_w, i, threshold)
        dfp, j = _take_ties(neg, neg_w, j, threshold)
        if dtp == 0.0 and dfp == 0.0:
            continue
        tp_b = tp + dtp
        fp_b = fp + dfp
        stats[ROC2] += dfp * (tp + tp_b)
        if dtp > 0.0:
            stats[INTERPOLATED] += interpolated_segment(tp, fp, tp_b, fp_b)
            stats[DAVIS_GOADRICH] += davis_goadrich_segment(tp, fp, tp_b, fp_b)
            precision_b = tp_b / (tp_b + fp_b)
            stats[AVERAGE_PRECISION] += dtp * precision_b
            # (0, 1) stands in for the origin; other points at recall 0 have precision 0.
            precision_a = 1.0 if tp + fp == 0.0 else tp / (tp + fp)
            stats[LOWER2] += dtp * (precision_a + precision_b)
            stats[UPPER2] += dtp * (group_max_precision + precision_b)
            group_max_precision = precision_b
        tp = tp_b
        fp = fp_b
        hull, n_hull = push(hull, n_hull, fp, tp, threshold)
        if store:
            points[n_points, 0] = threshold
            points[n_points, 1] = tp
            points[n_points, 2] = fp
        n_points += 1
    hull = hull[:n_hull]
    stats[HULL_ROC2], stats[HULL_INTERPOLATED] = hull_areas(hull)
    stats[N_POS] = tp
    stats[N_NEG] = fp
    stats[N_POINTS] = n_points
    return stats, hull
