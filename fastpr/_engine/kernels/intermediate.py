"""scikit-learn's ``drop_intermediate``: operating points that leave a curve unchanged, dropped in
place in one pass (NumPy's masks cost more in calls than in work at a thousand points)."""
from ..jit import helper, jit

# Keep every point.
KEEP_ALL = -1
# Drop a point between two equal steps (the ROC curve: collinear neighbours).
COLLINEAR = 0
# Keep the first and last point of each run of equal tp (precision-recall and DET curves).
RECALL_ENDS = 1


@helper
def dropped(thresholds, tp, fp, n, first, rule):
    """Move the points of ``first`` .. ``n - 1`` that ``rule`` keeps to the front of that
    range, in order; the range's first and last point always stay. Returns how many points
    remain in all.

    A step is compared as scikit-learn's second difference, ``(b - a) != (c - b)`` in each row,
    which for finite counts is the same test.
    """
    if rule == KEEP_ALL or n - first <= 2:
        return n
    kept = first + 1
    for m in range(first + 1, n - 1):
        if rule == COLLINEAR:
            keep = (tp[m + 1] - tp[m] != tp[m] - tp[m - 1]
                    or fp[m + 1] - fp[m] != fp[m] - fp[m - 1])
        else:
            keep = tp[m] != tp[m - 1] or tp[m + 1] != tp[m]
        if keep:
            thresholds[kept] = thresholds[m]
            tp[kept] = tp[m]
            fp[kept] = fp[m]
            kept += 1
    thresholds[kept] = thresholds[n - 1]
    tp[kept] = tp[n - 1]
    fp[kept] = fp[n - 1]
    return kept + 1


@jit
def drop_intermediate(thresholds, tp, fp, first, rule):
    """:func:`dropped` of all the points in the three arrays."""
    return dropped(thresholds, tp, fp, tp.size, first, rule)
