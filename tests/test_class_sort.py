"""Sorting one ranking's classes: a large class sorts as two halves on two threads, merged after;
the classes must come out as one sort of each would leave them, NaN included."""
import numba
import numpy as np
import pytest
from threads import needs_two_threads

import fastpr
import fastpr.sklearn
from fastpr._engine.kernels.class_sort import _HALVES_SORT_MIN, _mostly_distinct
from fastpr._engine.ranking import sort_validated


def _ranking(positive_share, dtype, decimals=None, seed=0):
    """Scores with some ties, both zeros and both infinities (or, rounded, with many ties); the
    larger class above the halves' threshold."""
    rng = np.random.default_rng(seed)
    n = 2 * _HALVES_SORT_MIN + 3
    scores = rng.standard_normal(n).astype(dtype)
    if decimals is not None:
        scores = np.round(scores, decimals)
    scores[rng.integers(0, n, 50)] = -0.0
    scores[rng.integers(0, n, 50)] = np.inf
    scores[rng.integers(0, n, 50)] = -np.inf
    return rng.random(n) < positive_share, scores


@needs_two_threads
@pytest.mark.parametrize("decimals", [None, 2])  # halves, then one sort (many ties)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("positive_share", [0.01, 0.3, 0.99])
def test_each_class_comes_out_as_one_sort_leaves_it(two_threads, positive_share, dtype, decimals):
    is_positive, scores = _ranking(positive_share, dtype, decimals)
    larger = scores[is_positive] if positive_share > 0.5 else scores[~is_positive]
    assert _mostly_distinct(larger) == (decimals is None)
    ranking = sort_validated(is_positive, scores.copy(), None)
    assert np.array_equal(ranking.pos, np.sort(scores[is_positive]))
    assert np.array_equal(ranking.neg, np.sort(scores[~is_positive]))


@needs_two_threads
@pytest.mark.parametrize("at", [0, 1, 2 * _HALVES_SORT_MIN])  # first half, second half
def test_nan_ends_its_class_where_callers_look_for_it(two_threads, at):
    is_positive, scores = _ranking(0.01, np.float64)
    is_positive[at] = False
    scores[at] = np.nan
    ranking = sort_validated(is_positive, scores, None)
    assert np.isnan(ranking.neg[-1]) and np.count_nonzero(np.isnan(ranking.neg)) == 1
    with pytest.raises(ValueError, match="NaN"):
        fastpr.sklearn.average_precision_score(is_positive, scores)


@needs_two_threads
def test_the_row_does_not_depend_on_the_thread_count(two_threads):
    is_positive, scores = _ranking(0.01, np.float64)
    two = fastpr.evaluate(is_positive, scores)
    numba.set_num_threads(1)
    one = fastpr.evaluate(is_positive, scores)
    assert two == one
