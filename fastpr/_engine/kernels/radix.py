"""Sorting a ranking's two classes for compiled callers: an LSD radix sort, and NumPy's SIMD
sort for large classes without weights.

numba's ``np.sort`` is a branchy quicksort: on the varied rankings a learner scores in a loop it
is about 3.5x slower than these branch-free byte passes (900 values: 39 us against 11 us). From
some thousands of values on, NumPy's own sort is faster still (8,000 values: 68 us against
94 us; 10^6: 16 ms against 23 ms on a 2-core AMD EPYC), and worth reaching through
``numba.objmode``, where the classes sort as ``fastpr.evaluate`` sorts them (a large class in two
halves on two threads). That block holds the GIL while it runs (so threads calling it there
take turns) and is cached with the kernel that contains it.
"""
import numba
import numpy as np

from ..jit import helper, jit
from .class_sort import sorted_classes

_SIGN = np.uint64(1 << 63)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
_BYTE = np.uint64(0xFF)
# From this many values in a class without weights, NumPy's sort (measured: as fast at 4,000
# values, faster from 8,000 on).
NUMPY_SORT_ROWS = 1 << 13


@jit(inline="always")
def _flip(key, to_key):
    """Map float bits to an unsigned key of the same order (to_key) or back."""
    negative = (key >> np.uint64(63)) == (1 if to_key else 0)
    return key ^ (_ALL if negative else _SIGN)


def _numpy_sorted_classes(pos, neg):
    """(pos, neg) sorted as ``fastpr.evaluate`` sorts them, maybe in place: called from objmode."""
    (pos, _), (neg, _) = sorted_classes(pos, None, neg, None)
    return pos, neg


@helper(nogil=False)  # its object-mode block holds the GIL: nogil would only make numba warn
def sort_classes(pos, pos_weight, neg, neg_weight):
    """(pos, pos_weight, neg, neg_weight): each class's scores sorted ascending as float64,
    weights (empty: unit weights) permuted alongside.

    Scores must be float32 or float64 without NaN, in arrays of the caller's own that it does not
    read again (they may be sorted in place); -0.0 and 0.0 are equal. Without weights, once a
    class has ``NUMPY_SORT_ROWS`` values, NumPy's sort (holding the GIL); otherwise the radix
    sort below, stable, into new arrays.
    """
    if pos_weight.size == 0 and max(pos.size, neg.size) >= NUMPY_SORT_ROWS:
        pos64 = np.asarray(pos, dtype=np.float64)  # float64: ``pos`` itself
        neg64 = np.asarray(neg, dtype=np.float64)
        with numba.objmode(pos_sorted="float64[::1]", neg_sorted="float64[::1]"):
            pos_sorted, neg_sorted = _numpy_sorted_classes(pos64, neg64)
        return pos_sorted, pos_weight, neg_sorted, neg_weight
    pos_sorted, pos_moved = _radix_sorted(pos, pos_weight)
    neg_sorted, neg_moved = _radix_sorted(neg, neg_weight)
    return pos_sorted, pos_moved, neg_sorted, neg_moved


@helper
def _radix_sorted(values, payload):
    """(values sorted ascending as float64, payload permuted alongside; may be empty): eight
    stable counting passes, one per byte of the key, skipping bytes that every key shares."""
    n = values.size
    carry = payload.size > 0
    keys = values.astype(np.float64).view(np.uint64)  # always a private copy
    for k in range(n):
        keys[k] = _flip(keys[k], True)
    moved = payload.copy()
    key_scratch = np.empty_like(keys)
    payload_scratch = np.empty_like(moved)
    counts = np.empty(257, dtype=np.int64)
    for byte in range(8):
        shift = np.uint64(8 * byte)
        counts[:] = 0
        for k in range(n):
            counts[((keys[k] >> shift) & _BYTE) + 1] += 1
        if counts.max() == n:
            continue
        for d in range(256):
            counts[d + 1] += counts[d]
        for k in range(n):
            digit = (keys[k] >> shift) & _BYTE
            key_scratch[counts[digit]] = keys[k]
            if carry:
                payload_scratch[counts[digit]] = moved[k]
            counts[digit] += 1
        keys, key_scratch = key_scratch, keys
        moved, payload_scratch = payload_scratch, moved
    for k in range(n):
        keys[k] = _flip(keys[k], False)
    return keys.view(np.float64), moved
