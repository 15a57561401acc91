"""Partial areas of one ranking's operating points: AUC-ROC over FPR in [0, f] and the
interpolated AUC-PR over recall in [r0, r1] (docs/math/partial.rst).

``points`` is a (3, m) array of operating points as the sweep stores them (rows threshold, tp,
fp; origin first; one column per threshold; weights summed), of which the first ``n_points``
columns are read. Both kernels read only where tp or fp changes between neighbouring columns,
so a run of negatives at one tp may arrive as one column (a bootstrap replicate's gap bins,
``gap_bins``) without changing the value beyond rounding. Both stop at the end of the range,
so a range near the top of the ranking costs a fraction of a pass.
"""
import math

from ..jit import jit
from .area import excess_ratio, interpolated_segment


@jit
def partial_auc_roc(points, n_points, pos_total, neg_total, max_fpr):
    """Area under the ROC curve (TPR against FPR, straight segments between the points) over
    FPR in [0, max_fpr], not standardised: at most ``max_fpr``. NaN without positives or
    without negatives. ``max_fpr`` in (0, 1]."""
    if pos_total <= 0.0 or neg_total <= 0.0:
        return math.nan
    limit = max_fpr * neg_total  # the range's end in units of fp
    area2 = 0.0  # twice the area, in units of fp (times TPR)
    for c in range(1, n_points):
        fp_a = points[2, c - 1]
        if fp_a >= limit:
            break
        tp_a = points[1, c - 1]
        tp_b = points[1, c]
        fp_b = points[2, c]
        if fp_b > limit:  # the segment crosses the end of the range: cut it there
            tp_b = tp_a + (tp_b - tp_a) * ((limit - fp_a) / (fp_b - fp_a))
            fp_b = limit
        # Heights as rates before the product: tp fp could overflow for heavy weights.
        area2 += (fp_b - fp_a) * ((tp_a + tp_b) / pos_total)
    return 0.5 * area2 / neg_total


@jit
def partial_auc_pr(points, n_points, pos_total, recall_low, recall_high):
    """Exact integral over recall in [recall_low, recall_high] of the interpolated PR curve, the
    curve of ``auc_pr(method="interpolated")``: between neighbouring points fp grows linearly in
    tp and precision is tp / (tp + fp). At most ``recall_high - recall_low``; NaN without
    positives. ``0 <= recall_low < recall_high <= 1``."""
    if pos_total <= 0.0:
        return math.nan
    low = recall_low * pos_total  # the range in units of tp
    high = recall_high * pos_total
    area = 0.0
    for c in range(1, n_points):
        tp_a = points[1, c - 1]
        if tp_a >= high:
            break
        tp_b = points[1, c]
        if tp_b <= low:  # below the range, or a run of negatives (tp_b == tp_a): no area
            continue
        fp_a = points[2, c - 1]
        fp_b = points[2, c]
        # The part of the segment inside the range; fp at a cut from the segment's own line,
        # and the ends that are not cut kept as they are (exact).
        slope = (fp_b - fp_a) / (tp_b - tp_a)
        t0, f0 = tp_a, fp_a
        if low > tp_a:
            t0, f0 = low, fp_a + slope * (low - tp_a)
        t1, f1 = tp_b, fp_b
        if high < tp_b:
            t1, f1 = high, fp_a + slope * (high - tp_a)
        area += interpolated_segment(t0, f0, t1, f1)
    return area / pos_total


@jit
def worst_ranking_partial_area(n_pos, n_neg, recall_low, recall_high):
    """The interpolated area of the worst ranking (every negative first) over recall in
    [recall_low, recall_high]: the floor of :func:`partial_auc_pr` at these class totals.

    Its precision at recall r is x r / (1 + x r) with x = P / N, whose integral is
    w (u + g(d)) / (1 + u) with w = high - low, u = x low, d = x w / (1 + u) and
    g(d) = (d - log1p(d)) / d, the ratio that ``area.excess_ratio`` evaluates without
    cancellation (docs/math/partial.rst); over [0, 1] it is the whole floor, g(x). NaN without
    positives, w without negatives (precision 1 throughout).
    """
    if n_pos <= 0.0:
        return math.nan
    width = recall_high - recall_low
    x = n_pos / n_neg if n_neg > 0.0 else math.inf
    if x == math.inf:
        return width
    u = x * recall_low
    return width * ((u + excess_ratio(x * width / (1.0 + u))) / (1.0 + u))
