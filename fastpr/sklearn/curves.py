"""``roc_curve``, ``precision_recall_curve`` and ``det_curve`` as scikit-learn defines them, from
fastpr's operating points (one sort, one pass)."""
import warnings

import numpy as np

from .._engine.kernels.intermediate import COLLINEAR, KEEP_ALL, RECALL_ENDS
from .._engine.kernels.lean_sweep import precision_recall_into
from .. import _validation
from .._validation import ArrayLike, Boolean, Label, options
from ._binary import binary_ranking, given_thresholds, points


# The options of every curve, declared in scikit-learn's convention.
_CURVE_OPTIONS = dict(y_true=ArrayLike(), y_score=ArrayLike(),
                      pos_label=Label(binary=False), sample_weight=ArrayLike(),
                      drop_intermediate=Boolean())


def _rule(drop_intermediate, rule):
    """The rule of ``kernels.intermediate`` that applies: ``rule`` or, not dropping, none."""
    return rule if drop_intermediate else KEEP_ALL


@options("sklearn", **_CURVE_OPTIONS)
def roc_curve(y_true, y_score, *, pos_label=None, sample_weight=None, drop_intermediate=True):
    """ROC operating points as ``sklearn.metrics.roc_curve`` returns them.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Two labels ({0, 1} or {-1, 1} unless ``pos_label`` names the positive one).
    y_score : array-like of shape (n_samples,)
        Finite scores, higher means more positive.
    pos_label : int, float, bool or str, default=None
        The positive label.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights; rows of weight 0 are left out.
    drop_intermediate : bool, default=True
        Leave out points collinear with their neighbours (the curve is the same).

    Returns
    -------
    fpr, tpr : ndarray
        Rates in ascending order, from the origin; NaN with ``UndefinedMetricWarning`` where a
        class is missing.
    thresholds : ndarray of float
        Descending; point ``i`` predicts positive iff ``score >= thresholds[i]``, and the
        origin has ``inf``.

    Examples
    --------
    >>> from fastpr.sklearn import roc_curve
    >>> fpr, tpr, thresholds = roc_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> fpr, tpr, thresholds
    (array([0. , 0. , 0.5, 0.5, 1. ]), array([0. , 0.5, 0.5, 1. , 1. ]), array([ inf, 0.8 , 0.4 , 0.35, 0.1 ]))
    """
    return roc_points(binary_ranking(y_true, y_score, pos_label, sample_weight, split=True),
                      drop_intermediate)


def roc_points(ranking, drop_intermediate):
    """(fpr, tpr, thresholds) of a checked ranking, warning where a class is missing."""
    # The origin takes no part in dropping points.
    thresholds_and_counts = points(ranking, 1, _rule(drop_intermediate, COLLINEAR))
    thresholds, tp, fp = thresholds_and_counts
    thresholds = given_thresholds(ranking, thresholds)
    if tp[-1] > 0 and fp[-1] > 0:  # both rates in one division
        tpr, fpr = thresholds_and_counts[1:] / thresholds_and_counts[1:, -1:]
        return fpr, tpr, thresholds
    return _rate(fp, "negative"), _rate(tp, "positive"), thresholds


def _rate(counts, name):
    if counts[-1] <= 0:
        rate = "false" if name == "negative" else "true"
        _validation.warn_undefined(f"No {name} samples in y_true, {rate} positive value should "
                                   f"be meaningless. y_true has no {name} samples (or they "
                                   f"weigh 0), so the {rate} positive rate is undefined: NaN.")
        return np.full(counts.shape, np.nan)
    return counts / counts[-1]


@options("sklearn", **_CURVE_OPTIONS)
def precision_recall_curve(y_true, y_score, *, pos_label=None, sample_weight=None,
                           drop_intermediate=False):
    """Precision and recall as ``sklearn.metrics.precision_recall_curve`` returns them.

    Parameters as in :func:`roc_curve`; ``drop_intermediate`` (default False) keeps only the
    first and last point of each recall.

    Returns
    -------
    precision : ndarray
        At thresholds ascending, then 1 (recall 0, no threshold).
    recall : ndarray
        Descending, ending at 0. With no positives it is 1 everywhere (and a ``UserWarning``
        says so).
    thresholds : ndarray
        Ascending distinct scores, in the dtype of ``y_score``.

    Notes
    -----
    These are operating points; straight lines between them are not the PR curve (see
    :func:`fastpr.interpolated_pr_curve`).

    Examples
    --------
    >>> from fastpr.sklearn import precision_recall_curve
    >>> precision, recall, thresholds = precision_recall_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> precision, recall, thresholds
    (array([0.5       , 0.66666667, 0.5       , 1.        , 1.        ]), array([1. , 1. , 0.5, 0.5, 0. ]), array([0.1 , 0.35, 0.4 , 0.8 ]))
    """
    ranking = binary_ranking(y_true, y_score, pos_label, sample_weight, split=True)
    # The origin takes no part in dropping points.
    thresholds, tp, fp = points(ranking, 1, _rule(drop_intermediate, RECALL_ENDS))[:, 1:]
    # Ascending thresholds, then (recall 0, precision 1) with no threshold. Every point has
    # weight, so tp + fp > 0.
    precision, recall = np.empty((2, tp.size + 1))
    precision_recall_into(tp, fp, precision, recall)
    if tp[-1] == 0:
        warnings.warn("No positive class found in y_true, recall is set to one for all "
                      "thresholds. y_true has no positives (or they weigh 0).", UserWarning,
                      stacklevel=2)
    thresholds = given_thresholds(ranking, thresholds[::-1])
    return precision, recall, thresholds.astype(ranking.score_dtype, copy=False)


@options("sklearn", **_CURVE_OPTIONS)
def det_curve(y_true, y_score, pos_label=None, sample_weight=None, drop_intermediate=False):
    """Detection error tradeoff as ``sklearn.metrics.det_curve`` returns it.

    Parameters as in :func:`roc_curve`; ``drop_intermediate`` (default False) keeps only the
    first and last point of each false negative rate.

    Returns
    -------
    fpr : ndarray
        Descending false positive rates, from the last point with fpr 0 (the origin, at
        threshold ``inf``, when no finite threshold has fpr 0) ...
    fnr : ndarray
        ... to the first point with false negative rate 0.
    thresholds : ndarray of float
        Ascending.

    Raises
    ------
    ValueError
        When ``y_true`` holds one label only.

    Examples
    --------
    >>> from fastpr.sklearn import det_curve
    >>> fpr, fnr, thresholds = det_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> fpr, fnr, thresholds
    (array([0.5, 0.5, 0. ]), array([0. , 0.5, 0.5]), array([0.35, 0.4 , 0.8 ]))
    """
    ranking = binary_ranking(y_true, y_score, pos_label, sample_weight, split=True)
    # The origin takes part in dropping points.
    thresholds, tp, fp = points(ranking, 0, _rule(drop_intermediate, RECALL_ENDS))
    if ranking.n_labels != 2:
        raise ValueError("Only one class is present in y_true. Detection error tradeoff curve "
                         "is not defined in that case: it needs two labels.")
    n_pos, n_neg = tp[-1], fp[-1]
    # From the last point with no false positives to the first with no false negatives.
    first = np.searchsorted(fp, fp[0], side="right") - 1
    last = np.searchsorted(tp, n_pos) + 1
    fp, tp, thresholds = fp[first:last], tp[first:last], thresholds[first:last]
    return (fp[::-1] / n_neg, (n_pos - tp)[::-1] / n_pos,
            given_thresholds(ranking, thresholds[::-1]).astype(np.float64, copy=False))
