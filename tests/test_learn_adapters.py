"""fastpr.learn's adapters for XGBoost and LightGBM, against the libraries' own metrics and
objective (each test needs its library installed)."""
import math
import warnings

import numpy as np
import pytest
from boosting_data import BoostingData
from test_learn import xgboost_grouped

import fastpr
from fastpr import InputTypeError, InputValueError
from fastpr.learn import METRICS, FixedLabels
from fastpr.learn import lightgbm as fastpr_lgb
from fastpr.learn import xgboost as fastpr_xgb


def imbalanced(seed, n=1500, n_features=6):
    """Features and 0/1 labels with about 10% positives that the features predict in part."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, n_features))
    y = (x[:, 0] + 0.5 * x[:, 1] + rng.normal(size=n) > 1.8).astype(np.float32)
    return x, y


def first_maximum_and_minimum(values):
    values = np.asarray(values)
    return int(np.argmax(values)), int(np.argmin(values))


# ----------------------------------------------------------------------------- XGBoost
@pytest.mark.parametrize("groups", [None, [400, 1, 600, 499]])
def test_xgboost_metric_equals_aucpr_on_xgboosts_predictions(groups):
    xgb = pytest.importorskip("xgboost")
    x, y = imbalanced(0)
    if groups is not None:
        y[400] = 0  # the query of one example has one class: both leave it out
    train = xgb.DMatrix(x, y, group=groups)
    booster = xgb.train({"objective": "binary:logistic", "eval_metric": "aucpr", "nthread": 1,
                         "max_depth": 3}, train, 8)
    valid = xgb.DMatrix(*imbalanced(1)[:1], imbalanced(1)[1], group=groups)
    for round_ in (1, 8):
        model = booster[:round_]
        predt = model.predict(valid)  # float32 probabilities, as aucpr reads them
        assert predt.dtype == np.float32
        want = float(model.eval(valid).split(":")[-1])  # "[0]\teval-aucpr:0.52919062202103306"
        name, got = fastpr_xgb.Metric("auc_pr")(predt, valid)
        assert name == "auc_pr"
        assert got == pytest.approx(want, abs=1e-12, rel=0)


def xgboost_aucpr(xgb, y, margins, group=None, weight=None):
    """XGBoost's own aucpr of ``margins``: a booster of no trees predicts its base margins."""
    data = xgb.DMatrix(np.zeros((len(y), 1)), label=y, weight=weight, group=group,
                       base_margin=np.asarray(margins, dtype=np.float64))
    booster = xgb.train({"objective": "rank:map", "eval_metric": "aucpr", "nthread": 1}, data, 0)
    with warnings.catch_warnings():  # "contains only positive or negative samples"
        warnings.simplefilter("ignore", UserWarning)
        return float(booster.eval(data).split(":")[-1])


_MIXED_QUERIES = np.array([1, 1, 0, 0, 1, 0, 1, 0, 0, 1, 1, 1, 0, 0, 0, 1, 0, 1, 1])


# Rankings of one class among others: XGBoost's aucpr leaves those without negatives out of the
# mean, as those without positives (before, fastpr counted a query of positives alone as 1).
@pytest.mark.parametrize("y, margins, group, weight", [
    ([0, 1, 0, 1, 1, 1], [4, 3, 2, 1, 1, 2], [4, 2], None),
    (_MIXED_QUERIES, np.arange(19.0) % 5, [4, 1, 3, 2, 3, 6], None),
    (_MIXED_QUERIES, np.arange(19.0) % 5, [4, 1, 3, 2, 3, 6], [1, 2, 3, 4, 5, 6]),
    ([1, 1, 1], [4, 3, 2], None, None),
    ([0, 1, 0, 1], [4, 3, 2, 1], None, [0, 1, 0, 1]),  # negatives of no weight
    ([0, 1, 0, 1], [4, 3, 2, 1], None, [0.5, 1, 2, 1]),
])
def test_every_metric_leaves_out_rankings_of_one_class_as_xgboosts_aucpr(y, margins, group,
                                                                       weight):
    xgb = pytest.importorskip("xgboost")
    y = np.asarray(y, dtype=np.float32)
    want = xgboost_aucpr(xgb, y, margins, group, weight)
    sizes = np.array([] if group is None else group, dtype=np.uint32)
    weights = np.array([] if weight is None else weight, dtype=np.float32)
    _, got = fastpr_xgb.Metric("auc_pr")(margins, BoostingData(y, sizes, weights))
    assert got == pytest.approx(want, abs=1e-12, rel=0, nan_ok=True)
    # LightGBM's weights are per example, which XGBoost's of a ranking task are not.
    lgb_weight = None if group is not None else weight
    _, got, _ = fastpr_lgb.Metric("auc_pr")(margins, BoostingData(y, group, lgb_weight))
    assert got == pytest.approx(want, abs=1e-12, rel=0, nan_ok=True)
    offsets = None if group is None else np.cumsum([0, *group])
    labels = FixedLabels(y, offsets=offsets, sample_weight=lgb_weight)
    got = labels.metric(margins, "auc_pr")
    assert got == pytest.approx(want, abs=1e-12, rel=0, nan_ok=True)
    if offsets is not None:  # each query: fastpr.evaluate's where it has both classes
        each = labels.metric(margins, "auc_pr", average=None)
        for g, (first, last) in enumerate(zip(offsets[:-1], offsets[1:])):
            rows = slice(first, last)
            if 0 < y[rows].sum() < last - first:
                assert each[g] == fastpr.evaluate(y[rows], np.asarray(margins)[rows]).auc_pr
            else:
                assert math.isnan(each[g])


def test_xgboost_metric_weighs_examples_of_a_weighted_dmatrix():
    xgb = pytest.importorskip("xgboost")
    x, y = imbalanced(10, n=400)
    weight = np.random.default_rng(10).uniform(0.0, 3.0, size=y.size).astype(np.float32)
    data = xgb.DMatrix(x, y, weight=weight)
    predt = np.random.default_rng(11).normal(size=y.size).astype(np.float32) + y
    for name, method in [("auc_pr", "interpolated"), ("average_precision", "average_precision")]:
        _, got = fastpr_xgb.Metric(name)(predt, data)
        want = fastpr.auc_pr(y, predt, sample_weight=weight, method=method)
        assert got == want
        assert got != fastpr.auc_pr(y, predt, method=method)  # the weights matter here


def xgboost_early_stopping_data(xgb):
    x, y = imbalanced(2, n=600)
    xv, yv = imbalanced(3, n=600)
    return xgb.DMatrix(x, y), xgb.DMatrix(xv, yv), (x, y, xv, yv)


# Deep trees at a large step overfit a small training set, so the validation metric rises and
# then falls: minimising would stop elsewhere.
_OVERFIT = {"objective": "binary:logistic", "nthread": 1, "max_depth": 8, "eta": 0.8,
            "tree_method": "exact", "base_score": 0.5}


@pytest.mark.parametrize("name", ["average_precision", "auc_pr"])
def test_xgboost_early_stopping_keeps_the_best_round(name):
    xgb = pytest.importorskip("xgboost")
    train, valid, _ = xgboost_early_stopping_data(xgb)
    metric = fastpr_xgb.Metric(name)
    booster = xgb.train({**_OVERFIT, "disable_default_eval_metric": 1}, train, 60,
                        evals=[(valid, "valid")], custom_metric=metric, maximize=True,
                        early_stopping_rounds=10, verbose_eval=False)
    history = [metric(booster.predict(valid, iteration_range=(0, i + 1)), valid)[1]
               for i in range(booster.num_boosted_rounds())]
    best, worst = first_maximum_and_minimum(history)
    assert best != worst
    assert booster.best_iteration == best


@pytest.mark.parametrize("name", ["average_precision", "auc_pr_dg", "auc_roc"])
def test_xgboost_sklearn_early_stopping_maximises_by_the_metrics_name(name):
    xgb = pytest.importorskip("xgboost")
    _, _, (x, y, xv, yv) = xgboost_early_stopping_data(xgb)
    metric = fastpr_xgb.SklearnMetric(name)
    params = {key: value for key, value in _OVERFIT.items() if key not in ("eta", "nthread")}
    model = xgb.XGBClassifier(**params, learning_rate=0.8, n_jobs=1, n_estimators=60,
                              eval_metric=metric, early_stopping_rounds=10,
                              disable_default_eval_metric=1)
    model.fit(x, y, eval_set=[(xv, yv)], verbose=False)
    booster = model.get_booster()
    history = [metric(yv, booster.predict(xgb.DMatrix(xv), iteration_range=(0, i + 1)))
               for i in range(booster.num_boosted_rounds())]
    best, worst = first_maximum_and_minimum(history)
    assert best != worst
    assert model.best_iteration == best


@pytest.mark.parametrize("groups", [None, [700, 300, 500]])
def test_xgboost_objective_trains_as_rank_map(groups):
    xgb = pytest.importorskip("xgboost")
    x, y = imbalanced(4)
    train = xgb.DMatrix(x, y, group=groups)
    params = {"tree_method": "exact", "nthread": 1, "base_score": 0.5, "max_depth": 4,
              "eta": 0.3}
    builtin = xgb.train({**params, "objective": "rank:map"}, train, 20)
    # Without groups, rank:map's one ranking of all rows is an option (random queries are the
    # default); with groups the default is rank:map.
    objective = fastpr_xgb.Objective(**({"ungrouped": "one_query"} if groups is None else {}))
    custom = xgb.train(params, train, 20, obj=objective)
    want = builtin.predict(train, output_margin=True)
    got = custom.predict(train, output_margin=True)
    assert np.abs(want).max() > 1  # the models have moved away from the base score
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-4)


def test_xgboost_sklearn_objective_equals_the_train_objective():
    xgb = pytest.importorskip("xgboost")
    x, y = imbalanced(5, n=500)
    params = {"tree_method": "exact", "n_jobs": 1, "base_score": 0.5, "max_depth": 3,
              "n_estimators": 5}
    model = xgb.XGBRegressor(**params, objective=fastpr_xgb.SklearnObjective(pairs="all"))
    model.fit(x, y)
    booster = xgb.train({"tree_method": "exact", "nthread": 1, "base_score": 0.5,
                         "max_depth": 3}, xgb.DMatrix(x, y), 5,
                        obj=fastpr_xgb.Objective(pairs="all"))
    np.testing.assert_array_equal(model.predict(x, output_margin=True),
                                  booster.predict(xgb.DMatrix(x), output_margin=True))


def test_xgboost_maximises_every_metric_by_its_name():
    xgb = pytest.importorskip("xgboost")
    x, y = imbalanced(9, n=50)
    booster = xgb.train({"nthread": 1}, xgb.DMatrix(x, y), 1)
    for name in METRICS:
        stopping = xgb.callback.EarlyStopping(rounds=1)  # maximize left to the name
        stopping.before_training(booster)
        stopping.after_iteration(booster, 0, {"valid": {fastpr_xgb.reported_name(name): [0.5]}})
        assert stopping.maximize, name


# ----------------------------------------------------------------------------- LightGBM
def test_lightgbm_metric_equals_average_precision():
    lgb = pytest.importorskip("lightgbm")
    x, y = imbalanced(6)
    xv, yv = imbalanced(7)
    train = lgb.Dataset(x, y)
    valid = lgb.Dataset(xv, yv, reference=train)
    booster = lgb.train({"objective": "binary", "metric": "average_precision", "verbose": -1,
                         "num_threads": 1}, train, 6, valid_sets=[valid],
                        keep_training_booster=True)
    (_, _, want, higher_is_better), = booster.eval_valid()
    scores = booster.predict(xv)
    name, got, higher = fastpr_lgb.Metric("average_precision")(scores, valid)
    assert higher and higher_is_better
    assert name == "average_precision"
    assert got == pytest.approx(want, abs=1e-12, rel=0)


@pytest.mark.parametrize("group", [None, [150, 90, 160]])
def test_lightgbm_metric_weighs_examples_of_a_weighted_dataset(group):
    lgb = pytest.importorskip("lightgbm")
    x, y = imbalanced(12, n=400)
    # float32 values: LightGBM keeps its weights as float32.
    weight = np.random.default_rng(12).uniform(0.0, 3.0, size=y.size).astype(np.float32)
    data = lgb.Dataset(x, y, weight=weight, group=group).construct()
    preds = np.random.default_rng(13).normal(size=y.size) + y
    offsets = None if group is None else np.cumsum([0, *group])
    for name, method in [("auc_pr", "interpolated"), ("average_precision", "average_precision")]:
        _, got, _ = fastpr_lgb.Metric(name)(preds, data)
        average = None if group is None else "macro"
        want = fastpr.auc_pr(y, preds, sample_weight=weight, offsets=offsets, method=method,
                             average=average)
        assert got == want
        assert got != fastpr.auc_pr(y, preds, offsets=offsets, method=method, average=average)


def test_lightgbm_early_stopping_keeps_the_best_round():
    lgb = pytest.importorskip("lightgbm")
    x, y = imbalanced(2, n=600)
    xv, yv = imbalanced(3, n=600)
    train = lgb.Dataset(x, y)
    valid = lgb.Dataset(xv, yv, reference=train)
    metric = fastpr_lgb.Metric("average_precision")
    booster = lgb.train({"objective": "binary", "metric": "None", "verbose": -1,
                         "num_threads": 1, "learning_rate": 0.8, "num_leaves": 64,
                         "min_data_in_leaf": 1}, train, 60, valid_sets=[valid],
                        feval=metric, callbacks=[lgb.early_stopping(10, verbose=False)])
    history = [metric(booster.predict(xv, num_iteration=i + 1), valid)[1]
               for i in range(booster.current_iteration())]
    best, worst = first_maximum_and_minimum(history)
    assert best != worst
    assert booster.best_iteration == best + 1  # LightGBM counts rounds from 1


def test_lightgbm_objective_hands_over_the_gradients_of_each_query():
    lgb = pytest.importorskip("lightgbm")
    x, y = imbalanced(8, n=300)
    groups = [120, 80, 100]
    data = lgb.Dataset(x, y, group=groups).construct()
    preds = np.random.default_rng(0).normal(size=300)
    got = fastpr_lgb.Objective()(preds, data)
    want = xgboost_grouped(y, preds, np.cumsum([0, *groups]))
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-15)
    sklearn = fastpr_lgb.SklearnObjective()(y, preds, None, np.array(groups))
    np.testing.assert_array_equal(sklearn, got)


# ----------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("call, error, argument", [
    (lambda: fastpr_xgb.Objective()(np.zeros(2), BoostingData(np.array([1.0, 0.0]), np.array([]),
                                                              np.array([1.0, 2.0]))),
     InputValueError, "sample_weight"),
    (lambda: fastpr_lgb.Objective()(np.zeros(2), BoostingData(np.array([1.0, 0.0]), None,
                                                              np.array([1.0, 2.0]))),
     InputValueError, "sample_weight"),
    (lambda: fastpr_xgb.Metric("aucpr"), InputValueError, "name"),
    (lambda: fastpr_lgb.Metric("auc"), InputValueError, "name"),
    (lambda: fastpr_xgb.Objective(k=0), InputValueError, "k"),
    (lambda: fastpr_lgb.Objective(ranknet=1), InputTypeError, "ranknet"),
])
def test_bad_input_is_refused_clearly(call, error, argument):
    with pytest.raises(error) as raised:
        call()
    assert raised.value.argument == argument
