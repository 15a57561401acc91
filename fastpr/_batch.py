"""Tables of many validated rankings: rows of a 2-D batch, ragged segments, groups.

Each ranking becomes one row of the table of ``fastpr._kernels.batch`` (weights, point count,
areas). Work is spread over ``numba.get_num_threads()`` threads: numba's ``prange`` for many short
segments, a thread pool around NumPy's sort (which releases the GIL) and the nogil kernels for
long rows. Every ranking is computed whole by one thread, so results do not depend on the count.
"""
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ._jit import thread_count
from ._kernels import batch as _kernels
from ._ranking import sort_validated

# From this length on, NumPy's SIMD sort plus a Python call beats numba's sort inside prange.
_LARGE_SEGMENT = 2048
# Rows per block of the shared-labels path: enough to amortise the calls, few enough to balance.
_ROWS_PER_TASK = 32
_NO_WEIGHTS = np.empty(0)
_NO_ROWS = np.empty(0, dtype=np.int64)


def _run(tasks):
    """Call every task, on a thread pool when there is more than one thread and task."""
    n_threads = min(thread_count(), len(tasks))
    if n_threads <= 1:
        for task in tasks:
            task()
        return
    with ThreadPoolExecutor(max_workers=n_threads) as pool:
        for done in [pool.submit(task) for task in tasks]:
            done.result()


def _shared_label_worker(is_positive, scores, table, firsts):
    """Take blocks of rows (starting at ``firsts``, shared with the other workers) of a batch
    whose rows share unweighted labels: split, 2-D NumPy sort, sweep.

    The class buffers are allocated once per worker: fresh pages for every block would cost
    page faults, which threads serialise on the kernel's memory-map lock.
    """
    n_pos = int(np.count_nonzero(is_positive))
    n_neg = is_positive.size - n_pos
    pos = np.empty((_ROWS_PER_TASK, n_pos + 1), dtype=scores.dtype)
    neg = np.empty((_ROWS_PER_TASK, n_neg + 1), dtype=scores.dtype)
    for first in firsts:  # next() on a shared iterator is atomic under the GIL
        rows = scores[first:first + _ROWS_PER_TASK]
        m = rows.shape[0]
        _kernels.split_rows(rows, is_positive, pos[:m], neg[:m])
        pos[:m, :n_pos].sort(axis=1)
        neg[:m, :n_neg].sort(axis=1)
        _kernels.sorted_rows_into(pos[:m], n_pos, neg[:m], n_neg, table[first:first + m])


def rows_table(is_positive, scores, weights):
    """Table of the rows of ``scores`` (m, n); labels (n,) or (m, n); weights None, (n,), (m, n)."""
    m, n = scores.shape
    if is_positive.ndim == 1 and weights is None:
        table = np.empty((m, _kernels.N_COLUMNS))
        firsts = iter(range(0, m, _ROWS_PER_TASK))
        n_workers = min(thread_count(), -(-m // _ROWS_PER_TASK))
        _run([lambda: _shared_label_worker(is_positive, scores, table, firsts)] * n_workers)
        return table
    labels = np.broadcast_to(is_positive, (m, n)).ravel()
    if weights is not None:
        weights = np.broadcast_to(weights, (m, n)).ravel()
    return segments_table(scores.ravel(), labels, weights, np.arange(m + 1, dtype=np.int64) * n)


def segments_table(scores, is_positive, weights, starts, order=_NO_ROWS):
    """Table of the segments of one validated ranking.

    Segment g is rows ``order[starts[g]:starts[g + 1]]``, or ``starts[g]:starts[g + 1]`` when
    ``order`` is empty.
    """
    table = np.empty((starts.size - 1, _kernels.N_COLUMNS))
    _kernels.segments_into(scores, is_positive, _NO_WEIGHTS if weights is None else weights,
                           order, starts, _LARGE_SEGMENT, table)

    def one_large(g):
        rows = slice(starts[g], starts[g + 1])
        if order.size:
            rows = order[rows]
        ranking = sort_validated(is_positive[rows], scores[rows],
                                 None if weights is None else weights[rows])
        _kernels.record_sorted(ranking.pos, ranking.pos_weight, ranking.neg, ranking.neg_weight,
                               table[g])

    large = np.flatnonzero(np.diff(starts) >= _LARGE_SEGMENT).tolist()
    _run([lambda g=g: one_large(g) for g in large])
    return table


def _codes(groups):
    """(ids, codes): sorted distinct group ids and each row's position among them.

    Integer ids of a compact range need no sort: the code is the id minus the smallest one.
    """
    if groups.dtype.kind in "iu":
        low, high = groups.min(), groups.max()
        if int(high) - int(low) <= 2 * groups.size:
            # Subtract in a type that cannot overflow: int64 for narrow ids, the ids' own type
            # for 64-bit ones (their span fits because it is at most 2n).
            wide = groups if groups.dtype.itemsize == 8 else groups.astype(np.int64)
            codes = (wide - wide.dtype.type(low)).astype(np.int64)
            present = np.bincount(codes) > 0
            if present.all():
                return np.arange(int(low), int(high) + 1).astype(groups.dtype), codes
            renumber = np.cumsum(present) - 1
            return np.flatnonzero(present).astype(groups.dtype) + low, renumber[codes]
    ids, codes = np.unique(groups, return_inverse=True)
    return ids, codes.reshape(-1).astype(np.int64)


def groups_table(scores, is_positive, weights, groups):
    """(ids, table): one row per distinct group id, in sorted id order."""
    ids, codes = _codes(groups)
    order, starts = _kernels.stable_order(codes, ids.size)
    return ids, segments_table(scores, is_positive, weights, starts, order)
