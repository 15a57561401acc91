"""AUC-ROC, every AUC-PR estimator of SPEC section 5, and ``evaluate`` for all of them at once."""
import math
from dataclasses import dataclass

from . import _validation
from ._ranking import run_sweep, sort_ranking
from ._results import Result
from ._kernels.area import worst_ranking_interpolated_area
from ._kernels.summary import (
    AUC_ROC,
    AUC_ROC_HULL,
    AVERAGE_PRECISION,
    DAVIS_GOADRICH,
    HULL,
    INTERPOLATED,
    LINEAR,
    LOWER_TRAPEZOID,
    UPPER_TRAPEZOID,
    summarise,
)

# Each estimator of SPEC section 5 and the Evaluation field that holds it.
_METHOD_FIELDS = {
    "interpolated": "auc_pr",
    "davis_goadrich": "auc_pr_dg",
    "average_precision": "average_precision",
    "lower_trapezoid": "auc_pr_lower",
    "upper_trapezoid": "auc_pr_upper",
    "linear": "auc_pr_linear",
    "hull": "auc_pr_hull",
}
PR_METHODS = tuple(_METHOD_FIELDS)


def check_method(method):
    if method not in _METHOD_FIELDS:
        raise ValueError(f"method must be one of {', '.join(PR_METHODS)}; got {method!r}.")
    return method


@dataclass(frozen=True, repr=False)
class Evaluation(Result):
    """Every summary of one ranking, from one sort and one pass.

    ``n_pos``/``n_neg`` are total weights (counts when unweighted). ``auc_pr`` is the
    ``interpolated`` area; ``auc_pr_min`` and ``auc_npr`` belong to it (SPEC section 6).
    """

    n_pos: float
    n_neg: float
    prevalence: float
    n_thresholds: int
    auc_roc: float
    auc_roc_hull: float
    auc_pr: float
    auc_pr_dg: float
    average_precision: float
    auc_pr_lower: float
    auc_pr_upper: float
    auc_pr_linear: float
    auc_pr_hull: float
    auc_pr_min: float
    auc_npr: float

    def area(self, method):
        """The AUC-PR of one estimator, by its :func:`auc_pr` method name."""
        return getattr(self, _METHOD_FIELDS[check_method(method)])


def _evaluation_from_sweep(sweep):
    """Normalise the sweep's sums; metrics that the class totals leave undefined are NaN."""
    n_pos, n_neg = float(sweep["N_POS"]), float(sweep["N_NEG"])
    areas = summarise(sweep.stats).tolist()
    auc_pr_min = worst_ranking_interpolated_area(n_pos, n_neg)
    auc_pr = areas[INTERPOLATED]
    return Evaluation(
        n_pos=n_pos,
        n_neg=n_neg,
        prevalence=n_pos / (n_pos + n_neg),
        n_thresholds=int(sweep["N_POINTS"]) - 1,
        auc_roc=areas[AUC_ROC],
        auc_roc_hull=areas[AUC_ROC_HULL],
        auc_pr=auc_pr,
        auc_pr_dg=areas[DAVIS_GOADRICH],
        average_precision=areas[AVERAGE_PRECISION],
        auc_pr_lower=areas[LOWER_TRAPEZOID],
        auc_pr_upper=areas[UPPER_TRAPEZOID],
        auc_pr_linear=areas[LINEAR],
        auc_pr_hull=areas[HULL],
        auc_pr_min=auc_pr_min,
        auc_npr=(auc_pr - auc_pr_min) / (1.0 - auc_pr_min) if n_neg > 0 else math.nan,
    )


def evaluate(y_true, y_score, *, sample_weight=None, pos_label=None):
    """All ROC and PR summaries of one ranking from a single sort and a single pass.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Labels: bool, {0, 1}, {-1, 1}, or any two values with ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Real scores, higher means more positive. Ties form one threshold; +-inf are ordinary.
    sample_weight : array-like of shape (n_samples,), default=None
        Finite weights >= 0. Integer weights give exactly the result of repeating rows.
    pos_label : scalar, default=None
        The positive label; needed unless labels are bool, {0, 1} or {-1, 1}.

    Returns
    -------
    Evaluation
        Frozen dataclass; see its fields. ``to_dict()`` gives plain Python values.

    Notes
    -----
    Cost: one ``np.sort`` of each class's scores plus one O(n) pass that yields the operating
    points, AUC-ROC, every PR area of :func:`auc_pr` and the ROC convex hull together. With no
    positives every metric is NaN; with no negatives the ROC metrics and ``auc_npr`` are NaN
    while the PR areas are 1. An ``UndefinedMetricWarning`` says which.

    Examples
    --------
    >>> import fastpr
    >>> e = fastpr.evaluate([1, 0, 1, 1, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.6, 0.1])
    >>> round(e.auc_roc, 4), round(e.auc_pr, 4), round(e.average_precision, 4)
    (0.7222, 0.7407, 0.7556)
    """
    result = _evaluate_silently(y_true, y_score, sample_weight, pos_label)
    _validation.warn_if_undefined(result.n_pos, result.n_neg, roc=True, pr=True, npr=True)
    return result


def _evaluate_silently(y_true, y_score, sample_weight, pos_label):
    ranking = sort_ranking(y_true, y_score, sample_weight, pos_label)
    return _evaluation_from_sweep(run_sweep(ranking))


def auc_pr(y_true, y_score, *, method="interpolated", sample_weight=None, pos_label=None):
    """Area under the precision-recall curve by one of the estimators of SPEC section 5.

    Parameters
    ----------
    y_true, y_score, sample_weight, pos_label
        As in :func:`evaluate`.
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
        ``precision_recall_curve``; over-optimistic, kept to show the error.
        ``"hull"``: the interpolated area under the achievable PR curve (ROC convex hull).

    Returns
    -------
    float
        In [0, 1]; NaN (with ``UndefinedMetricWarning``) when there are no positives.

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
    """
    check_method(method)
    result = _evaluate_silently(y_true, y_score, sample_weight, pos_label)
    _validation.warn_if_undefined(result.n_pos, result.n_neg, pr=True)
    return result.area(method)


def auc_roc(y_true, y_score, *, sample_weight=None, pos_label=None):
    """Area under the ROC curve: the trapezoid rule, equal to Mann-Whitney U / (P N).

    Tied scores count 1/2. Parameters as in :func:`evaluate`; NaN with
    ``UndefinedMetricWarning`` when either class is missing.

    Examples
    --------
    >>> import fastpr
    >>> fastpr.auc_roc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.75
    """
    result = _evaluate_silently(y_true, y_score, sample_weight, pos_label)
    _validation.warn_if_undefined(result.n_pos, result.n_neg, roc=True)
    return result.auc_roc
