"""Figures that show what the numbers mean: ROC with its convex hull, PR curves drawn correctly.

Needs matplotlib (the ``plot`` extra), imported on first use. Every function draws onto the
``ax`` it is given (or a new one) and returns it, so several rankings share one figure.
"""
import warnings

import numpy as np

from ._optional import import_optional
from ._options import InstanceOf, options
from .curves import achievable_pr_curve, interpolated_pr_curve, pr_curve, roc_convex_hull, roc_curve
from .fmeasure import iso_f_curve
from .intervals import BootstrapResult, bootstrap_sample
from .metrics import evaluate
from .unachievable import min_precision

ISO_F1_LEVELS = (0.2, 0.4, 0.6, 0.8)
_REGION_RECALL = np.linspace(0.0, 1.0, 201)


def _new_axes():
    return import_optional("matplotlib.pyplot", "plot").subplots()[1]


def _unit_square(ax, xlabel, ylabel):
    ax.set_xlim(-0.01, 1.01)
    ax.set_ylim(-0.01, 1.01)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_aspect("equal")


def _named(label, text):
    return f"{label}: {text}" if label else text


def plot_roc(y_true, y_score, *, sample_weight=None, pos_label=None, ax=None, hull=True,
             label=None, chance=True):
    """Draw the ROC curve of one ranking and, dashed, its convex hull.

    Parameters
    ----------
    y_true, y_score, sample_weight, pos_label
        As in :func:`fastpr.evaluate`.
    ax : matplotlib Axes, optional
        Where to draw; a new figure's Axes by default.
    hull : bool, default=True
        Also draw the ROC convex hull (the operating points reachable by randomising between
        thresholds).
    label : str, optional
        The ranking's name in the legend, which also shows AUC-ROC (and the hull's area).
    chance : bool, default=True
        Draw the diagonal of random rankings.

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import fastpr.plot
    >>> ax = fastpr.plot.plot_roc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], label="model")
    >>> [text.get_text() for text in ax.get_legend().get_texts()]
    ['model: AUC-ROC 0.750', 'model hull: AUC-ROC 0.875']
    """
    ax = _new_axes() if ax is None else ax
    result = evaluate(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label)
    curve = roc_curve(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label)
    if chance:
        ax.plot([0, 1], [0, 1], color="0.75", linewidth=0.8, zorder=0)
    (line,) = ax.plot(curve.fpr, curve.tpr, label=_named(label, f"AUC-ROC {result.auc_roc:.3f}"))
    if hull:
        vertices = roc_convex_hull(y_true, y_score, sample_weight=sample_weight,
                                   pos_label=pos_label)
        ax.plot(vertices.fpr, vertices.tpr, "--", color=line.get_color(),
                label=f"{label + ' ' if label else ''}hull: AUC-ROC {result.auc_roc_hull:.3f}")
    _unit_square(ax, "false positive rate", "true positive rate")
    ax.legend(loc="lower right", fontsize="small")
    return ax


def _interval_end_replicates(result):
    """The replicates whose metric sits at the ends of the interval (or, for the basic
    interval, at the replicate quantiles that it reflects about the estimate)."""
    low, high = result.low, result.high
    if result.interval == "basic":
        low, high = 2 * result.estimate - result.high, 2 * result.estimate - result.low
    values = np.where(np.isfinite(result.replicates), result.replicates, np.inf)
    return [int(np.argmin(np.abs(values - end))) for end in (low, high)]


def _draw_band(ax, y_true, y_score, data, result, color, prefix, max_recall_step):
    curves = []
    for replicate in _interval_end_replicates(result):
        sample = bootstrap_sample(y_true, y_score, replicate, seed=result.seed,
                                  stratified=result.stratified, resampling=result.resampling,
                                  **data)
        curve = interpolated_pr_curve(sample[0], sample[1], sample_weight=sample[2],
                                      max_recall_step=max_recall_step)
        curves.append(np.column_stack([curve.recall, curve.precision]))
    outline = np.concatenate([curves[0], curves[1][::-1]])
    ax.fill(outline[:, 0], outline[:, 1], color=color, alpha=0.2, linewidth=0,
            label=f"{prefix}bootstrap {result.confidence:.0%} {result.interval}: "
                  f"{result.metric} {result.low:.3f} to {result.high:.3f}")


def _draw_unachievable(ax, prevalence, floor):
    ax.fill_between(_REGION_RECALL, 0.0, min_precision(_REGION_RECALL, prevalence),
                    color="0.85", zorder=0,
                    label=f"unachievable (prevalence {prevalence:.3g}; AUC-PR min {floor:.3f})")


def _draw_iso_f(ax, levels):
    for level in levels:
        recall, precision = iso_f_curve(level)
        ax.plot(recall, precision, color="0.6", linewidth=0.6, linestyle=":", zorder=0)
        ax.annotate(f"F1={level:g}", (recall[-1], precision[-1]), xytext=(-2, 2),
                    textcoords="offset points", fontsize="x-small", color="0.45",
                    ha="right", va="bottom")


@options(bootstrap=InstanceOf(BootstrapResult))
def plot_pr(y_true, y_score, *, sample_weight=None, pos_label=None, ax=None, label=None,
            achievable=True, unachievable=True, iso_f=ISO_F1_LEVELS, linear=False,
            bootstrap=None, max_recall_step=0.01):
    """Draw the correctly interpolated PR curve of one ranking, with what surrounds it.

    Parameters
    ----------
    y_true, y_score, sample_weight, pos_label
        As in :func:`fastpr.evaluate`.
    ax : matplotlib Axes, optional
        Where to draw; a new figure's Axes by default.
    label : str, optional
        The ranking's name in the legend, which also shows its interpolated AUC-PR.
    achievable : bool, default=True
        Also draw, dotted, the achievable PR curve (the ROC convex hull in PR space) and its area.
    unachievable : bool, default=True
        Shade the region below the worst ranking's precision at this data's prevalence, which no
        ranking can enter (Boyd et al. 2012).
    iso_f : sequence of float, default=(0.2, 0.4, 0.6, 0.8)
        Draw the lines of these constant F1 values; ``()`` for none.
    linear : bool, default=False
        Also draw, dashed, straight lines between the operating points and their (wrong) area,
        to show the error of linear interpolation.
    bootstrap : BootstrapResult, optional
        The result of :func:`fastpr.bootstrap` on the same data (any metric and interval).
        Shades the region between the curves of the two replicates whose metric sits at the
        interval's ends: a picture of how much the curve moves, not a pointwise band.
    max_recall_step : float, default=0.01
        Largest recall gap between drawn points of the interpolated curves.

    Returns
    -------
    matplotlib Axes

    Notes
    -----
    Between operating points, false positives grow linearly with true positives, so precision
    follows a hyperbola (:func:`fastpr.interpolated_pr_curve`); the area under what is drawn is
    ``auc_pr(method="interpolated")``. The bootstrap shading is not a pointwise confidence
    band (that would need every replicate's curve); the replicates are redrawn with
    :func:`fastpr.bootstrap_sample`.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import fastpr.plot
    >>> y, s = [1, 0, 1, 1, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.6, 0.1]
    >>> ax = fastpr.plot.plot_pr(y, s, label="model", linear=True, iso_f=())
    >>> [text.get_text() for text in ax.get_legend().get_texts()]  # doctest: +NORMALIZE_WHITESPACE
    ['model: AUC-PR 0.741', 'model linear (wrong): AUC-PR 0.739',
     'model achievable: AUC-PR 0.801', 'unachievable (prevalence 0.5; AUC-PR min 0.307)']
    """
    ax = _new_axes() if ax is None else ax
    data = {"sample_weight": sample_weight, "pos_label": pos_label}
    result = evaluate(y_true, y_score, **data)
    prefix = f"{label} " if label else ""
    curve = interpolated_pr_curve(y_true, y_score, max_recall_step=max_recall_step, **data)
    (line,) = ax.plot(curve.recall, curve.precision,
                      label=_named(label, f"AUC-PR {result.auc_pr:.3f}"))
    color = line.get_color()
    if linear:
        points = pr_curve(y_true, y_score, **data)
        ax.plot(points.recall, points.precision, "--", color=color, linewidth=1,
                label=f"{prefix}linear (wrong): AUC-PR {result.auc_pr_linear:.3f}")
    if bootstrap is not None:
        _draw_band(ax, y_true, y_score, data, bootstrap, color, prefix, max_recall_step)
    if achievable:
        hull = achievable_pr_curve(y_true, y_score, max_recall_step=max_recall_step, **data)
        ax.plot(hull.recall, hull.precision, ":", color=color,
                label=f"{prefix}achievable: AUC-PR {result.auc_pr_hull:.3f}")
    if unachievable and 0 < result.prevalence < 1:
        _draw_unachievable(ax, result.prevalence, result.auc_pr_min)
    if len(iso_f):
        _draw_iso_f(ax, iso_f)
    _unit_square(ax, "recall", "precision")
    ax.legend(loc="upper right", fontsize="small")
    return ax


def plot_comparison(rankings, *, kind="pr", ax=None, **options):
    """Several rankings on one Axes: ``{name: (y_true, y_score[, sample_weight])}``.

    ``kind`` is ``"pr"`` (:func:`plot_pr`) or ``"roc"`` (:func:`plot_roc`); ``options`` go to
    it. The unachievable region and the iso-F1 lines are drawn once, for the first ranking.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import fastpr.plot
    >>> from fastpr import datasets
    >>> y, a, b = datasets.reversal_rankings()
    >>> ax = fastpr.plot.plot_comparison({"A": (y, a), "B": (y, b)}, achievable=False, iso_f=())
    >>> [text.get_text() for text in ax.get_legend().get_texts()]
    ['A: AUC-PR 0.514', 'unachievable (prevalence 0.0099; AUC-PR min 0.005)', 'B: AUC-PR 0.038']
    """
    draw = {"pr": plot_pr, "roc": plot_roc}[kind]
    drawn_once = {"pr": {"unachievable": False, "iso_f": ()}, "roc": {"chance": False}}[kind]
    ax = _new_axes() if ax is None else ax
    for k, (name, data) in enumerate(rankings.items()):
        weight = data[2] if len(data) > 2 else None
        draw(data[0], data[1], sample_weight=weight, ax=ax, label=name,
             **{**options, **(drawn_once if k else {})})
    return ax


class _Display:
    """A drawn figure and what it was drawn from (scikit-learn's ``*Display`` in miniature)."""

    _draw = None

    def __init__(self, evaluation, ax):
        self.evaluation = evaluation
        self.ax_ = ax
        self.figure_ = ax.figure

    @classmethod
    def from_predictions(cls, y_true, y_score, *, sample_weight=None, pos_label=None, ax=None,
                         **options):
        """Evaluate and draw one ranking; ``options`` go to the plotting function."""
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the drawing call warns once if a class is missing
            evaluation = evaluate(y_true, y_score, sample_weight=sample_weight,
                                  pos_label=pos_label)
        ax = cls._draw(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label, ax=ax,
                       **options)
        return cls(evaluation, ax)


class PRDisplay(_Display):
    """:func:`plot_pr` of one ranking, keeping its ``evaluation``, ``ax_`` and ``figure_``.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from fastpr.plot import PRDisplay
    >>> d = PRDisplay.from_predictions([1, 0, 1, 1, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.6, 0.1])
    >>> round(d.evaluation.auc_pr, 4), d.ax_.get_xlabel()
    (0.7407, 'recall')
    """

    _draw = staticmethod(plot_pr)


class ROCDisplay(_Display):
    """:func:`plot_roc` of one ranking, keeping its ``evaluation``, ``ax_`` and ``figure_``.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from fastpr.plot import ROCDisplay
    >>> d = ROCDisplay.from_predictions([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> d.evaluation.auc_roc, d.ax_.get_xlabel()
    (0.75, 'false positive rate')
    """

    _draw = staticmethod(plot_roc)
