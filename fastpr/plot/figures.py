"""``plot_roc``, ``plot_pr`` and ``plot_comparison``: one or several rankings with everything
that explains their curves, drawn from one :class:`fastpr.SweptRanking` each."""
import inspect
import math

import numpy as np

from .._optional import import_optional
from .._validation import Boolean, InstanceOf, OneOf, options
from ..curves import RECALL_STEP
from ..exceptions import InputTypeError, InputValueError
from ..operating import LEVELS
from ..intervals import BootstrapResult, bootstrap_sample, estimate_of
from ..swept import (
    SweptRanking,
    achievable_pr_curve,
    interpolated_pr_curve,
    pr_curve,
    roc_convex_hull,
    roc_points,
    swept_silently,
)
from .drawing import (
    ISO_F1_LEVELS,
    draw_band_behind,
    draw_iso_f,
    draw_operating_points,
    draw_unachievable,
    fit,
    iso_f_levels,
    metric_name,
    named,
    new_axes,
    ranking,
    set_caption,
    unit_square,
)

# What each figure shows, so what it warns about when a class is missing.
_ROC_SHOWN = ("AUC-ROC",)
_PR_SHOWN = ("AUC-PR",)


def plot_roc(y_true, y_score=None, *, sample_weight=None, pos_label=None, ax=None, hull=True,
             label=None, chance=True, max_fpr=None, min_tpr=None):
    """Draw the ROC curve of one ranking and its convex hull.

    Parameters
    ----------
    y_true, y_score, sample_weight, pos_label
        As in :func:`fastpr.evaluate`; or a :class:`fastpr.SweptRanking` alone, in place of all
        four.
    ax : matplotlib Axes, optional
        Where to draw; a new figure's Axes by default. Untitled Axes get a caption (examples,
        positives, prevalence) as their title.
    hull : bool, default=True
        Also draw the ROC convex hull (the operating points reachable by randomising between
        thresholds): a wide pale band of the curve's colour behind it, sharing its legend
        entry.
    label : str, optional
        The ranking's name in the legend, which also shows AUC-ROC (and the hull's area). The
        legend stands below the Axes of a new figure, inside (lower right) Axes you pass
        (:mod:`fastpr.plot`).
    chance : bool, default=True
        Draw the diagonal of random rankings.
    max_fpr, min_tpr : float or sequence of float, optional
        Mark the best operating point with FPR <= ``max_fpr`` (:func:`fastpr.tpr_at_fpr`), or
        with TPR >= ``min_tpr`` (:func:`fastpr.tnr_at_tpr`), at each level in [0, 1]: the
        best single threshold as a dot, and where randomising between two thresholds does
        better, the achievable point on the hull as a star; the legend gives each value and
        its thresholds.

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import fastpr.plot
    >>> ax = fastpr.plot.plot_roc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], label="model")
    >>> [text.get_text() for text in ax.get_legend().get_texts()], ax.get_title()
    (['model: AUC-ROC 0.750, hull 0.875'], '4 examples, 2 positive (prevalence 0.5)')
    """
    swept, _ = ranking(y_true, y_score, sample_weight, pos_label, _ROC_SHOWN)
    ax = new_axes() if ax is None else ax
    _draw_roc(ax, swept, hull=hull, label=label, max_fpr=max_fpr, min_tpr=min_tpr)
    _surround_roc(ax, swept, chance=chance)
    set_caption(ax, swept.evaluation)
    return _finish_roc(ax)


def draw_roc_hull(ax, swept, label, color):
    """The ROC convex hull: a wide pale band of the curve's colour behind it, so that the two
    stay apart to the eye where they run together."""
    vertices = roc_convex_hull(swept)
    return draw_band_behind(ax, vertices.fpr, vertices.tpr, label, color)


def draw_chance_roc(ax, **style):
    return ax.plot([0, 1], [0, 1], **{"color": "0.75", "linewidth": 0.8, "zorder": 0,
                                      **style})[0]


@options(hull=Boolean(), max_fpr=LEVELS, min_tpr=LEVELS)
def _draw_roc(ax, swept, _data=None, *, hull=True, label=None, max_fpr=None, min_tpr=None):
    result = swept.evaluation
    text = f"AUC-ROC {result.auc_roc:.3f}" + (f", hull {result.auc_roc_hull:.3f}" if hull else "")
    curve = roc_points(swept)
    (line,) = ax.plot(curve.fpr, curve.tpr, label=named(label, text))
    if hull:
        draw_roc_hull(ax, swept, line.get_label(), line.get_color())
    _mark(ax, "roc", label, line.get_color(),
          (swept.tpr_at_fpr, max_fpr), (swept.tnr_at_tpr, min_tpr))


def _mark(ax, space, label, color, *queries):
    """Mark the operating points of each (SweptRanking method, levels) whose levels are given."""
    for query, levels in queries:
        if levels is not None:
            draw_operating_points(ax, query(levels), space, label, color)


@options(chance=Boolean())
def _surround_roc(ax, _swept, *, chance=True):
    if chance:
        draw_chance_roc(ax)


def _finish_roc(ax):
    unit_square(ax, "false positive rate", "true positive rate")
    fit(ax, "lower right")
    return ax


def _interval_end_replicates(result):
    """The replicates whose metric sits at the ends of the interval (or, for the basic
    interval, at the replicate quantiles that it reflects about the estimate)."""
    low, high = result.low, result.high
    if result.interval == "basic":
        low, high = 2 * result.estimate - result.high, 2 * result.estimate - result.low
    values = np.where(np.isfinite(result.replicates), result.replicates, np.inf)
    return [int(np.argmin(np.abs(values - end))) for end in (low, high)]


def _draw_band(ax, data, result, color, label, max_recall_step):
    if data is None:
        raise InputTypeError("{argument} shading redraws replicates from the data: pass y_true "
                             "and y_score rather than a SweptRanking.", argument="bootstrap")
    own = estimate_of(result, data["y_true"], data["y_score"], data["sample_weight"],
                      data["pos_label"])
    if not (own == result.estimate or math.isnan(own) and math.isnan(result.estimate)):
        raise InputValueError("{argument} is the bootstrap of other data: its estimate "
                              "{theirs:.6g} differs from this data's {own:.6g}; its replicates "
                              "cannot be redrawn from these rows.", argument="bootstrap",
                              theirs=result.estimate, own=own)
    curves = []
    for replicate in _interval_end_replicates(result):
        sample = bootstrap_sample(data["y_true"], data["y_score"], replicate, seed=result.seed,
                                  stratified=result.stratified, resampling=result.resampling,
                                  sample_weight=data["sample_weight"],
                                  pos_label=data["pos_label"])
        curve = interpolated_pr_curve(swept_silently(*sample),
                                      max_recall_step=max_recall_step)
        curves.append(np.column_stack([curve.recall, curve.precision]))
    outline = np.concatenate([curves[0], curves[1][::-1]])
    # Hatched, so that it reads apart from the achievable curve's solid pale band, in the
    # legend as on the Axes.
    rgba = import_optional("matplotlib.colors", "plot").to_rgba
    ax.fill(outline[:, 0], outline[:, 1], facecolor=rgba(color, 0.1), edgecolor=rgba(color, 0.6),
            hatch="////", linewidth=0,
            label=named(label, f"{result.confidence:.0%} bootstrap band, {metric_name(result)} "
                               f"{result.low:.3f} to {result.high:.3f} ({result.interval})"))


def draw_achievable(ax, swept, label, color, max_recall_step):
    """The achievable PR curve (the ROC hull in PR space): a wide pale band of the curve's
    colour behind it, as the ROC hull is drawn."""
    hull = achievable_pr_curve(swept, max_recall_step=max_recall_step)
    return draw_band_behind(ax, hull.recall, hull.precision, label, color)


def plot_pr(y_true, y_score=None, *, sample_weight=None, pos_label=None, ax=None, label=None,
            achievable=True, unachievable=True, iso_f=ISO_F1_LEVELS, linear=False,
            bootstrap=None, max_recall_step=0.01, min_precision=None, min_recall=None):
    """Draw the correctly interpolated PR curve of one ranking, with what surrounds it.

    Parameters
    ----------
    y_true, y_score, sample_weight, pos_label
        As in :func:`fastpr.evaluate`; or a :class:`fastpr.SweptRanking` alone, in place of all
        four (except with ``bootstrap``, which redraws replicates from the data).
    ax : matplotlib Axes, optional
        Where to draw; a new figure's Axes by default. Untitled Axes get a caption (examples,
        positives, prevalence) as their title.
    label : str, optional
        The ranking's name in the legend, which also shows its interpolated AUC-PR. The legend
        stands below the Axes of a new figure, inside (lower left) Axes you pass
        (:mod:`fastpr.plot`).
    achievable : bool, default=True
        Also draw the achievable PR curve (the ROC convex hull in PR space), a wide pale band
        of the curve's colour behind it; it shares the curve's legend entry, which adds its
        area.
    unachievable : bool, default=True
        Shade the region below the worst ranking's precision at this data's prevalence, which no
        ranking can enter (Boyd et al. 2012). Below a prevalence of 0.05 the region is too thin
        to see: it is drawn but not listed in the legend.
    iso_f : sequence of float or bool, default=(0.2, 0.4, 0.6, 0.8)
        Draw the lines of these constant F1 values, each in (0, 1); True for
        :data:`ISO_F1_LEVELS`, False or ``()`` for none.
    linear : bool, default=False
        Also draw, dashed, straight lines between the operating points and their (wrong) area,
        to show the error of linear interpolation.
    bootstrap : BootstrapResult, optional
        The result of :func:`fastpr.bootstrap` on the same data (any metric and interval).
        Hatches the region between the curves of the two replicates whose metric sits at the
        interval's ends: a picture of how much the curve moves, not a pointwise band. Its
        legend entry reads "95% bootstrap band, AUC-PR low to high (interval)".
    max_recall_step : float, default=0.01
        Largest recall gap between drawn points of the interpolated curves.
    min_precision, min_recall : float or sequence of float, optional
        Mark the best operating point with precision >= ``min_precision``
        (:func:`fastpr.recall_at_precision`), or with recall >= ``min_recall``
        (:func:`fastpr.precision_at_recall`), at each level in [0, 1]: the best single
        threshold as a dot, and where randomising between two thresholds does better, the
        achievable point (on the achievable curve) as a star; the legend gives each value and
        its thresholds.

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
    ['model: AUC-PR 0.741, achievable 0.801', 'model linear (wrong): AUC-PR 0.739',
     'unachievable (prevalence 0.5; AUC-PR min 0.307)']
    """
    swept, data = ranking(y_true, y_score, sample_weight, pos_label, _PR_SHOWN)
    ax = new_axes() if ax is None else ax
    _draw_pr(ax, swept, data, label=label, achievable=achievable, linear=linear,
             bootstrap=bootstrap, max_recall_step=max_recall_step, min_precision=min_precision,
             min_recall=min_recall)
    _surround_pr(ax, swept, unachievable=unachievable, iso_f=iso_f)
    set_caption(ax, swept.evaluation)
    return _finish_pr(ax)


@options(bootstrap=InstanceOf(BootstrapResult), max_recall_step=RECALL_STEP,
         achievable=Boolean(), linear=Boolean(), min_precision=LEVELS, min_recall=LEVELS)
def _draw_pr(ax, swept, data, *, label=None, achievable=True, linear=False, bootstrap=None,
             max_recall_step=0.01, min_precision=None, min_recall=None):
    result = swept.evaluation
    prefix = f"{label} " if label else ""
    curve = interpolated_pr_curve(swept, max_recall_step=max_recall_step)
    text = f"AUC-PR {result.auc_pr:.3f}" + (f", achievable {result.auc_pr_hull:.3f}"
                                            if achievable else "")
    (line,) = ax.plot(curve.recall, curve.precision, label=named(label, text))
    color = line.get_color()
    if linear:  # from (0, 1), as the linear estimator starts, through every point after it
        points = pr_curve(swept)
        ax.plot(np.r_[0.0, points.recall[1:]], np.r_[1.0, points.precision[1:]], "--",
                color=color, linewidth=1,
                label=f"{prefix}linear (wrong): AUC-PR {result.auc_pr_linear:.3f}")
    if bootstrap is not None:
        _draw_band(ax, data, bootstrap, color, label, max_recall_step)
    if achievable:
        draw_achievable(ax, swept, line.get_label(), color, max_recall_step)
    _mark(ax, "pr", label, color, (swept.recall_at_precision, min_precision),
          (swept.precision_at_recall, min_recall))


@options(unachievable=Boolean())
def _surround_pr(ax, swept, *, unachievable=True, iso_f=ISO_F1_LEVELS):
    """What surrounds the PR curves, after them so that their legend entries come first."""
    result = swept.evaluation
    if unachievable and 0 < result.prevalence < 1:
        draw_unachievable(ax, result.prevalence, result.auc_pr_min)
    draw_iso_f(ax, iso_f_levels(iso_f))


def _finish_pr(ax):
    unit_square(ax, "recall", "precision")
    fit(ax, "lower left")
    return ax


@options(kind=OneOf(("pr", "roc")))
def plot_comparison(rankings, *, kind="pr", ax=None, **options):
    """Several rankings on one Axes: ``{name: (y_true, y_score[, sample_weight])}``, or
    ``{name: SweptRanking}``.

    ``kind`` is ``"pr"`` (:func:`plot_pr`) or ``"roc"`` (:func:`plot_roc`); ``options`` go to
    it. The unachievable region, the iso-F1 lines and the diagonal are drawn once, for the
    first ranking; the caption describes the data when every ranking has the same class totals.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import fastpr.plot
    >>> from fastpr import datasets
    >>> y, a, b = datasets.reversal_rankings()
    >>> ax = fastpr.plot.plot_comparison({"A": (y, a), "B": (y, b)}, achievable=False, iso_f=())
    >>> [text.get_text() for text in ax.get_legend().get_texts()]
    ['A: AUC-PR 0.514', 'B: AUC-PR 0.038']
    >>> ax.get_title()
    '2,020 examples, 20 positive (prevalence 0.0099)'
    """
    draw, surround, finish, shown, surround_options = _KINDS[kind]
    around = {name: options.pop(name) for name in surround_options if name in options}
    pos_label = options.pop("pos_label", None)
    taken = inspect.signature(draw).parameters
    for name in options:
        if name not in taken or name in ("ax", "swept", "data", "_data", "label"):
            raise InputTypeError("{argument} is not an option of kind={kind!r} figures.",
                                 argument=name, kind=kind)
    if not rankings:
        raise InputValueError("{argument} is empty.", argument="rankings")
    ax = new_axes() if ax is None else ax
    swept_rankings = []
    for name, data in rankings.items():
        if not (isinstance(data, SweptRanking)
                or isinstance(data, (tuple, list)) and len(data) in (2, 3)):
            raise InputTypeError("{argument}[{name!r}] must be a SweptRanking or a tuple "
                                 "(y_true, y_score[, sample_weight]), got {value!r:.60}.",
                                 argument="rankings", name=name, value=data)
        data = (data, None) if isinstance(data, SweptRanking) else tuple(data)
        weight = data[2] if len(data) > 2 else None
        swept, given = ranking(*data[:2], weight, pos_label, shown)
        draw(ax, swept, given, **options, label=name)
        swept_rankings.append(swept)
    surround(ax, swept_rankings[0], **around)
    if len({(swept.n_pos, swept.n_neg) for swept in swept_rankings}) == 1:
        set_caption(ax, swept_rankings[0].evaluation)
    return finish(ax)


# Each kind of figure: how to draw one ranking's curves, what surrounds them (drawn once, with
# these options), how to finish the Axes, and what to warn about when a class is missing.
_KINDS = {"pr": (_draw_pr, _surround_pr, _finish_pr, _PR_SHOWN, ("unachievable", "iso_f")),
          "roc": (_draw_roc, _surround_roc, _finish_roc, _ROC_SHOWN, ("chance",))}
