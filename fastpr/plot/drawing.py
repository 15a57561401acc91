"""What every figure of :mod:`fastpr.plot` shares: its Axes, caption and legend, the ranking it
draws, and the drawings that surround a curve (chance, iso-F1 lines, the unachievable region)."""
import textwrap
import weakref
from collections.abc import Iterable

import numpy as np

from .._optional import import_optional
from .._undefined import warn_if_undefined
from .._validation import Interval
from ..exceptions import InputTypeError
from ..fmeasure import iso_f_curve
from ..swept import given_sweep, swept_silently
from ..unachievable import min_precision

ISO_F1_LEVELS = (0.2, 0.4, 0.6, 0.8)
# Below this height (a fraction of the unit square) the unachievable region is a sliver no reader
# can see: it is still drawn, but listed in no legend.
VISIBLE_REGION = 0.05
_REGION_RECALL = np.linspace(0.0, 1.0, 201)
# How each metric of a bootstrap result is named in a legend, as the command's table names it.
METRIC_NAMES = {"auc_pr": "AUC-PR", "auc_roc": "AUC-ROC", "auc_npr": "normalised AUC-PR",
                "max_f1": "max F1"}
_F1 = Interval(0.0, 1.0, closed="neither")

# The figures fastpr made for itself, and their size before any legend: their legends stand
# below the Axes and the figure grows to hold them. A figure the caller made keeps its size, so
# legends go inside the Axes there, where nothing is cut whatever the caller's layout.
_OWN = weakref.WeakKeyDictionary()
# What is drawn around the curves once per Axes (the unachievable region): listed after the
# rankings' entries, however many calls drew onto the Axes.
_SHARED = weakref.WeakSet()
# Inside the Axes, the legend tries these font sizes, and these label widths in characters
# (None: unwrapped) at each, until it fits; where none fits, the one reaching least beyond.
_INSIDE_FONTS = ("small", "x-small", "xx-small")
_INSIDE_WIDTHS = (None, 40, 28)
# The caption tries these (font size, lines) until it fits above its Axes.
_CAPTION_TRIES = (("medium", 1), ("small", 1), ("medium", 2), ("small", 2), ("x-small", 2))


def new_figure(ncols=1, figsize=None, *, pyplot=True, grows=True):
    """(Figure, Axes or array of Axes): a new figure of one row of ``ncols`` Axes, with a
    constrained layout, whose legends stand below the Axes and which grows to hold them
    (``grows=False``: a figure like the caller's, legends inside the Axes). ``pyplot=False``
    makes it without pyplot (no window, no interactive backend)."""
    if pyplot:
        figure, axes = import_optional("matplotlib.pyplot", "plot").subplots(
            1, ncols, figsize=figsize, layout="constrained")
    else:
        figure = import_optional("matplotlib.figure", "plot").Figure(figsize=figsize,
                                                                     layout="constrained")
        axes = figure.subplots(1, ncols)
    if grows:
        _OWN[figure] = tuple(figure.get_size_inches())
    return figure, axes


def new_axes():
    """Axes of a new figure (:func:`new_figure`)."""
    return new_figure()[1]


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


# The caption each Axes was given, so that fitting it never touches a title of the caller's.
_CAPTIONED = weakref.WeakKeyDictionary()


def set_caption(ax, evaluation):
    """Title the Axes with :func:`caption`, unless the caller titled them already."""
    if not ax.get_title():
        ax.set_title(caption(evaluation), fontsize="medium")
        _CAPTIONED[ax] = ax.get_title()


def _points(size):
    return import_optional("matplotlib.font_manager", "plot").FontProperties(
        size=size).get_size_in_points()


def iso_f_levels(iso_f):
    """The F1 values of the iso-F1 lines that ``iso_f`` asks for: True for
    :data:`ISO_F1_LEVELS`, False, None or ``()`` for none, else each value, in (0, 1)."""
    if iso_f is None or isinstance(iso_f, (bool, np.bool_)):
        return ISO_F1_LEVELS if iso_f else ()
    if isinstance(iso_f, (str, bytes)) or not isinstance(iso_f, Iterable):
        raise InputTypeError("{argument} must be True, False or a sequence of F1 values in "
                             "(0, 1), got {value!r}.", argument="iso_f", value=iso_f)
    return tuple(_F1.check(f"iso_f[{i}]", level) for i, level in enumerate(iso_f))


def metric_name(result):
    """A bootstrap result's metric as legends and the command's table name it ("AUC-PR")."""
    name = METRIC_NAMES.get(result.metric, result.metric)
    if result.metric in ("auc_pr", "auc_npr") and result.method != "interpolated":
        name += f" ({result.method.replace('_', ' ')})"
    return name


def shared(artist):
    """Mark ``artist`` as drawn once for every ranking on its Axes (its legend entry comes last);
    returns it."""
    _SHARED.add(artist)
    return artist


def fit(ax, inside):
    """Finish the Axes' caption and legend so that they fit the figure.

    On a figure of :func:`new_figure` the legend stands below the x-axis label, where it covers
    no curve, label or tick, and the figure grows to hold it. On any other figure (the caller's,
    whose size and layout are the caller's) it stands inside the Axes at ``inside`` (a
    matplotlib ``loc``, scikit-learn's place for the curve), in a smaller font and with its
    labels wrapped where it would not fit them, and a caption too wide for its Axes shrinks or
    breaks before the prevalence.

    Artists drawn with the same label (a curve and its ROC hull or achievable curve) share one
    entry whose handles stand side by side, so the pair reads as one model.
    """
    figure = ax.figure
    own = figure in _OWN
    if not own and figure.get_layout_engine() is not None:
        figure.draw_without_rendering()  # the layout engine places the Axes
    if not own:
        _fit_caption(ax)
    handles, labels = _entries(ax)
    if not handles:
        return None
    handler_map = {tuple: import_optional("matplotlib.legend_handler",
                                          "plot").HandlerTuple(ndivide=None)}
    if own:
        legend = _legend_below(ax, handles, labels, handler_map)
        _grow(figure)
        return legend
    return _legend_inside(ax, handles, labels, handler_map, inside)


def _entries(ax):
    """(handles, labels): one entry per label, a tuple of handles where several artists share
    it, the rankings' entries before the shared ones."""
    grouped = {}
    for handle, label in zip(*ax.get_legend_handles_labels()):
        grouped.setdefault(label, []).append(handle)
    entries = sorted(grouped.items(), key=lambda item: item[1][0] in _SHARED)
    return ([tuple(group) if len(group) > 1 else group[0] for _, group in entries],
            [label for label, _ in entries])


def _legend_below(ax, handles, labels, handler_map):
    # What stands below the x-axis, in points: ticks, tick labels, the axis label (lines of
    # 1.2 font sizes), and a gap.
    rc = import_optional("matplotlib", "plot").rcParams
    below = (rc["xtick.major.size"] + rc["xtick.major.pad"] + 1.2 * _points(rc["xtick.labelsize"])
             + rc["axes.labelpad"] + 1.2 * _points(rc["axes.labelsize"]) + 4.0)
    # A square Axes narrower than its cell sits at the cell's foot: the layout measures what
    # stands below it (the legend) from the cell's foot, so it makes all the room the legend
    # needs, which it does not where the Axes float in the middle of the cell.
    ax.set_anchor("S")
    return ax.legend(handles, labels, handler_map=handler_map, loc="upper center",
                     bbox_to_anchor=(0.5, 0.0), borderaxespad=below / _points("small"),
                     fontsize="small", handlelength=3.0)


def _grow(figure):
    """Grow a figure of :func:`new_figure` from its first size by the height of its tallest
    legend, and widen it where its legends need more width than their Axes have."""
    width, height = _OWN[figure]
    boxes = [ax.get_legend().get_window_extent() for ax in figure.axes if ax.get_legend()]
    inches = 1.0 / figure.dpi
    width = max(width, len(figure.axes) * (max(box.width for box in boxes) * inches + 0.4))
    height += max(box.height for box in boxes) * inches + 0.1
    figure.set_size_inches(width, height)


def _room(ax):
    """The Axes' box as drawn, after their aspect."""
    ax.apply_aspect()
    return ax.get_window_extent()


def _legend_inside(ax, handles, labels, handler_map, loc):
    """The most legible legend at ``loc`` that fits inside the Axes; where none does, the one
    that reaches least beyond them."""
    room = _room(ax)
    longest = max(len(label) for label in labels)
    best = None
    for size in _INSIDE_FONTS:
        for width in _INSIDE_WIDTHS:
            if width is not None and width >= longest:
                continue
            shown = labels if width is None else [
                textwrap.fill(label, width, break_on_hyphens=False) for label in labels]
            legend = ax.legend(handles, shown, handler_map=handler_map, loc=loc, fontsize=size,
                               handlelength=3.0, labelspacing=0.5 if width is None else 0.3)
            box = legend.get_window_extent()
            beyond = max(room.x0 - box.x0, box.x1 - room.x1, room.y0 - box.y0, box.y1 - room.y1)
            if beyond <= 0:
                return legend
            if best is None or beyond < best[0]:
                best = (beyond, shown, size, width)
    _, shown, size, width = best
    return ax.legend(handles, shown, handler_map=handler_map, loc=loc, fontsize=size,
                     handlelength=3.0, labelspacing=0.5 if width is None else 0.3)


def _fit_caption(ax):
    """Shrink, then break before the prevalence, a caption (:func:`set_caption`) that would
    reach past half the gap to a neighbouring Axes or out of the figure."""
    if ax not in _CAPTIONED or ax.get_title().replace("\n(", " (") != _CAPTIONED[ax]:
        return
    text, figure_box = _CAPTIONED[ax], ax.figure.bbox
    room = _room(ax)
    left, right = figure_box.x0, figure_box.x1
    for other in ax.figure.axes:
        box = _room(other)
        if other is ax or box.y1 < room.y0 or box.y0 > room.y1:
            continue
        if box.x1 <= room.x0:
            left = max(left, (box.x1 + room.x0) / 2)
        elif box.x0 >= room.x1:
            right = min(right, (room.x1 + box.x0) / 2)
    for size, lines in _CAPTION_TRIES:
        ax.title.set_text(text if lines == 1 else text.replace(" (", "\n(", 1))
        ax.title.set_fontsize(size)
        box = ax.title.get_window_extent()
        if left <= box.x0 and box.x1 <= right and box.y1 <= figure_box.y1:
            break


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
    return shared(ax.fill_between(_REGION_RECALL, 0.0, min_precision(_REGION_RECALL, prevalence),
                                  color="0.85", zorder=0, label=label))


def draw_iso_f(ax, levels):
    """The lines of constant F1, each labelled just outside the Axes' right edge, where no
    curve can cover the label."""
    for level in levels:
        recall, precision = iso_f_curve(level)
        ax.plot(recall, precision, color="0.6", linewidth=0.6, linestyle=":", zorder=0)
        ax.annotate(f"F1={level:g}", (1.0, precision[-1]), xycoords=("axes fraction", "data"),
                    xytext=(3, 0), textcoords="offset points", fontsize="x-small",
                    color="0.45", ha="left", va="center", annotation_clip=False)


# How each kind of operating point reads in a legend: the rate it finds and its constraint.
_OPERATING_WORDS = {"recall_at_precision": ("recall", "precision >="),
                    "precision_at_recall": ("precision", "recall >="),
                    "tpr_at_fpr": ("TPR", "FPR <="), "tnr_at_tpr": ("TNR", "TPR >=")}


def draw_operating_points(ax, result, space, label, color):
    """Mark an :class:`fastpr.OperatingPoints` at each level where it is defined: the single
    threshold as a dot, the achievable mixture (where it gains) as a star, each in the legend
    with its value and thresholds. ``space`` is "pr" (recall, precision) or "roc" (FPR, TPR)."""
    rate, constraint = _OPERATING_WORDS[result.kind]
    prefix = f"{label}: " if label else ""
    fields = ("level", "value", "threshold", "tp", "fp", "achievable", "high_threshold",
              "low_threshold", "mixing_probability", "achievable_tp", "achievable_fp")
    rows = zip(*(np.atleast_1d(getattr(result, name)).tolist() for name in fields))
    for level, value, threshold, tp, fp, best, high, low, mix, best_tp, best_fp in rows:
        if np.isnan(value):
            continue
        at = f"{rate} at {constraint} {level:g}"
        x, y = _in_space(space, tp, fp, result.n_pos, result.n_neg)
        # (above the star, which it may sit inside where mixing gains little)
        ax.plot([x], [y], linestyle="none", marker="o", markersize=7, color=color,
                markeredgecolor="black", zorder=3.5,
                label=f"{prefix}{at}: {value:.3f} (threshold {threshold:.4g})")
        if best > value:
            x, y = _in_space(space, best_tp, best_fp, result.n_pos, result.n_neg)
            ax.plot([x], [y], linestyle="none", marker="*", markersize=12, color=color,
                    markeredgecolor="black", zorder=3,
                    label=(f"{prefix}achievable: {best:.3f} (threshold {high:.4g}, and "
                           f"{low:.4g} with probability {mix:.2f})"))


def _in_space(space, tp, fp, n_pos, n_neg):
    """A point's coordinates in PR space (recall, precision) or ROC space (FPR, TPR)."""
    if space == "pr":
        return tp / n_pos, (tp / (tp + fp) if tp + fp > 0 else np.nan)
    return fp / n_neg, tp / n_pos
