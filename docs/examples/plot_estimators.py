"""
Estimators of AUC-PR side by side
=================================

Every AUC-PR estimator of :func:`fastpr.auc_pr` on the ranking of Davis & Goadrich's Figure 6:
433 positives among 56,164 negatives, nine positives ranked first and every other example tied.
One tied threshold spans almost the whole recall axis, and how each estimator crosses it decides
the number: straight lines (and the two trapezoids, which draw them too) give about 0.51,
the correct interpolation, Davis & Goadrich's steps and average precision about 0.03.
"""
import matplotlib.pyplot as plt

import fastpr
from fastpr import datasets

y_true, y_score = datasets.figure6_ranking()
areas = {method: fastpr.auc_pr(y_true, y_score, method=method) for method in fastpr.PR_METHODS}
for method, area in areas.items():
    print(f"{method:>18}  {area:.4f}")

fig, ax = plt.subplots(figsize=(7, 4))
bars = ax.barh(list(areas), list(areas.values()), color="tab:blue")
for method in ("linear", "lower_trapezoid", "upper_trapezoid"):  # straight lines across the tie
    bars[list(areas).index(method)].set_color("tab:red")
ax.bar_label(bars, fmt="%.4f", padding=3)
ax.set_xlim(0, 1)
ax.invert_yaxis()
ax.set_xlabel("AUC-PR")
ax.set_title(f"Davis & Goadrich Figure 6: {int(y_true.sum())} positives, "
             f"{int((~y_true.astype(bool)).sum()):,} negatives")
fig.tight_layout()
