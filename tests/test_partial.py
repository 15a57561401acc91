"""Partial areas: AUC-ROC over FPR in [0, f] (raw and McClish-standardised) and the
interpolated AUC-PR over a recall range, with its floor, against the slow oracles."""
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import reference as ref
import fastpr
import fastpr.sklearn
from fastpr.partial import mcclish
from fastpr.unachievable import normalised_partial_auc_pr, partial_auc_pr_floor
from fastpr._engine.kernels.gap_bins import gap_bin_starts
from fastpr._engine.kernels.partial import partial_auc_pr, partial_auc_roc
from fastpr._engine.ranking import sort_validated, sweep_ranking
from strategies import (FEW, RANGE_ENDS, SETTINGS, max_fprs, rankings, recall_ranges,
                        wide_rankings)


def swept(y, s, w=None):
    """(points, n_points, P, N, row) of one ranking, from the sweep that stores its points."""
    result = sweep_ranking(sort_validated(np.asarray(y, bool), np.asarray(s, float),
                                          None if w is None else np.asarray(w, float)),
                           with_points=True)
    points = result.points
    return points, points.shape[1], result.row[0], result.row[1], result.row


# --------------------------------------------------------------------------- kernels
@SETTINGS
@given(rankings(), max_fprs())
def test_partial_auc_roc_kernel_is_the_clipped_trapezoid_area(case, max_fpr):
    y, s, w = case
    points, n, n_pos, n_neg, _ = swept(y, s, w)
    want = float(ref.partial_auc_roc(y, s, max_fpr, w))
    assert partial_auc_roc(points, n, n_pos, n_neg, max_fpr) == pytest.approx(want, rel=1e-12,
                                                                               abs=1e-15)


@SETTINGS
@given(rankings(), recall_ranges())
def test_partial_auc_pr_kernel_is_the_integral_of_the_interpolated_curve(case, recall_range):
    y, s, w = case
    points, n, n_pos, _, _ = swept(y, s, w)
    cnt = ref.counts(ref.operating_points(y, s, w))
    want = float(ref.partial_interpolated_area(cnt, *recall_range))
    assert partial_auc_pr(points, n, n_pos, *recall_range) == pytest.approx(want, rel=1e-12,
                                                                            abs=1e-15)


@SETTINGS
@given(rankings())
def test_the_whole_range_is_the_full_area(case):
    y, s, w = case
    points, n, n_pos, n_neg, row = swept(y, s, w)
    assert partial_auc_roc(points, n, n_pos, n_neg, 1.0) == pytest.approx(row[4], rel=1e-13)
    assert partial_auc_pr(points, n, n_pos, 0.0, 1.0) == pytest.approx(row[6], rel=1e-13)


@SETTINGS
@given(rankings(), st.lists(st.sampled_from(RANGE_ENDS), min_size=3, max_size=3,
                           unique=True).map(sorted))
def test_partial_pr_areas_add_over_adjacent_ranges(case, cuts):
    y, s, w = case
    points, n, n_pos, _, _ = swept(y, s, w)
    a, b, c = cuts
    whole = partial_auc_pr(points, n, n_pos, a, c)
    assert partial_auc_pr(points, n, n_pos, a, b) + partial_auc_pr(points, n, n_pos, b, c) == (
        pytest.approx(whole, rel=1e-13, abs=1e-16))


def test_partial_kernels_are_nan_without_the_classes_they_need():
    points, n, n_pos, n_neg, _ = swept([True, True], [0.3, 0.1])
    assert math.isnan(partial_auc_roc(points, n, n_pos, n_neg, 0.5))
    assert partial_auc_pr(points, n, n_pos, 0.0, 0.5) == 0.5
    points, n, n_pos, n_neg, _ = swept([False, False], [0.3, 0.1])
    assert math.isnan(partial_auc_roc(points, n, n_pos, n_neg, 0.5))
    assert math.isnan(partial_auc_pr(points, n, n_pos, 0.0, 0.5))


def binned_points(y, s):
    """The points of the full sweep and of the sweep of the positives against the negatives'
    gap bins (each bin one negative of the bin's size at its highest score), as a bootstrap
    replicate without weights sweeps them."""
    y, s = np.asarray(y, bool), np.asarray(s, float)
    pos, neg = np.sort(s[y]), np.sort(s[~y])
    starts = gap_bin_starts(pos, neg)
    bin_scores, bin_sizes = neg[starts[1:] - 1], np.diff(starts).astype(float)
    binned = sweep_ranking(sort_validated(np.r_[np.ones(pos.size, bool),
                                                np.zeros(bin_scores.size, bool)],
                                          np.r_[pos, bin_scores],
                                          np.r_[np.ones(pos.size), bin_sizes]), with_points=True)
    return swept(y, s)[0], binned.points


@SETTINGS
@given(wide_rankings(), recall_ranges(), st.sampled_from([0.05, 0.3, 0.5, 1.0]))
def test_partial_areas_are_unchanged_on_gap_bins(case, recall_range, max_fpr):
    y, s, _ = case
    full, binned = binned_points(y, s)
    n_pos, n_neg = full[1, -1], full[2, -1]
    assert partial_auc_roc(binned, binned.shape[1], n_pos, n_neg, max_fpr) == pytest.approx(
        partial_auc_roc(full, full.shape[1], n_pos, n_neg, max_fpr), rel=1e-13, abs=1e-16)
    assert partial_auc_pr(binned, binned.shape[1], n_pos, *recall_range) == pytest.approx(
        partial_auc_pr(full, full.shape[1], n_pos, *recall_range), rel=1e-13, abs=1e-16)


def test_gap_bin_example_negatives_between_two_positives_merged():
    # Two negatives between the positives at 0.9 and 0.5: one column in the binned points.
    y, s = [1, 0, 0, 1, 0], [0.9, 0.8, 0.7, 0.5, 0.1]
    full, binned = binned_points(y, s)
    assert (full.shape[1], binned.shape[1]) == (6, 5)
    for points in (full, binned):
        n = points.shape[1]
        assert partial_auc_roc(points, n, 2.0, 3.0, 0.5) == pytest.approx(0.5 * 1.5 / 3)
        assert partial_auc_pr(points, n, 2.0, 0.5, 1.0) == pytest.approx(
            float(ref.partial_interpolated_area(ref.counts(ref.operating_points(y, s)), 0.5, 1)))


@FEW
@given(st.integers(1, 50), st.integers(1, 50), recall_ranges())
def test_partial_floor_oracle_is_the_worst_rankings_area(n_pos, n_neg, recall_range):
    y, s = ref.worst_ranking(n_pos, n_neg)
    points, n, p, _, _ = swept(y, s)
    assert partial_auc_pr(points, n, p, *recall_range) == pytest.approx(
        float(ref.partial_auc_pr_min(n_pos, n_neg, *recall_range)), rel=1e-12, abs=1e-16)


@SETTINGS
@given(st.integers(1, 10**6), st.integers(0, 10**6), recall_ranges())
def test_partial_floor_formula_is_the_worst_rankings_integral(n_pos, n_neg, recall_range):
    assert partial_auc_pr_floor(n_pos, n_neg, *recall_range) == pytest.approx(
        float(ref.partial_auc_pr_min(n_pos, n_neg, *recall_range)), rel=1e-13, abs=1e-300)


# --------------------------------------------------------------------------- public layer
def finite(case):
    return bool(np.isfinite(case[1]).all())


@SETTINGS
@given(rankings().filter(finite), max_fprs())
def test_mcclish_partial_auc_roc_equals_scikit_learns_max_fpr(case, max_fpr):
    from sklearn.metrics import roc_auc_score

    y, s, w = case
    want = roc_auc_score(y, s, sample_weight=w, max_fpr=max_fpr)
    assert fastpr.auc_roc(y, s, sample_weight=w, max_fpr=max_fpr, mcclish=True) == (
        pytest.approx(want, rel=1e-12, abs=1e-12))
    # The drop-in goes through the same kernel and formula.
    assert fastpr.sklearn.roc_auc_score(y, s, sample_weight=w, max_fpr=max_fpr) == (
        pytest.approx(want, rel=1e-12, abs=1e-12))


@SETTINGS
@given(rankings(), max_fprs())
def test_raw_partial_auc_roc_is_the_oracles(case, max_fpr):
    y, s, w = case
    raw = fastpr.auc_roc(y, s, sample_weight=w, max_fpr=max_fpr)
    want = ref.partial_auc_roc(y, s, max_fpr, w)
    assert raw == pytest.approx(float(want), rel=1e-12, abs=1e-15)
    assert mcclish(raw, max_fpr) == pytest.approx(float(ref.mcclish(want, max_fpr)), rel=1e-12)


@FEW
@given(rankings(), recall_ranges())
def test_partial_auc_pr_and_its_normalisation_are_the_oracles(case, recall_range):
    y, s, w = case
    cnt = ref.counts(ref.operating_points(y, s, w))
    area = ref.partial_interpolated_area(cnt, *recall_range)
    floor = ref.partial_auc_pr_min(*cnt[-1], *recall_range)
    low, high = recall_range
    assert fastpr.auc_pr(y, s, sample_weight=w, recall_range=recall_range) == pytest.approx(
        float(area), rel=1e-12, abs=1e-15)
    assert fastpr.auc_pr_min(float(cnt[-1][0]), float(cnt[-1][1]),
                             recall_range=recall_range) == pytest.approx(float(floor), rel=1e-12)
    npr = fastpr.auc_npr(y, s, sample_weight=w, recall_range=recall_range)
    assert npr == pytest.approx(float((area - floor) / (high - low - floor)), rel=1e-9, abs=1e-12)


@SETTINGS
@given(rankings())
def test_the_whole_ranges_are_the_full_areas_exactly(case):
    y, s, w = case
    e = fastpr.evaluate(y, s, sample_weight=w)
    assert fastpr.auc_roc(y, s, sample_weight=w, max_fpr=1.0) == e.auc_roc
    assert fastpr.auc_roc(y, s, sample_weight=w, max_fpr=1, mcclish=True) == e.auc_roc
    assert fastpr.auc_pr(y, s, sample_weight=w, recall_range=(0, 1)) == e.auc_pr
    assert fastpr.auc_npr(y, s, sample_weight=w, recall_range=(0.0, 1.0)) == e.auc_npr
    assert fastpr.auc_pr_min(e.n_pos, e.n_neg, recall_range=(0, 1)) == e.auc_pr_min
    assert partial_auc_pr_floor(e.n_pos, e.n_neg, 0.0, 1.0) == e.auc_pr_min


@SETTINGS
@given(rankings(), st.lists(st.sampled_from(RANGE_ENDS), min_size=3, max_size=3,
                            unique=True).map(sorted))
def test_partial_areas_and_floors_add_over_adjacent_ranges(case, cuts):
    y, s, w = case
    a, b, c = cuts
    area = lambda low, high: fastpr.auc_pr(y, s, sample_weight=w, recall_range=(low, high))
    assert area(a, b) + area(b, c) == pytest.approx(area(a, c), rel=1e-13, abs=1e-16)
    n_pos, n_neg = fastpr.evaluate(y, s, sample_weight=w).n_pos, 1.0 + len(y)
    floor = lambda low, high: partial_auc_pr_floor(n_pos, n_neg, low, high)
    assert floor(a, b) + floor(b, c) == pytest.approx(floor(a, c), rel=1e-13, abs=1e-16)


@SETTINGS
@given(rankings(), max_fprs(), recall_ranges(), st.randoms(use_true_random=False))
def test_partial_areas_ignore_monotone_transforms_and_row_order(case, max_fpr, recall_range,
                                                                random):
    y, s, w = case
    order = list(range(len(y)))
    random.shuffle(order)
    transformed = np.arctan(s)  # increasing: keeps ties and order, unless it merges scores
    if np.unique(transformed).size != np.unique(s).size:
        return
    transformed = transformed[order]
    w2 = None if w is None else w[order]
    for kwargs in ({"max_fpr": max_fpr}, {"max_fpr": max_fpr, "mcclish": True}):
        assert fastpr.auc_roc(y[order], transformed, sample_weight=w2, **kwargs) == (
            pytest.approx(fastpr.auc_roc(y, s, sample_weight=w, **kwargs), rel=1e-13, abs=1e-15))
    for function in (fastpr.auc_pr, fastpr.auc_npr):
        assert function(y[order], transformed, sample_weight=w2, recall_range=recall_range) == (
            pytest.approx(function(y, s, sample_weight=w, recall_range=recall_range),
                          rel=1e-13, abs=1e-15))


@SETTINGS
@given(rankings(weights=("int",), max_int_weight=3), max_fprs(), recall_ranges())
def test_integer_weights_are_repeated_rows(case, max_fpr, recall_range):
    y, s, w = case
    repeats = w.astype(int)
    y2, s2 = np.repeat(y, repeats), np.repeat(s, repeats)
    assert fastpr.auc_roc(y, s, sample_weight=w, max_fpr=max_fpr) == pytest.approx(
        fastpr.auc_roc(y2, s2, max_fpr=max_fpr), rel=1e-13, abs=1e-15)
    assert fastpr.auc_pr(y, s, sample_weight=w, recall_range=recall_range) == pytest.approx(
        fastpr.auc_pr(y2, s2, recall_range=recall_range), rel=1e-13, abs=1e-15)


@FEW
@given(st.lists(rankings(min_n=6, max_n=6, weights=("none",)), min_size=1, max_size=4),
       max_fprs(), recall_ranges())
def test_a_batch_groups_and_a_table_equal_the_loop(cases, max_fpr, recall_range):
    ys, ss = np.array([c[0] for c in cases]), np.array([c[1] for c in cases])
    calls = [(fastpr.auc_roc, {"max_fpr": max_fpr, "mcclish": True}),
             (fastpr.auc_pr, {"recall_range": recall_range}),
             (fastpr.auc_npr, {"recall_range": recall_range})]
    groups = np.repeat(np.arange(len(cases)), 6)
    for function, kwargs in calls:
        loop = np.array([function(y, s, **kwargs) for y, s in zip(ys, ss)])
        np.testing.assert_array_equal(function(ys, ss, **kwargs), loop)
        np.testing.assert_array_equal(function(ys.ravel(), ss.ravel(), groups=groups,
                                               **kwargs), loop)
        offsets = np.arange(len(cases) + 1) * 6
        np.testing.assert_array_equal(function(ys.ravel(), ss.ravel(), offsets=offsets,
                                               **kwargs), loop)
        if (ys == ys[0]).all():
            table = {f"m{i}": s for i, s in enumerate(ss)}
            assert function(ys[0], table, **kwargs) == {f"m{i}": v for i, v in enumerate(loop)}
        assert function(ys, ss, average="macro", **kwargs) == pytest.approx(
            float(np.nanmean(loop)), rel=1e-14)


def test_perfect_and_worst_rankings_normalise_to_one_and_zero():
    y, s = ref.worst_ranking(3, 7)
    assert fastpr.auc_npr(y, s, recall_range=(0.2, 0.9)) == pytest.approx(0.0, abs=1e-15)
    assert fastpr.auc_npr(y, [-v for v in s], recall_range=(0.2, 0.9)) == pytest.approx(1.0)
    assert fastpr.auc_pr(y, [-v for v in s], recall_range=(0.2, 0.9)) == pytest.approx(0.7)
    assert fastpr.auc_roc(y, [-v for v in s], max_fpr=0.1, mcclish=True) == 1.0
    assert fastpr.auc_roc(y, [-v for v in s], max_fpr=0.1) == pytest.approx(0.1)
    np.testing.assert_allclose(normalised_partial_auc_pr(np.array([0.7, 0.3]),
                                                         np.array([0.2, 0.2]), 0.2, 0.9),
                               [1.0, 0.2])


@pytest.mark.parametrize("kwargs, error, match", [
    ({"recall_range": (0.5, 0.5)}, ValueError, r"recall_range must be a pair \(low, high\).*"
                                               r"low end must lie below"),
    ({"recall_range": (0.8, 0.2)}, ValueError, "recall_range .* low end must lie below"),
    ({"recall_range": (-0.1, 0.5)}, ValueError, r"recall_range must be in the closed interval "
                                                r"\[0.0, 1.0\], got -0.1"),
    ({"recall_range": (0.1, math.nan)}, ValueError, "recall_range must be in the closed"),
    ({"recall_range": 0.5}, TypeError, r"recall_range must be a pair \(low, high\)"),
    ({"recall_range": (0.1, 0.2, 0.3)}, TypeError, "recall_range must be a pair"),
    ({"recall_range": (0.1, 0.5), "method": "average_precision"}, ValueError,
     r"recall_range=\(0.1, 0.5\) needs method='interpolated'.*got method='average_precision'"),
])
def test_auc_pr_refuses_bad_ranges_naming_the_argument(kwargs, error, match):
    with pytest.raises(error, match=match):
        fastpr.auc_pr([0, 1, 1], [0.1, 0.2, 0.3], **kwargs)


@pytest.mark.parametrize("function", [fastpr.auc_npr,
                                      lambda y, s, **kw: fastpr.auc_pr_min(2, 1, **kw)])
def test_the_floor_and_normalised_area_refuse_ranges_of_other_estimators(function):
    with pytest.raises(ValueError, match="recall_range=.* needs method='interpolated'"):
        function([0, 1, 1], [0.1, 0.2, 0.3], recall_range=(0.1, 0.5), method="hull")


@pytest.mark.parametrize("kwargs, error, match", [
    ({"max_fpr": 0}, ValueError, r"max_fpr must be in the half-open interval \(0, 1\], got 0"),
    ({"max_fpr": 1.5}, ValueError, "max_fpr must be in the half-open interval"),
    ({"max_fpr": "0.1"}, TypeError, "max_fpr must be a real number"),
    ({"max_fpr": 0.5, "mcclish": "yes"}, TypeError, "mcclish must be True or False"),
])
def test_auc_roc_refuses_bad_partial_options(kwargs, error, match):
    with pytest.raises(error, match=match):
        fastpr.auc_roc([0, 1, 1], [0.1, 0.2, 0.3], **kwargs)


def test_undefined_partial_areas_warn_and_are_nan():
    with pytest.warns(fastpr.UndefinedMetricWarning, match="AUC-ROC is undefined .* no "
                      "negatives"):
        assert math.isnan(fastpr.auc_roc([1, 1], [0.1, 0.2], max_fpr=0.5))
    with pytest.warns(fastpr.UndefinedMetricWarning, match="AUC-PR is undefined .* no positives"):
        assert math.isnan(fastpr.auc_pr([0, 0], [0.1, 0.2], recall_range=(0.1, 0.5)))
    with pytest.warns(fastpr.UndefinedMetricWarning, match="1 of 2 groups"):
        values = fastpr.auc_npr([0, 0, 1, 0], [0.1, 0.2, 0.3, 0.4], groups=[1, 1, 2, 2],
                                recall_range=(0.1, 0.5))
    assert math.isnan(values[0]) and values[1] == pytest.approx(0.0)
