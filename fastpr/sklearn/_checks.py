"""scikit-learn's rules for the inputs of its ranking metrics, without importing scikit-learn.

The drop-in functions must accept what scikit-learn accepts and refuse the rest with the same
exception types, so the type of a target ("binary", "multiclass", "multilabel-indicator", ...)
and the choice of the positive label follow scikit-learn's definitions. Messages are fastpr's.
"""
import math
import numbers
import sys
import warnings
from typing import NamedTuple

import numpy as np

from .. import _validation
from ..exceptions import UndefinedMetricWarning


class InvalidParameterError(ValueError, TypeError):
    """An argument of the wrong type or value (scikit-learn's class of the same name where
    scikit-learn is loaded)."""


def _loaded_class(module, name, fallback):
    """scikit-learn's class when its module is loaded, so that filters and ``except`` clauses
    written for scikit-learn apply; else fastpr's equivalent (nobody can name the other yet)."""
    loaded = sys.modules.get(module)
    return getattr(loaded, name, fallback) if loaded is not None else fallback


def warn_undefined(message):
    warnings.warn(message, _loaded_class("sklearn.exceptions", "UndefinedMetricWarning",
                                         UndefinedMetricWarning), stacklevel=3)


def _invalid(function, name, value, what):
    error = _loaded_class("sklearn.utils._param_validation", "InvalidParameterError",
                          InvalidParameterError)
    return error(f"The {name!r} parameter of {function} must be {what}; got {value!r}.")


def _is_array_like(value):
    return (hasattr(value, "__len__") or hasattr(value, "shape")
            or hasattr(value, "__array__")) and not np.isscalar(value)


def _is_sparse(value):
    if isinstance(value, (np.ndarray, list, tuple)):  # the common case, checked quickly
        return False
    sparse = sys.modules.get("scipy.sparse")  # (loaded wherever such a matrix exists)
    return sparse is not None and sparse.issparse(value)


def array_like(function, name, value, *, optional=False, sparse=False):
    """An array-like (a sparse matrix only where ``sparse``), or None where ``optional``."""
    if isinstance(value, (np.ndarray, list, tuple)) or (optional and value is None):
        return  # the common cases, checked quickly
    if not (_is_array_like(value) and (sparse or not _is_sparse(value))):
        raise _invalid(function, name, value, "an array-like" + (
            " or a sparse matrix" if sparse else "") + (" or None" if optional else ""))


def label(function, name, value, *, optional):
    if optional and value is None:
        return
    if not isinstance(value, (numbers.Real, str, np.bool_)):
        raise _invalid(function, name, value,
                       "a number, a string or a bool" + (" or None" if optional else ""))


def boolean(function, name, value):
    if not isinstance(value, (bool, np.bool_)):
        raise _invalid(function, name, value, "a bool")


def choice(function, name, value, allowed):
    if not ((value is None or isinstance(value, str)) and value in allowed):
        shown = ", ".join(repr(a) for a in allowed)
        raise _invalid(function, name, value, f"one of {shown}")


def max_fpr(function, value):
    if value is None:
        return
    if not (isinstance(value, numbers.Real) and 0 < value <= 1):
        raise _invalid(function, "max_fpr", value, "a number in (0, 1] or None")


def as_array(name, values):
    """An ndarray of ``values`` (lists, pandas, polars, torch, scipy.sparse matrices)."""
    if type(values) is not np.ndarray and _is_sparse(values):
        values = values.toarray()
    return _validation.as_array(name, values)


def not_single(name, array):
    """Refuse a 0-d array where scikit-learn raises TypeError for it."""
    if array.ndim == 0:
        raise TypeError(f"{name} must be an array, got a single value: {array!r}.")


def column_or_1d(name, values):
    """A 1-D array from a 1-D one or a column."""
    array = as_array(name, values)
    if array.ndim == 2 and array.shape[1] == 1:
        return array.ravel()
    if array.ndim != 1:
        raise ValueError(f"{name} must be 1-D (or one column), got an array of shape "
                         f"{array.shape}.")
    return array


def consistent_length(**arrays):
    lengths = {array.shape[0] for array in arrays.values() if array is not None}
    if len(lengths) > 1:  # (the message is built only here: this runs on every call)
        given = {name: array.shape[0] for name, array in arrays.items() if array is not None}
        raise ValueError(f"{', '.join(given)} have different numbers of samples: "
                         f"{', '.join(map(str, given.values()))}.")


def finite(name, array):
    """Refuse NaN and infinities."""
    # A finite sum says that every value is finite (NaN and infinities carry into it) at half
    # the cost of a mask; a sum that overflows falls back to the mask.
    if not math.isfinite(array.sum()) and not np.isfinite(array).all():
        what = "NaN" if np.isnan(array).any() else "infinity"
        raise ValueError(f"{name} contains {what}.")


class Scores(NamedTuple):
    values: np.ndarray  # contiguous float32 or float64, in the order and ties of the given ones
    dtype: np.dtype  # as given: scikit-learn returns precision-recall thresholds in it
    distinct: np.ndarray  # where ``values`` are ranks: the given scores they stand for, else None


# Integers up to this size (and float16) are exact in float64.
EXACT_INTEGER = 2 ** 53


def scores(name, values, *, dims=(1,), text_error=TypeError, check_finite=True):
    """Real scores as :class:`Scores`: integers, bools and other floats become float64, or
    their ranks among the distinct given values where float64 would round some of them
    (integers beyond 2^53, long doubles), so that no two scores tie that scikit-learn, which
    sorts them in their own type, keeps apart. Finite ones only, unless ``check_finite`` is
    False: then the caller checks (one ranking's sort brings NaN and infinities to the ends of
    its classes, see ``_rankings.sorted_ranking``, which saves a pass over the scores)."""
    array = as_array(name, values)
    if array.ndim == 0:
        not_single(name, array)
    if array.ndim == 2 and array.shape[1] == 1 and 2 not in dims:
        array = array.ravel()
    if array.ndim not in dims:
        raise ValueError(f"{name} must have {' or '.join(map(str, dims))} dimensions, got an "
                         f"array of shape {array.shape}.")
    given = array.dtype
    if given.kind == "O":
        # (NumPy would read None as NaN)
        if any(value is None for value in array.flat):
            raise text_error(f"{name} holds None.")
        try:
            array = array.astype(np.float64)
        except (TypeError, ValueError):
            raise text_error(f"{name} must hold numbers.") from None
    elif given.kind == "c":
        raise ValueError(f"{name} holds complex numbers.")
    elif given.kind not in "biuf":
        raise text_error(f"{name} must hold real numbers, got an array of dtype {given}.")
    if array.size == 0:
        raise ValueError(f"{name} is empty.")
    if given.kind != "O" and given not in (np.float32, np.float64):
        if not _rounds_in_float64(array):
            array = array.astype(np.float64)
        else:
            finite(name, array)  # ranks would hide NaN and infinities
            distinct, ranks = np.unique(array, return_inverse=True)
            return Scores(ranks.reshape(array.shape).astype(np.float64), given, distinct)
    if check_finite:
        finite(name, array)
    return Scores(np.ascontiguousarray(array), given, None)


def _rounds_in_float64(array):
    """Whether float64 would round some of these integer or floating-point values."""
    if array.dtype.itemsize < 8 or array.dtype.kind == "b":
        return False
    if array.dtype.kind in "iu":
        return bool(array.max() > EXACT_INTEGER or array.min() < -EXACT_INTEGER)
    return array.dtype != np.float64 and not (array.astype(np.float64) == array).all()


def weights(sample_weight, *, allow_all_zero=False, allow_negative=False):
    """Finite float64 weights, 1-D, or None (the caller checks their length).

    Negative ones only with ``allow_negative``, where the weights average one value per sample
    (``average="samples"``): a ranking's counts must not decrease, and scikit-learn's areas of
    rankings with negative weights are no areas (its AUC-ROC raises, its average precision
    returns a number).
    """
    if sample_weight is None:
        return None
    array = column_or_1d("sample_weight", sample_weight)
    if array.dtype.kind == "O":  # (a pandas column of numbers, say)
        try:
            array = array.astype(np.float64)
        except (TypeError, ValueError):
            raise ValueError("sample_weight must hold real numbers.") from None
    if array.dtype.kind not in "biuf":
        raise ValueError(f"sample_weight must hold real numbers, got an array of dtype "
                         f"{array.dtype}.")
    array = np.ascontiguousarray(array, dtype=np.float64)
    finite("sample_weight", array)
    if not allow_negative and array.size and array.min() < 0:
        first = int(np.argmax(array < 0))
        raise ValueError(f"sample_weight must be >= 0 where it weighs the examples of a "
                         f"ranking, got {float(array[first])!r} at index {first}.")
    if not allow_all_zero and not array.any():
        raise ValueError("sample_weight is zero everywhere.")
    return array


def distinct(values):
    """Sorted distinct values, without a sort for labels that take two values (or one): one
    pass of fastpr's label kernel finds them; integers of a compact range are counted."""
    flat = values.reshape(-1)
    kind = flat.dtype.kind
    if flat.size and kind == "b":
        n_true = np.count_nonzero(flat)
        return np.array([False, True]) if 0 < n_true < flat.size else flat[:1].copy()
    if flat.size and kind in "iuf":
        pair = _validation.two_labels(flat if flat.flags.c_contiguous else flat.copy())
        if pair is not None:
            return np.array(pair, dtype=flat.dtype)
    if flat.size and kind in "iu":
        low, high = flat.min(), flat.max()
        if int(high) - int(low) < 2 * flat.size:  # class codes: counting beats hashing
            # Offsets from the lowest in a type that holds them (a narrow signed one would wrap).
            wide = flat if kind == "u" or flat.itemsize == 8 else flat.astype(np.int64)
            offsets = (wide - wide.dtype.type(low)).astype(np.intp, copy=False)
            return np.flatnonzero(np.bincount(offsets)).astype(flat.dtype) + flat.dtype.type(low)
    return np.unique(flat)


def _integral(array):
    """Whether float labels are whole numbers (else they are scores, a "continuous" target)."""
    whole = array == np.trunc(array)
    if array.dtype.itemsize > 2:  # (no float16 is as large)
        whole &= np.abs(array) < 2.0**63
    return bool(whole.all())


def target_type(name, y):
    """scikit-learn's type of a target and its sorted distinct values.

    One of "binary" (at most two values), "multiclass", "multilabel-indicator" (a 2-D array of at
    most two whole numbers, one column per label), "continuous" (non-whole floats), the last
    two with "-multioutput" for several columns, or "unknown".
    """
    if y.ndim not in (1, 2) or (y.ndim == 2 and 0 in y.shape):
        return "unknown", None
    if y.size == 0:
        return "binary", y[:0]
    if y.dtype.kind == "O" and not isinstance(y.flat[0], str):
        return "unknown", None
    if y.dtype.kind == "S":
        raise TypeError(f"{name} holds bytes; use strings or numbers as labels.")
    several = y.ndim == 2 and y.shape[1] > 1
    if y.dtype.kind == "f":
        finite(name, y)
        if not _integral(y):
            return "continuous" + ("-multioutput" if several else ""), None
    classes = distinct(y)
    if several:
        indicator = classes.size < 3 and y.dtype.kind in "biuf"
        return ("multilabel-indicator" if indicator else "multiclass-multioutput"), classes
    return ("multiclass" if classes.size > 2 else "binary"), classes


def comparable_labels(y):
    """Refuse labels that cannot be sorted (numbers with strings or None): TypeError."""
    if y.dtype.kind == "O":
        try:
            np.unique(y)
        except TypeError:
            raise TypeError("y_true mixes labels that cannot be compared (numbers, strings, "
                            "None).") from None


def unsupported(kind):
    return ValueError(f"{kind} format is not supported")


def _numeric(classes):
    return classes.dtype.kind in "biuf"


def default_pos_label(classes):
    """1, where the labels make it the positive one without saying so ({0, 1}, {-1, 1} or one of
    those values alone); else scikit-learn refuses to guess."""
    values = set(classes.tolist()) if _numeric(classes) else None
    if values is None or not (values <= {0, 1} or values <= {-1, 1}):
        shown = ", ".join(repr(c) for c in classes.tolist())
        raise ValueError(f"y_true takes the values {{{shown}}}: pass pos_label to name the "
                         "positive class (only {0, 1} and {-1, 1} need none).")
    return 1


def positives(y, pos_label):
    """Boolean mask of the positive class."""
    return np.asarray(y == pos_label, dtype=bool)
