"""One ranking or many: how every ranking-level function takes its input and shapes its result.

Input. A 1-D ``y_score`` is one ranking. Many rankings come as

- a 2-D ``y_score``, one ranking per row, with labels and weights shared (1-D) or one row each;
- a 1-D ``y_score`` with ``groups`` (one id per example: one ranking per distinct id, in sorted
  id order, each keeping its examples' order) or ``offsets`` (CSR boundaries: ranking ``g`` is
  rows ``offsets[g]:offsets[g + 1]``).

Result. One ranking gives the single result. Many rankings give

- for a number (``auc_pr``, ``auc_npr``, ``auc_prg``, ...): an ndarray of one value per ranking,
  or with ``average="macro"`` their mean over the rankings where it is defined (a float);
- for an object (a curve, :class:`fastpr.MaxFBeta`, :class:`fastpr.SweptRanking`, ...): a list
  of one per ranking;
- for :func:`fastpr.evaluate`: an :class:`fastpr.EvaluationBatch`, the table of every field,
  whose ``index`` names the rankings.

Either way entry ``i`` equals the single call on ranking ``i`` bit for bit, rankings in the order
above, and one warning per call counts the rankings whose values are NaN.

Every function here reaches the engine through :func:`sweep_sorted`, :func:`_evaluation_from_row`
and :func:`_batch`, the engine's contract (sweep a sorted ranking; read results from the row
layout).
"""
import math
from dataclasses import dataclass

import numpy as np

from . import _validation
from ._engine import tables
from ._engine.kernels import rows as row_kernels
from ._engine.kernels.area import worst_ranking_interpolated_area
from ._engine.kernels.summary import summarise
from ._engine.ranking import run_sweep, sort_ranking, sort_validated
from ._normalised import normalised_area
from .results import AREA_COLUMNS, Evaluation, batch_from_table

AVERAGES = (None, "macro")


def sweep_sorted(ranking, *, with_points=False):
    """(Evaluation, hull, points) of one sorted ranking, from one pass.

    ``hull`` holds (fp, tp, threshold) rows of the ROC-hull vertices; ``points`` the rows
    thresholds, tp, fp of the operating points (no columns unless ``with_points``).
    """
    # The engine's contract, until it lands: sweep_ranking(ranking, with_points=...) gives the
    # row (the layout of kernels/rows.py), hull and points; Evaluation.from_row reads the row.
    sweep = run_sweep(ranking, with_points=with_points)
    row = np.empty(row_kernels.N_COLUMNS)
    row[row_kernels.POS_WEIGHT] = sweep["N_POS"]
    row[row_kernels.NEG_WEIGHT] = sweep["N_NEG"]
    row[row_kernels.N_POINTS] = sweep["N_POINTS"]
    row[row_kernels.AUC_PR_MIN] = worst_ranking_interpolated_area(sweep["N_POS"], sweep["N_NEG"])
    row[row_kernels.FIRST_AREA:] = summarise(sweep.stats)
    return _evaluation_from_row(row), sweep.hull, sweep.points


def _evaluation_from_row(row):
    """The Evaluation of a row, field for field as an entry of an EvaluationBatch (the
    engine's contract: Evaluation.from_row)."""
    values = row.tolist()
    n_pos, n_neg = values[row_kernels.POS_WEIGHT], values[row_kernels.NEG_WEIGHT]
    areas = {name: values[row_kernels.FIRST_AREA + column]
             for name, column in AREA_COLUMNS.items()}
    floor = values[row_kernels.AUC_PR_MIN]
    return Evaluation(
        n_pos=n_pos,
        n_neg=n_neg,
        prevalence=n_pos / (n_pos + n_neg) if n_pos + n_neg else math.nan,
        n_thresholds=int(values[row_kernels.N_POINTS]) - 1,
        **areas,
        auc_pr_min=floor,
        auc_npr=normalised_area(areas["auc_pr"], floor),
    )


def _batch(table, index, index_name):
    """The EvaluationBatch of a table of rows (the engine's contract: EvaluationBatch.from_table)."""
    return batch_from_table(table, index, index_name)


def is_many(y_score, groups, offsets):
    """Whether the input holds many rankings; ``y_score`` is an array (``as_array``)."""
    return y_score.ndim == 2 or groups is not None or offsets is not None


@dataclass(frozen=True)
class Rankings:
    """Many validated rankings: the rows of a 2-D batch (``groups`` and ``offsets`` None) or
    the groups or segments of one ranking."""

    is_positive: np.ndarray  # (n,) shared by the rows, or (m, n)
    scores: np.ndarray  # (m, n) rows, or (n,) split by groups or offsets
    weights: np.ndarray  # None, (n,) or (m, n)
    groups: np.ndarray  # one id per example, or None
    offsets: np.ndarray  # segment boundaries, or None

    @property
    def unit(self):
        """What one ranking is called in warnings: a "ranking" (row) or a "group"."""
        return "group" if self.groups is not None or self.offsets is not None else "ranking"

    def each_sorted(self):
        """Each ranking split by class and sorted, in ranking order, one at a time."""
        if self.scores.ndim == 2:
            for r in range(self.scores.shape[0]):
                yield sort_validated(_row(self.is_positive, r), self.scores[r],
                                     _row(self.weights, r))
            return
        order, starts = None, self.offsets
        if self.groups is not None:
            codes = np.unique(self.groups, return_inverse=True)[1].reshape(-1)
            order = np.argsort(codes, kind="stable")
            starts = np.concatenate([[0], np.cumsum(np.bincount(codes))])
        for g in range(starts.size - 1):
            rows = slice(starts[g], starts[g + 1])
            if order is not None:
                rows = order[rows]
            yield sort_validated(self.is_positive[rows], self.scores[rows],
                                 None if self.weights is None else self.weights[rows])

    def evaluations(self):
        """The EvaluationBatch of every ranking, from the engine's tables (threads, no Python
        per ranking)."""
        if self.scores.ndim == 2:
            table = tables.rows_table(self.is_positive, self.scores, self.weights)
            return _batch(table, np.arange(self.scores.shape[0]), "ranking")
        if self.groups is not None:
            ids, table = tables.groups_table(self.scores, self.is_positive, self.weights,
                                             self.groups)
            return _batch(table, ids, "group")
        table = tables.segments_table(self.scores, self.is_positive, self.weights, self.offsets)
        return _batch(table, np.arange(self.offsets.size - 1), "group")


def _row(values, r):
    """Row ``r`` of per-row labels or weights; shared ones (1-D or None) as they are."""
    return values if values is None or values.ndim == 1 else values[r]


def many_rankings(y_true, y_score, sample_weight, pos_label, groups, offsets, *, find_nan=True):
    """Validate many rankings (see the module docstring). ``find_nan=False`` leaves NaN in a
    2-D ``y_score`` to the engine's tables, which find them on their own pass."""
    if groups is None and offsets is None:
        is_positive, scores, weights = _validation.check_batch_inputs(
            y_true, y_score, sample_weight, pos_label, find_nan=find_nan)
        return Rankings(is_positive, scores, weights, None, None)
    _validation.check_grouping(groups, offsets, y_score)
    is_positive, scores, weights = _validation.check_binary_inputs(y_true, y_score, sample_weight,
                                                                   pos_label)
    if groups is not None:
        return Rankings(is_positive, scores, weights,
                        _validation.group_ids(groups, scores.size), None)
    return Rankings(is_positive, scores, weights, None,
                    _validation.offsets(offsets, scores.size))


def evaluations(y_true, y_score, sample_weight, pos_label, groups, offsets):
    """The Evaluation of one ranking, or the EvaluationBatch of many, without warnings."""
    if not is_many(y_score, groups, offsets):
        return sweep_sorted(sort_ranking(y_true, y_score, sample_weight, pos_label))[0]
    return many_rankings(y_true, y_score, sample_weight, pos_label, groups, offsets,
                         find_nan=False).evaluations()


def mean_where_defined(values):
    """The mean of the values that are not NaN (NaN when none is): the macro average."""
    defined = values[~np.isnan(values)]
    return float(defined.mean()) if defined.size else math.nan


def averaged(values, average):
    """Per-ranking values (``average=None``) or their macro average (``"macro"``); ``average``
    is one of :data:`AVERAGES`, which the public functions declare."""
    return values if average is None else mean_where_defined(values)
