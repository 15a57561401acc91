"""Input normalisation and every user-facing error message.

Everything the public API accepts passes through here once; kernels downstream assume clean,
contiguous arrays and never raise.
"""
import contextlib
import contextvars
import numbers
import warnings

import numpy as np

from ._engine.kernels.area import worst_ranking_interpolated_area
from ._engine.kernels.labels import distinct_pair
from ._engine.kernels.normalised import lacks_headroom
from ._engine.kernels.summary import too_far_apart

_EXACT_FLOAT64_INT = 2**53
# (rows before it, its number) while one partition of a larger input is checked; see `partition`.
_PARTITION = contextvars.ContextVar("partition", default=None)


class UndefinedMetricWarning(UserWarning):
    """A metric is undefined for the given input (e.g. no positives) and is reported as NaN."""


_TOO_FAR_APART = ("one more than 2**600 times the other, beyond what double precision can weigh "
                  "against each other")
_NO_HEADROOM = ("the AUC-PR of the worst ranking within 2**-26 of 1, leaving the normalised area "
                "no precision")


def warn_if_undefined(n_pos, n_neg, *, roc=False, pr=False, npr=False, floor=None, stacklevel=3):
    """Warn once, for the caller of a public function, about the metrics it returns as NaN.

    ``roc``, ``pr`` and ``npr`` say whether the caller returns AUC-ROC, PR areas and normalised
    AUC-PR. Without positives all of them are undefined; without negatives AUC-ROC and the
    normalised area are (every PR area is then 1). With both, every area is NaN where the class
    totals are too far apart (``fastpr._engine.kernels.summary.too_far_apart``), and the normalised
    area where the worst ranking's area (``floor``, the interpolated one by default) is too
    close to 1 (``fastpr._engine.kernels.normalised``).
    """
    if n_pos == 0:
        asked = (("AUC-ROC", roc), ("AUC-PR", pr), ("normalised AUC-PR", npr and not pr))
        why = "y_true has no positives (or they all weigh 0)"
    elif n_neg == 0:
        asked = (("AUC-ROC", roc), ("normalised AUC-PR", npr))
        why = "y_true has no negatives (or they all weigh 0)"
    elif too_far_apart(n_pos, n_neg):
        asked = (("AUC-ROC", roc), ("AUC-PR", pr), ("normalised AUC-PR", npr and not pr))
        why = f"the positives and negatives weigh {n_pos:.6g} and {n_neg:.6g}, {_TOO_FAR_APART}"
    elif npr and lacks_headroom(worst_ranking_interpolated_area(n_pos, n_neg)
                                if floor is None else floor):
        asked = (("normalised AUC-PR", True),)
        why = (f"the positives outweigh the negatives {n_pos:.6g} to {n_neg:.6g}, which puts "
               f"{_NO_HEADROOM}")
    else:
        return
    what = " and ".join(name for name, returned in asked if returned)
    if what:
        warnings.warn(f"{what} is undefined because {why}; returning NaN.",
                      UndefinedMetricWarning, stacklevel=stacklevel)


def as_array(name, values):
    """``values`` as a NumPy array in the machine's byte order, which the kernels need.

    A masked array is read as its data only when nothing is masked: fastpr would otherwise count
    whatever its masked entries hold.
    """
    if isinstance(values, np.ma.MaskedArray):
        n_masked = int(np.ma.count_masked(values))
        if n_masked:
            raise ValueError(
                f"{name} has {n_masked} masked {'entry' if n_masked == 1 else 'entries'}, which "
                "fastpr cannot leave out: drop them (and the matching entries of the other "
                "arguments) or fill them (masked_array.filled(value)) first."
            )
        values = values.data
    result = np.asarray(values)
    if result.ndim == 0 and result.dtype.kind == "O":  # NumPy wraps a generator whole
        raise TypeError(f"{name} must be an array or a sequence, got "
                        f"{type(result.item()).__name__}; pass a list or an array.")
    if not result.dtype.isnative:
        result = result.astype(result.dtype.newbyteorder("="))
    return result


def as_1d(name, values):
    """``values`` as a 1-D array; rejects scalars, other shapes and empty input."""
    array = as_array(name, values)
    if array.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got an array of shape {array.shape}.")
    if array.size == 0:
        raise ValueError(f"{name} is empty.")
    return array


def _first_position(mask):
    return int(np.argmax(mask))


def _check_same_length(**arrays):
    same_lengths(**{name: array.shape[0] for name, array in arrays.items()})


def same_lengths(**lengths):
    """Every length equals the first one."""
    (name_a, n_a), *rest = lengths.items()
    for name_b, n_b in rest:
        if n_b != n_a:
            raise ValueError(f"{name_a} and {name_b} have different lengths: {n_a} and {n_b}.")


@contextlib.contextmanager
def partition(rows_before, number):
    """Check partition ``number`` of a larger 1-D input: positions in messages count from the
    start of the whole input, which has ``rows_before`` rows before this partition."""
    token = _PARTITION.set((rows_before, number))
    try:
        yield
    finally:
        _PARTITION.reset(token)


def _where(shape, flat_position):
    """Where a flat position lies: "index i" in 1-D input, "row r, column c" in 2-D input."""
    if len(shape) == 1:
        rows_before, _ = _PARTITION.get() or (0, None)
        return f"index {flat_position + rows_before}"
    row, column = np.unravel_index(flat_position, shape)
    return f"row {row}, column {column}"


def scores(y_score, name="y_score"):
    """Scores as float32 (float16/float32 input) or float64 (everything else), with no NaN.

    Integers and long doubles are accepted when float64 holds them exactly, so distinct scores
    never merge silently.
    """
    return _real_scores(name, as_1d(name, y_score))


def _real_scores(name, array, *, find_nan=True):
    """``scores`` for an array of any shape; positions in messages follow the shape.

    ``find_nan=False`` leaves NaN to a caller that finds them on its own pass over the scores and
    then calls :func:`reject_nan`.
    """
    kind = array.dtype.kind
    if kind not in "biuf":
        raise TypeError(f"{name} must be real numbers, got an array of dtype {array.dtype}.")
    if kind == "f" and array.dtype.itemsize <= 4:
        converted = np.ascontiguousarray(array, dtype=np.float32)
    else:
        converted = np.ascontiguousarray(array, dtype=np.float64)
        lossy = (kind in "iu" and array.dtype.itemsize == 8) or (
            kind == "f" and array.dtype.itemsize > 8
        )
        if lossy:
            with np.errstate(invalid="ignore", over="ignore"):
                changed = converted.astype(array.dtype) != array
        if lossy and changed.any():
            position = _first_position(changed)
            raise ValueError(
                f"{name} holds {array.reshape(-1)[position]} at "
                f"{_where(array.shape, position)}, which float64 cannot represent exactly; "
                "rescale the scores."
            )
    if find_nan:
        reject_nan(name, converted)
    return converted


def reject_nan(name, array):
    """Raise ValueError naming the first NaN in ``array`` (any shape), if there is one."""
    # min() propagates NaN and runs at memory speed without a temporary mask.
    if array.size and np.isnan(array.min()):
        nan = np.isnan(array)
        _, number = _PARTITION.get() or (0, None)
        scope = "in all" if number is None else f"in partition {number}"
        raise ValueError(
            f"{name} contains NaN at {_where(array.shape, _first_position(nan))} "
            f"({int(np.count_nonzero(nan))} NaN {scope})."
        )


def _finite_nonnegative(name, array):
    """A real array (1-D or 2-D) as contiguous float64, every value finite and >= 0."""
    if array.dtype.kind not in "biuf":
        raise TypeError(f"{name} must be real numbers, got an array of dtype {array.dtype}.")
    array = np.ascontiguousarray(array, dtype=np.float64)
    for bad, what in ((~np.isfinite(array), "finite"), (array < 0, ">= 0")):
        if bad.any():
            position = _first_position(bad)
            raise ValueError(f"{name} must be {what}, got {array.reshape(-1)[position]} at "
                             f"{_where(array.shape, position)}.")
    with np.errstate(over="ignore"):
        totals = array.sum(axis=-1)
    if not np.isfinite(totals).all():
        raise ValueError(f"{name} must add up to a finite total, got values whose sum exceeds the "
                         f"largest double ({np.finfo(np.float64).max:.6g}).")
    return array


def weights(sample_weight, n):
    """Weights as float64, finite and >= 0; None stays None (unit weights)."""
    if sample_weight is None:
        return None
    array = as_1d("sample_weight", sample_weight)
    if array.shape[0] != n:
        raise ValueError(
            f"y_true and sample_weight have different lengths: {n} and {array.shape[0]}."
        )
    array = _finite_nonnegative("sample_weight", array)
    if not array.any():
        raise ValueError("sample_weight is zero everywhere, so there is nothing to evaluate.")
    return array


def accumulator_arrays(score_values, pos_weight, neg_weight):
    """The arrays of ``Accumulator.from_arrays`` as float64: scores without NaN, weights >= 0.

    All three empty is an empty accumulator.
    """
    named = {"scores": score_values, "pos_weight": pos_weight, "neg_weight": neg_weight}
    arrays = {name: as_array(name, values) for name, values in named.items()}
    for name, array in arrays.items():
        if array.ndim != 1:
            raise ValueError(f"{name} must be 1-D, got an array of shape {array.shape}.")
    _check_same_length(**arrays)
    if arrays["scores"].size == 0:
        return np.empty(0), np.empty(0), np.empty(0)
    return (scores(arrays["scores"], name="scores").astype(np.float64),
            _finite_nonnegative("pos_weight", arrays["pos_weight"]),
            _finite_nonnegative("neg_weight", arrays["neg_weight"]))


def nonempty(n_distinct, what, hint):
    """Refuse to evaluate a summary that holds no example of nonzero weight."""
    if n_distinct == 0:
        raise ValueError(f"{what} is empty: {hint}.")


def dask_vector(name, values, array):
    """``array`` (``values`` as a dask array, or None if it is neither that nor a dask Series)."""
    if array is None:
        raise TypeError(f"{name} must be a dask array or a dask Series, got {type(values).__name__}.")
    if array.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got a dask array of shape {array.shape}.")
    return array


def same_partitions(name, n_partitions, n_expected):
    """Every input of fastpr.distributed.evaluate comes in as many partitions as y_score."""
    if n_partitions != n_expected:
        raise ValueError(f"y_score and {name} have different numbers of partitions: "
                         f"{n_expected} and {n_partitions}.")


def partition_lengths(totals, number, lengths):
    """Inputs whose partition ``number`` differs in length (``lengths``, by input name): as their
    ``totals`` do, or else as partitions."""
    same_lengths(**totals)
    (name_a, n_a), *rest = lengths.items()
    name_b, n_b = next((name, n) for name, n in rest if n != n_a)
    raise ValueError(f"{name_a} and {name_b} both have {totals[name_a]} rows but are partitioned "
                     f"differently: partition {number} holds {n_a} and {n_b} rows; give them "
                     "the same partitions.")


def positive_count(name, value):
    """An int >= 1 (bool excluded)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an int, got {value!r}.")
    if value < 1:
        raise ValueError(f"{name} must be >= 1, got {value!r}.")
    return int(value)


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
        position = next(k for k, v in enumerate(items) if kinds[type(v)] is None)
        raise TypeError(f"{name} must hold numbers or strings, got {items[position]!r} at "
                        f"{_where(array.shape, position)}.")
    if len(set(kinds.values())) > 1:
        nan = next((k for k, v in enumerate(items) if v != v), None)
        if nan is not None:  # pandas marks a missing string with NaN
            raise ValueError(f"{name} contains NaN at {_where(array.shape, nan)}.")
        first = items[0]
        other = next(v for v in items if kinds[type(v)] != kinds[type(first)])
        raise TypeError(f"{name} mixes {kinds[type(first)]} and {kinds[type(other)]} "
                        f"({first!r} and {other!r}); its values must all be of one kind.")
    if array.dtype.kind == "O" and "numbers" in kinds.values():
        numeric = _as_numbers(items, array.shape)
        return array if numeric is None else numeric
    return array


def _distinct_labels(labels):
    """The distinct values of ``labels`` as Python scalars; numeric labels avoid a full sort."""
    present = None
    if labels.dtype.kind in "biuf":
        a, b, n_other = distinct_pair(labels)
        if n_other == 0:
            present = sorted({a, b})
    if present is None:
        present = np.unique(labels)
    return [v.item() if isinstance(v, np.generic) else v for v in present]


def labels_1d(name, values):
    """1-D labels: numbers without NaN, or strings, all of one kind."""
    return _keys(name, values, as_1d(name, values))


def positive_mask(y_true, pos_label):
    """Boolean array, True where y_true is the positive class (SPEC section 1)."""
    return _positive(labels_1d("y_true", y_true), pos_label)


def _positive(labels, pos_label):
    """``positive_mask`` of labels that passed ``_keys``."""
    if pos_label is not None and _kind(type(pos_label)) is None:
        raise TypeError(f"pos_label must be a number or a string, got {pos_label!r}.")
    if labels.dtype.kind == "b" and pos_label in (None, True):
        return labels
    present = _distinct_labels(labels)
    if len(present) > 2:
        shown = ", ".join(repr(v) for v in present[:5]) + (", ..." if len(present) > 5 else "")
        raise ValueError(
            f"y_true must have two classes, got {len(present)} distinct labels: {shown}."
        )
    if pos_label is None:
        numeric = all(isinstance(v, (numbers.Number, np.number)) for v in present)
        if not (numeric and (set(present) <= {0, 1} or set(present) <= {-1, 1})):
            raise ValueError(
                f"y_true has labels {present!r}, which are not {{0, 1}}, {{-1, 1}} or bool; "
                "pass pos_label to say which one is positive."
            )
        pos_label = 1
    elif not any(_same_label(v, pos_label) for v in present) and (
            # One label of pos_label's kind is data without positives (a chunk, a partition).
            len(present) == 2 or _kind(type(present[0])) != _kind(type(pos_label))):
        raise ValueError(
            f"pos_label={pos_label!r} is not a label of y_true, whose labels are {present!r}."
        )
    return labels == pos_label


def label_set(y_true):
    """The distinct labels of a valid ``y_true`` as Python scalars (at most two)."""
    return _distinct_labels(labels_1d("y_true", y_true))


def _same_label(value, pos_label):
    try:
        return bool(value == pos_label)
    except (TypeError, ValueError):
        return False


def check_binary_inputs(y_true, y_score, sample_weight, pos_label):
    """Validate one ranking; returns (is_positive, scores, weights or None)."""
    is_positive = positive_mask(y_true, pos_label)
    score_array = scores(y_score)
    _check_same_length(y_true=is_positive, y_score=score_array)
    return is_positive, score_array, weights(sample_weight, is_positive.shape[0])


def _number(name, value):
    if isinstance(value, bool) or not isinstance(value, (numbers.Real, np.number)):
        raise TypeError(f"{name} must be a real number, got {value!r}.")
    return float(value)


def real(name, value):
    """A finite real scalar as float."""
    number = _number(name, value)
    if not np.isfinite(number):
        raise ValueError(f"{name} must be finite, got {value!r}.")
    return number


def non_negative(name, value):
    number = _number(name, value)
    if not (np.isfinite(number) and number >= 0):
        raise ValueError(f"{name} must be finite and >= 0, got {value!r}.")
    return number


def positive(name, value):
    number = _number(name, value)
    if not (np.isfinite(number) and number > 0):
        raise ValueError(f"{name} must be finite and > 0, got {value!r}.")
    return number


def count(name, value, minimum):
    """A whole number (Python or NumPy integer) >= minimum."""
    if isinstance(value, bool) or not isinstance(value, (numbers.Integral, np.integer)):
        raise TypeError(f"{name} must be an integer, got {value!r}.")
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value!r}.")
    return int(value)


def prevalence(value, name="prevalence"):
    """A base rate strictly between 0 and 1."""
    value = real(name, value)
    if not 0 < value < 1:
        raise ValueError(f"{name} must be strictly between 0 and 1, got {value!r}.")
    return value


def class_counts(n_pos, n_neg, *, whole_n_pos=False, method=None):
    """Total positive weight (> 0) and negative weight (>= 0) of a data set."""
    n_pos, n_neg = positive("n_pos", n_pos), non_negative("n_neg", n_neg)
    if whole_n_pos and n_pos != int(n_pos):
        raise ValueError(
            f"n_pos must be a whole number for method={method!r}, whose worst-case area depends "
            f"on unit steps of true positives; got {n_pos!r}."
        )
    return n_pos, n_neg


def rates(name, values, *, low_inclusive=True):
    """A scalar or array of rates in [0, 1] (or (0, 1] with ``low_inclusive=False``) as float64."""
    array = as_array(name, values)
    if array.dtype.kind not in "biuf":
        raise TypeError(f"{name} must be real numbers, got an array of dtype {array.dtype}.")
    array = array.astype(np.float64)
    bad = ~((array >= 0) & (array <= 1)) if low_inclusive else ~((array > 0) & (array <= 1))
    if bad.any():
        position = np.unravel_index(_first_position(bad.ravel()), array.shape)
        where = f" at index {position[0] if array.ndim == 1 else position}" if array.ndim else ""
        interval = "[0, 1]" if low_inclusive else "(0, 1]"
        raise ValueError(f"{name} must lie in {interval}, got {array[position]}{where}.")
    return array


def choice(name, value, allowed):
    if value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, allowed))}; got {value!r}.")
    return value


def at_most(what, values, limit, limit_name):
    """Reject the first of ``values`` above ``limit`` (with rounding slack)."""
    over = values > limit * (1 + 1e-12)
    if over.any():
        position = _first_position(over.ravel())
        where = f" at index {position}" if values.ndim else ""
        raise ValueError(f"{what} is {values.ravel()[position]}{where}, more than "
                         f"{limit_name} = {limit}.")


def curve(name, value):
    """A curve object carrying counts, with both classes present."""
    if not all(hasattr(value, field) for field in ("tp", "fp", "n_pos", "n_neg")):
        raise TypeError(
            f"{name} must be a curve from fastpr.roc_curve, fastpr.pr_curve or "
            f"fastpr.roc_convex_hull, got {type(value).__name__}."
        )
    if not (value.n_pos > 0 and value.n_neg > 0):
        raise ValueError(f"{name} needs positives and negatives, got n_pos = {value.n_pos} and "
                         f"n_neg = {value.n_neg}.")
    return value


def both_classes(n_pos, n_neg, purpose):
    """Refuse work that needs positives and negatives when one class is missing."""
    for name, total in (("positives", n_pos), ("negatives", n_neg)):
        if total == 0:
            raise ValueError(f"y_true has no {name} (or they all weigh 0), so fastpr cannot "
                             f"{purpose}.")


def folds(values, is_evaluation, *, pooled):
    """Each fold is an Evaluation (unless pooling) or a (y_true, y_score[, sample_weight]) tuple."""
    if not values:
        raise ValueError("folds is empty.")
    for position, (fold, evaluated) in enumerate(zip(values, is_evaluation)):
        if evaluated and not pooled:
            continue
        if not (isinstance(fold, tuple) and len(fold) in (2, 3)):
            expected = "(y_true, y_score[, sample_weight]) tuples" + (
                "" if pooled else " or Evaluation results")
            detail = " (pooling needs the predictions)" if evaluated else ""
            raise TypeError(f"folds must hold {expected}; folds[{position}] is "
                            f"{type(fold).__name__}{detail}.")


def warn_undefined_folds(n_undefined, n_folds):
    if n_undefined:
        warnings.warn(f"{n_undefined} of {n_folds} folds have an undefined area (a class is "
                      "missing, or their weights are beyond what double precision resolves) and "
                      "are left out.", UndefinedMetricWarning, stacklevel=3)


def confidence(value):
    number = _number("confidence", value)
    if not 0 < number < 1:
        raise ValueError(f"confidence must be strictly between 0 and 1, got {value!r}.")
    return number


def seed(value):
    """A random seed: an integer in [0, 2**64)."""
    value = count("seed", value, 0)
    if value >= 2**64:
        raise ValueError(f"seed must be < 2**64, got {value!r}.")
    return value


def warn_undefined_replicates(n_undefined, n_boot):
    if n_undefined:
        warnings.warn(f"{n_undefined} of {n_boot} bootstrap replicates have an undefined metric "
                      "(they drew no positives or no negatives, or their weights are beyond what "
                      "double precision resolves); it is NaN and the interval leaves them out.",
                      UndefinedMetricWarning, stacklevel=3)


def paired_inputs(y_true, y_scores, sample_weight, pos_label):
    """Labels, an (n_models, n_samples) float64 score array and weights (or None)."""
    is_positive = positive_mask(y_true, pos_label)
    if isinstance(y_scores, np.ndarray) and y_scores.ndim == 2:
        y_scores = list(as_array("y_scores", y_scores))
    if isinstance(y_scores, np.ndarray) or not hasattr(y_scores, "__len__") or len(y_scores) < 2:
        raise ValueError("y_scores must hold two or more models' scores (a sequence of arrays or "
                         "an array of shape (n_models, n_samples)).")
    rows = [scores(row, name=f"y_scores[{k}]") for k, row in enumerate(y_scores)]
    for k, row in enumerate(rows):
        _check_same_length(y_true=is_positive, **{f"y_scores[{k}]": row})
    return is_positive, np.array(rows, dtype=np.float64), weights(sample_weight,
                                                                   is_positive.shape[0])


def delong_options(metric, sample_weight):
    if metric != "auc_roc":
        raise ValueError(f"DeLong's method is for metric='auc_roc', got metric={metric!r}.")
    if sample_weight is not None:
        raise ValueError("DeLong's method takes unweighted data; use the bootstrap with "
                         "sample_weight.")


def analytic_interval_metric(interval, metric):
    if metric not in ("auc_pr", "auc_npr"):
        raise ValueError(f"the {interval} interval is for PR areas (metric 'auc_pr' or "
                         f"'auc_npr'), got metric={metric!r}; use interval='bootstrap' (or "
                         "'delong' for AUC-ROC).")


def fold_values(values):
    """Per-fold results: 1-D, finite, at least two."""
    array = as_1d("values", values)
    if array.dtype.kind not in "biuf":
        raise TypeError(f"values must be real numbers, got an array of dtype {array.dtype}.")
    array = array.astype(np.float64)
    if array.size < 2:
        raise ValueError(f"values must hold at least two folds, got {array.size}.")
    bad = ~np.isfinite(array)
    if bad.any():
        position = _first_position(bad)
        raise ValueError(f"values must be finite, got {array[position]} at index {position}.")
    return array


def recall_step(value):
    """A sampling step along recall: in (0, 1]."""
    if not (np.isscalar(value) and 0 < value <= 1):
        raise ValueError(f"max_recall_step must be in (0, 1], got {value!r}.")
    return value


def pr_method(method, methods):
    if method not in methods:
        raise ValueError(f"method must be one of {', '.join(methods)}; got {method!r}.")
    return method


def same_shape(**arrays):
    (name_a, a), (name_b, b) = arrays.items()
    if a.shape != b.shape:
        raise ValueError(f"{name_a} and {name_b} have different shapes: {a.shape} and {b.shape}.")


def segment(tp_a, fp_a, tp_b, fp_b, n_pos, step):
    """Check two operating points A -> B in count space and the tp step between them."""
    values = {"tp_a": tp_a, "fp_a": fp_a, "tp_b": tp_b, "fp_b": fp_b, "n_pos": n_pos, "step": step}
    for name, value in values.items():
        non_negative(name, value)
    if tp_b < tp_a or fp_b < fp_a:
        raise ValueError(
            f"B must not precede A: got A = (tp {tp_a}, fp {fp_a}) and B = (tp {tp_b}, fp {fp_b})."
        )
    if tp_b == tp_a and fp_b == fp_a:
        raise ValueError(f"A and B are the same point (tp {tp_a}, fp {fp_a}).")
    if n_pos < tp_b or n_pos == 0:
        raise ValueError(f"n_pos must be > 0 and at least tp_b = {tp_b}, got {n_pos!r}.")
    if step <= 0:
        raise ValueError(f"step must be > 0, got {step!r}.")
    return tuple(float(v) for v in values.values())


# ----------------------------------------------------------------------------- many rankings
def warn_if_undefined_rows(n_pos, n_neg, *, roc=False, pr=False, npr=False, floors=None,
                           unit="rankings", stacklevel=3):
    """One warning for all the rankings of a batch whose returned metrics are NaN, with counts.

    ``roc``, ``pr``, ``npr`` and (needed with ``npr``) ``floors``, one per ranking, as in
    :func:`warn_if_undefined`.
    """
    no_positives = int(np.count_nonzero(n_pos == 0))
    no_negatives = int(np.count_nonzero((n_neg == 0) & (n_pos > 0)))
    far_apart = too_far_apart(n_pos, n_neg)
    no_headroom = 0
    if npr:
        no_headroom = int(np.count_nonzero(lacks_headroom(floors) & (n_neg > 0) & ~far_apart))
    reasons = []
    for count, why, asked in (
            (no_positives, "no positives",
             (("AUC-ROC", roc), ("AUC-PR", pr), ("normalised AUC-PR", npr and not pr))),
            (no_negatives, "no negatives", (("AUC-ROC", roc), ("normalised AUC-PR", npr))),
            (int(np.count_nonzero(far_apart)), f"class totals {_TOO_FAR_APART}",
             (("AUC-ROC", roc), ("AUC-PR", pr), ("normalised AUC-PR", npr and not pr))),
            (no_headroom, _NO_HEADROOM, (("normalised AUC-PR", npr),))):
        undefined = " and ".join(name for name, returned in asked if returned)
        if count and undefined:
            reasons.append((count, f"{count} have {why} ({undefined} undefined)"))
    if not reasons:
        return
    total = sum(count for count, _ in reasons)
    warnings.warn(
        f"Metrics are undefined for {total} of {n_pos.size} {unit}: "
        f"{'; '.join(text for _, text in reasons)} (or those examples weigh 0). Their values are "
        f"NaN, and averages over {unit} leave them out.", UndefinedMetricWarning,
        stacklevel=stacklevel)


def _as_2d(name, values):
    array = as_array(name, values)
    if array.ndim != 2:
        raise ValueError(f"{name} must be 2-D, got an array of shape {array.shape}.")
    if array.size == 0:
        raise ValueError(f"{name} is empty (shape {array.shape}).")
    return array


def _fits_rows(name, array, score_shape):
    """``array`` must have the shape of ``y_score``'s rows or of ``y_score`` itself."""
    if array.shape not in (score_shape[1:], score_shape):
        # The likely mistake: predict_proba output, one column per class, read as rows.
        hint = (" A 2-D y_score holds one ranking per row; for one column of scores per class "
                "use fastpr.multiclass.") if array.shape == score_shape[:1] else ""
        raise ValueError(
            f"{name} has shape {array.shape}, but y_score has shape {score_shape}: {name} must "
            f"have shape {score_shape[1:]} (shared by every row) or {score_shape}.{hint}"
        )


def check_batch_inputs(y_true, y_score, sample_weight, pos_label, *, find_nan=True):
    """Validate a 2-D batch; returns (is_positive (n,) or (m, n), scores (m, n), weights).

    Weights are None, (n,) or (m, n); every row must keep some nonzero weight. ``find_nan`` as
    in ``_real_scores``.
    """
    score_array = _real_scores("y_score", _as_2d("y_score", y_score), find_nan=find_nan)
    labels = as_array("y_true", y_true)
    _fits_rows("y_true", labels, score_array.shape)
    labels = _keys("y_true", y_true, labels)
    is_positive = _positive(labels.reshape(-1), pos_label).reshape(labels.shape)
    if sample_weight is None:
        return is_positive, score_array, None
    weight_array = as_array("sample_weight", sample_weight)
    _fits_rows("sample_weight", weight_array, score_array.shape)
    weight_array = _finite_nonnegative("sample_weight", weight_array)
    empty_rows = ~weight_array.reshape(-1, score_array.shape[1]).any(axis=1)
    if empty_rows.any():
        raise ValueError(
            f"sample_weight is zero everywhere in row {_first_position(empty_rows)}, so that "
            "ranking has nothing to evaluate."
        )
    return is_positive, score_array, weight_array


def check_grouping(groups, offsets, y_score):
    """Reject ``groups`` with ``offsets`` and either of them with a 2-D ``y_score``."""
    if groups is not None and offsets is not None:
        raise ValueError("Pass groups or offsets, not both.")
    if np.ndim(y_score) != 1:
        raise ValueError(
            f"groups and offsets split one ranking, so y_score must be 1-D; got shape "
            f"{np.shape(y_score)}."
        )


def group_ids(groups, n):
    """One group id per row: 1-D, length n, numbers without NaN or strings, of one kind."""
    array = labels_1d("groups", groups)
    if array.shape[0] != n:
        raise ValueError(f"y_true and groups have different lengths: {n} and {array.shape[0]}.")
    if array.dtype.kind == "O":
        # Strings (pandas keeps them as objects) sort faster as a string array; the other ids
        # left as objects (bytes, integers beyond 64 bits) sort as they are.
        return array.astype(str) if isinstance(array[0], str) else array
    if array.dtype.kind not in "biufUS":
        raise TypeError(f"groups must hold numbers or strings, got an array of dtype {array.dtype}.")
    return array


def offsets(offsets, n):
    """CSR boundaries as int64: starting at 0, non-decreasing, ending at n."""
    array = as_1d("offsets", offsets)
    if array.dtype.kind not in "iu":
        raise TypeError(f"offsets must be integers, got an array of dtype {array.dtype}.")
    if array.size < 2 or array[0] != 0 or array[-1] != n:
        raise ValueError(
            f"offsets must run from 0 to the number of rows ({n}) with at least one group; got "
            f"{array.size} values from {array[0]} to {array[-1]}."
        )
    falls = array[1:] < array[:-1]  # not np.diff, which wraps around for unsigned integers
    if falls.any():
        k = _first_position(falls)
        raise ValueError(
            f"offsets must be non-decreasing; got offsets[{k}] = {array[k]} > "
            f"offsets[{k + 1}] = {array[k + 1]}."
        )
    return array.astype(np.int64)


def average(value, allowed):
    """``average`` must be one of ``allowed`` (None included there when it is allowed)."""
    if value not in allowed:
        shown = ", ".join(repr(v) for v in allowed)
        raise ValueError(f"average must be one of {shown}; got {value!r}.")
    return value


def check_multiclass_inputs(y_true, y_score, labels, sample_weight):
    """Validate one-vs-rest input; returns (indicator (n, k) bool, scores (n, k), weights, classes).

    ``y_true`` holds class labels (1-D) or an indicator matrix of y_score's shape (2-D).
    """
    score_array = _real_scores("y_score", _as_2d("y_score", y_score))
    n_samples, n_classes = score_array.shape
    truth = as_array("y_true", y_true)
    if truth.ndim == 2:
        _check_indicator(truth, score_array.shape)
        indicator = truth.astype(bool)
        classes = np.arange(n_classes) if labels is None else _class_labels(labels, n_classes)
    else:
        truth = _keys("y_true", y_true, as_1d("y_true", truth))
        _check_same_length(y_true=truth, y_score=score_array)
        if labels is None:
            classes = np.unique(truth)
            if classes.size != n_classes:
                raise ValueError(
                    f"y_true has {classes.size} classes but y_score has {n_classes} columns; "
                    "pass labels= to name the class of each column."
                )
        else:
            classes = _class_labels(labels, n_classes)
        indicator = truth[:, None] == classes[None, :]
        unknown = ~indicator.any(axis=1)
        if unknown.any():
            position = _first_position(unknown)
            raise ValueError(
                f"y_true holds {truth[position].item()!r} at index {position}, which is not "
                "in labels."
            )
    if sample_weight is not None:
        sample_weight = weights(sample_weight, n_samples)
    return indicator, score_array, sample_weight, classes


def _check_indicator(truth, score_shape):
    if truth.shape != score_shape:
        raise ValueError(
            f"y_true as an indicator matrix must have y_score's shape {score_shape}; got "
            f"{truth.shape}."
        )
    if truth.dtype.kind not in "biuf":
        raise TypeError(f"y_true as an indicator matrix must hold 0 and 1, got dtype {truth.dtype}.")
    bad = (truth != 0) & (truth != 1)
    if bad.any():
        position = _first_position(bad)
        raise ValueError(
            f"y_true as an indicator matrix must hold only 0 and 1 (or bool); got "
            f"{truth.reshape(-1)[position]} at {_where(truth.shape, position)}."
        )


def _class_labels(labels, n_classes):
    classes = labels_1d("labels", labels)
    if classes.size != n_classes:
        raise ValueError(
            f"labels names {classes.size} classes but y_score has {n_classes} columns."
        )
    if np.unique(classes).size != classes.size:
        raise ValueError("labels must be distinct.")
    return classes


def warn_if_class_missing(metric, n_pos, n_neg=None):
    """Warn, for the caller of a public function, that ``metric`` is NaN for lack of a class.

    ``n_neg=None``: the metric needs no negatives.
    """
    if n_pos == 0:
        why = "y_true has no positives (or they all weigh 0)"
    elif n_neg == 0:
        why = "y_true has no negatives (or they all weigh 0)"
    else:
        return
    warnings.warn(f"{metric} is undefined because {why}; returning NaN.", UndefinedMetricWarning,
                  stacklevel=3)


def beta(value):
    """The F-measure's beta (weight of recall relative to precision): finite and > 0."""
    return positive("beta", value)


def f_level(value):
    """An F-beta value for an iso-F line: strictly between 0 and 1."""
    number = _number("f", value)
    if not 0 < number < 1:
        raise ValueError(f"f must be in (0, 1), got {value!r}.")
    return number


def point_count(value):
    """How many points to draw a line with: an integer >= 2."""
    return count("n_points", value, 2)


def instance_of(name, value, kind):
    """``value`` itself when it is a ``kind``; TypeError naming the argument otherwise."""
    if not isinstance(value, kind):
        raise TypeError(f"{name} must be of type {kind.__name__}, got {type(value).__name__}.")
    return value


def choice_of_suffix(path, formats):
    """The format that ``path``'s suffix names, from ``formats`` ({suffix: format})."""
    suffix = path.suffix.lower()
    if suffix not in formats:
        raise ValueError(f"{path} has suffix {suffix!r}; fastpr reads "
                         f"{', '.join(formats)} files.")
    return formats[suffix]


def columns_present(columns, available, path):
    """Every name of ``columns`` is among ``available``, the columns of file ``path``."""
    missing = [name for name in columns if name not in available]
    if missing:
        shown = ", ".join(map(repr, list(available)[:10]))
        raise ValueError(f"{path} has no column {missing[0]!r}; its columns are {shown}"
                         f"{', ...' if len(available) > 10 else ''}.")
