"""The one definition of a result row: the fields of ``fastpr.Evaluation``, in their order.

One ranking is one row, many rankings a table of rows, a bootstrap replicate a row under new
weights (``resample`` appends its best F1). A row holds the class totals (total weights), the
prevalence, the number of thresholds, the areas (AUC-ROC and its hull, then the AUC-PR of each
estimator in ``fastpr.PR_METHODS`` order), the interpolated AUC-PR of the worst ranking (the
floor of ``auc_npr``) and ``auc_npr``. The areas, ``row[FIRST_AREA:FIRST_AREA + N_SUMMARY]``,
are the summary vector of ``fastpr.kernels.summary``; the sweep keeps its running sums in the
columns of the areas that they become.
"""
FIELDS = ("n_pos", "n_neg", "prevalence", "n_thresholds", "auc_roc", "auc_roc_hull", "auc_pr",
          "auc_pr_dg", "average_precision", "auc_pr_lower", "auc_pr_upper", "auc_pr_linear",
          "auc_pr_hull", "auc_pr_min", "auc_npr")
(POS_WEIGHT, NEG_WEIGHT, PREVALENCE, N_THRESHOLDS, AUC_ROC, AUC_ROC_HULL, AUC_PR, AUC_PR_DG,
 AVERAGE_PRECISION, AUC_PR_LOWER, AUC_PR_UPPER, AUC_PR_LINEAR, AUC_PR_HULL, AUC_PR_MIN,
 AUC_NPR) = range(len(FIELDS))
N_COLUMNS = len(FIELDS)
FIRST_AREA, N_SUMMARY = AUC_ROC, AUC_PR_MIN - AUC_ROC
