"""Figures that show what the numbers mean: ROC with its convex hull, PR curves drawn correctly.

Needs matplotlib (the ``plot`` extra), imported on first use. Every function draws onto the
``ax`` it is given (or a new one) and returns it, so several rankings share one figure. Each
figure sorts and sweeps its ranking once (:func:`fastpr.sweep`) and draws every curve and
number from that; a :class:`fastpr.SweptRanking` can be passed instead of the data.
"""
import numpy as np

from ._optional import import_optional
from ._options import InstanceOf, options
from ._undefined import warn_if_undefined
from .curves import RECALL_STEP
from .exceptions import InputTypeError
from .fmeasure import iso_f_curve
from .intervals import BootstrapResult, bootstrap_sample
from .swept import SweptRanking, swept_silently
from .unachievable import min_precision

ISO_F1_LEVELS = (0.2, 0.4, 0.6, 0.8)
_REGION_RECALL = np.linspace(0.0, 1.0, 201)
# What each figure shows, so what it warns about when a class is missing.
_ROC_SHOWN = ("AUC-ROC",)
_PR_SHOWN = ("AUC-PR",)


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


def _ranking(y_true, y_score, sample_weight, pos_label, shown):
    """(SweptRanking, data or None): the ranking to draw, given or swept from the data with one
    warning about what the figure shows (``shown``); the data only when given."""
    if isinstance(y_true, SweptRanking):
        extra = [name for name, value in (("y_score", y_score), ("sample_weight", sample_weight),
                                          ("pos_label", pos_label)) if value is not None]
        if extra:
            raise InputTypeError("A SweptRanking carries its own scores, weights and labels: "
                                 "pass it alone, without y_score, sample_weight or pos_label.",
                                 argument=extra[0])
        return y_true, None
    if y_score is None:
        raise InputTypeError("{argument} is missing: pass y_true and y_score, or a SweptRanking.",
                             argument="y_score")
    swept = swept_silently(y_true, y_score, sample_weight, pos_label)
    warn_if_undefined(swept.n_pos, swept.n_neg, *shown)
    data = {"y_true": y_true, "y_score": y_score, "sample_weight": sample_weight,
            "pos_label": pos_label}
    return swept, data


def plot_roc(y_true, y_score=None, *, sample_weight=None, pos_label=None, ax=None, hull=True,
             label=None, chance=True):
    """Draw the ROC curve of one ranking and, dashed, its convex hull.

    Parameters
    ----------
    y_true, y_score, sample_weight, pos_label
        As in :func:`fastpr.evaluate`; or a :class:`fastpr.SweptRanking` alone, in place of all
        four.
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
    swept, _ = _ranking(y_true, y_score, sample_weight, pos_label, _ROC_SHOWN)
    return _draw_roc(swept, None, ax=ax, hull=hull, label=label, chance=chance)


def _draw_roc(swept, _data, *, ax=None, hull=True, label=None, chance=True):
    ax = _new_axes() if ax is None else ax
    result = swept.evaluation
    curve = swept.roc_curve()
    if chance:
        ax.plot([0, 1], [0, 1], color="0.75", linewidth=0.8, zorder=0)
    (line,) = ax.plot(curve.fpr, curve.tpr, label=_named(label, f"AUC-ROC {result.auc_roc:.3f}"))
    if hull:
        vertices = swept.roc_convex_hull()
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


def _draw_band(ax, data, result, color, prefix, max_recall_step):
    if data is None:
        raise InputTypeError("{argument} shading redraws replicates from the data: pass y_true "
                             "and y_score rather than a SweptRanking.", argument="bootstrap")
    curves = []
    for replicate in _interval_end_replicates(result):
        sample = bootstrap_sample(data["y_true"], data["y_score"], replicate, seed=result.seed,
                                  stratified=result.stratified, resampling=result.resampling,
                                  sample_weight=data["sample_weight"],
                                  pos_label=data["pos_label"])
        curve = swept_silently(*sample).interpolated_pr_curve(max_recall_step=max_recall_step)
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


def plot_pr(y_true, y_score=None, *, sample_weight=None, pos_label=None, ax=None, label=None,
            achievable=True, unachievable=True, iso_f=ISO_F1_LEVELS, linear=False,
            bootstrap=None, max_recall_step=0.01):
    """Draw the correctly interpolated PR curve of one ranking, with what surrounds it.

    Parameters
    ----------
    y_true, y_score, sample_weight, pos_label
        As in :func:`fastpr.evaluate`; or a :class:`fastpr.SweptRanking` alone, in place of all
        four (except with ``bootstrap``, which redraws replicates from the data).
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
    swept, data = _ranking(y_true, y_score, sample_weight, pos_label, _PR_SHOWN)
    return _draw_pr(swept, data, ax=ax, label=label, achievable=achievable,
                    unachievable=unachievable, iso_f=iso_f, linear=linear, bootstrap=bootstrap,
                    max_recall_step=max_recall_step)


# Declared where plot_pr and PRDisplay.from_predictions both pass their options.
@options(bootstrap=InstanceOf(BootstrapResult), max_recall_step=RECALL_STEP)
def _draw_pr(swept, data, *, ax=None, label=None, achievable=True, unachievable=True,
             iso_f=ISO_F1_LEVELS, linear=False, bootstrap=None, max_recall_step=0.01):
    ax = _new_axes() if ax is None else ax
    result = swept.evaluation
    prefix = f"{label} " if label else ""
    curve = swept.interpolated_pr_curve(max_recall_step=max_recall_step)
    (line,) = ax.plot(curve.recall, curve.precision,
                      label=_named(label, f"AUC-PR {result.auc_pr:.3f}"))
    color = line.get_color()
    if linear:
        points = swept.pr_curve()
        ax.plot(points.recall, points.precision, "--", color=color, linewidth=1,
                label=f"{prefix}linear (wrong): AUC-PR {result.auc_pr_linear:.3f}")
    if bootstrap is not None:
        _draw_band(ax, data, bootstrap, color, prefix, max_recall_step)
    if achievable:
        hull = swept.achievable_pr_curve(max_recall_step=max_recall_step)
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
    """Several rankings on one Axes: ``{name: (y_true, y_score[, sample_weight])}``, or
    ``{name: SweptRanking}``.

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
        data = (data,) if isinstance(data, SweptRanking) else tuple(data)
        weight = {"sample_weight": data[2]} if len(data) > 2 else {}
        draw(*data[:2], ax=ax, label=name, **weight, **{**options, **(drawn_once if k else {})})
    return ax


class _Display:
    """A drawn figure and what it was drawn from (scikit-learn's ``*Display`` in miniature).

    ``swept`` is the :class:`fastpr.SweptRanking` every curve was drawn from, ``evaluation``
    its summaries, ``ax_`` and ``figure_`` where it was drawn.
    """

    _draw = None
    _shown = None

    def __init__(self, swept, ax):
        self.swept = swept
        self.evaluation = swept.evaluation
        self.ax_ = ax
        self.figure_ = ax.figure

    @classmethod
    def from_predictions(cls, y_true, y_score, *, sample_weight=None, pos_label=None, ax=None,
                         **options):
        """Sort and sweep one ranking once, and draw it; ``options`` go to the plotting
        function."""
        swept, data = _ranking(y_true, y_score, sample_weight, pos_label, cls._shown)
        return cls(swept, cls._draw(swept, data, ax=ax, **options))


class PRDisplay(_Display):
    """:func:`plot_pr` of one ranking, keeping its ``swept`` ranking, ``evaluation``, ``ax_``
    and ``figure_``.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from fastpr.plot import PRDisplay
    >>> d = PRDisplay.from_predictions([1, 0, 1, 1, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.6, 0.1])
    >>> round(d.evaluation.auc_pr, 4), d.ax_.get_xlabel()
    (0.7407, 'recall')
    """

    _draw = staticmethod(_draw_pr)
    _shown = _PR_SHOWN


class ROCDisplay(_Display):
    """:func:`plot_roc` of one ranking, keeping its ``swept`` ranking, ``evaluation``, ``ax_``
    and ``figure_``.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from fastpr.plot import ROCDisplay
    >>> d = ROCDisplay.from_predictions([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> d.evaluation.auc_roc, d.ax_.get_xlabel()
    (0.75, 'false positive rate')
    """

    _draw = staticmethod(_draw_roc)
    _shown = _ROC_SHOWN
