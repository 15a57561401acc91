"""The drop-in metrics' one route into fastpr's engine: checked arrays in, areas or points out.

The arrays have passed scikit-learn's rules already (contiguous bool labels, float32 or
float64 scores, finite non-negative float64 weights or None), so they go straight to the
engine's sort and sweep: fastpr's public functions would check them again and build result
objects, which costs more than the sweep at a thousand rows. Only one ranking's scores come
unchecked for NaN and infinities: its sort finds them (:func:`checked_ends`). The engine
does not warn; the drop-in functions raise scikit-learn's warnings themselves.
"""
import math

import numpy as np

from .. import _validation
from .._engine.batch import each, row_of
from .._engine.kernels import rows, summary
from .._engine.kernels.intermediate import KEEP_ALL, drop_intermediate
from .._engine.kernels.lean_sweep import lean_summary_into, unit_points_into
from .._engine.kernels.sweep import SCALE
from .._engine.ranking import record_into, sort_validated
from .._engine.tables import Rankings, table

# The rows of a 2-D ranking go one by one to NumPy's sort and the lean sweep when they are few
# or long (a third faster than the engine's table at 5 rows of 1,000 or at 5 of 10^6: its
# sweep computes every area, and it takes a few rows per block); many short ones go to the
# table, whose compiled loops take many rows per call (five times faster at 50 rows of 32).
_FEW_RANKINGS = 8
_LONG_RANKING = 1024


def summaries(is_positive, scores, weights):
    """The engine's rows (``fastpr._engine.kernels.rows``, whose column numbers index them) of
    one ranking (one row) or of each row of a 2-D one (labels and weights shared (1-D) or one
    row each)."""
    return table(Rankings(is_positive, scores, weights))


def checked_ends(ranking, scores):
    """A ranking sorted by class (the engine's ``SortedRanking``) of ``scores``, unless the ends
    of its classes show NaN or infinities: NumPy sorts NaN last, so four values read in place of
    a pass over the scores check them, and only then does the input layer look for the first
    (ValueError naming its position, as for every entry point)."""
    pos, neg = ranking.pos, ranking.neg
    if ((not pos.size or -math.inf < pos[0] <= pos[-1] < math.inf)
            and (not neg.size or -math.inf < neg[0] <= neg[-1] < math.inf)):
        return ranking
    _validation.finite("y_score", scores)
    return ranking


def binary_areas(is_positive, scores, weights):
    """(AUC-ROC, average precision, weight of the positives, weight of the negatives) of one
    ranking. Unit weights take the engine's lean sweep, which computes only these areas (bit
    for bit as the full sweep does) in half the full sweep's time at a thousand scores."""
    ranking = checked_ends(sort_validated(is_positive, scores, weights), scores)
    if weights is None:
        return (*sorted_areas(ranking.pos, ranking.neg), ranking.pos.size, ranking.neg.size)
    row = np.empty(rows.N_COLUMNS)
    record_into(ranking, row)
    pos_weight, neg_weight = row[rows.POS_WEIGHT], row[rows.NEG_WEIGHT]
    if summary.too_far_apart(pos_weight, neg_weight):
        swept = np.empty((3, ranking.size + 1))
        record_into(ranking, row, swept)
        return (*_areas_of_points(swept[:, : int(row[rows.N_THRESHOLDS]) + 1]), pos_weight,
                neg_weight)
    return row[rows.AUC_ROC], row[rows.AVERAGE_PRECISION], pos_weight, neg_weight


def _areas_of_points(points):
    """(AUC-ROC, average precision) from the operating points (rows thresholds, tp, fp, origin
    first), as scikit-learn computes them: for classes whose totals are further apart than
    the sweep reports areas for (``summary.MAX_CLASS_RATIO``; the engine's NaN), where these
    rates and precisions still hold in doubles."""
    _, tp, fp = points
    tpr, fpr = tp / tp[-1], fp / fp[-1]
    auc_roc = (np.diff(fpr) * (tpr[1:] + tpr[:-1])).sum() / 2
    average_precision = (np.diff(tpr) * (tp[1:] / (tp[1:] + fp[1:]))).sum()
    return auc_roc, average_precision


def sorted_areas(pos, neg):
    """(AUC-ROC, average precision) of an unweighted ranking whose classes are sorted
    ascending (contiguous rows, no NaN), by the engine's lean sweep."""
    areas = np.empty(summary.N_SUMMARY)
    lean_summary_into(pos, neg, False, np.empty(SCALE + 1), areas)
    return areas[summary.AUC_ROC], areas[summary.AVERAGE_PRECISION]


def row_areas(is_positive, scores, weights):
    """:func:`binary_areas` of each row of a 2-D ranking (labels and weights shared (1-D) or
    one row each), as four arrays."""
    if scores.shape[0] > _FEW_RANKINGS and scores.shape[1] < _LONG_RANKING:
        table = summaries(is_positive, scores, weights)
        areas = table[:, [rows.AUC_ROC, rows.AVERAGE_PRECISION, rows.POS_WEIGHT,
                          rows.NEG_WEIGHT]].T
        for r in np.flatnonzero(summary.too_far_apart(areas[2], areas[3])):  # (see binary_areas)
            areas[:, r] = binary_areas(row_of(is_positive, r), scores[r], row_of(weights, r))
        return tuple(areas)
    return np.array(each(lambda r: binary_areas(row_of(is_positive, r), scores[r],
                                                row_of(weights, r)),
                         range(scores.shape[0]), scores.size), dtype=np.float64).T


def points(is_positive, scores, weights, first=0, rule=KEEP_ALL):
    """Rows (thresholds, tp, fp) of every distinct score with weight, descending, origin first
    (at threshold +inf), without those that ``rule`` drops from column ``first`` on
    (scikit-learn's ``drop_intermediate``, see ``kernels.intermediate``): a view of the buffer
    that the engine fills in place. Unit weights take the lean walk that finds only the points
    (half the sweep's time at a thousand scores)."""
    ranking = checked_ends(sort_validated(is_positive, scores, weights), scores)
    if weights is None:
        return unit_points(ranking, first, rule)
    buffer = np.empty((3, ranking.size + 1))
    row = np.empty(rows.N_COLUMNS)
    record_into(ranking, row, buffer)
    swept = buffer[:, : int(row[rows.N_THRESHOLDS]) + 1]
    if rule == KEEP_ALL:  # (drop_intermediate would keep all too, but compile first)
        return swept
    return swept[:, : drop_intermediate(*swept, first, rule)]


def unit_points(ranking, first, rule):
    """:func:`points` of an unweighted ranking sorted by class, checked (``checked_ends``)."""
    buffer = np.empty((3, ranking.size + 1))
    return buffer[:, : unit_points_into(ranking.pos, ranking.neg, *buffer, first, rule)]


def row_points(is_positive, scores, weights, first, rule):
    """:func:`points` of each row of a 2-D ranking (labels and weights shared or per row)."""
    return [points(row_of(is_positive, r), scores[r], row_of(weights, r), first, rule)
            for r in range(scores.shape[0])]
