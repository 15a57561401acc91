"""Input normalisation and every user-facing error message.

Everything the public API accepts passes through here once; kernels downstream assume clean,
contiguous arrays and never raise.
"""
import numbers
import warnings

import numpy as np

from ._kernels.labels import distinct_pair

_EXACT_FLOAT64_INT = 2**53


class UndefinedMetricWarning(UserWarning):
    """A metric is undefined for the given input (e.g. no positives) and is reported as NaN."""


def warn_if_undefined(n_pos, n_neg, *, roc, pr):
    """Warn once, for the caller of a public function, about the metrics it returns as NaN."""
    if n_pos == 0 and (roc or pr):
        what = " and ".join(name for name, asked in (("AUC-ROC", roc), ("AUC-PR", pr)) if asked)
        why = "y_true has no positives (or they all weigh 0)"
    elif n_neg == 0 and roc:
        what = "AUC-ROC and normalised AUC-PR" if pr else "AUC-ROC"
        why = "y_true has no negatives (or they all weigh 0)"
    else:
        return
    warnings.warn(f"{what} is undefined because {why}; returning NaN.", UndefinedMetricWarning,
                  stacklevel=3)


def as_1d(name, values):
    """``values`` as a 1-D array; rejects scalars, other shapes and empty input."""
    array = np.asarray(values)
    if array.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got an array of shape {array.shape}.")
    if array.size == 0:
        raise ValueError(f"{name} is empty.")
    return array


def _first_position(mask):
    return int(np.argmax(mask))


def _check_same_length(**arrays):
    (name_a, a), *rest = arrays.items()
    for name_b, b in rest:
        if b.shape[0] != a.shape[0]:
            raise ValueError(
                f"{name_a} and {name_b} have different lengths: {a.shape[0]} and {b.shape[0]}."
            )


def _where(shape, flat_position):
    """Where a flat position lies: "index i" in 1-D input, "row r, column c" in 2-D input."""
    if len(shape) == 1:
        return f"index {flat_position}"
    row, column = np.unravel_index(flat_position, shape)
    return f"row {row}, column {column}"


def scores(y_score, name="y_score"):
    """Scores as float32 (float16/float32 input) or float64 (everything else), with no NaN.

    Integers and long doubles are accepted when float64 holds them exactly, so distinct scores
    never merge silently.
    """
    return _real_scores(name, as_1d(name, y_score))


def _real_scores(name, array):
    """``scores`` for an array of any shape; positions in messages follow the shape."""
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
    # min() propagates NaN and runs at memory speed without a temporary mask.
    if converted.size and np.isnan(converted.min()):
        nan = np.isnan(converted)
        raise ValueError(
            f"{name} contains NaN at {_where(array.shape, _first_position(nan))} "
            f"({int(np.count_nonzero(nan))} NaN in all)."
        )
    return converted


def weights(sample_weight, n):
    """Weights as float64, finite and >= 0; None stays None (unit weights)."""
    if sample_weight is None:
        return None
    array = as_1d("sample_weight", sample_weight)
    if array.shape[0] != n:
        raise ValueError(
            f"y_true and sample_weight have different lengths: {n} and {array.shape[0]}."
        )
    array = _weight_values(array)
    if not array.any():
        raise ValueError("sample_weight is zero everywhere, so there is nothing to evaluate.")
    return array


def _weight_values(array):
    """Weights of any shape as contiguous float64, finite and >= 0."""
    if array.dtype.kind not in "biuf":
        raise TypeError(f"sample_weight must be real numbers, got an array of dtype {array.dtype}.")
    array = np.ascontiguousarray(array, dtype=np.float64)
    for bad, what in ((~np.isfinite(array), "finite"), (array < 0, ">= 0")):
        if bad.any():
            position = _first_position(bad)
            raise ValueError(
                f"sample_weight must be {what}, got {array.reshape(-1)[position]} at "
                f"{_where(array.shape, position)}."
            )
    return array


def _distinct_labels(labels):
    """The distinct values of ``labels`` as Python scalars; numeric labels avoid a full sort."""
    present = None
    if labels.dtype.kind in "biuf":
        if labels.dtype.kind == "f" and np.isnan(labels).any():
            raise ValueError(f"y_true contains NaN at index {_first_position(np.isnan(labels))}.")
        a, b, n_other = distinct_pair(labels)
        if n_other == 0:
            present = sorted({a, b})
    if present is None:
        present = np.unique(labels)
    return [v.item() if isinstance(v, np.generic) else v for v in present]


def positive_mask(y_true, pos_label):
    """Boolean array, True where y_true is the positive class (SPEC section 1)."""
    labels = as_1d("y_true", y_true)
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
    elif len(present) == 2 and not any(_same_label(v, pos_label) for v in present):
        raise ValueError(
            f"pos_label={pos_label!r} is not a label of y_true, whose labels are {present!r}."
        )
    return labels == pos_label


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


def segment(tp_a, fp_a, tp_b, fp_b, n_pos, step):
    """Check two operating points A -> B in count space and the tp step between them."""
    values = {"tp_a": tp_a, "fp_a": fp_a, "tp_b": tp_b, "fp_b": fp_b, "n_pos": n_pos, "step": step}
    for name, value in values.items():
        if isinstance(value, bool) or not isinstance(value, (numbers.Real, np.number)):
            raise TypeError(f"{name} must be a real number, got {value!r}.")
        if not np.isfinite(value) or value < 0:
            raise ValueError(f"{name} must be finite and >= 0, got {value!r}.")
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
def warn_if_undefined_rows(n_pos, n_neg, *, roc, pr, unit, stacklevel=3):
    """One warning for all the rankings of a batch whose metrics are NaN, with their counts."""
    no_positives = int(np.count_nonzero(n_pos == 0)) if roc or pr else 0
    no_negatives = int(np.count_nonzero((n_neg == 0) & (n_pos > 0))) if roc else 0
    if no_positives + no_negatives == 0:
        return
    reasons = [f"{count} have no {what}" for count, what in
               ((no_positives, "positives"), (no_negatives, "negatives")) if count]
    metrics = " and ".join(name for name, asked in (("AUC-ROC", roc), ("AUC-PR", pr)) if asked)
    warnings.warn(
        f"{metrics} is undefined for {no_positives + no_negatives} of {n_pos.size} {unit}: "
        f"{' and '.join(reasons)} (or they weigh 0). Their values are NaN, and averages over "
        f"{unit} leave them out.", UndefinedMetricWarning, stacklevel=stacklevel)


def _as_2d(name, values):
    array = np.asarray(values)
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


def check_batch_inputs(y_true, y_score, sample_weight, pos_label):
    """Validate a 2-D batch; returns (is_positive (n,) or (m, n), scores (m, n), weights).

    Weights are None, (n,) or (m, n); every row must keep some nonzero weight.
    """
    score_array = _real_scores("y_score", _as_2d("y_score", y_score))
    labels = np.asarray(y_true)
    _fits_rows("y_true", labels, score_array.shape)
    is_positive = positive_mask(labels.reshape(-1), pos_label).reshape(labels.shape)
    if sample_weight is None:
        return is_positive, score_array, None
    weight_array = np.asarray(sample_weight)
    _fits_rows("sample_weight", weight_array, score_array.shape)
    weight_array = _weight_values(weight_array)
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
    """One group id per row: 1-D, length n, no NaN."""
    array = as_1d("groups", groups)
    if array.shape[0] != n:
        raise ValueError(f"y_true and groups have different lengths: {n} and {array.shape[0]}.")
    if array.dtype.kind == "f" and np.isnan(array.min()):
        raise ValueError(f"groups contains NaN at index {_first_position(np.isnan(array))}.")
    if array.dtype.kind == "O":
        # pandas keeps strings as objects; anything else there (None, mixed kinds) cannot be
        # sorted into groups reliably.
        odd = np.array([not isinstance(v, str) for v in array])
        if odd.any():
            position = _first_position(odd)
            raise TypeError(
                f"groups must hold numbers or strings, got {array[position]!r} at index {position}."
            )
        return array.astype(str)
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
    falls = np.diff(array) < 0
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
    truth = np.asarray(y_true)
    if truth.ndim == 2:
        _check_indicator(truth, score_array.shape)
        indicator = truth.astype(bool)
        classes = np.arange(n_classes) if labels is None else _class_labels(labels, n_classes)
    else:
        truth = as_1d("y_true", truth)
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
    classes = as_1d("labels", labels)
    if classes.size != n_classes:
        raise ValueError(
            f"labels names {classes.size} classes but y_score has {n_classes} columns."
        )
    if np.unique(classes).size != classes.size:
        raise ValueError("labels must be distinct.")
    return classes
