"""fastpr.Accumulator: chunks and merges in any order give the Evaluation of the whole data."""
import itertools
import pickle
import threading
import warnings
from collections import defaultdict

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import fastpr
from fastpr import accumulator
from evaluations import assert_evaluations_close
from strategies import FEW, SETTINGS, rankings


def compacted_oracle(y, s, w):
    """{score: [positive weight, negative weight]} by a dictionary, zero-weight scores left out.

    Python's dict keys -0.0 and 0.0 alike (they are equal and hash alike): one threshold, as
    docs/math/points.rst defines.
    """
    totals = defaultdict(lambda: [0.0, 0.0])
    for label, score, weight in zip(y, s, np.ones(len(y)) if w is None else w):
        totals[float(score)][0 if label else 1] += float(weight)
    return {score: tuple(pw) for score, pw in totals.items() if pw != [0.0, 0.0]}


@st.composite
def chunked(draw, **ranking_options):
    """(y, s, w, chunks): a ranking and a random split of its rows into contiguous chunks."""
    y, s, w = draw(rankings(**ranking_options))
    cuts = sorted(draw(st.sets(st.integers(1, len(y) - 1), max_size=6)))
    bounds = [0, *cuts, len(y)]
    return y, s, w, list(itertools.pairwise(bounds))


def accumulate(y, s, w, start, stop):
    """One chunk, itself fed in one or two updates; None when every row of it weighs 0."""
    if w is not None and not np.any(w[start:stop]):
        return None
    acc = fastpr.Accumulator()
    middle = (start + stop) // 2
    pieces = [(start, middle), (middle, stop)] if w is None and stop - start > 1 else [
        (start, stop)]
    for a, b in pieces:
        acc.update(y[a:b], s[a:b], sample_weight=None if w is None else w[a:b])
    return acc


def merge_in_random_tree(draw, accumulators):
    """Merge random pairs until one accumulator is left."""
    pool = list(accumulators)
    while len(pool) > 1:
        i = draw(st.integers(0, len(pool) - 1))
        left = pool.pop(i)
        j = draw(st.integers(0, len(pool) - 1))
        pool[j] = left.merge(pool[j]) if draw(st.booleans()) else pool[j].merge(left)
    return pool[0]


@SETTINGS
@given(chunked(), st.data())
def test_chunks_merged_in_any_tree_evaluate_like_the_whole(case, data):
    y, s, w, chunks = case
    parts = [acc for acc in (accumulate(y, s, w, a, b) for a, b in chunks) if acc is not None]
    merged = merge_in_random_tree(data.draw, parts)
    assert_evaluations_close(merged.evaluate(), fastpr.evaluate(y, s, sample_weight=w))


@st.composite
def streams(draw):
    """(y, s, w, chunks): a ranking with unit or integer weights cut into up to 40 contiguous
    chunks, empty ones included, with zero-weight chunks put in between."""
    y, s, w = draw(rankings(weights=("none", "int")))
    cuts = sorted(draw(st.lists(st.integers(0, len(y)), max_size=40)))
    bounds = [0, *cuts, len(y)]
    return y, s, w, list(itertools.pairwise(bounds)), draw(st.lists(st.booleans(),
                                                                    min_size=len(bounds)))


@SETTINGS
@given(streams(), st.sampled_from([1, 2, 7, 1 << 16]))
def test_any_stream_of_integer_weights_evaluates_exactly_like_the_whole(case, batch_rows):
    """However the rows are chunked (small chunks wait to be sorted together until they hold
    ``batch_rows``; the sorted batches merge as a binary counter carries; empty chunks and
    chunks of weight 0 add nothing), the state is the compacted ranking and evaluate() is
    evaluate() of all the rows, bit for bit."""
    y, s, w, chunks, weightless = case
    acc = fastpr.Accumulator()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(accumulator, "_BATCH_ROWS", batch_rows)
        for (a, b), then_weightless in zip(chunks, weightless):
            acc.update(y[a:b], s[a:b], sample_weight=None if w is None else w[a:b])
            if then_weightless:
                acc.update(y[a:b], s[a:b], sample_weight=np.zeros(b - a))
    assert acc.evaluate() == fastpr.evaluate(y, s, sample_weight=w)
    scores, pos_weight, neg_weight = acc.to_arrays()
    assert pos_weight.dtype == neg_weight.dtype == np.int64  # counted exactly
    expected = compacted_oracle(y, s, w)
    assert dict(zip(scores.tolist(), zip(pos_weight.tolist(), neg_weight.tolist()))) == expected


def test_empty_and_weightless_chunks_add_nothing():
    """Streams have them: each raised ("y_true is empty", "sample_weight is zero everywhere")
    and stopped the loop, where fastpr.distributed takes such partitions."""
    acc = fastpr.Accumulator().update([], []).update(np.array([], bool), np.array([]))
    acc.update([1, 0], [0.3, 0.1], sample_weight=[0, 0]).update([], [], sample_weight=[])
    assert acc.n_distinct == 0 and acc.n_pos == acc.n_neg == 0
    acc.update([1, 0, 1], [0.9, 0.8, 0.2]).update([], []).update([0], [0.5], sample_weight=[0.0])
    acc.update(["b"], [0.5], pos_label="a").update([], [], pos_label="a")
    assert acc.evaluate() == fastpr.evaluate([1, 0, 1, 0], [0.9, 0.8, 0.2, 0.5])


def test_unit_counts_past_2_to_the_53_are_exact():
    """Float64 sums stop at 2^53: 2^53 + 1 + 1 was 2^53, the two units lost. While every
    weight is an integer the state counts in int64."""
    acc = fastpr.Accumulator().update([1], [0.5], sample_weight=[2.0**53])
    acc.update([0], [0.5], sample_weight=np.array([2**53]))
    for _ in range(3):
        acc.update([1, 0, 0], [0.5, 0.5, 0.2])
    assert (acc.n_pos, acc.n_neg) == (2**53 + 3, 2**53 + 6)
    scores, pos_weight, neg_weight = acc.to_arrays()
    assert pos_weight.tolist() == [0, 2**53 + 3] and neg_weight.tolist() == [3, 2**53 + 3]
    both = acc.merge(fastpr.Accumulator.from_arrays(scores, pos_weight, neg_weight))
    assert (both.n_pos, both.n_neg) == (2**54 + 6, 2**54 + 12)
    copy = pickle.loads(pickle.dumps(acc))
    assert copy.to_arrays()[1].tolist() == [0, 2**53 + 3]
    # A weight that is not an integer turns the state to float64 weights, which round.
    acc.update([1], [0.5], sample_weight=[0.5])
    assert isinstance(acc.n_pos, float) and acc.to_arrays()[1].dtype == np.float64


@SETTINGS
@given(chunked(weights=("none", "int")))
def test_state_is_the_compacted_ranking(case):
    """Distinct scores ascending, each with its class weights; integer weights add up exactly."""
    y, s, w, chunks = case
    acc = fastpr.Accumulator()
    for a, b in chunks:
        if w is None or np.any(w[a:b]):
            acc.update(y[a:b], s[a:b], sample_weight=None if w is None else w[a:b])
    scores, pos_weight, neg_weight = acc.to_arrays()
    expected = compacted_oracle(y, s, w)
    assert np.all(scores[1:] > scores[:-1])  # strictly ascending; np.diff could overflow
    assert dict(zip(scores.tolist(), zip(pos_weight.tolist(), neg_weight.tolist()))) == expected
    assert not np.signbit(scores[scores == 0]).any()  # -0.0 is stored as 0.0


@FEW
@given(chunked(float_width=32))
def test_float32_chunks(case):
    y, s, w, _ = case
    acc = fastpr.Accumulator().update(y, s, sample_weight=w)
    assert_evaluations_close(acc.evaluate(), fastpr.evaluate(y, s, sample_weight=w))


def test_memory_follows_distinct_scores_not_rows():
    rng = np.random.default_rng(8)
    acc = fastpr.Accumulator()
    for _ in range(20):
        s = rng.integers(0, 7, 50_000) / 4  # 7 distinct scores
        acc.update(rng.random(s.size) < 0.1, s)
    assert acc.n_distinct == 7
    assert sum(array.nbytes for array in acc.to_arrays()) == 7 * 24
    assert acc.n_pos + acc.n_neg == 1_000_000


@SETTINGS
@given(chunked(), st.data())
def test_sweep_of_merged_chunks_is_the_sweep_of_the_rows(case, data):
    """Accumulator.sweep() gives fastpr.sweep's curves, hull and summaries (so every curve,
    figure and operating point) of all the rows, from the merged state; the rows' points at
    scores of weight 0 alone, which move nothing, are not held."""
    y, s, w, chunks = case
    parts = [acc for acc in (accumulate(y, s, w, a, b) for a, b in chunks) if acc is not None]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", fastpr.UndefinedMetricWarning)
        got = merge_in_random_tree(data.draw, parts).sweep()
        expected = fastpr.sweep(y, s, sample_weight=w)
    assert_evaluations_close(got.evaluation, expected.evaluation)
    moved = np.r_[True, (np.diff(expected.tp) != 0) | (np.diff(expected.fp) != 0)]
    for name in ("thresholds", "tp", "fp"):
        np.testing.assert_allclose(getattr(got, name), getattr(expected, name)[moved],
                                   rtol=1e-12)
    for name in ("hull_thresholds", "hull_tp", "hull_fp"):
        np.testing.assert_allclose(getattr(got, name), getattr(expected, name), rtol=1e-12)
    level = data.draw(st.floats(0, 1))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", fastpr.UndefinedMetricWarning)
        got, expected = (swept.recall_at_precision(level).to_dict() for swept in (got, expected))
    assert got.keys() == expected.keys()
    for name, value in got.items():
        if isinstance(value, str):
            assert value == expected[name]
        else:
            np.testing.assert_allclose(value, expected[name], rtol=1e-12, equal_nan=True)


def test_an_empty_accumulator_has_no_sweep():
    with pytest.raises(ValueError, match=r"no row of nonzero weight .* before sweep\(\)"):
        fastpr.Accumulator().sweep()


def test_zero_weight_rows_are_absent():
    acc = fastpr.Accumulator().update([1, 0, 1, 0], [0.9, 0.5, 0.3, 0.2],
                                      sample_weight=[1, 0, 2, 1])
    assert acc.to_arrays()[0].tolist() == [0.2, 0.3, 0.9]
    expected = fastpr.evaluate([1, 1, 0], [0.9, 0.3, 0.2], sample_weight=[1, 2, 1])
    assert acc.evaluate() == expected


def test_minus_zero_and_zero_are_one_threshold():
    acc = fastpr.Accumulator().update([1, 0], [-0.0, 1.0]).update([0, 1], [0.0, 2.0])
    assert acc.n_distinct == 3
    assert acc.evaluate().n_thresholds == 3


def test_labels_with_pos_label():
    acc = fastpr.Accumulator().update(["a", "b", "a"], [3, 2, 1], pos_label="a")
    acc.update(["b", "b"], [5, 0], pos_label="a")
    expected = fastpr.evaluate(["a", "b", "a", "b", "b"], [3, 2, 1, 5, 0], pos_label="a")
    assert acc.evaluate() == expected


@FEW
@given(chunked())
def test_pickle_and_arrays_round_trip(case):
    y, s, w, _ = case
    acc = fastpr.Accumulator().update(y, s, sample_weight=w)
    for copy in (pickle.loads(pickle.dumps(acc)), fastpr.Accumulator.from_arrays(*acc.to_arrays())):
        assert all(np.array_equal(a, b) for a, b in zip(copy.to_arrays(), acc.to_arrays()))
        assert copy.evaluate() == acc.evaluate()


def test_threads_updating_one_accumulator_lose_nothing():
    rng = np.random.default_rng(5)
    y = rng.random(60_000) < 0.2
    s = np.round(rng.random(y.size) + 0.3 * y, 3)
    acc = fastpr.Accumulator()
    chunks = iter(np.array_split(np.arange(y.size), 300))

    def update_until_done():
        for rows in chunks:  # next() on a shared iterator is atomic under the GIL
            acc.update(y[rows], s[rows])

    threads = [threading.Thread(target=update_until_done) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    # Unit weights add up exactly in any order, so the state and every area are the same.
    assert acc.evaluate() == fastpr.evaluate(y, s)


def test_from_arrays_sorts_and_compacts():
    acc = fastpr.Accumulator.from_arrays([2.0, -0.0, 2.0, 0.0, 5.0], [1, 0, 2, 1, 0],
                                         [0, 1, 1, 0, 0])
    scores, pos_weight, neg_weight = acc.to_arrays()
    assert scores.tolist() == [0.0, 2.0]
    assert pos_weight.tolist() == [1.0, 3.0]
    assert neg_weight.tolist() == [1.0, 1.0]


def test_empty_accumulator_round_trips_and_merges():
    empty = fastpr.Accumulator()
    assert fastpr.Accumulator.from_arrays(*empty.to_arrays()).n_distinct == 0
    acc = fastpr.Accumulator().update([1, 0], [0.5, 0.1])
    assert empty.merge(acc).evaluate() == acc.evaluate() == acc.merge(empty).evaluate()
    assert repr(pickle.loads(pickle.dumps(empty))) == "Accumulator(n_distinct=0, n_pos=0, n_neg=0)"


def test_merge_leaves_operands_unchanged():
    a = fastpr.Accumulator().update([1, 0], [0.5, 0.1])
    b = fastpr.Accumulator().update([0, 1], [0.5, 0.2])
    before = a.to_arrays(), b.to_arrays()
    a.merge(b)
    assert all(np.array_equal(x, y) for x, y in zip(a.to_arrays(), before[0]))
    assert all(np.array_equal(x, y) for x, y in zip(b.to_arrays(), before[1]))


@pytest.mark.parametrize("y, s, w", [
    ([0, 0], [0.5, 0.1], None),
    # Positives outweigh negatives 3e10 to 1: no precision left for the normalised area.
    ([1, 1, 1, 0], [0.9, 0.8, 0.7, 0.6], [1, 1, 1, 1e-10]),
])
def test_undefined_metrics_warn_like_evaluate(y, s, w):
    with warnings.catch_warnings(record=True) as expected:
        warnings.simplefilter("always")
        single = fastpr.evaluate(y, s, sample_weight=w)
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        accumulated = fastpr.Accumulator().update(y, s, sample_weight=w).evaluate()
    assert_evaluations_close(accumulated, single)
    assert len(expected) == 1
    assert [str(w.message) for w in got] == [str(w.message) for w in expected]


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: fastpr.Accumulator().evaluate(), ValueError, r"the Accumulator is empty"),
        (lambda: fastpr.Accumulator().merge([1, 2]), TypeError,
         r"other must be of type Accumulator, got list"),
        (lambda: fastpr.Accumulator().update([0, 1], [0.1, np.nan]), ValueError,
         r"y_score contains NaN at index 1"),
        (lambda: fastpr.Accumulator().update([], []).update([1], [0.5], sample_weight=[0])
         .evaluate(), ValueError, r"the Accumulator is empty: no row of nonzero weight"),
        (lambda: fastpr.Accumulator().update([1], []), ValueError,
         r"y_true and y_score have different lengths: 1 and 0"),
        (lambda: fastpr.Accumulator().update([], [], sample_weight=[1.0]), ValueError,
         r"y_true and sample_weight have different lengths: 0 and 1"),
        (lambda: fastpr.Accumulator().update([], np.empty((0, 2))), ValueError,
         r"y_score must be 1-D, got an array of shape \(0, 2\)"),
        (lambda: fastpr.Accumulator().update([], np.array([], dtype=str)), TypeError,
         r"y_score must be real numbers"),
        (lambda: fastpr.Accumulator().update([1, 0], [0.5, 0.1], sample_weight=[0, -1]),
         ValueError, r"sample_weight must be >= 0, got -1.0 at index 1"),
        (lambda: fastpr.Accumulator.from_arrays([0.1, np.nan], [1, 1], [0, 0]), ValueError,
         r"scores contains NaN at index 1"),
        (lambda: fastpr.Accumulator.from_arrays([0.1, 0.2], [1, -1], [0, 0]), ValueError,
         r"pos_weight must be >= 0, got -1.0 at index 1"),
        (lambda: fastpr.Accumulator.from_arrays([0.1, 0.2], [1, 1], [0, np.inf]), ValueError,
         r"neg_weight must be finite, got inf at index 1"),
        (lambda: fastpr.Accumulator.from_arrays([0.1, 0.2], [1, 1], [0]), ValueError,
         r"scores and neg_weight have different lengths: 2 and 1"),
        (lambda: fastpr.Accumulator.from_arrays([[0.1]], [1], [0]), ValueError,
         r"scores must be 1-D, got an array of shape \(1, 1\)"),
        (lambda: fastpr.Accumulator.from_arrays([0.1], ["x"], [0]), TypeError,
         r"pos_weight must be real numbers, got an array of dtype <U1"),
        (lambda: fastpr.Accumulator.from_arrays(["x"], [1], [0]), TypeError,
         r"scores must be real numbers"),
        # Each chunk's weights add up to a finite total, the chunks' together do not (the
        # state held an infinite total, and evaluate() returned NaN areas and prevalence 0).
        (lambda: fastpr.Accumulator().update([0, 1], [1, 2], sample_weight=[1e308, 1]).update(
            [0, 1], [1, 2], sample_weight=[1e308, 1]), ValueError,
         r"sample_weight must add up to a finite total"),
        (lambda: fastpr.Accumulator().update([0, 1], [1, 2], sample_weight=[1e308, 1]).merge(
            fastpr.Accumulator().update([1, 0], [3, 4], sample_weight=[1e308, 1])), ValueError,
         r"sample_weight must add up to a finite total"),
        (lambda: fastpr.Accumulator.from_arrays([1, 2], [1e308, 0], [0, 1e308]), ValueError,
         r"pos_weight and neg_weight must add up to a finite total"),
    ],
)
def test_errors_name_the_argument(call, error, match):
    with pytest.raises(error, match=match):
        call()
