"""The ranking of a learner: rows by descending score, ties in row order (a stable sort), and
the labels in that order.

A stable argsort is the slow kind of sort (NumPy's takes 10x its plain sort of the same floats).
Here each row becomes one unsigned 64-bit key: the score's order-preserving bits above, then the
row number, then the row's label in the lowest bit. A plain sort of the keys is then the stable
descending argsort (equal keys cannot occur, and among equal scores the row number decides), and
it brings the labels along in rank order, which later passes read in sequence instead of
looking each one up at its row. The keys' top three bits are 010, which makes every key the bits
of a positive, normal, finite float64, ordered as the key: NumPy sorts float64 faster than
uint64 (10^6 values: 12.4 ms against 14.3 ms on a 2-core AMD EPYC). The row number and label
take the low ``b + 1`` bits (``2**b >= n``), which leaves the score the ``60 - b`` bits between:
its order-preserving bits less the lowest score's, shifted past the leading bits that every
score shares (the sign and most of the exponent for probabilities), so that the bits cut off
are the least significant ones. That is all of a float32 (35 bits as a float64) for up to 2**25
rows, and all but the last mantissa bits of a float64. Rows whose scores differ only in those
last bits land in one run of equal score bits, in row order, and ``unpack_order`` sorts each
such run by the whole score: the fewer such runs, the fewer scores it reads at random rows.

Preconditions: scores float64 (or float32) without NaN, fewer than 2**59 of them (the row
numbers stay below the top bits).
"""
import numpy as np

from ..._engine.jit import helper, jit

_SIGN = np.uint64(1 << 63)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
_ONE = np.uint64(1)
_FLOAT_KEY = np.uint64(1 << 62)  # the top bits 010 of every key (see above)
_SCORE_TOP = 60  # the highest bit of a key's score part


@helper
def _low_bits(n):
    """How many low key bits hold a row number below ``n`` and a label."""
    bits = 1
    while (1 << bits) < n:
        bits += 1
    return np.uint64(bits + 1)


@helper
def descending_key(score):
    """An unsigned key that orders scores from the highest down; -0.0 and 0.0 share one."""
    bits = np.float64(score + 0.0).view(np.uint64)  # + 0.0 turns -0.0 into 0.0
    ascending = bits ^ (_ALL if bits >> np.uint64(63) else _SIGN)
    return ~ascending


@jit
def pack_keys(scores, is_positive, keys, highest_score, lowest_score):
    """Write the key of every row into ``keys`` (uint64, as long as ``scores``), given the
    highest and the lowest of the scores (NumPy's SIMD ``max`` and ``min`` find them faster
    than a compiled loop)."""
    n = scores.size
    bits = _low_bits(n)
    high = ~((_ONE << bits) - _ONE)
    lowest = descending_key(highest_score)
    spread = descending_key(lowest_score) - lowest
    top = 0  # the highest set bit of every key less the lowest, shifted to ``_SCORE_TOP``
    while top < 63 and spread >> np.uint64(top + 1) != 0:
        top += 1
    left = np.uint64(max(_SCORE_TOP - top, 0))
    right = np.uint64(max(top - _SCORE_TOP, 0))
    for row in range(n):
        keys[row] = (((((descending_key(scores[row]) - lowest) >> right) << left) & high)
                     | _FLOAT_KEY | (np.uint64(row) << _ONE) | np.uint64(is_positive[row]))


@jit
def unpack_order(scores, first, second, order, ranked_true):
    """From the sorted keys ``first`` and ``second`` (as many as ``scores`` together; either may
    be empty), merged: the rows into ``order`` (int64) and their labels into ``ranked_true``,
    each run of rows whose scores share the packed bits sorted by their whole score, stably.

    Two threads can sort the halves of the keys at once, and merging them on the way costs a
    fraction of what that saves. Selects, not branches: the halves interleave at random. A
    spent half reads as the largest key, which a real key can only equal, and then either is
    the same key.
    """
    n = scores.size
    bits = _low_bits(n)
    row_bits = ~(_ALL << bits)
    i = 0
    j = 0
    start = 0
    # The packed score bits of the run from ``start``: at first, those of the smallest key.
    run = min(first[0] if first.size else _ALL, second[0] if second.size else _ALL) >> bits
    for k in range(n):
        a = first[i] if i < first.size else _ALL
        b = second[j] if j < second.size else _ALL
        from_first = a < b
        key = a if from_first else b
        i += from_first
        j += not from_first
        order[k] = np.int64((key & row_bits) >> _ONE)
        ranked_true[k] = (key & _ONE) == _ONE
        if key >> bits != run:
            if k - start > 1:
                _sort_run(scores, order[start:k], ranked_true[start:k])
            start = k
            run = key >> bits
    if n - start > 1:
        _sort_run(scores, order[start:n], ranked_true[start:n])


@helper
def _sort_run(scores, rows, labels):
    """Sort ``rows`` (in row order, scores equal in their packed bits) and their ``labels`` by
    descending score."""
    first = descending_key(scores[rows[0]])
    tied = True
    for k in range(1, rows.size):
        tied &= descending_key(scores[rows[k]]) == first
    if tied:  # equal scores are in row order already
        return
    keys = np.empty(rows.size, dtype=np.uint64)
    payload = np.empty(rows.size, dtype=np.int64)
    for k in range(rows.size):
        keys[k] = descending_key(scores[rows[k]])
        payload[k] = k
    sort_by_key(keys, payload)
    moved_rows = rows.copy()
    moved_labels = labels.copy()
    for k in range(rows.size):
        rows[k] = moved_rows[payload[k]]
        labels[k] = moved_labels[payload[k]]


@helper
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
    _segment_order(scores, order, 0)


@helper
def _segment_order(scores, order, first):
    """``descending_order`` of the scores from row ``first`` of the caller's array (which a NaN
    is named by)."""
    if order.size != scores.size:
        raise ValueError("order must have the length of y_score")
    keys = np.empty(scores.size, dtype=np.uint64)
    for row in range(scores.size):
        if np.isnan(scores[row]):  # (its key would rank it among the scores)
            raise ValueError("y_score contains NaN at index " + str(first + row))
        keys[row] = descending_key(scores[row])
        order[row] = row
    sort_by_key(keys, order)


@jit
def ranking_order(scores, offsets, order):
    """``descending_order`` of each segment ``offsets[g]:offsets[g + 1]`` of ``scores`` into
    the same segment of ``order``, as row numbers of the whole array."""
    check_offsets(offsets, scores.size)
    for g in range(offsets.size - 1):
        first = offsets[g]
        segment = order[first:offsets[g + 1]]
        _segment_order(scores[first:offsets[g + 1]], segment, first)
        for k in range(segment.size):
            segment[k] += first


@helper
def check_offsets(offsets, n):
    """Refuse segment boundaries that do not run from 0 to n without falling (they would reach
    past the arrays)."""
    if offsets.size < 2 or offsets[0] != 0 or offsets[offsets.size - 1] != n:
        raise ValueError("offsets must run from 0 to the number of rows")
    for g in range(offsets.size - 1):
        if offsets[g + 1] < offsets[g]:
            raise ValueError("offsets must not decrease")


@jit
def regroup(order, ranked_true, codes, starts, grouped, grouped_true):
    """A stable counting sort of the rows of ``order`` (and their labels) by group code: group
    c's rows, in their order in ``order``, go to ``grouped[starts[c]:starts[c + 1]]``."""
    cursor = starts[:-1].copy()
    for k in range(order.size):
        row = order[k]
        c = codes[row]
        grouped[cursor[c]] = row
        grouped_true[cursor[c]] = ranked_true[k]
        cursor[c] += 1
