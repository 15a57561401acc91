"""Top k: precision and recall of the k highest scores, exact under ties (the expected value
over the orders of the tie group), per query (P@k, R-precision), against the slow oracles."""
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import reference as ref
from fastpr._engine.kernels.top_k import positives_at_k
from strategies import SETTINGS, rankings
from test_partial import binned_points, swept, wide_rankings


# --------------------------------------------------------------------------- kernel
@SETTINGS
@given(rankings(min_n=1, max_n=6, defined=False, weights=("none",)), st.integers(0, 7))
def test_positives_at_k_is_the_mean_over_every_order_of_the_ties(case, k):
    y, s, _ = case
    points, n, _, _, _ = swept(y, s)
    got = positives_at_k(points, n, k)
    if k > len(y):
        assert math.isnan(got)
        return
    if k == 0:
        assert got == 0.0
        return
    tp, _, precision = ref.top_k_by_orders(y, s, k)
    assert got == pytest.approx(float(tp), rel=1e-15)
    assert got / k == pytest.approx(float(precision), rel=1e-15)  # E[tp / k] = E[tp] / k


@SETTINGS
@given(wide_rankings(), st.data())
def test_positives_at_k_is_unchanged_on_gap_bins(case, data):
    y, s, _ = case
    full, binned = binned_points(y, s)
    k = data.draw(st.integers(1, len(y)))
    assert positives_at_k(binned, binned.shape[1], k) == positives_at_k(full, full.shape[1], k)


def test_positives_at_k_of_a_tie_group_takes_its_share():
    # 0.9 (pos), then 0.5 tied: 2 positives, 1 negative; then 0.1 (neg).
    points, n, _, _, _ = swept([1, 1, 1, 0, 0], [0.9, 0.5, 0.5, 0.5, 0.1])
    assert [positives_at_k(points, n, k) for k in range(6)] == [0, 1, 1 + 2 / 3, 1 + 4 / 3, 3,
                                                                  3]
    assert math.isnan(positives_at_k(points, n, 6))
