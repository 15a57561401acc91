"""
The same ranking at another prevalence
======================================

A ROC curve does not depend on the prevalence; a PR curve does. When negatives were down-sampled
for testing, :func:`fastpr.at_prevalence` gives the PR curve and every area at the base rate
that matters, by reweighting the negatives: the ROC points stay, precision moves.
"""
import matplotlib.pyplot as plt

import fastpr
from fastpr import datasets

# A balanced test set, say, built by keeping one negative in a hundred.
y_true, y_score = datasets.binormal(2_000, prevalence=0.5, separation=2.0, seed=6)

fig, ax = plt.subplots(figsize=(6, 5))
for prevalence in (0.5, 0.1, 0.01):
    shifted = fastpr.at_prevalence(y_true, y_score, prevalence)
    ax.plot(shifted.curve.recall, shifted.curve.precision,
            label=f"prevalence {prevalence}: AUC-PR {shifted.evaluation.auc_pr:.3f}")
    print(f"prevalence {prevalence:>4}: AUC-PR {shifted.evaluation.auc_pr:.3f}, "
          f"AUC-ROC {shifted.evaluation.auc_roc:.3f}")
ax.set(xlabel="recall", ylabel="precision", xlim=(0, 1), ylim=(0, 1.01),
       title=f"One ranking of {y_true.size:,} examples at three prevalences")
ax.legend(loc="lower left", fontsize="small")
