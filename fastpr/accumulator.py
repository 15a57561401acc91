"""An exact, mergeable summary of a ranking that arrives in chunks or lives on many machines."""
import numpy as np

from . import _validation
from ._engine.kernels.compact import compact_into, merge_into
from ._engine.ranking import SortedRanking, sort_ranking, stable_argsort, sweep_ranking
from .results import Evaluation, warn_undefined


def _filled(kernel, size, *inputs):
    """``kernel(*inputs, *outputs)`` on three float64 outputs of ``size``; the entries written.

    NumPy allocates (large blocks get fresh, lazily mapped pages), so when ties leave most of the
    room unused, those pages are never touched and cost no memory.
    """
    outputs = (np.empty(size), np.empty(size), np.empty(size))
    n = kernel(*inputs, *outputs)
    return outputs if n == size else tuple(array[:n].copy() for array in outputs)


def _compacted(pos, pos_weight, neg, neg_weight):
    """State of each class's sorted scores (empty weights = unit weights)."""
    return _filled(compact_into, pos.size + neg.size, pos, pos_weight, neg, neg_weight)


def _merge_states(a, b):
    """State holding two states."""
    return _filled(merge_into, a[0].size + b[0].size, *a, *b)


class Accumulator:
    """Distinct scores with their positive and negative weight: everything ``evaluate`` needs.

    Feed chunks with :meth:`update`, combine accumulators built elsewhere with :meth:`merge`, and
    call :meth:`evaluate` for the same :class:`fastpr.Evaluation` as ``fastpr.evaluate`` on the
    concatenated chunks (equal to rounding of the weight sums; exactly equal for integer weights).

    Notes
    -----
    The state is three float64 arrays, kept sorted by score and compacted: one entry per distinct
    score (``-0.0`` and ``0.0`` are one), holding the total weight of the positives and of the
    negatives with that score. Rows of weight 0 count as absent, as in ``evaluate``. Memory
    follows the number of distinct scores, not of rows: 24 bytes each.

    ``update`` costs one sort of the chunk (the one ``evaluate`` does) plus a linear merge with
    the state; ``merge`` is linear in the two states; ``evaluate`` is the one sweep of
    ``fastpr.evaluate`` over the state. Each chunk is validated on its own, and its labels are read
    as ``fastpr.evaluate`` reads them (positive means ``pos_label``, else 1 or True), so chunks
    must share one labelling.

    Accumulators pickle, and :meth:`to_arrays` / :meth:`from_arrays` move the state as plain
    arrays. ``fastpr.distributed`` builds one per partition of a Dask collection.

    Examples
    --------
    >>> import fastpr
    >>> acc = fastpr.Accumulator()
    >>> acc = acc.update([1, 0, 1], [0.9, 0.8, 0.7]).update([1, 0, 0], [0.6, 0.6, 0.1])
    >>> other = fastpr.Accumulator().update([0, 1], [0.8, 0.7], sample_weight=[2.0, 1.0])
    >>> both = acc.merge(other)
    >>> both.n_distinct, both.n_pos, both.n_neg
    (5, 4.0, 5.0)
    >>> e = acc.evaluate()
    >>> e == fastpr.evaluate([1, 0, 1, 1, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.6, 0.1])
    True
    >>> round(e.auc_pr, 4)
    0.7407
    """

    __slots__ = ("_neg_weight", "_pos_weight", "_scores")

    def __init__(self):
        self._scores = self._pos_weight = self._neg_weight = np.empty(0)

    @classmethod
    def _of(cls, scores, pos_weight, neg_weight):
        accumulator = cls()
        accumulator._scores = scores
        accumulator._pos_weight = pos_weight
        accumulator._neg_weight = neg_weight
        return accumulator

    @classmethod
    def _of_ranking(cls, ranking):
        """An accumulator of one validated ranking, sorted by class (a ``SortedRanking``)."""
        return cls._of(*_compacted(ranking.pos, ranking.pos_weight, ranking.neg,
                                   ranking.neg_weight))

    def _state(self):
        return self._scores, self._pos_weight, self._neg_weight

    def update(self, y_true, y_score, *, sample_weight=None, pos_label=None):
        """Add one chunk of a ranking, in place; returns the accumulator itself.

        Parameters are those of :func:`fastpr.evaluate`, with the same validation and errors.
        """
        ranking = sort_ranking(y_true, y_score, sample_weight, pos_label)
        chunk = Accumulator._of_ranking(ranking)._state()
        if self._scores.size:
            chunk = _merge_states(self._state(), chunk)
        self._scores, self._pos_weight, self._neg_weight = chunk
        return self

    def merge(self, other):
        """A new accumulator holding the data of both; neither operand changes.

        The result is the same (to rounding of weight sums) whatever the order or grouping of
        merges, so accumulators can be combined in any reduction tree.
        """
        _validation.instance_of("other", other, Accumulator)
        return Accumulator._of(*_merge_states(self._state(), other._state()))

    def evaluate(self):
        """Every summary of the data seen so far, as :func:`fastpr.evaluate` returns it.

        Raises ``ValueError`` when nothing has been added; warns ``UndefinedMetricWarning`` when
        a class is missing, as ``evaluate`` does.
        """
        _validation.nonempty(self._scores.size, "the Accumulator",
                            "update() it with data before evaluate()")
        scores, pos_weight, neg_weight = self._state()
        ranking = SortedRanking(scores, pos_weight, scores, neg_weight)
        result = Evaluation.from_row(sweep_ranking(ranking).row)
        warn_undefined(result)
        return result

    def to_arrays(self):
        """(scores, pos_weight, neg_weight): copies of the state, scores strictly ascending."""
        return tuple(array.copy() for array in self._state())

    @classmethod
    def from_arrays(cls, scores, pos_weight, neg_weight):
        """An accumulator from the arrays of :meth:`to_arrays` (or any scores with weights).

        The arrays need not be sorted or compacted: they are, here. Scores must be real without
        NaN and weights finite and >= 0.
        """
        scores, pos_weight, neg_weight = _validation.accumulator_arrays(scores, pos_weight,
                                                                         neg_weight)
        order = stable_argsort(scores)
        scores = scores[order]
        # One array viewed as both classes: the positive weights ride on the first view and the
        # negative weights on the second, and compacting adds up the ties.
        return cls._of(*_compacted(scores, pos_weight[order], scores, neg_weight[order]))

    @property
    def n_distinct(self):
        """Number of distinct scores held (entries of the state)."""
        return int(self._scores.size)

    @property
    def n_pos(self):
        """Total positive weight seen."""
        return float(self._pos_weight.sum())

    @property
    def n_neg(self):
        """Total negative weight seen."""
        return float(self._neg_weight.sum())

    def __repr__(self):
        return (f"Accumulator(n_distinct={self.n_distinct}, n_pos={self.n_pos:.6g}, "
                f"n_neg={self.n_neg:.6g})")
