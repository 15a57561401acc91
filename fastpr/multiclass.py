"""One-vs-rest evaluation of multiclass and multilabel scores.

A separate module rather than a mode of :func:`fastpr.evaluate`: there a 2-D ``y_score`` is a
batch of rankings, one per *row*, while here it is one column of scores per *class*, as
scikit-learn lays out ``predict_proba``. Keeping the two apart means a 2-D array is never read
the wrong way round, and a 1-D ``y_true`` with two labels stays an ordinary binary call.

Class ``c`` is the ranking of column ``c`` of ``y_score`` with ``y_true == classes[c]`` (or
column ``c`` of an indicator matrix) as positives; each is computed exactly as
:func:`fastpr.evaluate` would compute it.
"""
import numpy as np

from . import _validation
from ._engine.tables import Rankings
from ._validation import OneOf, options
from ._rankings import averaged, evaluations
from ._undefined import warn_if_undefined_in
from .exceptions import InputTypeError, InputValueError
from .results import PR_METHODS, method_field

__all__ = ["auc_pr", "auc_roc", "evaluate"]

_AVERAGES = (None, "macro", "weighted", "micro")
# Bytes of a matrix's rows transposed at a time: the block and its transpose stay in cache.
_TRANSPOSE_BLOCK_BYTES = 1 << 17


def evaluate(y_true, y_score, *, labels=None, sample_weight=None):
    """Every ROC and PR summary of each class against the rest.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_classes)
        Class labels, or an indicator matrix (0/1 or bool; multilabel rows may hold several 1s).
    y_score : array-like of shape (n_samples, n_classes)
        One column of scores per class, as ``predict_proba`` returns them.
    labels : array-like of shape (n_classes,), default=None
        The class of each column of ``y_score`` when ``y_true`` holds labels. By default the
        sorted distinct labels of ``y_true``, which must then number n_classes (scikit-learn's
        convention). For an indicator matrix, names for its columns (default 0..n_classes-1).
    sample_weight : array-like of shape (n_samples,), default=None
        Finite weights >= 0, the same for every class.

    Returns
    -------
    EvaluationBatch
        One entry per class, ``index`` holding the classes; ``result[c]`` equals
        ``fastpr.evaluate(y_true == classes[c], y_score[:, c])``.

    Examples
    --------
    >>> import fastpr
    >>> y = ["cat", "dog", "eel", "dog"]
    >>> p = [[0.7, 0.2, 0.1], [0.1, 0.8, 0.1], [0.3, 0.3, 0.4], [0.5, 0.25, 0.25]]
    >>> e = fastpr.multiclass.evaluate(y, p)
    >>> e.index, e.auc_roc
    (array(['cat', 'dog', 'eel'], dtype='<U3'), array([1.  , 0.75, 1.  ]))
    """
    indicator, scores, weights, classes = _checked_inputs(y_true, y_score, labels,
                                                          sample_weight)
    result = evaluations(Rankings(label_rows(indicator), label_rows(scores), weights,
                                  index=classes, index_name="class"))
    warn_if_undefined_in(result, "AUC-ROC", "AUC-PR", "normalised AUC-PR")
    return result


def _average(metric, y_true, y_score, labels, sample_weight, average):
    """``metric`` (an EvaluationBatch field) averaged over the classes as ``average`` says."""
    indicator, scores, weights, classes = _checked_inputs(y_true, y_score, labels,
                                                          sample_weight)
    undefined = "AUC-ROC" if metric == "auc_roc" else "AUC-PR"

    def values(is_positive, score_rows, row_weights):
        index, unit = (np.array(["micro"]), "pooled rankings") if average == "micro" else (
            classes, None)
        result = evaluations(Rankings(is_positive, score_rows, row_weights, index=index,
                                      index_name="class"))
        warn_if_undefined_in(result, undefined, unit=unit)
        return getattr(result, metric)

    return over_labels(values, indicator, scores, average, weights, leave_out_undefined=True)


@options(method=OneOf(PR_METHODS), average=OneOf(_AVERAGES))
def auc_pr(y_true, y_score, *, method="interpolated", average="macro", labels=None,
           sample_weight=None):
    """One-vs-rest AUC-PR per class, or averaged over the classes.

    Parameters
    ----------
    y_true, y_score, labels, sample_weight
        As in :func:`evaluate`.
    method : str, default="interpolated"
        An estimator of :func:`fastpr.auc_pr`; ``"average_precision"`` is scikit-learn's.
    average : {"macro", "weighted", "micro", None}, default="macro"
        None: one area per class. "macro": their mean. "weighted": their mean weighted by each
        class's (weighted) number of positives. "micro": the area of the single ranking that
        pools every (sample, class) pair. Classes without positives are NaN and left out of the
        macro and weighted means, with an ``UndefinedMetricWarning``. With ``"average_precision"``
        these match scikit-learn's ``average_precision_score``.

    Returns
    -------
    float or ndarray of shape (n_classes,)

    Examples
    --------
    >>> import fastpr
    >>> y = [0, 1, 2, 1]
    >>> p = [[0.7, 0.2, 0.1], [0.1, 0.8, 0.1], [0.3, 0.3, 0.4], [0.5, 0.25, 0.25]]
    >>> fastpr.multiclass.auc_pr(y, p, method="average_precision", average=None)
    array([1.        , 0.83333333, 1.        ])
    >>> round(fastpr.multiclass.auc_pr(y, p, method="average_precision"), 6)
    0.944444
    """
    return _average(method_field(method), y_true, y_score, labels, sample_weight, average)


@options(average=OneOf(_AVERAGES))
def auc_roc(y_true, y_score, *, average="macro", labels=None, sample_weight=None):
    """One-vs-rest AUC-ROC per class, or averaged over the classes.

    Parameters and averages as in :func:`auc_pr`. "macro" and "weighted" match scikit-learn's
    ``roc_auc_score(multi_class="ovr")`` for labels and ``roc_auc_score`` for indicator
    matrices; "micro" matches the latter for indicator matrices.

    Examples
    --------
    >>> import fastpr
    >>> y = [0, 1, 2, 1]
    >>> p = [[0.7, 0.2, 0.1], [0.1, 0.8, 0.1], [0.3, 0.3, 0.4], [0.5, 0.25, 0.25]]
    >>> round(fastpr.multiclass.auc_roc(y, p), 6)
    0.916667
    """
    return _average("auc_roc", y_true, y_score, labels, sample_weight, average)


# -------------------------------------------- one-vs-rest, for this module and fastpr.sklearn
def label_rows(matrix):
    """The columns of a (n_samples, n_labels) matrix as the rows of a C-contiguous array (the
    engine's layout of many rankings): ``matrix`` itself where it is the transpose of one."""
    if matrix.T.flags.c_contiguous:
        return matrix.T
    rows = np.empty(matrix.shape[::-1], dtype=matrix.dtype)
    # Copied in blocks of samples: NumPy's copy of a transposed view reads every column in full
    # with a stride, fetching each cache line once per column (1.6 times slower for 5 columns of
    # a million rows, 2.7 times for 20).
    block = max(1, _TRANSPOSE_BLOCK_BYTES // (matrix.shape[1] * matrix.itemsize))
    for start in range(0, matrix.shape[0], block):
        rows[:, start:start + block] = matrix[start:start + block].T
    return rows


def over_labels(per_ranking, is_positive, scores, average, weights, indicator=None, *,
                leave_out_undefined=False):
    """``per_ranking`` (labels, scores, weights of one ranking per row) -> one value per row,
    over the labels (classes) of an indicator matrix (n_samples, n_labels) and its scores,
    averaged as ``average`` says.

    "macro": the mean over labels; "weighted": weighted by each label's (weighted) sum of
    ``indicator``, the matrix as given (default ``is_positive``): its positives where it holds
    {0, 1}, but as scikit-learn sums it for other values ({-1, 1}: positives less negatives);
    "samples": one ranking per sample, weighted by ``weights``; "micro": one ranking of every
    (sample, label) pair; None: one value per label.

    Undefined (NaN) values: fastpr's convention (``leave_out_undefined``) leaves them out of the
    macro and weighted means, which are NaN when nothing is left. scikit-learn's counts a NaN
    of no weight as 0 and returns 0 where the weights add up to 1e-8 or less
    (``np.isclose(total, 0)``), before computing anything.
    """
    n_labels = scores.shape[1]
    average_weights = None
    if average == "micro":
        rows = (is_positive.reshape(1, -1), scores.reshape(1, -1),
                None if weights is None else np.repeat(weights, n_labels))
    elif average == "samples":
        rows = (is_positive, scores, None)
        average_weights = weights
    else:
        rows = (label_rows(is_positive), label_rows(scores), weights)
        if average == "weighted":
            indicator = is_positive if indicator is None else indicator
            average_weights = (indicator.sum(axis=0, dtype=np.float64) if weights is None
                               else weights @ indicator)
            if not leave_out_undefined and abs(average_weights.sum()) <= 1e-8:
                return 0
    values = per_ranking(*rows)
    if average is None:
        return values
    if leave_out_undefined:
        if average_weights is None:
            return float(averaged(values, "macro"))  # "micro": the one pooled value
        defined = ~np.isnan(values)
        support = average_weights[defined]
        return float(np.average(values[defined], weights=support)) if support.sum() else np.nan
    if average_weights is None:
        return float(values.mean())
    values[average_weights == 0] = 0.0  # a NaN of no weight must not spoil the mean
    total = average_weights.sum()
    if total == 0:
        raise ZeroDivisionError("the weights of the average add up to zero.")
    return float((values * average_weights).sum() / total)


# ----------------------------------------------------------------------------- input checks
def _checked_inputs(y_true, y_score, labels, sample_weight):
    """Validate one-vs-rest input; returns (indicator (n, k) bool, scores (n, k), weights, classes).

    ``y_true`` holds class labels (1-D) or an indicator matrix of y_score's shape (2-D).
    """
    scores = _validation.real_scores("y_score", _validation.as_2d("y_score", y_score))
    n_samples, n_classes = scores.shape
    truth = _validation.as_array("y_true", y_true)
    if truth.ndim == 2:
        _check_indicator(truth, scores.shape)
        indicator = truth.astype(bool)
        classes = np.arange(n_classes) if labels is None else _class_labels(labels, n_classes)
    else:
        truth = _validation.labels_1d("y_true", y_true)
        _validation.same_lengths(y_true=truth.shape[0], y_score=n_samples)
        if labels is None:
            classes = np.unique(truth)
            if classes.size != n_classes:
                raise InputValueError("{argument} has {n_labels} classes but {other} has "
                                      "{n_classes} columns; pass labels= to name the class of "
                                      "each column.", argument="y_true", other="y_score",
                                      n_labels=classes.size, n_classes=n_classes)
        else:
            classes = _class_labels(labels, n_classes)
        indicator = truth[:, None] == classes[None, :]
        unknown = ~indicator.any(axis=1)
        if unknown.any():
            k = _validation.first(unknown)
            raise InputValueError("{argument} holds {label!r} at {where}, which is not in "
                                  "{other}.", argument="y_true", other="labels",
                                  position=_validation.position(truth.shape, k),
                                  label=truth[k].item())
    return indicator, scores, _validation.weights(sample_weight, n_samples), classes


def _check_indicator(truth, score_shape):
    if truth.shape != score_shape:
        raise InputValueError("{argument} as an indicator matrix must have {other}'s shape "
                              "{score_shape}; got {shape}.", argument="y_true", other="y_score",
                              score_shape=score_shape, shape=truth.shape)
    if truth.dtype.kind not in "biuf":
        raise InputTypeError("{argument} as an indicator matrix must hold 0 and 1, got dtype "
                             "{dtype}.", argument="y_true", dtype=truth.dtype)
    _validation.refuse_first((truth != 0) & (truth != 1), "y_true", truth, "{argument} as an "
                             "indicator matrix must hold only 0 and 1 (or bool); got {value} at "
                             "{where}.")


def _class_labels(labels, n_classes):
    classes = _validation.labels_1d("labels", labels)
    if classes.size != n_classes:
        raise InputValueError("{argument} names {n_labels} classes but {other} has {n_classes} "
                              "columns.", argument="labels", other="y_score",
                              n_labels=classes.size, n_classes=n_classes)
    if np.unique(classes).size != classes.size:
        raise InputValueError("{argument} must be distinct.", argument="labels")
    return classes
