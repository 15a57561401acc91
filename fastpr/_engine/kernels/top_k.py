"""The k highest-scored rows of one ranking, exact under ties (docs/math/top_k.rst).

When the k-th row's score is tied, the k rows are not determined by the scores: they hold the
rows above its tie group and some of the group. Every order of the group being as likely, each
of its rows is taken with probability (rows still wanted) / (rows in the group), so the expected
positives and negatives taken are the counts above the group plus that fraction of the group's:
the point at k rows on the straight ROC segment across the group, which is the interpolation
between PR points (docs/math/interpolation.rst).

``rows`` and ``weights`` are (3, m) operating points as the sweep stores them (rows threshold,
tp, fp; origin first; one column per threshold) over the same thresholds: in ``rows`` tp + fp
counts rows, in ``weights`` tp and fp are the weights taken (the same array without sample
weights, and in bootstrap replicates, whose weights are row counts).
"""
import math

import numpy as np

from ..jit import jit


@jit
def tie_group(rows, n_points, k):
    """The column whose threshold holds the k-th highest row (the first whose rows, tp + fp,
    reach k), by bisection: 0 for k <= 0, ``n_points`` when k exceeds the rows."""
    if k <= 0:
        return np.int64(0)
    low = np.int64(1)  # the answer lies in [low, high]; high = n_points: none does
    high = np.int64(n_points)
    while low < high:
        middle = (low + high) // 2
        if rows[1, middle] + rows[2, middle] >= k:
            high = middle
        else:
            low = middle + 1
    return low


@jit
def at_k(rows, weights, n_points, k):
    """(column of the k-th row's tie group, expected tp, expected fp) of the k highest rows,
    ``weights``' tp and fp above the group plus the fraction of the group's that k takes;
    (n_points, NaN, NaN) when k exceeds the rows, (0, 0, 0) for k <= 0."""
    c = tie_group(rows, n_points, k)
    if c == n_points:
        return c, math.nan, math.nan
    if c == 0:
        return c, 0.0, 0.0
    above = rows[1, c - 1] + rows[2, c - 1]
    fraction = (k - above) / (rows[1, c] + rows[2, c] - above)
    tp_a = weights[1, c - 1]
    fp_a = weights[2, c - 1]
    if fraction == 1.0:  # the whole group: its own counts, not a sum that may round
        return c, weights[1, c], weights[2, c]
    return c, tp_a + fraction * (weights[1, c] - tp_a), fp_a + fraction * (weights[2, c] - fp_a)


@jit
def positives_at_k(points, n_points, k):
    """Expected positives among the k highest rows when the points' weights are row counts (no
    sample weights, or a bootstrap replicate's counts); NaN if k exceeds the rows."""
    return at_k(points, points, n_points, k)[1]
