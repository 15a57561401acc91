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

_AVERAGES = (None, "macro", "weighted", "micro")


def _one_vs_rest(y_true, y_score, labels, sample_weight):
    """(EvaluationBatch per class, validated inputs for the micro average)."""
    indicator, scores, weights, classes = _checked_inputs(y_true, y_score, labels,
                                                          sample_weight)
    n_samples, n_classes = scores.shape
    per_class_scores = np.ascontiguousarray(scores.T)
    per_class_weights = None if weights is None else np.tile(weights, n_classes)
    per_class_labels = np.ascontiguousarray(indicator.T)
    rankings = Rankings(per_class_labels.ravel(), per_class_scores.ravel(), per_class_weights,
                        np.arange(n_classes + 1, dtype=np.int64) * n_samples, index=classes,
                        index_name="class")
    return evaluations(rankings), (indicator, scores, weights)


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
    result, _ = _one_vs_rest(y_true, y_score, labels, sample_weight)
    warn_if_undefined_in(result, "AUC-ROC", "AUC-PR", "normalised AUC-PR")
    return result


def _average(metric, y_true, y_score, labels, sample_weight, average):
    """``metric`` (an EvaluationBatch field) averaged over the classes as ``average`` says."""
    per_class, (indicator, scores, weights) = _one_vs_rest(y_true, y_score, labels, sample_weight)
    roc = metric == "auc_roc"
    if average == "micro":
        n_classes = scores.shape[1]
        pooled_weights = None if weights is None else np.repeat(weights, n_classes)
        pooled = evaluations(Rankings(indicator.ravel(), scores.ravel(), pooled_weights,
                                      np.array([0, scores.size], dtype=np.int64),
                                      index=np.array(["micro"]), index_name="class"))
        warn_if_undefined_in(pooled, "AUC-ROC" if roc else "AUC-PR", unit="pooled rankings")
        return float(getattr(pooled, metric)[0])
    warn_if_undefined_in(per_class, "AUC-ROC" if roc else "AUC-PR")
    values = getattr(per_class, metric)
    if average == "weighted":
        defined = ~np.isnan(values)
        support = per_class.n_pos[defined]
        return float(np.average(values[defined], weights=support)) if support.sum() else np.nan
    return averaged(values, average)


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
