"""Tables of many validated rankings: rows of a 2-D batch, ragged segments, groups.

Each ranking becomes one row of the table of ``fastpr._engine.kernels.rows`` (weights, point count,
areas). Work is spread over the threads of ``fastpr._engine.pool``, as many as numba's thread count:
each takes long rows or segments for NumPy's sort (which releases the GIL) and the nogil
kernels, and ranges of short segments for one nogil kernel that sorts them with numba's sort.
No numba threading layer is started, so callers may fork and may call from many threads on any
layer. Every ranking is computed whole by one thread, so results do not depend on the count.
"""
import numpy as np

from .. import _validation
from .jit import thread_count
from .kernels import rows as row_kernels
from .pool import run_all
from .ranking import sort_validated

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
        row_kernels.split_rows(rows, labels, pos[:m], neg[:m])
        pos[:m, :pos_width].sort(axis=1)
        neg[:m, :neg_width].sort(axis=1)
        if not row_kernels.sorted_rows_into(pos[:m], n_pos[block], neg[:m], n_neg[block],
                                         table[block]):
            for _ in firsts:  # take the blocks left, so that the other workers stop too
                pass
            return False
    return True


def rows_table(is_positive, scores, weights):
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
        table = np.empty((m, row_kernels.N_COLUMNS))
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
    return segments_table(scores.ravel(), labels, weights, np.arange(m + 1, dtype=np.int64) * n)


def segment_ranges(starts, n_threads):
    """[(first, last)]: ranges of segments of about ``_BLOCK_SCORES`` rows each, fewer rows when
    that leaves under ``_BLOCKS_PER_THREAD`` ranges per thread, but not under
    ``_MIN_RANGE_SCORES``."""
    n_rows = int(starts[-1])
    block = max(_MIN_RANGE_SCORES,
                min(_BLOCK_SCORES, n_rows // (_BLOCKS_PER_THREAD * n_threads)))
    bounds = np.searchsorted(starts[:-1], np.arange(0, n_rows, block)).tolist()
    return list(zip(bounds, bounds[1:] + [starts.size - 1]))


def segments_table(scores, is_positive, weights, starts, order=_NO_ROWS):
    """Table of the segments of one validated ranking.

    Segment g is rows ``order[starts[g]:starts[g + 1]]``, or ``starts[g]:starts[g + 1]`` when
    ``order`` is empty.
    """
    table = np.empty((starts.size - 1, row_kernels.N_COLUMNS))
    weights = _NO_WEIGHTS if weights is None else weights
    n_threads = thread_count()
    ranges = segment_ranges(starts, n_threads)
    large = np.flatnonzero(np.diff(starts) >= _LARGE_SEGMENT).tolist()
    n_tasks = min(n_threads, len(ranges) + len(large))
    ranges, large = iter(ranges), iter(large)

    def worker():
        # Long segments one by one, then ranges of short ones (the small pieces last, to even
        # out the threads' finishing times), each taken from an iterator that the workers share
        # (next() on it is atomic under the GIL).
        for g in large:
            rows = slice(starts[g], starts[g + 1])
            if order.size:
                rows = order[rows]
            ranking = sort_validated(is_positive[rows], scores[rows],
                                     weights[rows] if weights.size else None)
            row_kernels.record_sorted(ranking.pos, ranking.pos_weight, ranking.neg,
                                   ranking.neg_weight, table[g])
        for first, last in ranges:
            row_kernels.segments_into(scores, is_positive, weights, order, starts, first, last,
                                   _LARGE_SEGMENT, table)

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


def groups_table(scores, is_positive, weights, groups):
    """(ids, table): one row per distinct group id, in sorted id order."""
    ids, codes = group_codes(groups)
    order, starts = row_kernels.stable_order(codes, ids.size)
    return ids, segments_table(scores, is_positive, weights, starts, order)
