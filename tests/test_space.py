"""ROC <-> PR maps (Theorem 3.1) and dominance in both spaces (Theorem 3.2)."""
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import fastpr
import reference as ref
from strategies import FEW, SETTINGS


@FEW
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 6)), min_size=2, max_size=30))
def test_roc_points_map_to_the_pr_curve_and_back(rows):
    y = np.array([r[0] for r in rows] + [True, False])
    s = np.array([r[1] for r in rows] + [3, 3], dtype=float)
    roc, pr = fastpr.roc_points(y, s), fastpr.pr_curve(y, s)
    recall, precision = fastpr.roc_to_pr(roc.fpr, roc.tpr, n_pos=roc.n_pos, n_neg=roc.n_neg)
    rising = roc.tp > 0
    assert np.allclose(recall, pr.recall, rtol=1e-15, atol=0)
    assert np.allclose(precision[rising], pr.precision[rising], rtol=1e-14, atol=0)
    fpr, tpr = fastpr.pr_to_roc(pr.recall[rising], pr.precision[rising], n_pos=pr.n_pos,
                                n_neg=pr.n_neg)
    assert np.allclose(fpr, roc.fpr[rising], rtol=1e-12, atol=1e-15)
    assert np.array_equal(tpr, roc.tpr[rising])


def test_whole_curves_convert_with_their_counts():
    y, s = [1, 0, 1, 1, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.6, 0.1]
    pr = fastpr.roc_to_pr(fastpr.roc_points(y, s))
    expected = fastpr.pr_curve(y, s)
    assert np.array_equal(pr.precision, expected.precision)
    assert np.array_equal(pr.thresholds, expected.thresholds)
    roc = fastpr.pr_to_roc(expected)
    assert np.array_equal(roc.fpr, fastpr.roc_points(y, s).fpr)


def test_table1_points_convert_exactly():
    # Davis & Goadrich Table 1: P = 20, N = 2000; A = (TP 5, FP 5), B = (TP 10, FP 30).
    recall, precision = fastpr.roc_to_pr([5 / 2000, 30 / 2000], [0.25, 0.5], n_pos=20, n_neg=2000)
    assert np.allclose(precision, [0.5, 0.25], rtol=1e-15)
    fpr, _ = fastpr.pr_to_roc(recall, precision, n_pos=20, n_neg=2000)
    assert np.allclose(fpr * 2000, [5, 30], rtol=1e-14)


def test_origin_has_no_precision():
    _, precision = fastpr.roc_to_pr([0.0, 0.5], [0.0, 0.0], n_pos=2, n_neg=2)
    assert np.isnan(precision[0]) and precision[1] == 0.0


@pytest.mark.parametrize("fpr, tpr, n_pos, n_neg, expected", [
    (1.0, 1.0, 1e308, 1e308, 0.5),  # TP + FP overflowed: precision 0
    (0.9, 0.9, 1.5e308, 1e308, 0.6),
    (1e-300, 1e-300, 1e-300, 1e-300, 0.5),  # TP and FP underflowed: NaN
    (0.0, 0.5, 1.0, 1e300, 1.0),
    (0.5, 0.0, 1.0, 1.0, 0.0),
])
def test_precision_of_extreme_class_totals(fpr, tpr, n_pos, n_neg, expected):
    _, precision = fastpr.roc_to_pr(fpr, tpr, n_pos=n_pos, n_neg=n_neg)
    assert precision == pytest.approx(expected, rel=1e-15)


def test_rates_from_precision_stay_in_the_unit_interval():
    # 2 / 3 / (1 / 3) rounds to 2.0000000000000004 false positives, one more than n_neg = 2 in
    # rounding; the rate was 1.0000000000000002, which roc_to_pr then refused.
    fpr, recall = fastpr.pr_to_roc(1.0, 1 / 3, n_pos=1, n_neg=2)
    assert fpr == 1.0 and recall == 1.0
    assert fastpr.roc_to_pr(fpr, recall, n_pos=1, n_neg=2)[1] == pytest.approx(1 / 3)


@st.composite
def ranking_pairs(draw):
    """Two rankings of the same labels; often the second is the first with positives raised
    (which can only help), so dominance is common, not rare."""
    n = draw(st.integers(2, 14))
    y = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    y[0], y[1] = True, False
    s_a = np.array(draw(st.lists(st.integers(0, 5), min_size=n, max_size=n)), dtype=float)
    if draw(st.booleans()):
        raise_by = np.array(draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)))
        s_b = s_a + raise_by * np.array(y)
    else:
        s_b = np.array(draw(st.lists(st.integers(0, 5), min_size=n, max_size=n)), dtype=float)
    return np.array(y), s_a, s_b


@SETTINGS
@given(ranking_pairs())
def test_dominance_agrees_with_the_oracle_and_across_spaces(pair):
    y, s_a, s_b = pair
    cnt_a, cnt_b = (ref.counts(ref.operating_points(y, s)) for s in (s_a, s_b))
    curve_a, curve_b = fastpr.roc_points(y, s_a), fastpr.roc_points(y, s_b)
    for first, second, cnt_first, cnt_second in ((curve_a, curve_b, cnt_a, cnt_b),
                                                  (curve_b, curve_a, cnt_b, cnt_a)):
        in_roc = fastpr.dominates(first, second, space="roc")
        in_pr = fastpr.dominates(fastpr.roc_to_pr(first), fastpr.roc_to_pr(second), space="pr")
        assert in_roc == ref.dominates(cnt_first, cnt_second, "roc")
        assert in_pr == ref.dominates(cnt_first, cnt_second, "pr")
        assert in_roc == in_pr


@FEW
@given(ranking_pairs())
def test_raising_positives_dominates_and_the_hull_dominates_its_curve(pair):
    y, s_a, _ = pair
    raised = s_a + 10.0 * y
    curve, better = fastpr.roc_points(y, s_a), fastpr.roc_points(y, raised)
    hull = fastpr.roc_convex_hull(y, s_a)
    for space in ("roc", "pr"):
        assert fastpr.dominates(better, curve, space=space)
        assert fastpr.dominates(hull, curve, space=space)
        assert fastpr.dominates(curve, curve, space=space)


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: fastpr.pr_to_roc([0.0, 0.5], [1.0, 0.5], n_pos=2, n_neg=2), ValueError,
         r"recall must be in the half-open interval \(0, 1\], got 0.0 at index 0"),
        (lambda: fastpr.pr_to_roc([1.0], [0.1], n_pos=10, n_neg=50), ValueError,
         r"false positives implied by precision is 90.0 at index 0, more than n_neg = 50"),
        (lambda: fastpr.pr_to_roc([0.5], [0.0], n_pos=10, n_neg=50), ValueError,
         r"precision must be in the half-open interval \(0, 1\]"),
        (lambda: fastpr.roc_to_pr([0.5], [0.5, 0.6], n_pos=1, n_neg=1), ValueError,
         r"fpr and tpr have different shapes: \(1,\) and \(2,\)"),
        (lambda: fastpr.roc_to_pr([0.5], [0.5], n_pos=0, n_neg=1), ValueError,
         r"n_pos must be finite and > 0, got 0"),
        (lambda: fastpr.roc_to_pr(["a"], [0.5], n_pos=1, n_neg=1), TypeError,
         r"fpr must be real numbers"),
        (lambda: fastpr.dominates([0, 1], [0, 1]), TypeError, r"curve_a must be a curve"),
        (lambda: fastpr.dominates(fastpr.roc_points([1, 0], [1, 0]),
                                  fastpr.roc_points([1, 0], [1, 0]), space="lift"),
         ValueError, r"space must be one of 'roc', 'pr'; got 'lift'"),
        (lambda: fastpr.dominates(fastpr.roc_points([1, 0], [1, 0]),
                                  fastpr.roc_points([1, 1], [1, 0])), ValueError,
         r"curve_b needs positives and negatives, got n_pos = 2.0 and n_neg = 0.0"),
    ],
)
def test_bad_arguments_are_named(call, error, match):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", fastpr.UndefinedMetricWarning)
        with pytest.raises(error, match=match):
            call()
