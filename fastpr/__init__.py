"""fastpr: exact, fast and honest precision-recall and ROC analysis."""
import importlib

from .accumulator import Accumulator
from .aggregate import Aggregate, aggregate
from .curves import AchievablePRCurve, PRCurve, PRPoints, ROCCurve, ROCHull, interpolate_pr
from .exceptions import InputError, InputTypeError, InputValueError, UndefinedMetricWarning
from .fmeasure import FBetaCurve, MaxFBeta, iso_f_curve
from .gain import PRGCurve
from .metrics import auc_pr, auc_roc, evaluate
from .prevalence import PrevalenceShift, at_prevalence
from .results import PR_METHODS, Evaluation, EvaluationBatch, MacroAverage
from .space import dominates, pr_to_roc, roc_to_pr
from .swept import (
    SweptRanking,
    achievable_pr_curve,
    auc_prg,
    f_beta_curve,
    interpolated_pr_curve,
    max_f_beta,
    pr_curve,
    prg_curve,
    roc_convex_hull,
    roc_curve,
    sweep,
)
from .thresholds import ThresholdEvaluation, evaluate_at_thresholds, hull_thresholds
from .unachievable import auc_npr, auc_pr_min, min_precision

__version__ = "0.1.0"

# Imported at first use, not with fastpr: their modules and kernels cost import time that a
# script which only evaluates would pay for nothing.
_LAZY = {
    "learn": None,
    "multiclass": None,
    **dict.fromkeys(["BootstrapResult", "Comparison", "Interval", "bootstrap", "bootstrap_sample",
                     "compare", "confidence_interval", "delong", "fold_interval"], "intervals"),
}


def __getattr__(name):
    """Import a lazy name's module at its first use."""
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = importlib.import_module(f".{_LAZY[name] or name}", __name__)
    value = module if _LAZY[name] is None else getattr(module, name)
    globals()[name] = value
    return value


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
    "PRCurve",
    "PRGCurve",
    "PRPoints",
    "PR_METHODS",
    "PrevalenceShift",
    "ROCCurve",
    "ROCHull",
    "SweptRanking",
    "ThresholdEvaluation",
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
    "pr_to_roc",
    "prg_curve",
    "roc_convex_hull",
    "roc_curve",
    "roc_to_pr",
    "sweep",
]
