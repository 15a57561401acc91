"""
Comparing models on the same examples
=====================================

:func:`fastpr.plot.plot_comparison` draws several rankings of the same examples on one figure;
:func:`fastpr.compare` tests each model's difference from the first with a paired bootstrap
(the same resampled examples for every model), so shared noise cancels.
"""
import matplotlib.pyplot as plt
import numpy as np

import fastpr
from fastpr import datasets
from fastpr.plot import plot_comparison

y_true, strong = datasets.binormal(3_000, prevalence=0.05, separation=2.0, seed=4)
rng = np.random.default_rng(5)
weaker = strong + rng.normal(0.0, 1.0, strong.size)  # the same signal, noisier
weakest = strong + rng.normal(0.0, 2.5, strong.size)

models = {"strong": strong, "weaker": weaker, "weakest": weakest}
fig, ax = plt.subplots(figsize=(6.5, 7.5), layout="constrained")
plot_comparison({name: (y_true, score) for name, score in models.items()}, ax=ax, iso_f=())
ax.set_title(f"{y_true.size:,} examples, {int(y_true.sum())} positives", fontsize="medium")

# %%
# Each model against the first, with a 95% interval and p-value of the difference in AUC-PR:
result = fastpr.compare(y_true, list(models.values()), n_boot=300, seed=0)
for name, diff, low, high, p in zip(list(models)[1:], result.differences, result.low,
                                    result.high, result.p_values):
    print(f"{name} - strong: {diff:+.3f} [{low:+.3f}, {high:+.3f}], p = {p:.3f}")
