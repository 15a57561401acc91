"""An exact, mergeable summary of a ranking that arrives in chunks or lives on many machines."""
import itertools
import math
import threading
from dataclasses import dataclass

import numpy as np

from . import _validation
from ._engine.kernels.compact import compact_into, merge_into
from ._engine.ranking import SortedRanking, sort_validated, stable_argsort, sweep_ranking
from ._validation import InstanceOf
from ._undefined import warn_if_undefined_in
from .results import Evaluation
from .swept import swept_ranking


def _filled(kernel, size, *inputs, weight_dtype=np.float64):
    """``kernel(*inputs, *outputs)`` on three outputs of ``size`` (float64 scores, weights of
    ``weight_dtype``); the entries written.

    NumPy allocates (large blocks get fresh, lazily mapped pages), so when ties leave most of the
    room unused, those pages are never touched and cost no memory.
    """
    outputs = (np.empty(size), np.empty(size, weight_dtype), np.empty(size, weight_dtype))
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

    def with_weights_as(self, dtype):
        """The segment with its weights in ``dtype`` (itself when they are)."""
        if self.pos_weight.dtype == dtype:
            return self
        return CompactedSegment(self.scores, self.pos_weight.astype(dtype),
                                self.neg_weight.astype(dtype))

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
        finite total (each part's does, as ``evaluate`` requires of ``sample_weight``). Both
        hold float64 weights, or both int64 counts whose totals add up below 2^63."""
        dtype = self.pos_weight.dtype
        merged = CompactedSegment(*_filled(merge_into, self.size + other.size, *self.arrays(),
                                           *other.arrays(), weight_dtype=dtype))
        if dtype != _COUNT:
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
        return sweep_ranking(self.with_weights_as(np.float64).ranking).row

    def arrays(self):
        """(scores, pos_weight, neg_weight), not copied."""
        return self.scores, self.pos_weight, self.neg_weight


class Accumulator:
    """Distinct scores with their positive and negative weight: everything ``evaluate`` needs.

    Feed chunks with :meth:`update`, combine accumulators built elsewhere with :meth:`merge`, and
    call :meth:`evaluate` for the same :class:`fastpr.Evaluation` as ``fastpr.evaluate`` on the
    concatenated chunks: exactly equal where every weight is an integer (or there are none) and
    the total weight stays within 2^53; else equal to the rounding of the weight sums.

    Notes
    -----
    The state is one entry per distinct score (``-0.0`` and ``0.0`` are one) holding the total
    weight of the positives and of the negatives with that score. Rows of weight 0 count as
    absent, as in ``evaluate``, and so do empty chunks and chunks that weigh 0 everywhere.
    Memory follows the number of distinct scores, not of rows: 24 bytes each.

    Exact counts: while every weight seen is an integer (unweighted rows count 1) and each
    chunk's weights add up to at most 2^53, the state holds int64 counts, which add up exactly
    up to a total of 2^63 - 1; :attr:`n_pos`, :attr:`n_neg` and :meth:`to_arrays` give them as
    integers. From the first weight that is not an integer (or a total beyond those bounds) on,
    the state holds float64 weights, which round once a sum passes 2^53. :meth:`evaluate` sweeps
    the state in float64, as ``fastpr.evaluate`` sweeps its rows: its counts and areas are
    exact while the total weight stays within 2^53.

    Cost: about that of ``fastpr.evaluate`` on all the rows, whatever the chunks' size. Small
    chunks are validated, copied and kept (at most 65,536 rows, about 1 MiB) to be sorted
    together; the sorted, compacted batches merge in runs of similar size, as a binary counter
    carries, so each distinct score takes part in O(log n) linear merges over the stream. The
    runs become one when a result is asked for (``evaluate``, ``merge``, ``to_arrays``,
    ``n_pos``, ...); ``evaluate`` then makes the one pass of ``fastpr.evaluate`` over the state.
    Each chunk is validated on its own, and its labels are read as ``fastpr.evaluate`` reads
    them (positive means ``pos_label``, else 1 or True), so chunks must share one labelling.

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
    (5, 4, 5)
    >>> e = acc.evaluate()
    >>> e == fastpr.evaluate([1, 0, 1, 1, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.6, 0.1])
    True
    >>> round(e.auc_pr, 4)
    0.7407
    """

    __slots__ = ("_runs", "_count", "_sum", "_pending", "_pending_rows", "_pending_count",
                 "_lock")

    def __init__(self):
        # Compacted segments, oldest and largest first: each more than twice the size of the
        # next (a binary counter's carries), all of int64 counts or all of float64 weights.
        self._runs = []
        # The exact total weight (a Python int) of the runs while they hold int64 counts; else
        # None. _sum is the total weight of everything added, as a float, kept finite.
        self._count = 0
        self._sum = 0.0
        # Small chunks, validated and copied, waiting to be sorted together as one (per-chunk
        # sorts and merges cost more than the rows of a small chunk).
        self._pending = []
        self._pending_rows = 0
        self._pending_count = 0  # their integer total weight, or None
        self._lock = threading.Lock()  # threads may update one accumulator at once

    def __getstate__(self):
        return self._state()

    def __setstate__(self, state):
        segment, count = state
        self.__init__()
        self._sum = _weight_sum(segment)
        self._push(segment, count)

    @classmethod
    def _holding(cls, segment, count):
        accumulator = cls()
        accumulator._add_to_sum(_weight_sum(segment), "pos_weight and neg_weight")
        accumulator._push(segment, count)
        return accumulator

    def update(self, y_true, y_score, *, sample_weight=None, pos_label=None):
        """Add one chunk of a ranking, in place; returns the accumulator itself.

        Parameters are those of :func:`fastpr.evaluate`, with the same validation and errors,
        except that a chunk may be empty or weigh 0 everywhere: it adds nothing. Threads may
        update one accumulator at once: their chunks are validated side by side, and each
        joins the state in turn.
        """
        is_positive, scores, weights = _validation.check_binary_inputs(
            y_true, y_score, sample_weight, pos_label, part=True)
        if scores.size == 0:
            return self
        count = _integer_total(weights, scores.size)
        weight = float(scores.size) if weights is None else float(weights.sum())
        if scores.size >= _BATCH_ROWS:
            chunk = CompactedSegment.of_ranking(sort_validated(is_positive, scores, weights))
            with self._lock:
                self._add_to_sum(weight, "sample_weight")
                self._push(chunk, count)
            return self
        # Copies: a stream may refill its arrays for the next chunk.
        part = (is_positive.copy(), scores.copy(), None if weights is None else weights.copy())
        with self._lock:
            self._add_to_sum(weight, "sample_weight")
            if count is not None and self._pending_count is not None and (
                    self._pending_count + count > _EXACT_IN_FLOAT64):
                self._flush()  # so that the batch stays within exact float64 integers
            self._pending.append(part)
            self._pending_rows += scores.size
            self._pending_count = (None if count is None or self._pending_count is None
                                   else self._pending_count + count)
            if self._pending_rows >= _BATCH_ROWS:
                self._flush()
        return self

    def _add_to_sum(self, weight, name):
        """Count ``weight`` more in the total, refusing (before anything changes) a total
        beyond the largest double."""
        total = self._sum + weight  # Python floats: inf past the largest double
        if not math.isfinite(total):
            _validation.finite_total(name, total)
        self._sum = total

    def _flush(self):
        """Sort the pending small chunks together and push them as one run."""
        parts, count = self._pending, self._pending_count
        self._pending, self._pending_rows, self._pending_count = [], 0, 0
        if not parts:
            return
        weights = None
        if any(part[2] is not None for part in parts):
            weights = np.concatenate([np.ones(part[1].size) if part[2] is None else part[2]
                                      for part in parts])
        ranking = sort_validated(np.concatenate([part[0] for part in parts]),
                                 np.concatenate([part[1] for part in parts]), weights)
        self._push(CompactedSegment.of_ranking(ranking), count)

    def _push(self, segment, count):
        """Add a compacted segment whose total weight is the integer ``count`` (None: not an
        integer, or too large to count in int64) as the newest run; carry merges."""
        if not segment.size:
            return
        if self._count is not None and count is not None and self._count + count < 2**63:
            self._count += count
            segment = segment.with_weights_as(_COUNT)
        else:
            segment = segment.with_weights_as(np.float64)
            if self._count is not None:
                self._runs = [run.with_weights_as(np.float64) for run in self._runs]
                self._count = None
        self._runs.append(segment)
        while len(self._runs) > 1 and self._runs[-2].size <= 2 * self._runs[-1].size:
            newest = self._runs.pop()
            self._runs[-1] = self._runs[-1].merged(newest)

    def _state(self):
        """(the state as one compacted segment, the exact count or None): the pending chunks
        sorted and every run merged into one, which stays as the state."""
        with self._lock:
            self._flush()
            while len(self._runs) > 1:
                newest = self._runs.pop()
                self._runs[-1] = self._runs[-1].merged(newest)
            segment = self._runs[0] if self._runs else CompactedSegment.empty().with_weights_as(
                np.float64 if self._count is None else _COUNT)
            return segment, self._count

    def merge(self, other):
        """A new accumulator holding the data of both; neither operand changes.

        The result is the same (exactly for integer weights, else to rounding of weight sums)
        whatever the order or grouping of merges, so accumulators can be combined in any
        reduction tree.
        """
        InstanceOf(Accumulator).check("other", other)
        result = Accumulator()
        for segment, count in (self._state(), other._state()):
            result._add_to_sum(_weight_sum(segment), "sample_weight")
            result._push(segment, count)
        return result

    def evaluate(self):
        """Every summary of the data seen so far, as :func:`fastpr.evaluate` returns it.

        Raises ``ValueError`` while no row of nonzero weight has been added; warns
        ``UndefinedMetricWarning`` where a metric is undefined (a class missing, or the
        normalised area without precision), as ``evaluate`` does.
        """
        segment, _ = self._state()
        if not segment.size:
            raise ValueError("the Accumulator is empty: no row of nonzero weight has been "
                             "added; update() it with data before evaluate().")
        result = Evaluation.from_row(segment.row())
        warn_if_undefined_in(result, "AUC-ROC", "AUC-PR", "normalised AUC-PR")
        return result

    def sweep(self):
        """The :class:`fastpr.SweptRanking` of the data seen so far, as :func:`fastpr.sweep`
        gives it on the rows: the operating points, the ROC hull and the Evaluation, so every
        curve function, figure and operating-point query reads the merged state without the
        rows. The one difference: a score whose rows all weigh 0 is not held, so it is no
        point of the curves here (it moves no point there).

        Raises and warns as :meth:`evaluate` does.
        """
        segment, _ = self._state()
        if not segment.size:
            raise ValueError("the Accumulator is empty: no row of nonzero weight has been "
                             "added; update() it with data before sweep().")
        swept = swept_ranking(segment.with_weights_as(np.float64).ranking)
        warn_if_undefined_in(swept.evaluation, "AUC-ROC", "AUC-PR", "normalised AUC-PR")
        return swept

    def to_arrays(self):
        """(scores, pos_weight, neg_weight): copies of the state, scores strictly ascending;
        the weights are int64 counts while the state counts exactly (see Notes), else
        float64."""
        return tuple(array.copy() for array in self._state()[0].arrays())

    @classmethod
    def from_arrays(cls, scores, pos_weight, neg_weight):
        """An accumulator from the arrays of :meth:`to_arrays` (or any scores with weights).

        The arrays need not be sorted or compacted: they are, here. Scores must be real without
        NaN and weights finite and >= 0. Integer weights (of an integer type, or integral
        values) are counted exactly, as :meth:`update` counts them.
        """
        given = tuple(np.asarray(weight) for weight in (pos_weight, neg_weight))
        scores, pos_weight, neg_weight = _checked_arrays(scores, pos_weight, neg_weight)
        if scores.size and all(weight.dtype.kind in "biu" for weight in given) and (
                pos_weight.sum() + neg_weight.sum() < 2.0**62):
            # Counts of any size below 2^62 (a state moved from to_arrays), added up in int64.
            return cls._holding(*_counted_arrays(scores, *given))
        order = stable_argsort(scores)
        scores = scores[order]
        # One array viewed as both classes: the positive weights ride on the first view and the
        # negative weights on the second, and compacting adds up the ties.
        ranking = SortedRanking(scores, pos_weight[order], scores, neg_weight[order])
        segment = CompactedSegment.of_ranking(ranking)
        segment.check_total("pos_weight and neg_weight")
        return cls._holding(segment, _integer_total(np.concatenate([pos_weight, neg_weight]),
                                                    0))

    @property
    def n_distinct(self):
        """Number of distinct scores held (entries of the state)."""
        return int(self._state()[0].size)

    @property
    def n_pos(self):
        """Total positive weight seen: an int while the state counts exactly, else a float."""
        return self._total("pos_weight")

    @property
    def n_neg(self):
        """Total negative weight seen: an int while the state counts exactly, else a float."""
        return self._total("neg_weight")

    def _total(self, name):
        segment, count = self._state()
        total = getattr(segment, name).sum()
        return float(total) if count is None else int(total)

    def __repr__(self):
        return (f"Accumulator(n_distinct={self.n_distinct}, n_pos={self.n_pos:.6g}, "
                f"n_neg={self.n_neg:.6g})")


# The type of exact counts, and the largest total weight of one chunk that float64 compacts
# exactly when every weight is an integer (each partial sum is then an integer <= 2^53).
_COUNT = np.dtype(np.int64)
_EXACT_IN_FLOAT64 = 2**53
# Chunks of fewer rows wait to be sorted together with others until they hold this many:
# a sort, a compaction and a merge per chunk cost tens of microseconds each, however small
# the chunk. The wait holds at most about 1 MiB of rows.
_BATCH_ROWS = 1 << 16


def _integer_total(weights, n_rows):
    """The total of a chunk's weights as an int, where they are integers adding up to at most
    2^53 (so float64 compacted them exactly); None otherwise. No weights: ``n_rows``."""
    if weights is None:
        return n_rows
    if not np.array_equal(weights, np.trunc(weights)):
        return None
    # The float sum is within a relative 1e-6 of the exact one for any number of rows, so
    # below this bound the int64 sum cannot overflow.
    if weights.sum() > 2.0 * _EXACT_IN_FLOAT64:
        return None
    total = int(weights.astype(np.int64).sum())
    return total if total <= _EXACT_IN_FLOAT64 else None


def _counted_arrays(scores, pos_weight, neg_weight):
    """(segment of int64 counts, their total) of validated integer weights (of an integer
    type, adding up to less than 2^63) given with their validated scores."""
    order = stable_argsort(scores)
    ordered = scores[order]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])  # -0.0 == 0.0: one
    pos = np.add.reduceat(pos_weight.astype(_COUNT)[order], starts)
    neg = np.add.reduceat(neg_weight.astype(_COUNT)[order], starts)
    kept = (pos != 0) | (neg != 0)
    total = int(pos.sum()) + int(neg.sum())
    return CompactedSegment(ordered[starts][kept] + 0.0, pos[kept], neg[kept]), total


def _weight_sum(segment):
    """The total weight of a segment, as a float."""
    return float(segment.pos_weight.sum()) + float(segment.neg_weight.sum())


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
