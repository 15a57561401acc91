"""Merging sorted float runs: a stable merge sort of short arrays for kernels that sort many
segments, and the merge of a large class's two halves that NumPy sorted on two threads.

numba's own ``np.sort`` (a quicksort) and ``np.argsort(kind="mergesort")`` each compile for
about 1.3 CPU seconds at first use; this one sort serves both the weighted and the unweighted
segments in a fraction of that, and carries the weights itself instead of gathering them
through a permutation. Measured per call: as fast as numba's quicksort up to about 100
scores, within 1.4x of it up to 1,000 (longer segments go to NumPy's sort).
"""
import numpy as np

from ..jit import helper, jit

# Runs this long are sorted by insertion first: below it, merging costs more than shifting.
_RUN = 16


@helper
def merge_sorted(values, payload):
    """(values sorted ascending, payload permuted alongside), stably; returns new arrays.

    ``values`` is float64 without NaN; ``payload`` is float64 of the same length, or empty to
    carry nothing.
    """
    n = values.size
    carry = payload.size > 0
    keys = values.copy()
    moved = payload.copy()
    for start in range(0, n, _RUN):
        for k in range(start + 1, min(start + _RUN, n)):
            key = keys[k]
            weight = moved[k] if carry else 0.0
            i = k
            while i > start and keys[i - 1] > key:
                keys[i] = keys[i - 1]
                if carry:
                    moved[i] = moved[i - 1]
                i -= 1
            keys[i] = key
            if carry:
                moved[i] = weight
    key_scratch = np.empty_like(keys)
    payload_scratch = np.empty_like(moved)
    width = _RUN
    while width < n:
        for low in range(0, n, 2 * width):
            middle = min(low + width, n)
            high = min(low + 2 * width, n)
            i = low
            j = middle
            k = low
            while i < middle and j < high:
                # Ties take from the left run first: that keeps equal keys in input order. A
                # store in each branch: one store from a selected index ran 3x slower.
                if keys[j] < keys[i]:
                    key_scratch[k] = keys[j]
                    if carry:
                        payload_scratch[k] = moved[j]
                    j += 1
                else:
                    key_scratch[k] = keys[i]
                    if carry:
                        payload_scratch[k] = moved[i]
                    i += 1
                k += 1
            while i < middle:  # one run is used up: the other's tail follows
                key_scratch[k] = keys[i]
                if carry:
                    payload_scratch[k] = moved[i]
                i += 1
                k += 1
            while j < high:
                key_scratch[k] = keys[j]
                if carry:
                    payload_scratch[k] = moved[j]
                j += 1
                k += 1
        keys, key_scratch = key_scratch, keys
        moved, payload_scratch = payload_scratch, moved
        width *= 2
    return keys, moved


@helper
def _left_count(values, middle, k):
    """How many of the first ``k`` merged values come from the left half (ties from the left)."""
    low = max(0, k - (values.size - middle))
    high = min(k, middle)
    while low < high:
        i = (low + high) // 2
        if values[i] <= values[middle + k - i - 1]:
            low = i + 1
        else:
            high = i
    return low


@jit
def merge_halves(values, middle, out, first, last):
    """Write positions ``first .. last - 1`` of the merge of ``values[:middle]`` and
    ``values[middle:]`` (each sorted ascending, no NaN) to ``out`` (as long as ``values``).
    Threads may fill separate ranges of one ``out``.
    """
    i = _left_count(values, middle, first)
    j = middle + first - i
    i_end = _left_count(values, middle, last)
    j_end = middle + last - i_end
    k = first
    while i < i_end and j < j_end:
        left = values[i]
        right = values[j]
        # Selects, not branches: which half holds the next value is a coin flip on shuffled
        # scores (a branch ran 1.7x slower).
        from_right = right < left
        out[k] = right if from_right else left
        j += from_right
        i += 1 - from_right
        k += 1
    while i < i_end:
        out[k] = values[i]
        i += 1
        k += 1
    while j < j_end:
        out[k] = values[j]
        j += 1
        k += 1
