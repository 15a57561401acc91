"""The one input layer: options, arrays, scores, weights, labels, groups, offsets, tables.

Every public function passes its data through here once; kernels downstream assume clean,
contiguous arrays and never raise. Options are declared beside each public function with
:func:`options`. Errors are the InputError types of ``fastpr.exceptions``, naming the argument
and, where it lies at one entry, the position. scikit-learn's conventions (its exception types,
target types and positive label) are one switch of this layer, ``convention="sklearn"``, for
the drop-in ``fastpr.sklearn``; see the section at the end.
"""
import contextlib
import contextvars
import functools
import inspect
import math
import numbers
import re
import sys
import warnings
from collections.abc import Mapping
from typing import NamedTuple

import numpy as np

from ._engine.kernels.labels import distinct_pair
from .exceptions import InputError, InputTypeError, InputValueError, UndefinedMetricWarning

# (rows before it, its number) while one partition of a larger input is checked; see `partition`.
_PARTITION = contextvars.ContextVar("partition", default=None)
# The dtypes of the common case, which takes a short path (see check_binary_inputs).
_COMMON_LABELS = frozenset(map(np.dtype, (np.bool_, np.int64, np.int32, np.float64)))
_COMMON_SCORES = frozenset(map(np.dtype, (np.float64, np.float32)))


@contextlib.contextmanager
def partition(rows_before, number):
    """Check partition ``number`` of a larger 1-D input: positions in errors count from the
    start of the whole input, which has ``rows_before`` rows before this partition."""
    token = _PARTITION.set((rows_before, number))
    try:
        yield
    finally:
        _PARTITION.reset(token)


def position(shape, flat):
    """An error's position for flat position ``flat`` of an array of ``shape``: the index in
    1-D input (in the whole input while a partition is checked), (row, column) in 2-D input,
    None for a scalar."""
    if len(shape) == 1:
        rows_before, _ = _PARTITION.get() or (0, None)
        return int(flat) + rows_before
    return tuple(int(k) for k in np.unravel_index(flat, shape)) if shape else None


def first(mask):
    """The flat position of the first True of ``mask``."""
    return int(np.argmax(mask))


def refuse_first(bad, name, array, template, **values):
    """Raise about the first entry of ``array`` where ``bad`` holds, if any: ``template`` shows
    it as ``{value}`` at ``{where}``."""
    if bad.any():
        k = first(bad)
        # str: formatting a long double goes through float64, which shows 1 + 1e-19 as 1.0.
        raise InputValueError(template, argument=name, position=position(array.shape, k),
                              value=str(array.reshape(-1)[k]), **values)


def refuse_missing(name, missing):
    """Refuse a column of a table with missing entries (SQL nulls, which a table such as a Spark
    DataFrame keeps apart from NaN, and NumPy would read as NaN or None): ``missing`` is True at
    each."""
    if missing.any():
        raise InputValueError("{argument} is missing (null) at {where} ({count} missing in all).",
                              argument=name, position=position(missing.shape, first(missing)),
                              count=int(np.count_nonzero(missing)))


def check_dtype(name, array, kinds="biuf", must="be real numbers"):
    """Refuse an array whose dtype is of none of ``kinds`` (NumPy's kind letters)."""
    if array.dtype.kind not in kinds:
        raise InputTypeError("{argument} must {must}, got an array of dtype {dtype}.",
                             argument=name, must=must, dtype=array.dtype)


# ----------------------------------------------------------------------------- options
# A constraint checks one value and returns it normalised (an int or float for numbers), or
# raises an InputError naming the argument; values of a type in its ``quick`` pass unchecked
# (the common case costs no call). ``what`` describes it in scikit-learn's messages.
class OneOf:
    """One of the ``allowed`` values (None may be one of them)."""
    quick = ()

    def __init__(self, allowed):
        self.allowed = tuple(allowed)
        self.what = "one of " + ", ".join(map(repr, self.allowed))

    def check(self, name, value):
        try:
            found = value in self.allowed
        except (TypeError, ValueError):  # an array compared element by element
            found = False
        if not found:
            raise InputValueError("{argument} must be {what}; got {value!r}.", argument=name,
                                  what=self.what, value=value)
        return value


class Interval:
    """A finite real number between ``low`` and ``high`` (None: unbounded on that side);
    ``closed`` says which bounds belong to it: "both", "left", "right" or "neither"."""
    quick = ()
    _BRACKETS = {"both": "[]", "left": "[)", "right": "(]", "neither": "()"}

    def __init__(self, low=None, high=None, *, closed="both"):
        self.low, self.high = low, high
        self.low_closed, self.high_closed = closed in ("both", "left"), closed in ("both", "right")
        if low is not None and high is not None:
            kind = {"both": "closed", "neither": "open"}.get(closed, "half-open")
            left, right = self._BRACKETS[closed]
            self.description = f"in the {kind} interval {left}{low}, {high}{right}"
        else:
            bounds = [f"{'>=' if self.low_closed else '>'} {low}" if low is not None else "",
                      f"{'<=' if self.high_closed else '<'} {high}" if high is not None else ""]
            self.description = " and ".join(["finite", *filter(None, bounds)])
        self.what = "a real number " + self.description

    def holds(self, number):
        """Whether ``number`` (a float, or an array of them elementwise) lies in the interval."""
        inside = number == number  # not NaN
        if self.low is not None:
            inside = inside & ((number >= self.low) if self.low_closed else (number > self.low))
        if self.high is not None:
            inside = inside & ((number <= self.high) if self.high_closed
                               else (number < self.high))
        return inside & (abs(number) < math.inf)

    def check(self, name, value):
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise InputTypeError("{argument} must be a real number, got {value!r}.",
                                 argument=name, value=value)
        if not self.holds(float(value)):
            raise InputValueError("{argument} must be {interval}, got {value!r}.", argument=name,
                                  interval=self.description, value=value)
        return float(value)


class Integer:
    """A Python or NumPy integer (not a bool) from ``minimum`` to ``maximum`` (None: no bound)."""
    quick, what = (), "an integer"

    def __init__(self, minimum=None, maximum=None):
        self.minimum, self.maximum = minimum, maximum

    def check(self, name, value):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise InputTypeError("{argument} must be an integer, got {value!r}.", argument=name,
                                 value=value)
        for bound, sign, outside in ((self.minimum, ">=", value < (self.minimum or 0)),
                                     (self.maximum, "<=", value > (self.maximum or 0))):
            if bound is not None and outside:
                raise InputValueError("{argument} must be {sign} {bound}, got {value!r}.",
                                      argument=name, sign=sign, bound=bound, value=value)
        return int(value)


class Range:
    """A pair ``(low, high)`` of real numbers with ``lower <= low < high <= upper``, as a tuple
    of floats (a range of recall, say)."""
    quick = ()

    def __init__(self, lower=0.0, upper=1.0):
        self.lower, self.upper = lower, upper
        self.what = f"a pair (low, high) with {lower} <= low < high <= {upper}"

    def check(self, name, value):
        if isinstance(value, (str, bytes)) or not hasattr(value, "__len__") or len(value) != 2:
            raise InputTypeError("{argument} must be {what}, got {value!r}.", argument=name,
                                 what=self.what, value=value)
        low, high = (Interval(self.lower, self.upper).check(name, bound) for bound in value)
        if not low < high:
            raise InputValueError("{argument} must be {what}: its low end must lie below its "
                                  "high end, got {value!r}.", argument=name, what=self.what,
                                  value=value)
        return low, high


class Cutoffs:
    """How many of the highest scores to take: a whole number >= 1 (an int), a 1-D sequence of
    them (an int64 array), or the string "positives" (as many as the ranking's positive rows)."""
    quick = ()
    what = 'an integer >= 1, a 1-D sequence of them or "positives"'

    def check(self, name, value):
        if isinstance(value, str):
            if value != "positives":
                raise InputValueError("{argument} must be {what}; got {value!r}.",
                                      argument=name, what=self.what, value=value)
            return value
        if isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_)):
            return Integer(minimum=1).check(name, value)
        if isinstance(value, (bool, np.bool_, numbers.Number)):
            raise InputTypeError("{argument} must be {what}, got {value!r}.", argument=name,
                                 what=self.what, value=value)
        array = as_1d(name, value)
        check_dtype(name, array, "iu", "be integers (counts of rows)")
        refuse_first(array < 1, name, array, "{argument} must be >= 1, got {value} at {where}.")
        return array.astype(np.int64)


class InstanceOf:
    """An instance of ``kind``."""
    quick = ()

    def __init__(self, kind):
        self.kind, self.what = kind, f"of type {kind.__name__}"

    def check(self, name, value):
        if not isinstance(value, self.kind):
            raise InputTypeError("{argument} must be of type {kind}, got {type}.", argument=name,
                                 kind=self.kind.__name__, type=type(value).__name__)
        return value


class Boolean:
    """A Python or NumPy bool, as a Python bool; where ``text``, a string too (as it is)."""
    quick, what = (bool,), "a bool"

    def __init__(self, *, text=False):
        self.text = text

    def check(self, name, value):
        if self.text and isinstance(value, str):
            return value
        if not isinstance(value, (bool, np.bool_)):
            raise InputTypeError("{argument} must be True{text} False, got {value!r}.",
                                 argument=name, value=value,
                                 text=", a string or" if self.text else " or")
        return bool(value)


class Label:
    """A label: a number (bools are numbers), a string or, unless ``binary=False`` (as in
    scikit-learn), bytes."""
    quick, what = (int, str, bool), "a number or a string"

    def __init__(self, *, binary=True):
        self.binary = binary

    def check(self, name, value):
        if _kind(type(value)) is None or (isinstance(value, bytes) and not self.binary):
            raise InputTypeError("{argument} must be {what}, got {value!r}.", argument=name,
                                 what=self.what, value=value)
        return value


class ArrayLike:
    """Anything NumPy reads as an array (a sparse matrix only where ``sparse``)."""
    quick = (np.ndarray, list, tuple)

    def __init__(self, *, sparse=False):
        self.sparse = sparse
        self.what = "an array-like" + (" or a sparse matrix" if sparse else "")

    def check(self, name, value):
        if (np.isscalar(value) or not any(hasattr(value, a) for a in (
                "__len__", "shape", "__array__")) or (not self.sparse and _is_sparse(value))):
            raise InputTypeError("{argument} must be {what}, got {value!r}.", argument=name,
                                 what=self.what, value=value)
        return value


class MetricSpec(NamedTuple):
    """A metric string parsed: ``text`` as given, ``name`` before the "@" and ``levels`` after
    it: () without a level, (float,) for a rate, (int,) for k, (low, high) for a recall
    range."""
    text: str
    name: str
    levels: tuple


# The metrics with a level, shared by every function that takes a metric string: name ->
# (kind of level, an example). Each function adds its own names without a level.
_LEVELLED = {**dict.fromkeys(("recall_at_precision", "precision_at_recall", "tpr_at_fpr",
                              "tnr_at_tpr"), ("rate", "0.9")),
             **dict.fromkeys(("precision_at_k", "recall_at_k"), ("k", "1000")),
             **dict.fromkeys(("auc_roc", "auc_roc_mcclish"), ("max_fpr", "0.1")),
             **dict.fromkeys(("auc_pr", "auc_npr"), ("range", "0.2:0.8"))}
_NO_LEVEL = ("r_precision",)
_LEVEL_WORDS = {"rate": "a number in [0, 1]", "k": "an integer >= 1",
                "max_fpr": "a number in (0, 1]",
                "range": "a recall range A:B with 0 <= A < B <= 1"}
_LEVELLED_FORMS = ("'recall_at_precision@P', 'precision_at_recall@R', 'tpr_at_fpr@F', "
                   "'tnr_at_tpr@T' (a level in [0, 1]); 'precision_at_k@K', 'recall_at_k@K' "
                   "(an integer K >= 1); 'r_precision'; 'auc_roc@F', 'auc_roc_mcclish@F' "
                   "(F in (0, 1]); 'auc_pr@A:B', 'auc_npr@A:B' (0 <= A < B <= 1)")
_DECIMAL = r"[0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?|\.[0-9]+(?:[eE][-+]?[0-9]+)?"


class Metric:
    """A metric string: one of the names ``plain`` (no level) or ``"name@level"`` of the
    grammar shared by bootstrap, compare and fastpr.learn (see :func:`metric_spec`); returns
    its :class:`MetricSpec`."""
    quick = ()

    def __init__(self, plain):
        self.plain = tuple(plain)
        self.what = (f"one of {', '.join(map(repr, self.plain))}, or one of "
                     f"{_LEVELLED_FORMS}")

    def check(self, name, value):
        if not isinstance(value, str):
            raise InputTypeError("{argument} must be a string, got {value!r}.", argument=name,
                                 value=value)
        problem = _metric_problem(value, self.plain)
        if problem:
            raise InputValueError("{argument}={value!r}: {problem}. {argument} takes {what}.",
                                  argument=name, value=value, problem=problem, what=self.what)
        return metric_spec(value)


def _metric_problem(text, plain):
    """What is wrong with metric string ``text`` (None if nothing), ``plain`` being the names
    without a level that the caller takes."""
    name, at, level = text.partition("@")
    if name not in _LEVELLED and name not in _NO_LEVEL and name not in plain:
        return f"unknown name {name!r}"
    if not at:
        if name in plain or name in _NO_LEVEL:
            return None
        return f"{name} needs a level, as in '{name}@{_LEVELLED[name][1]}'"
    if name not in _LEVELLED:
        return f"{name} takes no level, got {level!r}"
    kind = _LEVELLED[name][0]
    if _level(kind, level) is None:
        return f"the level of {name} must be {_LEVEL_WORDS[kind]}, got {level!r}"
    return None


def _level(kind, text):
    """The level of a metric string as a tuple, or None where ``text`` is no such level."""
    if kind == "range":
        low, colon, high = text.partition(":")
        if not (colon and re.fullmatch(_DECIMAL, low) and re.fullmatch(_DECIMAL, high)):
            return None
        low, high = float(low), float(high)
        return (low, high) if 0 <= low < high <= 1 else None
    if kind == "k":
        return (int(text),) if re.fullmatch("[0-9]+", text) and int(text) >= 1 else None
    if not re.fullmatch(_DECIMAL, text):
        return None
    value = float(text)
    inside = 0 < value <= 1 if kind == "max_fpr" else 0 <= value <= 1
    return (value,) if inside else None


@functools.lru_cache(maxsize=256)
def metric_spec(text):
    """The :class:`MetricSpec` of a metric string that :class:`Metric` accepted (or a
    function's default), such as ``"recall_at_precision@0.9"`` or ``"auc_pr@0.2:0.8"``."""
    if isinstance(text, MetricSpec):
        return text
    name, at, level = text.partition("@")
    return MetricSpec(text, name, _level(_LEVELLED[name][0], level) if at else ())


class Levels:
    """A rate to reach, in [0, 1]: a real number (as a float) or a non-empty 1-D sequence of
    them (as a float64 array), each checked where it lies."""
    quick, what = (), "a real number in [0, 1] or a 1-D sequence of them"

    def check(self, name, value):
        if isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_)):
            return Interval(0, 1).check(name, value)
        if isinstance(value, (str, bytes, bool, np.bool_)) or value is None:
            raise InputTypeError("{argument} must be {what}, got {value!r}.", argument=name,
                                 what=self.what, value=value)
        array = as_1d(name, value)
        check_dtype(name, array, "iuf", "be real numbers in [0, 1]")
        return rates(name, array)


def options(convention=None, **constraints):
    """Decorate a function (or method) to check the named arguments against their constraints
    on every call, in the order declared, and to pass them on normalised. A parameter's default
    passes as it is (None there means "not given"). ``convention="sklearn"`` raises
    scikit-learn's InvalidParameterError in its words instead of fastpr's errors."""

    def decorate(function):
        parameters = inspect.signature(function).parameters
        positional = [name for name, parameter in parameters.items() if parameter.kind in (
            parameter.POSITIONAL_ONLY, parameter.POSITIONAL_OR_KEYWORD)]
        slots = []
        for name, constraint in constraints.items():
            if name not in parameters:
                raise TypeError(f"{function.__qualname__} has no parameter {name!r}.")
            index = positional.index(name) if name in positional else None
            slots.append((name, index, parameters[name].default, constraint))
        caller = function.__name__ if convention == "sklearn" else None

        @functools.wraps(function)
        def checked(*args, **kwargs):
            for name, index, default, constraint in slots:
                if index is not None and index < len(args):
                    value = args[index]
                    if value is not default and type(value) not in constraint.quick:
                        args = (*args[:index], _checked(caller, constraint, name, value),
                                *args[index + 1:])
                elif name in kwargs:
                    value = kwargs[name]
                    if value is not default and type(value) not in constraint.quick:
                        kwargs[name] = _checked(caller, constraint, name, value)
            return function(*args, **kwargs)

        checked.options = dict(constraints)
        return checked

    return decorate


def _checked(caller, constraint, name, value):
    if caller is None:
        return constraint.check(name, value)
    try:  # scikit-learn's convention: bools are numbers, and values pass on as they are given
        constraint.check(name, int(value) if type(value) is bool else value)
        return value
    except InputError:
        raise _loaded("sklearn.utils._param_validation", "InvalidParameterError",
                      InvalidParameterError)(f"The {name!r} parameter of {caller} must be "
                                             f"{constraint.what}; got {value!r}.") from None


def check(function, **values):
    """Check ``values`` against the options that ``function`` declares (before calling it)."""
    for name, value in values.items():
        function.options[name].check(name, value)


# ----------------------------------------------------------------------------- arrays
def _is_sparse(value):
    sparse = sys.modules.get("scipy.sparse")  # (loaded wherever such a matrix exists)
    return sparse is not None and sparse.issparse(value)


def as_array(name, values):
    """``values`` as a NumPy array in the machine's byte order, which the kernels need.

    A masked array is read as its data only when nothing is masked: fastpr would otherwise count
    whatever its masked entries hold. A sparse matrix becomes dense (where the constraints let
    one through).
    """
    if type(values) is np.ndarray and values.dtype.isnative and values.dtype.kind != "O":
        return values  # the common case, with nothing to convert or refuse
    if isinstance(values, np.ma.MaskedArray):
        n_masked = int(np.ma.count_masked(values))
        if n_masked:
            raise InputValueError(
                "{argument} has {count} masked {entries}, which fastpr cannot leave out: drop "
                "them (and the matching entries of the other arguments) or fill them "
                "(masked_array.filled(value)) first.", argument=name, count=n_masked,
                entries="entry" if n_masked == 1 else "entries")
        values = values.data
    if type(values) is not np.ndarray and _is_sparse(values):
        values = values.toarray()
    try:
        result = np.asarray(values)
    except ValueError as error:  # rows of different lengths, say
        raise InputValueError("{argument} cannot be read as an array: {error}", argument=name,
                              error=error) from None
    if result.dtype.kind == "O" and result.ndim == 2 and hasattr(values, "iloc"):
        # pandas makes objects of a frame of nullable or Arrow columns, but NumPy types of each
        # such column without missing values.
        columns = [np.asarray(values.iloc[:, k]) for k in range(result.shape[1])]
        if all(column.dtype.kind != "O" for column in columns):
            result = np.stack(columns, axis=1)
    if result.ndim == 0 and result.dtype.kind == "O":  # NumPy wraps a generator whole
        raise InputTypeError("{argument} must be an array or a sequence, got {kind}; pass a list "
                             "or an array.", argument=name, kind=type(result.item()).__name__)
    if not result.dtype.isnative:
        result = result.astype(result.dtype.newbyteorder("="))
    return result


def _of_dimension(name, values, ndim, allow_empty=False):
    array = as_array(name, values)
    if array.ndim != ndim:
        raise InputValueError("{argument} must be {ndim}-D, got an array of shape {shape}.",
                              argument=name, ndim=ndim, shape=array.shape)
    if array.size == 0 and not allow_empty:
        raise InputValueError("{argument} is empty" + (".", " (shape {shape}).")[ndim - 1],
                              argument=name, shape=array.shape)
    return array


def as_1d(name, values, *, allow_empty=False):
    """``values`` as a 1-D array; rejects scalars, other shapes and (unless allowed) empty
    input."""
    return _of_dimension(name, values, 1, allow_empty)


def as_2d(name, values):
    """``values`` as a 2-D array; rejects other shapes and empty input."""
    return _of_dimension(name, values, 2)


def same_lengths(**lengths):
    """Every length equals the first one (the reference; the error names the other)."""
    (name_a, n_a), *rest = lengths.items()
    for name_b, n_b in rest:
        if n_b != n_a:
            raise InputValueError("{other} and {argument} have different lengths: {n_a} and "
                                  "{n_b}.", argument=name_b, other=name_a, n_a=n_a, n_b=n_b)


# ----------------------------------------------------------------------------- numbers
def scores(y_score, name="y_score"):
    """Scores as float32 (float16/float32 input) or float64 (everything else), with no NaN.

    Integers and long doubles are accepted when float64 holds them exactly, so distinct scores
    never merge silently.
    """
    return real_scores(name, as_1d(name, y_score))


def real_scores(name, array, *, find_nan=True):
    """``scores`` for an array of any shape; positions in errors follow the shape.

    ``find_nan=False`` leaves NaN to a caller that finds them on its own pass over the scores and
    then calls :func:`reject_nan`.
    """
    check_dtype(name, array)
    if array.dtype.kind == "f" and array.dtype.itemsize <= 4:
        converted = np.ascontiguousarray(array, dtype=np.float32)
    else:
        converted = np.ascontiguousarray(array, dtype=np.float64)
        if _rounds_in_float64(array):
            # fastpr's rule: refused, where scikit-learn's convention ranks them (sk_scores).
            with np.errstate(invalid="ignore", over="ignore"):
                changed = converted.astype(array.dtype) != array
            refuse_first(changed, name, array, "{argument} holds {value} at {where}, which "
                         "float64 cannot represent exactly; rescale the scores.")
    if find_nan:
        reject_nan(name, converted)
    return converted


# Integers up to this size (and float16) are exact in float64.
EXACT_INTEGER = 2 ** 53


def _rounds_in_float64(array):
    """Whether float64 would round some of these integer or floating-point values."""
    if array.dtype.itemsize < 8 or array.dtype.kind in "bc" or array.dtype == np.float64:
        return False
    if array.dtype.kind in "iu":
        return bool(array.size and (array.max() > EXACT_INTEGER or array.min() < -EXACT_INTEGER))
    return not (array.astype(np.float64) == array).all()


def reject_nan(name, array):
    """Raise naming the first NaN in ``array`` (any shape), if there is one."""
    # min() propagates NaN and runs at memory speed without a temporary mask.
    if array.size and np.isnan(array.min()):
        nan = np.isnan(array)
        _, number = _PARTITION.get() or (0, None)
        raise InputValueError("{argument} contains NaN at {where} ({count} NaN {scope}).",
                              argument=name, position=position(array.shape, first(nan)),
                              count=int(np.count_nonzero(nan)),
                              scope="in all" if number is None else f"in partition {number}")


def nonnegative(name, array, *, negative=False):
    """A real array (1-D or 2-D) as contiguous float64, every value finite and >= 0 (any sign
    with ``negative``), with a finite sum along the last axis."""
    check_dtype(name, array)
    array = np.ascontiguousarray(array, dtype=np.float64)
    if array.size:
        # The common case in two passes, with no mask and no sum: NaN fails both comparisons,
        # and a total of values this small is finite.
        low, high = array.min(), array.max()
        if (negative or low >= 0) and max(-low, high) < _LARGEST / array.shape[-1]:
            return array
    for bad, what in ((~np.isfinite(array), "finite"), (None if negative else array < 0, ">= 0")):
        if bad is not None:
            refuse_first(bad, name, array, "{argument} must be {what}, got {value} at {where}.",
                         what=what)
    with np.errstate(over="ignore"):
        finite_total(name, array.sum(axis=-1))
    return array


_LARGEST = np.finfo(np.float64).max


def finite_total(name, total):
    """Refuse weights whose total (or any of an array of totals) is not finite: the sweep's
    units and the prevalence need it."""
    if not np.isfinite(total).all():
        raise InputValueError("{argument} must add up to a finite total, got values whose sum "
                              "exceeds the largest double ({largest:.6g}).", argument=name,
                              largest=_LARGEST)


def rates(name, values, *, low_inclusive=True):
    """A scalar or array of rates in [0, 1] (or (0, 1] with ``low_inclusive=False``) as float64."""
    array = as_array(name, values)
    check_dtype(name, array)
    array = array.astype(np.float64)
    interval = Interval(0, 1, closed="both" if low_inclusive else "right")
    refuse_first(~interval.holds(array), name, array, "{argument} must be {interval}, got "
                 "{value}" + (" at {where}." if array.ndim else "."),
                 interval=interval.description)
    return array


def weights(sample_weight, n, *, negative=False, all_zero=False):
    """Weights as float64, finite, >= 0 (any sign with ``negative``), not all 0 (unless
    ``all_zero``), ``n`` of them (None: the caller checks); None stays None (unit weights)."""
    if sample_weight is None:
        return None
    array = as_1d("sample_weight", sample_weight)
    if n is not None:
        same_lengths(y_true=n, sample_weight=array.shape[0])
    array = nonnegative("sample_weight", array, negative=negative)
    if not (all_zero or array.any()):
        raise InputValueError("{argument} is zero everywhere, so there is nothing to evaluate.",
                              argument="sample_weight")
    return array


# ----------------------------------------------------------------------------- labels
def _kind(value_type):
    """The kind of label or group id that a value of this type is; None if it is none."""
    if issubclass(value_type, str):
        return "strings"
    if issubclass(value_type, bytes):
        return "bytes"
    if issubclass(value_type, (numbers.Real, np.bool_)):
        return "numbers"
    return None


def _keys(name, values, array):
    """``array`` (from ``values``) of labels or group ids: numbers without NaN, or strings."""
    if array.dtype.kind == "O" or (array.dtype.kind in "US" and not isinstance(values, np.ndarray)):
        array = _of_one_kind(name, values, array)
    if array.dtype.kind == "f":
        reject_nan(name, array)
    return array


def _of_one_kind(name, values, array):
    """Objects (pandas columns) read one by one, and so a sequence that NumPy turned into strings
    (as it does when numbers and strings mix): refused are values that are neither numbers nor
    strings (None, pd.NA) and a mix of kinds. Objects that are all numbers become a numeric
    array, so that ``np.array([1, 2], dtype=object)`` means what ``[1, 2]`` means; not where
    no dtype holds them all exactly (NumPy would turn integers beyond int64 into float64).
    """
    flat_list = isinstance(values, list) and array.ndim == 1
    items = values if flat_list else np.asarray(values, dtype=object).ravel().tolist()
    kinds = {value_type: _kind(value_type) for value_type in set(map(type, items))}
    if None in kinds.values():
        k = next(k for k, v in enumerate(items) if kinds[type(v)] is None)
        raise InputTypeError("{argument} must hold numbers or strings, got {value!r} at {where}.",
                             argument=name, position=position(array.shape, k), value=items[k])
    if len(set(kinds.values())) > 1:
        nan = next((k for k, v in enumerate(items) if v != v), None)
        if nan is not None:  # pandas marks a missing string with NaN
            raise InputValueError("{argument} contains NaN at {where}.", argument=name,
                                  position=position(array.shape, nan))
        a = items[0]
        b = next(v for v in items if kinds[type(v)] != kinds[type(a)])
        raise InputTypeError("{argument} mixes {kind_a} and {kind_b} ({a!r} and {b!r}); its "
                             "values must all be of one kind.", argument=name,
                             kind_a=kinds[type(a)], kind_b=kinds[type(b)], a=a, b=b)
    if array.dtype.kind == "O" and "numbers" in kinds.values():
        numeric = np.array(items)
        if numeric.dtype.kind != "O" and not (numeric.dtype.kind == "f" and any(
                float(v) != v for v in items if isinstance(v, numbers.Integral))):
            return numeric.reshape(array.shape)
    return array


def labels_1d(name, values):
    """1-D labels: numbers without NaN, or strings, all of one kind."""
    return _keys(name, values, as_1d(name, values))


def distinct(values):
    """The sorted distinct values of an array of labels. Numbers that take two values (or one)
    need no sort, one pass of a kernel finds them (numba compiles no float16 or long double);
    integers of a compact range (class codes) are counted, which beats hashing."""
    flat = values.reshape(-1)
    kind = flat.dtype.kind
    if flat.size and flat.dtype.isnative and (kind in "biu" or flat.dtype in _COMMON_SCORES):
        a, b, n_other = distinct_pair(np.ascontiguousarray(flat))
        if n_other == 0:
            return np.array(sorted({a, b}), dtype=flat.dtype)
    if flat.size and kind in "iu" and int(flat.max()) - int(flat.min()) < 2 * flat.size:
        low = flat.min()
        # Offsets from the lowest in a type that holds them (a narrow signed one would wrap).
        wide = flat if kind == "u" or flat.itemsize == 8 else flat.astype(np.int64)
        offsets = (wide - wide.dtype.type(low)).astype(np.intp, copy=False)
        return np.flatnonzero(np.bincount(offsets)).astype(flat.dtype) + flat.dtype.type(low)
    return np.unique(flat)


def label_set(y_true):
    """The distinct labels of a valid ``y_true`` as Python scalars (at most two)."""
    return distinct(labels_1d("y_true", y_true)).tolist()


def positive_mask(y_true, pos_label, *, gathered=False):
    """Boolean array, True where y_true is the positive class. ``gathered``: ``y_true`` holds
    labels gathered from parts of the data, so that positions in it mean nothing."""
    labels = labels_1d("y_true", y_true)
    return _positives(labels, pos_label, shape=None if gathered else labels.shape)


def _positives(labels, pos_label, shape):
    """``positive_mask`` of flat labels that passed ``_keys``, of ``shape`` (None: no
    positions in errors)."""
    if pos_label is not None:
        Label().check("pos_label", pos_label)
    if labels.dtype.kind == "b" and pos_label in (None, True):
        return labels
    present = distinct(labels).tolist()
    if len(present) > 2:
        _third_label(labels, present, shape)
    if pos_label is None:
        pos_label = default_pos_label(present)
    elif not any(_same_label(v, pos_label) for v in present) and (
            # One label of pos_label's kind is data without positives (a chunk, a partition).
            len(present) == 2 or _kind(type(present[0])) != _kind(type(pos_label))):
        raise InputValueError("{argument}={value!r} is not a label of {other}, whose labels are "
                              "{labels!r}.", argument="pos_label", other="y_true",
                              value=pos_label, labels=present)
    return labels == pos_label


def default_pos_label(present):
    """1, where the labels (``present``, a list) make it the positive one without saying so:
    {0, 1}, {-1, 1}, bool, or one of those values alone."""
    if not (all(isinstance(v, numbers.Number) for v in present)
            and (set(present) <= {0, 1} or set(present) <= {-1, 1})):
        raise InputValueError("{argument} has labels {labels!r}, which are not {{0, 1}}, "
                              "{{-1, 1}} or bool; pass {other} to say which one is positive.",
                              argument="y_true", other="pos_label", labels=present)
    return 1


def _third_label(labels, present, shape):
    """Raise about labels of more than two classes, naming where a third one first appears."""
    shown = ", ".join(repr(v) for v in present[:5]) + (", ..." if len(present) > 5 else "")
    where, third = None, None
    if shape is not None:
        _, firsts = np.unique(labels, return_index=True)
        k = int(np.sort(firsts)[2])
        where, third = position(shape, k), labels[k].item()
    raise InputValueError(
        "{argument} must have two classes, got {count} distinct labels: {shown}" + (
            "." if where is None else "; a third label first appears at {where} ({third!r})."),
        argument="y_true", position=where, count=len(present), shown=shown, third=third)


def _same_label(value, pos_label):
    try:
        return bool(value == pos_label)
    except (TypeError, ValueError):
        return False


def both_classes(n_pos, n_neg, purpose):
    """Refuse work that needs positives and negatives when one class is missing."""
    for name, total in (("positives", n_pos), ("negatives", n_neg)):
        if total == 0:
            raise InputValueError("{argument} has no {name} (or they all weigh 0), so fastpr "
                                  "cannot {purpose}.", argument="y_true", name=name,
                                  purpose=purpose)


# ----------------------------------------------------------------------------- rankings
def check_binary_inputs(y_true, y_score, sample_weight, pos_label, *, part=False):
    """Validate one ranking; returns (is_positive, scores, weights or None).

    ``part``: the input is one part of a ranking (a chunk of a stream), which may be empty or
    weigh 0 everywhere; everything else is checked as for a whole ranking."""
    # The common case, in one call: contiguous 1-D arrays of labels {0, 1} or {-1, 1} (or bool)
    # and float scores without NaN; anything else (and every error) takes the general checks.
    if (type(y_true) is np.ndarray and type(y_score) is np.ndarray and pos_label is None
            and y_true.dtype in _COMMON_LABELS and y_score.dtype in _COMMON_SCORES
            and y_true.ndim == 1 and y_true.shape == y_score.shape and y_true.size
            and y_true.flags.c_contiguous and y_score.flags.c_contiguous):
        a, b, n_other = distinct_pair(y_true)
        if n_other == 0 and (a in (0, 1) and b in (0, 1) or a in (-1, 1) and b in (-1, 1)) \
                and not np.isnan(y_score.min()):
            return (y_true if y_true.dtype.kind == "b" else y_true == 1, y_score,
                    None if sample_weight is None else weights(sample_weight, y_true.size,
                                                               all_zero=part))
    if part and np.size(y_score) == 0:
        return _empty_part(y_true, y_score, sample_weight, pos_label)
    is_positive = positive_mask(y_true, pos_label)
    score_array = scores(y_score)
    same_lengths(y_true=is_positive.shape[0], y_score=score_array.shape[0])
    return is_positive, score_array, weights(sample_weight, is_positive.shape[0], all_zero=part)


def _empty_part(y_true, y_score, sample_weight, pos_label):
    """``check_binary_inputs`` of a part without rows: shapes, lengths and kinds as for any."""
    score_array = real_scores("y_score", as_1d("y_score", y_score, allow_empty=True))
    labels = as_1d("y_true", y_true, allow_empty=True)
    same_lengths(y_true=labels.shape[0], y_score=0)
    if pos_label is not None:
        Label().check("pos_label", pos_label)
    if sample_weight is not None:
        weight_array = as_1d("sample_weight", sample_weight, allow_empty=True)
        same_lengths(y_true=0, sample_weight=weight_array.shape[0])
        check_dtype("sample_weight", weight_array)
    return np.zeros(0, dtype=bool), score_array, None


def _fits_rows(name, array, score_shape):
    """``array`` must have the shape of ``y_score``'s rows or of ``y_score`` itself."""
    if array.shape not in (score_shape[1:], score_shape):
        # The likely mistake: predict_proba output, one column per class, read as rows.
        hint = (" A 2-D y_score holds one ranking per row; for one column of scores per class "
                "use fastpr.multiclass.") if array.shape == score_shape[:1] else ""
        raise InputValueError(
            "{argument} has shape {shape}, but {other} has shape {score_shape}: {argument} must "
            "have shape {row_shape} (shared by every row) or {score_shape}.{hint}",
            argument=name, other="y_score", shape=array.shape, score_shape=score_shape,
            row_shape=score_shape[1:], hint=hint)


def check_batch_inputs(y_true, y_score, sample_weight, pos_label, *, find_nan=True):
    """Validate a 2-D batch; returns (is_positive (n,) or (m, n), scores (m, n), weights).

    Weights are None, (n,) or (m, n); every row must keep some nonzero weight. ``find_nan`` as
    in :func:`real_scores`.
    """
    score_array = real_scores("y_score", as_2d("y_score", y_score), find_nan=find_nan)
    labels = as_array("y_true", y_true)
    _fits_rows("y_true", labels, score_array.shape)
    labels = _keys("y_true", y_true, labels)
    is_positive = _positives(labels.reshape(-1), pos_label, labels.shape).reshape(labels.shape)
    if sample_weight is None:
        return is_positive, score_array, None
    weight_array = as_array("sample_weight", sample_weight)
    _fits_rows("sample_weight", weight_array, score_array.shape)
    weight_array = nonnegative("sample_weight", weight_array)
    empty_rows = ~weight_array.reshape(-1, score_array.shape[1]).any(axis=1)
    if empty_rows.any():
        raise InputValueError("{argument} is zero everywhere in row {row}, so that ranking has "
                              "nothing to evaluate.", argument="sample_weight",
                              row=first(empty_rows))
    return is_positive, score_array, weight_array


# ----------------------------------------------------------------------------- tables of models
def is_model_table(y_score):
    """Whether ``y_score`` is a table of models: a dict {name: scores} or a data frame (pandas,
    polars, or anything else with named ``columns``), one score column per model."""
    return isinstance(y_score, Mapping) or (hasattr(y_score, "columns")
                                            and not isinstance(y_score, np.ndarray))


def model_table(table, name="y_score"):
    """(names, scores) of a table of models: its column names, and its columns as the rows of a
    2-D array in column order (float64 unless every column is float32). Each column is checked
    as a 1-D ``y_score`` of its own, and errors name it as ``name['column']``."""
    if isinstance(table, Mapping):
        names, columns = list(table), list(table.values())
    else:
        names = list(table.columns)
        columns = None
    if not names:
        raise InputValueError("{argument} is a table with no columns.", argument=name)
    bad = next((model for model in names if not isinstance(model, str)), None)
    if bad is not None:
        raise InputTypeError("{argument} is a table of models, whose column names must be "
                             "strings; got {value!r} ({kind}). Rename the columns, for example "
                             "with df.columns = df.columns.astype(str).", argument=name,
                             value=bad, kind=type(bad).__name__)
    seen = set()
    repeated = next((model for model in names if model in seen or seen.add(model)), None)
    if repeated is not None:
        raise InputValueError("{argument} is a table of models, whose column names must be "
                              "unique; {value!r} names more than one column.",
                              argument=name, value=repeated)
    if columns is None:  # only now: a frame gives a frame for a repeated name
        columns = [table[model] for model in names]
    arrays = [scores(column, name=f"{name}[{model!r}]") for model, column in zip(names, columns)]
    same_lengths(**{f"{name}[{model!r}]": array.shape[0] for model, array in zip(names, arrays)})
    return names, np.stack(arrays)


def paired_models(y_true, y_scores, sample_weight, pos_label):
    """Labels, an (n_models, n_samples) float64 score array, weights (or None) and the models'
    names (the column names of a table of models, else positions) of models scored on the same
    examples: a table of models, a 2-D array or a sequence of 1-D arrays."""
    is_positive = positive_mask(y_true, pos_label)
    if is_model_table(y_scores):
        names, rows = model_table(y_scores, "y_scores")
        shown = [f"y_scores[{name!r}]" for name in names]
        models = np.array(names, dtype=object)
    else:
        if isinstance(y_scores, np.ndarray) and y_scores.ndim == 2:
            y_scores = list(as_array("y_scores", y_scores))
        if isinstance(y_scores, np.ndarray) or not hasattr(y_scores, "__len__"):
            y_scores = ()  # refused below
        shown = [f"y_scores[{k}]" for k in range(len(y_scores))]
        rows = [scores(row, name=name) for name, row in zip(shown, y_scores)]
        models = np.arange(len(rows))
    if len(rows) < 2:
        raise InputValueError("{argument} must hold two or more models' scores (a sequence of "
                              "arrays, an array of shape (n_models, n_samples) or a table of "
                              "models).", argument="y_scores")
    for name, row in zip(shown, rows):
        same_lengths(y_true=is_positive.shape[0], **{name: row.shape[0]})
    return (is_positive, np.array(rows, dtype=np.float64),
            weights(sample_weight, is_positive.shape[0]), models)


# ----------------------------------------------------------------------------- groups
def check_grouping(groups, offsets, y_score):
    """Reject ``groups`` with ``offsets`` and either of them with a 2-D ``y_score``."""
    if groups is not None and offsets is not None:
        raise InputValueError("Pass {other} or {argument}, not both.", argument="offsets",
                              other="groups")
    if np.ndim(y_score) != 1:
        raise InputValueError("groups and offsets split one ranking, so {argument} must be 1-D; "
                              "got shape {shape}.", argument="y_score", shape=np.shape(y_score))


def group_ids(groups, n):
    """One group id per row: 1-D, length n, numbers without NaN or strings, of one kind."""
    array = labels_1d("groups", groups)
    same_lengths(y_true=n, groups=array.shape[0])
    if array.dtype.kind == "O":
        # Strings (pandas keeps them as objects) sort faster as a string array; the other ids
        # left as objects (bytes, integers beyond 64 bits) sort as they are.
        return array.astype(str) if isinstance(array[0], str) else array
    check_dtype("groups", array, "biufUS", "hold numbers or strings")
    return array


def indices(name, values, n):
    """Integers in [0, n) as an int64 array of any shape."""
    array = as_array(name, values)
    if array.size == 0:  # (NumPy reads an empty list as float64)
        return np.empty(array.shape, dtype=np.int64)
    check_dtype(name, array, "iu", "be integers")
    refuse_first((array < 0) | (array >= n), name, array, "{argument} must lie in [0, {n}), got "
                 "{value}" + (" at {where}." if array.ndim else "."), n=n)
    return array.astype(np.int64, copy=False)


def offsets(offsets, n):
    """CSR boundaries as int64: starting at 0, non-decreasing, ending at n."""
    array = as_1d("offsets", offsets)
    check_dtype("offsets", array, "iu", "be integers")
    if array.size < 2 or array[0] != 0 or array[-1] != n:
        raise InputValueError("{argument} must run from 0 to the number of rows ({n}) with at "
                              "least one group; got {size} values from {start} to {end}.",
                              argument="offsets", n=n, size=array.size, start=array[0],
                              end=array[-1])
    falls = array[1:] < array[:-1]  # not np.diff, which wraps around for unsigned integers
    if falls.any():
        k = first(falls)
        raise InputValueError("{argument} must be non-decreasing; got offsets[{k}] = {a} > "
                              "offsets[{next}] = {b}.", argument="offsets", k=k, next=k + 1,
                              a=array[k], b=array[k + 1])
    return array.astype(np.int64)


# ----------------------------------------------------------------------------- scikit-learn
# The switch for the drop-in fastpr.sklearn, which must accept what scikit-learn accepts and
# refuse the rest with its exception types (fastpr's InputValueError and InputTypeError are
# ValueError and TypeError too), without importing it. Where the rules differ:
# - integer scores beyond 2^53 and long doubles that float64 would round are ranked among the
#   distinct given values (scikit-learn sorts them in their own type, keeping them apart),
#   where fastpr's own functions refuse them;
# - scores must be finite (fastpr's take +-inf), weights of one ranking >= 0;
# - labels follow scikit-learn's target types and its default positive label;
# - weights written as strings are numbers where scikit-learn reads them so (sk_weights), and
#   pandas' nullable booleans are floats, a missing value NaN (sk_array);
# - messages start with scikit-learn's words where its tests match on them (in_sklearn_words).
class InvalidParameterError(ValueError, TypeError):
    """An argument of the wrong type or value (scikit-learn's class of the same name where
    scikit-learn is loaded)."""


def _loaded(module, name, fallback):
    """scikit-learn's class when its module is loaded, so that filters and ``except`` clauses
    written for scikit-learn apply; else fastpr's equivalent (nobody can name the other yet)."""
    loaded = sys.modules.get(module)
    return getattr(loaded, name, fallback) if loaded is not None else fallback


def warn_undefined(message):
    """Warn that a metric is undefined, as scikit-learn's UndefinedMetricWarning where loaded."""
    warnings.warn(message, _loaded("sklearn.exceptions", "UndefinedMetricWarning",
                                   UndefinedMetricWarning), stacklevel=3)


def in_sklearn_words(words, error):
    """``error`` with scikit-learn's message for it in front (``"<its words> <fastpr's>"``),
    which scikit-learn's tests and its users' ``match=`` patterns look for."""
    return type(error)("{words} {message}", argument=error.argument, other=error.other,
                       position=error.position, words=words, message=str(error))


def sk_array(name, values):
    """:func:`as_array`, reading pandas' nullable booleans as scikit-learn does: as floats, a
    missing value (``pd.NA``) as NaN, which is then refused as NaN (ValueError), as any other."""
    dtype = getattr(values, "dtype", None)
    if (dtype is not None and not isinstance(dtype, np.dtype)
            and getattr(dtype, "kind", None) == "b" and hasattr(values, "to_numpy")):
        values = values.to_numpy(dtype=np.float64, na_value=np.nan)
    return as_array(name, values)


def column_or_1d(name, values):
    """A 1-D array from a 1-D one or a column."""
    array = sk_array(name, values)
    if array.ndim == 2 and array.shape[1] == 1:
        return array.ravel()
    if array.ndim != 1:
        raise InputValueError("{argument} must be 1-D (or one column), got an array of shape "
                              "{shape}.", argument=name, shape=array.shape)
    return array


def sk_weights(sample_weight, *, strings=True, negative=False, all_zero=False):
    """:func:`weights` as scikit-learn reads them: a column is 1-D too, objects that are numbers
    are numbers, and so are numbers written as strings or bytes (``np.array(["1", "2"])``), read
    as float64 where ``strings``; elsewhere scikit-learn's arithmetic fails on strings, and they
    are refused (TypeError)."""
    if sample_weight is None:
        return None
    array = column_or_1d("sample_weight", sample_weight)
    if array.dtype.kind in "OUS":  # (a pandas column of numbers, say, or text)
        array = _numbers("sample_weight", array, strings)
    elif array.dtype.kind not in "biuf":  # (scikit-learn raises ValueError)
        raise InputValueError("{argument} must hold real numbers, got an array of dtype "
                              "{dtype}.", argument="sample_weight", dtype=array.dtype)
    array = weights(array, None, negative=negative, all_zero=True)
    if not (all_zero or array.any()):
        raise no_weight()
    return array


def no_weight():
    """The error about weights that are all 0."""
    return InputValueError("Sample weights must contain at least one non-zero number. {argument} "
                           "is zero everywhere, so there is nothing to evaluate.",
                           argument="sample_weight")


def _numbers(name, array, strings):
    """Objects or text as float64, read as NumPy (and so scikit-learn) reads them; ValueError
    naming the first entry that is no number, TypeError for text where not ``strings``."""
    if not strings and (array.dtype.kind in "US" or any(
            isinstance(value, (str, bytes)) for value in array.tolist())):
        raise InputTypeError("{argument} holds strings, which scikit-learn takes as numbers for "
                             "a binary target and for average=None, 'micro' or 'macro' only; "
                             "pass numbers.", argument=name)
    try:
        return array.astype(np.float64)
    except (TypeError, ValueError):
        pass
    for k, value in enumerate(array.tolist()):
        try:
            float(value)
        except (TypeError, ValueError):
            raise InputValueError("{argument} must hold real numbers, got {value!r} at {where}.",
                                  argument=name, position=position(array.shape, k),
                                  value=value) from None
    raise InputValueError("{argument} must hold real numbers, got an array of dtype {dtype}.",
                          argument=name, dtype=array.dtype)


def finite(name, array):
    """Refuse NaN and infinities (scikit-learn's scores), as :func:`reject_nan` and
    :func:`nonnegative` do."""
    # A finite sum says that every value is finite (NaN and infinities carry into it) at half
    # the cost of a mask; a sum that overflows (or adds inf to -inf) falls back to the mask.
    with np.errstate(over="ignore", invalid="ignore"):
        total = array.sum()
    if not math.isfinite(total) and not np.isfinite(array).all():
        reject_nan(name, array)
        refuse_first(np.isinf(array), name, array,
                     "{argument} must be finite, got {value} at {where}.")


class Scores(NamedTuple):
    values: np.ndarray  # contiguous float32 or float64, in the order and ties of the given ones
    dtype: np.dtype  # as given: scikit-learn returns precision-recall thresholds in it
    distinct: np.ndarray  # where ``values`` are ranks: the given scores they stand for, else None


def sk_scores(name, values, *, dims=(1,), text_error=InputTypeError, check_finite=True):
    """Real scores as :class:`Scores`: integers, bools and other floats become float64, or
    their ranks among the distinct given values where float64 would round some of them. Finite
    ones only, unless ``check_finite`` is False: then the caller checks (one ranking's sort
    brings NaN and infinities to the ends of its classes, which saves a pass)."""
    if (type(values) is np.ndarray and values.dtype in _COMMON_SCORES and values.ndim in dims
            and values.size):  # the common case
        if check_finite:
            finite(name, values)
        return Scores(np.ascontiguousarray(values), values.dtype, None)
    array = sk_array(name, values)
    if array.ndim == 0:
        raise InputTypeError("{argument} must be an array, got a single value: {value!r}.",
                             argument=name, value=array)
    if array.ndim == 2 and array.shape[1] == 1 and 2 not in dims:
        array = array.ravel()
    if array.ndim not in dims:
        raise InputValueError("{argument} must have {dims} dimensions, got an array of shape "
                              "{shape}.", argument=name, shape=array.shape,
                              dims=" or ".join(map(str, dims)))
    given = array.dtype
    if given.kind == "O":
        if any(value is None for value in array.flat):  # (NumPy would read None as NaN)
            raise text_error("{argument} holds None.", argument=name)
        try:
            array = array.astype(np.float64)
        except (TypeError, ValueError):
            raise text_error("{argument} must hold numbers.", argument=name) from None
    elif given.kind not in "biuf":
        raise (InputValueError if given.kind == "c" else text_error)(
            "{argument} must be real numbers, got an array of dtype {dtype}.", argument=name,
            dtype=given)
    if array.size == 0:
        raise InputValueError("{argument} is empty.", argument=name)
    if _rounds_in_float64(array):
        finite(name, array)  # ranks would hide NaN and infinities
        distinct, ranks = np.unique(array, return_inverse=True)
        return Scores(ranks.reshape(array.shape).astype(np.float64), given, distinct)
    if array.dtype not in (np.float32, np.float64):
        array = array.astype(np.float64)
    if check_finite:
        finite(name, array)
    return Scores(np.ascontiguousarray(array), given, None)


def consistent_length(**arrays):
    """The arrays (None for none) have as many samples."""
    lengths = {name: array.shape[0] for name, array in arrays.items() if array is not None}
    try:
        same_lengths(**lengths)
    except InputValueError as error:
        raise in_sklearn_words("Found input variables with inconsistent numbers of samples: "
                               f"{list(lengths.values())}.", error) from None


def target_type(name, y):
    """scikit-learn's type of a target and its sorted distinct values: "binary" (at most two
    values), "multiclass", "multilabel-indicator" (a 2-D array of at most two whole numbers,
    one column per label), "continuous" (non-whole floats), the last two with "-multioutput"
    for several columns, or "unknown"."""
    if y.ndim not in (1, 2) or (y.ndim == 2 and 0 in y.shape):
        return "unknown", None
    if y.size == 0:
        return "binary", y[:0]
    if y.dtype.kind == "O" and not isinstance(y.flat[0], str):
        return "unknown", None
    if y.dtype.kind == "S":
        raise InputTypeError("Support for labels represented as bytes is not supported. "
                             "Convert the labels to a string or integer format ({argument} "
                             "holds bytes).", argument=name)
    several = y.ndim == 2 and y.shape[1] > 1
    if y.dtype.kind == "f":
        finite(name, y)
        whole = y == np.trunc(y)
        if y.dtype.itemsize > 2:  # (no float16 is as large)
            whole &= np.abs(y) < 2.0**63
        if not whole.all():
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
            raise InputTypeError("{argument} mixes labels that cannot be compared (numbers, "
                                 "strings, None).", argument="y_true") from None


def unsupported(kind, hint=""):
    """The error about a target of a type that the function does not take."""
    return InputValueError("{kind} format is not supported: {argument} is {kind}{hint}.",
                           argument="y_true", kind=kind, hint=hint)


def sk_default_pos_label(present):
    """:func:`default_pos_label` in scikit-learn's words."""
    try:
        return default_pos_label(present)
    except InputValueError:
        raise InputValueError("{argument} takes value in {{{shown}}} and pos_label is not "
                              "specified: either make {argument} take value in {{0, 1}} or "
                              "{{-1, 1}} or pass pos_label explicitly.", argument="y_true",
                              shown=", ".join(map(repr, present))) from None
