"""The one entry from validated rankings to their table: one ranking, rows of a 2-D batch, ragged
segments (groups, offsets, classes).

:func:`table` gives each of the validated rankings (:class:`Rankings`, made by
``fastpr._rankings.rankings_of``) one row in the layout of ``kernels/layout.py``, by the strategy
that suits the input; every strategy ends in the kernel ``rows.record``. The work
goes over threads by ``fastpr._engine.batch``: blocks of rows or long segments for NumPy's sort
(which releases the GIL) and the nogil kernels, and ranges of short segments for one nogil
kernel that sorts them with numba's sort. Every ranking is computed whole by one thread, so
results do not depend on the count.
"""
from dataclasses import dataclass

import numpy as np

# The batch's chunk sizes are read here at each call: tests lower them to reach threads and
# chunk boundaries with small input.
from .batch import (BLOCK_SCORES as _BLOCK_SCORES, BLOCKS_PER_THREAD, PerThread, each,
                    MIN_RANGE_SCORES as _MIN_RANGE_SCORES, row_of, segment_ranges, spread,
                    THREADED_MIN_SCORES as _THREADED_MIN_SCORES, threads_for)
from .jit import thread_count
from .kernels import tables as table_kernels
from .kernels.rows import N_COLUMNS
from .ranking import record_into, sort_validated

# From this length on, NumPy's SIMD sort plus the Python calls around it beat numba's sort in a
# kernel (numba's quicksort costs 12 us at 1,024 scores and 70 us at 2,048; NumPy's 3 and 6 us).
_LARGE_SEGMENT = 1024
_NO_WEIGHTS = np.empty(0)
_NO_ROWS = np.empty(0, dtype=np.int64)


class ScoresHoldNaN(Exception):
    """An unweighted 2-D batch holds NaN, which its sort found: the input layer, which left
    that check to the sort, names the first."""


@dataclass(frozen=True)
class Rankings:
    """Validated rankings, not yet sorted: what :func:`table` takes.

    ``scores`` 1-D is one ranking, or with ``starts`` ragged segments of one array: segment g is
    rows ``order[starts[g]:starts[g + 1]]``, or ``starts[g]:starts[g + 1]`` without ``order``.
    ``scores`` 2-D holds one ranking per row, with labels of shape (n,) or (m, n) and weights
    None, (n,) or (m, n); unweighted, it may still hold NaN (``table`` finds it while sorting
    and raises :class:`ScoresHoldNaN`). Labels
    are bool (True = positive), weights None for unit weights. ``index`` names the rankings of a
    table ("ranking" numbers, "model" names, "group" ids, "class" labels, as ``index_name``
    says), None for one ranking.
    """

    is_positive: np.ndarray
    scores: np.ndarray
    weights: np.ndarray = None
    starts: np.ndarray = None
    order: np.ndarray = None
    index: np.ndarray = None
    index_name: str = "ranking"


def table(rankings):
    """The table of :class:`Rankings`: one row per ranking (one row for one ranking)."""
    if rankings.scores.ndim == 2:
        return _rows_table(rankings.is_positive, rankings.scores, rankings.weights)
    if rankings.starts is None:
        one = np.empty((1, N_COLUMNS))
        record_into(sort_validated(rankings.is_positive, rankings.scores, rankings.weights),
                    one[0])
        return one
    order = _NO_ROWS if rankings.order is None else rankings.order
    return _segments_table(rankings.scores, rankings.is_positive, rankings.weights,
                           rankings.starts, order)


def read_each(rankings, read):
    """``[read(ranking) for ranking in sorted_rankings(rankings)]``, the rankings sorted and
    read on threads (``batch.each``) where their scores repay it: for callers that read a
    ranking's points and keep a few numbers of each."""
    return each(lambda r: read(_sorted_ranking(rankings, r)), range(_n_rankings(rankings)),
                rankings.scores.size)


def _n_rankings(rankings):
    if rankings.scores.ndim == 2:
        return rankings.scores.shape[0]
    return 1 if rankings.starts is None else rankings.starts.size - 1


def _sorted_ranking(rankings, r):
    """Ranking ``r`` of :class:`Rankings` split by class and sorted."""
    if rankings.scores.ndim == 2:
        return sort_validated(row_of(rankings.is_positive, r), rankings.scores[r],
                              row_of(rankings.weights, r))
    if rankings.starts is None:
        return sort_validated(rankings.is_positive, rankings.scores, rankings.weights)
    rows = slice(rankings.starts[r], rankings.starts[r + 1])
    if rankings.order is not None:
        rows = rankings.order[rows]
    return sort_validated(rankings.is_positive[rows], rankings.scores[rows],
                          None if rankings.weights is None else rankings.weights[rows])


def sorted_rankings(rankings):
    """Each ranking of :class:`Rankings` split by class and sorted, in table order, one at a
    time: for callers that keep more of a ranking than its row (its points, its hull)."""
    for r in range(_n_rankings(rankings)):
        yield _sorted_ranking(rankings, r)


def _rows_table(is_positive, scores, weights):
    """Table of the rows of ``scores`` (m, n); labels (n,) or (m, n); weights None, (n,), (m, n).

    Unweighted scores may hold NaN (the one check left out of validation, because the sort reads
    the rows anyway): they raise :class:`ScoresHoldNaN`.
    """
    m, n = scores.shape
    if weights is not None:
        # Shared 1-D labels or weights repeat for every row. np.resize copies, where a broadcast
        # view would be read-only, a type for which numba compiles the kernel again.
        labels, weights = np.resize(is_positive, m * n), np.resize(weights, m * n)
        starts = np.arange(m + 1, dtype=np.int64) * n
        return _segments_table(scores.ravel(), labels, weights, starts, _NO_ROWS)
    # Unweighted: blocks of rows split by class, sorted by NumPy's 2-D sort, swept.
    if is_positive.ndim == 1:
        n_pos = np.full(m, np.count_nonzero(is_positive))
        is_positive = is_positive[np.newaxis]
    else:
        n_pos = np.count_nonzero(is_positive, axis=1)
    n_neg = n - n_pos
    table = np.empty((m, N_COLUMNS))
    n_threads = threads_for(m * n, _THREADED_MIN_SCORES)
    block_rows = max(1, min(_BLOCK_SCORES // n, m // (BLOCKS_PER_THREAD * n_threads)))
    buffers = _ClassRows(block_rows, int(n_pos.max()), int(n_neg.max()), scores.dtype)

    def record_block(first):
        block = slice(first, first + block_rows)
        rows = scores[block]
        pos, neg = buffers.pos[:rows.shape[0]], buffers.neg[:rows.shape[0]]
        labels = is_positive if is_positive.shape[0] == 1 else is_positive[block]
        table_kernels.split_rows(rows, labels, pos, neg)
        pos[:, :buffers.pos_width].sort(axis=1)
        neg[:, :buffers.neg_width].sort(axis=1)
        if not table_kernels.sorted_rows_into(pos, n_pos[block], neg, n_neg[block], table[block]):
            raise ScoresHoldNaN  # (the sort brings NaN to the end of its row)

    spread(record_block, range(0, m, block_rows), n_threads)
    return table


class _ClassRows(PerThread):
    """One thread's class buffers for blocks of rows, made at its first block, as wide as the
    largest class (and the spare column of ``split_rows``): fresh pages for every block would
    cost page faults, which threads serialise on the kernel's memory-map lock."""

    def __init__(self, block_rows, pos_width, neg_width, dtype):
        self.pos_width, self.neg_width = pos_width, neg_width
        self.pos = np.empty((block_rows, pos_width + 1), dtype=dtype)
        self.neg = np.empty((block_rows, neg_width + 1), dtype=dtype)


def _segments_table(scores, is_positive, weights, starts, order):
    """Table of the segments of one validated ranking.

    Segment g is rows ``order[starts[g]:starts[g + 1]]``, or ``starts[g]:starts[g + 1]`` when
    ``order`` is empty. Long segments go one by one to NumPy's sort, ranges of short ones to one
    kernel; the long ones first, so that the small pieces come last and even out the threads'
    finishing times.
    """
    table = np.empty((starts.size - 1, N_COLUMNS))
    n_threads = thread_count()
    ranges = segment_ranges(starts, n_threads, _BLOCK_SCORES, _MIN_RANGE_SCORES)
    large = np.flatnonzero(np.diff(starts) >= _LARGE_SEGMENT).tolist()
    # Short segments are swept as float64 whatever the scores' type (exact for float32), so
    # their kernel compiles once: a float32 copy would cost seconds at its first use.
    short_scores = scores.astype(np.float64, copy=False)
    some_weights = _NO_WEIGHTS if weights is None else weights

    def record(chunk):
        if type(chunk) is tuple:  # a range of segments
            table_kernels.segments_into(short_scores, is_positive, some_weights, order, starts,
                                        *chunk, _LARGE_SEGMENT, table)
            return
        rows = slice(starts[chunk], starts[chunk + 1])
        if order.size:
            rows = order[rows]
        record_into(sort_validated(is_positive[rows], scores[rows],
                                   None if weights is None else weights[rows]), table[chunk])

    spread(record, large + ranges, n_threads)
    return table
