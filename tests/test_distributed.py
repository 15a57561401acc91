"""fastpr.distributed.evaluate on Dask equals fastpr.evaluate on the gathered data."""
import importlib
import sys
import warnings

import dask
import dask.array as da
import dask.dataframe as dd
import numpy as np
import pandas as pd
import pytest
from dask.callbacks import Callback
from dask.distributed import Client, LocalCluster
from dask.utils import key_split
from hypothesis import given
from hypothesis import strategies as st

import fastpr
import fastpr.distributed
from evaluations import assert_evaluations_close
from strategies import SETTINGS, rankings


@pytest.fixture(scope="module")
def client():
    """Two worker processes, one thread each: every range and carry crosses processes."""
    with LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        yield client


def chunked(values, chunks):
    return None if values is None else da.from_array(values, chunks=chunks)


def assert_batches_close(actual, expected):
    """Same index (values and type), index name and entries (each to a relative tolerance)."""
    assert actual.index.dtype == expected.index.dtype
    assert np.array_equal(actual.index, expected.index) and actual.index_name == expected.index_name
    assert len(actual) == len(expected)
    for i in range(len(expected)):
        assert_evaluations_close(actual[i], expected[i])


def warning_messages(call):
    """(call's result, the messages of the warnings it issued)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = call()
    return result, [str(warning.message) for warning in caught]


def both(y, s, w=None, chunks=3, **options):
    """(distributed result, single-machine result) of one ranking."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", fastpr.UndefinedMetricWarning)
        expected = fastpr.evaluate(y, s, sample_weight=w)
        got = fastpr.distributed.evaluate(chunked(y, chunks), chunked(s, chunks),
                                          sample_weight=chunked(w, chunks), **options)
    return got, expected


@SETTINGS
@given(rankings(max_n=60), st.integers(1, 20), st.integers(1, 9))
def test_every_range_split_matches_evaluate(case, chunk, n_ranges):
    """In-process scheduler, so that many splits are cheap; the cluster tests cover transport.

    Small chunks and up to 9 ranges over a few distinct scores: ranges of one class or none,
    carries chained across several ranges, ties across partitions.
    """
    y, s, w = case
    with dask.config.set(scheduler="synchronous"):
        got, expected = both(y, s, w, chunks=chunk, n_ranges=n_ranges)
    assert_evaluations_close(got, expected)


def skewed(n, seed, decimals=None):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.05
    s = 1 / (1 + np.exp(-(rng.normal(size=n) + 1.5 * y)))
    return y, (s if decimals is None else s.round(decimals))


def test_cluster_continuous_scores_with_weights(client):
    y, s = skewed(40_000, 1)
    w = np.random.default_rng(2).random(y.size) * 3
    got, expected = both(y, s, w, chunks=5_000)
    assert_evaluations_close(got, expected)


def test_cluster_heavy_ties_span_partitions(client):
    """Sorted scores with 4 distinct values: every tie runs across several partitions."""
    y, s = skewed(30_000, 3, decimals=1)
    s = np.sort((s * 3).round() / 3)
    assert np.unique(s).size <= 4
    for options in ({}, {"n_ranges": 12}):
        got, expected = both(y, s, chunks=2_000, **options)
        assert_evaluations_close(got, expected)


def test_cluster_ranges_of_one_class(client):
    """Top positives, a long stretch of negatives only, then mixed: carries skip ranges."""
    s = np.concatenate([np.linspace(10, 9, 500), np.linspace(8, 1, 5_000), np.zeros(3_000)])
    y = np.concatenate([np.ones(500, bool), np.zeros(5_000, bool),
                        np.random.default_rng(4).random(3_000) < 0.5])
    got, expected = both(y, s, chunks=1_000, n_ranges=16)
    assert_evaluations_close(got, expected)


def mixed_partitions(seed):
    """(y, s, w, chunks): partitions of distinct scores (they move as rows) sharing their scores
    with each other and with partitions of heavy ties (compacted before they move); two hold one
    class, one route each; three are empty."""
    rng = np.random.default_rng(seed)
    pool = rng.random(4_000).round(6)
    ys, ss = [], []
    for k in range(6):
        s = rng.permutation(pool) if k % 2 else rng.choice(pool[:30], 4_000)
        ys.append(np.full(s.size, k == 3) if k in (3, 4) else rng.random(s.size) < 0.2)
        ss.append(s)
    y, s = np.concatenate(ys), np.concatenate(ss)
    chunks = (0, 4_000, 4_000, 0, 4_000, 4_000, 4_000, 4_000, 0)
    return y, s, rng.integers(0, 4, y.size).astype(float), chunks


def test_cluster_rows_and_compacted_partitions_share_ties(client):
    y, s, w, chunks = mixed_partitions(10)
    for weights in (None, w):
        for options in ({}, {"n_ranges": 5}):
            got, expected = both(y, s, weights, chunks=(chunks,), **options)
            assert_evaluations_close(got, expected)
    groups = np.random.default_rng(11).integers(0, 3, y.size)
    per_group = fastpr.distributed.evaluate(chunked(y, (chunks,)), chunked(s, (chunks,)),
                                            sample_weight=chunked(w, (chunks,)),
                                            groups=chunked(groups, (chunks,)))
    assert_batches_close(per_group, fastpr.evaluate(y, s, sample_weight=w, groups=groups))


def test_cluster_failing_partition_after_empty_ones(client):
    """Positions count the rows of every partition before the failing one."""
    y, s, _, chunks = mixed_partitions(12)
    with_nan = s.copy()
    with_nan[4_000 + 4_000 + 17] = np.nan  # partition 4, after two empty ones
    with pytest.raises(ValueError, match=r"y_score contains NaN at index 8017 \(1 NaN in "
                                         r"partition 4\)"):
        fastpr.distributed.evaluate(chunked(y, (chunks,)), chunked(with_nan, (chunks,)))
    labels = y.astype(int)
    labels[4_000 * 3 + 5] = -1  # {-1, 1} in partition 5 alone, {0, 1} elsewhere
    with pytest.raises(ValueError, match=r"y_true must have two classes, got 3 distinct labels"):
        fastpr.distributed.evaluate(chunked(labels, (chunks,)), chunked(s, (chunks,)))


def test_cluster_dataframe_columns_groups_and_labels(client):
    y, s = skewed(12_000, 5, decimals=2)
    frame = pd.DataFrame({"label": np.where(y, "fraud", "ok"), "score": s,
                          "weight": np.random.default_rng(6).integers(0, 4, y.size),
                          "shop": np.random.default_rng(7).integers(0, 3, y.size)})
    ddf = dd.from_pandas(frame, npartitions=6)
    got = fastpr.distributed.evaluate(ddf["label"], ddf["score"], sample_weight=ddf["weight"],
                                      pos_label="fraud")
    expected = fastpr.evaluate(frame["label"], frame["score"], sample_weight=frame["weight"],
                               pos_label="fraud")
    assert_evaluations_close(got, expected)
    per_shop = fastpr.distributed.evaluate(ddf["label"], ddf["score"], pos_label="fraud",
                                           sample_weight=ddf["weight"], groups=ddf["shop"])
    assert_batches_close(per_shop, fastpr.evaluate(frame["label"], frame["score"],
                                                   sample_weight=frame["weight"],
                                                   pos_label="fraud", groups=frame["shop"]))


def test_cluster_worker_errors_reach_the_caller(client):
    s = np.linspace(0, 1, 100)
    s[57] = np.nan
    with pytest.raises(ValueError, match=r"y_score contains NaN at index"):
        fastpr.distributed.evaluate(da.from_array(s > 0.5, chunks=25), da.from_array(s, chunks=25))


def test_the_client_waits_for_two_graphs():
    """One graph prepares the partitions (the boundaries need their labels and samples), one
    more routes, sorts, carries the states (a task, not the client) and sweeps: each graph the
    client waits for costs a fixed time, which showed at 10M rows on a cluster (issue 38)."""
    graphs = []

    class Tasks(Callback):
        def _start(self, dsk):
            graphs.append(set())

        def _pretask(self, key, dsk, state):
            graphs[-1].add(key_split(key))

    y, s = skewed(400, 8)
    with dask.config.set(scheduler="synchronous"), Tasks():
        got, expected = both(y, s, chunks=50, n_ranges=3)
    assert_evaluations_close(got, expected)
    steps = [{name for name in names if not name.startswith("fastpr-")} for names in graphs
             if names]
    assert steps == [{"prepared"}, {"routed", "sorted_range", "carried_states", "sweep_sorted"}]


def test_the_items_of_each_task_are_read_where_it_ran(client):
    """The small tasks that read each item of a task's tuple (a prepared partition's rows,
    labels and sample; a routed partition's pieces; a range's ranking and summary) run where
    the tuple lies, so nothing moves to them. Dask's own "getitem" tasks, one scheduler task
    group for the whole graph, counted as root-ish and went to whichever worker was free,
    moving whole partitions (issue 38). (Other tasks may receive data: a partition's columns
    persisted on two workers, a range's pieces, a task that the scheduler steals.)"""
    from dask.distributed import get_task_stream, wait
    y, s = skewed(400_000, 9)
    y, s = client.persist([da.from_array(y, chunks=50_000), da.from_array(s, chunks=50_000)])
    wait([y, s])
    fastpr.distributed.evaluate(y, s)  # compiled on both workers
    with get_task_stream(client) as stream:
        got = fastpr.distributed.evaluate(y, s)
    assert_evaluations_close(got, fastpr.evaluate(y.compute(), s.compute()))
    ran = {key_split(record["key"]) for record in stream.data}
    items = {"fastpr-part", "fastpr-labels", "fastpr-sample", "fastpr-piece", "fastpr-ranking",
             "fastpr-summary"}
    assert items <= ran  # the names this test watches are those of the graph
    moved_for = {key_split(record["key"]) for record in stream.data
                 for part in record["startstops"] if part["action"] == "transfer"}
    assert not moved_for & (items | {"getitem"})


def test_the_scheduler_sees_the_bytes_that_tasks_pass_on():
    """Dask places tasks where the bytes of their inputs lie, as dask.sizeof counts them: a
    partition's rows, a range's pieces and its sorted rows must count their arrays, else the
    scheduler moved whole partitions to run small tasks elsewhere (issue 38)."""
    from dask.sizeof import sizeof

    from fastpr import _partitioned as core
    y, s = skewed(10_000, 3)
    rows = core.prepared(0, y, s, None, None)[0]
    (low, high) = core.routed(rows, np.array([np.median(s)]))
    ranking, _ = core.sorted_range(low)
    assert sizeof(rows) >= y.size * 9
    assert sizeof(low) + sizeof(high) >= y.size * 8
    assert sizeof(ranking) >= low.size * 8


def test_partitions_of_zero_weight_are_absent():
    y, s = skewed(400, 8)
    w = np.ones(y.size)
    w[100:250] = 0.0
    with dask.config.set(scheduler="synchronous"):
        got, expected = both(y, s, w, chunks=50)
    assert_evaluations_close(got, expected)


def test_inputs_chunked_differently_are_lined_up():
    y, s = skewed(1_000, 9, decimals=2)
    with dask.config.set(scheduler="synchronous"):
        got = fastpr.distributed.evaluate(da.from_array(y, chunks=100),
                                          da.from_array(s, chunks=300))
    assert_evaluations_close(got, fastpr.evaluate(y, s))


@SETTINGS
@given(rankings(max_n=60, weights=("none", "int")), st.integers(1, 20), st.data())
def test_groups_are_those_of_evaluate(case, chunk, data):
    """The EvaluationBatch of evaluate(groups=) and its warning; groups of one class, or whose
    rows all weigh 0 (kept, as NaN), included."""
    y, s, w = case
    ids = np.array(data.draw(st.lists(st.integers(0, 4), min_size=y.size, max_size=y.size)))
    groups = data.draw(st.sampled_from([ids, ids.astype(np.int32), np.array(list("vwxyz"))[ids]]))
    expected, expected_warnings = warning_messages(
        lambda: fastpr.evaluate(y, s, sample_weight=w, groups=groups))
    with dask.config.set(scheduler="synchronous"):
        got, got_warnings = warning_messages(lambda: fastpr.distributed.evaluate(
            chunked(y, chunk), chunked(s, chunk), sample_weight=chunked(w, chunk),
            groups=chunked(groups, chunk)))
    assert_batches_close(got, expected)
    assert got_warnings == expected_warnings


def test_group_weighing_nothing_is_kept_as_nan():
    y = da.from_array(np.array([1, 0, 1, 0, 0, 1]), chunks=2)
    s = da.from_array(np.array([0.9, 0.1, 0.5, 0.4, 0.3, 0.2]), chunks=2)
    w = da.from_array(np.array([1.0, 1.0, 0.0, 0.0, 1.0, 1.0]), chunks=2)
    groups = da.from_array(np.array(["a", "a", "b", "b", "c", "c"]), chunks=2)
    with dask.config.set(scheduler="synchronous"), pytest.warns(
            fastpr.UndefinedMetricWarning, match=r"for 1 of 3 groups: 1 have no positives"):
        result = fastpr.distributed.evaluate(y, s, sample_weight=w, groups=groups)
    assert isinstance(result, fastpr.EvaluationBatch) and result.index_name == "group"
    assert result.index.tolist() == ["a", "b", "c"] and result.n_thresholds.tolist() == [2, 0, 2]
    assert result.auc_roc[0] == 1.0 and np.isnan(result.auc_pr[1]) and result.auc_roc[2] == 0.0


def test_normalised_area_without_precision_warns_like_evaluate():
    """Positives outweighing negatives 3e10 to 1: the worst ranking's area is within 2**-26 of 1."""
    y, s, w = np.array([1, 1, 1, 0]), np.array([0.9, 0.8, 0.7, 0.6]), np.array([1, 1, 1, 1e-10])
    expected, expected_warnings = warning_messages(lambda: fastpr.evaluate(y, s, sample_weight=w))
    assert len(expected_warnings) == 1 and "normalised AUC-PR is undefined" in expected_warnings[0]
    with dask.config.set(scheduler="synchronous"):
        got, got_warnings = warning_messages(lambda: fastpr.distributed.evaluate(
            chunked(y, 2), chunked(s, 2), sample_weight=chunked(w, 2)))
    assert_evaluations_close(got, expected)
    assert got_warnings == expected_warnings


Y = da.from_array(np.array([0, 1, 1, 0]), chunks=2)
S = da.from_array(np.array([0.1, 0.9, 0.4, 0.3]), chunks=2)


@pytest.mark.parametrize(
    "args, kwargs, error, match",
    [
        ((Y, np.array([0.1, 0.9, 0.4, 0.3])), {}, TypeError,
         r"y_score must be a dask array or a dask Series, got ndarray"),
        (([0, 1, 1, 0], S), {}, TypeError, r"y_true must be a dask array or a dask Series, got list"),
        ((Y, da.ones((4, 1), chunks=2)), {}, ValueError,
         r"y_score must be 1-D, got a dask array of shape \(4, 1\)"),
        # Unequal lengths are unequal lengths, in as many partitions or not, known or not.
        ((Y.rechunk(1)[:3], S), {}, ValueError,
         r"^y_true and y_score have different lengths: 3 and 4\.$"),
        ((Y.rechunk(1)[:3][Y.rechunk(1)[:3] >= 0], S), {}, ValueError,
         r"^y_true and y_score have different lengths: 3 and 4\.$"),
        ((Y, S), {"sample_weight": da.ones(5, chunks=1)}, ValueError,
         r"^y_score and sample_weight have different lengths: 4 and 5\.$"),
        # Equal lengths (unknown to dask) partitioned differently.
        ((Y.rechunk(1)[Y.rechunk(1) >= 0], S), {}, ValueError,
         r"^y_score and y_true both have 4 rows but are partitioned differently, in 2 and 4 "
         r"partitions; give them the same partitions\.$"),
        ((Y, S), {"n_ranges": 0}, ValueError, r"n_ranges must be >= 1, got 0"),
        ((Y, S), {"n_ranges": 2.5}, TypeError, r"n_ranges must be an integer, got 2.5"),
        ((Y, S), {"sample_weight": da.zeros(4, chunks=2)}, ValueError,
         r"the data is empty: no row has nonzero weight"),
        ((Y, S), {"sample_weight": da.zeros(4, chunks=2), "groups": Y}, ValueError,
         r"the data is empty: no row has nonzero weight"),
        # Each partition alone is valid ({0, 1} and {-1, 1}); together they have 3 labels.
        ((da.from_array(np.array([0, 1, -1, 1]), chunks=2), S), {}, ValueError,
         r"y_true must have two classes, got 3 distinct labels"),
        ((da.from_array(np.array([0, 1, -1, 1]), chunks=2), S), {"groups": Y}, ValueError,
         r"y_true must have two classes, got 3 distinct labels"),
        # Each partition's weights add up to a finite total, theirs together do not.
        ((Y, S), {"sample_weight": da.from_array(np.array([1e308, 1, 1e308, 1]), chunks=2)},
         ValueError, r"sample_weight must add up to a finite total"),
        ((Y, S), {"sample_weight": da.from_array(np.array([1e308, 1, 1e308, 1]), chunks=2),
                  "groups": da.zeros(4, chunks=2)},
         ValueError, r"sample_weight must add up to a finite total"),
    ],
)
def test_errors_name_the_argument(args, kwargs, error, match):
    with dask.config.set(scheduler="synchronous"), pytest.raises(error, match=match):
        fastpr.distributed.evaluate(*args, **kwargs)


def test_without_dask_the_import_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "dask", None)
    monkeypatch.delitem(sys.modules, "fastpr.distributed")
    with pytest.raises(ImportError, match=r'needs Dask: pip install "fastpr\[dask\]"'):
        importlib.import_module("fastpr.distributed")
