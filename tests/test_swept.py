"""fastpr.sweep and SweptRanking against the curve functions and brute-force oracles; every
ranking-level function on one ranking, a SweptRanking, a 2-D batch, groups and offsets alike."""
import dataclasses
import math
import warnings
from fractions import Fraction

import matplotlib
import numpy as np
import pytest
import reference as ref
from hypothesis import given
from hypothesis import strategies as st
from matplotlib.figure import Figure
from strategies import FEW, SETTINGS, rankings

import fastpr
from fastpr import datasets, plot
from fastpr import sklearn as drop_in

matplotlib.use("Agg")


def quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", fastpr.UndefinedMetricWarning)
        return function(*args, **kwargs)


def assert_same(got, want):
    """Identical results: the same type and every field equal (arrays entry for entry, NaN where
    NaN), nested results included."""
    assert type(got) is type(want), (type(got), type(want))
    if dataclasses.is_dataclass(want):
        for field in dataclasses.fields(want):
            assert_same(getattr(got, field.name), getattr(want, field.name))
    else:
        np.testing.assert_array_equal(got, want)


# Every function of one ranking that reads a SweptRanking in place of the data, with its options.
FUNCTIONS = {
    "roc_points": {},
    "pr_curve": {},
    "roc_convex_hull": {},
    "interpolated_pr_curve": {"max_recall_step": 0.1},
    "achievable_pr_curve": {"max_recall_step": 0.1},
    "f_beta_curve": {"beta": 2.0},
    "max_f_beta": {"beta": 0.5},
    "prg_curve": {},
    "auc_prg": {},
    "auc_npr": {},
}


# --------------------------------------------------------------------------- one ranking
@SETTINGS
@given(rankings())
def test_swept_ranking_holds_the_oracle_points_and_the_evaluation(case):
    y, s, w = case
    swept = quiet(fastpr.sweep, y, s, sample_weight=w)
    assert_same(swept.evaluation, quiet(fastpr.evaluate, y, s, sample_weight=w))
    points = ref.operating_points(y, s, w)
    np.testing.assert_array_equal(swept.thresholds, [t for t, _, _ in points])
    for got, column in ((swept.tp, 1), (swept.fp, 2)):
        np.testing.assert_allclose(got, [float(p[column]) for p in points], rtol=1e-12)
    precision = ref.pr_curve_precision(ref.counts(points))
    np.testing.assert_allclose(fastpr.pr_curve(swept).precision, [float(p) for p in precision],
                               rtol=1e-12)
    assert swept.n_pos == swept.evaluation.n_pos and swept.n_neg == swept.evaluation.n_neg


@SETTINGS
@given(rankings(weights=("none", "int")))
def test_swept_hull_is_the_gift_wrapped_hull(case):
    y, s, w = case
    swept = fastpr.sweep(y, s, sample_weight=w)
    vertices = ref.roc_hull_points(ref.operating_points(y, s, w))
    np.testing.assert_array_equal(swept.hull_thresholds, [t for t, _, _ in vertices])
    np.testing.assert_array_equal(swept.hull_tp, [float(tp) for _, tp, _ in vertices])
    np.testing.assert_array_equal(swept.hull_fp, [float(fp) for _, _, fp in vertices])


@SETTINGS
@given(rankings(weights=("none", "int")))
def test_swept_metrics_match_exact_oracles(case):
    y, s, w = case
    swept = fastpr.sweep(y, s, sample_weight=w)
    cnt = ref.counts(ref.operating_points(y, s, w))
    n_pos = cnt[-1][0]
    best = max(Fraction(3) * tp / (3 * tp + 2 * (n_pos - tp) + fp) for tp, fp in cnt)  # F(sqrt 2)
    assert fastpr.max_f_beta(swept, beta=math.sqrt(2)).value == pytest.approx(float(best),
                                                                   rel=1e-12)
    expected_npr = float(ref.evaluation(y, s, w)["auc_npr"])
    assert fastpr.auc_npr(swept) == pytest.approx(expected_npr, rel=1e-9, abs=1e-12)


@FEW
@given(rankings(), st.sampled_from(sorted(FUNCTIONS)))
def test_each_function_reads_a_swept_ranking_as_the_data(case, name):
    y, s, w = case
    swept = fastpr.sweep(y, s, sample_weight=w)
    options = FUNCTIONS[name]
    assert_same(getattr(fastpr, name)(swept, **options),
                getattr(fastpr, name)(y, s, sample_weight=w, **options))


def test_a_swept_ranking_gets_its_options_checked():
    swept = fastpr.sweep([0, 1], [0.1, 0.2])
    with pytest.raises(ValueError, match=r"max_recall_step must be in the half-open interval "
                       r"\(0, 1\], got 2"):
        fastpr.interpolated_pr_curve(swept, max_recall_step=2)
    with pytest.raises(ValueError, match=r"beta must be finite and > 0, got 0"):
        fastpr.max_f_beta(swept, beta=0)
    with pytest.raises(ValueError, match=r"method must be one of"):
        fastpr.auc_npr(swept, method="trapezoid")


def test_sweep_warns_once_as_evaluate_does_and_its_curves_do_not():
    with pytest.warns(fastpr.UndefinedMetricWarning) as caught:
        swept = fastpr.sweep([0, 0, 0], [0.1, 0.2, 0.3])
    with pytest.warns(fastpr.UndefinedMetricWarning) as evaluated:
        fastpr.evaluate([0, 0, 0], [0.1, 0.2, 0.3])
    assert [str(w.message) for w in caught] == [str(w.message) for w in evaluated]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert np.isnan(fastpr.max_f_beta(swept).value) and np.isnan(fastpr.auc_prg(swept))
        assert np.isnan(fastpr.pr_curve(swept).recall).all()


def test_curve_types_share_one_field_order():
    """Drawn coordinates first (x, y), then thresholds and counts, then flags, then scalars."""
    def names(kind):
        return [f.name for f in dataclasses.fields(kind)]

    assert names(fastpr.ROCCurve)[:5] == ["fpr", "tpr", "thresholds", "tp", "fp"]
    for kind in (fastpr.PRCurve, fastpr.AchievablePRCurve):
        assert names(kind)[:5] == ["recall", "precision", "thresholds", "tp", "fp"]
    assert names(fastpr.PRPoints) == ["recall", "precision", "tp", "fp"]
    assert names(fastpr.FBetaCurve)[:3] == ["recall", "precision", "thresholds"]
    assert names(fastpr.MaxFBeta)[:3] == ["value", "recall", "precision"]
    assert names(fastpr.PRGCurve)[:5] == ["recall_gain", "precision_gain", "thresholds", "tp",
                                          "fp"]


# --------------------------------------------------------------------------- many rankings
ALL_FUNCTIONS = {**FUNCTIONS, "sweep": {}}
NUMBERS = ("auc_prg", "auc_npr")


@st.composite
def several(draw):
    """Two to four rankings with both classes, each of its own length."""
    return draw(st.lists(rankings(max_n=12), min_size=2, max_size=4))


def assert_entries_equal_single_calls(got, cases, name):
    options = ALL_FUNCTIONS[name]
    function = getattr(fastpr, name)
    singles = [quiet(function, y, s, sample_weight=w, **options) for y, s, w in cases]
    if name in NUMBERS:
        assert isinstance(got, np.ndarray) and got.shape == (len(cases),)
        np.testing.assert_array_equal(got, singles)
    else:
        assert isinstance(got, list) and len(got) == len(cases)
        for entry, single in zip(got, singles):
            assert_same(entry, single)


@FEW
@given(several(), st.sampled_from(sorted(ALL_FUNCTIONS)), st.booleans())
def test_groups_and_offsets_equal_single_calls(cases, name, weighted):
    cases = [(y, s, w if weighted else None) for y, s, w in cases]
    if weighted:
        cases = [(y, s, np.ones(s.size) if w is None else w) for y, s, w in cases]
    y = np.concatenate([c[0] for c in cases])
    s = np.concatenate([c[1] for c in cases])
    w = np.concatenate([c[2] for c in cases]) if weighted else None
    sizes = [c[1].size for c in cases]
    options = ALL_FUNCTIONS[name]
    function = getattr(fastpr, name)
    offsets = np.concatenate([[0], np.cumsum(sizes)])
    got = quiet(function, y, s, sample_weight=w, offsets=offsets, **options)
    assert_entries_equal_single_calls(got, cases, name)
    # Group ids in reverse order of the blocks, interleaved: rankings come in sorted id order,
    # each keeping its examples' order.
    ids = np.repeat(np.arange(len(cases))[::-1], sizes)
    order = np.argsort(np.arange(y.size) % 3, kind="stable")
    got = quiet(function, y[order], s[order], sample_weight=None if w is None else w[order],
                groups=ids[order], **options)
    expected = [(y[order][ids[order] == g], s[order][ids[order] == g],
                 None if w is None else w[order][ids[order] == g]) for g in range(len(cases))]
    assert_entries_equal_single_calls(got, expected, name)


@FEW
@given(st.integers(2, 12).flatmap(lambda n: st.lists(rankings(min_n=n, max_n=n), min_size=1,
                                                     max_size=4)),
       st.sampled_from(sorted(ALL_FUNCTIONS)), st.booleans())
def test_rows_of_a_2d_batch_equal_single_calls(cases, name, shared):
    labels = cases[0][0] if shared else np.stack([c[0] for c in cases])
    scores = np.stack([c[1] for c in cases])
    got = quiet(getattr(fastpr, name), labels, scores, **ALL_FUNCTIONS[name])
    assert_entries_equal_single_calls(
        got, [(labels if shared else y, s, None) for y, s, _ in cases], name)


@FEW
@given(several(), st.sampled_from(fastpr.PR_METHODS))
def test_normalised_areas_of_every_method_equal_single_calls(cases, method):
    """Unit weights: every estimator's floor needs a whole number of positives."""
    y = np.concatenate([c[0] for c in cases])
    s = np.concatenate([c[1] for c in cases])
    offsets = np.concatenate([[0], np.cumsum([c[1].size for c in cases])])
    got = quiet(fastpr.auc_npr, y, s, offsets=offsets, method=method)
    singles = [quiet(fastpr.auc_npr, c[0], c[1], method=method) for c in cases]
    np.testing.assert_array_equal(got, singles)
    swept = fastpr.sweep(cases[0][0], cases[0][1])
    assert fastpr.auc_npr(swept, method=method) == singles[0] or math.isnan(singles[0])


@pytest.mark.parametrize("name", NUMBERS)
def test_macro_average_is_the_mean_where_defined(name):
    y = np.array([1, 0, 1, 0, 0, 0, 1, 1, 0, 1])
    s = np.array([0.9, 0.8, 0.7, 0.3, 0.5, 0.4, 0.6, 0.2, 0.1, 0.05])
    groups = np.array([0, 0, 0, 1, 1, 1, 2, 2, 2, 2])  # group 1 has no positives
    function = getattr(fastpr, name)
    singles = [quiet(function, y[groups == g], s[groups == g]) for g in range(3)]
    assert math.isnan(singles[1])
    with pytest.warns(fastpr.UndefinedMetricWarning, match=r"undefined for 1 of 3 groups"):
        mean = function(y, s, groups=groups, average="macro")
    assert mean == pytest.approx((singles[0] + singles[2]) / 2, rel=1e-15)
    with pytest.raises(ValueError, match=r"average must be one of None, 'macro'; got 'micro'"):
        function(y, s, groups=groups, average="micro")


def test_many_rankings_warn_once_with_counts():
    y, s = [1, 0, 0, 0, 1, 1], [0.9, 0.8, 0.7, 0.6, 0.5, 0.4]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fastpr.max_f_beta(y, s, offsets=[0, 2, 4, 6])
        fastpr.prg_curve(y, s, offsets=[0, 2, 4, 6])
        fastpr.pr_curve(y, s, offsets=[0, 2, 4, 6])
    tail = "(or those examples weigh 0). Their values are NaN, and averages over groups leave them out."
    assert [str(w.message) for w in caught] == [
        f"Metrics are undefined for 1 of 3 groups: 1 have no positives (F-beta undefined) {tail}",
        (f"Metrics are undefined for 2 of 3 groups: 1 have no positives (Precision-recall gain "
         f"undefined); 1 have no negatives (Precision-recall gain undefined) {tail}"),
        f"Metrics are undefined for 1 of 3 groups: 1 have no positives (AUC-PR undefined) {tail}",
    ]
    assert all(w.filename == __file__ for w in caught)


def test_a_group_that_weighs_nothing_and_an_empty_segment_are_nan():
    """As in evaluate(groups=): kept, every value NaN (the single call would refuse them)."""
    y, s = [1, 0, 1, 0], [0.4, 0.3, 0.2, 0.1]
    curves = quiet(fastpr.pr_curve, y, s, sample_weight=[0, 0, 1, 1], groups=[5, 5, 6, 6])
    assert curves[0].n_pos == curves[0].n_neg == 0 and np.isnan(curves[0].recall).all()
    assert_same(curves[1], fastpr.pr_curve([1, 0], [0.2, 0.1]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", fastpr.UndefinedMetricWarning)
        for name, options in ALL_FUNCTIONS.items():
            got = getattr(fastpr, name)(y, s, offsets=[0, 0, 4], **options)
            single = getattr(fastpr, name)(y, s, **options)
            assert_same(float(got[1]) if name in NUMBERS else got[1], single)
    best = quiet(fastpr.max_f_beta, y, s, offsets=[0, 0, 4])[0]
    assert np.isnan([best.value, best.recall, best.precision, best.threshold]).all()
    assert np.isnan(quiet(fastpr.auc_prg, y, s, offsets=[0, 0, 4])[0])


# --------------------------------------------------------------------------- figures
@pytest.fixture
def sweeps(monkeypatch):
    """Counts the passes over the data (each after its sort) that the figures make."""
    calls = []
    original = fastpr.swept.sweep_ranking

    def counted(*args, **kwargs):
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(fastpr.swept, "sweep_ranking", counted)
    return calls


@pytest.mark.parametrize("draw", [
    lambda y, s: plot.plot_roc(y, s, ax=Figure().subplots()),
    lambda y, s: plot.plot_pr(y, s, ax=Figure().subplots(), linear=True),
    lambda y, s: drop_in.PrecisionRecallDisplay.from_predictions(y, s, ax=Figure().subplots()),
    lambda y, s: drop_in.RocCurveDisplay.from_predictions(y, s, ax=Figure().subplots()),
])
def test_a_figure_sorts_and_sweeps_once(draw, sweeps):
    draw([1, 0, 1, 1, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.6, 0.1])
    assert len(sweeps) == 1


def _lines(ax):
    return [(line.get_xdata().tolist(), line.get_ydata().tolist()) for line in ax.get_lines()]


def test_figures_draw_a_swept_ranking_as_they_draw_the_data():
    y, s = datasets.reversal_rankings()[:2]
    swept = fastpr.sweep(y, s)
    for draw in (plot.plot_roc, plot.plot_pr):
        from_data = draw(y, s, ax=Figure().subplots(), label="m")
        from_swept = draw(swept, ax=Figure().subplots(), label="m")
        assert _lines(from_swept) == _lines(from_data)
        texts = [[t.get_text() for t in ax.get_legend().get_texts()]
                 for ax in (from_data, from_swept)]
        assert texts[0] == texts[1]
    ax = plot.plot_comparison({"A": swept, "B": (y, s)}, kind="roc", ax=Figure().subplots())
    assert _lines(ax)[1] == _lines(ax)[3]  # each ranking's curve after its hull, chance once


def test_a_swept_ranking_comes_alone():
    swept = fastpr.sweep([0, 1], [0.1, 0.2])
    with pytest.raises(TypeError, match=r"pass it alone, without y_score"):
        plot.plot_roc(swept, [0.1, 0.2])
    with pytest.raises(TypeError, match=r"pass it alone, without y_score, sample_weight, "
                       r"pos_label, groups or offsets") as caught:
        fastpr.pr_curve(swept, offsets=[0, 2])
    assert caught.value.argument == "offsets"
    with pytest.raises(TypeError, match=r"y_score is missing"):
        fastpr.roc_points([0, 1])
    with pytest.raises(TypeError, match=r"y_score is missing"):
        fastpr.auc_npr([0, 1])
    with pytest.raises(TypeError, match=r"y_score is missing"):
        plot.plot_pr([0, 1])
    boot = fastpr.bootstrap([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], n_boot=4, seed=1)
    with pytest.raises(TypeError, match=r"bootstrap shading redraws replicates from the data"):
        plot.plot_pr(fastpr.sweep([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4]), bootstrap=boot,
                     ax=Figure().subplots())


def test_a_figure_warns_once_about_what_it_shows():
    with pytest.warns(fastpr.UndefinedMetricWarning) as caught:
        plot.plot_roc([0, 0, 0], [0.1, 0.2, 0.3], ax=Figure().subplots())
    why = "is undefined because y_true has no positives (or they all weigh 0); returning NaN."
    assert [str(w.message) for w in caught] == [f"AUC-ROC {why}"]
    assert caught[0].filename == __file__
    with pytest.warns(fastpr.UndefinedMetricWarning) as caught:
        drop_in.PrecisionRecallDisplay.from_predictions([0, 0, 0], [0.1, 0.2, 0.3],
                                                        ax=Figure().subplots())
    assert [str(w.message) for w in caught] == [f"AUC-PR {why}"]
