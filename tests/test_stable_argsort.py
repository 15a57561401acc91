"""stable_argsort: exactly NumPy's stable permutation, through the repair and the fallback."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import SETTINGS, score_pools

from fastpr._engine.ranking import stable_argsort


def assert_stable_order(values):
    np.testing.assert_array_equal(stable_argsort(values), np.argsort(values, kind="stable"))


@SETTINGS
@given(st.sampled_from([64, 32]).flatmap(
    lambda width: st.tuples(st.just(width), score_pools(width), st.lists(st.integers(0, 7),
                                                                          max_size=200))))
def test_equals_numpys_stable_argsort_with_ties_signed_zeros_and_infinities(case):
    width, pool, picks = case
    values = np.array([pool[k % len(pool)] for k in picks],
                      dtype=np.float64 if width == 64 else np.float32)
    assert_stable_order(values)


@pytest.mark.parametrize("n_copies", [0, 1, 10, 600, 6000, 7000])
def test_mostly_distinct_values_with_some_ties(n_copies):
    # 100,000 values: up to 6,250 tied neighbours are repaired in place, more fall back to the
    # stable sort; signed zeros tie with each other.
    values = np.random.default_rng(n_copies).normal(size=100_000)
    if n_copies:
        values[-n_copies:] = values[:n_copies]
    values[::7000] = -0.0
    values[3::7000] = 0.0
    assert_stable_order(values)


def test_edge_sizes_and_one_repeated_value():
    for values in (np.empty(0), np.array([2.5]), np.zeros(1000), np.full(999, np.inf),
                   np.array([0.0, -0.0] * 500)):
        assert_stable_order(values)
