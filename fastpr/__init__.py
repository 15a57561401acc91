"""fastpr: exact, fast and honest precision-recall and ROC analysis."""
import importlib

# (aggregate: its module's name is also the function's, so the function must be bound after it)
from .aggregate import Aggregate, aggregate
from .exceptions import InputError, InputTypeError, InputValueError, UndefinedMetricWarning
from .metrics import auc_pr, auc_roc, evaluate
from . import results
from .results import Evaluation, EvaluationBatch, MacroAverage

__version__ = "0.1.0"

#: The AUC-PR estimators by name, the values of every ``method=`` (:func:`auc_pr`,
#: :func:`auc_npr`, :func:`bootstrap`, ...): "interpolated" (the default), "davis_goadrich",
#: "average_precision", "lower_trapezoid", "upper_trapezoid", "linear" and "hull".
PR_METHODS = results.PR_METHODS

# Imported at first use, not with fastpr: their modules and kernels cost import time that a
# script which only evaluates would pay for nothing. Module: the names it gives fastpr.
_LAZY_NAMES = {
    "accumulator": ["Accumulator"],
    "curves": ["AchievablePRCurve", "PRCurve", "PRPoints", "ROCCurve", "interpolate_pr"],
    "fmeasure": ["FBetaCurve", "MaxFBeta", "iso_f_curve"],
    "gain": ["PRGCurve"],
    "operating": ["OperatingPoints"],
    "intervals": ["BootstrapResult", "Comparison", "Interval", "bootstrap", "bootstrap_sample",
                  "compare", "confidence_interval", "delong", "fold_interval"],
    "prevalence": ["PrevalenceShift", "at_prevalence"],
    "space": ["dominates", "pr_to_roc", "roc_to_pr"],
    "swept": ["SweptRanking", "achievable_pr_curve", "auc_prg", "f_beta_curve",
              "interpolated_pr_curve", "max_f_beta", "pr_curve", "precision_at_recall",
              "prg_curve", "recall_at_precision", "roc_convex_hull", "roc_points", "sweep",
              "tnr_at_tpr", "tpr_at_fpr"],
    "thresholds": ["ThresholdEvaluation", "evaluate_at_thresholds", "hull_thresholds"],
    "top": ["TopK", "top_k"],
    "unachievable": ["auc_npr", "auc_pr_min", "min_precision"],
}
# Each lazy name: its module, or None for a module that is itself the name.
_LAZY = {"learn": None, "multiclass": None,
         **{name: module for module, names in _LAZY_NAMES.items() for name in names}}


def __getattr__(name):
    """Import a lazy name's module at its first use."""
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module_name = _LAZY[name] or name
    module = importlib.import_module(f".{module_name}", __name__)
    if _LAZY[name] is None:
        globals()[name] = module
    for lazy in _LAZY_NAMES.get(module_name, ()):
        globals()[lazy] = getattr(module, lazy)
    return globals()[name]


def __dir__():
    return sorted({*globals(), *_LAZY})

__all__ = [
    "Accumulator",
    "AchievablePRCurve",
    "Aggregate",
    "BootstrapResult",
    "Comparison",
    "Evaluation",
    "EvaluationBatch",
    "FBetaCurve",
    "InputError",
    "InputTypeError",
    "InputValueError",
    "Interval",
    "MacroAverage",
    "MaxFBeta",
    "OperatingPoints",
    "PRCurve",
    "PRGCurve",
    "PRPoints",
    "PR_METHODS",
    "PrevalenceShift",
    "ROCCurve",
    "SweptRanking",
    "ThresholdEvaluation",
    "TopK",
    "UndefinedMetricWarning",
    "achievable_pr_curve",
    "aggregate",
    "at_prevalence",
    "auc_npr",
    "auc_pr",
    "auc_pr_min",
    "auc_prg",
    "auc_roc",
    "bootstrap",
    "bootstrap_sample",
    "compare",
    "confidence_interval",
    "delong",
    "dominates",
    "evaluate",
    "evaluate_at_thresholds",
    "f_beta_curve",
    "fold_interval",
    "hull_thresholds",
    "interpolate_pr",
    "interpolated_pr_curve",
    "iso_f_curve",
    "learn",
    "max_f_beta",
    "min_precision",
    "multiclass",
    "pr_curve",
    "precision_at_recall",
    "pr_to_roc",
    "prg_curve",
    "recall_at_precision",
    "roc_convex_hull",
    "roc_points",
    "roc_to_pr",
    "sweep",
    "tnr_at_tpr",
    "top_k",
    "tpr_at_fpr",
]
