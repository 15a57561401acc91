"""The unachievable region: min_precision, auc_pr_min for every estimator, auc_npr.

Defined in docs/math/unachievable.rst.
"""
import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import fastpr
import reference as ref
from strategies import FEW, SETTINGS, rankings

ORACLE_AREAS = {
    "interpolated": ref.interpolated_area,
    "davis_goadrich": ref.davis_goadrich_area,
    "average_precision": ref.average_precision,
    "lower_trapezoid": ref.lower_trapezoid,
    "upper_trapezoid": ref.upper_trapezoid,
    "linear": ref.linear,
}


@pytest.mark.parametrize("prevalence, expected", [(0.5, 0.3069), (0.1, 0.0518), (0.01, 0.0050)])
def test_auc_pr_min_reproduces_boyd_et_al(prevalence, expected):
    n_pos = round(1000 * prevalence)
    assert round(fastpr.auc_pr_min(n_pos, 1000 - n_pos), 4) == expected


@SETTINGS  # no deadline: the first example compiles kernels
@given(st.integers(1, 12), st.integers(0, 12))
def test_auc_pr_min_is_the_area_of_the_explicit_worst_ranking(n_pos, n_neg):
    y, s = ref.worst_ranking(n_pos, n_neg)
    cnt = ref.counts(ref.operating_points(y, s))
    for method, oracle in ORACLE_AREAS.items():
        assert math.isclose(fastpr.auc_pr_min(n_pos, n_neg, method=method), float(oracle(cnt)),
                            rel_tol=1e-12, abs_tol=1e-15), method
    assert math.isclose(fastpr.auc_pr_min(n_pos, n_neg, method="hull"),
                        float(ref.hull_area(ref.operating_points(y, s))), rel_tol=1e-12)


@SETTINGS  # no deadline: the first example compiles kernels
@given(st.floats(1e-9, 1e9), st.floats(1e-9, 1e9))
def test_interpolated_closed_form_matches_high_precision(n_pos, n_neg):
    assert math.isclose(fastpr.auc_pr_min(n_pos, n_neg), float(ref.auc_pr_min(n_pos, n_neg)),
                        rel_tol=1e-13)


def test_average_precision_minimum_is_the_papers_sum():
    n_pos, n_neg = 37, 1000
    expected = sum(Fraction(i, i + n_neg) for i in range(1, n_pos + 1)) / n_pos
    assert math.isclose(fastpr.auc_pr_min(n_pos, n_neg, method="average_precision"),
                        float(expected), rel_tol=1e-13)


def test_without_negatives_every_minimum_is_one():
    for method in fastpr.PR_METHODS:
        assert fastpr.auc_pr_min(5, 0, method=method) == 1.0


def test_min_precision_is_the_worst_rankings_precision():
    n_pos, n_neg = 7, 30
    recall = np.arange(n_pos + 1) / n_pos
    expected = [k / (k + n_neg) for k in range(n_pos + 1)]
    assert np.allclose(fastpr.min_precision(recall, n_pos / (n_pos + n_neg)), expected,
                       rtol=1e-14, atol=0)
    assert fastpr.min_precision(1.0, 0.25) == pytest.approx(0.25)


@FEW
@given(rankings(weights=("none", "int")))
def test_no_operating_point_enters_the_unachievable_region(ranking):
    y, s, w = ranking
    curve = fastpr.pr_curve(y, s, sample_weight=w)
    floor = fastpr.min_precision(curve.recall, curve.n_pos / (curve.n_pos + curve.n_neg))
    assert np.all(curve.precision >= floor - 1e-15)


@FEW
@given(rankings(weights=("none", "int")), st.sampled_from(list(ORACLE_AREAS) + ["hull"]))
def test_auc_npr_normalises_by_the_same_estimators_floor(ranking, method):
    y, s, w = ranking
    n_pos, n_neg = ref.totals(y, s, w)
    cnt = ref.counts(ref.operating_points(y, s, w))
    area = float(ref.hull_area(ref.operating_points(y, s, w)) if method == "hull"
                 else ORACLE_AREAS[method](cnt))
    worst_y, worst_s = ref.worst_ranking(int(n_pos), int(n_neg))
    worst_cnt = ref.counts(ref.operating_points(worst_y, worst_s))
    floor = float(ref.hull_area(ref.operating_points(worst_y, worst_s)) if method == "hull"
                  else ORACLE_AREAS[method](worst_cnt))
    expected = (area - floor) / (1 - floor)
    assert math.isclose(fastpr.auc_npr(y, s, sample_weight=w, method=method), expected,
                        rel_tol=1e-9, abs_tol=1e-12)


def test_evaluation_reports_the_interpolated_floor_and_normalised_area():
    y, s = [1, 0, 1, 1, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.6, 0.1]
    e = fastpr.evaluate(y, s)
    assert e.auc_pr_min == fastpr.auc_pr_min(3, 3)
    assert e.auc_npr == pytest.approx(fastpr.auc_npr(y, s), rel=1e-15)


def test_auc_npr_without_negatives_is_nan_with_a_warning():
    with pytest.warns(fastpr.UndefinedMetricWarning, match="normalised AUC-PR is undefined"):
        assert math.isnan(fastpr.auc_npr([1, 1], [0.2, 0.3]))


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: fastpr.auc_pr_min(0, 5), ValueError, r"n_pos must be finite and > 0, got 0"),
        (lambda: fastpr.auc_pr_min(2, -1), ValueError, r"n_neg must be finite and >= 0, got -1"),
        (lambda: fastpr.auc_pr_min("2", 1), TypeError, r"n_pos must be a real number"),
        (lambda: fastpr.auc_pr_min(2.5, 1, method="average_precision"), ValueError,
         r"n_pos must be a whole number for method='average_precision'"),
        (lambda: fastpr.auc_pr_min(2, 1, method="trapezoid"), ValueError, r"method must be one"),
        (lambda: fastpr.min_precision(1.5, 0.1), ValueError,
         r"recall must be in the closed interval \[0, 1\]"),
        (lambda: fastpr.min_precision([0.5, -0.1], 0.1), ValueError,
         r"recall must be in the closed interval \[0, 1\], got -0.1 at index 1"),
        (lambda: fastpr.min_precision(0.5, 1.0), ValueError,
         r"prevalence must be in the open interval \(0, 1\), got 1.0"),
    ],
)
def test_bad_arguments_are_named(call, error, match):
    with warnings.catch_warnings(), pytest.raises(error, match=match):
        call()


@pytest.mark.parametrize("ratio", [1e-12, 1e-6, 0.01, 0.0625 * (1 - 1e-12), 0.0625,
                                   0.0625 * (1 + 1e-12), 0.3, 1.0, 1.5, 40.0])
def test_interpolated_closed_form_is_accurate_to_the_last_bits_on_each_side_of_its_branches(ratio):
    # log1p_excess switches from a fixed polynomial to a series loop at x = 1/16, and to log1p
    # at x = 1.
    n_neg = 1e6
    n_pos = ratio * n_neg
    assert math.isclose(fastpr.auc_pr_min(n_pos, n_neg), float(ref.auc_pr_min(n_pos, n_neg)),
                        rel_tol=4e-16)
