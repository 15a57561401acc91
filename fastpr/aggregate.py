"""One number from many folds or tasks, three ways (Boyd et al. 2012, section 4).

Areas from data sets of different skew sit on different floors (the unachievable region), so
their plain mean mixes skill with skew. The normalised mean removes each floor first. Pooling
evaluates all predictions together, which assumes that scores are comparable across folds.
"""
from dataclasses import dataclass

import numpy as np

from ._engine.kernels.normalised import normalised_areas
from ._validation import OneOf, options
from ._rankings import evaluations, rankings_of
from ._undefined import warn_undefined_entries
from .exceptions import InputTypeError, InputValueError
from .results import PR_METHODS, Evaluation, Result, defined_mean
from .unachievable import auc_pr_floor

_HOW = ("mean", "normalized", "pooled")


@dataclass(frozen=True, repr=False, eq=False)
class Aggregate(Result):
    """The aggregate ``value`` with what it is made of.

    ``values`` and ``floors`` hold each fold's area and its unachievable minimum; ``floor`` is
    the aggregate's own minimum (mean of the floors, 0 when normalised, the pooled data's
    minimum). A step-wise method has no floor for class totals that are not whole numbers
    (weights): NaN there. Folds whose area is undefined are left out of ``value`` and counted in
    ``n_undefined``.
    """

    how: str
    method: str
    value: float
    floor: float
    values: np.ndarray
    floors: np.ndarray
    n_folds: int
    n_undefined: int


@options(how=OneOf(_HOW), method=OneOf(PR_METHODS))
def aggregate(folds, *, how="mean", method="interpolated"):
    """Combine the AUC-PR of several folds or tasks.

    Parameters
    ----------
    folds : sequence
        Each an :class:`Evaluation` or a tuple ``(y_true, y_score)`` or
        ``(y_true, y_score, sample_weight)``.
    how : {"mean", "normalized", "pooled"}, default="mean"
        ``"mean"``: the mean area; its ``floor`` shows how much of it no ranking can avoid.
        ``"normalized"``: the mean normalised area (AUCNPR), comparable across skews.
        ``"pooled"``: the area of all folds' predictions evaluated together (tuples only).
    method : str, default="interpolated"
        An estimator of :func:`fastpr.auc_pr`.

    Returns
    -------
    Aggregate

    Examples
    --------
    >>> import fastpr
    >>> scores = [.9, .8, .7, .6, .5, .4, .3, .2, .1, 0]
    >>> rare = fastpr.evaluate([1, 0, 0, 0, 0, 0, 0, 0, 0, 0], scores)
    >>> common = fastpr.evaluate([0, 1, 1, 1, 1, 0, 0, 0, 1, 0], scores)
    >>> mean = fastpr.aggregate([rare, common])
    >>> round(mean.value, 3), round(mean.floor, 3)
    (0.792, 0.179)
    >>> round(fastpr.aggregate([rare, common], how="normalized").value, 3)
    0.7
    """
    folds = list(folds)
    is_evaluation = [isinstance(fold, Evaluation) for fold in folds]
    _check_folds(folds, is_evaluation, pooled=how == "pooled")
    per_fold = [fold if evaluated else evaluations(rankings_of(*_arguments(fold)))
                for fold, evaluated in zip(folds, is_evaluation)]
    for k, evaluation in enumerate(per_fold):
        if not isinstance(evaluation, Evaluation):  # (an EvaluationBatch)
            raise InputValueError("{argument}[{k}] holds several rankings (a 2-D y_score, a "
                                  "table or groups); each fold must be one.", argument="folds",
                                  k=k)
    values = np.array([e.area(method) for e in per_fold])
    floors = np.array([_floor(e, method, how, k) for k, e in enumerate(per_fold)])
    if how == "pooled":
        pooled = evaluations(rankings_of(*_concatenated(folds)))
        value, floor = pooled.area(method), _floor(pooled, method, how, None)
        n_undefined = int(np.isnan(value))
    else:
        if how == "normalized":
            values = normalised_areas(values, floors)
        value, n_used = defined_mean(values)
        n_undefined = len(folds) - n_used
        defined = ~np.isnan(values)
        floor = float(floors[defined].mean()) if how == "mean" and n_used else 0.0
    warn_undefined_entries(n_undefined, len(folds), "folds", "a class is missing, or their "
                           "weights are beyond what double precision resolves",
                           "the aggregate leaves them out")
    return Aggregate(how, method, float(value), float(floor), values, floors, len(folds),
                     n_undefined)


def _floor(evaluation, method, how, k):
    """The fold's unachievable minimum; NaN where a step-wise method has none (class totals that
    are not whole numbers), which only normalising by it cannot do without."""
    try:
        return auc_pr_floor(evaluation.n_pos, evaluation.n_neg, method)
    except InputValueError:  # (the floor's own check of the counts)
        if how != "normalized":
            return np.nan
        raise InputValueError("{argument}{which} weighs its classes {n_pos:g} and {n_neg:g}, "
                              "not whole numbers, for which method={method!r} has no "
                              "unachievable floor to normalise by; use method='interpolated'.",
                              argument="folds", which="" if k is None else f"[{k}]",
                              n_pos=evaluation.n_pos, n_neg=evaluation.n_neg,
                              method=method) from None


def _arguments(fold):
    """(y_true, y_score, sample_weight, pos_label) of one fold tuple."""
    y_true, y_score, *weight = fold
    return y_true, y_score, weight[0] if weight else None, None


def _concatenated(folds):
    arguments = [_arguments(fold) for fold in folds]
    y_true = np.concatenate([np.asarray(y) for y, _, _, _ in arguments])
    y_score = np.concatenate([np.asarray(s) for _, s, _, _ in arguments])
    sample_weight = None
    if any(w is not None for _, _, w, _ in arguments):
        sample_weight = np.concatenate([
            np.ones(len(y)) if w is None else np.asarray(w, dtype=np.float64)
            for y, _, w, _ in arguments])
    return y_true, y_score, sample_weight, None


def _check_folds(folds, is_evaluation, *, pooled):
    """Each fold is an Evaluation (unless pooling) or a (y_true, y_score[, sample_weight]) tuple."""
    if not folds:
        raise InputValueError("{argument} is empty.", argument="folds")
    for k, (fold, evaluated) in enumerate(zip(folds, is_evaluation)):
        if evaluated and not pooled:
            continue
        if not (isinstance(fold, tuple) and len(fold) in (2, 3)):
            raise InputTypeError(
                "{argument} must hold (y_true, y_score[, sample_weight]) tuples{or_evaluations}; "
                "{argument}[{k}] is {kind}{detail}.", argument="folds", k=k,
                or_evaluations="" if pooled else " or Evaluation results",
                kind=type(fold).__name__,
                detail=" (pooling needs the predictions)" if evaluated else "")
