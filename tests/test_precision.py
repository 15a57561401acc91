"""Accuracy at extreme skew against high-precision oracles (docs/math/interpolation.rst)."""
from fractions import Fraction

import numpy as np
import pytest
import reference
from compiled import called_from_compiled_code

import fastpr
from fastpr._engine.kernels import area

interpolated_segment = called_from_compiled_code(area.interpolated_segment)


def _count_points(y, s, w):
    return reference.counts(reference.operating_points(y, s, w))


# (labels, scores, weights): single examples carrying up to a billion negatives.
EXTREME = [
    # one positive among a billion weighted negatives, half of them above it
    ([0, 1, 0], [3.0, 2.0, 1.0], [5e8, 1, 5e8]),
    # a tie of one positive with a billion negatives, after a clean positive
    ([1, 1, 0], [3.0, 2.0, 2.0], [1, 1, 1e9]),
    # the positive shares its score with the negatives: a segment from the origin
    ([1, 0], [1.0, 1.0], [1, 1e9]),
    # many tiny positive weights between huge negative blocks
    ([0, 1, 1, 0, 1, 0], [6, 5, 4, 3, 2, 1], [1e9, 1e-6, 3e-6, 7e8, 2e-6, 1e9]),
    # precision rising along a segment (a > 0): negatives first, then a tie
    ([0, 1, 0, 1], [3, 2, 2, 1], [1e9, 300, 1, 5]),
]


@pytest.mark.parametrize("y, s, w", EXTREME)
def test_interpolated_area_keeps_full_precision(y, s, w):
    cnt = _count_points(y, s, w)
    e = fastpr.evaluate(y, s, sample_weight=w)
    assert e.auc_pr == pytest.approx(float(reference.interpolated_area(cnt)), rel=1e-13, abs=0)
    assert e.auc_pr_dg == pytest.approx(float(reference.davis_goadrich_area(cnt)), rel=1e-12,
                                        abs=0)


@pytest.mark.parametrize("seed", range(10))
def test_random_extreme_weights(seed):
    rng = np.random.default_rng(seed)
    n = 30
    y = rng.random(n) < 0.3
    y[:2] = [True, False]
    s = rng.integers(0, 12, n).astype(float)
    w = 10.0 ** rng.uniform(-6, 9, n)
    interpolated = float(reference.interpolated_area(_count_points(y, s, w)))
    assert fastpr.auc_pr(y, s, sample_weight=w) == pytest.approx(interpolated, rel=1e-12, abs=0)


@pytest.mark.parametrize("n_pos, n_neg, fp_above", [(3000, 2000, 0), (2500, 7_000_000, 500)])
def test_davis_goadrich_long_segments(n_pos, n_neg, fp_above):
    """Thousands of tied positives make one long segment (Euler-Maclaurin path), exact here."""
    y = np.r_[np.zeros(1), np.ones(1), np.zeros(1)].astype(bool)
    s = [3.0, 2.0, 2.0]
    w = [fp_above, n_pos, n_neg]
    if fp_above == 0:
        y, s, w = y[1:], s[1:], w[1:]
    expected = reference.davis_goadrich_area(_count_points(y, s, w))
    assert isinstance(expected, Fraction)
    assert fastpr.auc_pr(y, s, sample_weight=w, method="davis_goadrich") == pytest.approx(
        float(expected), rel=1e-13, abs=0
    )


# Vertical runs (fp constant) at every magnitude: (tp_a, fp, tp_b) where the rise is a double.
VERTICAL = [(tp_a, fp, tp_a + rise)
            for tp_a in (0.0, 5e-324, 1e-300, 1.0, 3.0, 1e300)
            for fp in (0.0, 5e-324, 2.0, 1e9, 1e300)
            for rise in (5e-324, 1e-300, 0.5, 1.0, 1e6, 1e300)
            if tp_a + rise > tp_a]


@pytest.mark.parametrize("tp_a, fp, tp_b", VERTICAL)
def test_vertical_segment_keeps_full_precision(tp_a, fp, tp_b):
    # A vertical run takes its own branch of the segment integral (most of a sweep's segments):
    # it must keep the general formula's precision at any magnitude.
    exact = reference.interpolated_segment(*map(Fraction, (tp_a, fp, tp_b, fp)))
    assert interpolated_segment(tp_a, fp, tp_b, fp) == pytest.approx(float(exact), rel=1e-14,
                                                                     abs=0)
