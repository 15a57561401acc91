"""fastpr: exact, fast and honest precision-recall and ROC analysis."""
from . import learn, multiclass
from ._validation import UndefinedMetricWarning
from .accumulator import Accumulator
from .batch import EvaluationBatch, MacroAverage
from .curves import (
    AchievablePRCurve,
    PRCurve,
    PRPoints,
    ROCCurve,
    ROCHull,
    achievable_pr_curve,
    interpolate_pr,
    interpolated_pr_curve,
    pr_curve,
    roc_convex_hull,
    roc_curve,
)
from .aggregate import Aggregate, aggregate
from .fmeasure import FBetaCurve, MaxFBeta, f_beta_curve, iso_f_curve, max_f_beta
from .gain import PRGCurve, auc_prg, prg_curve
from .intervals import (
    BootstrapResult,
    Comparison,
    Interval,
    bootstrap,
    bootstrap_sample,
    compare,
    confidence_interval,
    delong,
    fold_interval,
)
from .metrics import PR_METHODS, Evaluation, auc_pr, auc_roc, evaluate
from .prevalence import PrevalenceShift, at_prevalence
from .space import dominates, pr_to_roc, roc_to_pr
from .thresholds import ThresholdEvaluation, evaluate_at_thresholds, hull_thresholds
from .unachievable import auc_npr, auc_pr_min, min_precision

__version__ = "0.1.0"

__all__ = [
    "Accumulator",
    "AchievablePRCurve",
    "Aggregate",
    "BootstrapResult",
    "Comparison",
    "Evaluation",
    "EvaluationBatch",
    "FBetaCurve",
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
]
