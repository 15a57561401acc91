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
    """Rows of the sorted ``keys`` into ``order`` (int64), each run of rows whose scores share
    the packed bits sorted by their whole score, stably."""
    n = scores.size
    bits = np.uint64(row_bits(n))
    low = (_ONE << bits) - _ONE
    for k in range(n):
        order[k] = np.int64(keys[k] & low)
    start = 0
    for k in range(1, n + 1):
        if k < n and (keys[k] >> bits) == (keys[start] >> bits):
            continue
        if k - start > 1:
            _sort_run(scores, order[start:k])
        start = k


@jit
def _sort_run(scores, rows):
    """Sort ``rows`` (in row order, scores equal in their packed bits) by descending score."""
    first = descending_key(scores[rows[0]])
    tied = True
    for k in range(1, rows.size):
        tied &= descending_key(scores[rows[k]]) == first
    if tied:  # equal scores: row order is the order
        return
    keys = np.empty(rows.size, dtype=np.uint64)
    for k in range(rows.size):
        keys[k] = descending_key(scores[rows[k]])
    rows[:] = rows[np.argsort(keys, kind="mergesort")]


@jit
def descending_order(scores, order):
    """Write the stable descending order of ``scores`` (row numbers) into ``order``.

    For compiled callers, with numba's sort; from Python, NumPy's sort of the keys between
    ``pack_keys`` and ``unpack_order`` is faster.
    """
    keys = np.empty(scores.size, dtype=np.uint64)
    pack_keys(scores, keys)
    keys.sort()
    unpack_order(scores, keys, order)


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
