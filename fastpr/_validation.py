"""Input normalisation: arrays, scores, weights, labels, groups and offsets.

Every public function passes its data through here once; kernels downstream assume clean,
contiguous arrays and never raise. Errors are the InputError types of ``fastpr.exceptions``,
naming the argument; options (methods, levels, counts) are declared with ``fastpr._options``.
"""
import contextlib
import contextvars
import numbers
from collections.abc import Mapping

import numpy as np

from ._engine.kernels.labels import distinct_pair
from ._options import Interval
from .exceptions import InputTypeError, InputValueError

# (rows before it, its number) while one partition of a larger input is checked; see `partition`.
_PARTITION = contextvars.ContextVar("partition", default=None)


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


def check_dtype(name, array, kinds="biuf", must="be real numbers"):
    """Refuse an array whose dtype is of none of ``kinds`` (NumPy's kind letters)."""
    if array.dtype.kind not in kinds:
        raise InputTypeError("{argument} must {must}, got an array of dtype {dtype}.",
                             argument=name, must=must, dtype=array.dtype)


# ----------------------------------------------------------------------------- arrays
def as_array(name, values):
    """``values`` as a NumPy array in the machine's byte order, which the kernels need.

    A masked array is read as its data only when nothing is masked: fastpr would otherwise count
    whatever its masked entries hold.
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
    kind, itemsize = array.dtype.kind, array.dtype.itemsize
    if kind == "f" and itemsize <= 4:
        converted = np.ascontiguousarray(array, dtype=np.float32)
    else:
        converted = np.ascontiguousarray(array, dtype=np.float64)
        if (kind in "iu" and itemsize == 8) or (kind == "f" and itemsize > 8):
            with np.errstate(invalid="ignore", over="ignore"):
                changed = converted.astype(array.dtype) != array
            refuse_first(changed, name, array, "{argument} holds {value} at {where}, which "
                         "float64 cannot represent exactly; rescale the scores.")
    if find_nan:
        reject_nan(name, converted)
    return converted


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


def nonnegative(name, array):
    """A real array (1-D or 2-D) as contiguous float64, every value finite and >= 0, with a
    finite sum along the last axis."""
    check_dtype(name, array)
    array = np.ascontiguousarray(array, dtype=np.float64)
    for bad, what in ((~np.isfinite(array), "finite"), (array < 0, ">= 0")):
        refuse_first(bad, name, array, "{argument} must be {what}, got {value} at {where}.",
                     what=what)
    with np.errstate(over="ignore"):
        finite_total(name, array.sum(axis=-1))
    return array


def finite_total(name, total):
    """Refuse weights whose total (or any of an array of totals) is not finite: the sweep's
    units and the prevalence need it."""
    if not np.isfinite(total).all():
        raise InputValueError("{argument} must add up to a finite total, got values whose sum "
                              "exceeds the largest double ({largest:.6g}).", argument=name,
                              largest=np.finfo(np.float64).max)


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


def weights(sample_weight, n):
    """Weights as float64, finite and >= 0; None stays None (unit weights)."""
    if sample_weight is None:
        return None
    array = as_1d("sample_weight", sample_weight)
    same_lengths(y_true=n, sample_weight=array.shape[0])
    array = nonnegative("sample_weight", array)
    if not array.any():
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


def _as_numbers(items, shape):
    """Python or NumPy numbers as a bool, integer or float array; None where no dtype holds
    them all exactly (NumPy would turn integers beyond int64 into float64, merging some)."""
    converted = np.array(items)
    if converted.dtype.kind == "O" or (converted.dtype.kind == "f" and any(
            float(v) != v for v in items if isinstance(v, numbers.Integral))):
        return None
    return converted.reshape(shape)


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
    array, so that ``np.array([1, 2], dtype=object)`` means what ``[1, 2]`` means.
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
        numeric = _as_numbers(items, array.shape)
        return array if numeric is None else numeric
    return array


def labels_1d(name, values):
    """1-D labels: numbers without NaN, or strings, all of one kind."""
    return _keys(name, values, as_1d(name, values))


def two_labels(labels):
    """The (sorted) labels of a 1-D array that holds at most two distinct numbers,
    found in one pass; None for other labels. numba compiles no float16 or long double, whose
    labels NumPy sorts instead."""
    if labels.dtype.kind in "biu" or labels.dtype in (np.float32, np.float64):
        a, b, n_other = distinct_pair(labels)
        if n_other == 0:
            return sorted({a, b})
    return None


def _distinct_labels(labels):
    """The distinct values of ``labels`` as Python scalars; numeric labels avoid a full sort."""
    present = two_labels(labels)
    if present is None:
        present = np.unique(labels)
    return [v.item() if isinstance(v, np.generic) else v for v in present]


def label_set(y_true):
    """The distinct labels of a valid ``y_true`` as Python scalars (at most two)."""
    return _distinct_labels(labels_1d("y_true", y_true))


def positive_mask(y_true, pos_label, *, gathered=False):
    """Boolean array, True where y_true is the positive class. ``gathered``: ``y_true`` holds
    labels gathered from parts of the data, so that positions in it mean nothing."""
    labels = labels_1d("y_true", y_true)
    return _positives(labels, pos_label, shape=None if gathered else labels.shape)


def _positives(labels, pos_label, shape):
    """``positive_mask`` of flat labels that passed ``_keys``, of ``shape`` (None: no
    positions in errors)."""
    if pos_label is not None and _kind(type(pos_label)) is None:
        raise InputTypeError("{argument} must be a number or a string, got {value!r}.",
                             argument="pos_label", value=pos_label)
    if labels.dtype.kind == "b" and pos_label in (None, True):
        return labels
    present = _distinct_labels(labels)
    if len(present) > 2:
        _third_label(labels, present, shape)
    if pos_label is None:
        numeric = all(isinstance(v, (numbers.Number, np.number)) for v in present)
        if not (numeric and (set(present) <= {0, 1} or set(present) <= {-1, 1})):
            raise InputValueError("{argument} has labels {labels!r}, which are not {{0, 1}}, "
                                  "{{-1, 1}} or bool; pass {other} to say which one is "
                                  "positive.", argument="y_true", other="pos_label",
                                  labels=present)
        pos_label = 1
    elif not any(_same_label(v, pos_label) for v in present) and (
            # One label of pos_label's kind is data without positives (a chunk, a partition).
            len(present) == 2 or _kind(type(present[0])) != _kind(type(pos_label))):
        raise InputValueError("{argument}={value!r} is not a label of {other}, whose labels are "
                              "{labels!r}.", argument="pos_label", other="y_true",
                              value=pos_label, labels=present)
    return labels == pos_label


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
def check_binary_inputs(y_true, y_score, sample_weight, pos_label):
    """Validate one ranking; returns (is_positive, scores, weights or None)."""
    is_positive = positive_mask(y_true, pos_label)
    score_array = scores(y_score)
    same_lengths(y_true=is_positive.shape[0], y_score=score_array.shape[0])
    return is_positive, score_array, weights(sample_weight, is_positive.shape[0])


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
