"""Operating points under a constraint: the kernel against the slow oracles of tests/reference.py
(every threshold; every chord between two points), on full and gap-binned points."""
import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import fastpr
import reference as ref
from fastpr._engine.kernels import operating
from fastpr._engine.kernels.gap_bins import gap_bin_starts
from strategies import SETTINGS, integer_weighted, rankings

KINDS = dict(zip(ref.OPERATING_KINDS, (operating.RECALL_AT_PRECISION,
                                        operating.PRECISION_AT_RECALL, operating.TPR_AT_FPR,
                                        operating.TNR_AT_TPR)))


def _points(y, s, w=None):
    """(points as the kernels take them, P, N) of one ranking, from its SweptRanking."""
    with warnings.catch_warnings():  # (a missing class: the areas' warning, not tested here)
        warnings.simplefilter("ignore", fastpr.UndefinedMetricWarning)
        swept = fastpr.sweep(y, s, sample_weight=w)
    points = np.vstack([swept.thresholds, swept.tp, swept.fp])
    return points, swept.n_pos, swept.n_neg


def _as_exact(points):
    """The kernel's points as the oracle's (threshold, TP, FP) with the doubles' exact values."""
    return [(t, Fraction(tp), Fraction(fp)) for t, tp, fp in points.T.tolist()]


@st.composite
def _cases(draw, defined=True):
    """(y, s, w, kind, level): levels at every rate the ranking reaches (exact boundaries for
    whole weights), and anywhere in [0, 1]."""
    y, s, w = draw(rankings(defined=defined))
    kind = draw(st.sampled_from(ref.OPERATING_KINDS))
    if integer_weighted(w):
        points = ref.operating_points(y, s, w)
        n_pos, n_neg = ref.totals(y, s, w)
        rates = [r for _, tp, fp in points
                 for r in ref._operating_rates(tp, fp, n_pos, n_neg).values() if r is not None]
        level = draw(st.one_of(st.sampled_from(rates), st.floats(0, 1)))
    else:  # (float sums round: a level at a rate would test the rounding, not the kernel)
        level = draw(st.floats(0, 1))
    return y, s, w, kind, level


def _oracle_points(y, s, w, points):
    """Exact points for whole weights; the kernel's own, read exactly, for fractional ones."""
    return ref.operating_points(y, s, w) if integer_weighted(w) else _as_exact(points)


@SETTINGS
@given(_cases(defined=False))
def test_best_value_is_the_best_threshold_of_the_oracle(case):
    y, s, w, kind, level = case
    points, n_pos, n_neg = _points(y, s, w)
    want, _ = ref.best_single_threshold(_oracle_points(y, s, w, points), n_pos, n_neg, kind,
                                        level)
    got = operating.best_value(points, points.shape[1], n_pos, n_neg, KINDS[kind], level)
    assert _same(got, want, exact=integer_weighted(w))


def _same(got, want, *, exact):
    """Equal (NaN equal to NaN); for fractional weights to rounding, since the kernel divides
    rounded sums where the oracle rounds the exact ratio once."""
    if math.isnan(want):
        return math.isnan(got)
    return got == want if exact else got == pytest.approx(want, rel=1e-12, abs=1e-15)


@SETTINGS
@given(_cases(defined=False), st.lists(st.floats(0, 1), max_size=3))
def test_best_indices_find_the_oracles_threshold_by_binary_search(case, more_levels):
    y, s, w, kind, level = case
    points, n_pos, n_neg = _points(y, s, w)
    levels = np.array([level, *more_levels])
    n = points.shape[1]
    suffix = np.empty(n, dtype=np.int64)
    operating.precision_suffix(points, n, suffix)
    found = np.empty(levels.size, dtype=np.int64)
    operating.best_indices(points, n, n_pos, n_neg, KINDS[kind], levels, suffix, found)
    for one, k in zip(levels.tolist(), found.tolist()):
        value, threshold = ref.best_single_threshold(_oracle_points(y, s, w, points), n_pos,
                                                     n_neg, kind, one)
        if math.isnan(value):
            assert k == -1
            continue
        if integer_weighted(w):  # (fractional weights: ties may differ by rounding)
            assert points[0, k] == threshold
        assert operating.best_value(points, n, n_pos, n_neg, KINDS[kind], one) == value or (
            not integer_weighted(w))
        assert _same(_value_at(points, k, n_pos, n_neg, kind), value,
                     exact=integer_weighted(w))


def _value_at(points, k, n_pos, n_neg, kind):
    _, tp, fp = points[:, k].tolist()
    if kind == "precision_at_recall":
        return tp / (tp + fp)
    return (n_neg - fp) / n_neg if kind == "tnr_at_tpr" else tp / n_pos


def _gap_binned(y, s, counts):
    """The ranking with each gap bin of its negatives as one negative of the bin's total
    weight, at the bin's highest score (as bootstrap replicates arrive)."""
    pos_order, neg_order = np.argsort(s[y], kind="stable"), np.argsort(s[~y], kind="stable")
    pos, pos_counts = s[y][pos_order], counts[y][pos_order]
    neg, neg_counts = s[~y][neg_order], counts[~y][neg_order]
    starts = gap_bin_starts(pos, neg)
    bin_scores = neg[starts[1:] - 1]
    bin_totals = np.add.reduceat(neg_counts, starts[:-1]) if neg.size else neg_counts
    return (np.r_[np.ones(pos.size, bool), np.zeros(bin_scores.size, bool)],
            np.r_[pos, bin_scores], np.r_[pos_counts, bin_totals])


@SETTINGS
@given(st.integers(2, 40).flatmap(lambda n: st.tuples(
    st.lists(st.booleans(), min_size=n, max_size=n),
    st.lists(st.integers(-4, 4), min_size=n, max_size=n),
    st.lists(st.integers(0, 3), min_size=n, max_size=n))),
    st.sampled_from(ref.OPERATING_KINDS), st.floats(0, 1))
def test_gap_binned_points_give_the_same_value(ranking, kind, level):
    """The negatives between two positives merged into one column: the value is unchanged."""
    y, s, counts = (np.array(column) for column in ranking)
    y, s, counts = y.astype(bool), s.astype(float), counts.astype(float)
    if not counts.any():
        return  # nothing to evaluate: refused alike
    full = _points(y, s, counts)
    binned = _points(*_gap_binned(y, s, counts))
    assert binned[1:] == full[1:]
    values = [operating.best_value(points, points.shape[1], n_pos, n_neg, KINDS[kind], level)
              for points, n_pos, n_neg in (full, binned)]
    assert values[0] == values[1] or (math.isnan(values[0]) and math.isnan(values[1]))


def test_gap_binned_points_have_fewer_columns_and_the_same_values_by_hand():
    """Three negatives between two positives become one column; every kind agrees."""
    y = np.array([1, 0, 0, 0, 1, 0, 1], bool)
    s = np.array([9.0, 8, 7, 6, 5, 4, 3])
    full = _points(y, s)
    binned = _points(*_gap_binned(y, s, np.ones(y.size)))
    assert binned[0].shape[1] < full[0].shape[1]
    for code in KINDS.values():
        for level in (0.0, 0.25, 0.5, 0.6, 2 / 3, 0.75, 1.0):
            assert (operating.best_value(full[0], full[0].shape[1], 3.0, 4.0, code, level)
                    == operating.best_value(binned[0], binned[0].shape[1], 3.0, 4.0, code,
                                            level))


@pytest.mark.parametrize("kind, level, want", [
    ("recall_at_precision", 0.6, 2 / 3),
    ("recall_at_precision", 1.0, 1 / 3),
    ("precision_at_recall", 1.0, 1 / 2),
    ("tpr_at_fpr", 0.0, 1 / 3),
    ("tpr_at_fpr", 0.5, 2 / 3),
    ("tnr_at_tpr", 1.0, 1 / 4),
])
def test_best_value_by_hand(kind, level, want):
    # Ranking + - + - - + -, P = 3, N = 4: points (tp, fp) (1, 0) (1, 1) (2, 1) (2, 2) (2, 3)
    # (3, 3) (3, 4) after the origin, of precision 1, 1/2, 2/3, 1/2, 2/5, 1/2, 3/7.
    y = np.array([1, 0, 1, 0, 0, 1, 0], bool)
    s = -np.arange(7.0)
    points, n_pos, n_neg = _points(y, s)
    assert operating.best_value(points, points.shape[1], n_pos, n_neg, KINDS[kind],
                                level) == pytest.approx(want)
