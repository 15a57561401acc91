"""Prevalence shift, the honest hull protocol and aggregation over folds.

Defined in docs/math/unachievable.rst and docs/math/hull.rst.
"""
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import fastpr
import reference as ref
from fastpr import datasets
from strategies import FEW, rankings


@FEW
@given(rankings(weights=("none", "int", "float")), st.floats(0.001, 0.999))
def test_prevalence_shift_moves_precision_as_documented(ranking, target):
    y, s, w = ranking
    shifted = fastpr.at_prevalence(y, s, target, sample_weight=w)
    roc = fastpr.roc_points(y, s, sample_weight=w)
    rising = roc.tp > 0
    tpr, fpr = roc.tpr[rising], roc.fpr[rising]
    expected = target * tpr / (target * tpr + (1 - target) * fpr)
    assert np.allclose(shifted.curve.precision[rising], expected, rtol=1e-12, atol=0)
    assert np.array_equal(shifted.curve.recall, roc.tpr)
    assert shifted.evaluation.prevalence == pytest.approx(target, rel=1e-12)
    assert shifted.evaluation.auc_roc == pytest.approx(
        fastpr.auc_roc(y, s, sample_weight=w), rel=1e-12, abs=1e-15)


@FEW
@given(rankings(weights=("none", "int")), st.floats(0.01, 0.99))
def test_prevalence_shift_areas_match_the_oracle(ranking, target):
    y, s, w = ranking
    shifted = fastpr.at_prevalence(y, s, target, sample_weight=w)
    weights = np.ones(len(y)) if w is None else w
    reweighted = np.where(y, weights, weights * shifted.negative_weight)
    expected = ref.evaluation(y, s, reweighted)
    for field in ("auc_pr", "auc_pr_dg", "average_precision", "auc_pr_hull"):
        assert math.isclose(getattr(shifted.evaluation, field), float(expected[field]),
                            rel_tol=1e-9, abs_tol=1e-12), field


def test_at_the_observed_prevalence_nothing_changes():
    y, s = datasets.skewed_ranking(n_samples=3000, prevalence=0.05)
    e = fastpr.evaluate(y, s)
    shifted = fastpr.at_prevalence(y, s, e.prevalence).evaluation
    assert shifted.auc_pr == pytest.approx(e.auc_pr, rel=1e-12)
    assert shifted.average_precision == pytest.approx(e.average_precision, rel=1e-12)


def test_thresholds_on_a_test_set_of_one_class_warn_like_evaluate():
    with pytest.warns(fastpr.UndefinedMetricWarning, match="AUC-ROC"):
        result = fastpr.evaluate_at_thresholds([1, 1, 1], [0.9, 0.5, 0.2], [0.3, 0.7])
    assert math.isnan(result.evaluation.auc_roc) and result.evaluation.auc_pr == 1.0


def test_a_prevalence_beyond_double_precision_warns_or_is_refused():
    # NaN areas came back without the warning that evaluate gives for the same totals.
    y, s = [1, 0, 1, 1, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.6, 0.1]
    with pytest.warns(fastpr.UndefinedMetricWarning, match="one more than 2\\*\\*600 times"):
        shifted = fastpr.at_prevalence(y, s, 1e-300)
    assert math.isnan(shifted.evaluation.auc_pr)
    with pytest.raises(ValueError, match="prevalence=1e-300 would make the negatives weigh more"):
        fastpr.at_prevalence(y, s, 1e-300, sample_weight=[1e10] * 6)


def test_downsampled_negatives_report_the_deployment_area():
    # Keeping every 10th negative and shifting back to the full base rate recovers the full
    # data's area up to sampling noise; the down-sampled area alone is far too optimistic.
    y, s = datasets.skewed_ranking(n_samples=200_000, prevalence=0.01, seed=3)
    keep = y | (np.arange(y.size) % 10 == 0)
    full = fastpr.evaluate(y, s)
    sampled = fastpr.evaluate(y[keep], s[keep])
    shifted = fastpr.at_prevalence(y[keep], s[keep], full.prevalence).evaluation
    assert sampled.auc_pr > full.auc_pr + 0.1
    assert shifted.auc_pr == pytest.approx(full.auc_pr, abs=0.02)


@FEW
@given(rankings(weights=("none", "int")), rankings(weights=("none",)))
def test_curve_at_thresholds_matches_the_oracle(tune, test):
    thresholds = fastpr.hull_thresholds(tune[0], tune[1], sample_weight=tune[2])
    y, s, w = test
    result = fastpr.evaluate_at_thresholds(y, s, thresholds, sample_weight=w)
    cnt = ref.points_at_thresholds(y, s, thresholds, w)
    assert [(float(tp), float(fp)) for tp, fp in cnt] == list(zip(result.tp, result.fp))
    assert math.isclose(result.evaluation.auc_pr, float(ref.interpolated_area(cnt)),
                        rel_tol=1e-12, abs_tol=1e-15)
    # Each point carries the highest threshold that reaches it.
    for threshold, tp, fp in zip(result.thresholds[1:], result.tp[1:], result.fp[1:]):
        reached = [(float(a), float(b)) for a, b in
                   ref.points_at_thresholds(y, s, [threshold], w)[-2:]]
        assert (tp, fp) in reached


@FEW
@given(rankings(weights=("none", "int", "float")))
def test_own_hull_thresholds_give_the_hull_area(ranking):
    y, s, w = ranking
    own = fastpr.evaluate_at_thresholds(y, s, fastpr.hull_thresholds(y, s, sample_weight=w),
                                        sample_weight=w)
    e = fastpr.evaluate(y, s, sample_weight=w)
    assert own.evaluation.auc_pr == pytest.approx(e.auc_pr_hull, rel=1e-12, abs=1e-15)
    assert own.evaluation.auc_roc == pytest.approx(e.auc_roc_hull, rel=1e-12, abs=1e-15)


def test_honest_hull_is_not_better_than_the_test_sets_own_hull():
    y, s = datasets.skewed_ranking(n_samples=20_000, prevalence=0.05, seed=1)
    tune, test = slice(0, 10_000), slice(10_000, None)
    thresholds = fastpr.hull_thresholds(y[tune], s[tune])
    honest = fastpr.evaluate_at_thresholds(y[test], s[test], thresholds)
    fitted = fastpr.evaluate(y[test], s[test])
    assert honest.evaluation.auc_pr <= fitted.auc_pr_hull


def test_reversal_example_reproduces_the_papers_numbers():
    y, score_a, score_b = datasets.reversal_rankings()
    a, b = fastpr.evaluate(y, score_a), fastpr.evaluate(y, score_b)
    assert (a.n_pos, a.n_neg) == (20, 2000)
    assert (round(a.auc_roc, 3), round(a.auc_pr, 3)) == (0.813, 0.514)
    assert (round(b.auc_roc, 3), round(b.auc_pr, 3)) == (0.875, 0.038)
    # The order flips whichever PR estimator is used.
    assert b.auc_roc > a.auc_roc
    for method in fastpr.PR_METHODS:
        if method != "hull":
            assert a.area(method) > b.area(method), method


def _folds():
    rng = np.random.default_rng(0)
    folds = []
    for prevalence in (0.02, 0.2, 0.5):
        y = rng.random(400) < prevalence
        y[:2] = True, False
        folds.append((y, rng.normal(loc=y * 1.0)))
    return folds


def test_aggregate_three_ways_against_direct_computation():
    folds = _folds()
    areas = [fastpr.auc_pr(y, s) for y, s in folds]
    mean = fastpr.aggregate(folds)
    assert mean.value == pytest.approx(np.mean(areas), rel=1e-14)
    floors = [fastpr.auc_pr_min(int(y.sum()), int((~y).sum())) for y, _ in folds]
    assert mean.floor == pytest.approx(np.mean(floors), rel=1e-14)
    normalized = fastpr.aggregate(folds, how="normalized", method="average_precision")
    expected = np.mean([fastpr.auc_npr(y, s, method="average_precision") for y, s in folds])
    assert normalized.value == pytest.approx(expected, rel=1e-12)
    pooled = fastpr.aggregate(folds, how="pooled")
    y_all = np.concatenate([y for y, _ in folds])
    s_all = np.concatenate([s for _, s in folds])
    assert pooled.value == fastpr.auc_pr(y_all, s_all)
    evaluations = [fastpr.evaluate(y, s) for y, s in folds]
    assert fastpr.aggregate(evaluations).value == mean.value


def test_aggregate_pooled_weights_default_to_one_per_row():
    folds = _folds()
    weighted = [(y, s, np.full(y.size, 2.0)) if i == 0 else (y, s) for i, (y, s) in
                enumerate(folds)]
    y_all = np.concatenate([y for y, _ in folds])
    s_all = np.concatenate([s for _, s in folds])
    w_all = np.concatenate([np.full(folds[0][0].size, 2.0)] + [np.ones(y.size) for y, _ in
                                                                folds[1:]])
    assert fastpr.aggregate(weighted, how="pooled").value == pytest.approx(
        fastpr.auc_pr(y_all, s_all, sample_weight=w_all), rel=1e-14)


def test_aggregate_leaves_out_undefined_folds_and_says_so():
    folds = _folds() + [(np.zeros(5, bool), np.arange(5.0))]
    with pytest.warns(fastpr.UndefinedMetricWarning, match="undefined for 1 of 4 folds"):
        result = fastpr.aggregate(folds)
    assert result.n_undefined == 1 and math.isnan(result.values[-1])
    assert result.value == pytest.approx(np.nanmean(result.values), rel=1e-14)


def test_aggregate_of_weighted_folds_by_a_step_wise_method_has_no_floor():
    # Its floor needs whole counts; the mean itself does not, and it raised all the same.
    y, s = [1, 0, 1, 0], [0.9, 0.8, 0.7, 0.6]
    for how in ("mean", "pooled"):
        result = fastpr.aggregate([(y, s, [0.3] * 4), (y, s)], how=how,
                                  method="average_precision")
        assert result.value == pytest.approx(fastpr.auc_pr(y, s, method="average_precision"))
        assert math.isnan(result.floor) and math.isnan(result.floors[0])


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: fastpr.at_prevalence([1, 0], [0.5, 0.2], 0.0), ValueError,
         r"prevalence must be in the open interval \(0, 1\), got 0.0"),
        (lambda: fastpr.at_prevalence([1, 1], [0.5, 0.2], 0.1), ValueError,
         r"y_true has no negatives .* cannot change the prevalence"),
        (lambda: fastpr.evaluate_at_thresholds([1, 0], [0.5, 0.2], [0.3, np.nan]), ValueError,
         r"thresholds contains NaN at index 1"),
        (lambda: fastpr.evaluate_at_thresholds([1, 0], [0.5, 0.2], []), ValueError,
         r"thresholds is empty"),
        (lambda: fastpr.aggregate([]), ValueError, r"folds is empty"),
        (lambda: fastpr.aggregate([fastpr.evaluate([1, 0], [1, 0])], how="pooled"), TypeError,
         r"folds\[0\] is Evaluation \(pooling needs the predictions\)"),
        (lambda: fastpr.aggregate([[1, 0]]), TypeError, r"folds\[0\] is list"),
        (lambda: fastpr.aggregate(_folds(), how="median"), ValueError,
         r"how must be one of 'mean', 'normalized', 'pooled'; got 'median'"),
        (lambda: fastpr.aggregate([([1, 0, 1], [[0.5, 0.2, 0.1], [0.1, 0.2, 0.5]])]), ValueError,
         r"folds\[0\] holds several rankings"),
        (lambda: fastpr.aggregate([([1, 0, 1, 0], [4, 3, 2, 1], [0.3] * 4)], how="normalized",
                                  method="average_precision"), ValueError,
         r"folds\[0\] weighs its classes 0.6 and 0.6, not whole numbers"),
    ],
)
def test_bad_arguments_are_named(call, error, match):
    with pytest.raises(error, match=match):
        call()
