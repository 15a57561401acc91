"""Split one array by class in a single pass, choosing the loop that suits the class balance."""
import numpy as np

from .._jit import jit


@jit
def split_by_class(values, is_positive):
    """(values where is_positive, values elsewhere), each in input order. Same-length inputs.

    When one class is rare a plain branch predicts well and is fastest. Near balance that branch
    mispredicts half the time, so every value is written to both outputs and only the matching
    cursor advances (each output has a spare slot for the writes past its end).
    """
    n = values.size
    n_positive = np.count_nonzero(is_positive)
    pos = np.empty(n_positive + 1, dtype=values.dtype)
    neg = np.empty(n - n_positive + 1, dtype=values.dtype)
    i = 0
    j = 0
    if 8 * min(n_positive, n - n_positive) <= n:
        for k in range(n):
            if is_positive[k]:
                pos[i] = values[k]
                i += 1
            else:
                neg[j] = values[k]
                j += 1
    else:
        for k in range(n):
            v = values[k]
            pos[i] = v
            neg[j] = v
            step = np.int64(is_positive[k])
            i += step
            j += 1 - step
    return pos[:n_positive], neg[: n - n_positive]
