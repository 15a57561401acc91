"""Checks of the values that users' own compiled code hands to the public kernels
(:mod:`fastpr.kernels`, :mod:`fastpr.learn.kernels`), which the Python API checks before its
own kernels run. Each raises ``ValueError`` naming the argument and the first position at fault.
"""
import numpy as np

from ..jit import helper


@helper
def check_weights(name, weights):
    """Refuse a weight that is NaN, negative or infinite; ``name``: the argument. One pass
    without branches, then, only for a bad weight, another that finds the first."""
    valid = True
    for k in range(weights.size):
        valid &= (weights[k] >= 0.0) & (weights[k] < np.inf)  # False for NaN
    if valid:
        return
    for k in range(weights.size):
        weight = weights[k]
        if np.isnan(weight):
            what = "NaN"
        elif weight < 0.0:
            what = "a negative value"
        elif weight == np.inf:
            what = "infinity"
        else:
            continue
        raise ValueError(name + " must be finite and >= 0, got " + what + " at index " + str(k))


@helper
def raise_nan(name, values):
    """Raise naming the first NaN of ``values``, which the caller has found to hold one."""
    for k in range(values.size):
        if np.isnan(values[k]):
            raise ValueError(name + " contains NaN at index " + str(k))
    raise ValueError(name + " contains NaN")
