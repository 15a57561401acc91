"""The papers' worked examples (docs/math/interpolation.rst, estimators.rst, unachievable.rst)."""
from fractions import Fraction

import mpmath
import numpy as np
import pytest

import fastpr
from fastpr import datasets


def test_table1_intermediate_points():
    points = fastpr.interpolate_pr(*datasets.table1_points())
    np.testing.assert_array_equal(points.tp, [5, 6, 7, 8, 9, 10])
    np.testing.assert_array_equal(points.fp, [5, 10, 15, 20, 25, 30])
    np.testing.assert_allclose(points.recall, [0.25, 0.30, 0.35, 0.40, 0.45, 0.50], rtol=1e-15)
    exact = [Fraction(tp, tp + fp) for tp, fp in zip(range(5, 11), range(5, 31, 5))]
    np.testing.assert_allclose(points.precision, [float(p) for p in exact], rtol=1e-15)
    # As printed in the paper.
    np.testing.assert_array_equal(points.precision.round(3),
                                  [0.500, 0.375, 0.318, 0.286, 0.265, 0.250])


def test_table1_fractional_step_ends_at_b():
    points = fastpr.interpolate_pr(5, 5, 10, 30, 20, step=2.0)
    np.testing.assert_array_equal(points.tp, [5, 7, 9, 10])
    np.testing.assert_array_equal(points.fp, [5, 15, 25, 30])


def _figure6_exact():
    """Interpolated and Davis-Goadrich areas of Figure 6, at 40 digits."""
    with mpmath.workdps(40):
        s = mpmath.mpf(56_164) / 424
        precision = lambda t: t / (t + s * (t - 9))  # noqa: E731  (segment (9, 0) to (433, 56164))
        interpolated = (9 + mpmath.quad(precision, [9, 433])) / 433
        nodes = [mpmath.mpf(t) for t in range(9, 434)]
        trapezoids = sum((precision(a) + precision(b)) / 2 for a, b in zip(nodes, nodes[1:]))
        return float(interpolated), float((9 + trapezoids) / 433)


def test_figure6_interpolation_versus_straight_lines():
    e = fastpr.evaluate(*datasets.figure6_ranking())
    interpolated, davis_goadrich = _figure6_exact()
    assert e.auc_pr == pytest.approx(interpolated, rel=1e-13)
    assert e.auc_pr_dg == pytest.approx(davis_goadrich, rel=1e-13)
    assert round(e.auc_pr, 3) == 0.029
    assert round(e.auc_pr_dg, 3) == 0.030
    assert e.auc_pr_linear == pytest.approx((9 + 424 * (1 + 433 / 56_597) / 2) / 433, rel=1e-13)
    assert round(e.auc_pr_linear, 1) == 0.5


@pytest.mark.parametrize("n_pos, n_neg, expected", [(1, 9, 0.052), (1, 1, 0.307)])
def test_unachievable_area_at_paper_prevalences(n_pos, n_neg, expected):
    # Boyd et al. 2012: AUCPR_min at prevalence 0.1 is about 0.052, at 0.5 about 0.307.
    y_true = np.r_[np.zeros(n_neg), np.ones(n_pos)]
    e = fastpr.evaluate(y_true, -np.arange(y_true.size))  # every negative above every positive
    assert round(e.auc_pr_min, 3) == expected
    assert e.auc_pr == pytest.approx(e.auc_pr_min, rel=1e-13)
    assert e.auc_npr == pytest.approx(0.0, abs=1e-13)


@pytest.mark.parametrize("n_pos, n_neg", [(3, 1000), (50, 50), (1, 10**9)])
def test_auc_pr_min_is_the_area_of_the_worst_ranking(n_pos, n_neg):
    y_true = np.r_[np.zeros(2), np.ones(n_pos)]
    worst = fastpr.evaluate(y_true, -np.arange(y_true.size), sample_weight=np.r_[
        n_neg / 2, n_neg / 2, np.ones(n_pos)])
    with mpmath.workdps(40):
        pi = mpmath.mpf(n_pos) / (n_pos + n_neg)
        closed_form = 1 + (1 - pi) * mpmath.log(1 - pi) / pi
    assert worst.auc_pr_min == pytest.approx(float(closed_form), rel=1e-13)
    assert worst.auc_pr == pytest.approx(float(closed_form), rel=1e-12)
