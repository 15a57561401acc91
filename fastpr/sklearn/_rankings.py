"""The drop-in metrics' one route into fastpr's engine: checked arrays in, areas or points out.

The arrays have passed scikit-learn's rules already (contiguous bool labels, finite float32 or
float64 scores, finite non-negative float64 weights or None), so they go straight to the
engine's sort and sweep: fastpr's public functions would check them again and build result
objects, which costs more than the sweep at a thousand rows. The engine does not warn; the
drop-in functions raise scikit-learn's warnings themselves.
"""
import numpy as np

from .._engine.kernels import rows
from .._engine.ranking import record_into, sort_validated
from .._engine.tables import Rankings, table


def _column(is_positive, scores, weights, column):
    """``column`` of the engine's row: a float for one ranking, an array for each row of a 2-D
    one (labels and weights shared (1-D) or one row each)."""
    values = table(Rankings(is_positive, scores, weights))[:, column]
    return float(values[0]) if scores.ndim == 1 else values


def average_precisions(is_positive, scores, weights):
    """Average precision of one ranking, or of each row of a 2-D one."""
    return _column(is_positive, scores, weights, rows.AVERAGE_PRECISION)


def roc_aucs(is_positive, scores, weights):
    """AUC-ROC of one ranking, or of each row of a 2-D one."""
    return _column(is_positive, scores, weights, rows.AUC_ROC)


def segment_roc_aucs(is_positive, scores, offsets):
    """AUC-ROC of consecutive unweighted rankings: ``offsets`` bound them."""
    starts = np.asarray(offsets, dtype=np.int64)
    return table(Rankings(is_positive, scores, starts=starts))[:, rows.AUC_ROC]


def points(is_positive, scores, weights):
    """(thresholds, tp, fp) of every distinct score with weight, descending, origin first (at
    threshold +inf): views of one buffer, which the sweep fills in place."""
    ranking = sort_validated(is_positive, scores, weights)
    buffer, row = np.empty((3, ranking.size + 1)), np.empty(rows.N_COLUMNS)
    record_into(ranking, row, buffer)
    end = int(row[rows.N_THRESHOLDS]) + 1
    return buffer[0, :end], buffer[1, :end], buffer[2, :end]


def row_points(is_positive, scores, weights):
    """:func:`points` of each row of a 2-D ranking (labels and weights shared or per row)."""
    def row(values, r):
        return values if values is None or values.ndim == 1 else values[r]
    return [points(row(is_positive, r), scores[r], row(weights, r))
            for r in range(scores.shape[0])]
