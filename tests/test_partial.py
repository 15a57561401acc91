"""Partial areas: AUC-ROC over FPR in [0, f] (raw and McClish-standardised) and the
interpolated AUC-PR over a recall range, with its floor, against the slow oracles."""
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import reference as ref
from fastpr._engine.kernels.gap_bins import gap_bin_starts
from fastpr._engine.kernels.partial import partial_auc_pr, partial_auc_roc
from fastpr._engine.ranking import sort_validated, sweep_ranking
from strategies import FEW, SETTINGS, rankings

LEVELS = st.sampled_from([0.0, 1e-3, 0.1, 0.25, 1 / 3, 0.5, 0.7, 0.999, 1.0])


def swept(y, s, w=None):
    """(points, n_points, P, N, row) of one ranking, from the sweep that stores its points."""
    result = sweep_ranking(sort_validated(np.asarray(y, bool), np.asarray(s, float),
                                          None if w is None else np.asarray(w, float)),
                           with_points=True)
    points = result.points
    return points, points.shape[1], result.row[0], result.row[1], result.row


def wide_rankings():
    """Unweighted rankings of mostly distinct scores: runs of negatives between positives, which
    gap bins merge."""
    n = st.integers(2, 40)
    return n.flatmap(lambda size: st.tuples(
        st.lists(st.booleans(), min_size=size, max_size=size),
        st.lists(st.integers(-30, 30), min_size=size, max_size=size))).map(
            lambda pair: (np.array(pair[0], bool), np.array(pair[1], float), None)).filter(
                lambda case: 0 < case[0].sum() < case[0].size)


def recall_ranges():
    return st.tuples(LEVELS, LEVELS).filter(lambda pair: pair[0] != pair[1]).map(sorted)


# --------------------------------------------------------------------------- kernels
@SETTINGS
@given(rankings(), st.sampled_from([1e-3, 0.1, 0.25, 1 / 3, 0.5, 0.9, 1.0]))
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
@given(rankings(), st.lists(LEVELS, min_size=3, max_size=3, unique=True).map(sorted))
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
