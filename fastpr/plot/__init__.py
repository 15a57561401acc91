"""Figures that show what the numbers mean: ROC with its convex hull, PR curves drawn correctly.

Needs matplotlib (the ``plot`` extra), imported on first use. Every function draws onto the
``ax`` it is given (or a new one) and returns it, so several rankings share one figure. Each
figure sorts and sweeps its ranking once (:func:`fastpr.sweep`) and draws every curve and
number from that; a :class:`fastpr.SweptRanking` can be passed instead of the data.

Nothing is drawn outside the figure. On a new figure (no ``ax``) the legend stands below the
Axes, where it covers nothing, and the figure grows to hold it. On Axes you pass, whose figure
keeps your size and layout, the legend stands inside them where scikit-learn puts it (lower
left for PR, lower right for ROC), in a smaller font and with long labels wrapped where it
would not fit. Untitled Axes get a caption with the number of examples, positives and the
prevalence (smaller, or on two lines, where it would reach a neighbouring Axes).

The same figures as scikit-learn's ``*Display`` classes (``from_estimator``,
``from_predictions``, ``plot``) are :class:`fastpr.sklearn.PrecisionRecallDisplay`,
:class:`fastpr.sklearn.RocCurveDisplay` and :class:`fastpr.sklearn.DetCurveDisplay`, under
scikit-learn's names only.
"""
from .drawing import ISO_F1_LEVELS
from .figures import plot_comparison, plot_pr, plot_roc

__all__ = ["ISO_F1_LEVELS", "plot_comparison", "plot_pr", "plot_roc"]
