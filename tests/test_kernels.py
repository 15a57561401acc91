"""fastpr.kernels inside a user's own @numba.njit function agrees with the Python API."""
import math

import numba
import numpy as np
import pytest
from compiled import called_from_compiled_code
from hypothesis import given
from hypothesis import strategies as st
from strategies import SETTINGS, rankings
from threads import needs_two_threads

import fastpr
from fastpr import kernels
from fastpr.learn import kernels as learn_kernels
from fastpr._engine.kernels import class_sort, merge_sort, radix
from fastpr._engine.kernels.radix import NUMPY_SORT_ROWS

FIELDS = {
    kernels.AUC_ROC: "auc_roc",
    kernels.AUC_ROC_HULL: "auc_roc_hull",
    kernels.INTERPOLATED: "auc_pr",
    kernels.DAVIS_GOADRICH: "auc_pr_dg",
    kernels.AVERAGE_PRECISION: "average_precision",
    kernels.LOWER_TRAPEZOID: "auc_pr_lower",
    kernels.UPPER_TRAPEZOID: "auc_pr_upper",
    kernels.LINEAR: "auc_pr_linear",
    kernels.HULL: "auc_pr_hull",
}

merge_sorted = called_from_compiled_code(merge_sort.merge_sorted)
sort_classes = called_from_compiled_code(radix.sort_classes)


@numba.njit
def _user_loop(y_true, score_rows, sample_weight):
    """What a learner does: score many candidate rankings of the same labels in compiled code."""
    out = np.empty((score_rows.shape[0], 9))
    for k in range(score_rows.shape[0]):
        out[k] = kernels.summary(y_true, score_rows[k], sample_weight)
    return out


@SETTINGS
@given(rankings())
def test_summary_inside_njit_matches_evaluate(case):
    y, s, w = case
    rows = np.stack([s, -s, np.round(s * 0.5)])
    got = _user_loop(y, rows, np.empty(0) if w is None else w)
    for row, scores in zip(got, rows):
        expected = fastpr.evaluate(y, scores, sample_weight=w)
        for index, field in FIELDS.items():
            assert row[index] == pytest.approx(getattr(expected, field), rel=1e-12, abs=1e-15)


def test_summary_reports_undefined_areas_as_nan():
    row = _user_loop(np.zeros(3, dtype=bool), np.array([[0.1, 0.2, 0.3]]), np.empty(0))[0]
    assert np.isnan(row).all()


@pytest.mark.parametrize("nan", [np.nan, -np.nan])
@pytest.mark.parametrize("n", [4, NUMPY_SORT_ROWS + 10])  # the radix sort, and NumPy's
def test_summary_refuses_nan_instead_of_sweeping_forever(nan, n):
    # A learner whose predictions diverge: the sweep never ended. NaN of either sign sorts to
    # an end of its class.
    y = np.arange(n) % 3 == 0
    scores = np.linspace(0.0, 1.0, n)
    scores[1] = nan
    with pytest.raises(ValueError, match="y_score contains NaN at index 1"):
        _user_loop(y, scores[None, :], np.empty(0))
    with pytest.raises(ValueError, match="y_score contains NaN at index 1"):
        kernels.summary(y, scores.astype(np.float32), np.empty(0))


def _ranking(n):
    return np.arange(n) % 2 == 0, np.arange(n), np.array([0, n])


TOO_SHORT = [  # each read or wrote past an array's end (segfaults, heap corruption) or lied
    (lambda: kernels.summary(np.ones(10, bool), np.random.rand(100_000), np.empty(0)),
     ValueError, "y_score must have the length of y_true"),
    (lambda: kernels.summary(np.ones(10, bool), np.random.rand(10), np.ones(100_000)),
     ValueError, "sample_weight must be empty"),
    (lambda: learn_kernels.ap_delta_table(_ranking(3)[0], np.empty((2, learn_kernels.AP_DELTA_COLUMNS))),
     ValueError, "table must have a row per position"),
    (lambda: learn_kernels.lambda_sums_into(*_ranking(3), np.empty(1)), ValueError,
     "one entry per row"),
    (lambda: learn_kernels.lambda_sums_into(_ranking(3)[0], np.array([0, 5, 1]), _ranking(3)[2],
                                      np.empty(3)), ValueError,
     r"order must be a permutation of range\(n\): row 5 at position 1 is not in range\(3\)"),
    (lambda: learn_kernels.lambda_sums_into(*_ranking(3)[:2], np.array([0, 5]), np.empty(3)),
     ValueError, "offsets must run from 0 to the number of rows"),
    (lambda: learn_kernels.lambda_sums_into(*_ranking(4)[:2], np.array([0, 3, 1, 4]), np.empty(4)),
     ValueError, "offsets must not decrease"),
    (lambda: learn_kernels.descending_order(np.random.rand(10), np.empty(3, np.int64)), ValueError,
     "order must have the length of y_score"),
    (lambda: learn_kernels.ranking_order(np.random.rand(10), np.array([0, 4, 12]),
                                   np.empty(10, np.int64)), ValueError, "offsets must run"),
    (lambda: learn_kernels.top_k_gradients(*_ranking(3)[:1], np.random.rand(3), *_ranking(3)[1:],
                                     np.empty(0), 32, True, True, True, np.empty(3),
                                     np.empty(1)), ValueError, "one entry per row"),
    (lambda: learn_kernels.all_pairs_gradients(*_ranking(3), np.ones(5), True, np.empty(3),
                                         np.empty(3)), ValueError, "one factor per ranking"),
]


@pytest.mark.parametrize("call, error, match", TOO_SHORT)
def test_kernels_refuse_arrays_they_would_read_or_write_past(call, error, match):
    with pytest.raises(error, match=match):
        call()


def _top_k(order=None, scores=None, k=32, scales=np.empty(0), n=6):
    """``top_k_gradients`` of a ranking of ``n`` (rows by descending score), with one of its
    arguments replaced."""
    y, rows, offsets = _ranking(n)
    scores = np.linspace(1.0, 0.0, n) if scores is None else scores
    learn_kernels.top_k_gradients(y, scores, rows if order is None else order, offsets, scales,
                                  k, True, True, True, np.empty(n), np.empty(n))


def _with(array, index, value):
    array = np.array(array, dtype=np.result_type(array, value))
    array[index] = value
    return array


_SCORES = np.linspace(1.0, 0.0, 6)
_SEGMENTS = np.array([0, 2, 6])  # two rankings for ranking_order
# Each gave plausible numbers or left outputs unwritten: NaN and negative weights became finite
# areas, NaN scores NaN gradients, an order that repeats a row left another row's gradient
# unwritten, k = 0 zero gradients and k < 0 NumPy's "negative dimensions".
BAD_VALUES = [
    (lambda: kernels.summary(_ranking(6)[0], _SCORES, _with(np.ones(6), 2, np.nan)),
     r"sample_weight must be finite and >= 0, got NaN at index 2"),
    (lambda: kernels.summary(_ranking(6)[0], _SCORES, _with(np.ones(6), 4, -1.0)),
     r"sample_weight must be finite and >= 0, got a negative value at index 4"),
    (lambda: kernels.summary(_ranking(6)[0], _SCORES, _with(np.ones(6), 0, -np.inf)),
     r"sample_weight must be finite and >= 0, got a negative value at index 0"),
    (lambda: kernels.summary(_ranking(6)[0], _SCORES, _with(np.ones(6), 5, np.inf)),
     r"sample_weight must be finite and >= 0, got infinity at index 5"),
    (lambda: kernels.summary(_ranking(6)[0], _with(_SCORES, 3, np.nan), np.empty(0)),
     r"y_score contains NaN at index 3"),
    (lambda: _top_k(scores=_with(_SCORES, 4, np.nan)), r"y_score contains NaN at index 4"),
    (lambda: _top_k(k=0), r"k must be >= 1, got 0"),
    (lambda: _top_k(k=-5), r"k must be >= 1, got -5"),
    (lambda: _top_k(order=np.array([0, 1, 2, 2, 4, 5])),
     r"order must be a permutation of range\(n\): row 2 again at position 3"),
    (lambda: _top_k(order=np.array([0, 1, 2, 3, 4, 6])),
     r"order must be a permutation of range\(n\): row 6 at position 5"),
    (lambda: _top_k(order=np.array([0, 1, -1, 3, 4, 5])),
     r"order must be a permutation of range\(n\): row -1 at position 2"),
    (lambda: _top_k(scales=np.array([np.nan])),
     r"group_scale must be finite and >= 0, got NaN at index 0"),
    (lambda: learn_kernels.all_pairs_gradients(*_ranking(4)[:1], np.array([3, 1, 1, 0]),
                                               np.array([0, 2, 4]), np.array([1.0, 2.0]),
                                               True, np.empty(4), np.empty(4)),
     r"order must be a permutation of range\(n\): row 1 again at position 2"),
    (lambda: learn_kernels.all_pairs_gradients(*_ranking(4), np.array([-2.0]), True,
                                               np.empty(4), np.empty(4)),
     r"group_scale must be finite and >= 0, got a negative value at index 0"),
    (lambda: learn_kernels.lambda_sums_into(_ranking(3)[0], np.array([2, 0, 2]),
                                            _ranking(3)[2], np.empty(3)),
     r"order must be a permutation of range\(n\): row 2 again at position 2"),
    (lambda: learn_kernels.descending_order(_with(_SCORES, 1, np.nan), np.empty(6, np.int64)),
     r"y_score contains NaN at index 1"),
    (lambda: learn_kernels.ranking_order(_with(_SCORES, 3, np.nan), _SEGMENTS,
                                         np.empty(6, np.int64)),
     r"y_score contains NaN at index 3"),
]


@pytest.mark.parametrize("call, match", BAD_VALUES)
def test_kernels_refuse_values_that_would_give_plausible_numbers(call, match):
    with pytest.raises(ValueError, match=match):
        call()


_BAD_WEIGHTS = {math.nan: "NaN", -math.nan: "NaN", -1.0: "a negative value",
                -5e-324: "a negative value", -math.inf: "a negative value", math.inf: "infinity"}


@SETTINGS
@given(rankings(weights=("int", "float")), st.data())
def test_summary_names_the_first_bad_weight(case, data):
    y, s, w = case
    first = data.draw(st.integers(0, w.size - 1))
    for k in data.draw(st.lists(st.integers(first, w.size - 1), min_size=1, max_size=3)):
        w[k] = data.draw(st.sampled_from(sorted(_BAD_WEIGHTS, key=str)))
    w[first] = bad = data.draw(st.sampled_from(sorted(_BAD_WEIGHTS, key=str)))
    match = f"sample_weight must be finite and >= 0, got {_BAD_WEIGHTS[bad]} at index {first}$"
    with pytest.raises(ValueError, match=match):
        kernels.summary(y, s, w)
    w[~((w >= 0.0) & (w < math.inf))] = -0.0  # a weight of 0, not a negative one
    kernels.summary(y, s, w)


@SETTINGS
@given(st.integers(1, 12).flatmap(
    lambda n: st.lists(st.integers(-1, n), min_size=n, max_size=n)))
def test_learner_kernels_take_an_order_if_and_only_if_it_is_a_permutation(rows):
    # Hostile orders: rows repeated, missing, negative or past the end.
    n = len(rows)
    order = np.array(rows, dtype=np.int64)
    y, _, offsets = _ranking(n)
    ranked_true = y[np.clip(order, 0, n - 1)]
    calls = [
        lambda: learn_kernels.lambda_sums_into(ranked_true, order, offsets, np.empty(n)),
        lambda: learn_kernels.all_pairs_gradients(ranked_true, order, offsets, np.empty(0), True,
                                                  np.empty(n), np.empty(n)),
        lambda: learn_kernels.top_k_gradients(ranked_true, np.linspace(1.0, 0.0, n), order,
                                              offsets, np.empty(0), 3, True, True, True,
                                              np.empty(n), np.empty(n)),
    ]
    if sorted(rows) == list(range(n)):
        for call in calls:
            call()
    else:
        for call in calls:
            with pytest.raises(ValueError, match=r"order must be a permutation of range\(n\)"):
                call()


def test_deltas_at_positions_outside_the_ranking_are_nan():
    table = np.empty((4, learn_kernels.AP_DELTA_COLUMNS))  # a ranking of 3
    learn_kernels.ap_delta_table(np.array([True, False, True]), table)
    assert learn_kernels.swap_delta_at(table, 0, 1) == learn_kernels.move_delta_at(table, 0, 1) != 0.0
    for p, q in ((0, 3), (3, 0), (-1, 1), (0, 50)):  # 3 read the row past the table's end
        assert np.isnan(learn_kernels.swap_delta_at(table, p, q))
        assert np.isnan(learn_kernels.move_delta_at(table, p, q))


@SETTINGS
@given(st.lists(st.one_of(st.floats(allow_nan=False), st.sampled_from([0.0, -0.0, 5e-324])),
                max_size=300))
def test_radix_sort_orders_like_numpy_and_carries_the_payload(values):
    values = np.array(values, dtype=np.float64)
    payload = np.arange(values.size, dtype=np.float64)
    ordered, moved, _, _ = sort_classes(values, payload, np.empty(0), np.empty(0))  # weighted
    np.testing.assert_array_equal(ordered, np.sort(values))  # -0.0 == 0.0 compare equal
    np.testing.assert_array_equal(values[moved.astype(np.int64)], ordered)
    # Stable: equal keys keep their input order.
    same = ordered[1:] == ordered[:-1]
    same_bits = np.signbit(ordered[1:]) == np.signbit(ordered[:-1])
    assert np.all(np.diff(moved)[same & same_bits] > 0)


@SETTINGS
@given(st.lists(st.one_of(st.floats(allow_nan=False), st.sampled_from([0.0, -0.0, 1.0])),
                max_size=300), st.booleans())
def test_merge_sort_is_numpys_stable_sort_and_carries_the_payload(values, carry):
    values = np.array(values, dtype=np.float64)
    payload = np.arange(values.size, dtype=np.float64) if carry else np.empty(0)
    ordered, moved = merge_sorted(values, payload)
    expected = np.argsort(values, kind="stable")  # equal keys (-0.0 == 0.0) in input order
    np.testing.assert_array_equal(ordered, values[expected])
    np.testing.assert_array_equal(moved, expected if carry else payload)


@SETTINGS
@given(rankings(float_width=32))
def test_summary_takes_float32_scores(case):
    y, s, w = case
    got = _user_loop(y, s[np.newaxis], np.empty(0) if w is None else w)[0]
    expected = fastpr.evaluate(y, s, sample_weight=w)
    for index, field in FIELDS.items():
        assert got[index] == pytest.approx(getattr(expected, field), rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("weighted", [False, True])
def test_summary_of_classes_past_numpys_sort_threshold(dtype, weighted):
    # Both classes long enough for NumPy's sort without weights (the radix sort with them).
    n = 4 * NUMPY_SORT_ROWS
    rng = np.random.default_rng(7)
    y = rng.random(n) < 0.4
    s = np.round(rng.normal(size=n), 3).astype(dtype)  # ties too
    w = rng.random(n) if weighted else None
    got = _user_loop(y, s[np.newaxis], np.empty(0) if w is None else w)[0]
    expected = fastpr.evaluate(y, s, sample_weight=w)
    for index, field in FIELDS.items():
        assert got[index] == pytest.approx(getattr(expected, field), rel=1e-12, abs=1e-15)


def test_numpys_sort_from_compiled_code_orders_like_numpy():
    values = np.random.default_rng(8).normal(size=NUMPY_SORT_ROWS + 1)
    values[:3] = [0.0, -0.0, 5e-324]
    small = np.array([3.0, -1.0, 2.0], dtype=np.float32)
    ordered, moved, small_ordered, _ = sort_classes(values.copy(), np.empty(0), small.copy(),
                                                    np.empty(0))
    np.testing.assert_array_equal(ordered, np.sort(values))
    np.testing.assert_array_equal(small_ordered, np.sort(small).astype(np.float64))
    assert moved.size == 0


@needs_two_threads
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_summary_sorts_a_large_class_in_halves_as_evaluate_does(two_threads, monkeypatch, dtype):
    # A class of 2^17 distinct scores or more, twice the other: evaluate sorts it in halves on
    # two threads, and so does the kernel, with the same bits as the result.
    halves = []
    sorted_in_halves = class_sort._sorted_in_halves

    def counted(large, small):
        halves.append(large.size)
        return sorted_in_halves(large, small)

    monkeypatch.setattr(class_sort, "_sorted_in_halves", counted)
    n = 1 << 18
    rng = np.random.default_rng(9)
    y = rng.random(n) < 0.1
    s = rng.normal(size=n).astype(dtype)
    got = _user_loop(y, s[np.newaxis], np.empty(0))[0]
    assert halves == [np.count_nonzero(~y)]
    expected = fastpr.evaluate(y, s)
    for index, field in FIELDS.items():
        assert got[index] == getattr(expected, field)


def test_a_helper_refuses_a_call_from_python_and_serves_compiled_callers():
    # A helper has no entry point for Python: a call must raise, not run into a null pointer.
    values = np.array([3.0, -1.0, 2.0])
    with pytest.raises(TypeError, match="merge_sorted is a helper"):
        merge_sort.merge_sorted(values, np.empty(0))
    np.testing.assert_array_equal(merge_sorted(values, np.empty(0))[0], np.sort(values))
