"""Precision-recall-gain curve and area: exact oracle, hand-computed cases and the authors' pyprg."""
import warnings
from fractions import Fraction
from itertools import pairwise

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import fastpr
from reference import counts, operating_points
from strategies import FEW, SETTINGS, rankings


def oracle_auc_prg(y, s, w=None):
    """AUPRG in exact arithmetic, as an integral over tp rather than trapezoids in gain space.

    On a segment fp = a + s tp, recall gain ``1 - P (P - tp) / (N tp)`` has derivative
    ``K / tp^2`` with ``K = P^2 / N``, and precision gain is ``c0 - c1 / tp`` with
    ``c0 = 1 - P s / N`` and ``c1 = P a / N``; so the area from tp = lo to hi is
    ``K [c1 / (2 tp^2) - c0 / tp]`` between the two. Only tp >= P^2 / (P + N) (recall gain >= 0)
    counts.
    """
    cnt = counts(operating_points(y, s, w))
    n_pos, n_neg = cnt[-1]
    k = n_pos * n_pos / n_neg
    tp_zero = n_pos * n_pos / (n_pos + n_neg)
    area = Fraction(0)
    for (ta, fa), (tb, fb) in pairwise(cnt):
        lo = max(ta, tp_zero)
        if tb <= lo:
            continue  # a vertical drop, or wholly at negative recall gain
        slope = (fb - fa) / (tb - ta)
        c0 = 1 - n_pos * slope / n_neg
        c1 = n_pos * (fa - slope * ta) / n_neg
        area += k * (c1 / (2 * tb * tb) - c0 / tb) - k * (c1 / (2 * lo * lo) - c0 / lo)
    return area


def oracle_gains(y, s, w=None):
    """(recall gain, precision gain) of every operating point with tp > 0, from the paper's
    formula ``(x - pi) / ((1 - pi) x)`` applied to exact recall and precision."""
    cnt = counts(operating_points(y, s, w))
    n_pos, n_neg = cnt[-1]
    pi = n_pos / (n_pos + n_neg)

    def gain(x):
        return (x - pi) / ((1 - pi) * x)

    return [(gain(tp / n_pos), gain(tp / (tp + fp))) for tp, fp in cnt if tp > 0]


def real_points(curve):
    keep = ~curve.is_crossing & (curve.tp > 0)
    return curve.recall_gain[keep], curve.precision_gain[keep]


@given(rankings())
@SETTINGS
def test_area_and_points_match_exact_oracles(case):
    y, s, w = case
    curve = fastpr.prg_curve(y, s, sample_weight=w)
    assert curve.area == pytest.approx(float(oracle_auc_prg(y, s, w)), rel=1e-9, abs=1e-12)
    assert fastpr.auc_prg(y, s, sample_weight=w) == curve.area
    rg, pg = real_points(curve)
    expected = oracle_gains(y, s, w)
    np.testing.assert_allclose(rg, [float(r) for r, _ in expected], rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(pg, [float(p) for _, p in expected], rtol=1e-9, atol=1e-12)


@given(rankings())
@SETTINGS
def test_crossings_sit_on_the_axes_and_on_their_segments(case):
    y, s, w = case
    c = fastpr.prg_curve(y, s, sample_weight=w)
    assert np.all(np.isnan(c.thresholds[c.is_crossing]))
    on_axis = (c.recall_gain == 0) | (c.precision_gain == 0)
    assert np.all(on_axis[c.is_crossing])
    assert np.count_nonzero(c.is_crossing & (c.recall_gain == 0)) <= 1
    # recall gain (finite where tp > 0) only rises along the curve; counts never fall
    assert np.all(np.isneginf(c.recall_gain[c.tp == 0]))
    assert np.all(np.diff(c.recall_gain[c.tp > 0]) >= -1e-12) and np.all(np.diff(c.tp) >= -1e-9)
    # the last point, everything called positive, is exactly (1, 0): no spurious crossing before it
    assert (c.recall_gain[-1], c.precision_gain[-1]) == (1.0, 0.0)
    assert not (c.is_crossing[-2] and c.recall_gain[-2] != 0)
    # from recall gain 0 on, no segment crosses the precision-gain axis between its ends
    start = int(np.argmax(c.recall_gain >= 0))
    pg = c.precision_gain[start:]
    assert not np.any(pg[:-1] * pg[1:] < 0)
    real = ~c.is_crossing
    np.testing.assert_array_equal(c.thresholds[real], fastpr.pr_curve(y, s, sample_weight=w)
                                  .thresholds)


@given(rankings())
@SETTINGS
def test_interpolated_pr_segments_are_straight_in_gain_space(case):
    """fp linear in tp between operating points maps to a straight line in PRG space."""
    y, s, w = case
    pr = fastpr.pr_curve(y, s, sample_weight=w)
    n_pos, n_neg = pr.n_pos, pr.n_neg
    for (ta, fa), (tb, fb) in pairwise(zip(pr.tp, pr.fp)):
        if ta == 0 or tb == ta:
            continue  # recall gain -inf at tp = 0; a vertical drop is a vertical line
        t = np.linspace(0, 1, 9)
        tp, fp = ta + t * (tb - ta), fa + t * (fb - fa)
        rg = 1 - n_pos * (n_pos - tp) / (n_neg * tp)
        pg = 1 - n_pos * fp / (n_neg * tp)
        cross = (rg - rg[0]) * (pg[-1] - pg[0]) - (pg - pg[0]) * (rg[-1] - rg[0])
        scale = max(1.0, np.ptp(rg) * np.ptp(pg), np.abs(pg).max() * np.ptp(rg))
        assert np.all(np.abs(cross) <= 1e-9 * scale)


@given(st.lists(st.floats(0, 10), min_size=1, max_size=20),
       st.lists(st.floats(-10, -0.5), min_size=1, max_size=20), st.booleans())
@FEW
def test_perfect_ranking_has_area_one(pos, neg, weighted):
    y = np.r_[np.ones(len(pos), bool), np.zeros(len(neg), bool)]
    s = np.r_[pos, neg]
    w = np.linspace(0.5, 3.0, y.size) if weighted else None
    assert fastpr.auc_prg(y, s, sample_weight=w) == pytest.approx(1.0, rel=1e-12)


def rank_scores(s):
    """A strictly increasing map of the scores (their rank, rescaled): exact, keeps ties."""
    return np.unique(s, return_inverse=True)[1] * 0.75 + 2.0


@given(rankings())
@FEW
def test_invariant_under_monotone_score_transform(case):
    y, s, w = case
    a = fastpr.prg_curve(y, s, sample_weight=w)
    b = fastpr.prg_curve(y, rank_scores(s), sample_weight=w)
    for field in ("recall_gain", "precision_gain", "tp", "fp", "is_crossing"):
        np.testing.assert_array_equal(getattr(a, field), getattr(b, field))
    assert a.area == b.area


def test_authors_documented_example():
    """The example in the R package prg's documentation: AUPRG 0.7083333 (17 / 24)."""
    c = fastpr.prg_curve([1, 1, 0, 0, 1, 0], [0.8, 0.8, 0.6, 0.4, 0.4, 0.2])
    np.testing.assert_array_equal(c.tp, [0, 1.5, 2, 2, 3, 3])
    np.testing.assert_array_equal(c.fp, [0, 0, 0, 1, 2, 3])
    np.testing.assert_array_equal(c.recall_gain, [-np.inf, 0, 0.5, 0.5, 1, 1])
    np.testing.assert_allclose(c.precision_gain[1:], [1, 1, 0.5, 1 / 3, 0], rtol=1e-15)
    np.testing.assert_array_equal(c.is_crossing, [0, 1, 0, 0, 0, 0])
    assert c.area == pytest.approx(17 / 24, rel=1e-15)


def test_hand_computed_negative_area_without_crossings():
    # P = N = 2, ranking -, +, -, +: recall gain 0 is met exactly at (TP 1, FP 1), where precision
    # gain is 0 too; then (1, 2) has precision gain -1 and (2, 2) ends at (1, 0).
    c = fastpr.prg_curve([0, 1, 0, 1], [4, 3, 2, 1])
    assert not c.is_crossing.any()
    np.testing.assert_array_equal(c.recall_gain[2:], [0, 0, 1])
    np.testing.assert_array_equal(c.precision_gain[2:], [0, -1, 0])
    assert c.area == -0.5


def test_hand_computed_crossings_of_both_axes():
    # P = 2, N = 4 (P / N = 1/2), ranking +, -, -, -, +, -. Recall gain 0 at TP = 2/3 on the
    # first segment; precision gain goes from -1/2 at (1, 3) to 1/4 at (2, 3), through 0 at
    # TP = 3/2, recall gain 5/6. Area 1/2 - 1/12 + 1/48 = 7/16.
    c = fastpr.prg_curve([1, 0, 0, 0, 1, 0], [6, 5, 4, 3, 2, 1])
    np.testing.assert_allclose(c.tp, [0, 2 / 3, 1, 1, 1, 1, 1.5, 2, 2], rtol=1e-15)
    np.testing.assert_array_equal(c.fp, [0, 0, 0, 1, 2, 3, 3, 3, 4])
    np.testing.assert_array_equal(c.is_crossing, [0, 1, 0, 0, 0, 0, 1, 0, 0])
    np.testing.assert_allclose(c.recall_gain[1:], [0, 0.5, 0.5, 0.5, 0.5, 5 / 6, 1, 1],
                               rtol=1e-15)
    np.testing.assert_allclose(c.precision_gain, [1, 1, 1, 0.5, 0, -0.5, 0, 0.25, 0], atol=1e-15)
    assert c.area == pytest.approx(7 / 16, rel=1e-15)
    assert float(oracle_auc_prg([1, 0, 0, 0, 1, 0], [6, 5, 4, 3, 2, 1])) == 7 / 16


def _pyprg(monkeypatch):
    """The authors' Python package; it calls ``np.alen``, which NumPy 1.23 removed."""
    monkeypatch.setattr(np, "alen", lambda x: 1 if np.isscalar(x) else len(x), raising=False)
    from prg import prg
    return prg


def _random_case(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 120))
    y = (rng.random(n) < rng.uniform(0.05, 0.9)).astype(int)
    y[:2] = [1, 0]
    if seed % 2:
        s = rng.integers(-4, 5, n).astype(float)  # many ties
    else:
        s = np.round(rng.random(n) + rng.uniform(0, 0.5) * y, 2)
    return y, s


@pytest.mark.parametrize("seed", range(40))
def test_matches_the_authors_pyprg(seed, monkeypatch):
    prg = _pyprg(monkeypatch)
    y, s = _random_case(seed)
    theirs = prg.create_prg_curve(y, s)
    ours = fastpr.prg_curve(y, s)
    assert ours.area == pytest.approx(prg.calc_auprg(theirs), rel=1e-12, abs=1e-14)
    # The operating points and the recall-gain-0 crossing agree. (pyprg computes precision gain
    # as 1 - (P / N) (FP / TP), whose rounding can leave 1e-16 where it is exactly 0 and then
    # add a spurious crossing of the precision-gain axis, so those are not compared.)
    for mine, keep_theirs in [(~ours.is_crossing, theirs["is_crossing"] == 0),
                              (ours.is_crossing & (ours.recall_gain == 0),
                               (theirs["is_crossing"] == 1) & (theirs["recall_gain"] == 0))]:
        mine = mine & (ours.recall_gain >= 0)
        keep_theirs = keep_theirs & (theirs["recall_gain"] >= 0)
        np.testing.assert_allclose(ours.recall_gain[mine], theirs["recall_gain"][keep_theirs],
                                   rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(ours.precision_gain[mine],
                                   theirs["precision_gain"][keep_theirs], rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(ours.tp[mine], theirs["TP"][keep_theirs], rtol=1e-12)
        np.testing.assert_allclose(ours.fp[mine], theirs["FP"][keep_theirs], rtol=1e-12,
                                   atol=1e-12)


@pytest.mark.parametrize("function, metric", [(fastpr.prg_curve, "Precision-recall gain"),
                                              (fastpr.auc_prg, "AUPRG")])
@pytest.mark.parametrize("y, missing", [([0, 0, 0], "positives"), ([1, 1, 1], "negatives")])
def test_missing_class_warns_and_gives_nan(function, metric, y, missing):
    with pytest.warns(fastpr.UndefinedMetricWarning,
                      match=rf"{metric} is undefined because y_true has no {missing}"):
        result = function(y, [0.3, 0.2, 0.2])
    area = result if function is fastpr.auc_prg else result.area
    assert np.isnan(area)
    if function is fastpr.prg_curve:
        assert np.isnan(result.recall_gain).all() and np.isnan(result.precision_gain).all()
        assert not result.is_crossing.any()


@pytest.mark.parametrize("scale", [2.0 ** -990, 2.0 ** 990])
def test_extreme_weights_give_the_gains_of_unit_weights(scale):
    # Gains are ratios of products of two counts: with weights near 1e+-300 those products
    # overflowed or underflowed, and the area came out NaN. Weights of a power of two scale
    # every count exactly, so the gains must be the unit weights' to the bit.
    rng = np.random.default_rng(4)
    y, s = rng.random(40) < 0.3, rng.random(40)
    unit = fastpr.prg_curve(y, s)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        scaled = fastpr.prg_curve(y, s, sample_weight=np.full(40, scale))
    for field in ("recall_gain", "precision_gain", "is_crossing"):
        np.testing.assert_array_equal(getattr(scaled, field), getattr(unit, field))
    np.testing.assert_array_equal(scaled.tp, unit.tp * scale)
    np.testing.assert_array_equal(scaled.fp, unit.fp * scale)
    assert scaled.area == unit.area and np.isfinite(unit.area)
