"""One pass over numeric labels to find their (at most two) classes."""
from ..jit import jit


@jit
def distinct_pair(labels):
    """(a, b, n_other): ``labels[0]``, the first label unequal to it (``a`` again if there is
    none), and how many labels equal neither. NaN equals nothing, so it counts as neither.

    The counting loop has no data-dependent branch, so balanced classes cost no mispredictions.
    """
    a = labels[0]
    b = a
    for k in range(labels.size):
        if labels[k] != a:
            b = labels[k]
            break
    n_other = 0
    for k in range(labels.size):
        value = labels[k]
        n_other += (value != a) & (value != b)
    return a, b, n_other
