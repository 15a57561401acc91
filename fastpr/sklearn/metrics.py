"""``average_precision_score``, ``roc_auc_score`` and ``label_ranking_average_precision_score``
as scikit-learn defines them, computed by fastpr's engine (one sort and one pass per ranking,
many rankings per call)."""
import math
import warnings

import numpy as np

from .._engine.kernels.intermediate import COLLINEAR
from .._engine.kernels.rows import AVERAGE_PRECISION
from .. import _validation
from ..exceptions import InputTypeError, InputValueError
from ..partial import area_of_points, mcclish, roc_area
from .._validation import ArrayLike, Interval, Label, OneOf, options
from . import _averages, _last_ranking, _rankings
from ._binary import binary_ranking

_AVERAGES = (None, "micro", "macro", "weighted", "samples")


def _warn_no_positives():
    warnings.warn("No positive class found in y_true, recall is set to one for all thresholds. "
                  "y_true has no positives (or they weigh 0): average precision is 0.",
                  UserWarning, stacklevel=4)


def _class_totals(is_positive, weights):
    """Each row's total weight of positives and of negatives."""
    if weights is None:
        n_pos = np.count_nonzero(is_positive, axis=-1)
        return n_pos, is_positive.shape[-1] - n_pos
    return is_positive @ weights, ~is_positive @ weights


def _average_precisions(is_positive, scores, weights):
    """Average precision of each row; 0 (with a warning each) where a row has no positives.
    Weights that are all zero leave nothing to rank: ValueError."""
    if weights is not None and not weights.any():
        raise _validation.no_weight()
    _, values, positives, _ = _rankings.row_areas(is_positive, scores, weights)
    no_positives = positives == 0
    for _ in range(np.count_nonzero(no_positives)):
        _warn_no_positives()
    values[no_positives] = 0.0
    return values


def _defined_rocs(is_positive, weights, max_fpr):
    """Where both classes have weight; an ``UndefinedMetricWarning`` for each ranking where
    not, whose AUC-ROC is NaN. Raises where scikit-learn does, ranking by ranking: for both
    labels with no weight at all, and for negatives of no weight with ``max_fpr``."""
    n_pos, n_neg = _class_totals(is_positive, weights)
    defined = np.atleast_1d((n_pos > 0) & (n_neg > 0))
    if defined.all():
        return defined
    n_neg = np.atleast_1d(n_neg)
    refused, no_weight = np.zeros_like(defined), False
    if weights is not None:
        both_labels = np.atleast_1d(is_positive.any(axis=-1) & ~is_positive.all(axis=-1))
        no_weight, partial = not weights.any(), not _full_area(max_fpr)
        refused = both_labels & (no_weight | (partial & (n_neg == 0)))
    stop = np.argmax(refused) if refused.any() else defined.size
    for _ in range(stop - np.count_nonzero(defined[:stop])):
        _validation.warn_undefined("Only one class is present in y_true. ROC AUC score is not "
                                   "defined in that case: y_true has one class only (of nonzero "
                                   "weight), and AUC-ROC is NaN.")
    if refused.any():
        if no_weight:
            raise _validation.no_weight()
        _validation.warn_undefined("No negative samples in y_true, false positive value should "
                                   "be meaningless. y_true has no negatives of nonzero weight: "
                                   "the false positive rate is undefined.")
        raise ValueError("max_fpr needs negatives of nonzero weight.")
    return defined


def _mcclish_area(points, max_fpr):
    """McClish's partial AUC-ROC up to ``max_fpr`` from scikit-learn's points (rows thresholds,
    tp, fp, origin first), by the core's kernel and formula (``fastpr.auc_roc(max_fpr=...,
    mcclish=True)``)."""
    n_pos, n_neg = points[1, -1], points[2, -1]
    return float(mcclish(area_of_points(roc_area(max_fpr), points, n_pos, n_neg), max_fpr))


def _full_area(max_fpr):
    return max_fpr is None or max_fpr == 1


def _binary_roc_auc(is_positive, scores, weights, max_fpr):
    """AUC-ROC of one ranking of bool labels, its scores not yet checked for NaN and
    infinities; NaN with a warning without both classes."""
    full = _full_area(max_fpr)
    if full and (weights is None or weights.any()):  # else there is no weight to rank
        # The sort checks the scores, and the sweep's class totals say whether it is defined.
        auc_roc, _, pos_weight, neg_weight = _last_ranking.binary_areas(is_positive, scores,
                                                                        weights)
        if pos_weight > 0 and neg_weight > 0:
            return float(auc_roc)
    else:
        _validation.finite("y_score", scores)
    defined = _defined_rocs(is_positive, weights, max_fpr)[0]  # warns or raises if not
    if full or not defined:
        return np.nan
    return float(_mcclish_area(_rankings.points(is_positive, scores, weights, 1, COLLINEAR),
                               max_fpr))


def _roc_aucs(max_fpr):
    """``per_ranking`` for AUC-ROC (full, or McClish's up to ``max_fpr``)."""
    def per_ranking(is_positive, scores, weights):
        values = np.full(is_positive.shape[0], np.nan)
        defined = _defined_rocs(is_positive, weights, max_fpr)
        if not defined.any():
            return values
        if not defined.all():  # (a copy of every ranking otherwise)
            is_positive, scores = is_positive[defined], scores[defined]
        if _full_area(max_fpr):
            values[defined] = _rankings.row_areas(is_positive, scores, weights)[0]
        else:
            values[defined] = [_mcclish_area(points, max_fpr) for points in _rankings.row_points(
                is_positive, scores, weights, 1, COLLINEAR)]
        return values
    return per_ranking


def _indicator_scores(y_score, shape, kind):
    scores = _validation.sk_scores("y_score", y_score, dims=(1, 2),
                                   text_error=InputValueError).values
    if scores.shape != shape:
        if kind == "multiclass":
            raise ValueError("`y_score` needs to be of shape `(n_samples, n_classes)`, since "
                             f"`y_true` contains multiple classes. Got `y_score.shape="
                             f"{scores.shape}`: y_true has {shape[0]} samples of {shape[1]} "
                             "classes.")
        raise ValueError(f"y_score must have the shape of y_true's indicator matrix {shape}, "
                         f"got {scores.shape}.")
    return scores


@options("sklearn", y_true=ArrayLike(), y_score=ArrayLike(), average=OneOf(_AVERAGES),
         pos_label=Label(binary=False), sample_weight=ArrayLike())
def average_precision_score(y_true, y_score, *, average="macro", pos_label=1,
                            sample_weight=None):
    """Average precision, ``sum_n (R_n - R_{n-1}) P_n``, as
    ``sklearn.metrics.average_precision_score`` defines it
    (fastpr's ``method="average_precision"``).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        Binary labels, class labels (multiclass: one column of ``y_score`` per class, in sorted
        order) or an indicator matrix (multilabel).
    y_score : array-like of shape (n_samples,) or (n_samples, n_labels)
        Finite scores, higher means more positive.
    average : {"macro", "weighted", "micro", "samples"} or None, default="macro"
        How to average over labels (ignored for binary targets): "macro" is the mean,
        "weighted" weighs each label by its positives (as scikit-learn does, by the sum of
        its column of an indicator matrix of other values, such as {-1, 1}; 0 where these
        weigh 1e-8 or less in all, as its ``np.isclose`` decides), "micro" pools every
        (sample, label) pair into one ranking, "samples" averages one ranking per sample,
        None returns one value per label.
    pos_label : int, float, bool or str, default=1
        The positive label of a binary target (must be 1 otherwise).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights (ValueError otherwise, where scikit-learn returns a number that
        is no average precision); any real weights with ``average="samples"``, whose mean
        they weigh.

    Returns
    -------
    float or ndarray of shape (n_labels,)
        0, with a ``UserWarning``, for a ranking without positives.

    Notes
    -----
    A step function: straight lines overstate across ties of both classes, and the correctly
    interpolated area is :func:`fastpr.auc_pr` (``method="interpolated"``).

    Examples
    --------
    >>> from fastpr.sklearn import average_precision_score
    >>> average_precision_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.8333333333333333
    """
    y = _validation.sk_array("y_true", y_true)
    kind, classes = _validation.target_type("y_true", y)
    if kind == "binary":
        if classes.size == 2 and pos_label not in classes.tolist():
            raise ValueError(f"pos_label={pos_label} is not a valid label. It should be one of "
                             f"{classes}.")
        ranking = binary_ranking(y, y_score, pos_label, sample_weight, (kind, classes))
        _, average_precision, positives, _ = _last_ranking.binary_areas(
            ranking.is_positive, ranking.scores, ranking.weights)
        if positives == 0:
            _warn_no_positives()
            return 0.0
        return float(average_precision)
    if kind in ("multilabel-indicator", "multiclass") and pos_label != 1:
        raise ValueError(f"Parameter pos_label is fixed to 1 for {kind} y_true. Do not set "
                         f"pos_label or set pos_label to 1 (got {pos_label!r}).")
    if kind == "multiclass":
        is_positive = indicator = _one_hot(_validation.column_or_1d("y_true", y), classes)
    elif kind == "multilabel-indicator":
        is_positive, indicator = y == 1, y
    else:
        _validation.comparable_labels(y)  # scikit-learn sorts them first
        raise _validation.unsupported(kind)
    scores = _indicator_scores(y_score, is_positive.shape, kind)
    weights = _validation.sk_weights(sample_weight, strings=average not in ("weighted", "samples"),
                                     all_zero=True, negative=average == "samples")
    _validation.consistent_length(y_true=is_positive, y_score=scores, sample_weight=weights)
    return _averages.over_labels(_average_precisions, is_positive, scores, average, weights,
                                 indicator)


def _one_hot(y, classes):
    """The indicator matrix (n_samples, n_classes) of ``y``, as the transpose of a
    C-contiguous array: the engine's layout, one ranking per class."""
    return (classes[:, None] == y[None, :]).T


def _multiclass_labels(y, present, labels, n_columns):
    """The class of each column of ``y_score``: ``labels`` (sorted and distinct, covering
    ``y_true``) or the distinct values of ``y_true`` (``present``)."""
    if labels is None:
        classes = present
        if classes.size != n_columns:
            raise ValueError("Number of classes in y_true not equal to the number of columns in "
                             f"'y_score': y_true has {classes.size} classes, y_score "
                             f"{n_columns} columns; pass labels= to name the class of each "
                             "column.")
        return classes
    labels = _validation.column_or_1d("labels", labels)
    classes = np.unique(labels)
    if classes.size != labels.size:
        raise ValueError(f"Parameter 'labels' must be unique: got {labels.tolist()}.")
    if not np.array_equal(classes, labels):
        raise ValueError(f"Parameter 'labels' must be ordered: got {labels.tolist()}.")
    if classes.size != n_columns:
        raise ValueError(f"Number of given labels, {classes.size}, not equal to the number of "
                         f"columns in 'y_score', {n_columns}.")
    missing = np.setdiff1d(present, classes)
    if missing.size:
        raise ValueError("'y_true' contains labels not in parameter 'labels': "
                         f"{missing.tolist()}.")
    return classes


def _codes(y, classes):
    """Each sample's class as its position in ``classes`` (sorted, covering ``y``)."""
    if classes.dtype.kind in "iu" and int(classes[-1]) - int(classes[0]) == classes.size - 1:
        return y - classes[0]  # consecutive integers, the common case: no search
    return np.searchsorted(classes, y)


def _sample_totals(checked, columns):
    """Each sample's sum of its scores as scikit-learn adds them up to check probabilities:
    float16 and float32 in their own type, scores that ``checked`` holds as ranks in their
    given values (see ``_validation.sk_scores``). ``columns``: the scores, one class per row."""
    if checked.distinct is not None:
        columns = checked.distinct.astype(np.float64)[columns.astype(np.intp)]
    elif checked.dtype in (np.float16, np.float32):
        columns = columns.astype(checked.dtype)
    return columns.sum(axis=0)


def _multiclass_roc_auc(y, present, checked, labels, multi_class, average, sample_weight):
    scores = checked.values
    if scores.ndim != 2:
        raise ValueError("`y_score` needs to be of shape `(n_samples, n_classes)`, since "
                         f"`y_true` contains multiple classes. Got `y_score.shape="
                         f"{scores.shape}`.")
    # The engine's layout, one ranking per class: label_rows(scores) returns it from now on
    # without a copy, and the samples' totals are a sum of its rows (NumPy takes ten times
    # longer to sum each sample's few columns).
    columns = _averages.label_rows(scores)
    scores = columns.T
    totals = _sample_totals(checked, columns)
    # np.allclose(1, totals) as scikit-learn checks it, in fewer passes (an infinite total, or
    # totals that overflow their sum, are far from 1).
    if not (math.isfinite(totals.sum())
            and (np.abs(totals - 1) <= 1e-8 + 1e-5 * np.abs(totals)).all()):
        raise ValueError("Target scores need to be probabilities for multiclass roc_auc, i.e. "
                         "they should sum up to 1.0 over classes: each row of y_score must add "
                         "up to 1.")
    allowed = ("micro", "macro", "weighted", None) if multi_class == "ovr" else (
        "macro", "weighted", None)
    if average not in allowed:
        raise ValueError(f"average must be one of {allowed} for multiclass problems, got "
                         f"{average!r} with multi_class={multi_class!r}.")
    if average is None and multi_class == "ovo":
        raise NotImplementedError("average=None is not implemented for multi_class='ovo'.")
    classes = _multiclass_labels(y, present, labels, scores.shape[1])
    if multi_class == "ovo":
        if sample_weight is not None:
            raise ValueError("sample_weight is not supported for multiclass one-vs-one ROC AUC, "
                             "'sample_weight' must be None in this case.")
        _validation.consistent_length(y_true=y, y_score=scores)
        return _averages.one_vs_one(_codes(y, classes), scores, average)
    weights = _validation.sk_weights(sample_weight, strings=average != "weighted", all_zero=True)
    _validation.consistent_length(y_true=y, y_score=scores, sample_weight=weights)
    return _averages.over_labels(_roc_aucs(None), _one_hot(y, classes), scores, average,
                                 weights)


@options("sklearn", y_true=ArrayLike(), y_score=ArrayLike(), average=OneOf(_AVERAGES),
         sample_weight=ArrayLike(), max_fpr=Interval(0, 1, closed="right"),
         multi_class=OneOf(("raise", "ovr", "ovo")), labels=ArrayLike())
def roc_auc_score(y_true, y_score, *, average="macro", sample_weight=None, max_fpr=None,
                  multi_class="raise", labels=None):
    """Area under the ROC curve as ``sklearn.metrics.roc_auc_score`` defines it.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        Two labels (the greater one is positive), class labels (multiclass) or an indicator
        matrix (multilabel).
    y_score : array-like of shape (n_samples,) or (n_samples, n_labels)
        Finite scores; for multiclass, probabilities (rows adding up to 1) in the order of
        ``labels``.
    average : {"macro", "weighted", "micro", "samples"} or None, default="macro"
        As in :func:`average_precision_score`; multiclass takes "macro", "weighted", None and
        (one-vs-rest only) "micro"; one-vs-one "macro" and "weighted" (weighted by each pair's
        share of the samples).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights (not for one-vs-one); any real weights with
        ``average="samples"``, whose mean they weigh.
    max_fpr : float in (0, 1], default=None
        The area up to this false positive rate, McClish-standardised: 0.5 for a random
        ranking, 1 for a perfect one. Binary and multilabel only.
    multi_class : {"raise", "ovr", "ovo"}, default="raise"
        For a multiclass ``y_true``: one-vs-rest or Hand & Till's one-vs-one; "raise" refuses.
    labels : array-like of shape (n_classes,), default=None
        Multiclass only: the sorted classes of the columns of ``y_score``.

    Returns
    -------
    float or ndarray of shape (n_labels,)
        NaN, with ``UndefinedMetricWarning``, for a ranking with one class.

    Examples
    --------
    >>> from fastpr.sklearn import roc_auc_score
    >>> roc_auc_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.75
    >>> roc_auc_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], max_fpr=0.5)
    0.666667
    """
    y = _validation.sk_array("y_true", y_true)
    if y.ndim == 0:  # (scikit-learn raises TypeError)
        raise InputTypeError("{argument} must be an array, got a single value: {value!r}.",
                             argument="y_true", value=y)
    kind, classes = _validation.target_type("y_true", y)
    if y.size == 0:
        raise ValueError("y_true is empty.")
    checked = _validation.sk_scores("y_score", y_score, dims=(1, 2), text_error=InputValueError,
                             check_finite=False)
    scores = checked.values
    if scores.ndim == 2:  # (one ranking's sort checks its scores)
        _validation.finite("y_score", scores)
    if kind == "multiclass" or (kind == "binary" and scores.ndim == 2 and scores.shape[1] > 2):
        if max_fpr is not None and max_fpr != 1:
            raise ValueError("Partial AUC computation not available in multiclass setting, "
                             f"'max_fpr' must be set to `None`, received `max_fpr={max_fpr}` "
                             "instead: max_fpr is for binary and multilabel targets.")
        if multi_class == "raise":
            raise ValueError("multi_class must be in ('ovo', 'ovr'): y_true is multiclass, "
                             "pass multi_class='ovr' or 'ovo'.")
        y = _validation.column_or_1d("y_true", y)
        return _multiclass_roc_auc(y, classes, checked, labels, multi_class, average,
                                   sample_weight)
    if kind == "binary":
        y = _validation.column_or_1d("y_true", y)
        weights = _validation.sk_weights(sample_weight, all_zero=True)
        if scores.ndim == 2 and scores.shape[1] == 1:
            scores = scores.ravel()
        if scores.ndim == 2:
            raise ValueError(f"y_score must be 1-D (or one column) for a binary y_true, got "
                             f"shape {scores.shape}.")
        _validation.consistent_length(y_true=y, y_score=scores, sample_weight=weights)
        return _binary_roc_auc(y == classes[-1], scores, weights, max_fpr)  # greater is positive
    if kind != "multilabel-indicator":
        raise _validation.unsupported(kind)
    _validation.sk_default_pos_label(classes.tolist())  # each label's ranking: the greater value
    weights = _validation.sk_weights(sample_weight, strings=average not in ("weighted", "samples"),
                                     all_zero=True, negative=average == "samples")
    if scores.shape != y.shape:
        raise ValueError(f"y_score must have the shape of y_true {y.shape}, got {scores.shape}.")
    _validation.consistent_length(y_true=y, y_score=scores, sample_weight=weights)
    return _averages.over_labels(_roc_aucs(max_fpr), y == 1, scores, average, weights, y)


@options("sklearn", y_true=ArrayLike(sparse=True), y_score=ArrayLike(), sample_weight=ArrayLike())
def label_ranking_average_precision_score(y_true, y_score, *, sample_weight=None):
    """Label ranking average precision (LRAP), as
    ``sklearn.metrics.label_ranking_average_precision_score`` defines it: the average
    precision of each sample's ranking of its labels, averaged over samples.

    Parameters
    ----------
    y_true : array-like or sparse matrix of shape (n_samples, n_labels)
        Indicator matrix of each sample's relevant labels.
    y_score : array-like of shape (n_samples, n_labels)
        Finite scores of each label for each sample.
    sample_weight : array-like of shape (n_samples,), default=None
        Weights of the samples in the average.

    Returns
    -------
    float
        A sample whose labels are all relevant, or none, counts 1.

    Notes
    -----
    Cost: one sort and one pass per sample's ranking of its labels; samples run in parallel.

    Examples
    --------
    >>> from fastpr.sklearn import label_ranking_average_precision_score
    >>> label_ranking_average_precision_score([[1, 0, 0], [0, 0, 1]], [[0.75, 0.5, 1], [1, 0.2, 0.1]])
    0.41666666666666663
    """
    y = _validation.sk_array("y_true", y_true)
    scores = _validation.sk_scores("y_score", y_score, dims=(1, 2),
                                   text_error=InputValueError).values
    # (scikit-learn multiplies the strings of its weights: TypeError)
    weights = _validation.sk_weights(sample_weight, strings=False, all_zero=True, negative=True)
    _validation.consistent_length(y_true=y, y_score=scores, sample_weight=weights)
    if y.shape != scores.shape:
        raise ValueError(f"y_true and y_score have different shapes: {y.shape} and "
                         f"{scores.shape}.")
    kind, _ = _validation.target_type("y_true", y)
    if kind != "multilabel-indicator" and not (kind == "binary" and y.ndim == 2):
        raise _validation.unsupported(kind)
    relevant = y != 0
    n_relevant = np.count_nonzero(relevant, axis=1)
    ranked = (n_relevant > 0) & (n_relevant < y.shape[1])  # else the ranking has no meaning: 1
    values = np.ones(y.shape[0])
    if ranked.any():
        values[ranked] = _rankings.summaries(relevant[ranked], scores[ranked],
                                             None)[:, AVERAGE_PRECISION]
    if weights is None:
        return float(values.sum() / y.shape[0])
    return float((values * weights).sum() / weights.sum())
