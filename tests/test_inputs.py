"""Inputs at the edges: extreme group ids, offsets of every dtype, objects, missing values,
generators, Dask partitions, a pos_label of the wrong kind. Each is either read as its cleaned-up
equivalent or refused with an error naming the argument and the problem."""
import re
import warnings

import dask
import dask.array as da
import dask.dataframe as dd
import numpy as np
import pandas as pd
import pytest

import fastpr
import fastpr.distributed
from evaluations import assert_evaluations_close

RNG = np.random.default_rng(0)
Y = RNG.random(40) < 0.4
S = RNG.random(40).round(1)
I64 = np.iinfo(np.int64)


def per_group(ids):
    """The oracle: fastpr.evaluate on each group's rows alone, in sorted id order."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", fastpr.UndefinedMetricWarning)
        return [fastpr.evaluate(Y[ids == key], S[ids == key]) for key in np.unique(ids)]


def assert_batch_is(batch, expected):
    assert len(batch) == len(expected)
    for k, evaluation in enumerate(expected):
        assert batch[k] == evaluation


def evaluate_quietly(*args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", fastpr.UndefinedMetricWarning)
        return fastpr.evaluate(*args, **kwargs)


@pytest.mark.parametrize(
    "dtype, pair",
    [
        (np.int64, (I64.max, I64.max - 1)),
        (np.int64, (I64.max, I64.max - 2)),  # a gap: ids renumbered
        (np.int64, (I64.min, I64.min + 1)),
        (np.int64, (I64.min, I64.max)),
        (np.uint64, (2**64 - 1, 2**64 - 2)),
        (np.uint64, (0, 2**64 - 1)),
        (np.int8, (-128, 127)),
    ],
)
def test_group_ids_at_the_ends_of_their_integer_type(dtype, pair):
    ids = np.array(pair, dtype=dtype)[np.arange(Y.size) % 2]
    batch = evaluate_quietly(Y, S, groups=ids)
    assert batch.index.dtype == ids.dtype and batch.index.tolist() == sorted(pair)
    assert_batch_is(batch, per_group(ids))


@pytest.mark.parametrize("dtype", np.typecodes["AllInteger"])
def test_offsets_of_every_integer_dtype(dtype):
    good = np.array([0, 10, 25, 40], dtype=dtype)
    batch = evaluate_quietly(Y, S, offsets=good)
    assert_batch_is(batch, per_group(np.repeat([0, 1, 2], np.diff(good.astype(int)))))
    with pytest.raises(ValueError, match=r"offsets must be non-decreasing; got offsets\[1\] = 30 "
                                         r"> offsets\[2\] = 10"):
        fastpr.evaluate(Y, S, offsets=np.array([0, 30, 10, 40], dtype=dtype))


@pytest.mark.parametrize("offsets", [np.array([0.0, 10.0, 40.0]), np.array([False, True]),
                                     np.array([0, 10, 40], dtype=object)])
def test_offsets_that_are_not_integers(offsets):
    with pytest.raises(TypeError, match=rf"offsets must be integers, got .*{offsets.dtype}"):
        fastpr.evaluate(Y, S, offsets=offsets)


KEYS = np.arange(Y.size) % 3


@pytest.mark.parametrize("groups", [
    KEYS.astype(object),
    pd.Series(KEYS, dtype=object),
    KEYS.astype(np.uint8).astype(object),
    KEYS.astype(float).astype(object),
])
def test_group_ids_held_as_objects_are_numbers(groups):
    batch = evaluate_quietly(Y, S, groups=groups)
    assert batch.index.tolist() == [0, 1, 2]
    assert_batch_is(batch, per_group(KEYS))


def test_group_ids_held_as_objects_may_be_strings():
    names = np.array(["a", "b", "c"])[KEYS]
    assert_batch_is(evaluate_quietly(Y, S, groups=names.astype(object)), per_group(KEYS))


def with_one(values, position, value):
    values = np.array(values, dtype=object)
    values[position] = value
    return values


@pytest.mark.parametrize(
    "groups, error, match",
    [
        (with_one(KEYS, 5, "a"), TypeError,
         r"groups mixes numbers and strings \(0 and 'a'\); its values must all be of one kind"),
        ([0, "a"] * 20, TypeError, r"groups mixes numbers and strings \(0 and 'a'\)"),
        (with_one(KEYS, 5, None), TypeError,
         r"groups must hold numbers or strings, got None at index 5"),
        (with_one(KEYS.astype(str), 7, np.nan), ValueError, r"groups contains NaN at index 7"),
        (with_one(KEYS, 7, np.nan), ValueError, r"groups contains NaN at index 7"),
    ],
)
def test_group_ids_of_mixed_kinds_or_missing_are_refused(groups, error, match):
    with pytest.raises(error, match=match):
        fastpr.evaluate(Y, S, groups=groups)


@pytest.mark.parametrize("labels, clean", [
    (np.array([0, 1, 1, 0], dtype=object), [0, 1, 1, 0]),
    (pd.Series([0, 1, 1, 0], dtype=object), [0, 1, 1, 0]),
    (pd.array([False, True, True, False], dtype="boolean"), [False, True, True, False]),
    (pd.array([0, 1, 1, 0], dtype="Int64"), [0, 1, 1, 0]),
    (np.array([0.0, 1.0, 1.0, 0.0], dtype=object), [0.0, 1.0, 1.0, 0.0]),
])
def test_labels_held_as_objects_are_read_as_numbers(labels, clean):
    scores = S[:4]
    assert fastpr.evaluate(labels, scores) == fastpr.evaluate(clean, scores)
    assert fastpr.auc_pr(labels, scores, pos_label=0) == fastpr.auc_pr(clean, scores, pos_label=0)


@pytest.mark.parametrize(
    "labels, kwargs, error, match",
    [
        ([1, None, 0], {}, TypeError, r"y_true must hold numbers or strings, got None at index 1"),
        (["a", 1, "a"], {"pos_label": 1}, TypeError,
         r"y_true mixes strings and numbers \('a' and 1\)"),
        (np.array(["a", 1, "a"], dtype=object), {"pos_label": "a"}, TypeError,
         r"y_true mixes strings and numbers"),
        (pd.array([True, pd.NA, False], dtype="boolean"), {}, TypeError,
         r"y_true must hold numbers or strings, got <NA> at index 1"),
        (pd.array([1, pd.NA, 0], dtype="Int64"), {}, ValueError, r"y_true contains NaN at index 1"),
        (pd.Series(["a", None, "b"], dtype=object), {"pos_label": "a"}, TypeError,
         r"y_true must hold numbers or strings, got None at index 1"),
        (pd.Series(["a", np.nan, "b"]), {"pos_label": "a"}, ValueError,
         r"y_true contains NaN at index 1"),
    ],
)
def test_missing_or_mixed_labels_are_refused(labels, kwargs, error, match):
    with pytest.raises(error, match=match):
        fastpr.evaluate(labels, S[:3], **kwargs)


@pytest.mark.parametrize("kwargs", [{}, {"labels": [0, 1]}])
def test_a_nan_class_label_is_refused(kwargs):
    with pytest.raises(ValueError, match=r"y_true contains NaN at index 2"):
        fastpr.multiclass.evaluate([0, 1, np.nan], [[0.5, 0.5], [0.2, 0.8], [0.3, 0.7]], **kwargs)


@pytest.mark.parametrize("call, name", [
    (lambda: fastpr.evaluate(Y, (x for x in S)), "y_score"),
    (lambda: fastpr.evaluate((x for x in Y), S), "y_true"),
    (lambda: fastpr.auc_pr(Y, iter(S)), "y_score"),
    (lambda: fastpr.roc_points(Y, (x for x in S)), "y_score"),
    (lambda: fastpr.evaluate((x for x in Y), np.tile(S, (2, 1))), "y_true"),
    (lambda: fastpr.multiclass.evaluate(Y, (x for x in np.c_[S, 1 - S])), "y_score"),
    (lambda: fastpr.evaluate(Y, S, groups=(x for x in KEYS)), "groups"),
])
def test_a_generator_is_not_an_array(call, name):
    with pytest.raises(TypeError, match=rf"{name} must be an array or a sequence, got "
                                        r"(generator|[a-z_]*iterator); pass a list or an array"):
        call()


# Every entry point that takes pos_label, with labels of one class only: a pos_label of the
# other kind (a string for numbers) cannot be a label, where one of the same kind only means
# that this data holds no positives.
ENTRY_POINTS = {
    "evaluate": lambda y, s, p: fastpr.evaluate(y, s, pos_label=p),
    "evaluate_2d": lambda y, s, p: fastpr.evaluate(y, np.tile(s, (2, 1)), pos_label=p),
    "evaluate_groups": lambda y, s, p: fastpr.evaluate(y, s, pos_label=p, groups=KEYS),
    "auc_pr": lambda y, s, p: fastpr.auc_pr(y, s, pos_label=p),
    "auc_roc": lambda y, s, p: fastpr.auc_roc(y, s, pos_label=p),
    "roc_points": lambda y, s, p: fastpr.roc_points(y, s, pos_label=p),
    "pr_curve": lambda y, s, p: fastpr.pr_curve(y, s, pos_label=p),
    "roc_convex_hull": lambda y, s, p: fastpr.roc_convex_hull(y, s, pos_label=p),
    "achievable_pr_curve": lambda y, s, p: fastpr.achievable_pr_curve(y, s, pos_label=p),
    "interpolated_pr_curve": lambda y, s, p: fastpr.interpolated_pr_curve(y, s, pos_label=p),
    "f_beta_curve": lambda y, s, p: fastpr.f_beta_curve(y, s, pos_label=p),
    "max_f_beta": lambda y, s, p: fastpr.max_f_beta(y, s, pos_label=p),
    "prg_curve": lambda y, s, p: fastpr.prg_curve(y, s, pos_label=p),
    "auc_prg": lambda y, s, p: fastpr.auc_prg(y, s, pos_label=p),
    "auc_npr": lambda y, s, p: fastpr.auc_npr(y, s, pos_label=p),
    "at_prevalence": lambda y, s, p: fastpr.at_prevalence(y, s, 0.1, pos_label=p),
    "hull_thresholds": lambda y, s, p: fastpr.hull_thresholds(y, s, pos_label=p),
    "evaluate_at_thresholds": lambda y, s, p: fastpr.evaluate_at_thresholds(y, s, [0.5],
                                                                             pos_label=p),
    "bootstrap": lambda y, s, p: fastpr.bootstrap(y, s, pos_label=p, n_boot=5, seed=0),
    "delong": lambda y, s, p: fastpr.delong(y, s, pos_label=p),
    "compare": lambda y, s, p: fastpr.compare(y, [s, 1 - s], pos_label=p, n_boot=5, seed=0),
    "confidence_interval": lambda y, s, p: fastpr.confidence_interval(y, s, pos_label=p),
    "Accumulator.update": lambda y, s, p: fastpr.Accumulator().update(y, s, pos_label=p),
    "distributed.evaluate": lambda y, s, p: fastpr.distributed.evaluate(
        da.from_array(y, chunks=10), da.from_array(s, chunks=10), pos_label=p),
}


@pytest.mark.parametrize("labels, pos_label", [(np.zeros(40, dtype=int), "1"),
                                               (np.full(40, "no"), 1),
                                               (np.zeros(40, dtype=bool), "True")])
@pytest.mark.parametrize("call", ENTRY_POINTS.values(), ids=ENTRY_POINTS.keys())
def test_pos_label_of_another_kind_is_no_label(call, labels, pos_label):
    expected = (rf"pos_label={re.escape(repr(pos_label))} is not a label of y_true, whose labels "
                rf"are \[{re.escape(repr(labels[0].item()))}\]")
    with dask.config.set(scheduler="synchronous"), pytest.raises(ValueError, match=expected):
        call(labels, S, pos_label)


def test_pos_label_of_the_labels_kind_means_no_positives():
    with pytest.warns(fastpr.UndefinedMetricWarning, match="no positives"):
        e = fastpr.evaluate(np.full(40, "no"), S, pos_label="yes")
    assert_evaluations_close(e, evaluate_quietly(np.zeros(40, dtype=bool), S))


@pytest.mark.parametrize("pos_label", [(0, 1), [1], {"a": 1}, np.array([1])])
def test_pos_label_must_be_one_value(pos_label):
    with pytest.raises(TypeError, match=r"pos_label must be a number or a string, got "):
        fastpr.evaluate(Y, S, pos_label=pos_label)


# ----------------------------------------------------------------------------- Dask
N = 100
YD = np.arange(N) % 3 == 0
SD = np.linspace(0, 1, N)


def single_machine_error(*args, **kwargs):
    """The message of fastpr.evaluate on the gathered data, up to its count in parentheses."""
    with pytest.raises((TypeError, ValueError)) as error:
        evaluate_quietly(*args, **kwargs)
    return error.type, re.escape(str(error.value).split(" (")[0])


def dask_inputs(*arrays, chunks=25):
    return [None if a is None else da.from_array(a, chunks=chunks) for a in arrays]


def spoiled(values, position, value):
    values = values.astype(float)
    values[position] = value
    return values


@pytest.mark.parametrize("y, s, w, groups", [
    (YD, spoiled(SD, 57, np.nan), None, None),
    (YD, spoiled(SD, 57, np.nan), None, np.arange(N) % 4),
    (spoiled(YD, 81, np.nan), SD, None, None),
    (YD, SD, spoiled(np.ones(N), 80, -1.0), None),
    (YD, SD, spoiled(np.ones(N), 80, np.inf), np.arange(N) % 4),
    (YD, SD, None, spoiled(np.arange(N) % 4, 66, np.nan)),
    (with_one(YD, 70, None), SD, None, None),
    (YD, SD, None, with_one(np.arange(N) % 4, 90, "a")),
])
def test_dask_errors_give_positions_in_the_whole_data(y, s, w, groups):
    error, match = single_machine_error(y, s, sample_weight=w, groups=groups)
    y_d, s_d, w_d, g_d = dask_inputs(y, s, w, groups)
    with dask.config.set(scheduler="synchronous"), pytest.raises(error, match=match):
        fastpr.distributed.evaluate(y_d, s_d, sample_weight=w_d, groups=g_d)


@pytest.mark.parametrize("chunks_y", [(25, 25, 25, 24), (25, 25, 25, 23)])
def test_dask_different_lengths_are_those_of_the_whole_data(chunks_y):
    y = YD[:sum(chunks_y)]
    error, match = single_machine_error(y, SD)
    with dask.config.set(scheduler="synchronous"), pytest.raises(error, match=match):
        fastpr.distributed.evaluate(da.from_array(y, chunks=chunks_y), da.from_array(SD, chunks=25))


def test_dask_series_partitioned_differently():
    y = dd.from_pandas(pd.Series(YD), npartitions=4)
    s = dd.from_pandas(pd.Series(SD), npartitions=4).repartition(divisions=[0, 10, 50, 70, 99])
    with dask.config.set(scheduler="synchronous"), pytest.raises(
            ValueError, match=r"y_true and y_score both have 100 rows but are partitioned "
                              r"differently: partition 0 holds 25 and 10 rows"):
        fastpr.distributed.evaluate(y, s)
