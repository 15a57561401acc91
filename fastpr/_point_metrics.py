"""The metrics read from a ranking's operating points (``metric=`` strings such as
``"max_f1"`` or ``"recall_at_precision@0.9"``): their codes for the one kernel that computes
them, ``fastpr._engine.kernels.point_metrics``, and what NumPy finishes on arrays of its values,
for bootstrap replicates, estimates and fastpr.learn's metrics alike."""
import math

import numpy as np

from ._engine.kernels import point_metrics as _kernel
from ._engine.kernels.layout import NEG_WEIGHT, POS_WEIGHT
from ._engine.kernels.summary import too_far_apart
from .partial import mcclish
from .unachievable import normalised_partial_auc_pr, partial_auc_pr_floor

# The kernel's code of each metric read from the points, by its name, with "@" where it has a
# level ("auc_roc" is a field of the row, "auc_roc@" a partial area); the others are fields of
# the row.
_CODES = {"max_f1": _kernel.MAX_F1, "recall_at_precision@": _kernel.RECALL_AT_PRECISION,
          "precision_at_recall@": _kernel.PRECISION_AT_RECALL, "tpr_at_fpr@": _kernel.TPR_AT_FPR,
          "tnr_at_tpr@": _kernel.TNR_AT_TPR, "precision_at_k@": _kernel.PRECISION_AT_K,
          "recall_at_k@": _kernel.RECALL_AT_K, "r_precision": _kernel.R_PRECISION,
          "auc_roc@": _kernel.PARTIAL_AUC_ROC, "auc_roc_mcclish@": _kernel.PARTIAL_AUC_ROC,
          "auc_pr@": _kernel.PARTIAL_AUC_PR, "auc_npr@": _kernel.PARTIAL_AUC_PR}
_AREAS = ("auc_roc", "auc_roc_mcclish", "auc_pr", "auc_npr")
# The metrics that count rows (the k highest scores): their points' weights must be row counts.
TOP_K = ("precision_at_k", "recall_at_k", "r_precision")


def point(spec):
    """(code, level_a, level_b) of a metric (a ``fastpr._validation.MetricSpec``) for the
    kernel: code None for a field of the row (the replicate kernels then keep no points), NaN
    for a level it does not have."""
    code = _CODES.get(spec.name + "@" * bool(spec.levels))
    levels = [float(level) for level in spec.levels] + [math.nan] * (2 - len(spec.levels))
    return (None if code is None else np.int64(code)), *levels


def finish(values, spec, pos_total, neg_total):
    """The metric from the kernel's values (arrays or scalars of one value per ranking, with its
    class totals P and N): the partial areas as their public functions finish them (NaN where
    the class totals lie too far apart for any area; McClish's standardisation; the floor of
    the normalised partial PR area), the others as they are."""
    if spec.name not in _AREAS or not spec.levels:
        return values
    values = np.where(too_far_apart(pos_total, neg_total), np.nan, values)
    if spec.name == "auc_roc_mcclish":
        return mcclish(values, spec.levels[0])
    if spec.name == "auc_npr":
        floors = partial_auc_pr_floor(pos_total, neg_total, *spec.levels)
        return normalised_partial_auc_pr(values, floors, *spec.levels)
    return values


def of_swept(swept, code, level_a, level_b):
    """The kernel's value (not finished) for one ranking swept with its points
    (``sweep_ranking(..., with_points=True)``); NaN for code None."""
    if code is None:
        return math.nan
    return _kernel.point_metric(swept.points, swept.points.shape[1], swept.row[POS_WEIGHT],
                                swept.row[NEG_WEIGHT], code, level_a, level_b)
