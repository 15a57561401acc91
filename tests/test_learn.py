"""fastpr.learn against slow oracles: AP recomputed exactly after every swap and move, |dAP|
summed pair by pair, and a plain transcription of XGBoost's rank:map gradients."""
import math
import pickle
import warnings
from fractions import Fraction

import numba
import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from sklearn.metrics import average_precision_score
from strategies import FEW, SETTINGS, rankings, unweighted_rankings

import fastpr
from fastpr import InputTypeError, InputValueError, kernels
from fastpr.learn import kernels as learn_kernels
from fastpr.learn._kernels import lambdas
from fastpr._engine.kernels import sweep as _sweep
from fastpr._engine.kernels.lean_sweep import lean_summary_into
from fastpr.learn import FixedLabels, lambda_sums, lambdamart_gradients, swap_delta


# ----------------------------------------------------------------------------- oracles
def stable_ranking(scores):
    """Rows by descending score, ties in row order (Python's sort is stable)."""
    return sorted(range(len(scores)), key=lambda row: -scores[row])


def exact_ap(labels):
    """Average precision of labels in rank order, as a Fraction."""
    hits = 0
    total = Fraction(0)
    for rank, positive in enumerate(labels, 1):
        if positive:
            hits += 1
            total += Fraction(hits, rank)
    return total / hits


def swapped(labels, p, q):
    out = list(labels)
    out[p], out[q] = out[q], out[p]
    return out


def moved(labels, p, q):
    out = list(labels)
    out.insert(q, out.pop(p))
    return out


def brute_lambda_sums(y, s):
    """Sum over opposite-label partners of |AP after the swap - AP before|, swap by swap."""
    ranking = stable_ranking(list(s))
    labels = [bool(y[row]) for row in ranking]
    out = np.zeros(len(y))
    if all(labels) or not any(labels):
        return out
    before = exact_ap(labels)
    for p in range(len(labels)):
        for q in range(len(labels)):
            if labels[p] != labels[q]:
                out[ranking[p]] += float(abs(exact_ap(swapped(labels, p, q)) - before))
    return out


def xgboost_map_gradients(y, s, k=32, ranknet=True, score_normalization=True,
                          query_normalization=True):
    """XGBoost's CPU rank:map gradients of one query (LambdaRankMAP and CalcLambdaForGroup in
    src/objective/lambdarank_obj.*), written out with plain loops, in float64."""
    n = len(y)
    rank = stable_ranking(list(s))
    label = [float(y[row]) for row in rank]
    n_rel, acc = [], []
    for t in range(n):  # MAPStat
        n_rel.append(label[t] + (n_rel[-1] if t else 0.0))
        acc.append(label[t] / (t + 1.0) + (acc[-1] if t else 0.0))
    grad, hess = [0.0] * n, [0.0] * n
    best, worst = s[rank[0]], s[rank[-1]]
    sum_lambda = 0.0
    for i in range(min(n, k)):  # MakePairs with truncation
        for j in range(i + 1, n):
            if label[i] == label[j]:
                continue
            rank_high, rank_low = (i, j) if label[i] > label[j] else (j, i)
            # DeltaMAP, with the two ranks in rank order
            top, bottom = min(rank_high, rank_low), max(rank_high, rank_low)
            r_h, r_l = top + 1.0, bottom + 1.0
            m, c = n_rel[bottom], n_rel[top]
            b = acc[bottom - 1] - acc[top]
            if label[top] < label[bottom]:
                delta = (m / r_l - (c + 1.0) / r_h - b) / n_rel[-1]
            else:
                delta = (c / r_h - m / r_l + b) / n_rel[-1]
            # LambdaGrad
            s_high, s_low = s[rank[rank_high]], s[rank[rank_low]]
            delta = abs(delta)
            if score_normalization and best != worst:
                delta /= abs(s_high - s_low) + 0.01
            sigmoid = 1.0 / (1.0 + math.exp(-(s_high - s_low))) if ranknet else 0.5
            lam = (sigmoid - 1.0) * delta
            h = max(sigmoid * (1.0 - sigmoid), 1e-16) * delta * 2.0
            grad[rank[rank_high]] += lam
            grad[rank[rank_low]] -= lam
            hess[rank[rank_high]] += h
            hess[rank[rank_low]] += h
            sum_lambda += -2.0 * lam
    norm = 1.0
    if query_normalization and sum_lambda > 0.0:
        norm = math.log2(1.0 + sum_lambda) / sum_lambda
    return np.array(grad) * norm, np.array(hess) * norm


def xgboost_grouped(y, s, offsets, weights=None, **options):
    """The per-query transcription over segments, times weight * n_groups / sum(weights)."""
    grad, hess = np.zeros(len(y)), np.zeros(len(y))
    n_groups = len(offsets) - 1
    weights = np.ones(n_groups) if weights is None else np.asarray(weights, dtype=float)
    for g in range(n_groups):
        rows = slice(offsets[g], offsets[g + 1])
        if offsets[g + 1] > offsets[g]:
            grad[rows], hess[rows] = xgboost_map_gradients(y[rows], s[rows], **options)
        factor = weights[g] * n_groups / weights.sum()
        grad[rows] *= factor
        hess[rows] *= factor
    return grad, hess


def unweighted(**kwargs):
    return rankings(weights=("none",), **kwargs).map(lambda case: case[:2])


def close(got, want, rel):
    want = np.asarray(want, dtype=np.float64)
    np.testing.assert_allclose(got, want, rtol=rel, atol=rel * np.abs(want).max(initial=1.0))


def on_one_thread(call):
    """``call()`` with numba's thread count at 1, which fastpr's thread pool follows."""
    previous = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        return call()
    finally:
        numba.set_num_threads(previous)


# ----------------------------------------------------------------------------- the ranking
@FEW
@given(unweighted(max_n=60, defined=False), st.integers(0, 3))
def test_order_is_the_stable_descending_argsort(case, spread):
    y, s = case
    # Scores a few ulps apart share their packed key bits and are sorted by the whole score.
    if spread == 1:
        s = np.where(np.arange(s.size) % 3 == 1, np.nextafter(s, 0.0), s)
    elif spread == 2:
        s = 1.0 + np.arange(s.size)[::-1] % 5 * 2.0**-52
    want = np.argsort(-s, kind="stable")
    order = np.empty(s.size, dtype=np.int64)
    learn_kernels.descending_order(s, order)
    np.testing.assert_array_equal(order, want)
    if y.any():
        np.testing.assert_array_equal(swap_delta(y, s).order, want)
    if y.size <= 25:  # the labels travel with the rows
        close(lambda_sums(y, s), brute_lambda_sums(y, s), 1e-12)


def test_order_of_a_large_ranking_whatever_the_threads():
    # Enough rows for two sorted halves merged; scores a few ulps apart in runs longer and
    # shorter than an insertion sort's, exact ties, and both signs with infinities.
    n = (1 << 18) + 5
    rng = np.random.default_rng(5)
    y = rng.random(n) < 0.3
    s = rng.normal(size=n)
    s[::3] = 1.0 + rng.integers(0, 7, s[::3].size) * 2.0**-52
    s[1:-1:7] = np.nextafter(s[2::7], 0.0)  # pairs a ulp apart
    s[5::11] = 0.25
    s[:4] = [np.inf, -np.inf, -0.0, 0.0]
    want = np.argsort(-s, kind="stable")
    for deltas in (swap_delta(y, s), on_one_thread(lambda: swap_delta(y, s))):
        np.testing.assert_array_equal(deltas.order, want)


def test_infinite_scores_need_no_factor_of_score_differences():
    y, s = [1, 0, 1, 0], [np.inf, np.inf, -np.inf, 0.0]
    got = lambdamart_gradients(y, s, ranknet=False, score_normalization=False)
    want = xgboost_map_gradients(y, s, ranknet=False, score_normalization=False)
    close(got[0], want[0], 1e-12)
    close(lambda_sums(y, s), brute_lambda_sums(y, s), 1e-12)


def test_float32_scores_rank_as_their_float64_values():
    s = np.array([0.5, 0.25, 0.5, 1e-3, -0.0, 0.0], dtype=np.float32)
    y = np.array([0, 1, 1, 0, 1, 0])
    np.testing.assert_array_equal(lambda_sums(y, s), lambda_sums(y, s.astype(np.float64)))


# ----------------------------------------------------------------------------- swaps and moves
LABEL_SETS = [
    # (n, share of positives, distinct score levels): ties, R = 1, N = 1, all tied
    (60, 0.3, 60), (60, 0.5, 7), (41, 0.9, 60), (37, 0.0, 10), (29, 1.0, 3), (23, 0.5, 1),
]


@pytest.mark.parametrize("n, share, levels", LABEL_SETS)
def test_every_swap_and_move_changes_ap_as_recomputed(n, share, levels):
    rng = np.random.default_rng(n)
    y = rng.random(n) < share
    y[rng.integers(n)] = True  # at least one positive (R = 1 for share 0)
    if share == 1.0:
        y[rng.integers(n)] = False  # N = 1
    s = rng.integers(0, levels, n).astype(float)
    deltas = swap_delta(y, s)
    labels = [bool(v) for v in y[deltas.order]]
    before = exact_ap(labels)
    assert deltas.average_precision == pytest.approx(float(before), abs=1e-15)
    p, q = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    got_swaps = deltas.swap(deltas.order[p], deltas.order[q])
    got_moves = deltas.move(deltas.order[p], q)
    for a in range(n):
        for b in range(n):
            assert abs(got_swaps[a, b] - float(exact_ap(swapped(labels, a, b)) - before)) <= 1e-15
            assert abs(got_moves[a, b] - float(exact_ap(moved(labels, a, b)) - before)) <= 1e-15


def test_exact_ap_oracle_is_scikit_learns_average_precision():
    rng = np.random.default_rng(7)
    y = rng.random(50) < 0.3
    s = rng.permutation(50).astype(float)  # distinct scores: positions are thresholds
    ap = float(exact_ap([bool(v) for v in y[np.argsort(-s)]]))
    assert ap == pytest.approx(average_precision_score(y, s), abs=1e-15)
    assert swap_delta(y, s).average_precision == pytest.approx(ap, abs=1e-15)


@FEW
@given(unweighted(max_n=30), st.data())
def test_swap_delta_properties(case, data):
    y, s = case
    deltas = swap_delta(y, s)
    n = y.size
    i = np.array(data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=20)))
    j = np.array(data.draw(st.lists(st.integers(0, n - 1), min_size=i.size, max_size=i.size)))
    np.testing.assert_array_equal(deltas.swap(i, j), deltas.swap(j, i))
    assert np.all(deltas.swap(i, j)[y[i] == y[j]] == 0.0)
    # Neighbours: a swap is a move by one place.
    p = deltas.positions[i]
    below = p < n - 1
    close(deltas.swap(i[below], deltas.order[p[below] + 1]), deltas.move(i[below], p[below] + 1),
          1e-13)
    # The sums of |dAP| over partners are the swaps' absolute values added up.
    everyone = np.arange(n)
    by_swaps = [np.abs(deltas.swap(row, everyone)).sum() for row in range(n)]
    close(lambda_sums(y, s), np.array(by_swaps), 1e-12)


def test_swap_delta_answers_scalars_and_broadcasts():
    deltas = swap_delta([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.6])
    assert isinstance(deltas.swap(0, 1), float)
    assert deltas.swap(0, [1, 2, 3]).shape == (3,)
    assert deltas.move([[0], [1]], [0, 1, 2]).shape == (2, 3)
    for empty in (deltas.swap([], []), deltas.move([], [])):  # (empty lists read as floats)
        assert empty.shape == (0,) and empty.dtype == np.float64


# ----------------------------------------------------------------------------- |dAP| sums
@FEW
@given(unweighted(max_n=25, defined=False))
def test_lambda_sums_equal_the_pairwise_brute_force(case):
    y, s = case
    close(lambda_sums(y, s), brute_lambda_sums(y, s), 1e-12)


@pytest.mark.parametrize("labels", [[1, 0, 0, 0, 0, 0, 0], [0, 1, 1, 1, 1, 1, 1], [1] * 7,
                                    [0] * 7, [0, 1, 0, 1, 1, 0, 0]])
@pytest.mark.parametrize("scores", [[3, 1, 4, 1, 5, 9, 2], [0] * 7])
def test_lambda_sums_of_one_positive_one_negative_and_all_tied(labels, scores):
    y, s = np.array(labels), np.array(scores, dtype=float)
    close(lambda_sums(y, s), brute_lambda_sums(y, s), 1e-12)


@FEW
@given(unweighted(max_n=40, defined=False), st.lists(st.integers(0, 4), min_size=40,
                                                     max_size=40))
def test_lambda_sums_of_groups_are_those_of_each_group_alone(case, ids):
    y, s = case
    groups = np.array(ids[:y.size]) * 7 - 3  # ids in any order, not 0..G-1
    got = lambda_sums(y, s, groups=groups)
    for g in np.unique(groups):
        rows = groups == g
        close(got[rows], brute_lambda_sums(y[rows], s[rows]), 1e-12)
    order = np.argsort(groups, kind="stable")
    offsets = np.searchsorted(groups[order], np.unique(groups))
    np.testing.assert_array_equal(
        lambda_sums(y[order], s[order], offsets=[*offsets, y.size]), got[order])


def test_single_class_groups_get_zeros_and_are_counted():
    y = [1, 1, 0, 0, 1, 0, 0]
    s = [0.3, 0.2, 0.9, 0.1, 0.5, 0.4, 0.6]
    offsets = [0, 2, 4, 4, 7]  # positives only, negatives only, empty, both
    labels = FixedLabels(y, offsets=offsets)
    assert labels.n_groups == 4 and labels.n_single_class == 3
    np.testing.assert_array_equal(labels.group_ids, [0, 1, 2, 3])
    np.testing.assert_array_equal(labels.n_pos, [2, 0, 0, 1])
    np.testing.assert_array_equal(labels.n_neg, [0, 2, 0, 2])
    assert np.all(labels.lambda_sums(s)[:4] == 0.0)
    for pairs in ("topk", "all"):
        grad, hess = labels.lambdamart_gradients(s, pairs=pairs)
        assert np.all(grad[:4] == 0.0) and np.all(hess[:4] == 0.0)
        assert np.all(grad[4:] != 0.0)


# ----------------------------------------------------------------------------- gradients
OPTIONS = [{}, {"k": 3}, {"k": 1, "ranknet": False}, {"score_normalization": False},
           {"query_normalization": False, "k": 2}, {"ranknet": False, "score_normalization": False}]


@FEW
@given(unweighted(max_n=40, defined=False, scores=("int", "float")),
       st.sampled_from(OPTIONS))
def test_top_k_gradients_equal_the_transcription_of_xgboost(case, options):
    y, s = case
    s = np.clip(s, -50.0, 50.0)  # scores of a model, whose sigmoid the oracle can evaluate
    grad, hess = lambdamart_gradients(y, s, **options)
    want_grad, want_hess = xgboost_map_gradients(y, s, **options)
    close(grad, want_grad, 1e-12)
    close(hess, want_hess, 1e-12)


@FEW
@given(unweighted(max_n=30, defined=False), st.booleans())
def test_all_pairs_are_top_k_with_every_pair_and_no_factors(case, query_normalization):
    y, s = case
    grad, hess = lambdamart_gradients(y, s, pairs="all", query_normalization=query_normalization)
    want_grad, want_hess = xgboost_map_gradients(
        y, s, k=y.size, ranknet=False, score_normalization=False,
        query_normalization=query_normalization)
    close(grad, want_grad, 1e-12)
    close(hess, want_hess, 1e-12)


@pytest.mark.parametrize("pairs", ["topk", "all"])
def test_groups_and_group_weights_scale_as_in_xgboost(pairs):
    rng = np.random.default_rng(5)
    offsets = [0, 5, 5, 17, 18, 40]
    y = rng.random(40) < 0.4
    s = rng.normal(size=40)
    weights = [2.0, 0.5, 1.0, 0.0, 3.0]
    options = {"k": 4} if pairs == "topk" else {"k": 40, "ranknet": False,
                                                "score_normalization": False}
    grad, hess = lambdamart_gradients(y, s, offsets=offsets, group_weight=weights, pairs=pairs,
                                      k=4)
    want_grad, want_hess = xgboost_grouped(y, s, offsets, weights, **options)
    close(grad, want_grad, 1e-12)
    close(hess, want_hess, 1e-12)


@pytest.mark.parametrize("scale", [1e-310, 1e-200, 1e150])
def test_group_weights_of_any_scale_are_normalised_alike(scale):
    # Only their ratios count (XGBoost's norm: they average 1). Subnormal ones gave infinite
    # gradients, n_groups / their sum overflowing.
    y, s, groups = [0, 1, 1, 0, 1, 0], [1, 2, 3, 4, 5, 6], [1, 1, 2, 2, 3, 3]
    unit = lambdamart_gradients(y, s, groups=groups, group_weight=[1.0, 2.0, 0.5])
    scaled = lambdamart_gradients(y, s, groups=groups,
                                  group_weight=np.array([1.0, 2.0, 0.5]) * scale)
    for a, b in zip(scaled, unit):
        close(a, b, 1e-12)


def test_switches_take_numpy_bools():
    y, s = [0, 1, 1, 0], [1, 2, 3, 4]
    for name in ("ranknet", "score_normalization", "query_normalization"):
        for value in (True, False):
            for got, want in zip(lambdamart_gradients(y, s, **{name: np.bool_(value)}),
                                 lambdamart_gradients(y, s, **{name: value})):
                np.testing.assert_array_equal(got, want)


def test_xgboosts_own_map_gradient_values():
    """tests/cpp/objective/test_lambdarank_obj.cc, TestMAPGPair."""
    scores, labels, offsets = [0, 0.1, 0, 0.1], [0, 1, 0, 1], [0, 2, 4]
    grad, hess = lambdamart_gradients(labels, scores, offsets=offsets, group_weight=[2.0, 2.0])
    close(grad, [1.2054923, -1.2054923, 1.2054923, -1.2054923], 1e-7)
    close(hess, [1.2657166] * 4, 1e-7)
    grad, hess = lambdamart_gradients(labels, scores, offsets=offsets, group_weight=[2.0, 0.0])
    close(grad, [2 * 1.2054923, -2 * 1.2054923, 0, 0], 1e-7)
    close(hess, [2 * 1.2657166, 2 * 1.2657166, 0, 0], 1e-7)


def test_many_groups_on_threads_equal_one_thread():
    rng = np.random.default_rng(11)
    groups = rng.integers(0, 3000, 200_000)
    y = rng.random(groups.size) < 0.1
    s = rng.normal(size=groups.size)
    labels = FixedLabels(y, groups=groups)
    threaded = labels.lambdamart_gradients(s, k=5)
    single = on_one_thread(lambda: labels.lambdamart_gradients(s, k=5))
    np.testing.assert_array_equal(threaded[0], single[0])
    np.testing.assert_array_equal(threaded[1], single[1])
    rows = groups == groups[0]
    close(threaded[0][rows], xgboost_map_gradients(y[rows], s[rows], k=5)[0], 1e-12)


@pytest.mark.parametrize("grouping", [{}, {"groups": [0, 1, 0, 1, 1, 0, 1, 0]}])
def test_fixed_labels_pickled_after_use_score_as_before(grouping):
    # Its buffers are kept per thread and are no state: a pickle starts with none.
    labels = FixedLabels([1, 0, 1, 0, 0, 1, 1, 0], **grouping)
    s = np.array([0.9, 0.8, 0.1, 0.7, 0.2, 0.4, 0.4, 0.3])
    before = [labels.metric(s, "average_precision"), labels.metric(s, "auc_pr_dg"),
              labels.lambda_sums(s), *labels.lambdamart_gradients(s)]
    copy = pickle.loads(pickle.dumps(labels))
    after = [copy.metric(s, "average_precision"), copy.metric(s, "auc_pr_dg"),
             copy.lambda_sums(s), *copy.lambdamart_gradients(s)]
    for a, b in zip(before, after):
        np.testing.assert_array_equal(a, b)


def test_lambda_sums_of_one_ranking_in_chunks_whatever_the_threads():
    # Over two chunks of the backward pass; the sums of a few examples checked against their
    # swaps one by one.
    n = 2 * lambdas.SUMS_CHUNK + 999
    rng = np.random.default_rng(17)
    y = rng.random(n) < 0.05
    s = rng.integers(-500, 500, n) / 8.0  # ties too
    labels = FixedLabels(y)
    threaded = labels.lambda_sums(s)
    single = on_one_thread(lambda: labels.lambda_sums(s))
    np.testing.assert_array_equal(threaded, single)
    order = np.argsort(-s, kind="stable")
    serial = np.empty(n)  # the compiled kernel: its chunks one after the other
    learn_kernels.lambda_sums_into(y[order], order, np.array([0, n]), serial)
    np.testing.assert_array_equal(threaded, serial)
    deltas = swap_delta(y, s)
    for row in [*order[[0, n // 2, -1]], *rng.integers(0, n, 5)]:
        partners = np.flatnonzero(y != y[row])
        want = np.abs(deltas.swap(np.full(partners.size, row), partners)).sum()
        close(threaded[row], want, 1e-12)


def test_one_ranking_in_chunks_equals_xgboost_whatever_the_threads():
    # Over two chunks of columns on each side: positives and negatives both span chunk edges.
    n = 2 * lambdas.TOP_K_CHUNK + 999
    rng = np.random.default_rng(13)
    y = rng.random(n) < 0.6
    s = rng.integers(-40, 40, n) / 4.0  # many ties
    s[:3] = 20.0  # the top positions tie too
    y[:3] = [True, False, True]
    labels = FixedLabels(y)
    threaded = labels.lambdamart_gradients(s, k=3)
    single = on_one_thread(lambda: labels.lambdamart_gradients(s, k=3))
    np.testing.assert_array_equal(threaded[0], single[0])
    np.testing.assert_array_equal(threaded[1], single[1])
    order = np.argsort(-s, kind="stable")
    serial = np.empty(n), np.empty(n)  # the compiled kernel: its chunks one after the other
    learn_kernels.top_k_gradients(y[order], s, order, np.array([0, n]), np.empty(0), 3, True, True,
                            True, *serial)
    np.testing.assert_array_equal(threaded[0], serial[0])
    np.testing.assert_array_equal(threaded[1], serial[1])
    want_grad, want_hess = xgboost_map_gradients(y, s, k=3)
    close(threaded[0], want_grad, 1e-12)
    close(threaded[1], want_hess, 1e-12)


@pytest.mark.parametrize("label", [0, 1])
def test_one_class_ranking_in_chunks_gets_zeros(label):
    n = lambdas.TOP_K_CHUNK + 5
    s = np.random.default_rng(3).normal(size=n)
    grad, hess = lambdamart_gradients(np.full(n, label), s)
    assert np.all(grad == 0.0) and np.all(hess == 0.0)

# ----------------------------------------------------------------------------- metrics
NAMES = fastpr.learn.METRICS


@SETTINGS
@given(unweighted_rankings())
def test_lean_sweep_equals_the_sweep_to_the_bit(case):
    y, s, _ = case
    pos, neg = np.sort(s[y]), np.sort(s[~y])
    want = kernels.summary(y, s, np.empty(0))
    got = np.full(want.size, -1.0)
    lean_summary_into(pos, neg, True, np.empty(_sweep.SCALE + 1), got)
    for column in (kernels.AUC_ROC, kernels.AVERAGE_PRECISION, kernels.INTERPOLATED):
        assert got[column] == want[column] or (np.isnan(got[column]) and np.isnan(want[column]))


def _quiet_evaluate(y, s, w, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", fastpr.UndefinedMetricWarning)
        return fastpr.evaluate(y, s, sample_weight=w, **kwargs)


def _learners_metric(result, name):
    """The learners' value of metric ``name`` from :func:`fastpr.evaluate`'s ``result``: the
    same, but NaN for a ranking without negatives (or whose negatives weigh 0), whose PR areas
    evaluate gives as 1 and a learner leaves out, as XGBoost's aucpr does."""
    return np.where(np.asarray(result.n_neg) > 0, getattr(result, name), np.nan)


@FEW
@given(st.one_of(rankings(defined=False), rankings(defined=False, float_width=32)),
       st.sampled_from(NAMES))
@example((np.array([True, True]), np.array([1.0, 2.0]), None), "auc_pr")
@example((np.array([True, False]), np.array([1.0, 2.0]), np.array([1.0, 0.0])), "auc_pr_dg")
def test_fixed_labels_metric_equals_evaluate(case, name):
    y, s, w = case
    if w is not None and not w.any():
        return  # fastpr.evaluate refuses weights that are all 0, as FixedLabels does
    labels = FixedLabels(y, sample_weight=w)
    for scores in (s, s[::-1].copy()):  # buffers reused from call to call
        want = float(_learners_metric(_quiet_evaluate(y, scores, w), name))
        got = labels.metric(scores, name)
        assert got == want or (math.isnan(got) and math.isnan(want))


@FEW
@given(rankings(defined=False), st.lists(st.integers(0, 3), min_size=40, max_size=40),
       st.sampled_from(NAMES))
def test_fixed_labels_metric_of_groups_is_their_macro_mean(case, ids, name):
    y, s, w = case
    groups = np.array(ids[:y.size])
    if w is not None and not all(w[groups == g].any() for g in np.unique(groups)):
        return  # fastpr.evaluate refuses a group of zero weight; nothing to compare
    labels = FixedLabels(y, groups=groups, sample_weight=w)
    result = _quiet_evaluate(y, s, w, groups=groups)
    np.testing.assert_array_equal(labels.group_ids, result.index)
    want = _learners_metric(result, name)
    np.testing.assert_array_equal(labels.metric(s, name, average=None), want)
    defined = want[~np.isnan(want)]
    got = labels.metric(s, name)
    assert got == defined.mean() if defined.size else math.isnan(got)


# ----------------------------------------------------------------------------- compiled callers
@numba.njit
def _user_swaps(y_true, y_score, p, q):
    order = np.empty(y_score.size, dtype=np.int64)
    learn_kernels.descending_order(y_score, order)
    table = np.empty((y_score.size + 1, learn_kernels.AP_DELTA_COLUMNS))
    learn_kernels.ap_delta_table(y_true[order], table)
    out = np.empty((2, p.size))
    for k in range(p.size):
        out[0, k] = learn_kernels.swap_delta_at(table, p[k], q[k])
        out[1, k] = learn_kernels.move_delta_at(table, p[k], q[k])
    return out


@numba.njit
def _user_gradients(y_true, y_score, offsets):
    order = np.empty(y_score.size, dtype=np.int64)
    learn_kernels.ranking_order(y_score, offsets, order)
    ranked_true = y_true[order]
    sums = np.empty(y_score.size)
    learn_kernels.lambda_sums_into(ranked_true, order, offsets, sums)
    grad = np.empty((2, y_score.size))
    hess = np.empty((2, y_score.size))
    learn_kernels.top_k_gradients(ranked_true, y_score, order, offsets, np.empty(0), 32, True, True,
                            True, grad[0], hess[0])
    learn_kernels.all_pairs_gradients(ranked_true, order, offsets, np.empty(0), True, grad[1], hess[1])
    return sums, grad, hess


def test_kernels_inside_njit_give_the_api_answers():
    rng = np.random.default_rng(3)
    y = rng.random(30) < 0.4
    s = rng.integers(0, 8, 30).astype(float)
    p, q = rng.integers(0, 30, 50), rng.integers(0, 30, 50)
    deltas = swap_delta(y, s)
    swaps, moves = _user_swaps(y, s, p, q)
    np.testing.assert_array_equal(swaps, deltas.swap(deltas.order[p], deltas.order[q]))
    np.testing.assert_array_equal(moves, deltas.move(deltas.order[p], q))
    offsets = np.array([0, 12, 12, 30])
    sums, grad, hess = _user_gradients(y, s, offsets)
    np.testing.assert_array_equal(sums, lambda_sums(y, s, offsets=offsets))
    for row, pairs in enumerate(("topk", "all")):
        want = lambdamart_gradients(y, s, offsets=offsets, pairs=pairs)
        np.testing.assert_array_equal(grad[row], want[0])
        np.testing.assert_array_equal(hess[row], want[1])


# ----------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("call, error, match", [
    (lambda: lambda_sums([1, 0], [1, 2], sample_weight=[1, 1]), InputValueError, "sample_weight"),
    (lambda: lambdamart_gradients([1, 0], [1, 2], sample_weight=[1, 1]), InputValueError,
     "not defined"),
    (lambda: swap_delta([1, 0], [1, 2], sample_weight=[1, 1]), InputValueError, "sample_weight"),
    (lambda: FixedLabels([1, 0], sample_weight=[1, 2]).lambda_sums([1, 2]), InputValueError,
     "sample_weight"),
    (lambda: lambdamart_gradients([1, 0], [1, 2], pairs="mean"), InputValueError, "pairs"),
    (lambda: lambdamart_gradients([1, 0], [1, 2], k=0), InputValueError, "k must be >= 1"),
    (lambda: lambdamart_gradients([1, 0], [1, 2], pairs="all", ranknet=True), InputValueError,
     "ranknet=True needs pairs='topk'"),
    (lambda: lambdamart_gradients([1, 0], [1, 2], ranknet=1), InputTypeError,
     "ranknet must be True or False, got 1"),
    (lambda: lambdamart_gradients([1, 0], [1, 2], group_weight=[1, 1]), InputValueError,
     "one weight per group"),
    (lambda: lambdamart_gradients([1, 0], [1, 2], offsets=[0, 1, 2], group_weight=[0, 0]),
     InputValueError, "zero everywhere"),
    (lambda: lambdamart_gradients([1, 0], [1, 2], offsets=[0, 1, 2], group_weight=[1, -1]),
     InputValueError, ">= 0"),
    (lambda: lambda_sums([1, 0, 1], [1, 2]), InputValueError, "different lengths"),
    (lambda: lambda_sums([1, 0], [1, np.nan]), InputValueError, "NaN at index 1"),
    (lambda: lambda_sums([1, 0, 1], [1, np.nan, 2], groups=[0, 0, 1]), InputValueError,
     "NaN at index 1"),
    (lambda: lambdamart_gradients([1, 0], [np.nan, 1]), InputValueError, "NaN at index 0"),
    (lambda: lambdamart_gradients([1, 0], [np.nan, 1], pairs="all"), InputValueError,
     "NaN at index 0"),
    (lambda: swap_delta([1, 0], [1, np.float32(np.nan)]), InputValueError, "NaN at index 1"),
    (lambda: lambdamart_gradients([1, 0], [1, np.inf]), InputValueError, "finite"),
    (lambda: lambda_sums([1, 2, 3], [1, 2, 3]), InputValueError, "two classes"),
    (lambda: lambda_sums([1, 0], [1, 2], groups=[0, 1], offsets=[0, 2]), InputValueError,
     "not both"),
    (lambda: FixedLabels([1, 0]).metric([1, np.nan]), InputValueError, "NaN"),
    (lambda: FixedLabels([1, 0]).metric([1, 2], "auc"), InputValueError,
     "name='auc': unknown name 'auc'"),
    (lambda: swap_delta([0, 0], [1, 2]), InputValueError, "no positives"),
    (lambda: swap_delta([1, 0], [1, 2]).swap(0, 2), InputValueError, r"\[0, 2\)"),
    (lambda: swap_delta([1, 0], [1, 2]).move(0, 1.0), InputTypeError, "integers"),
])
def test_bad_input_is_refused_clearly(call, error, match):
    with pytest.raises(error, match=match):
        call()
