"""Arrays as users hold them: big-endian byte order, NumPy masked arrays and labels in floating
types that numba does not compile (float16, long double), at every entry point.

Big-endian input gives exactly the results of the same values in native order, and so do labels
held as float16 or long double. A masked array with masked entries is refused with a message
naming the argument and the count; one without is read as its data.
"""
import warnings

import numpy as np
import pytest

import fastpr
from fastpr import learn, multiclass

rng = np.random.default_rng(0)
N = 300
Y = (rng.random(N) < 0.3).astype(np.int64)
S = np.round(rng.random(N) + 0.2 * Y, 2)
W = rng.random(N) + 0.1
GROUPS = rng.integers(0, 5, N)
OFFSETS = np.array([0, 100, 250, N])
ROWS = rng.random((3, N))
CLASSES = rng.integers(0, 4, N)
PROBA = rng.random((N, 4))

# Every entry point, with its array arguments by name: call(**arrays).
CALLS = {
    "evaluate": (lambda y_true, y_score, sample_weight: fastpr.evaluate(
        y_true, y_score, sample_weight=sample_weight), dict(y_true=Y, y_score=S, sample_weight=W)),
    "evaluate groups": (lambda y_true, y_score, sample_weight, groups: fastpr.evaluate(
        y_true, y_score, sample_weight=sample_weight, groups=groups),
        dict(y_true=Y, y_score=S, sample_weight=W, groups=GROUPS)),
    "evaluate offsets": (lambda y_true, y_score, offsets: fastpr.evaluate(
        y_true, y_score, offsets=offsets), dict(y_true=Y, y_score=S, offsets=OFFSETS)),
    "evaluate 2-D": (lambda y_true, y_score, sample_weight: fastpr.evaluate(
        y_true, y_score, sample_weight=sample_weight),
        dict(y_true=Y, y_score=ROWS, sample_weight=W)),
    "auc_pr": (lambda y_true, y_score, sample_weight: fastpr.auc_pr(
        y_true, y_score, sample_weight=sample_weight, method="lower_trapezoid"),
        dict(y_true=Y, y_score=S, sample_weight=W)),
    "auc_roc groups": (lambda y_true, y_score, groups: fastpr.auc_roc(
        y_true, y_score, groups=groups, average="macro"),
        dict(y_true=Y, y_score=S, groups=GROUPS)),
    "roc_points": (lambda y_true, y_score, sample_weight: fastpr.roc_points(
        y_true, y_score, sample_weight=sample_weight), dict(y_true=Y, y_score=S, sample_weight=W)),
    "pr_curve 2-D": (lambda y_true, y_score: fastpr.pr_curve(y_true, y_score),
                     dict(y_true=Y, y_score=ROWS)),
    "roc_convex_hull": (lambda y_true, y_score: fastpr.roc_convex_hull(y_true, y_score),
                        dict(y_true=Y, y_score=S)),
    "achievable_pr_curve": (lambda y_true, y_score: fastpr.achievable_pr_curve(y_true, y_score),
                            dict(y_true=Y, y_score=S)),
    "bootstrap": (lambda y_true, y_score, sample_weight: fastpr.bootstrap(
        y_true, y_score, sample_weight=sample_weight, n_boot=20, seed=1).replicates,
        dict(y_true=Y, y_score=S, sample_weight=W)),
    "compare": (lambda y_true, y_scores: fastpr.compare(
        y_true, y_scores, n_boot=20, seed=1).replicates, dict(y_true=Y, y_scores=ROWS[:2])),
    "delong": (lambda y_true, y_score: fastpr.delong(y_true, y_score), dict(y_true=Y, y_score=S)),
    "multiclass labels": (lambda y_true, y_score, sample_weight, labels: multiclass.evaluate(
        y_true, y_score, sample_weight=sample_weight, labels=labels),
        dict(y_true=CLASSES, y_score=PROBA, sample_weight=W, labels=np.arange(4))),
    "multiclass indicator": (lambda y_true, y_score: multiclass.auc_pr(y_true, y_score),
                             dict(y_true=np.eye(4, dtype=np.int64)[CLASSES], y_score=PROBA)),
    "evaluate_at_thresholds": (lambda y_true, y_score, thresholds: fastpr.evaluate_at_thresholds(
        y_true, y_score, thresholds), dict(y_true=Y, y_score=S, thresholds=np.array([0.3, 0.7]))),
    "roc_to_pr": (lambda fpr, tpr: fastpr.roc_to_pr(fpr, tpr, n_pos=10, n_neg=20),
                  dict(fpr=np.array([0.0, 0.5, 1.0]), tpr=np.array([0.0, 0.7, 1.0]))),
    "Accumulator": (lambda scores, pos_weight, neg_weight: fastpr.Accumulator.from_arrays(
        scores, pos_weight, neg_weight).evaluate(),
        dict(scores=S, pos_weight=W * Y, neg_weight=W * (1 - Y))),
}


def _quietly(call, arrays):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", fastpr.UndefinedMetricWarning)
        return call(**arrays)


def _plain(result):
    """Nested plain values of a result (dataclasses, lists and dicts opened up)."""
    if hasattr(result, "to_dict"):
        return _plain(result.to_dict())
    if hasattr(result, "__dataclass_fields__"):
        return {name: _plain(getattr(result, name)) for name in result.__dataclass_fields__}
    if isinstance(result, dict):
        return {key: _plain(value) for key, value in result.items()}
    if isinstance(result, (list, tuple)):
        return [_plain(value) for value in result]
    return np.asarray(result)


def _assert_identical(a, b):
    if isinstance(a, dict):
        assert a.keys() == b.keys()
        for key in a:
            _assert_identical(a[key], b[key])
    elif isinstance(a, list):
        assert len(a) == len(b)
        for x, z in zip(a, b):
            _assert_identical(x, z)
    else:
        assert a.dtype == b.dtype
        np.testing.assert_array_equal(a, b)


def _big_endian(values):
    return values.astype(values.dtype.newbyteorder(">"))


@pytest.mark.parametrize("name", list(CALLS))
def test_big_endian_arrays_give_the_results_of_native_ones(name):
    call, arrays = CALLS[name]
    assert all(not _big_endian(values).dtype.isnative for values in arrays.values())
    expected = _plain(_quietly(call, arrays))
    big = {key: _big_endian(values) for key, values in arrays.items()}
    _assert_identical(_plain(_quietly(call, big)), expected)


@pytest.mark.parametrize("name", list(CALLS))
def test_masked_entries_are_refused_naming_the_argument_and_an_unmasked_array_is_its_data(name):
    call, arrays = CALLS[name]
    expected = _plain(_quietly(call, arrays))
    for key, values in arrays.items():
        unmasked = np.ma.masked_array(values, mask=np.zeros(values.shape, dtype=bool))
        _assert_identical(_plain(_quietly(call, {**arrays, key: unmasked})), expected)
        mask = np.zeros(values.shape, dtype=bool)
        mask.flat[[0, -1]] = True
        with pytest.raises(ValueError, match=rf"^{key} has 2 masked entries, .*: drop them .* "
                                             r"or fill them"):
            _quietly(call, {**arrays, key: np.ma.masked_array(values, mask=mask)})


@pytest.mark.parametrize("dtype", [np.float16, np.longdouble, np.dtype(">f2")])
@pytest.mark.parametrize("name", [name for name in CALLS if "y_true" in CALLS[name][1]])
def test_labels_in_float16_or_long_double_give_the_results_of_integer_ones(name, dtype):
    call, arrays = CALLS[name]
    expected = _plain(_quietly(call, arrays))
    labels = {**arrays, "y_true": arrays["y_true"].astype(dtype)}
    _assert_identical(_plain(_quietly(call, labels)), expected)


def test_learners_take_labels_in_float16_or_long_double():
    for dtype in (np.float16, np.longdouble):
        np.testing.assert_array_equal(learn.lambda_sums(Y.astype(dtype), S),
                                      learn.lambda_sums(Y, S))


def test_a_masked_label_no_longer_counts():
    """The audit's case: the masked row would be the one inversion."""
    y = np.ma.masked_array([0, 1, 1, 0], mask=[False, False, False, True])
    with pytest.raises(ValueError, match="y_true has 1 masked entry"):
        fastpr.auc_roc(y, [0.1, 0.8, 0.9, 0.95])
    assert fastpr.auc_roc(y.compressed(), [0.1, 0.8, 0.9]) == 1.0
