"""One ranking or many: how every ranking-level function takes its input and shapes its result.

Input. A 1-D ``y_score`` is one ranking. Many rankings come as

- a 2-D ``y_score``, one ranking per row, with labels and weights shared (1-D) or one row each;
- a table of models: a pandas or polars DataFrame with one score column per model, or a dict
  ``{name: scores}``; each column is one ranking, named by the column (names are unique
  strings), and labels and weights combine with them as with the rows of a 2-D ``y_score``;
- a 1-D ``y_score`` with ``groups`` (one id per example: one ranking per distinct id, in sorted
  id order, each keeping its examples' order) or ``offsets`` (CSR boundaries: ranking ``g`` is
  rows ``offsets[g]:offsets[g + 1]``).

Result. One ranking gives the single result. Many rankings give

- for a number (``auc_pr``, ``auc_npr``, ``auc_prg``, ...): an ndarray of one value per ranking,
  or with ``average="macro"`` their mean over the rankings where it is defined (a float);
- for an object (a curve, :class:`fastpr.MaxFBeta`, :class:`fastpr.SweptRanking`, ...): a list
  of one per ranking;
- for :func:`fastpr.evaluate`: an :class:`fastpr.EvaluationBatch`, the table of every field,
  whose ``index`` names the rankings;
- for a table of models, the same keyed by name: a dict ``{name: value}`` in column order for a
  number or an object, whatever library the table came from (``pandas.Series(result)`` makes
  it a Series), and an EvaluationBatch whose ``index`` holds the names (``index_name`` is
  "model"), so that ``to_frame()`` is indexed by them.

Either way entry ``i`` equals the single call on ranking ``i`` bit for bit, rankings in the order
above, and one warning per call counts the rankings whose values are NaN.

Input becomes ``fastpr._engine.tables.Rankings`` through ``rankings_of``; functions that need
only rows read them from the engine's table (:func:`evaluations`), those that keep a ranking's
points sweep each ranking of ``fastpr._engine.tables.sorted_rankings``.
"""
import numpy as np

from . import _validation
from ._engine.batch import group_codes
from ._engine.kernels.tables import stable_order
from ._engine.ranking import sort_validated
from ._engine.tables import Rankings, ScoresHoldNaN, table
from .results import Evaluation, EvaluationBatch, defined_mean

AVERAGES = (None, "macro")


def rankings_of(y_true, y_score, sample_weight=None, pos_label=None, groups=None, offsets=None,
                *, nan_in_sort=True):
    """The :class:`Rankings` of a ranking-level function's input: one ranking for a 1-D
    ``y_score``, one per row of a 2-D one or per column of a table of models (named by the
    columns), one per group of ``groups`` or ``offsets``.

    ``nan_in_sort``: NaN in an unweighted 2-D batch is left for the sort to find, which reads
    every score anyway (:func:`evaluations` then names the first); callers that sort the rankings
    otherwise (``sorted_rankings``) pass False and have it refused here."""
    names = None
    if type(y_score) is not np.ndarray and _validation.is_model_table(y_score):
        names, y_score = _validation.model_table(y_score)
    y_score = _validation.as_array("y_score", y_score)
    if groups is None and offsets is None:
        if y_score.ndim != 2:
            return Rankings(*_validation.check_binary_inputs(y_true, y_score, sample_weight,
                                                             pos_label))
        is_positive, scores, weights = _validation.check_batch_inputs(
            y_true, y_score, sample_weight, pos_label,
            find_nan=not nan_in_sort or sample_weight is not None)
        if names is not None:
            # Objects, not a string array, which would drop trailing NULs from the names.
            return Rankings(is_positive, scores, weights, index=np.array(names, dtype=object),
                            index_name="model")
        return Rankings(is_positive, scores, weights, index=np.arange(scores.shape[0]))
    _validation.check_grouping(groups, offsets, y_score)
    is_positive, scores, weights = _validation.check_binary_inputs(y_true, y_score,
                                                                   sample_weight, pos_label)
    if groups is not None:
        ids, codes = group_codes(_validation.group_ids(groups, scores.size))
        order, starts = stable_order(codes, ids.size)
        return Rankings(is_positive, scores, weights, starts, order, ids, "group")
    starts = _validation.offsets(offsets, scores.size)
    return Rankings(is_positive, scores, weights, starts, index=np.arange(starts.size - 1),
                    index_name="group")


def sort_ranking(y_true, y_score, sample_weight=None, pos_label=None):
    """Validate one ranking and sort it by class (a ``fastpr._engine.ranking.SortedRanking``)."""
    return sort_validated(*_validation.check_binary_inputs(y_true, y_score, sample_weight,
                                                           pos_label))


def evaluations(rankings):
    """The Evaluation of one ranking, or the EvaluationBatch of many
    (``fastpr._engine.tables.Rankings``), from the engine's table, without warnings."""
    try:
        rows = table(rankings)
    except ScoresHoldNaN:
        _validation.reject_nan("y_score", rankings.scores)
    if rankings.index is None:
        return Evaluation.from_row(rows[0])
    return EvaluationBatch.from_table(rows, rankings.index, rankings.index_name)


def per_ranking(rankings, values, average=None):
    """What a function of many rankings (``fastpr._engine.tables.Rankings``) returns for their
    ``values`` (an array or a list, one per ranking): the values, their macro ``average`` (for
    numbers), or for a table of models a dict ``{name: value}`` in column order."""
    if average is not None:
        return averaged(np.asarray(values, dtype=np.float64), average)
    if rankings.index_name == "model":
        plain = values.tolist() if isinstance(values, np.ndarray) else values
        return dict(zip(rankings.index.tolist(), plain))
    return values


def averaged(values, average):
    """Per-ranking values (``average=None``) or their macro average (``"macro"``): the mean
    where they are defined. ``average`` is one of :data:`AVERAGES`, which the public functions
    declare."""
    return values if average is None else defined_mean(values)[0]
