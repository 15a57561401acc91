"""fastpr.interpolated_pr_curve against the brute-force oracle, and fastpr.plot's drawings."""
import sys
import warnings

import matplotlib
import matplotlib.image
import numpy as np
import pytest
import reference as ref
from hypothesis import given
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from strategies import SETTINGS, rankings

import fastpr
from fastpr import datasets, plot
from fastpr import sklearn as drop_in

matplotlib.use("Agg")


# --------------------------------------------------------------------------- the drawn curve
@SETTINGS
@given(rankings())
def test_interpolated_curve_runs_along_every_segment(ranking):
    """Every drawn point lies on a segment between neighbouring brute-force operating points,
    with fp linear in tp there, and the operating points are all drawn."""
    y, s, w = ranking
    step = 0.1
    curve = fastpr.interpolated_pr_curve(y, s, sample_weight=w, max_recall_step=step)
    points = [(float(tp), float(fp)) for tp, fp in ref.counts(ref.operating_points(y, s, w))]
    n_pos = points[-1][0]
    drawn = list(zip(curve.tp.tolist(), curve.fp.tolist()))
    for tp, fp in points:
        assert any(np.isclose(tp, a) and np.isclose(fp, b) for a, b in drawn)
    k = 0  # index of the segment that holds the current drawn point
    for tp, fp in drawn[1:]:
        while not (points[k][0] - 1e-9 <= tp <= points[k + 1][0] + 1e-9
                   and points[k][1] - 1e-9 <= fp <= points[k + 1][1] + 1e-9):
            k += 1
        (tp_a, fp_a), (tp_b, fp_b) = points[k], points[k + 1]
        if tp_b > tp_a:
            assert fp == pytest.approx(fp_a + (fp_b - fp_a) * (tp - tp_a) / (tp_b - tp_a),
                                       rel=1e-9, abs=1e-9)
    assert np.all(np.diff(curve.recall) <= step + 1e-12)
    called = curve.tp + curve.fp
    inside = called > 0
    np.testing.assert_allclose(curve.precision[inside], curve.tp[inside] / called[inside])
    np.testing.assert_allclose(curve.recall, curve.tp / n_pos)


def test_interpolated_curve_area_is_the_interpolated_auc_pr():
    """Trapezoids under a densely drawn curve converge to auc_pr(method="interpolated")."""
    y, s = datasets.reversal_rankings()[:2]
    curve = fastpr.interpolated_pr_curve(y, s, max_recall_step=1e-4)
    area = np.sum(np.diff(curve.recall) * (curve.precision[1:] + curve.precision[:-1]) / 2)
    assert area == pytest.approx(fastpr.auc_pr(y, s), abs=1e-5)


def test_interpolated_curve_of_each_row():
    y, a, b = datasets.reversal_rankings()
    curves = fastpr.interpolated_pr_curve(y, np.stack([a, b]), max_recall_step=0.05)
    for curve, s in zip(curves, (a, b)):
        single = fastpr.interpolated_pr_curve(y, s, max_recall_step=0.05)
        np.testing.assert_array_equal(curve.precision, single.precision)
        np.testing.assert_array_equal(curve.recall, single.recall)


def test_interpolated_curve_rejects_a_bad_step():
    with pytest.raises(ValueError, match=r"max_recall_step must be in the half-open interval "
                                         r"\(0, 1\], got 0"):
        fastpr.interpolated_pr_curve([0, 1], [0.1, 0.2], max_recall_step=0)
    # Within the interval, but too many points: their int64 count wrapped into a NumPy error.
    with pytest.raises(ValueError, match=r"max_recall_step=1e-300 would draw 1e\+300 points"):
        fastpr.interpolated_pr_curve([0, 1], [0.1, 0.2], max_recall_step=1e-300)


# --------------------------------------------------------------------------- drawings
def _axes():
    return Figure().subplots()


def _legend(ax):
    """The legend's entries, each on one line (inside the caller's Axes, long ones wrap)."""
    return [text.get_text().replace("\n", " ") for text in ax.get_legend().get_texts()]


def _line(ax, label):
    """The first line drawn with ``label``."""
    return next(line for line in ax.get_lines() if line.get_label() == label)


def test_plot_roc_draws_the_curve_and_its_hull():
    y, s = datasets.skewed_ranking(n_samples=3000)
    ax = plot.plot_roc(y, s, ax=_axes(), label="m")
    e = fastpr.evaluate(y, s)
    label = f"m: AUC-ROC {e.auc_roc:.3f}, hull {e.auc_roc_hull:.3f}"
    curve, hull = [line for line in ax.get_lines() if line.get_label() == label]
    roc, vertices = fastpr.roc_points(y, s), fastpr.roc_convex_hull(y, s)
    np.testing.assert_array_equal(curve.get_xdata(), roc.fpr)
    np.testing.assert_array_equal(curve.get_ydata(), roc.tpr)
    np.testing.assert_array_equal(hull.get_xdata(), vertices.fpr)
    np.testing.assert_array_equal(hull.get_ydata(), vertices.tpr)
    # The hull is told apart from the curve: same colour, a wider pale band behind it.
    assert hull.get_color() == curve.get_color()
    assert hull.get_linewidth() >= 3 * curve.get_linewidth() and hull.get_alpha() < 0.5
    assert hull.get_zorder() < curve.get_zorder()
    assert _legend(ax) == [label]  # one entry for the pair
    assert ax.get_legend().legend_handles[0] is not None


@pytest.mark.parametrize("y, s", [([1, 0, 1, 0], [1, 1, 0, 0]),
                                  ([0, 1, 0, 1, 1, 0, 0, 0], [0.5] * 8)])
def test_the_linear_line_has_the_area_in_its_legend(y, s):
    # It was drawn from the origin's precision (the first segment's), 0.5 here, while the
    # linear estimator starts from (0, 1): a flat line of area 0.5 labelled 0.625.
    ax = plot.plot_pr(y, s, ax=_axes(), linear=True, achievable=False, iso_f=())
    _, linear = ax.get_lines()
    recall, precision = linear.get_xdata(), linear.get_ydata()
    area = float(np.sum(np.diff(recall) * (precision[1:] + precision[:-1]) / 2))
    assert area == pytest.approx(fastpr.evaluate(y, s).auc_pr_linear, rel=1e-12)


def test_plot_pr_draws_every_part():
    y, s = datasets.binormal(500, 0.3, seed=1)
    s = np.round(s)
    ax = plot.plot_pr(y, s, ax=_axes(), linear=True, iso_f=(0.3, 0.6))
    curve, linear, achievable, _iso_a, iso_b = ax.get_lines()
    drawn = fastpr.interpolated_pr_curve(y, s)
    np.testing.assert_array_equal(curve.get_xdata(), drawn.recall)
    np.testing.assert_array_equal(curve.get_ydata(), drawn.precision)
    points = fastpr.pr_curve(y, s)
    np.testing.assert_array_equal(linear.get_ydata()[1:], points.precision[1:])
    np.testing.assert_array_equal(achievable.get_ydata(), fastpr.achievable_pr_curve(y, s).precision)
    assert linear.get_linestyle() == "--"
    assert achievable.get_color() == curve.get_color()
    assert achievable.get_linewidth() >= 3 * curve.get_linewidth() and achievable.get_alpha() < 0.5
    np.testing.assert_array_equal(iso_b.get_ydata(), fastpr.iso_f_curve(0.6)[1])
    (region,) = ax.collections
    top = region.get_paths()[0].vertices[:, 1].max()
    assert top == pytest.approx(fastpr.evaluate(y, s).prevalence)  # p_min(1) is the prevalence
    e = fastpr.evaluate(y, s)
    assert _legend(ax) == [f"AUC-PR {e.auc_pr:.3f}, achievable {e.auc_pr_hull:.3f}",
                           f"linear (wrong): AUC-PR {e.auc_pr_linear:.3f}",
                           (f"unachievable (prevalence {e.prevalence:.3g}; "
                            f"AUC-PR min {e.auc_pr_min:.3f})")]


@pytest.mark.parametrize("interval", ["percentile", "basic"])
def test_bootstrap_shading_lies_between_two_replicate_curves(interval):
    y, s = datasets.binormal(300, 0.3, seed=4)
    result = fastpr.bootstrap(y, s, n_boot=50, seed=9, interval=interval)
    ax = plot.plot_pr(y, s, ax=_axes(), bootstrap=result, achievable=False, unachievable=False,
                      iso_f=())
    (shade,) = ax.patches
    outline = shade.get_xy()
    # The replicates whose areas are nearest the interval's ends (basic: the quantiles it
    # reflects), found here by sorting instead of by distance.
    values = np.sort(result.replicates)
    quantiles = np.quantile(result.replicates, [0.025, 0.975])
    ends = []
    for q in quantiles:
        nearest = values[np.argmin(np.abs(values - q))]
        replicate = int(np.flatnonzero(result.replicates == nearest)[0])
        sample = fastpr.bootstrap_sample(y, s, replicate, seed=9)
        ends.append(fastpr.interpolated_pr_curve(sample[0], sample[1], sample_weight=sample[2]))
    n = ends[0].recall.size
    np.testing.assert_array_equal(outline[:n, 0], ends[0].recall)
    np.testing.assert_array_equal(outline[n:n + ends[1].recall.size, 1], ends[1].precision[::-1])
    assert _legend(ax)[1] == (f"95% bootstrap band, AUC-PR {result.low:.3f} to {result.high:.3f} "
                              f"({interval})")


def test_bootstrap_must_be_a_bootstrap_result():
    with pytest.raises(TypeError, match="bootstrap must be of type BootstrapResult, got tuple"):
        plot.plot_pr([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], ax=_axes(), bootstrap=(0.1, 0.9))


@pytest.mark.parametrize("label", [0, 1])
def test_pr_display_of_one_class_leaves_out_the_unachievable_region(label):
    # It raised about "prevalence", an argument the caller never passed.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", fastpr.UndefinedMetricWarning)
        display = drop_in.PrecisionRecallDisplay.from_predictions(
            [label] * 3, [0.1, 0.5, 0.9], ax=_axes(), unachievable=True)
    assert not display.ax_.collections


@pytest.mark.parametrize("call, error, match", [
    # IndexError, TypeError about internal functions, or a string taken as True, before.
    (lambda: plot.plot_comparison({}), ValueError, "rankings is empty"),
    (lambda: plot.plot_comparison({"a": ([1, 0],)}), TypeError, r"rankings\['a'\] must be"),
    (lambda: plot.plot_comparison({"a": ([1, 0], [0.5, 0.2], None, 1)}), TypeError,
     r"rankings\['a'\] must be"),
    (lambda: plot.plot_comparison({"a": ([1, 0], [0.5, 0.2])}, kind="roc", achievable=True),
     TypeError, "achievable is not an option of kind='roc' figures"),
    (lambda: plot.plot_pr([1, 0], [0.5, 0.2], achievable="no"), TypeError,
     "achievable must be True or False"),
    (lambda: plot.plot_roc([1, 0], [0.5, 0.2], hull="no"), TypeError,
     "hull must be True or False"),
])
def test_figure_options_are_checked(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_bootstrap_of_other_data_is_refused():
    # Its band was redrawn from these rows and labelled with the other data's interval.
    y, s = datasets.binormal(300, 0.3, seed=4)
    weights = np.random.default_rng(2).uniform(0.5, 2.0, y.size)
    for other, plotted in [(fastpr.bootstrap(y, s, n_boot=20, seed=9), (y[:150], s[:150])),
                           (fastpr.bootstrap(y, s, n_boot=20, seed=9, sample_weight=weights),
                            (y, s))]:
        with pytest.raises(ValueError, match="bootstrap is the bootstrap of other data"):
            plot.plot_pr(*plotted, ax=_axes(), bootstrap=other)


def test_plot_pr_can_leave_out_the_extras():
    y, s = datasets.skewed_ranking(n_samples=2000)
    ax = plot.plot_pr(y, s, ax=_axes(), achievable=False, unachievable=False, iso_f=())
    assert len(ax.get_lines()) == 1 and not ax.collections


def test_plot_comparison_draws_the_region_once():
    y, a, b = datasets.reversal_rankings()
    ax = plot.plot_comparison({"A": (y, a), "B": (y, b, np.ones(y.size))}, ax=_axes(),
                              achievable=False)
    assert len(ax.collections) == 1
    # At prevalence 0.0099 the region is too thin to see: drawn, but not listed.
    assert _legend(ax) == ["A: AUC-PR 0.514", "B: AUC-PR 0.038"]
    roc = plot.plot_comparison({"A": (y, a), "B": (y, b)}, kind="roc", ax=_axes(), hull=False)
    assert _legend(roc) == ["A: AUC-ROC 0.813", "B: AUC-ROC 0.875"]
    assert len(roc.get_lines()) == 3  # one diagonal


def test_plot_comparison_rejects_an_unknown_kind():
    with pytest.raises(ValueError, match="kind must be one of 'pr', 'roc'; got 'det'"):
        plot.plot_comparison({}, kind="det")


@pytest.mark.parametrize("prevalence", [0.02, 0.3])
def test_unachievable_region_is_listed_only_where_it_can_be_seen(prevalence):
    y, s = datasets.binormal(2000, prevalence, seed=2)
    ax = plot.plot_pr(y, s, ax=_axes(), iso_f=())
    (region,) = ax.collections
    listed = any(text.startswith("unachievable") for text in _legend(ax))
    height = region.get_paths()[0].vertices[:, 1].max()  # on a unit square
    assert listed == (height >= 0.05)


def _caption_oracle(y_true, weight=None):
    weight = np.ones(len(y_true)) if weight is None else np.asarray(weight, dtype=float)
    positive = np.asarray(y_true) == 1
    n, p = weight.sum(), weight[positive].sum()
    if weight.dtype == float and np.all(weight == 1):
        return f"{int(n):,} examples, {int(p):,} positive (prevalence {p / n:.3g})"
    return f"weight {n:,.4g}, {p:,.4g} positive (prevalence {p / n:.3g})"


def test_caption_gives_examples_positives_and_prevalence():
    y, s = datasets.binormal(1234, 0.2, seed=5)
    assert plot.plot_pr(y, s, ax=_axes()).get_title() == _caption_oracle(y)
    w = np.linspace(0.5, 1.5, y.size)
    assert plot.plot_roc(y, s, sample_weight=w, ax=_axes()).get_title() == _caption_oracle(y, w)
    titled = _axes()
    titled.set_title("mine")
    assert plot.plot_pr(y, s, ax=titled).get_title() == "mine"
    other = datasets.binormal(500, 0.5, seed=6)
    mixed = plot.plot_comparison({"a": (y, s), "b": other}, ax=_axes())
    assert mixed.get_title() == ""  # no one caption describes two data sets


# --------------------------------------------------------------------------- legend placement
def _overlaps(a, b):
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


def _legend_collisions(figure):
    """What each legend covers in the drawn figure: any Axes' data area, tick labels, axis
    labels, titles or annotations (the iso-F1 labels)."""
    canvas = FigureCanvasAgg(figure)
    canvas.draw()  # lays the figure out
    renderer = canvas.get_renderer()
    covered = []
    for ax in figure.axes:
        legend = ax.get_legend()
        if legend is None:
            continue
        box = legend.get_window_extent(renderer)
        for other in figure.axes:
            parts = [("data area", other.get_window_extent(renderer)),
                     ("x-axis", other.xaxis.get_tightbbox(renderer)),
                     ("y-axis", other.yaxis.get_tightbbox(renderer)),
                     ("title", other.title.get_window_extent(renderer))]
            parts += [(text.get_text(), text.get_window_extent(renderer)) for text in other.texts]
            covered += [name for name, part in parts if part is not None and _overlaps(box, part)]
    return covered


def _five_models():
    y, s = datasets.binormal(3000, 0.2, separation=1.0, seed=1)
    rng = np.random.default_rng(0)
    return {f"model_{k}": (y, s * (1 + 0.3 * k) + rng.normal(0, 0.5 * k + 0.01, y.size))
            for k in range(5)}


def test_legends_cover_nothing_with_five_models():
    # On a figure of fastpr's own (as the command draws), where the legends stand below.
    figure, (roc, pr) = plot.drawing.new_figure(2, (11, 5.5), pyplot=False)
    rankings = _five_models()
    plot.plot_comparison(rankings, kind="roc", ax=roc)
    plot.plot_comparison(rankings, kind="pr", ax=pr, linear=True)
    assert len(_legend(pr)) == 11  # 5 pairs, 5 linear curves and the region
    assert _legend_collisions(figure) == []
    # The check can fail: the same legend inside the Axes covers the curves and F1 labels.
    pr.legend(loc="upper right")
    assert "data area" in _legend_collisions(figure)


def test_new_figures_make_room_for_the_legend():
    y, s = datasets.binormal(2000, 0.3, seed=3)
    ax = plot.plot_pr(y, np.round(s), label="model", linear=True)
    figure = ax.figure
    assert _legend_collisions(figure) == []
    renderer = figure.canvas.get_renderer()
    inside = figure.bbox
    legend = ax.get_legend().get_window_extent(renderer)
    assert inside.x0 <= legend.x0 and legend.x1 <= inside.x1 and inside.y0 <= legend.y0


def _pixels_vary(path):
    image = matplotlib.image.imread(path)
    return image.shape[0] > 100 and image[..., :3].std() > 0.05


def test_saved_figure_is_not_blank(tmp_path):
    figure = Figure()
    plot.plot_pr(*datasets.reversal_rankings()[:2], ax=figure.subplots(), linear=True)
    path = tmp_path / "pr.png"
    figure.savefig(path)
    assert path.stat().st_size > 10_000
    assert _pixels_vary(path)
    blank = tmp_path / "blank.png"
    Figure().savefig(blank)
    assert not _pixels_vary(blank)


def test_missing_matplotlib_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    with pytest.raises(ImportError, match=r'pip install "fastpr\[plot\]"'):
        plot.plot_roc([0, 1], [0.1, 0.2])


# --------------------------------------------------------------------------- displays
def _weighted_strings():
    y, s = datasets.binormal(400, 0.3, seed=7)
    labels = np.where(y == 1, "spam", "ham")
    weight = np.random.default_rng(1).uniform(0.2, 2.0, y.size)
    return labels, np.round(s, 1), weight  # ties, weights, text labels


def test_pr_display_attributes_equal_the_reference_values():
    from sklearn.metrics import average_precision_score

    y, s, w = _weighted_strings()
    d = drop_in.PrecisionRecallDisplay.from_predictions(y, s, sample_weight=w, pos_label="spam",
                                                        name="m", ax=_axes())
    curve = fastpr.interpolated_pr_curve(y, s, sample_weight=w, pos_label="spam")
    np.testing.assert_array_equal(d.precision, curve.precision)
    np.testing.assert_array_equal(d.recall, curve.recall)
    assert d.average_precision == pytest.approx(
        average_precision_score(y, s, sample_weight=w, pos_label="spam"), abs=1e-12)
    assert d.auc_pr == fastpr.auc_pr(y, s, sample_weight=w, pos_label="spam")
    assert d.prevalence_pos_label == pytest.approx(w[y == "spam"].sum() / w.sum(), abs=1e-12)
    assert d.name == d.estimator_name == "m" and d.pos_label == "spam"
    assert d.line_ in d.ax_.get_lines() and d.figure_ is d.ax_.figure
    assert d.chance_level_ is None
    assert d.evaluation == fastpr.evaluate(y, s, sample_weight=w, pos_label="spam")
    assert _legend(d.ax_) == [f"m: AUC-PR {d.auc_pr:.3f}"]
    assert d.ax_.get_xlabel() == "recall (positive label: spam)"


@pytest.mark.parametrize("drop_intermediate", [True, False])
def test_roc_and_det_display_attributes_equal_scikit_learn(drop_intermediate):
    from sklearn.metrics import det_curve, roc_auc_score, roc_curve

    y, s, w = _weighted_strings()
    d = drop_in.RocCurveDisplay.from_predictions(y, s, sample_weight=w, pos_label="spam",
                                                 ax=_axes(), drop_intermediate=drop_intermediate)
    fpr, tpr, _ = roc_curve(y, s, sample_weight=w, pos_label="spam",
                            drop_intermediate=drop_intermediate)
    np.testing.assert_allclose(d.fpr, fpr, rtol=0, atol=1e-12)
    np.testing.assert_allclose(d.tpr, tpr, rtol=0, atol=1e-12)
    assert d.roc_auc == pytest.approx(roc_auc_score(y == "spam", s, sample_weight=w), abs=1e-12)
    det = drop_in.DetCurveDisplay.from_predictions(y, s, sample_weight=w, pos_label="spam",
                                                   ax=_axes(), drop_intermediate=drop_intermediate)
    fpr, fnr, _ = det_curve(y, s, sample_weight=w, pos_label="spam",
                            drop_intermediate=drop_intermediate)
    np.testing.assert_allclose(det.fpr, fpr, rtol=0, atol=1e-12)
    np.testing.assert_allclose(det.fnr, fnr, rtol=0, atol=1e-12)


def test_pr_display_takes_drop_intermediate_and_draws_the_same_curve():
    # scikit-learn's argument: the points it drops lie on the vertical segment between the
    # first and last point of their recall, so the interpolated curve does not change.
    y, s, w = _weighted_strings()
    kept = drop_in.PrecisionRecallDisplay.from_predictions(y, s, sample_weight=w,
                                                           pos_label="spam", ax=_axes())
    dropped = drop_in.PrecisionRecallDisplay.from_predictions(y, s, sample_weight=w,
                                                              pos_label="spam", ax=_axes(),
                                                              drop_intermediate=np.True_)
    np.testing.assert_array_equal(dropped.precision, kept.precision)
    np.testing.assert_array_equal(dropped.recall, kept.recall)
    with pytest.raises(TypeError, match="drop_intermediate must be True or False"):
        drop_in.PrecisionRecallDisplay.from_predictions(y, s, ax=_axes(), drop_intermediate="yes")


@pytest.mark.parametrize("missing", ["positives", "negatives"])
def test_roc_display_of_one_class_has_nan_rates_and_only_the_metric_warning(missing):
    y = np.full(20, missing == "negatives")
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # no 0/0 from NumPy
        with pytest.warns(fastpr.UndefinedMetricWarning):
            d = drop_in.RocCurveDisplay.from_predictions(y, np.linspace(0, 1, 20), ax=_axes())
    rate, defined = (d.tpr, d.fpr) if missing == "positives" else (d.fpr, d.tpr)
    assert np.isnan(rate).all() and defined[-1] == 1.0 and np.isnan(d.roc_auc)


def test_plot_draws_again_onto_a_given_axes_with_a_new_name():
    y, s = datasets.binormal(300, 0.4, seed=8)
    d = drop_in.RocCurveDisplay.from_predictions(y, s, name="first", ax=_axes())
    ax = _axes()
    assert d.plot(ax, name="second", hull=True, curve_kwargs={"color": "red"}) is d
    assert d.ax_ is ax and d.figure_ is ax.figure
    e = fastpr.evaluate(y, s)
    label = f"second: AUC-ROC {e.auc_roc:.3f}, hull {e.auc_roc_hull:.3f}"
    assert _legend(ax) == [label]
    assert d.line_.get_color() == "red" and _line(ax, label) is d.line_
    pr = drop_in.PrecisionRecallDisplay.from_predictions(y, s, ax=_axes())
    assert pr.plot(ax=_axes(), name="again", achievable=True, unachievable=True,
                   iso_f=plot.ISO_F1_LEVELS) is pr
    assert _legend(pr.ax_)[0] == f"again: AUC-PR {e.auc_pr:.3f}, achievable {e.auc_pr_hull:.3f}"


def test_chance_level_lies_at_the_prevalence():
    y, s = datasets.binormal(500, 0.23, seed=9)
    prevalence = np.mean(y == 1)
    d = drop_in.PrecisionRecallDisplay.from_predictions(y, s, name="m", plot_chance_level=True,
                                                        ax=_axes())
    np.testing.assert_allclose(d.chance_level_.get_ydata(), [prevalence, prevalence])
    np.testing.assert_array_equal(d.chance_level_.get_xdata(), [0, 1])
    assert f"chance: AUC-PR {prevalence:.3f}" in _legend(d.ax_)
    r = drop_in.RocCurveDisplay.from_predictions(y, s, plot_chance_level=True, ax=_axes(),
                                         chance_level_kw={"color": "green"})
    np.testing.assert_array_equal(r.chance_level_.get_ydata(), [0, 1])
    assert r.chance_level_.get_color() == "green"


def test_displays_made_from_arrays_refuse_what_needs_the_ranking():
    bare = drop_in.PrecisionRecallDisplay([1.0, 0.5], [0.0, 1.0], average_precision=0.7)
    with pytest.raises(ValueError, match="plot_chance_level needs prevalence_pos_label"):
        bare.plot(_axes(), plot_chance_level=True)
    with pytest.raises(ValueError, match="achievable needs the ranking"):
        bare.plot(_axes(), achievable=True)
    assert _legend(bare.plot(_axes(), name="sk").ax_) == ["sk: AP 0.700"]
    with pytest.raises(ValueError, match="hull needs the ranking"):
        drop_in.RocCurveDisplay([0.0, 1.0], [0.0, 1.0]).plot(_axes(), hull=True)


def _fitted(model):
    from sklearn.datasets import make_classification

    X, y = make_classification(n_samples=200, random_state=0)
    return model.fit(X, y), X, y


def test_from_estimator_scores_as_scikit_learn_does():
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import PrecisionRecallDisplay, RocCurveDisplay
    from sklearn.svm import LinearSVC

    model, X, y = _fitted(LogisticRegression())
    for pos_label in (None, 0):
        ours = drop_in.PrecisionRecallDisplay.from_estimator(model, X, y, pos_label=pos_label,
                                                             ax=_axes())
        theirs = PrecisionRecallDisplay.from_estimator(model, X, y, pos_label=pos_label,
                                                       ax=_axes())
        assert ours.average_precision == pytest.approx(theirs.average_precision, abs=1e-12)
        assert ours.prevalence_pos_label == pytest.approx(theirs.prevalence_pos_label)
        assert ours.name == "LogisticRegression"
        assert _legend(ours.ax_)[0].startswith("LogisticRegression: AUC-PR ")
    svc, X, y = _fitted(LinearSVC())  # no predict_proba: "auto" takes decision_function
    for pos_label in (None, 0):
        ours = drop_in.RocCurveDisplay.from_estimator(svc, X, y, pos_label=pos_label, name="svc",
                                                      ax=_axes())
        theirs = RocCurveDisplay.from_estimator(svc, X, y, pos_label=pos_label, ax=_axes())
        np.testing.assert_allclose(ours.fpr, theirs.fpr, atol=1e-12)
        assert ours.roc_auc == pytest.approx(theirs.roc_auc, abs=1e-12)
    ours = drop_in.RocCurveDisplay.from_estimator(model, X, y,
                                                  response_method="decision_function", ax=_axes())
    assert ours.roc_auc == fastpr.auc_roc(y, model.decision_function(X))
    from sklearn.metrics import det_curve

    det = drop_in.DetCurveDisplay.from_estimator(model, X, y, pos_label=0, ax=_axes())
    fpr, fnr, _ = det_curve(y, model.predict_proba(X)[:, 0], pos_label=0, drop_intermediate=True)
    np.testing.assert_allclose(det.fpr, fpr, atol=1e-12)
    np.testing.assert_allclose(det.fnr, fnr, atol=1e-12)
    assert _legend(det.ax_) == ["LogisticRegression"]


def test_from_estimator_explains_bad_estimators():
    from sklearn.linear_model import LogisticRegression

    model, X, y = _fitted(LogisticRegression())
    with pytest.raises(ValueError, match="estimator must be a fitted classifier; "
                                         "LogisticRegression has no classes_"):
        drop_in.PrecisionRecallDisplay.from_estimator(LogisticRegression(), X, y)
    three = LogisticRegression().fit(X, y + (np.arange(y.size) % 7 == 0))
    with pytest.raises(ValueError, match="binary classifier; LogisticRegression has 3 classes"):
        drop_in.PrecisionRecallDisplay.from_estimator(three, X, y)
    with pytest.raises(ValueError, match=r"pos_label must be one of the estimator's classes "
                                         r"\[0, 1\]; got 2"):
        drop_in.PrecisionRecallDisplay.from_estimator(model, X, y, pos_label=2)
    with pytest.raises(ValueError, match="response_method must be one of 'auto', "
                                         "'predict_proba', 'decision_function'; got 'predict'"):
        drop_in.RocCurveDisplay.from_estimator(model, X, y, response_method="predict")


def test_the_displays_have_one_public_name_each_scikit_learns():
    for name in ("PrecisionRecallDisplay", "RocCurveDisplay", "DetCurveDisplay"):
        assert getattr(drop_in, name).__name__ == name and name in drop_in.__all__
        assert name not in plot.__all__ and not hasattr(plot, name)
