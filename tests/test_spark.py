"""fastpr.spark.evaluate on a local Spark session equals fastpr.evaluate on the collected rows.

One ``local[2]`` session serves the whole file (it takes seconds to start); every Spark test
lives here, so that pytest-xdist's --dist loadfile gives them one worker and one session. Java
and PySpark are required, not optional: without them these tests fail rather than skip.
"""
import os
import pathlib
import sys
import warnings

import numpy as np
import pandas as pd
import pytest
from evaluations import assert_evaluations_close

import fastpr
import fastpr.spark

STRATEGIES = ("driver", "ranges")
# PySpark 4.3 warns that it does not yet fully support pandas 3, at each use of pandas.
pytestmark = pytest.mark.filterwarnings(
    "ignore:PySpark does not yet fully support pandas:FutureWarning")


@pytest.fixture(scope="module")
def spark():
    """Two cores, no UI, few shuffle partitions, Arrow on, quiet logs."""
    from pyspark.sql import SparkSession
    # The executors' Python is this one, importing this fastpr (the JVM passes its environment,
    # taken from this process, to the Python workers it starts).
    os.environ["PYSPARK_PYTHON"] = sys.executable
    root = str(pathlib.Path(fastpr.__file__).resolve().parent.parent)
    os.environ["PYTHONPATH"] = os.pathsep.join(
        [root, *filter(None, [os.environ.get("PYTHONPATH")])])
    session = (SparkSession.builder.master("local[2]").appName("fastpr-tests")
               .config("spark.ui.enabled", "false")
               .config("spark.ui.showConsoleProgress", "false")
               .config("spark.sql.shuffle.partitions", "3")
               .config("spark.default.parallelism", "2")
               .config("spark.sql.execution.arrow.pyspark.enabled", "true")
               .config("spark.driver.memory", "1g")
               # Short jobs: the quick JIT tier and one GC thread start fastest.
               .config("spark.driver.extraJavaOptions",
                       "-XX:+UseSerialGC -XX:TieredStopAtLevel=1")
               .getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def frame(spark, partitions=3, **columns):
    """A DataFrame of the columns (NumPy arrays) in ``partitions`` partitions, rows dealt out
    round robin."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)  # PySpark on pandas 3
        df = spark.createDataFrame(pd.DataFrame(columns))
    return df.repartition(partitions)


def table(spark, schema, partitions, *rows):
    """A DataFrame of ``rows`` (tuples; None is a null, float("nan") a NaN) of the DDL
    ``schema``, split into ``partitions`` partitions of consecutive rows."""
    df = spark.createDataFrame([(k, *row) for k, row in enumerate(rows)], f"k long, {schema}")
    return df.repartitionByRange(partitions, "k")


def rows(spark, y, s, w=None, g=None, partitions=3):
    columns = {"y": y, "s": s}
    if w is not None:
        columns["w"] = w
    if g is not None:
        columns["g"] = g
    return frame(spark, partitions, **columns)


def quietly(call, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", fastpr.UndefinedMetricWarning)
        return call(*args, **kwargs)


def data(n, seed, decimals=None, weighted=False):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.2).astype(np.int64)
    s = 1 / (1 + np.exp(-(rng.normal(size=n) + 1.2 * y)))
    s = s if decimals is None else s.round(decimals)
    w = rng.integers(0, 4, n).astype(np.float64) * rng.random(n) if weighted else None
    return y, s, w


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("decimals, weighted", [(None, False), (2, False), (1, True)])
def test_matches_evaluate(spark, strategy, decimals, weighted):
    """Every field, the hull included; ties across partitions where scores are rounded."""
    y, s, w = data(600, seed=3, decimals=decimals, weighted=weighted)
    df = rows(spark, y, s, w, partitions=4)
    got = fastpr.spark.evaluate(df, label="y", score="s", weight=None if w is None else "w",
                                strategy=strategy, n_ranges=5)
    assert_evaluations_close(got, fastpr.evaluate(y, s, sample_weight=w))


def test_auto_takes_ranges_above_the_threshold(spark):
    """More distinct scores than max_driver_entries: "auto" takes the range path."""
    y, s, _ = data(300, seed=4, decimals=1)
    got = fastpr.spark.evaluate(rows(spark, y, s), label="y", score="s", max_driver_entries=5)
    assert_evaluations_close(got, fastpr.evaluate(y, s))


def test_empty_partitions_and_one_class_ranges(spark):
    """More partitions than rows, and more ranges than distinct scores."""
    y = np.array([1, 0, 1, 1, 0, 0])
    s = np.array([0.9, 0.8, 0.7, 0.6, 0.6, 0.1])
    df = rows(spark, y, s, partitions=8)
    expected = fastpr.evaluate(y, s)
    for strategy in STRATEGIES:
        got = fastpr.spark.evaluate(df, label="y", score="s", strategy=strategy, n_ranges=9)
        assert_evaluations_close(got, expected)


def test_string_labels_and_pos_label(spark):
    y = np.array(["no", "yes", "yes", "no", "yes"], dtype=object)
    s = np.array([0.1, 0.9, 0.4, 0.4, 0.8])
    got = fastpr.spark.evaluate(rows(spark, y, s), label="y", score="s", pos_label="yes")
    assert_evaluations_close(got, fastpr.evaluate(y, s, pos_label="yes"))


def test_groups_match_evaluate(spark):
    """One fastpr call per partition of whole groups; the batch in fastpr's order, zero-weight
    and one-class groups as NaN, as fastpr.evaluate(groups=) gives them."""
    rng = np.random.default_rng(5)
    n = 400
    g = rng.integers(0, 12, n)
    y = (rng.random(n) < 0.3).astype(np.int64)
    y[g == 3] = 0  # no positives
    s = rng.random(n).round(2)
    w = rng.random(n)
    w[g == 7] = 0.0  # weighs 0
    df = rows(spark, y, s, w, g, partitions=3)
    got = quietly(fastpr.spark.evaluate, df, label="y", score="s", weight="w", groups="g")
    expected = quietly(fastpr.evaluate, y, s, sample_weight=w, groups=g)
    assert np.array_equal(got.index, expected.index) and got.index_name == "group"
    for i in range(len(expected)):
        assert_evaluations_close(got[i], expected[i])


def test_undefined_metric_warned_once(spark):
    df = rows(spark, np.zeros(4, dtype=np.int64), np.array([0.1, 0.2, 0.3, 0.4]))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = fastpr.spark.evaluate(df, label="y", score="s")
    undefined = [w for w in caught if issubclass(w.category, fastpr.UndefinedMetricWarning)]
    assert len(undefined) == 1 and np.isnan(got.auc_pr)


def test_accumulator_gives_the_curves(spark):
    y, s, _ = data(200, seed=6, decimals=2)
    accumulator = fastpr.spark.accumulate(rows(spark, y, s), label="y", score="s")
    assert_evaluations_close(accumulator.evaluate(), fastpr.evaluate(y, s))
    scores, pos, neg = accumulator.to_arrays()
    curve = fastpr.pr_curve(np.r_[np.ones(scores.size), np.zeros(scores.size)],
                            np.r_[scores, scores], sample_weight=np.r_[pos, neg])
    expected = fastpr.pr_curve(y, s)
    for field in ("recall", "precision", "thresholds", "tp", "fp"):
        np.testing.assert_allclose(getattr(curve, field), getattr(expected, field), rtol=1e-12)



# ----------------------------------------------------------------------------- several models
def models_frame(spark, seed):
    """Three models' weighted, rounded scores (ties across partitions) in four partitions, the
    second emptied; and the collected table."""
    from pyspark.sql import functions as F
    rng = np.random.default_rng(seed)
    y, a, w = data(500, seed=seed, decimals=2, weighted=True)
    b = (a + rng.normal(scale=0.3, size=a.size)).round(1)
    c = rng.integers(0, 5, a.size)  # an integer column, few scores
    # Cached: Spark deals rows out round robin in an order that depends on the columns
    # selected, so that each query would empty partition 1 of other rows.
    df = frame(spark, 4, y=y, a=a, b=b, c=c, w=w).where(F.spark_partition_id() != 1).cache()
    return df, df.toArrow().to_pandas()


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_models_match_evaluate(spark, strategy):
    """score=[...] gives fastpr.evaluate's table of models on the collected columns: index in
    the order given, every field, the hull included."""
    df, collected = models_frame(spark, seed=7)
    names = ["c", "a", "b"]
    try:
        got = fastpr.spark.evaluate(df, label="y", score=names, weight="w", strategy=strategy,
                                    n_ranges=4)
        assert df.rdd.glom().map(len).collect()[1] == 0
    finally:
        df.unpersist()
    expected = fastpr.evaluate(collected["y"], collected[names], sample_weight=collected["w"])
    assert isinstance(got, fastpr.EvaluationBatch) and got.index_name == "model"
    assert list(got.index) == list(expected.index) == names
    for i in range(len(names)):
        assert_evaluations_close(got[i], expected[i])


def test_one_model_list_and_the_total_cap(spark, monkeypatch):
    """A list of one column is a batch of one, as a one-column table is; "auto" caps the
    distinct (model, score, label) entries of all models together, not of each."""
    y, s, _ = data(300, seed=8, decimals=1)
    df = frame(spark, 3, y=y, s=s, t=-s)
    got = fastpr.spark.evaluate(df, label="y", score=["s"])
    expected = fastpr.evaluate(y, {"s": s})
    assert isinstance(got, fastpr.EvaluationBatch) and list(got.index) == ["s"]
    assert_evaluations_close(got[0], expected[0])
    ranged = []
    real = fastpr.spark._range_sorted
    monkeypatch.setattr(fastpr.spark, "_range_sorted",
                        lambda *args: ranged.append(1) or real(*args))
    pairs = len(set(zip(s, y)))  # of each model; the two hold twice as many
    got = fastpr.spark.evaluate(df, label="y", score=["s", "t"], max_driver_entries=pairs + 1)
    assert ranged
    expected = fastpr.evaluate(y, {"s": s, "t": -s})
    for i in range(2):
        assert_evaluations_close(got[i], expected[i])


# ----------------------------------------------------------------------------- bad input
def error_of(call):
    with pytest.raises((ValueError, TypeError)) as caught:
        call()
    return caught.value


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_scores_of_other_types_as_the_input_layer_takes_them(spark, strategy):
    """Boolean scores are 0 and 1, and strings are refused by the input layer's error, on both
    paths: the ranges routed and sampled the scores in the JVM first, where a boolean failed
    to compare with a number and a string failed Spark's cast (issue 38)."""
    y, flags = [1, 0, 1, 0, 0, 1], [True, False, True, True, False, False]
    df = table(spark, "y int, s boolean", 2, *zip(y, flags))
    got = fastpr.spark.evaluate(df, label="y", score="s", strategy=strategy, n_ranges=2)
    assert_evaluations_close(got, fastpr.evaluate(y, flags))
    df = table(spark, "y int, s string", 2, (1, "0.9"), (0, "0.2"), (1, "high"))
    expected = error_of(lambda: fastpr.evaluate([1, 0, 1], np.array(["0.9", "0.2", "high"])))
    error = error_of(lambda: fastpr.spark.evaluate(df, label="y", score="s",
                                                   strategy=strategy))
    assert type(error) is type(expected) and error.argument == "score"
    assert "score column 's' must be real numbers" in str(error)


def test_missing_column(spark):
    df = table(spark, "y int, s double", 1, (1, 0.2), (0, 0.1))
    error = error_of(lambda: fastpr.spark.evaluate(df, label="y", score="score"))
    assert isinstance(error, fastpr.InputValueError) and error.argument == "score"
    assert "'score' is not a column" in str(error) and "'s'" in str(error)


@pytest.mark.parametrize("column", ["y", "s", "w"])
def test_nulls_named(spark, column):
    """A null (not NaN) in any column: the column, the row in its partition."""
    row = {"y": 1, "s": 0.3, "w": 1.0}
    row[column] = None
    df = table(spark, "y int, s double, w double", 1, (1, 0.1, 1.0), (0, 0.2, 2.0),
               tuple(row.values()), (0, 0.4, 1.0))
    error = error_of(lambda: fastpr.spark.evaluate(df, label="y", score="s", weight="w"))
    assert f"column {column!r} is missing (null) at row 2 of partition 0" in str(error)


def test_nan_score_named(spark):
    df = table(spark, "y int, s double", 1, (1, 0.1), (0, float("nan")), (1, 0.3))
    error = error_of(lambda: fastpr.spark.evaluate(df, label="y", score="s"))
    assert "score column 's' contains NaN at row 1 of partition 0" in str(error)


def test_negative_weight_named(spark):
    df = table(spark, "y int, s double, w double", 1, (1, 0.1, 1.0), (0, 0.2, -1.0),
               (1, 0.3, 1.0))
    error = error_of(lambda: fastpr.spark.evaluate(df, label="y", score="s", weight="w"))
    assert "weight column 'w' must be >= 0, got -1.0 at row 1 of partition 0" in str(error)


def test_third_label_across_partitions(spark):
    """Each partition holds two labels, the whole three: refused as fastpr.evaluate refuses."""
    df = table(spark, "y int, s double", 2, (0, 0.1), (1, 0.2), (1, 0.3), (2, 0.4))
    error = error_of(lambda: fastpr.spark.evaluate(df, label="y", score="s", pos_label=1))
    assert isinstance(error, fastpr.InputValueError) and error.argument == "label"
    assert "must have two classes" in str(error) and "0, 1, 2" in str(error)


def test_failing_partition_is_one_clear_error(spark):
    """A partition that fails raises the input error on the driver, not a Py4J trace; so does
    the groups path."""
    df = table(spark, "y int, s double, g int", 2, (1, 0.1, 1), (0, 0.2, 1), (1, 0.3, 2),
               (0, float("nan"), 2))
    for options in ({}, {"strategy": "ranges"}, {"groups": "g"}):
        error = error_of(lambda: fastpr.spark.evaluate(df, label="y", score="s", **options))
        assert isinstance(error, fastpr.InputValueError), type(error)
        assert str(error).startswith("score column 's' contains NaN at row "), str(error)


def test_zero_weight_everywhere(spark):
    df = table(spark, "y int, s double, w double", 2, (1, 0.1, 0.0), (0, 0.2, 0.0),
               (1, 0.3, 0.0))
    error = error_of(lambda: fastpr.spark.evaluate(df, label="y", score="s", weight="w"))
    assert "weight column 'w' is zero everywhere" in str(error)


@pytest.mark.parametrize("score, options, kind, text", [
    ([], {}, fastpr.InputValueError, "score is an empty list: name one score column or more"),
    (["s", "s"], {}, fastpr.InputValueError,
     "score names the column 's' more than once; each model's column must be named once"),
    (["s", "x"], {}, fastpr.InputValueError, "score='x' is not a column of the DataFrame"),
    (["s", 3], {}, fastpr.InputTypeError,
     "score must name columns of the DataFrame (strings); got 3 (int) at position 1"),
    (["s"], {"groups": "g"}, fastpr.InputValueError,
     "groups splits one ranking, so score must name one column, not a list"),
])
def test_models_bad_lists(spark, score, options, kind, text):
    df = table(spark, "y int, s double, g int", 1, (1, 0.2, 1), (0, 0.1, 1))
    error = error_of(lambda: fastpr.spark.evaluate(df, label="y", score=score, **options))
    assert isinstance(error, kind) and error.argument == "score", (type(error), str(error))
    assert text in str(error), str(error)


def test_accumulate_takes_one_column(spark):
    df = table(spark, "y int, s double, t double", 1, (1, 0.2, 0.1), (0, 0.1, 0.3))
    error = error_of(lambda: fastpr.spark.accumulate(df, label="y", score=["s", "t"]))
    assert isinstance(error, fastpr.InputTypeError) and error.argument == "score"
    assert "accumulate takes one score column" in str(error), str(error)


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_models_null_and_nan_named(spark, strategy):
    """A null or NaN in one model's column: that column, the row in its partition."""
    df = table(spark, "y int, a double, b double, c double", 2, (1, 0.1, 0.1, 0.1),
               (0, 0.2, 0.3, 0.2), (1, 0.3, None, 0.3), (0, 0.4, 0.1, float("nan")))
    for names, text in ((["a", "b", "c"], "score column 'b' is missing (null) at row 0 of "
                         "partition 1"),
                        (["c", "a"], "score column 'c' contains NaN at row 1 of partition 1")):
        error = error_of(lambda: fastpr.spark.evaluate(df, label="y", score=names,
                                                       strategy=strategy))
        assert isinstance(error, fastpr.InputValueError) and text in str(error), str(error)
# ----------------------------------------------------------------------------- bootstrap
def cells_of(y, s, w=None):
    """(scores, is_positive, counts, weights) of collected rows: their distinct cells."""
    columns = [s, y] if w is None else [s, y, w]
    keys, counts = np.unique(np.column_stack(columns).astype(np.float64), axis=0,
                             return_counts=True)
    return keys[:, 0], keys[:, 1] == 1, counts, None if w is None else keys[:, 2]


@pytest.mark.parametrize("weighted", [False, True])
def test_bootstrap_equals_bootstrap_cells_of_the_collected_rows(spark, weighted):
    """Ties across partitions (rounded scores); the replicates, the BCa bounds (jackknife) and
    the estimate of fastpr.bootstrap on the rows."""
    y, s, w = data(500, seed=9, decimals=2, weighted=weighted)
    if weighted:
        w = np.round(w * 4) / 4  # few distinct weights: cells of several rows
    df = rows(spark, y, s, w, partitions=4)
    # The default metric (a string the options pass on as it is) and a parsed one.
    options = dict(n_boot=200, seed=4, interval="bca", **({"metric": "max_f1"} if weighted
                                                           else {}))
    got = fastpr.spark.bootstrap(df, label="y", score="s", weight="w" if weighted else None,
                                 **options)
    expected = fastpr.intervals.bootstrap_cells(*cells_of(y, s, w), **options)
    np.testing.assert_array_equal(got.replicates, expected.replicates)
    assert (got.estimate, got.low, got.high) == (expected.estimate, expected.low, expected.high)
    assert got.estimate == pytest.approx(
        fastpr.bootstrap(y, s, sample_weight=w, **(options | {"n_boot": 2})).estimate,
        rel=1e-12)


def test_bootstrap_with_empty_partitions_and_top_k(spark):
    y = np.array([1, 0, 1, 1, 0, 0])
    s = np.array([0.9, 0.8, 0.7, 0.6, 0.6, 0.1])
    df = rows(spark, y, s, partitions=8)
    got = fastpr.spark.bootstrap(df, label="y", score="s", metric="precision_at_k@3",
                                 n_boot=100, seed=2)
    expected = fastpr.intervals.bootstrap_cells(*cells_of(y, s), metric="precision_at_k@3",
                                                n_boot=100, seed=2)
    np.testing.assert_array_equal(got.replicates, expected.replicates)
    assert got.estimate == fastpr.bootstrap(y, s, metric="precision_at_k@3", n_boot=2).estimate


def test_bootstrap_refuses_bad_input_as_evaluate_does(spark):
    cases = [table(spark, "y int, s double", 1, (1, 0.1), (0, float("nan")), (1, 0.3)),
             table(spark, "y int, s double", 2, (0, 0.1), (1, 0.2), (1, 0.3), (2, 0.4)),
             table(spark, "y int, s double", 1, (1, 0.1), (None, 0.2), (0, 0.3))]
    for df in cases:
        expected = error_of(lambda: fastpr.spark.evaluate(df, label="y", score="s"))
        got = error_of(lambda: fastpr.spark.bootstrap(df, label="y", score="s", n_boot=10))
        assert (type(got), str(got)) == (type(expected), str(expected))
    for weights in ((1.0, -1.0, 1.0), (0.0, 0.0, 0.0)):
        df = table(spark, "y int, s double, w double", 1,
                   *zip((1, 0, 1), (0.1, 0.2, 0.3), weights))
        expected = error_of(lambda: fastpr.spark.evaluate(df, label="y", score="s", weight="w"))
        got = error_of(lambda: fastpr.spark.bootstrap(df, label="y", score="s", weight="w",
                                                      n_boot=10))
        assert (type(got), str(got)) == (type(expected), str(expected))


def test_bootstrap_takes_one_score_column(spark):
    """Several models' columns (which fastpr.spark.evaluate takes as a list) are refused."""
    df = table(spark, "y int, s double, t double", 1, (1, 0.1, 0.2), (0, 0.2, 0.1))
    error = error_of(lambda: fastpr.spark.bootstrap(df, label="y", score=["s", "t"]))
    assert isinstance(error, fastpr.InputTypeError) and error.argument == "score"
    assert "score must name one score column" in str(error)


@pytest.mark.parametrize("metric", ["auc_pr", "precision_at_k@30"])
def test_bootstrap_of_many_scores_reduces_each_range_to_positive_cells_and_gap_bins(spark,
                                                                                      metric):
    """Unweighted, more cells than max_driver_entries: each score range, on its executor,
    becomes its positive cells and its negatives' gap bins (cut at the range's ends), which
    give bootstrap_cells of all the cells: the same gap bins, so the same replicates, and the
    same estimate and jackknife. Ties across partitions."""
    y, s, _ = data(600, seed=6, decimals=3)
    df = rows(spark, y, s, partitions=3)
    cells = cells_of(y, s)
    positive_scores = np.unique(s[y == 1]).size
    options = dict(metric=metric, n_boot=200, seed=3, interval="bca")
    got = fastpr.spark.bootstrap(df, label="y", score="s", max_driver_entries=cells[0].size - 1,
                                 **options)
    expected = fastpr.intervals.bootstrap_cells(*cells, **options)
    np.testing.assert_array_equal(got.replicates, expected.replicates)
    assert (got.estimate, got.low, got.high) == (expected.estimate, expected.low, expected.high)
    # What the driver gathered: the positive cells and at most, per range (here 6), a bin
    # below each positive score, one tied with it and one above them all: fewer than the cells.
    error = error_of(lambda: fastpr.spark.bootstrap(df, label="y", score="s",
                                                    max_driver_entries=positive_scores))
    found = int(str(error).split()[3])
    assert positive_scores < found <= 3 * positive_scores + 6 < cells[0].size


def test_bootstrap_refuses_more_cells_than_max_driver_entries(spark):
    y, s, w = data(200, seed=5, decimals=2, weighted=True)
    w = np.round(w)
    df = rows(spark, y, s, w, partitions=2)
    n_cells = np.unique(np.c_[s, y, w], axis=0).shape[0]
    error = error_of(lambda: fastpr.spark.bootstrap(df, label="y", score="s", weight="w",
                                                    max_driver_entries=20))
    assert isinstance(error, fastpr.InputValueError) and error.argument == "max_driver_entries"
    assert (f"the DataFrame holds {n_cells} distinct (score, label, weight) cells, more than "
            "max_driver_entries=20 lets the driver gather (about ") in str(error)
    assert " bytes each here, 1 MiB in all): raise max_driver_entries" in str(error)
    error = error_of(lambda: fastpr.spark.bootstrap(rows(spark, y, s), label="y", score="s",
                                                    max_driver_entries=3))
    assert "positive cells and gap bins of negatives (without weights" in str(error)
