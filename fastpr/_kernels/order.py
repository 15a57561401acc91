"""The ranking of a learner: rows by descending score, ties in row order (a stable sort).

A stable argsort is the slow kind of sort (NumPy's takes 10x its plain sort of the same floats).
Here each row becomes one unsigned 64-bit key, the score's order-preserving bits above and the
row number below, so that a plain sort of the keys is the stable descending argsort: equal keys
cannot occur, and among equal scores the row number decides. The row number takes the low
``b`` bits (``2**b >= n``), which leaves the score its top ``64 - b`` bits: all of a float32
(35 bits as a float64) for up to 2**29 rows, and all but the last mantissa bits of a float64.
Rows whose scores differ only in those last bits land in one run of equal score bits, in row
order, and ``unpack_order`` sorts each such run by the whole score.

Preconditions: scores float64 (or float32) without NaN, fewer than 2**62 of them.
"""
import numpy as np

from .._jit import jit

_SIGN = np.uint64(1 << 63)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
_ONE = np.uint64(1)


@jit
def row_bits(n):
    """How many low key bits hold a row number below ``n``: at least 1."""
    bits = 1
    while (1 << bits) < n:
        bits += 1
    return bits


@jit
def descending_key(score):
    """An unsigned key that orders scores from the highest down; -0.0 and 0.0 share one."""
    bits = np.float64(score + 0.0).view(np.uint64)  # + 0.0 turns -0.0 into 0.0
    ascending = bits ^ (_ALL if bits >> np.uint64(63) else _SIGN)
    return ~ascending


@jit
def pack_keys(scores, keys):
    """Write the key of every row into ``keys`` (uint64, as long as ``scores``)."""
    bits = np.uint64(row_bits(scores.size))
    high = ~((_ONE << bits) - _ONE)
    for row in range(scores.size):
        keys[row] = (descending_key(scores[row]) & high) | np.uint64(row)


@jit
def unpack_order(scores, keys, order):
    """Rows of the sorted ``keys`` into ``order`` (int64; it may be ``keys`` itself, viewed as
    int64), each run of rows whose scores share the packed bits sorted by their whole score,
    stably."""
    n = scores.size
    bits = np.uint64(row_bits(n))
    low = (_ONE << bits) - _ONE
    start = 0
    run = keys[0] >> bits if n else _ONE  # the packed score bits of the run from ``start``
    for k in range(n):
        key = keys[k]
        order[k] = np.int64(key & low)
        if key >> bits != run:
            if k - start > 1:
                _sort_run(scores, order[start:k])
            start = k
            run = key >> bits
    if n - start > 1:
        _sort_run(scores, order[start:n])


@jit
def _sort_run(scores, rows):
    """Sort ``rows`` (in row order, scores equal in their packed bits) by descending score."""
    keys = np.empty(rows.size, dtype=np.uint64)
    tied = True
    for k in range(rows.size):
        keys[k] = descending_key(scores[rows[k]])
        tied &= keys[k] == keys[0]
    if not tied:  # equal scores are in row order already
        sort_by_key(keys, rows)


@jit
def sort_by_key(keys, rows):
    """Sort ``keys`` ascending and permute ``rows`` alongside; stable (a bottom-up merge sort,
    which compiles in a fraction of the time of numba's sorts)."""
    n = keys.size
    key_from, row_from = keys, rows
    key_to, row_to = np.empty_like(keys), np.empty_like(rows)
    width = 1
    moved = False  # whether the sorted values sit in the scratch arrays
    while width < n:
        for start in range(0, n, 2 * width):
            middle = min(start + width, n)
            end = min(start + 2 * width, n)
            i, j = start, middle
            for k in range(start, end):
                if j >= end or (i < middle and key_from[i] <= key_from[j]):  # ties: left first
                    key_to[k], row_to[k] = key_from[i], row_from[i]
                    i += 1
                else:
                    key_to[k], row_to[k] = key_from[j], row_from[j]
                    j += 1
        key_from, key_to = key_to, key_from
        row_from, row_to = row_to, row_from
        moved = not moved
        width *= 2
    if moved:
        for k in range(n):
            keys[k] = key_from[k]
            rows[k] = row_from[k]


@jit
def descending_order(scores, order):
    """Write the stable descending order of ``scores`` (row numbers) into ``order``.

    For compiled callers: a merge sort of the scores' keys. From Python, NumPy's sort of the
    packed keys between ``pack_keys`` and ``unpack_order`` is several times faster.
    """
    keys = np.empty(scores.size, dtype=np.uint64)
    for row in range(scores.size):
        keys[row] = descending_key(scores[row])
        order[row] = row
    sort_by_key(keys, order)


@jit
def ranking_order(scores, offsets, order):
    """``descending_order`` of each segment ``offsets[g]:offsets[g + 1]`` of ``scores`` into
    the same segment of ``order``, as row numbers of the whole array."""
    for g in range(offsets.size - 1):
        first = offsets[g]
        segment = order[first:offsets[g + 1]]
        descending_order(scores[first:offsets[g + 1]], segment)
        for k in range(segment.size):
            segment[k] += first


@jit
def regroup(order, codes, starts, grouped):
    """A stable counting sort of the rows of ``order`` by group code: group c's rows, in their
    order in ``order``, go to ``grouped[starts[c]:starts[c + 1]]``."""
    cursor = starts[:-1].copy()
    for k in range(order.size):
        row = order[k]
        c = codes[row]
        grouped[cursor[c]] = row
        cursor[c] += 1
