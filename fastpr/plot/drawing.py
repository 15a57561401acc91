"""What every figure of :mod:`fastpr.plot` shares: its Axes, caption and legend, the ranking it
draws, and the drawings that surround a curve (chance, iso-F1 lines, the unachievable region)."""
import numpy as np

from .._optional import import_optional
from .._undefined import warn_if_undefined
from ..fmeasure import iso_f_curve
from ..swept import given_sweep, swept_silently
from ..unachievable import min_precision

ISO_F1_LEVELS = (0.2, 0.4, 0.6, 0.8)
# Below this height (a fraction of the unit square) the unachievable region is a sliver no reader
# can see: it is still drawn, but listed in no legend.
VISIBLE_REGION = 0.05
_REGION_RECALL = np.linspace(0.0, 1.0, 201)


def new_axes():
    """Axes of a new figure whose layout makes room for a legend outside them."""
    return import_optional("matplotlib.pyplot", "plot").subplots(layout="constrained")[1]


def unit_square(ax, xlabel, ylabel):
    ax.set_xlim(-0.01, 1.01)
    ax.set_ylim(-0.01, 1.01)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_aspect("equal")


def named(label, text):
    return f"{label}: {text}" if label else text


def ranking(y_true, y_score, sample_weight, pos_label, shown):
    """(SweptRanking, data or None): the ranking to draw, given or swept from the data with one
    warning about what the figure shows (``shown``); the data only when given."""
    swept = given_sweep(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label)
    if swept is not None:
        return swept, None
    swept = swept_silently(y_true, y_score, sample_weight, pos_label)
    warn_if_undefined(swept.n_pos, swept.n_neg, *shown)
    data = {"y_true": y_true, "y_score": y_score, "sample_weight": sample_weight,
            "pos_label": pos_label}
    return swept, data


def caption(evaluation):
    """The data in one line: examples, positives and prevalence (total weights when weighted)."""
    n_pos, n_neg = evaluation.n_pos, evaluation.n_neg
    if float(n_pos).is_integer() and float(n_neg).is_integer():
        counts = f"{int(n_pos + n_neg):,} examples, {int(n_pos):,} positive"
    else:
        counts = f"weight {n_pos + n_neg:,.4g}, {n_pos:,.4g} positive"
    return f"{counts} (prevalence {evaluation.prevalence:.3g})"


def set_caption(ax, evaluation):
    """Title the Axes with :func:`caption`, unless the caller titled them already."""
    if not ax.get_title():
        ax.set_title(caption(evaluation), fontsize="medium")


def _points(size):
    return import_optional("matplotlib.font_manager", "plot").FontProperties(
        size=size).get_size_in_points()


def place_legend(ax):
    """The legend, below the Axes' x-axis label, where it covers no curve, label or tick.

    Artists drawn with the same label (a curve and its ROC hull or achievable curve) share one
    entry whose handles stand side by side, so the pair reads as one model.
    """
    matplotlib = import_optional("matplotlib", "plot")
    handler_tuple = import_optional("matplotlib.legend_handler", "plot").HandlerTuple
    grouped = {}
    for handle, label in zip(*ax.get_legend_handles_labels()):
        grouped.setdefault(label, []).append(handle)
    handles = [tuple(group) if len(group) > 1 else group[0] for group in grouped.values()]
    # What stands below the x-axis, in points: ticks, tick labels, the axis label (lines of
    # 1.2 font sizes), and a gap.
    rc = matplotlib.rcParams
    below = (rc["xtick.major.size"] + rc["xtick.major.pad"] + 1.2 * _points(rc["xtick.labelsize"])
             + rc["axes.labelpad"] + 1.2 * _points(rc["axes.labelsize"]) + 4.0)
    return ax.legend(handles, list(grouped), handler_map={tuple: handler_tuple(ndivide=None)},
                     loc="upper center", bbox_to_anchor=(0.5, 0.0),
                     borderaxespad=below / _points("small"), fontsize="small", handlelength=3.0)


def draw_band_behind(ax, x, y, label, color):
    """A wide pale line of ``color`` behind the curves (a hull): where it runs along a curve the
    curve shows inside it, where they part the two stay apart to the eye."""
    return ax.plot(x, y, color=color, alpha=0.3, linewidth=5, solid_capstyle="butt",
                   label=label, zorder=1.5)[0]


def draw_unachievable(ax, prevalence, floor):
    """Shade the region below the worst ranking's precision; listed in the legend only where
    it can be seen (prevalence of at least ``VISIBLE_REGION``)."""
    label = (f"unachievable (prevalence {prevalence:.3g}; AUC-PR min {floor:.3f})"
             if prevalence >= VISIBLE_REGION else None)
    return ax.fill_between(_REGION_RECALL, 0.0, min_precision(_REGION_RECALL, prevalence),
                           color="0.85", zorder=0, label=label)


def draw_iso_f(ax, levels):
    """The lines of constant F1, each labelled just outside the Axes' right edge, where no
    curve can cover the label."""
    for level in levels:
        recall, precision = iso_f_curve(level)
        ax.plot(recall, precision, color="0.6", linewidth=0.6, linestyle=":", zorder=0)
        ax.annotate(f"F1={level:g}", (1.0, precision[-1]), xycoords=("axes fraction", "data"),
                    xytext=(3, 0), textcoords="offset points", fontsize="x-small",
                    color="0.45", ha="left", va="center", annotation_clip=False)
