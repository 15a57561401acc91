"""Split one array by class in a single pass, choosing the loop that suits the class balance."""
import numpy as np

from ..jit import helper, jit


@jit
def split_into(values, is_positive, pos, neg):
    """Write values where is_positive to ``pos`` and the others to ``neg``, in input order;
    returns the number of positives.

    ``pos`` and ``neg`` need one slot more than their class count: near balance every value is
    written to both and only the matching cursor advances, which avoids a branch that would
    mispredict half the time; when one class is rare a plain branch predicts well and is faster.
    Callers from Python should allocate the outputs with NumPy, whose large allocations get huge
    pages: first-touch page faults cost as much as the split itself on 4 KiB pages.
    """
    i = 0
    j = 0
    if 8 * np.minimum(pos.size, neg.size) <= values.size:  # (np.minimum: see sweep.weight_scale)
        for k in range(values.size):
            if is_positive[k]:
                pos[i] = values[k]
                i += 1
            else:
                neg[j] = values[k]
                j += 1
    else:
        for k in range(values.size):
            v = values[k]
            pos[i] = v
            neg[j] = v
            step = np.int64(is_positive[k])
            i += step
            j += 1 - step
    return i


@helper
def split_by_class(values, is_positive):
    """(values where is_positive, values elsewhere), allocating the outputs; same-length inputs."""
    n_positive = 0
    for k in range(is_positive.size):  # np.count_nonzero would cost a second of compile time
        n_positive += is_positive[k]
    pos = np.empty(n_positive + 1, dtype=values.dtype)
    neg = np.empty(values.size - n_positive + 1, dtype=values.dtype)
    split_into(values, is_positive, pos, neg)
    return pos[:n_positive], neg[: values.size - n_positive]


@jit
def split_by_label(labels, values, positive, pos, neg):
    """Write values whose label equals ``positive`` to ``pos`` and the others to ``neg`` (each
    as long as ``values``), in input order, while reading the labels: returns (how many are
    positive, the first other label (``positive`` if none), how many labels equal neither).

    The check of the labels and the split in one pass without data-dependent branches, for
    callers that have neither yet: a boolean mask and ``split_into`` cost a pass and NumPy
    calls more. NaN equals nothing, so a NaN label always counts as neither.
    """
    i = 0
    j = 0
    other = positive
    n_neither = 0
    for k in range(values.size):
        label = labels[k]
        positive_here = label == positive
        if j == 0 and not positive_here:
            other = label
        n_neither += (label != positive) & (label != other)
        value = values[k]
        pos[i] = value
        neg[j] = value
        step = np.int64(positive_here)
        i += step
        j += 1 - step
    return i, other, n_neither


@jit
def route_codes(scores, is_positive, boundaries, codes, starts):
    """The score range and class of every row, for a counting sort by both.

    Writes ``codes[k] = 2 r + is_positive[k]``, where r counts the ``boundaries`` (ascending)
    at or below ``scores[k]`` (NumPy's ``searchsorted(boundaries, scores, side="right")``), and
    turns ``starts`` (zeros, one more than the codes) into where each code's rows begin in code
    order. ``gather_by_code`` then moves the values.
    """
    for k in range(scores.size):
        score = scores[k]
        low = 0
        high = boundaries.size
        while low < high:
            middle = (low + high) >> 1
            if boundaries[middle] <= score:
                low = middle + 1
            else:
                high = middle
        code = 2 * low + np.int64(is_positive[k])
        codes[k] = code
        starts[code + 1] += 1
    for code in range(starts.size - 1):
        starts[code + 1] += starts[code]


@jit
def gather_by_code(values, codes, starts, out):
    """``values`` grouped by their ``codes`` into ``out``, each group in input order, where
    ``starts`` (from ``route_codes``) says where each group begins."""
    cursor = starts[:-1].copy()
    for k in range(values.size):
        code = codes[k]
        out[cursor[code]] = values[k]
        cursor[code] += 1
