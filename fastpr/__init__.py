"""fastpr: exact, fast and honest precision-recall and ROC analysis."""
from ._validation import UndefinedMetricWarning
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
from .fmeasure import FBetaCurve, MaxFBeta, f_beta_curve, iso_f_curve, max_f_beta
from .gain import PRGCurve, auc_prg, prg_curve
from .metrics import PR_METHODS, Evaluation, auc_pr, auc_roc, evaluate

__version__ = "0.1.0"

__all__ = [
    "AchievablePRCurve",
    "Evaluation",
    "FBetaCurve",
    "MaxFBeta",
    "PRCurve",
    "PRGCurve",
    "PRPoints",
    "PR_METHODS",
    "ROCCurve",
    "ROCHull",
    "UndefinedMetricWarning",
    "achievable_pr_curve",
    "auc_pr",
    "auc_prg",
    "auc_roc",
    "evaluate",
    "f_beta_curve",
    "interpolate_pr",
    "iso_f_curve",
    "max_f_beta",
    "pr_curve",
    "prg_curve",
    "roc_convex_hull",
    "roc_curve",
]
