"""fastpr: exact, fast and honest precision-recall and ROC analysis."""
from . import multiclass
from ._validation import UndefinedMetricWarning
from .batch import EvaluationBatch, MacroAverage
from .curves import (
    AchievablePRCurve,
    PRCurve,
    PRPoints,
    ROCCurve,
    ROCHull,
    achievable_pr_curve,
    interpolate_pr,
    pr_curve,
    roc_convex_hull,
    roc_curve,
)
from .metrics import PR_METHODS, Evaluation, auc_pr, auc_roc, evaluate

__version__ = "0.1.0"

__all__ = [
    "AchievablePRCurve",
    "Evaluation",
    "EvaluationBatch",
    "MacroAverage",
    "PRCurve",
    "PRPoints",
    "PR_METHODS",
    "ROCCurve",
    "ROCHull",
    "UndefinedMetricWarning",
    "achievable_pr_curve",
    "auc_pr",
    "auc_roc",
    "evaluate",
    "interpolate_pr",
    "multiclass",
    "pr_curve",
    "roc_convex_hull",
    "roc_curve",
]
