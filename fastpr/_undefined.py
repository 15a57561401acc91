"""The UndefinedMetricWarning: which metrics a call returns as NaN, and why, in one wording.

One entry (a ranking): "AUC-ROC is undefined because y_true has no negatives ...; returning
NaN." Many entries (rankings of a batch, folds, bootstrap replicates): "Metrics are undefined
for k of n <entries>: <why>. Their values are NaN, and <what leaves them out>."
"""
import sys
import warnings

import numpy as np

from ._engine.kernels.area import worst_ranking_interpolated_area
from ._engine.kernels.summary import too_far_apart
from ._engine.kernels.normalised import lacks_headroom
from .exceptions import UndefinedMetricWarning

# Why class totals leave a metric undefined, tested in this order.
_NO_POSITIVES, _NO_NEGATIVES, _FAR_APART, _NO_HEADROOM = range(4)
_UNDEFINED_WHERE = {
    "AUC-ROC": {_NO_POSITIVES, _NO_NEGATIVES, _FAR_APART},
    "AUC-PR": {_NO_POSITIVES, _FAR_APART},
    "normalised AUC-PR": {_NO_POSITIVES, _NO_NEGATIVES, _FAR_APART, _NO_HEADROOM},
    "F-beta": {_NO_POSITIVES},
    "Precision-recall gain": {_NO_POSITIVES, _NO_NEGATIVES},
    "AUPRG": {_NO_POSITIVES, _NO_NEGATIVES},
    "Recall at k": {_NO_POSITIVES},
    "R-precision": {_NO_POSITIVES},
}
_TOO_FAR_APART = ("one more than 2**600 times the other, beyond what double precision can weigh "
                  "against each other")
_NO_ROOM = ("the AUC-PR of the worst ranking within 2**-26 of 1, leaving the normalised area "
            "no precision")
# How warnings name the rankings of an EvaluationBatch, by its index_name.
PLURALS = {"ranking": "rankings", "model": "models", "group": "groups", "class": "classes"}


def _undefined(metrics, reason):
    names = [name for name in metrics if reason in _UNDEFINED_WHERE[name]]
    if "AUC-PR" in names and "normalised AUC-PR" in names:  # said with the other PR areas
        names.remove("normalised AUC-PR")
    return " and ".join(names)


def _reasons(n_pos, n_neg, floors):
    """A boolean array per reason: the entries that it leaves undefined (first reason wins)."""
    no_positives = n_pos == 0
    no_negatives = (n_neg == 0) & ~no_positives
    far_apart = too_far_apart(n_pos, n_neg)
    no_room = np.zeros_like(no_positives)
    if floors is not None:
        no_room = lacks_headroom(floors) & (n_neg > 0) & ~no_positives & ~far_apart
    return {_NO_POSITIVES: no_positives, _NO_NEGATIVES: no_negatives, _FAR_APART: far_apart,
            _NO_HEADROOM: no_room}


def warn_undefined(message):
    """Warn, pointing at the first caller outside fastpr: the user's call, however deep in
    fastpr (and however many decorators) it was found out."""
    frame, stacklevel = sys._getframe(1), 2
    while frame is not None and frame.f_globals.get("__name__", "").startswith("fastpr."):
        frame, stacklevel = frame.f_back, stacklevel + 1
    warnings.warn(message, UndefinedMetricWarning, stacklevel=stacklevel)


def warn_if_undefined(n_pos, n_neg, *metrics, floors=None, unit=None):
    """Warn once about the ``metrics`` that a public function returns as NaN.

    ``metrics`` are names from ``_UNDEFINED_WHERE`` ("AUC-ROC", "AUC-PR", "normalised AUC-PR",
    ...); ``n_pos`` and ``n_neg`` the class totals, scalars for one ranking or arrays with
    ``unit`` (such as "groups") for many; ``n_neg`` may be None for metrics that need no
    negatives. ``floors`` are the worst ranking's areas for the normalised area (for one ranking
    the interpolated one by default).
    """
    if unit is None and n_neg is not None:
        # The common case, one ranking whose totals leave every metric defined, decided with
        # Python floats before any of the arrays that name the reasons (a call at n = 1,000 is
        # tens of microseconds, and those would add a third).
        pos, neg = float(n_pos), float(n_neg)
        if pos > 0.0 and neg > 0.0 and not too_far_apart(pos, neg) and (
                "normalised AUC-PR" not in metrics or not lacks_headroom(
                    worst_ranking_interpolated_area(pos, neg) if floors is None
                    else float(floors))):
            return
    n_pos = np.asarray(n_pos, dtype=np.float64)
    n_neg = np.asarray(np.nan if n_neg is None else n_neg, dtype=np.float64)
    if "normalised AUC-PR" in metrics and floors is None and unit is None and n_pos > 0 < n_neg:
        floors = worst_ranking_interpolated_area(float(n_pos), float(n_neg))
    found = [(reason, where) for reason, where in _reasons(n_pos, n_neg, floors).items()
             if where.any() and _undefined(metrics, reason)]
    if unit is not None:
        _warn_counts(found, metrics, n_pos.size, unit)
    elif found:
        reason, n_pos, n_neg = found[0][0], float(n_pos), float(n_neg)
        what = _undefined(metrics, reason)
        why = {_NO_POSITIVES: "y_true has no positives (or they all weigh 0)",
               _NO_NEGATIVES: "y_true has no negatives (or they all weigh 0)",
               _FAR_APART: (f"the positives and negatives weigh {n_pos:.6g} and {n_neg:.6g}, "
                            f"{_TOO_FAR_APART}"),
               _NO_HEADROOM: (f"the positives outweigh the negatives {n_pos:.6g} to "
                              f"{n_neg:.6g}, which puts {_NO_ROOM}")}[reason]
        verb = "are" if " and " in what else "is"
        warn_undefined(f"{what} {verb} undefined because {why}; returning NaN.")


def warn_if_undefined_in(result, *metrics, unit=None):
    """:func:`warn_if_undefined` for an Evaluation or an EvaluationBatch, from its class totals
    and interpolated floors; a batch's rankings are named after its ``index_name`` unless
    ``unit`` names them."""
    index_name = getattr(result, "index_name", None)
    if index_name is not None:
        unit = unit or PLURALS[index_name]
    warn_if_undefined(result.n_pos, result.n_neg, *metrics, floors=result.auc_pr_min, unit=unit)


def _warn_counts(found, metrics, n_entries, unit):
    short = {_NO_POSITIVES: "no positives", _NO_NEGATIVES: "no negatives",
             _FAR_APART: f"class totals {_TOO_FAR_APART}", _NO_HEADROOM: _NO_ROOM}
    counts = [(int(np.count_nonzero(where)), reason) for reason, where in found]
    reasons = "; ".join(f"{count} have {short[reason]} ({_undefined(metrics, reason)} undefined)"
                        for count, reason in counts)
    warn_undefined_entries(sum(count for count, _ in counts), n_entries, unit,
                           f"{reasons} (or those examples weigh 0)",
                           f"averages over {unit} leave them out")


def warn_undefined_entries(n_undefined, n_entries, unit, why, left_out):
    """Warn that ``n_undefined`` of ``n_entries`` ``unit`` (folds, bootstrap replicates, ...)
    have NaN metrics, ``why``, and, as ``left_out`` says, what leaves them out."""
    if n_undefined:
        warn_undefined(f"Metrics are undefined for {n_undefined} of {n_entries} {unit}: {why}. "
                       f"Their values are NaN, and {left_out}.")
