"""F-beta along the PR curve, its maximum and iso-F lines, against oracles written from scratch."""
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn import metrics as skm

import fastpr
from reference import operating_points
from strategies import FEW, SETTINGS, rankings

# beta^2 and 1 + beta^2 are exact binary fractions for these, so exact ties stay exact in floats.
BETAS = [0.5, 1.0, 2.0]


def oracle_f(tp, fp, n_pos, beta):
    """F-beta in exact arithmetic from its textbook form, FN written out."""
    b2 = Fraction(beta) ** 2
    denominator = (1 + b2) * tp + b2 * (n_pos - tp) + fp
    return Fraction(0) if denominator == 0 else (1 + b2) * tp / denominator


def oracle_curve(y, s, w, beta):
    """[(threshold, F)] for every operating point, found by brute force over thresholds."""
    points = operating_points(y, s, w)
    n_pos = points[-1][1]
    return [(t, oracle_f(tp, fp, n_pos, beta)) for t, tp, fp in points]


@given(rankings(), st.sampled_from(BETAS))
@SETTINGS
def test_curve_matches_exact_oracle(case, beta):
    y, s, w = case
    ours = fastpr.f_beta_curve(y, s, beta=beta, sample_weight=w)
    expected = oracle_curve(y, s, w, beta)
    np.testing.assert_array_equal(ours.thresholds, [t for t, _ in expected])
    np.testing.assert_allclose(ours.f, [float(f) for _, f in expected], rtol=1e-12, atol=1e-15)
    assert ours.f[0] == 0.0 and ours.beta == beta
    pr = fastpr.pr_curve(y, s, sample_weight=w)
    np.testing.assert_array_equal(ours.precision, pr.precision)
    np.testing.assert_array_equal(ours.recall, pr.recall)


@given(rankings(weights=("none", "int")), st.sampled_from(BETAS))
@SETTINGS
def test_max_is_the_oracle_maximum_at_its_highest_threshold(case, beta):
    y, s, w = case
    expected = oracle_curve(y, s, w, beta)
    best = max(f for _, f in expected)
    first_threshold = next(t for t, f in expected if f == best)  # descending thresholds
    ours = fastpr.max_f_beta(y, s, beta=beta, sample_weight=w)
    assert ours.value == pytest.approx(float(best), rel=1e-12)
    assert ours.threshold == first_threshold


def _segment_samples(tp, fp, n_samples=7):
    """Points on each correctly interpolated segment: tp and fp both linear in t."""
    t = np.linspace(0.0, 1.0, n_samples)[None, :]
    return ((tp[:-1, None] + t * np.diff(tp)[:, None]).ravel(),
            (fp[:-1, None] + t * np.diff(fp)[:, None]).ravel())


@given(rankings(), st.floats(0.1, 5.0))
@SETTINGS
def test_max_beats_every_point_of_the_interpolated_curve(case, beta):
    y, s, w = case
    best = fastpr.max_f_beta(y, s, beta=beta, sample_weight=w)
    curve = fastpr.f_beta_curve(y, s, beta=beta, sample_weight=w)
    assert np.all(curve.f <= best.value)
    pr = fastpr.pr_curve(y, s, sample_weight=w)
    tp, fp = _segment_samples(pr.tp, pr.fp)
    b2 = beta * beta
    between = (1 + b2) * tp / ((1 + b2) * tp + b2 * (pr.n_pos - tp) + fp)
    assert np.all(between <= best.value * (1 + 1e-12))
    assert best.value in curve.f
    k = list(curve.f).index(best.value)
    assert (best.precision, best.recall) == (curve.precision[k], curve.recall[k])


def rank_scores(s):
    """A strictly increasing map of the scores (their rank, rescaled): exact, keeps ties."""
    return np.unique(s, return_inverse=True)[1] * 2.5 - 3.0


@given(rankings(), st.sampled_from(BETAS))
@FEW
def test_invariant_under_monotone_score_transform(case, beta):
    y, s, w = case
    a = fastpr.f_beta_curve(y, s, beta=beta, sample_weight=w)
    b = fastpr.f_beta_curve(y, rank_scores(s), beta=beta, sample_weight=w)
    np.testing.assert_array_equal(a.f, b.f)
    assert (fastpr.max_f_beta(y, s, beta=beta, sample_weight=w).value
            == fastpr.max_f_beta(y, rank_scores(s), beta=beta, sample_weight=w).value)


@pytest.mark.parametrize("seed", range(8))
def test_max_f1_matches_scikit_learn_points(seed):
    rng = np.random.default_rng(seed)
    n = 400
    y = rng.random(n) < 0.2
    y[:2] = [True, False]
    s = np.round(rng.normal(size=n) + y, 1)
    w = rng.choice([0.5, 1.0, 3.0], size=n) if seed % 2 else None
    precision, recall, thresholds = skm.precision_recall_curve(y, s, sample_weight=w)
    with np.errstate(invalid="ignore"):
        f1 = np.nan_to_num(2 * precision * recall / (precision + recall))
    ours = fastpr.max_f_beta(y, s, sample_weight=w)
    assert ours.value == pytest.approx(f1.max(), rel=1e-12)
    # scikit-learn lists thresholds ascending; ours is the highest of the (near-)maximal ones
    best = np.isclose(f1[:-1], f1.max(), rtol=1e-12, atol=0)
    assert ours.threshold == thresholds[best].max()


def test_ties_go_to_the_highest_threshold():
    # P = 2: F1 = 2 TP / (TP + FP + P) is 2 / 3 both at (TP 1, FP 0) and at (TP 2, FP 2).
    y, s = [1, 0, 0, 1, 0], [0.9, 0.8, 0.7, 0.6, 0.1]
    f = fastpr.f_beta_curve(y, s).f
    np.testing.assert_allclose(f, [0, 2 / 3, 1 / 2, 2 / 5, 2 / 3, 4 / 7], rtol=1e-15)
    assert f[1] == f[4] == f.max()
    best = fastpr.max_f_beta(y, s)
    assert (best.value, best.threshold, best.precision, best.recall) == (f[1], 0.9, 1.0, 0.5)


def test_beta_weighs_recall():
    y, s = [1, 1, 0, 1, 0, 0], [6, 5, 4, 3, 2, 1]
    assert fastpr.max_f_beta(y, s, beta=0.25).threshold == 5  # precision-minded
    assert fastpr.max_f_beta(y, s, beta=4.0).threshold == 3   # recall-minded


@given(st.floats(0.01, 0.99), st.floats(0.05, 20.0), st.integers(2, 50))
@SETTINGS
def test_iso_f_line_has_constant_f_and_stays_in_the_unit_square(f, beta, n_points):
    recall, precision = fastpr.iso_f_curve(f, beta=beta, n_points=n_points)
    assert recall.shape == precision.shape == (n_points,)
    b2 = beta * beta
    np.testing.assert_allclose((1 + b2) * precision * recall / (b2 * precision + recall), f,
                               rtol=1e-9)
    assert precision[0] == 1.0 and recall[-1] == 1.0
    assert np.all(np.diff(recall) > 0) and np.all(np.diff(precision) <= 0)
    assert np.all((precision > 0) & (precision <= 1))


@pytest.mark.parametrize("beta, limit", [(1e-200, "precision"), (1e-170, "precision"),
                                         (1e155, "recall"), (1e300, "recall")])
def test_extreme_betas_give_precision_or_recall(beta, limit):
    # beta^2 overflowed (every F NaN) or underflowed (NaN at the origin, which argmax picked).
    y, s = [1, 0, 1, 1, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.6, 0.1]
    curve = fastpr.f_beta_curve(y, s, beta=beta)
    np.testing.assert_allclose(curve.f[1:], getattr(curve, limit)[1:], rtol=1e-15)
    assert curve.f[0] == 0.0
    best = fastpr.max_f_beta(y, s, beta=beta)
    assert best.value == 1.0 and best.threshold == (0.9 if limit == "precision" else 0.6)
    recall, precision = fastpr.iso_f_curve(0.5, beta=beta, n_points=5)
    assert np.isfinite(precision).all() and precision[0] == 1.0
    if limit == "precision":  # a horizontal line at precision f from recall 0
        assert recall[0] == 0.0 and (precision[1:] == 0.5).all()
    else:  # a vertical one at recall f
        assert recall[0] == 0.5 and (precision[1:] < 1e-300).all()


def test_no_positives_warn_and_give_nan():
    with pytest.warns(fastpr.UndefinedMetricWarning, match=r"F-beta is undefined because y_true "
                                                           r"has no positives"):
        best = fastpr.max_f_beta([0, 0, 0], [0.1, 0.2, 0.3])
    assert np.isnan([best.value, best.threshold, best.precision, best.recall]).all()
    with pytest.warns(fastpr.UndefinedMetricWarning, match=r"F-beta is undefined"):
        assert np.isnan(fastpr.f_beta_curve([0, 0], [0.1, 0.2]).f).all()


def test_no_negatives_is_fine():
    best = fastpr.max_f_beta([1, 1, 1], [0.1, 0.2, 0.2])
    assert (best.value, best.threshold) == (1.0, 0.1)


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"beta": 0}, ValueError, r"beta must be finite and > 0, got 0"),
        ({"beta": -1.0}, ValueError, r"beta must be finite and > 0, got -1.0"),
        ({"beta": np.inf}, ValueError, r"beta must be finite and > 0, got inf"),
        ({"beta": np.nan}, ValueError, r"beta must be finite and > 0, got nan"),
        ({"beta": "2"}, TypeError, r"beta must be a real number, got '2'"),
        ({"beta": True}, TypeError, r"beta must be a real number, got True"),
    ],
)
def test_beta_is_checked(kwargs, error, match):
    for function in (fastpr.f_beta_curve, fastpr.max_f_beta):
        with pytest.raises(error, match=match):
            function([0, 1], [0.1, 0.2], **kwargs)
    with pytest.raises(error, match=match):
        fastpr.iso_f_curve(0.5, **kwargs)


@pytest.mark.parametrize(
    "f, kwargs, error, match",
    [
        (0.0, {}, ValueError, r"f must be in the open interval \(0, 1\), got 0.0"),
        (1, {}, ValueError, r"f must be in the open interval \(0, 1\), got 1"),
        (np.nan, {}, ValueError, r"f must be in the open interval \(0, 1\), got nan"),
        (None, {}, TypeError, r"f must be a real number, got None"),
        (0.5, {"n_points": 1}, ValueError, r"n_points must be >= 2, got 1"),
        (0.5, {"n_points": 2.0}, TypeError, r"n_points must be an integer, got 2.0"),
    ],
)
def test_iso_f_arguments_are_checked(f, kwargs, error, match):
    with pytest.raises(error, match=match):
        fastpr.iso_f_curve(f, **kwargs)
