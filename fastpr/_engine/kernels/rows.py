"""The one kernel that sweeps a ranking into its row (the layout of ``layout``), and the row of a
finished sweep. Every path reaches the sweep through ``record``.
"""
import numpy as np

from ..jit import jit
from . import summary as _summary
from . import sweep as _sweep
from .area import worst_ranking_interpolated_area
from .checks import check_weights, raise_nan
from .layout import (AUC_NPR, AUC_PR, AUC_PR_MIN, AUC_ROC, AVERAGE_PRECISION,  # noqa: F401
                     FIRST_AREA, N_COLUMNS, N_SUMMARY, N_THRESHOLDS, NEG_WEIGHT, POS_WEIGHT,
                     PREVALENCE)  # (those that the readers of rows take from here too)
from .normalised import normalised_area
from .radix import sort_classes
from .split import split_by_class


@jit
def write_row(stats, row):
    """Write the row of a finished sweep from its state (``sweep.sweep``, ``sweep.join_ranges``)
    into ``row[:N_COLUMNS]``: the one place where class totals and sums become a row's fields."""
    n_pos = stats[_sweep.N_POS]
    n_neg = stats[_sweep.N_NEG]
    row[POS_WEIGHT] = n_pos
    row[NEG_WEIGHT] = n_neg
    row[PREVALENCE] = n_pos / (n_pos + n_neg)
    row[N_THRESHOLDS] = stats[_sweep.N_POINTS] - 1.0  # the origin is a point, not a threshold
    _summary.summarise_into(stats, row[FIRST_AREA:])
    row[AUC_PR_MIN] = worst_ranking_interpolated_area(n_pos, n_neg)
    row[AUC_NPR] = normalised_area(row[AUC_PR], row[AUC_PR_MIN])


# Inlined into the kernels that call it, and called step by step from Python
# (``fastpr._engine.ranking.record_into``): numba compiles every kernel with a copy of the kernels
# it calls, so a layer of its own between a caller and the sweep would compile the sweep's loop
# once more, a second or more at first use.
@jit(inline="always")
def record(pos, pos_w, neg, neg_w, points, row):
    """Sweep one ranking whose classes are sorted (see ``sweep.sweep``, which fills ``points``)
    and write its row; returns the ROC-hull vertices as (fp, tp, threshold) rows."""
    stats, hull = _sweep.sweep(pos, pos_w, neg, neg_w, points)
    write_row(stats, row)
    return hull


@jit
def summary(y_true, y_score, sample_weight):
    """Every area of one ranking, for callers inside compiled code (see fastpr.kernels). Checks
    the lengths (numba does not check indices, so a short array would be read past its end),
    the weights (one pass, next to the radix sort's passes over them) and NaN, found at an end
    of each sorted class (the sweep would not end)."""
    if y_score.size != y_true.size:
        raise ValueError("y_score must have the length of y_true")
    if sample_weight.size != 0 and sample_weight.size != y_true.size:
        raise ValueError("sample_weight must be empty (unit weights) or as long as y_true")
    check_weights("sample_weight", sample_weight)
    pos, neg = split_by_class(y_score, y_true)
    pos_w, neg_w = split_by_class(sample_weight, y_true) if sample_weight.size else (
        sample_weight, sample_weight)
    pos, pos_w, neg, neg_w = sort_classes(pos, pos_w, neg, neg_w)
    for scores in (pos, neg):  # NaN sorts to an end: last in NumPy's sort, either in the radix
        if scores.size and (np.isnan(scores[0]) or np.isnan(scores[-1])):
            raise_nan("y_score", y_score)
    row = np.empty(N_COLUMNS)
    record(pos, pos_w, neg, neg_w, np.empty((3, 0)), row)
    return row[FIRST_AREA:FIRST_AREA + N_SUMMARY]
