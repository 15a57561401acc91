"""fastpr.interpolated_pr_curve against the brute-force oracle, and fastpr.plot's drawings."""
import sys

import matplotlib
import matplotlib.image
import numpy as np
import pytest
import reference as ref
from hypothesis import given
from matplotlib.figure import Figure
from strategies import SETTINGS, rankings

import fastpr
from fastpr import datasets, plot

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


# --------------------------------------------------------------------------- drawings
def _axes():
    return Figure().subplots()


def _legend(ax):
    return [text.get_text() for text in ax.get_legend().get_texts()]


def test_plot_roc_draws_the_curve_and_its_hull():
    y, s = datasets.skewed_ranking(n_samples=3000)
    ax = plot.plot_roc(y, s, ax=_axes(), label="m")
    _chance, curve, hull = ax.get_lines()
    roc, vertices = fastpr.roc_curve(y, s), fastpr.roc_convex_hull(y, s)
    np.testing.assert_array_equal(curve.get_xdata(), roc.fpr)
    np.testing.assert_array_equal(curve.get_ydata(), roc.tpr)
    np.testing.assert_array_equal(hull.get_xdata(), vertices.fpr)
    np.testing.assert_array_equal(hull.get_ydata(), vertices.tpr)
    e = fastpr.evaluate(y, s)
    assert _legend(ax) == [f"m: AUC-ROC {e.auc_roc:.3f}", f"m hull: AUC-ROC {e.auc_roc_hull:.3f}"]


def test_plot_pr_draws_every_part():
    y, s = datasets.binormal(500, 0.3, seed=1)
    s = np.round(s)
    ax = plot.plot_pr(y, s, ax=_axes(), linear=True, iso_f=(0.3, 0.6))
    curve, linear, achievable, _iso_a, iso_b = ax.get_lines()
    drawn = fastpr.interpolated_pr_curve(y, s)
    np.testing.assert_array_equal(curve.get_xdata(), drawn.recall)
    np.testing.assert_array_equal(curve.get_ydata(), drawn.precision)
    points = fastpr.pr_curve(y, s)
    np.testing.assert_array_equal(linear.get_ydata(), points.precision)
    np.testing.assert_array_equal(achievable.get_ydata(), fastpr.achievable_pr_curve(y, s).precision)
    assert linear.get_linestyle() == "--" and achievable.get_linestyle() == ":"
    np.testing.assert_array_equal(iso_b.get_ydata(), fastpr.iso_f_curve(0.6)[1])
    (region,) = ax.collections
    top = region.get_paths()[0].vertices[:, 1].max()
    assert top == pytest.approx(fastpr.evaluate(y, s).prevalence)  # p_min(1) is the prevalence
    e = fastpr.evaluate(y, s)
    assert _legend(ax) == [f"AUC-PR {e.auc_pr:.3f}", f"linear (wrong): AUC-PR {e.auc_pr_linear:.3f}",
                           f"achievable: AUC-PR {e.auc_pr_hull:.3f}",
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
    assert f"bootstrap 95% {interval}: auc_pr {result.low:.3f} to {result.high:.3f}" in _legend(ax)[1]


def test_bootstrap_must_be_a_bootstrap_result():
    with pytest.raises(TypeError, match="bootstrap must be of type BootstrapResult, got tuple"):
        plot.plot_pr([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], ax=_axes(), bootstrap=(0.1, 0.9))


def test_plot_pr_can_leave_out_the_extras():
    y, s = datasets.skewed_ranking(n_samples=2000)
    ax = plot.plot_pr(y, s, ax=_axes(), achievable=False, unachievable=False, iso_f=())
    assert len(ax.get_lines()) == 1 and not ax.collections


def test_plot_comparison_draws_the_region_once():
    y, a, b = datasets.reversal_rankings()
    ax = plot.plot_comparison({"A": (y, a), "B": (y, b, np.ones(y.size))}, ax=_axes(),
                              achievable=False)
    assert len(ax.collections) == 1
    legend = _legend(ax)
    assert "A: AUC-PR 0.514" in legend and "B: AUC-PR 0.038" in legend
    roc = plot.plot_comparison({"A": (y, a), "B": (y, b)}, kind="roc", ax=_axes(), hull=False)
    assert _legend(roc) == ["A: AUC-ROC 0.813", "B: AUC-ROC 0.875"]


def test_displays_hold_the_evaluation_and_the_axes():
    y, s = datasets.skewed_ranking(n_samples=2000)
    ax = _axes()
    d = plot.PRDisplay.from_predictions(y, s, ax=ax, iso_f=())
    assert d.ax_ is ax and d.figure_ is ax.figure
    assert d.evaluation == fastpr.evaluate(y, s)
    r = plot.ROCDisplay.from_predictions(y, s, hull=False)
    assert len(r.ax_.get_lines()) == 2 and r.evaluation.auc_roc == fastpr.auc_roc(y, s)


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
