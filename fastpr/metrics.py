"""AUC-ROC, every AUC-PR estimator (docs/math/estimators.rst), and ``evaluate`` for all at once."""
from ._validation import Boolean, OneOf, options
from ._rankings import AVERAGES, evaluations, per_ranking, rankings_of
from .partial import (MAX_FPR, RECALL_RANGE, interpolated_only, partial_metric, pr_area,
                      roc_area, whole)
from .partial import mcclish as _mcclish
from ._undefined import warn_if_undefined_in
from .results import PR_METHODS


def evaluate(y_true, y_score, *, sample_weight=None, pos_label=None, groups=None, offsets=None):
    """All ROC and PR summaries of one ranking (or of many) from a single sort and a single pass.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_rankings, n_samples)
        Labels: bool, {0, 1}, {-1, 1}, or any two values with ``pos_label``. With a 2-D
        ``y_score``, 1-D labels are shared by every ranking.
    y_score : array-like of shape (n_samples,) or (n_rankings, n_samples), DataFrame or dict
        Real scores, higher means more positive. Ties form one threshold; +-inf are ordinary.
        Each row of a 2-D array is one ranking (one model, one bootstrap draw, ...). A table of
        models, a pandas or polars DataFrame with one score column per model or a dict
        ``{name: scores}``, gives one ranking per column, named by it (unique strings); labels
        and weights combine with its columns as with the rows of a 2-D array.
    sample_weight : array-like of shape (n_samples,) or (n_rankings, n_samples), default=None
        Finite weights >= 0 with a finite sum, of any magnitude; only where one input's weights
        span more than double precision's range (about 1e-300 next to 1e238) do the smallest
        lose digits, or vanish.
        Integer weights give exactly the result of repeating rows.
    pos_label : scalar, default=None
        The positive label; needed unless labels are bool, {0, 1} or {-1, 1}.
    groups : array-like of shape (n_samples,), default=None
        One group id (number or string) per row, in any order: one ranking per distinct id (per
        query, per patient), in sorted id order. Needs 1-D ``y_score``.
    offsets : array-like of int, default=None
        Instead of ``groups``, for rows already stored group by group: group ``g`` is rows
        ``offsets[g]:offsets[g + 1]`` (CSR boundaries, from 0 to n_samples).

    Returns
    -------
    Evaluation or EvaluationBatch
        For one ranking, a frozen dataclass; see its fields. ``to_dict()`` gives plain Python
        values. For a 2-D ``y_score``, ``groups`` or ``offsets``, an
        :class:`fastpr.EvaluationBatch` of the same fields as arrays, one entry per ranking;
        ``result[i]`` equals the single call on ranking ``i`` bit for bit, ``result.macro(...)``
        averages a metric over the rankings where it is defined, ``result.to_frame()`` makes a
        pandas DataFrame. For a table of models, ``index`` holds the column names
        (``index_name`` "model"), and so does the DataFrame's index.

    Notes
    -----
    Cost: one ``np.sort`` of each class's scores plus one O(n) pass that yields the operating
    points, AUC-ROC, every PR area of :func:`auc_pr` and the ROC convex hull together. With no
    positives every metric is NaN; with no negatives the ROC metrics and ``auc_npr`` are NaN
    while the PR areas are 1. Where double precision cannot resolve a value, it is NaN as well:
    every area when one class outweighs the other more than 2**600 times, and ``auc_npr`` when
    the worst ranking's area lies within 2**-26 of 1 (positives outweighing negatives 1.4e9
    to 1 or more). An ``UndefinedMetricWarning`` says which and why (for many rankings, one
    warning per call with the number of rankings concerned).

    Many rankings run in parallel on all cores (fewer where ``NUMBA_NUM_THREADS`` or
    ``numba.set_num_threads`` say so), with no Python per ranking or group; results do not
    depend on the number of threads.

    Examples
    --------
    >>> import fastpr
    >>> e = fastpr.evaluate([1, 0, 1, 1, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.6, 0.1])
    >>> round(e.auc_roc, 4), round(e.auc_pr, 4), round(e.average_precision, 4)
    (0.7222, 0.7407, 0.7556)

    Two rankings of the same labels, then one ranking split into two queries:

    >>> b = fastpr.evaluate([1, 0, 1, 0], [[0.9, 0.8, 0.7, 0.1], [0.1, 0.2, 0.3, 0.4]])
    >>> b.auc_roc
    array([0.75, 0.25])
    >>> q = fastpr.evaluate([1, 0, 0, 1, 1, 0], [0.9, 0.8, 0.7, 0.6, 0.5, 0.4],
    ...                     groups=["a", "a", "a", "b", "b", "b"])
    >>> q.index, q.auc_roc
    (array(['a', 'b'], dtype='<U1'), array([1., 1.]))

    Two models as the columns of a table (a DataFrame or a dict), named by them:

    >>> t = fastpr.evaluate([1, 0, 1, 0], {"good": [0.9, 0.8, 0.7, 0.1], "bad": [1, 2, 3, 4]})
    >>> t.index, t.auc_roc
    (array(['good', 'bad'], dtype=object), array([0.75, 0.25]))
    >>> fastpr.auc_roc([1, 0, 1, 0], {"good": [0.9, 0.8, 0.7, 0.1], "bad": [1, 2, 3, 4]})
    {'good': 0.75, 'bad': 0.25}
    """
    result = evaluations(rankings_of(y_true, y_score, sample_weight, pos_label, groups,
                                     offsets))
    warn_if_undefined_in(result, "AUC-ROC", "AUC-PR", "normalised AUC-PR")
    return result


@options(method=OneOf(PR_METHODS), average=OneOf(AVERAGES), recall_range=RECALL_RANGE)
def auc_pr(y_true, y_score, *, method="interpolated", sample_weight=None, pos_label=None,
           groups=None, offsets=None, average=None, recall_range=None):
    """Area under the precision-recall curve by one of the :doc:`estimators </math/estimators>`.

    Parameters
    ----------
    y_true, y_score, sample_weight, pos_label, groups, offsets
        As in :func:`evaluate`: a 2-D ``y_score``, ``groups`` or ``offsets`` give one area per
        ranking.
    average : {None, "macro"}, default=None
        For many rankings: None returns every area; "macro" their mean over the rankings that
        have positives (with ``method="average_precision"`` over queries: MAP). Rankings left
        out are counted in the ``UndefinedMetricWarning``.
    method : str, default="interpolated"
        ``"interpolated"``: exact integral of the correctly interpolated curve (Davis & Goadrich
        2006): between neighbouring points precision follows ``tp / (tp + fp(tp))`` with fp
        linear in tp, a hyperbola in PR space. Equals R PRROC's ``auc.integral``.
        ``"davis_goadrich"``: the paper's composite trapezoid over unit steps of tp (PRROC's
        ``auc.davis.goadrich``).
        ``"average_precision"``: ``sum (dTP / P) * precision``, scikit-learn's
        ``average_precision_score``.
        ``"lower_trapezoid"`` / ``"upper_trapezoid"``: Boyd et al. 2013; trapezoids between
        distinct recalls, from the lowest (lower) or highest (upper) precision at the left recall
        to the highest at the right one.
        ``"linear"``: straight lines in PR space, ``sklearn.metrics.auc`` over
        ``precision_recall_curve``; overstates across ties of both classes, kept to show the
        error.
        ``"hull"``: the interpolated area under the achievable PR curve (ROC convex hull).
    recall_range : (float, float), default=None
        ``(r0, r1)`` with ``0 <= r0 < r1 <= 1``: the partial area, the exact integral of the
        interpolated curve over recall in [r0, r1] (at most ``r1 - r0``; see
        :doc:`/math/partial`). Only for ``method="interpolated"`` (ValueError otherwise). None,
        or (0, 1), is the whole area. :func:`fastpr.auc_pr_min` gives the floor over the same
        range and :func:`fastpr.auc_npr` the partial area normalised by it.

    Returns
    -------
    float or ndarray
        In [0, 1] (in [0, r1 - r0] for a ``recall_range``); NaN (with
        ``UndefinedMetricWarning``) when there are no positives. An array of one area per
        ranking for many rankings, unless ``average="macro"``; for a table of models a dict
        ``{name: area}`` in column order.

    Notes
    -----
    Along a sweep, precision only falls within one recall, so the lowest precision at a recall is
    its last point and the highest its first: ``lower_trapezoid`` and ``linear`` are the same
    number, reached by the two definitions. Cost: one sort plus one pass, whatever the method.

    Examples
    --------
    >>> import fastpr
    >>> y, s = [1, 0, 1, 1, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.6, 0.1]
    >>> round(fastpr.auc_pr(y, s), 4), round(fastpr.auc_pr(y, s, method="linear"), 4)
    (0.7407, 0.7389)

    The area over the high-recall half of the curve, of which 0.5 is the most:

    >>> round(fastpr.auc_pr(y, s, recall_range=(0.5, 1.0)), 4)
    0.3151

    Mean average precision over two queries, the second of which has no positives:

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     fastpr.auc_pr([1, 0, 1, 0, 0], [0.9, 0.8, 0.7, 0.5, 0.4], groups=[7, 7, 7, 8, 8],
    ...                   method="average_precision", average="macro")
    0.8333333333333333
    >>> print(caught[0].message)
    Metrics are undefined for 1 of 2 groups: 1 have no positives (AUC-PR undefined) (or those
    examples weigh 0). Their values are NaN, and averages over groups leave them out.
    """
    interpolated_only(method, recall_range)
    if not whole(recall_range):
        return partial_metric(y_true, y_score, sample_weight, pos_label, groups, offsets,
                              average, pr_area(recall_range), "AUC-PR")
    return _one_metric(y_true, y_score, sample_weight, pos_label, groups, offsets, average,
                       lambda result: result.area(method), roc=False)


@options(average=OneOf(AVERAGES), max_fpr=MAX_FPR, mcclish=Boolean())
def auc_roc(y_true, y_score, *, sample_weight=None, pos_label=None, groups=None, offsets=None,
            average=None, max_fpr=None, mcclish=False):
    """Area under the ROC curve: the trapezoid rule, equal to Mann-Whitney U / (P N); or its
    part over FPR in [0, ``max_fpr``].

    Tied scores count 1/2. Parameters as in :func:`evaluate` (many rankings give an array, a
    table of models a dict ``{name: area}``) and ``average`` as in :func:`auc_pr`; NaN with
    ``UndefinedMetricWarning`` when either class is missing.

    Parameters
    ----------
    max_fpr : float, default=None
        In (0, 1]: the partial area under the same curve over FPR in [0, max_fpr] (the region
        of few false alarms that screening and fraud work in), at most ``max_fpr``; None, or 1,
        the whole area. See :doc:`/math/partial`.
    mcclish : bool, default=False
        With ``max_fpr``, report the partial area standardised as McClish (1989) proposed and
        scikit-learn's ``roc_auc_score(max_fpr=...)`` reports it:
        ``(1 + (A - f^2/2) / (f - f^2/2)) / 2``, 0.5 for a random ranking and 1 for a perfect
        one (below 0.5 for rankings worse than random there). At ``max_fpr=1`` it is the area
        itself.

    Examples
    --------
    >>> import fastpr
    >>> fastpr.auc_roc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.75

    Over the lowest third of the false positive rates, raw and standardised:

    >>> y, s = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.7, 0.9]
    >>> raw = fastpr.auc_roc(y, s, max_fpr=1 / 3)
    >>> round(raw, 4), round(fastpr.auc_roc(y, s, max_fpr=1 / 3, mcclish=True), 4)
    (0.2222, 0.8)
    """
    if max_fpr is None or max_fpr == 1.0:  # (McClish's standardisation of the whole area is
        # the area itself)
        return _one_metric(y_true, y_score, sample_weight, pos_label, groups, offsets, average,
                           lambda result: result.auc_roc, roc=True)
    return partial_metric(y_true, y_score, sample_weight, pos_label, groups, offsets, average,
                          roc_area(max_fpr), "AUC-ROC",
                          (lambda areas: _mcclish(areas, max_fpr)) if mcclish else None)


def _one_metric(y_true, y_score, sample_weight, pos_label, groups, offsets, average, pick, *,
                roc):
    """One metric (``pick`` reads it from an Evaluation or a batch) of one ranking or of many,
    warning once about the rankings where it is undefined."""
    rankings = rankings_of(y_true, y_score, sample_weight, pos_label, groups, offsets)
    result = evaluations(rankings)
    warn_if_undefined_in(result, "AUC-ROC" if roc else "AUC-PR")
    return pick(result) if rankings.index is None else per_ranking(rankings, pick(result),
                                                                   average)
