"""
A bootstrap interval of AUC-PR
==============================

:func:`fastpr.bootstrap` sorts once and reweights the sorted examples in each replicate, with a
random stream keyed by (seed, replicate): the interval depends on the seed alone, never on the
thread count. :func:`fastpr.plot.plot_pr` shades the region between the curves of the two
replicates whose AUC-PR sits at the interval's ends: how far the curve moves, not a pointwise
band.
"""
import matplotlib.pyplot as plt

import fastpr
from fastpr import datasets
from fastpr.plot import plot_pr

y_true, y_score = datasets.binormal(2_000, prevalence=0.05, separation=1.5, seed=3)
result = fastpr.bootstrap(y_true, y_score, n_boot=300, seed=0)
print(f"AUC-PR {result.estimate:.3f}, 95% interval [{result.low:.3f}, {result.high:.3f}]")

fig, ax = plt.subplots(figsize=(6.5, 7.5), layout="constrained")
plot_pr(y_true, y_score, ax=ax, label="model", bootstrap=result, iso_f=())
ax.set_title(f"{y_true.size:,} examples, {int(y_true.sum())} positives; "
             f"interval [{result.low:.3f}, {result.high:.3f}]", fontsize="medium")
