"""The metrics read from a ranking's operating points rather than from its row: one kernel that
picks one by its code, for the bootstrap's replicates (``resample``), the estimate and the
jackknife of ``fastpr.intervals``, and ``fastpr.learn``'s metrics.

``points`` are the (threshold, tp, fp) rows of a sweep (``sweep.sweep``), origin first; the
first ``n_points`` columns are valid, ``pos_total`` and ``neg_total`` are P and N. A replicate
swept over gap bins (``gap_bins``) has the negatives between two positives in one column: every
metric here reads only where tp rises and where a run of negatives starts, so it gives the same
value there as on every point. The top-k metrics count rows: their points' weights must be row
counts (no sample weights; a replicate's counts are).
"""
import math

from ..jit import jit
from .fmeasure import max_f1
from .operating import best_value
from .partial import partial_auc_pr, partial_auc_roc
from .top_k import positives_at_k

# Codes of ``point_metric``.
MAX_F1 = 0
# The four of ``operating``, each its kind + 1 (level_a: the level of the constraint).
RECALL_AT_PRECISION = 1
PRECISION_AT_RECALL = 2
TPR_AT_FPR = 3
TNR_AT_TPR = 4
PRECISION_AT_K = 5  # level_a: k
RECALL_AT_K = 6  # level_a: k
R_PRECISION = 7  # k = P
PARTIAL_AUC_ROC = 8  # level_a: the largest FPR; raw, not standardised
PARTIAL_AUC_PR = 9  # level_a to level_b: the recall range; interpolated, not normalised


@jit
def point_metric(points, n_points, pos_total, neg_total, code, level_a, level_b):
    """The metric of code ``code`` (with its levels: a rate or k in ``level_a``, a range in
    ``level_a`` to ``level_b``) of the first ``n_points`` points; NaN where it is
    undefined."""
    if code == MAX_F1:
        return max_f1(points, n_points, pos_total)
    if RECALL_AT_PRECISION <= code <= TNR_AT_TPR:
        return best_value(points, n_points, pos_total, neg_total, code - 1, level_a)
    if code == PRECISION_AT_K:
        return _positives_at_k(points, n_points, pos_total, level_a) / level_a
    if code == RECALL_AT_K or code == R_PRECISION:
        if pos_total <= 0.0:
            return math.nan
        k = level_a if code == RECALL_AT_K else pos_total
        return _positives_at_k(points, n_points, pos_total, k) / pos_total
    if code == PARTIAL_AUC_ROC:
        return partial_auc_roc(points, n_points, pos_total, neg_total, level_a)
    if code == PARTIAL_AUC_PR:
        return partial_auc_pr(points, n_points, pos_total, level_a, level_b)
    return math.nan


@jit(inline="always")
def _positives_at_k(points, n_points, pos_total, k):
    """``top_k.positives_at_k``, all the positives where k exceeds the rows (rows beyond the
    ranking count as negatives, as trec_eval counts them)."""
    positives = positives_at_k(points, n_points, k)
    return pos_total if math.isnan(positives) else positives
