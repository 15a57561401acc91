"""
A PR curve drawn correctly
==========================

Between two operating points false positives grow linearly with true positives, so precision
follows a hyperbola, not a straight line. On a coarse score scale (scores rounded to whole
numbers: a few thresholds) the difference shows: the correct curve bends below the straight
line, whose area overstates the truth. The dotted curve is the achievable PR curve (the ROC
convex hull carried into PR space) and the grey region lies below the worst possible ranking's
precision at this prevalence: no model can enter it.
"""
import matplotlib.pyplot as plt
import numpy as np

import fastpr
from fastpr import datasets
from fastpr.plot import plot_pr, plot_roc

y_true, y_score = datasets.binormal(400, prevalence=0.3, separation=1.5, seed=1)
y_score = np.round(y_score)  # a few distinct scores, so the segments are long

swept = fastpr.sweep(y_true, y_score)  # one sort and one pass, drawn twice
fig, (roc_ax, pr_ax) = plt.subplots(1, 2, figsize=(11, 6.4), layout="constrained")
plot_roc(swept, ax=roc_ax, label="model")
plot_pr(swept, ax=pr_ax, label="model", linear=True)

# %%
# The areas under each curve, from the same sweep:
e = swept.evaluation
print(f"interpolated {e.auc_pr:.4f}, straight lines {e.auc_pr_linear:.4f}, "
      f"achievable {e.auc_pr_hull:.4f}, worst possible {e.auc_pr_min:.4f}")
