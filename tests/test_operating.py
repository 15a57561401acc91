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
from fastpr._engine.ranking import sort_validated
from strategies import SETTINGS, integer_weighted, levels, rankings
from evaluations import gap_binned

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
def test_best_indices_find_the_oracles_threshold_by_binary_search_or_one_walk(case,
                                                                              more_levels):
    y, s, w, kind, level = case
    points, n_pos, n_neg = _points(y, s, w)
    levels = np.array([level, *more_levels])
    n = points.shape[1]
    suffix = np.empty(n, dtype=np.int64)
    operating.precision_suffix(points, n, suffix)
    found = np.empty(levels.size, dtype=np.int64)
    operating.best_indices(points, n, n_pos, n_neg, KINDS[kind], levels, suffix, found)
    # The walk that keeps no points finds the same points, to the bit.
    ranking = sort_validated(np.asarray(y, bool), np.asarray(s, np.float64), w)
    in_one_walk = np.empty((3, levels.size))
    operating.best_points_in_one_walk(ranking.pos, ranking.pos_weight, ranking.neg,
                                      ranking.neg_weight, n_pos, n_neg, KINDS[kind], levels,
                                      in_one_walk)
    np.testing.assert_array_equal(in_one_walk, np.where(found >= 0, points[:, found], np.nan))
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
    binned = _points(*gap_binned(y, s, counts))
    assert binned[1:] == full[1:]
    values = [operating.best_value(points, points.shape[1], n_pos, n_neg, KINDS[kind], level)
              for points, n_pos, n_neg in (full, binned)]
    assert values[0] == values[1] or (math.isnan(values[0]) and math.isnan(values[1]))


def test_gap_binned_points_have_fewer_columns_and_the_same_values_by_hand():
    """Three negatives between two positives become one column; every kind agrees."""
    y = np.array([1, 0, 0, 0, 1, 0, 1], bool)
    s = np.array([9.0, 8, 7, 6, 5, 4, 3])
    full = _points(y, s)
    binned = _points(*gap_binned(y, s, np.ones(y.size)))
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


# ---------------------------------------------------------------------------------------------
# The public layer: fastpr.recall_at_precision & co. and the SweptRanking methods of the same
# names.
FUNCTIONS = {kind: getattr(fastpr, kind) for kind in ref.OPERATING_KINDS}


def _quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", fastpr.UndefinedMetricWarning)
        return function(*args, **kwargs)


def _point_at(y, s, w, threshold):
    """(tp, fp) of predicting positive iff score >= threshold, summed afresh; threshold inf is
    the origin (nothing positive), as in scikit-learn. None where that is ambiguous: where
    scores of +inf make a point of threshold inf too."""
    if threshold == math.inf:
        return None if np.isposinf(s).any() else (0.0, 0.0)
    w = np.ones(len(y)) if w is None else w
    called = s >= threshold
    return float(np.sum(w[called & y])), float(np.sum(w[called & ~y]))


@SETTINGS
@given(_cases(defined=False))
def test_functions_agree_with_the_oracles_and_the_mixture_is_what_it_says(case):
    y, s, w, kind, level = case
    result = _quiet(FUNCTIONS[kind], y, s, level, sample_weight=w)
    points, n_pos, n_neg = _points(y, s, w)
    exact = integer_weighted(w)
    oracle_points = _oracle_points(y, s, w, points)
    value, threshold = ref.best_single_threshold(oracle_points, n_pos, n_neg, kind, level)
    assert _same(result.value, value, exact=exact)
    if math.isnan(value):
        assert all(math.isnan(v) for k, v in result.to_dict().items()
                   if k not in ("kind", "n_pos", "n_neg", "level"))
        return
    if exact:
        assert result.threshold == threshold
    recount = _point_at(y, s, w, result.threshold)
    if recount is not None:
        assert (result.tp, result.fp) == pytest.approx(recount, rel=1e-12)
    assert (result.tn, result.fn) == pytest.approx((n_neg - result.fp, n_pos - result.tp),
                                                   rel=1e-12, abs=1e-12)
    # The achievable point: never worse, equal to the best chord, and reproduced by its mixture.
    assert result.achievable >= result.value
    assert result.achievable == pytest.approx(
        ref.best_mixture(oracle_points, n_pos, n_neg, kind, level), rel=1e-9, abs=1e-12)
    assert result.high_threshold >= result.low_threshold
    assert 0 <= result.mixing_probability <= 1
    high, low = (_point_at(y, s, w, t) for t in (result.high_threshold, result.low_threshold))
    lam = result.mixing_probability
    if high is not None and low is not None:
        expected = [a + lam * (b - a) for a, b in zip(high, low)]
        assert (result.achievable_tp, result.achievable_fp) == pytest.approx(
            expected, rel=1e-9, abs=1e-9)
    if result.achievable == result.value:  # no gain: the single threshold itself
        assert result.high_threshold == result.low_threshold == result.threshold
        assert result.mixing_probability == 0


@SETTINGS
@given(rankings(scores=("int",), defined=False), st.sampled_from(ref.OPERATING_KINDS), levels())
def test_a_monotone_transform_of_the_scores_moves_only_the_thresholds(ranking, kind, asked):
    y, s, w = ranking
    before = _quiet(FUNCTIONS[kind], y, s, asked, sample_weight=w)
    after = _quiet(FUNCTIONS[kind], y, 2.0 ** s + 0.5, asked, sample_weight=w)
    moved = {"threshold", "high_threshold", "low_threshold"}
    for name, value in before.to_dict().items():
        if name in moved:
            value = np.where(np.isnan(value), np.nan, 2.0 ** np.asarray(value) + 0.5)
        np.testing.assert_array_equal(getattr(after, name), value, err_msg=name)


@SETTINGS
@given(rankings(weights=("int",), defined=False, max_int_weight=3),
       st.sampled_from(ref.OPERATING_KINDS), levels())
def test_integer_weights_equal_repeated_rows(ranking, kind, asked):
    y, s, w = ranking
    repeats = w.astype(int)
    if not repeats.any():
        return
    weighted = _quiet(FUNCTIONS[kind], y, s, asked, sample_weight=w)
    repeated = _quiet(FUNCTIONS[kind], np.repeat(y, repeats), np.repeat(s, repeats), asked)
    assert weighted == repeated


@SETTINGS
@given(st.lists(rankings(min_n=4, max_n=4, defined=False), min_size=1, max_size=4),
       st.sampled_from(ref.OPERATING_KINDS), st.lists(st.floats(0, 1), min_size=1, max_size=3))
def test_a_batch_and_groups_equal_a_loop(many, kind, levels):
    many = [(y, s, None) for y, s, _ in many]
    loop = [_quiet(FUNCTIONS[kind], y, s, levels) for y, s, _ in many]
    scores = np.array([s for _, s, _ in many])
    labels = np.array([y for y, _, _ in many])
    assert _quiet(FUNCTIONS[kind], labels, scores, levels) == loop
    groups = np.repeat(np.arange(len(many))[::-1], 4)  # ids in reverse: results in id order
    grouped = _quiet(FUNCTIONS[kind], labels.ravel(), scores.ravel(), levels, groups=groups)
    assert grouped == loop[::-1]


@SETTINGS
@given(_cases(defined=False), levels())
def test_swept_ranking_methods_equal_the_functions(case, more):
    y, s, w, kind, level = case
    swept = _quiet(fastpr.sweep, y, s, sample_weight=w)
    for asked in (level, more):
        assert _quiet(getattr(swept, kind), asked) == _quiet(FUNCTIONS[kind], y, s, asked,
                                                                sample_weight=w)


@pytest.mark.parametrize("seed", range(4))
def test_values_equal_scikit_learns_curves_where_the_definitions_coincide(seed):
    from sklearn.metrics import precision_recall_curve, roc_curve
    rng = np.random.default_rng(seed)
    y = rng.random(300) < 0.2
    s = np.round(rng.normal(y * 1.0, 1.0), 1)  # coarse scores: many ties
    levels = [0.0, 0.2, 0.5, 0.8, 1.0]
    precision, recall, _ = precision_recall_curve(y, s)
    precision, recall = precision[:-1], recall[:-1]  # (the appended point is no threshold)
    fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)
    want = {
        "recall_at_precision": [max(recall[precision >= p], default=np.nan) for p in levels],
        "precision_at_recall": [max(precision[recall >= r], default=np.nan) for r in levels],
        "tpr_at_fpr": [max(tpr[fpr <= f]) for f in levels],
        "tnr_at_tpr": [max(1 - fpr[tpr >= t]) for t in levels],
    }
    for kind, values in want.items():
        got = _quiet(FUNCTIONS[kind], y, s, levels).value
        np.testing.assert_allclose(got, values, rtol=1e-12, err_msg=kind)  # (1 - fpr rounds)


def test_an_unmet_level_is_nan_with_a_warning_naming_it_and_the_ranking():
    y, s = [0, 1, 0, 1], [4, 3, 2, 1]
    with pytest.warns(fastpr.UndefinedMetricWarning,
                      match=r"No threshold reaches precision >= 0.9: recall_at_precision"):
        result = fastpr.recall_at_precision(y, s, [0.5, 0.9])
    assert np.isnan(result.value[1]) and result.value[0] == 1.0
    with pytest.warns(fastpr.UndefinedMetricWarning,
                      match=r"no threshold reaches precision >= 0.9 in 1 of 2 groups \('b'\)"):
        fastpr.recall_at_precision(y + [1, 0], s + [9, 1], 0.9, groups=list("bbbbaa"))
    with pytest.warns(fastpr.UndefinedMetricWarning, match="tnr_at_tpr is undefined because "
                      "y_true has no negatives"):
        assert np.isnan(fastpr.tnr_at_tpr([1, 1], [1, 2], 0.5).value)


@pytest.mark.parametrize("level, error, match", [
    (1.5, fastpr.InputValueError, r"max_fpr must be in the closed interval \[0, 1\], got 1.5"),
    ([0.1, -0.2], fastpr.InputValueError, r"max_fpr must be .* got -0.2 at index 1"),
    ([0.1, math.nan], fastpr.InputValueError, r"max_fpr .* got nan at index 1"),
    ("0.1", fastpr.InputTypeError, r"max_fpr must be a real number in \[0, 1\] or a 1-D"),
    ([[0.1]], fastpr.InputValueError, r"max_fpr must be 1-D"),
    ([], fastpr.InputValueError, r"max_fpr is empty"),
    (True, fastpr.InputTypeError, r"max_fpr must be a real number"),
])
def test_levels_are_refused_by_name_and_position(level, error, match):
    with pytest.raises(error, match=match):
        fastpr.tpr_at_fpr([0, 1], [0.1, 0.2], level)
    with pytest.raises(error, match=match):
        fastpr.sweep([0, 1], [0.1, 0.2]).tpr_at_fpr(level)


def test_a_swept_ranking_prepares_once():
    swept = fastpr.sweep([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4])
    swept.recall_at_precision(0.5)
    prepared = swept._operating
    swept.precision_at_recall([0.1, 0.9])
    assert swept._operating is prepared
    # The points are the SweptRanking's own: no copy of the ranking's arrays.
    assert np.shares_memory(prepared.points, swept.tp)
