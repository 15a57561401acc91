"""The one entry from validated rankings to their table: one ranking, rows of a 2-D batch, ragged
segments (groups, offsets, classes).

:func:`rankings_of` validates the input of every ranking-level function into :class:`Rankings`,
and :func:`table` gives each ranking one row in the layout of ``fastpr._engine.kernels.rows``, by
the strategy that suits the input; every strategy ends in the kernel ``rows.record``. Work is
spread over the threads of ``fastpr._engine.pool``, as many as numba's thread count:
each takes long rows or segments for NumPy's sort (which releases the GIL) and the nogil
kernels, and ranges of short segments for one nogil kernel that sorts them with numba's sort.
No numba threading layer is started, so callers may fork and may call from many threads on any
layer. Every ranking is computed whole by one thread, so results do not depend on the count.
"""
from dataclasses import dataclass

import numpy as np

from .. import _validation
from .jit import thread_count
from .kernels import tables as table_kernels
from .kernels.rows import N_COLUMNS
from .pool import run_all
from .ranking import record_into, sort_validated

# From this length on, NumPy's SIMD sort plus the Python calls around it beat numba's sort in a
# kernel (numba's quicksort costs 12 us at 1,024 scores and 70 us at 2,048; NumPy's 3 and 6 us).
_LARGE_SEGMENT = 1024
# Scores per block of rows in the unweighted 2-D path: enough to amortise the Python calls, few
# enough to keep a block's class buffers in cache; and at least this many blocks per thread.
_BLOCK_SCORES = 1 << 16
_BLOCKS_PER_THREAD = 4
# Below this many scores in all, handing work to the thread pool costs more than it saves.
_THREADED_MIN_SCORES = 1 << 17
# The fewest rows of short segments handed to a thread at once (about 40 segments of 100 rows):
# fewer would cost more in Python calls than they take.
_MIN_RANGE_SCORES = 1 << 12
_NO_WEIGHTS = np.empty(0)
_NO_ROWS = np.empty(0, dtype=np.int64)


@dataclass(frozen=True)
class Rankings:
    """Validated rankings, not yet sorted: what :func:`table` takes.

    ``scores`` 1-D is one ranking, or with ``starts`` ragged segments of one array: segment g is
    rows ``order[starts[g]:starts[g + 1]]``, or ``starts[g]:starts[g + 1]`` without ``order``.
    ``scores`` 2-D holds one ranking per row, with labels of shape (n,) or (m, n) and weights
    None, (n,) or (m, n); it may still hold NaN (``table`` rejects it while sorting). Labels
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


def rankings_of(y_true, y_score, sample_weight=None, pos_label=None, groups=None, offsets=None):
    """The :class:`Rankings` of a ranking-level function's input: one ranking for a 1-D
    ``y_score``, one per row of a 2-D one or per column of a table of models (named by the
    columns), one per group of ``groups`` or ``offsets``."""
    names = None
    if _validation.is_model_table(y_score):
        names, y_score = _validation.model_table(y_score)
    y_score = _validation.as_array("y_score", y_score)
    if groups is None and offsets is None:
        if y_score.ndim != 2:
            return Rankings(*_validation.check_binary_inputs(y_true, y_score, sample_weight,
                                                             pos_label))
        is_positive, scores, weights = _validation.check_batch_inputs(
            y_true, y_score, sample_weight, pos_label, find_nan=False)
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
        order, starts = table_kernels.stable_order(codes, ids.size)
        return Rankings(is_positive, scores, weights, starts, order, ids, "group")
    starts = _validation.offsets(offsets, scores.size)
    return Rankings(is_positive, scores, weights, starts, index=np.arange(starts.size - 1),
                    index_name="group")


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


def sorted_rankings(rankings):
    """Each ranking of :class:`Rankings` split by class and sorted, in table order, one at a
    time: for callers that keep more of a ranking than its row (its points, its hull)."""
    if rankings.scores.ndim == 2:
        _validation.reject_nan("y_score", rankings.scores)
        for r in range(rankings.scores.shape[0]):
            yield sort_validated(_row(rankings.is_positive, r), rankings.scores[r],
                                 _row(rankings.weights, r))
        return
    if rankings.starts is None:
        yield sort_validated(rankings.is_positive, rankings.scores, rankings.weights)
        return
    for g in range(rankings.starts.size - 1):
        rows = slice(rankings.starts[g], rankings.starts[g + 1])
        if rankings.order is not None:
            rows = rankings.order[rows]
        yield sort_validated(rankings.is_positive[rows], rankings.scores[rows],
                             None if rankings.weights is None else rankings.weights[rows])


def _row(values, r):
    """Row ``r`` of per-row labels or weights; shared ones (1-D or None) as they are."""
    return values if values is None or values.ndim == 1 else values[r]


def _rows_worker(is_positive, scores, n_pos, table, firsts, block_rows):
    """Take blocks of rows (starting at ``firsts``, shared with the other workers) of an
    unweighted batch: split, 2-D NumPy sort, sweep. ``is_positive`` has a row per ranking, or
    one row that all share, and ``n_pos`` counts each ranking's positives. Returns False if a
    ranking holds NaN, which the sort brings to the end of its row.

    The class buffers are allocated once per worker, as wide as the largest class: fresh pages
    for every block would cost page faults, which threads serialise on the kernel's memory-map
    lock.
    """
    n_neg = scores.shape[1] - n_pos
    pos_width, neg_width = int(n_pos.max()), int(n_neg.max())
    pos = np.empty((block_rows, pos_width + 1), dtype=scores.dtype)
    neg = np.empty((block_rows, neg_width + 1), dtype=scores.dtype)
    for first in firsts:  # next() on a shared iterator is atomic under the GIL
        block = slice(first, first + block_rows)
        rows = scores[block]
        m = rows.shape[0]
        labels = is_positive if is_positive.shape[0] == 1 else is_positive[block]
        table_kernels.split_rows(rows, labels, pos[:m], neg[:m])
        pos[:m, :pos_width].sort(axis=1)
        neg[:m, :neg_width].sort(axis=1)
        if not table_kernels.sorted_rows_into(pos[:m], n_pos[block], neg[:m], n_neg[block],
                                              table[block]):
            for _ in firsts:  # take the blocks left, so that the other workers stop too
                pass
            return False
    return True


def _rows_table(is_positive, scores, weights):
    """Table of the rows of ``scores`` (m, n); labels (n,) or (m, n); weights None, (n,), (m, n).

    The scores may hold NaN (the one check left out of validation, because the rows are read
    here anyway): they raise ValueError naming the first.
    """
    m, n = scores.shape
    if weights is None:
        if is_positive.ndim == 1:
            n_pos = np.full(m, np.count_nonzero(is_positive))
            is_positive = is_positive[np.newaxis]
        else:
            n_pos = np.count_nonzero(is_positive, axis=1)
        table = np.empty((m, N_COLUMNS))
        n_threads = thread_count() if m * n >= _THREADED_MIN_SCORES else 1
        block_rows = max(1, min(_BLOCK_SCORES // n, m // (_BLOCKS_PER_THREAD * n_threads)))
        firsts = iter(range(0, m, block_rows))
        n_workers = min(n_threads, -(-m // block_rows))
        if not all(run_all([lambda: _rows_worker(is_positive, scores, n_pos, table, firsts,
                                              block_rows)] * n_workers)):
            _validation.reject_nan("y_score", scores)
        return table
    _validation.reject_nan("y_score", scores)
    # Shared 1-D labels or weights repeat for every row. np.resize copies, where a broadcast
    # view would be read-only, a type for which numba compiles the kernel again.
    labels, weights = np.resize(is_positive, m * n), np.resize(weights, m * n)
    starts = np.arange(m + 1, dtype=np.int64) * n
    return _segments_table(scores.ravel(), labels, weights, starts, _NO_ROWS)


def segment_ranges(starts, n_threads):
    """[(first, last)]: ranges of segments of about ``_BLOCK_SCORES`` rows each, fewer rows when
    that leaves under ``_BLOCKS_PER_THREAD`` ranges per thread, but not under
    ``_MIN_RANGE_SCORES``."""
    n_rows = int(starts[-1])
    block = max(_MIN_RANGE_SCORES,
                min(_BLOCK_SCORES, n_rows // (_BLOCKS_PER_THREAD * n_threads)))
    bounds = np.searchsorted(starts[:-1], np.arange(0, n_rows, block)).tolist()
    return list(zip(bounds, bounds[1:] + [starts.size - 1]))


def _segments_table(scores, is_positive, weights, starts, order):
    """Table of the segments of one validated ranking.

    Segment g is rows ``order[starts[g]:starts[g + 1]]``, or ``starts[g]:starts[g + 1]`` when
    ``order`` is empty.
    """
    table = np.empty((starts.size - 1, N_COLUMNS))
    weights = _NO_WEIGHTS if weights is None else weights
    n_threads = thread_count()
    ranges = segment_ranges(starts, n_threads)
    large = np.flatnonzero(np.diff(starts) >= _LARGE_SEGMENT).tolist()
    n_tasks = min(n_threads, len(ranges) + len(large))
    ranges, large = iter(ranges), iter(large)
    # Short segments are swept as float64 whatever the scores' type (exact for float32), so
    # their kernel compiles once: a float32 copy would cost seconds at its first use.
    short_scores = scores.astype(np.float64, copy=False)

    def worker():
        # Long segments one by one, then ranges of short ones (the small pieces last, to even
        # out the threads' finishing times), each taken from an iterator that the workers share
        # (next() on it is atomic under the GIL).
        for g in large:
            rows = slice(starts[g], starts[g + 1])
            if order.size:
                rows = order[rows]
            record_into(sort_validated(is_positive[rows], scores[rows],
                                       weights[rows] if weights.size else None), table[g])
        for first, last in ranges:
            table_kernels.segments_into(short_scores, is_positive, weights, order, starts,
                                        first, last, _LARGE_SEGMENT, table)

    # One task per thread: a future per range or per segment would cost more than its work.
    run_all([worker] * n_tasks)
    return table


def group_codes(groups):
    """(ids, codes): sorted distinct group ids and each row's position among them.

    Integer ids of a compact range need no sort: the code is the id minus the smallest one.
    """
    if groups.dtype.kind in "iu":
        low, high = groups.min(), groups.max()
        if int(high) - int(low) <= 2 * groups.size:
            # Subtract and add back in a type that cannot overflow: int64 for narrow ids, the
            # ids' own type for 64-bit ones (their span fits because it is at most 2n).
            wide = groups.dtype if groups.dtype.itemsize == 8 else np.dtype(np.int64)
            low = wide.type(low)
            codes = (groups.astype(wide, copy=False) - low).astype(np.int64)
            present = np.bincount(codes) > 0
            if present.all():
                return (np.arange(present.size, dtype=wide) + low).astype(groups.dtype), codes
            renumber = np.cumsum(present) - 1
            ids = np.flatnonzero(present).astype(wide) + low
            return ids.astype(groups.dtype), renumber[codes]
    ids, codes = np.unique(groups, return_inverse=True)
    return ids, codes.reshape(-1).astype(np.int64)

