"""Kernels that fill many rows of a table: blocks of a 2-D batch, ranges of ragged segments.

Every ranking goes through the same serial kernel as a single one (``rows.record``) and lands in
one row, so results equal single calls bit for bit and do not depend on how rankings are spread
over threads.

Preconditions (checked by the API): scores without NaN (``sorted_rows_into`` finds them
itself), weights finite and >= 0 (or an empty array for unit weights), ``starts``
non-decreasing from 0 to the length of the scores.
"""
import numpy as np

from ..jit import helper, jit
from .merge_sort import merge_sorted
from .rows import record
from .split import split_by_class, split_into


@jit
def split_rows(scores, is_positive, pos, neg):
    """Split row r of ``scores`` by ``is_positive[r]`` into ``pos[r]`` / ``neg[r]``.

    Each output row is filled with +inf past its class count, so that sorting the rows sorts
    each class into its first (class count) columns: a real +inf equals the filling, so which of
    them lands there makes no difference. The outputs need one column more than the largest
    class count (see ``split_into``); ``is_positive`` has one row per ranking or one row that
    all share.
    """
    shared = is_positive.shape[0] == 1
    for r in range(scores.shape[0]):
        n_pos = split_into(scores[r], is_positive[0 if shared else r], pos[r], neg[r])
        pos[r, n_pos:] = np.inf
        neg[r, scores.shape[1] - n_pos:] = np.inf


@jit
def sorted_rows_into(pos, n_pos, neg, n_neg, table):
    """Table rows of rankings whose classes are sorted in ``pos[r, :n_pos[r]]`` / ``neg[r,
    :n_neg[r]]``: the rows of ``split_rows`` sorted except for their spare last column.

    Returns False, leaving the remaining rows unset, at the first ranking with a NaN score: sorts
    put NaN last, after the +inf filling, so checking the last sorted column finds them for free.
    """
    no_weights = np.empty(0)
    no_points = np.empty((3, 0))
    pos_last = pos.shape[1] - 2
    neg_last = neg.shape[1] - 2
    for r in range(pos.shape[0]):
        if (pos_last >= 0 and np.isnan(pos[r, pos_last])
                or neg_last >= 0 and np.isnan(neg[r, neg_last])):
            return False
        record(pos[r, :n_pos[r]], no_weights, neg[r, :n_neg[r]], no_weights, no_points, table[r])
    return True


@jit(inline="always")  # no layer of its own around the sweep (see rows.record)
def _record_segment(scores, is_positive, weights, row):
    """Split, sort, sweep and record one segment (weights empty for unit weights)."""
    pos, neg = split_by_class(scores, is_positive)
    pos_w, neg_w = split_by_class(weights, is_positive) if weights.size else (weights, weights)
    pos, pos_w = merge_sorted(pos, pos_w)
    neg, neg_w = merge_sorted(neg, neg_w)
    record(pos, pos_w, neg, neg_w, np.empty((3, 0)), row)


@helper
def _gathered(values, rows):
    """values[rows] for a non-empty ``values``; an empty ``values`` stays empty (no weights)."""
    if values.size == 0:
        return values[:0].copy()
    out = np.empty(rows.size, dtype=values.dtype)
    for k in range(rows.size):
        out[k] = values[rows[k]]
    return out


@jit
def segments_into(scores, is_positive, weights, order, starts, first, last, large, table):
    """Table rows of the segments ``first .. last - 1`` shorter than ``large``.

    Segment g holds rows ``order[starts[g]:starts[g + 1]]`` of the inputs, or rows
    ``starts[g]:starts[g + 1]`` when ``order`` is empty; gathering here, per segment, spreads the
    random reads over the threads that call this on separate ranges of segments. Longer segments
    are left for the caller, whose NumPy sort beats a compiled one on them. Each segment is sorted
    here by ``merge_sorted``, stably when weights ride along (as NumPy's stable sort in the
    single-ranking path). The caller passes float64 scores (float32 ones converted, exactly),
    so that this kernel compiles for one score type.
    """
    indirect = order.size > 0
    for g in range(first, last):
        a = starts[g]
        b = starts[g + 1]
        if b - a >= large:
            continue
        if indirect:
            rows = order[a:b]
            _record_segment(_gathered(scores, rows), _gathered(is_positive, rows),
                            _gathered(weights, rows), table[g])
        else:
            _record_segment(scores[a:b], is_positive[a:b], weights[a:b], table[g])


@jit
def stable_order(codes, n_codes):
    """(order, starts): a stable counting sort of integer codes in [0, n_codes).

    ``order`` lists row indices grouped by code, each group in input order; group c occupies
    ``order[starts[c]:starts[c + 1]]``.
    """
    starts = np.zeros(n_codes + 1, dtype=np.int64)
    for k in range(codes.size):
        starts[codes[k] + 1] += 1
    for c in range(n_codes):
        starts[c + 1] += starts[c]
    cursor = starts[:-1].copy()
    order = np.empty(codes.size, dtype=np.int64)
    for k in range(codes.size):
        c = codes[k]
        order[cursor[c]] = k
        cursor[c] += 1
    return order, starts
