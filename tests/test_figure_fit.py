"""Every figure fastpr draws fits the image it is saved to: legends, titles, axis labels and
annotations lie inside it whatever the number of models and the length of their names; legends
name what they show as the command's table does."""
import matplotlib
import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

import fastpr
from fastpr import cli, datasets, plot
from fastpr import sklearn as drop_in

matplotlib.use("Agg")
pyplot = pytest.importorskip("matplotlib.pyplot")

LONG = "gradient boosting, 500 trees, depth {k}"  # with "model k: ", 40 characters


def _names(n, long):
    return [f"model {k}: {LONG.format(k=k)}" if long else f"m{k}" for k in range(n)]


def _rankings(n, long=False, n_rows=300):
    y, s = datasets.binormal(n_rows, 0.3, separation=1.0, seed=1)
    rng = np.random.default_rng(0)
    return {name: (y, np.round(s * (1 + 0.3 * k) + rng.normal(0, 0.5 * k + 0.01, y.size), 2))
            for k, name in enumerate(_names(n, long))}


def _outside(figure, path):
    """Each visible artist of the saved figure (Axes' children, the figure's) that reaches out of
    the image, by more than a pixel: (its kind, its text or label, its extent)."""
    if not hasattr(figure.canvas, "get_renderer"):
        FigureCanvasAgg(figure)
    figure.savefig(path)  # bbox_inches=None, as users save by default
    renderer = figure.canvas.get_renderer()
    image = figure.bbox
    found = []
    for parent in (figure, *figure.axes):
        for artist in parent.get_children():
            extent = artist.get_tightbbox(renderer) if artist.get_visible() else None
            if extent is None or not np.all(np.isfinite(extent.extents)):
                continue
            if (extent.x0 < image.x0 - 1 or extent.y0 < image.y0 - 1
                    or extent.x1 > image.x1 + 1 or extent.y1 > image.y1 + 1):
                text = getattr(artist, "get_text", artist.get_label)()
                found.append((type(artist).__name__, text, tuple(np.round(extent.extents))))
    pyplot.close(figure)
    return found


def _legend_texts(ax):
    return [text.get_text() for text in ax.get_legend().get_texts()]


# --------------------------------------------------------------------------- nothing cut
@pytest.mark.parametrize("size", [(4, 3), (10, 6)])
@pytest.mark.parametrize("n, long", [(1, False), (8, True)])
@pytest.mark.parametrize("kind", ["pr", "roc"])
def test_new_figures_hold_their_legends(tmp_path, kind, n, long, size):
    # Eight models with long names pushed the Axes out of a new figure's constrained layout.
    with pyplot.rc_context({"figure.figsize": size}):
        ax = plot.plot_comparison(_rankings(n, long), kind=kind,
                                  **({"linear": True} if kind == "pr" else {}))
    assert len(_legend_texts(ax)) == n * (2 if kind == "pr" else 1) + (kind == "pr")
    assert _outside(ax.figure, tmp_path / "f.png") == []


def test_a_new_figure_holds_a_bootstrap_band(tmp_path):
    y, s = _rankings(1)["m0"]
    with pyplot.rc_context({"figure.figsize": (4, 3)}):
        ax = plot.plot_pr(y, s, label=_names(1, True)[0],
                          bootstrap=fastpr.bootstrap(y, s, n_boot=20, seed=1))
    assert _outside(ax.figure, tmp_path / "f.png") == []


def _draw_on(axes, kind, rankings):
    """Draw ``rankings`` onto the caller's two Axes: all on the left, the first on the right."""
    first = dict([next(iter(rankings.items()))])
    if kind in ("pr", "roc"):
        plot.plot_comparison(rankings, kind=kind, ax=axes[0])
        plot.plot_comparison(first, kind=kind, ax=axes[1])
        return
    display = getattr(drop_in, kind)
    for ax, drawn in ((axes[0], rankings), (axes[1], first)):
        for name, (y, s) in drawn.items():
            display.from_predictions(y, s, name=name, ax=ax)


_KINDS = ["pr", "roc", "PrecisionRecallDisplay", "RocCurveDisplay", "DetCurveDisplay"]


# (A constrained layout lays the figure out at each call: two kinds are enough there.)
@pytest.mark.parametrize("kind, size, layout", [
    *((kind, size, None) for kind in _KINDS for size in ((6.4, 4.8), (10, 6))),
    ("pr", (6.4, 4.8), "constrained"), ("RocCurveDisplay", (6.4, 4.8), "constrained")])
def test_figures_on_the_caller_s_axes_keep_their_legends_inside(tmp_path, kind, size, layout):
    # In the caller's plt.subplots(1, 2) the legend stood below the Axes, out of the figure,
    # and the areas with it (scikit-learn keeps its legend inside the Axes).
    figure, axes = pyplot.subplots(1, 2, figsize=size, layout=layout)
    _draw_on(axes, kind, _rankings(8, long=True))
    boxes = [ax.get_window_extent() for ax in axes]  # (follow the Axes as they are drawn)
    legends = [ax.get_legend() for ax in axes]
    assert _outside(figure, tmp_path / "f.png") == []
    for box, legend in zip(boxes, legends):
        inside = legend.get_window_extent()
        assert box.x0 - 1 <= inside.x0 and inside.x1 <= box.x1 + 1
        assert box.y0 - 1 <= inside.y0 and inside.y1 <= box.y1 + 1


def test_a_small_constrained_figure_of_the_caller_s_fits(tmp_path):
    figure = Figure(figsize=(4, 3), layout="constrained")
    rankings = _rankings(3, long=True)
    plot.plot_comparison(rankings, ax=figure.subplots(), linear=True)
    assert _outside(figure, tmp_path / "f.png") == []


@pytest.mark.parametrize("n, long", [(3, False), (8, False), (8, True)])
def test_the_command_s_figure_holds_its_legends(tmp_path, monkeypatch, n, long):
    # With three models and --bootstrap the last legend entry was cut off the bottom of the
    # image; with four, the captions off the top too.
    y, _ = _rankings(1)["m0"]
    rankings = _rankings(n, long)
    names = [name.replace(",", "").replace(":", "") for name in rankings]  # CSV column names
    path = tmp_path / "t.csv"
    np.savetxt(path, np.column_stack([y, *(s for _, s in rankings.values())]), delimiter=",",
               header=",".join(["is_fraud", *names]), comments="", fmt="%g")
    saved = []
    savefig = Figure.savefig
    monkeypatch.setattr(Figure, "savefig",
                        lambda figure, *a, **k: saved.append(figure) or savefig(figure, *a, **k))
    assert cli.main(["evaluate", str(path), "--label", "is_fraud",
                     *(word for name in names for word in ("--score", name)),
                     "--bootstrap", "20", "--plot", str(tmp_path / "curves.png")]) == 0
    (figure,) = saved
    roc, pr = figure.axes
    assert len(_legend_texts(roc)) == n and len(_legend_texts(pr)) == 2 * n + 1
    monkeypatch.setattr(Figure, "savefig", savefig)
    assert _outside(figure, tmp_path / "again.png") == []


# --------------------------------------------------------------------------- what legends say
def test_legends_name_each_band_and_the_metric_as_the_table_does():
    # The bootstrap band and the achievable curve's band were both pale patches of the curve's
    # colour, and the band's entry said "auc_pr" where every other said "AUC-PR".
    y, s = _rankings(1)["m0"]
    ax = plot.plot_pr(y, s, label="a", iso_f=(),
                      bootstrap=fastpr.bootstrap(y, s, n_boot=20, seed=1))
    texts = _legend_texts(ax)
    assert texts[0].startswith("a: AUC-PR ") and ", achievable " in texts[0]
    assert texts[1].startswith("a: 95% bootstrap band, AUC-PR ") and texts[1].endswith(
        "(percentile)")
    assert texts[2].startswith("unachievable") and not any("auc_" in text for text in texts)
    # The band is hatched, in the legend as on the Axes; the achievable curve's is not.
    band_handle = ax.get_legend().legend_handles[1]
    assert band_handle.get_hatch() and ax.patches[0].get_hatch()
    assert all(not hasattr(line, "get_hatch") for line in ax.get_lines())
    roc = fastpr.bootstrap(y, s, n_boot=20, seed=1, metric="auc_roc")
    ax = plot.plot_pr(y, s, label="a", iso_f=(), achievable=False, bootstrap=roc)
    assert "95% bootstrap band, AUC-ROC " in _legend_texts(ax)[1]


def test_shared_entries_come_after_every_model_s():
    # The command draws one plot_pr per model onto one Axes: the unachievable region's entry
    # stood between the first model's and the second's.
    rankings = _rankings(2)
    ax = pyplot.subplots()[1]
    for k, (name, (y, s)) in enumerate(rankings.items()):
        plot.plot_pr(y, s, ax=ax, label=name, **({"unachievable": False} if k else {}))
    assert [text.split(":")[0] for text in _legend_texts(ax)][:2] == ["m0", "m1"]
    assert _legend_texts(ax)[2].startswith("unachievable")
    pyplot.close(ax.figure)


# --------------------------------------------------------------------------- iso_f
def _iso_lines(ax):
    return [line for line in ax.get_lines() if line.get_linestyle() == ":"]


def test_iso_f_true_draws_the_default_levels():
    # PrecisionRecallDisplay.plot(iso_f=True) raised TypeError: object of type 'bool' has no
    # len().
    y, s = _rankings(1)["m0"]
    display = drop_in.PrecisionRecallDisplay.from_predictions(y, s, iso_f=True)
    assert len(_iso_lines(display.ax_)) == len(plot.ISO_F1_LEVELS)
    assert _iso_lines(display.plot(iso_f=False).ax_) == []  # on a new figure
    assert len(_iso_lines(plot.plot_pr(y, s, iso_f=True))) == len(plot.ISO_F1_LEVELS)
    assert _iso_lines(plot.plot_pr(y, s, iso_f=False)) == []
    pyplot.close("all")


@pytest.mark.parametrize("iso_f, error, match", [
    (0.5, TypeError, r"iso_f must be True, False or a sequence of F1 values in \(0, 1\), got 0.5"),
    ("0.5", TypeError, "iso_f must be True, False or a sequence"),
    ((0.5, 1.5), ValueError, r"iso_f\[1\] must be in the open interval \(0.0, 1.0\), got 1.5"),
    ([0.5, None], TypeError, r"iso_f\[1\] must be a real number, got None"),
])
def test_iso_f_is_checked(iso_f, error, match):
    y, s = _rankings(1)["m0"]
    for draw in (lambda: plot.plot_pr(y, s, iso_f=iso_f),
                 lambda: drop_in.PrecisionRecallDisplay.from_predictions(y, s, iso_f=iso_f)):
        with pytest.raises(error, match=match):
            draw()
    pyplot.close("all")


# --------------------------------------------------------------------------- DET ticks
def _drawn_tick_labels(axis, renderer):
    low, high = sorted(axis.get_view_interval())
    return [label.get_window_extent(renderer) for loc, label in
            zip(axis.get_majorticklocs(), axis.get_ticklabels()) if low <= loc <= high]


@pytest.mark.parametrize("size", [(6.4, 4.8), (4, 3)])
def test_det_tick_labels_stand_apart_on_narrow_axes(tmp_path, size):
    # In plt.subplots(1, 2) the rate labels ran into each other ("95%99%").
    y, s = _rankings(1)["m0"]
    figure, axes = pyplot.subplots(1, 2, figsize=size, layout="constrained")
    for ax in axes:
        drop_in.DetCurveDisplay.from_predictions(y, s, ax=ax)
    figure.savefig(tmp_path / "d.png")
    renderer = figure.canvas.get_renderer()
    for ax in axes:
        xs = sorted(_drawn_tick_labels(ax.xaxis, renderer), key=lambda box: box.x0)
        ys = sorted(_drawn_tick_labels(ax.yaxis, renderer), key=lambda box: box.y0)
        assert len(xs) >= 3 and len(ys) >= 3
        assert all(a.x1 < b.x0 for a, b in zip(xs, xs[1:]))
        assert all(a.y1 < b.y0 for a, b in zip(ys, ys[1:]))
    pyplot.close(figure)


# --------------------------------------------------------------------------- operating points
_MARKS = {"pr": {"min_precision": 0.6, "min_recall": [0.3, 0.8]},
          "roc": {"max_fpr": [0.05, 0.2], "min_tpr": 0.9}}
_ONE_MARK = {"pr": {"min_precision": 0.6}, "roc": {"max_fpr": 0.1}}


@pytest.mark.parametrize("size", [(4, 3), (6.4, 4.8), (10, 6)])
@pytest.mark.parametrize("n", [1, 3])
@pytest.mark.parametrize("kind", ["pr", "roc"])
def test_operating_point_marks_fit_new_figures_and_the_caller_s(tmp_path, kind, n, size):
    rankings = _rankings(n, long=n > 1)
    marks = _MARKS[kind] if n == 1 else _ONE_MARK[kind]
    with pyplot.rc_context({"figure.figsize": size}):
        ax = plot.plot_comparison(rankings, kind=kind, **marks)
    texts = _legend_texts(ax)
    # A dot per level and ranking, with its value and threshold; stars where mixing gains.
    n_levels = sum(np.size(levels) for levels in marks.values())
    assert sum(" at " in text and "(threshold" in text for text in texts) == n_levels * n
    assert any(": achievable: " in text for text in texts)
    assert _outside(ax.figure, tmp_path / "new.png") == []
    # (4 x 3 inches hold one Axes of the caller's, as a constrained layout places it, and a
    # legend inside it of one model's marks, not three's: that many entries do not fit there)
    small = size == (4, 3)
    if small and n > 1:
        return
    figure, axes = pyplot.subplots(1, 1 if small else 2, figsize=size,
                                   layout="constrained" if small else None, squeeze=False)
    for ax, drawn in zip(axes[0], (rankings, dict([next(iter(rankings.items()))]))):
        plot.plot_comparison(drawn, kind=kind, ax=ax, **marks)
    assert _outside(figure, tmp_path / "own.png") == []


def test_operating_point_marks_sit_on_the_curve_and_the_hull():
    y, s = _rankings(1)["m0"]
    ax = plot.plot_pr(y, s, min_precision=0.6)
    result = fastpr.recall_at_precision(y, s, 0.6)
    marks = {line.get_marker(): line.get_xydata()[0] for line in ax.get_lines()
             if line.get_marker() in ("o", "*")}
    assert marks["o"].tolist() == [result.recall, result.precision]
    tp, fp = result.achievable_tp, result.achievable_fp
    assert marks["*"] == pytest.approx([tp / result.n_pos, tp / (tp + fp)])
    assert marks["*"][1] == pytest.approx(0.6)  # (the achievable point meets the level exactly)
    pyplot.close(ax.figure)
