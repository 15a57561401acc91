"""Where definitions coincide, fastpr equals scikit-learn (docs/math/estimators.rst)."""
import numpy as np
import pytest
from sklearn import metrics as skm

import fastpr


def _random_case(seed, n, weighted):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < rng.uniform(0.05, 0.6)
    y[:2] = [True, False]
    s = np.round(rng.normal(size=n) + y, int(rng.integers(0, 3)))  # 0-2 decimals: many ties
    w = rng.choice([0.0, 0.5, 1.0, 2.5, 7.0], size=n) if weighted else None
    if weighted:
        w[:2] = 1.0
    return y, s, w


CASES = [(seed, n, weighted) for seed in range(12) for n in (5, 60, 3000) for weighted in (0, 1)]


@pytest.mark.parametrize("seed, n, weighted", CASES)
def test_matches_scikit_learn(seed, n, weighted):
    y, s, w = _random_case(seed, n, weighted)
    e = fastpr.evaluate(y, s, sample_weight=w)
    assert e.auc_roc == pytest.approx(skm.roc_auc_score(y, s, sample_weight=w), rel=1e-12)
    assert e.average_precision == pytest.approx(
        skm.average_precision_score(y, s, sample_weight=w), rel=1e-12
    )
    precision, recall, _ = skm.precision_recall_curve(y, s, sample_weight=w)
    assert e.auc_pr_linear == pytest.approx(skm.auc(recall, precision), rel=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_roc_curve_points_match_scikit_learn(seed):
    y, s, w = _random_case(seed, 500, True)
    ours = fastpr.roc_points(y, s, sample_weight=w)
    fpr, tpr, thresholds = skm.roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    np.testing.assert_allclose(ours.fpr, fpr, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(ours.tpr, tpr, rtol=1e-12, atol=1e-15)
    np.testing.assert_array_equal(ours.thresholds[1:], thresholds[1:])


@pytest.mark.parametrize("seed", range(5))
def test_pr_curve_points_match_scikit_learn(seed):
    y, s, _ = _random_case(seed, 500, False)
    ours = fastpr.pr_curve(y, s)
    precision, recall, thresholds = skm.precision_recall_curve(y, s)
    # scikit-learn lists points in ascending threshold order and ends with (recall 0, precision 1)
    # in place of the origin.
    np.testing.assert_allclose(ours.recall[1:], recall[-2::-1], rtol=1e-12)
    np.testing.assert_allclose(ours.precision[1:], precision[-2::-1], rtol=1e-12)
    np.testing.assert_array_equal(ours.thresholds[1:], thresholds[::-1])
