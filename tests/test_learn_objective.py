"""The boosting objective on data without query groups: random stratified queries each round
against an oracle written from the definition, its seed, and the one-query option of rank:map."""
import pickle
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from boosting_data import BoostingData
from strategies import FEW, rankings
from test_learn import xgboost_map_gradients

from fastpr import InputTypeError, InputValueError
from fastpr.learn import lightgbm as fastpr_lgb
from fastpr.learn import xgboost as fastpr_xgb


def dmatrix(labels):
    return BoostingData(labels, np.array([], dtype=np.uint32), np.array([], dtype=np.float32))


def dataset(labels):
    return BoostingData(labels, None, None)


def binary(seed, n, share):
    """0/1 float32 labels with about ``share`` positives (at least 2 of each class) and
    margins with ties."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < share).astype(np.float32)
    y[:2], y[2:4] = 1, 0
    margins = np.round(rng.normal(size=n) + y, 1)  # rounded: many ties
    return y, margins


def oracle_queries(y, query_positives, rng):
    """Each row's query, from the definition: Q = round(positives / query_positives) queries
    (at least 1); for each class (positives first) of m rows, the query numbers
    floor(i * Q / m), i = 0 .. m - 1, in the order of ``rng.shuffle``, the j-th to the class's
    j-th row."""
    positives, negatives = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
    n_queries = max(1, round(len(positives) / query_positives))
    query = np.empty(len(y), dtype=int)
    for rows in (positives, negatives):
        numbers = np.array([i * n_queries // len(rows) for i in range(len(rows))])
        rng.shuffle(numbers)
        for row, number in zip(rows, numbers):
            query[row] = number
    return query, n_queries


def oracle_gradients(y, margins, query, n_queries, rescale=True, **options):
    """XGBoost's rank:map gradients (the plain transcription) of each query's rows in row order,
    then both scaled so that the hessians sum to n p (1 - p)."""
    grad, hess = np.zeros(len(y)), np.zeros(len(y))
    for q in range(n_queries):
        rows = np.flatnonzero(query == q)
        grad[rows], hess[rows] = xgboost_map_gradients(y[rows], margins[rows], **options)
    if rescale:
        n_pos = float(np.sum(y == 1))
        factor = n_pos * (len(y) - n_pos) / len(y) / hess.sum()
        grad, hess = grad * factor, hess * factor
    return grad, hess


def close(got, want):
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12 * np.abs(want).max())


@pytest.mark.parametrize("n, share, options", [
    (600, 0.05, {}),                                  # 30 positives: 8 queries of 4 at k=32
    (600, 0.05, {"query_positives": 16}),             # 2 queries
    (900, 0.1, {"k": 24}),                            # R = 3: about 30 queries
    (700, 0.2, {"query_positives": 7, "k": 5}),
    (400, 0.1, {"query_positives": 100}),             # fewer positives than R: one query
    (500, 0.1, {"query_positives": 6, "ranknet": False, "score_normalization": False}),
    (500, 0.1, {"query_positives": 6, "rescale": False, "logistic_weight": 0.0}),
    (800, 0.05, {"query_positives": 2, "logistic_weight": 0.25}),
    (800, 0.05, {"query_positives": 3, "logistic_weight": 0.0}),
])
def test_each_round_equals_rank_map_of_each_random_query(n, share, options):
    y, margins = binary(n, n, share)
    seed = 11
    objective = fastpr_xgb.Objective(seed=seed, **options)
    rng = np.random.default_rng(seed)
    query_positives = options.get("query_positives", options.get("k", 32) // 8)
    kernel_options = {key: value for key, value in options.items()
                      if key in ("k", "ranknet", "score_normalization")}
    for round_ in range(3):  # each round a fresh partition from the same stream
        query, n_queries = oracle_queries(y, query_positives, rng)
        grad, hess = objective(margins + round_, dmatrix(y))
        want = oracle_gradients(y, margins + round_, query, n_queries,
                                rescale=options.get("rescale", True), **kernel_options)
        w = options.get("logistic_weight", 0.75)  # the default mixes in logistic loss's
        if w:  # gradients (p - y) and hessians p (1 - p)
            p = 1 / (1 + np.exp(-(margins + round_)))
            want = ((1 - w) * want[0] + w * (p - y), (1 - w) * want[1] + w * p * (1 - p))
        close(grad, want[0])
        close(hess, want[1])
        assert grad[y == 1].sum() < 0 < grad[y == 0].sum()


@FEW
@given(rankings(weights=("none",), defined=False, max_n=60), st.integers(1, 5),
       st.integers(0, 3), st.sampled_from([{}, {"k": 1}, {"k": 3, "ranknet": False}]),
       st.sampled_from([0.0, 0.75]))
def test_any_labels_and_margins_get_rank_map_of_each_random_query(case, query_positives, seed,
                                                                   options, logistic_weight):
    y, margins, _ = case
    y, margins = np.array(y, dtype=np.float32), np.array(margins)
    objective = fastpr_lgb.Objective(query_positives=query_positives, seed=seed,
                                     logistic_weight=logistic_weight, **options)
    if not np.isfinite(margins).all():  # as lambdamart_gradients: the RankNet factor and score
        with pytest.raises(InputValueError) as raised:  # normalisation read differences
            objective(margins, dataset(y))
        assert raised.value.argument == "y_score"
        return
    grad, hess = objective(margins, dataset(y))
    # the oracle's sigmoid and score differences need a model's margins; the objective takes
    # any (its logistic part gives 0 and 1 where exp overflows)
    clipped = np.clip(margins, -50.0, 50.0)
    if np.array_equal(clipped, margins) and y.any() and not y.all():
        query, n_queries = oracle_queries(y, query_positives, np.random.default_rng(seed))
        want = oracle_gradients(y, margins, query, n_queries, **options)
        p = 1 / (1 + np.exp(-margins))
        w = logistic_weight
        close(grad, (1 - w) * want[0] + w * (p - y))
        close(hess, (1 - w) * want[1] + w * np.maximum(p * (1 - p), 1e-16))
    assert np.isfinite(grad).all() and np.isfinite(hess).all() and (hess >= 0).all()


def test_random_queries_are_stratified_and_of_even_size():
    y, margins = binary(0, 5000, 0.01)
    n_pos = int(y.sum())
    query, n_queries = oracle_queries(y, 8, np.random.default_rng(3))
    positives = np.bincount(query[y == 1], minlength=n_queries)
    negatives = np.bincount(query[y == 0], minlength=n_queries)
    assert n_queries == round(n_pos / 8) > 1
    assert positives.max() - positives.min() <= 1 and negatives.max() - negatives.min() <= 1
    # and the objective deals them so: each query alone gets what the oracle gives it
    grad, _ = fastpr_xgb.Objective(query_positives=8, logistic_weight=0.0,
                                   seed=3)(margins, dmatrix(y))
    close(grad, oracle_gradients(y, margins, query, n_queries)[0])


def test_all_pairs_in_random_queries():
    y, margins = binary(1, 400, 0.1)
    query, n_queries = oracle_queries(y, 5, np.random.default_rng(0))
    grad, hess = fastpr_xgb.Objective(pairs="all", query_positives=5,
                                      logistic_weight=0.0)(margins, dmatrix(y))
    want = oracle_gradients(y, margins, query, n_queries, k=len(y), ranknet=False,
                            score_normalization=False)
    close(grad, want[0])
    close(hess, want[1])


def test_the_seed_repeats_a_run_and_another_seed_does_not():
    y, margins = binary(2, 3000, 0.02)
    first, again, other = (fastpr_xgb.Objective(seed=seed) for seed in (5, 5, 6))
    for round_ in range(3):
        got = first(margins, dmatrix(y))
        np.testing.assert_array_equal(got, again(margins, dmatrix(y)))
        assert not np.array_equal(got[0], other(margins, dmatrix(y))[0])
    # a pickled objective carries on the same stream
    copy = pickle.loads(pickle.dumps(first))
    np.testing.assert_array_equal(copy(margins, dmatrix(y)), first(margins, dmatrix(y)))


def test_every_adapter_deals_the_same_queries_from_the_same_seed():
    y, margins = binary(3, 2000, 0.03)
    want = fastpr_xgb.Objective(seed=4)(margins, dmatrix(y))
    for got in (fastpr_xgb.SklearnObjective(seed=4)(y, margins),
                fastpr_lgb.Objective(seed=4)(margins, dataset(y)),
                fastpr_lgb.SklearnObjective(seed=4)(y, margins, None, None)):
        np.testing.assert_array_equal(got, want)


def test_hessians_sum_to_those_of_logistic_loss_at_the_prior():
    y, margins = binary(4, 20_000, 0.01)
    n_pos = int(y.sum())
    grad, hess = fastpr_xgb.Objective(logistic_weight=0.0)(margins, dmatrix(y))
    assert hess.sum() == pytest.approx(n_pos * (y.size - n_pos) / y.size, rel=1e-12)
    # one query of all rows: a few units, whatever n (what made its trees hardly split)
    with pytest.warns(UserWarning, match="much longer than k=32"):
        _, one = fastpr_xgb.Objective(ungrouped="one_query")(margins, dmatrix(y))
    assert one.sum() < 10 < hess.sum() / 10


def test_one_query_of_many_rows_warns_once_and_short_ones_and_groups_do_not():
    y, margins = binary(5, 1700, 0.05)
    objective = fastpr_lgb.Objective(ungrouped="one_query")
    with pytest.warns(UserWarning, match="1700 rows is much longer than k=32"):
        objective(margins, dataset(y))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        objective(margins, dataset(y))  # the same data again: said once
        fastpr_lgb.Objective(ungrouped="one_query", k=64)(margins, dataset(y))  # 1700 < 50 k
        fastpr_lgb.Objective(ungrouped="one_query")(margins[:1600], dataset(y[:1600]))
        fastpr_lgb.Objective()(margins, dataset(y))  # random queries
        grouped = BoostingData(y, np.array([1700]), None)
        fastpr_lgb.Objective(ungrouped="one_query")(margins, grouped)  # groups: as they are


def test_one_query_is_rank_map_of_all_rows():
    y, margins = binary(6, 300, 0.1)
    want = xgboost_map_gradients(y, margins)
    for got in (fastpr_xgb.Objective(ungrouped="one_query")(margins, dmatrix(y)),
                fastpr_xgb.SklearnObjective(ungrouped="one_query")(y, margins),
                fastpr_lgb.Objective(ungrouped="one_query")(margins, dataset(y))):
        close(got[0], want[0])
        close(got[1], want[1])


def test_one_class_gets_no_ap_gradients_only_logistic_losss():
    y = np.zeros(100, dtype=np.float32)
    margins = np.linspace(0, 1, 100)
    grad, hess = fastpr_xgb.Objective(logistic_weight=0.0)(margins, dmatrix(y))
    assert not grad.any() and not hess.any()
    grad, hess = fastpr_xgb.Objective()(margins, dmatrix(y))
    p = 1 / (1 + np.exp(-margins))
    close(grad, 0.75 * p)
    close(hess, 0.75 * p * (1 - p))


@pytest.mark.parametrize("options, error, argument", [
    ({"ungrouped": "one_ranking"}, InputValueError, "ungrouped"),
    ({"query_positives": 0}, InputValueError, "query_positives"),
    ({"query_positives": 2.5}, InputTypeError, "query_positives"),
    ({"seed": -1}, InputValueError, "seed"),
    ({"rescale": "yes"}, InputTypeError, "rescale"),
    ({"logistic_weight": 1.0}, InputValueError, "logistic_weight"),
    ({"logistic_weight": "half"}, InputTypeError, "logistic_weight"),
])
def test_bad_options_are_refused_clearly(options, error, argument):
    for adapter in (fastpr_xgb.Objective, fastpr_lgb.SklearnObjective):
        with pytest.raises(error) as raised:
            adapter(**options)
        assert raised.value.argument == argument
