"""fastpr: exact, fast and honest precision-recall and ROC analysis."""
from ._validation import UndefinedMetricWarning
from .accumulator import Accumulator
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
    "Accumulator",
    "AchievablePRCurve",
    "Evaluation",
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
    "pr_curve",
    "roc_convex_hull",
    "roc_curve",
]
