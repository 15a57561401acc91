"""``roc_curve``, ``precision_recall_curve`` and ``det_curve`` as scikit-learn defines them, from
fastpr's operating points (one sort, one pass)."""
import warnings

import numpy as np

from . import _checks
from ._binary import binary_ranking, points


def _check_curve_options(function, y_true, y_score, pos_label, sample_weight, drop_intermediate):
    _checks.array_like(function, "y_true", y_true)
    _checks.array_like(function, "y_score", y_score)
    _checks.label(function, "pos_label", pos_label, optional=True)
    _checks.array_like(function, "sample_weight", sample_weight, optional=True)
    _checks.boolean(function, "drop_intermediate", drop_intermediate)


def collinear_kept(counts):
    """Which points (columns of the rows tp and fp, origin first) stay when those between two
    equal steps go (collinear; the curve is the same). As in scikit-learn, the origin takes no
    part, the first and last threshold stay, and points collinear along unequal steps stay
    too."""
    keep = np.ones(counts.shape[1], dtype=bool)
    if counts.shape[1] > 3:
        # Unequal neighbouring steps: scikit-learn's nonzero second difference, for finite
        # floats; both rows in each operation, whose calls cost more than their work at a
        # thousand points.
        steps = counts[:, 2:] - counts[:, 1:-1]
        changed = steps[:, 1:] != steps[:, :-1]
        np.logical_or(changed[0], changed[1], out=keep[2:-1])
    return keep


def drop_collinear(thresholds, tp, fp):
    """The points without those that :func:`collinear_kept` drops; ``thresholds`` may be
    None."""
    keep = collinear_kept(np.stack([tp, fp]))
    return None if thresholds is None else thresholds[keep], tp[keep], fp[keep]


def _recall_ends(tp):
    """Mask keeping the first and last point of each run of equal tp (and both ends)."""
    keep = np.ones(tp.size, dtype=bool)
    keep[1:-1] = (tp[1:-1] != tp[:-2]) | (tp[2:] != tp[1:-1])
    return keep


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
    _check_curve_options("roc_curve", y_true, y_score, pos_label, sample_weight,
                         drop_intermediate)
    return roc_points(binary_ranking(y_true, y_score, pos_label, sample_weight),
                      drop_intermediate)


def roc_points(ranking, drop_intermediate):
    """(fpr, tpr, thresholds) of a checked ranking, warning where a class is missing."""
    thresholds_and_counts = points(ranking)
    if drop_intermediate:  # one selection of the three rows at once
        thresholds_and_counts = thresholds_and_counts.compress(
            collinear_kept(thresholds_and_counts[1:]), axis=1)
    thresholds, tp, fp = thresholds_and_counts
    if tp[-1] > 0 and fp[-1] > 0:  # both rates in one division
        tpr, fpr = thresholds_and_counts[1:] / thresholds_and_counts[1:, -1:]
        return fpr, tpr, thresholds
    return _rate(fp, "negative"), _rate(tp, "positive"), thresholds


def _rate(counts, name):
    if counts[-1] <= 0:
        _checks.warn_undefined(f"y_true has no {name} samples (or they weigh 0), so the "
                               f"{'false' if name == 'negative' else 'true'} positive rate is "
                               "undefined: NaN.")
        return np.full(counts.shape, np.nan)
    return counts / counts[-1]


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
    _check_curve_options("precision_recall_curve", y_true, y_score, pos_label, sample_weight,
                         drop_intermediate)
    ranking = binary_ranking(y_true, y_score, pos_label, sample_weight)
    thresholds, tp, fp = points(ranking)[:, 1:]
    if drop_intermediate and tp.size > 2:
        keep = _recall_ends(tp)
        thresholds, tp, fp = thresholds[keep], tp[keep], fp[keep]
    # Ascending thresholds, then (recall 0, precision 1) with no threshold. Every point has
    # weight, so tp + fp > 0.
    precision, recall = np.empty((2, tp.size + 1))
    np.divide(tp, tp + fp, out=precision[-2::-1])
    precision[-1] = 1.0
    if tp[-1] == 0:
        warnings.warn("y_true has no positives (or they weigh 0): recall is set to 1 at every "
                      "threshold.", UserWarning, stacklevel=2)
        recall[:-1] = 1.0
    else:
        np.divide(tp, tp[-1], out=recall[-2::-1])
    recall[-1] = 0.0
    return precision, recall, thresholds[::-1].astype(ranking.score_dtype, copy=False)


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
    _check_curve_options("det_curve", y_true, y_score, pos_label, sample_weight,
                         drop_intermediate)
    ranking = binary_ranking(y_true, y_score, pos_label, sample_weight)
    thresholds, tp, fp = points(ranking)
    if drop_intermediate and tp.size > 2:
        keep = _recall_ends(tp)
        thresholds, tp, fp = thresholds[keep], tp[keep], fp[keep]
    if ranking.n_labels != 2:
        raise ValueError("y_true holds one label only: the DET curve needs two.")
    n_pos, n_neg = tp[-1], fp[-1]
    # From the last point with no false positives to the first with no false negatives.
    first = np.searchsorted(fp, fp[0], side="right") - 1
    last = np.searchsorted(tp, n_pos) + 1
    fp, tp, thresholds = fp[first:last], tp[first:last], thresholds[first:last]
    return (fp[::-1] / n_neg, (n_pos - tp)[::-1] / n_pos,
            thresholds[::-1].astype(np.float64, copy=False))
