"""An exact, mergeable summary of a ranking that arrives in chunks or lives on many machines."""
import itertools
import threading
from dataclasses import dataclass

import numpy as np

from . import _validation
from ._engine.kernels.compact import compact_into, merge_into
from ._engine.ranking import SortedRanking, stable_argsort, sweep_ranking
from ._rankings import sort_ranking
from ._validation import InstanceOf
from ._undefined import warn_if_undefined_in
from .results import Evaluation


def _filled(kernel, size, *inputs):
    """``kernel(*inputs, *outputs)`` on three float64 outputs of ``size``; the entries written.

    NumPy allocates (large blocks get fresh, lazily mapped pages), so when ties leave most of the
    room unused, those pages are never touched and cost no memory.
    """
    outputs = (np.empty(size), np.empty(size), np.empty(size))
    n = kernel(*inputs, *outputs)
    return outputs if n == size else tuple(array[:n].copy() for array in outputs)


@dataclass(frozen=True)
class CompactedSegment:
    """A ranking reduced to what its metrics depend on: the state of an :class:`Accumulator`.

    ``scores`` holds the distinct scores, strictly ascending (``-0.0`` and ``0.0`` are one,
    stored as ``0.0``), ``pos_weight`` and ``neg_weight`` the total weight of the positives and
    of the negatives with each score. A score whose rows all weigh 0 is left out: it moves no
    operating point. Segments are what ``fastpr.distributed`` compacts, cuts, merges and moves
    between workers.
    """

    scores: np.ndarray
    pos_weight: np.ndarray
    neg_weight: np.ndarray

    @classmethod
    def empty(cls):
        """A segment of no scores."""
        return cls(np.empty(0), np.empty(0), np.empty(0))

    @classmethod
    def of_ranking(cls, ranking):
        """The segment of a validated ranking sorted by class (a ``SortedRanking``)."""
        return cls(*_filled(compact_into, ranking.size, ranking.pos, ranking.pos_weight,
                            ranking.neg, ranking.neg_weight))

    @property
    def size(self):
        """The number of distinct scores."""
        return self.scores.size

    @property
    def ranking(self):
        """The segment as a ``SortedRanking``: the scores viewed as both classes'."""
        # Both classes share the one score array, so the engine sweeps it as any other ranking.
        return SortedRanking(self.scores, self.pos_weight, self.scores, self.neg_weight)

    def merged(self, other):
        """One segment holding both; the weights of equal scores add up, and must add up to a
        finite total (each part's does, as ``evaluate`` requires of ``sample_weight``)."""
        merged = CompactedSegment(*_filled(merge_into, self.size + other.size, *self.arrays(),
                                           *other.arrays()))
        merged.check_total("sample_weight")
        return merged

    def check_total(self, name):
        """Refuse a segment whose weights add up to more than the largest double."""
        with np.errstate(over="ignore"):
            _validation.finite_total(name, self.pos_weight.sum() + self.neg_weight.sum())

    def cut(self, boundaries):
        """The segment cut at ascending ``boundaries``: piece r holds b[r - 1] <= score < b[r]."""
        cuts = [0, *np.searchsorted(self.scores, boundaries, side="left").tolist(), self.size]
        return tuple(CompactedSegment(*(array[a:b] for array in self.arrays()))
                     for a, b in itertools.pairwise(cuts))

    def row(self):
        """Every summary of the segment's ranking, in the engine's row layout."""
        return sweep_ranking(self.ranking).row

    def arrays(self):
        """(scores, pos_weight, neg_weight), not copied."""
        return self.scores, self.pos_weight, self.neg_weight


class Accumulator:
    """Distinct scores with their positive and negative weight: everything ``evaluate`` needs.

    Feed chunks with :meth:`update`, combine accumulators built elsewhere with :meth:`merge`, and
    call :meth:`evaluate` for the same :class:`fastpr.Evaluation` as ``fastpr.evaluate`` on the
    concatenated chunks (equal to rounding of the weight sums; exactly equal for integer weights).

    Notes
    -----
    The state is a :class:`CompactedSegment`: one entry per distinct score (``-0.0`` and ``0.0``
    are one) holding the total weight of the positives and of the negatives with that score.
    Rows of weight 0 count as absent, as in ``evaluate``. Memory follows the number of distinct
    scores, not of rows: 24 bytes each.

    ``update`` costs one sort of the chunk (the one ``evaluate`` does) plus a linear merge with
    the state; ``merge`` is linear in the two states; ``evaluate`` is the one pass of
    ``fastpr.evaluate`` over the state. Each chunk is
    validated on its own, and its labels are read as ``fastpr.evaluate`` reads them (positive
    means ``pos_label``, else 1 or True), so chunks must share one labelling.

    Accumulators pickle, and :meth:`to_arrays` / :meth:`from_arrays` move the state as plain
    arrays. ``fastpr.distributed`` builds a segment for each partition of a Dask collection.

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

    __slots__ = ("_segment", "_lock")

    def __init__(self):
        self._segment = CompactedSegment.empty()
        self._lock = threading.Lock()  # threads may update one accumulator at once

    def __getstate__(self):
        return self._segment

    def __setstate__(self, segment):
        self._segment = segment
        self._lock = threading.Lock()

    @classmethod
    def _holding(cls, segment):
        accumulator = cls()
        accumulator._segment = segment
        return accumulator

    def update(self, y_true, y_score, *, sample_weight=None, pos_label=None):
        """Add one chunk of a ranking, in place; returns the accumulator itself.

        Parameters are those of :func:`fastpr.evaluate`, with the same validation and errors.
        Threads may update one accumulator at once: their chunks sort side by side, and each
        merges into the state in turn.
        """
        chunk = CompactedSegment.of_ranking(sort_ranking(y_true, y_score, sample_weight,
                                                         pos_label))
        with self._lock:
            self._segment = self._segment.merged(chunk) if self._segment.size else chunk
        return self

    def merge(self, other):
        """A new accumulator holding the data of both; neither operand changes.

        The result is the same (to rounding of weight sums) whatever the order or grouping of
        merges, so accumulators can be combined in any reduction tree.
        """
        InstanceOf(Accumulator).check("other", other)
        return Accumulator._holding(self._segment.merged(other._segment))

    def evaluate(self):
        """Every summary of the data seen so far, as :func:`fastpr.evaluate` returns it.

        Raises ``ValueError`` when nothing has been added; warns ``UndefinedMetricWarning`` where
        a metric is undefined (a class missing, or the normalised area without precision), as
        ``evaluate`` does.
        """
        if not self._segment.size:
            raise ValueError("the Accumulator is empty: update() it with data before evaluate().")
        result = Evaluation.from_row(self._segment.row())
        warn_if_undefined_in(result, "AUC-ROC", "AUC-PR", "normalised AUC-PR")
        return result

    def to_arrays(self):
        """(scores, pos_weight, neg_weight): copies of the state, scores strictly ascending."""
        return tuple(array.copy() for array in self._segment.arrays())

    @classmethod
    def from_arrays(cls, scores, pos_weight, neg_weight):
        """An accumulator from the arrays of :meth:`to_arrays` (or any scores with weights).

        The arrays need not be sorted or compacted: they are, here. Scores must be real without
        NaN and weights finite and >= 0.
        """
        scores, pos_weight, neg_weight = _checked_arrays(scores, pos_weight, neg_weight)
        order = stable_argsort(scores)
        scores = scores[order]
        # One array viewed as both classes: the positive weights ride on the first view and the
        # negative weights on the second, and compacting adds up the ties.
        ranking = SortedRanking(scores, pos_weight[order], scores, neg_weight[order])
        segment = CompactedSegment.of_ranking(ranking)
        segment.check_total("pos_weight and neg_weight")
        return cls._holding(segment)

    @property
    def n_distinct(self):
        """Number of distinct scores held (entries of the state)."""
        return int(self._segment.size)

    @property
    def n_pos(self):
        """Total positive weight seen."""
        return float(self._segment.pos_weight.sum())

    @property
    def n_neg(self):
        """Total negative weight seen."""
        return float(self._segment.neg_weight.sum())

    def __repr__(self):
        return (f"Accumulator(n_distinct={self.n_distinct}, n_pos={self.n_pos:.6g}, "
                f"n_neg={self.n_neg:.6g})")


def _checked_arrays(scores, pos_weight, neg_weight):
    """The arrays of ``Accumulator.from_arrays`` as float64: scores without NaN, weights >= 0.

    All three empty is an empty accumulator.
    """
    named = {"scores": scores, "pos_weight": pos_weight, "neg_weight": neg_weight}
    arrays = {name: _validation.as_1d(name, values, allow_empty=True)
              for name, values in named.items()}
    _validation.same_lengths(**{name: array.shape[0] for name, array in arrays.items()})
    if arrays["scores"].size == 0:
        return np.empty(0), np.empty(0), np.empty(0)
    return (_validation.scores(arrays["scores"], name="scores").astype(np.float64),
            _validation.nonnegative("pos_weight", arrays["pos_weight"]),
            _validation.nonnegative("neg_weight", arrays["neg_weight"]))
