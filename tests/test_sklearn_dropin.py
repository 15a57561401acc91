"""fastpr.sklearn against scikit-learn itself, the oracle here: the same numbers (curves array
for array), return types, warnings and exception types; patching scikit-learn and back; scorers.
"""
import inspect
import math
import subprocess
import sys
import threading
import warnings

import numpy as np
import pytest
import scipy.sparse
import sklearn
import sklearn.metrics
from hypothesis import given
from hypothesis import strategies as st
from sklearn.linear_model import LogisticRegression
from sklearn.metrics._scorer import _SCORERS
from sklearn.model_selection import GridSearchCV, cross_validate
from sklearn.naive_bayes import GaussianNB
from strategies import SETTINGS, unweighted_rankings

import fastpr
import fastpr.sklearn as fs
from fastpr._engine import ranking
from fastpr._engine.kernels import intermediate
from fastpr._engine.kernels.lean_sweep import unit_points_into
from fastpr._validation import distinct

CURVES = ("roc_curve", "precision_recall_curve", "det_curve")
SCORES = ("average_precision_score", "roc_auc_score", "label_ranking_average_precision_score")
# scikit-learn's functions, held in a dict: patch() swaps module attributes, never dict values.
SK = {name: getattr(sklearn.metrics, name) for name in CURVES + SCORES}
AVERAGES = (None, "micro", "macro", "weighted", "samples")


def _run(function, *args, **kwargs):
    """(result or exception, warning classes raised)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = function(*args, **kwargs)
        except Exception as error:  # noqa: BLE001 - the type is what is compared
            result = error
    return result, [w.category for w in caught]


def _builtin_bases(error):
    return {c for c in type(error).__mro__ if c.__module__ == "builtins"} - {
        Exception, BaseException, object}


def assert_same(expected, actual):
    """Equal to 1e-12 (NaN where NaN), same shapes, dtypes and Python types; or exceptions of
    the same class (scikit-learn's own) or the same built-in bases."""
    if isinstance(expected, Exception):
        assert isinstance(actual, Exception), f"expected {expected!r}, got {actual!r}"
        assert _builtin_bases(actual) == _builtin_bases(expected), (expected, actual)
        if type(expected).__module__.startswith("sklearn"):
            assert type(actual) is type(expected)
        return
    assert not isinstance(actual, Exception), f"expected {expected!r}, raised {actual!r}"
    if isinstance(expected, tuple):
        assert isinstance(actual, tuple) and len(actual) == len(expected)
        for e, a in zip(expected, actual):
            assert_same(e, a)
        return
    if isinstance(expected, np.ndarray):
        assert isinstance(actual, np.ndarray)
        assert actual.shape == expected.shape and actual.dtype == expected.dtype
        np.testing.assert_allclose(actual, expected, rtol=1e-12, atol=1e-15)
        zero = expected == 0  # 0.0 and -0.0 are equal, and a threshold of either is given
        np.testing.assert_array_equal(np.signbit(actual[zero]), np.signbit(expected[zero]))
        return
    assert isinstance(actual, type(expected)) or isinstance(expected, float) and isinstance(
        actual, float), (type(expected), type(actual))
    if math.isnan(expected):
        assert math.isnan(actual)
    else:
        assert actual == pytest.approx(expected, rel=1e-12, abs=1e-15)


def assert_parity(name, *args, **kwargs):
    expected, expected_warnings = _run(SK[name], *args, **kwargs)
    actual, actual_warnings = _run(getattr(fs, name), *args, **kwargs)
    assert_same(expected, actual)
    incidental = {RuntimeWarning}  # NumPy's, from 0 / 0 where both return NaN
    assert set(actual_warnings) - incidental == set(expected_warnings) - incidental, (
        expected_warnings, actual_warnings)


# Weights whose sums are exact in any order (so that points that scikit-learn finds collinear are
# collinear for fastpr too), and general ones for the areas.
EXACT_WEIGHTS = st.sampled_from([0.0, 0.5, 1.0, 1.25, 2.0, 3.0])
ANY_WEIGHTS = st.one_of(st.just(0.0), st.floats(0.01, 4.0))


@st.composite
def binary_cases(draw, weights=EXACT_WEIGHTS, min_n=1):
    """(y_true, y_score, sample_weight or None): heavy ties, labels of several kinds."""
    n = draw(st.integers(min_n, 30))
    y = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    decimals = draw(st.integers(0, 2))
    noise = np.array(draw(st.lists(st.floats(-2, 2), min_size=n, max_size=n)))
    scores = np.round(noise + y, decimals)
    weighted = draw(st.booleans())
    w = np.array(draw(st.lists(weights, min_size=n, max_size=n))) if weighted else None
    return y, scores, w


LABELLINGS = {  # bool labels -> (y_true, pos_label to pass, or "default")
    "bool": lambda y: (y, "default"),
    "01": lambda y: (y.astype(int), "default"),
    "-1/1": lambda y: (np.where(y, 1, -1), "default"),
    "floats": lambda y: (y.astype(float), 1.0),
    "strings": lambda y: (np.where(y, "spam", "ham"), "spam"),
    "3 classes": lambda y: (np.where(y, 2, np.arange(y.size) % 2), 2),
}


@SETTINGS
@given(case=binary_cases(), labelling=st.sampled_from(sorted(LABELLINGS)),
       drop=st.booleans(), curve=st.sampled_from(CURVES))
def test_curves_match(case, labelling, drop, curve):
    y, scores, w = case
    y_true, pos_label = LABELLINGS[labelling](y)
    options = {} if pos_label == "default" else {"pos_label": pos_label}
    assert_parity(curve, y_true, scores, sample_weight=w, drop_intermediate=drop, **options)


@SETTINGS
@given(unweighted_rankings())
def test_unit_points_equal_the_sweeps_to_the_bit(case):
    # The curves' lean walk against the engine's sweep, zeros' signs and infinities included.
    y, s, _ = case
    pos, neg = np.sort(s[y]), np.sort(s[~y])
    no_weights = np.empty(0)
    want = ranking.sweep_ranking(ranking.SortedRanking(pos, no_weights, neg, no_weights),
                                 with_points=True).points
    got = np.full((3, s.size + 1), -1.0)
    count = unit_points_into(pos, neg, *got, 0, intermediate.KEEP_ALL)
    assert got[:, :count].tobytes() == want.tobytes()


def _kept_by_scikit_learn(tp, fp, rule):
    """The columns that scikit-learn's drop_intermediate keeps, in its own NumPy terms."""
    if rule == intermediate.COLLINEAR:
        inner = np.logical_or(np.diff(fp, 2), np.diff(tp, 2))
    else:
        inner = np.logical_or(np.diff(tp[:-1]), np.diff(tp[1:]))
    return np.flatnonzero(np.r_[True, inner, True])


@SETTINGS
@given(st.lists(st.tuples(st.sampled_from([0.0, 0.0, 1.0, 2.0, 0.25, 1e-300, 1e300]),
                          st.sampled_from([0.0, 0.0, 1.0, 2.0, 0.25, 1e-300, 1e300])),
                max_size=12),
       st.integers(0, 2), st.sampled_from([intermediate.COLLINEAR, intermediate.RECALL_ENDS]))
def test_drop_intermediate_keeps_what_scikit_learn_keeps(steps, first, rule):
    # Counts that rise by (tp, fp) steps, weighted ones and equal steps included; columns
    # before ``first`` take no part and stay.
    tp, fp = np.cumsum(np.array(steps, dtype=np.float64).reshape(-1, 2), axis=0).T
    points = np.array([np.arange(tp.size, 0, -1.0), tp, fp])
    first = min(first, tp.size)
    want = points.copy()
    if tp.size - first > 2:
        kept = first + _kept_by_scikit_learn(tp[first:], fp[first:], rule)
        want = points[:, np.r_[np.arange(first), kept]]
    count = intermediate.drop_intermediate(*points, first, rule)
    np.testing.assert_array_equal(points[:, :count], want)


@SETTINGS
@given(case=binary_cases(ANY_WEIGHTS), labelling=st.sampled_from(sorted(LABELLINGS)),
       max_fpr=st.sampled_from([None, 0.1, 0.25, 0.5, 0.8, 1.0]))
def test_binary_scores_match(case, labelling, max_fpr):
    y, scores, w = case
    y_true, pos_label = LABELLINGS[labelling](y)
    if labelling != "3 classes":
        assert_parity("roc_auc_score", y_true, scores, sample_weight=w, max_fpr=max_fpr)
    options = {} if pos_label == "default" else {"pos_label": pos_label}
    assert_parity("average_precision_score", y_true, scores, sample_weight=w, **options)


@st.composite
def label_matrices(draw):
    """(indicator y_true (n, k), scores (n, k), weights or None), ties and empty labels."""
    n, k = draw(st.integers(1, 12)), draw(st.integers(1, 4))
    cells = st.lists(st.integers(0, 1), min_size=n * k, max_size=n * k)
    y = np.array(draw(cells)).reshape(n, k)
    scores = np.array(draw(st.lists(st.integers(-2, 3), min_size=n * k, max_size=n * k)))
    scores = scores.reshape(n, k) / 2 + y
    w = None
    if draw(st.booleans()):
        w = np.array(draw(st.lists(EXACT_WEIGHTS, min_size=n, max_size=n)))
    return y, scores, w


@SETTINGS
@given(case=label_matrices(), average=st.sampled_from(AVERAGES),
       max_fpr=st.sampled_from([None, 0.3, 1.0]))
def test_multilabel_averages_match(case, average, max_fpr):
    y, scores, w = case
    assert_parity("average_precision_score", y, scores, average=average, sample_weight=w)
    assert_parity("roc_auc_score", y, scores, average=average, sample_weight=w, max_fpr=max_fpr)
    assert_parity("label_ranking_average_precision_score", y, scores, sample_weight=w)


@st.composite
def multiclass_cases(draw):
    """(class labels, probabilities (n, k) rounded so that they tie, weights or None, k)."""
    k = draw(st.integers(3, 5))
    n = draw(st.integers(3, 25))
    codes = np.array(draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n)))
    raw = np.array(draw(st.lists(st.integers(0, 4), min_size=n * k, max_size=n * k)))
    raw = raw.reshape(n, k) + 3 * (codes[:, None] == np.arange(k))
    w = None
    if draw(st.booleans()):
        w = np.array(draw(st.lists(EXACT_WEIGHTS, min_size=n, max_size=n)))
    return codes, raw / raw.sum(axis=1, keepdims=True), w, k


@SETTINGS
@given(case=multiclass_cases(), average=st.sampled_from(AVERAGES),
       multi_class=st.sampled_from(["ovr", "ovo", "raise"]), names=st.booleans(),
       with_labels=st.booleans())
def test_multiclass_matches(case, average, multi_class, names, with_labels):
    codes, proba, w, k = case
    classes = np.array(["ant", "bee", "cat", "dog", "eel"][:k]) if names else np.arange(k)
    y = classes[codes]
    labels = classes if with_labels else None
    assert_parity("roc_auc_score", y, proba, average=average, multi_class=multi_class,
                  labels=labels, sample_weight=w)
    assert_parity("roc_auc_score", y, proba, average=average, multi_class=multi_class,
                  labels=labels)
    assert_parity("average_precision_score", y, proba, average=average, sample_weight=w)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("average", AVERAGES)
def test_long_rankings_of_many_labels_and_classes_match(seed, average):
    """Rankings long enough to go one by one rather than through one table (and, at 10^6
    scores in all, over threads: ``fastpr._engine.batch.each``)."""
    rng = np.random.default_rng(seed)
    n, k = 1500, 4
    y = (rng.random((n, k)) < rng.uniform(0.05, 0.5, k)).astype(int)
    y[:, seed % k] = seed % 2  # a label without positives, or without negatives
    scores = np.round(rng.normal(size=(n, k)) + y, 1)
    w = rng.choice([0.0, 0.5, 1.0, 2.0], n) if seed >= 2 else None
    assert_parity("average_precision_score", y, scores, average=average, sample_weight=w)
    for max_fpr in (None, 0.5):
        assert_parity("roc_auc_score", y, scores, average=average, sample_weight=w,
                      max_fpr=max_fpr)
    codes = rng.integers(0, k, n)
    raw = rng.integers(1, 5, (n, k)) + 3 * (codes[:, None] == np.arange(k))
    proba = raw / raw.sum(axis=1, keepdims=True)
    for multi_class in ("ovr", "ovo"):
        assert_parity("roc_auc_score", codes, proba, average=average, multi_class=multi_class,
                      sample_weight=w)
    assert_parity("average_precision_score", codes, proba, average=average, sample_weight=w)


def test_binary_metrics_in_turn_follow_input_changed_in_place():
    """Average precision and AUC-ROC of the same input share one sort (``_last_ranking``), but
    never after the input changed, even in place."""
    rng = np.random.default_rng(0)
    y = (rng.random(5000) < 0.3).astype(int)
    s = rng.normal(size=5000) + y
    w = rng.choice([0.5, 1.0, 2.0], 5000)
    for change in range(4):
        for weights in (None, w):
            assert_parity("average_precision_score", y, s, sample_weight=weights)
            assert_parity("roc_auc_score", y, s, sample_weight=weights)
        if change == 0:
            s[:2500] = rng.normal(size=2500)
        elif change == 1:
            y[:2500] = 1 - y[:2500]
        else:
            w[:100] = 3.0


INTEGER_TYPES = (np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64)


@st.composite
def integer_labels(draw):
    """Labels of an integer type: a few values near any point of its range (class codes, which
    are counted) or anywhere in it."""
    dtype = draw(st.sampled_from(INTEGER_TYPES))
    info = np.iinfo(dtype)
    low = draw(st.integers(info.min, info.max))
    near = st.integers(low, min(info.max, low + 8))
    values = draw(st.lists(near | st.integers(info.min, info.max), min_size=1, max_size=30))
    return np.array(values, dtype=dtype)


@SETTINGS
@given(labels=integer_labels())
def test_distinct_labels_are_numpys_unique_ones(labels):
    found, expected = distinct(labels), np.unique(labels)
    assert found.dtype == expected.dtype
    np.testing.assert_array_equal(found, expected)


@pytest.mark.parametrize("dtype", [np.float32, np.int64, bool])
def test_score_dtypes_carry_through_as_in_scikit_learn(dtype):
    y = np.array([0, 1, 1, 0, 1, 0, 0, 1])
    scores = np.array([3, 1, 2, 0, 2, 1, 0, 3]).astype(dtype)
    for curve in CURVES:
        assert_parity(curve, y, scores)
    assert_parity("average_precision_score", y, scores)


@pytest.mark.parametrize("dtype", [np.float16, np.longdouble, np.dtype(">f2")])
def test_labels_in_floating_types_that_numba_does_not_compile_match(dtype):
    rng = np.random.default_rng(4)
    y, scores = (rng.random(60) < 0.4).astype(dtype), np.round(rng.random(60), 1)
    for name in CURVES + ("average_precision_score", "roc_auc_score"):
        assert_parity(name, y, scores)
    y_2d, scores_2d = (rng.random((60, 3)) < 0.4).astype(dtype), rng.random((60, 3))
    for name in ("average_precision_score", "roc_auc_score"):  # (scikit-learn's LRAP refuses
        assert_parity(name, y_2d, scores_2d)                    # float16, in scipy.sparse)
    classes = rng.integers(0, 3, 60).astype(dtype)
    assert_parity("roc_auc_score", classes, rng.dirichlet(np.ones(3), 60), multi_class="ovr")


@pytest.mark.parametrize("scale", [1e-200, 1e-250, 1e200, 1e300])
def test_classes_further_apart_than_the_sweeps_areas_match(scale):
    # Class totals more than 2**600 apart: the engine's areas are NaN there (in fastpr's own
    # functions, with a warning), but scikit-learn's rates and precisions still hold.
    assert_parity("roc_auc_score", [0, 1], [0.0, 1.0], sample_weight=[1.0, scale])
    rng = np.random.default_rng(7)
    y, scores = rng.random(50) < 0.4, rng.random(50)
    weights = np.where(y, scale, 1.0) * rng.random(50)
    for name in ("roc_auc_score", "average_precision_score"):
        assert_parity(name, y, scores, sample_weight=weights)
    for n_labels in (3, 12):  # a few long rankings, and many short ones in one table
        y_2d, scores_2d = rng.random((50, n_labels)) < 0.4, rng.random((50, n_labels))
        for name in ("roc_auc_score", "average_precision_score"):
            for average in AVERAGES:
                assert_parity(name, y_2d, scores_2d, sample_weight=np.where(
                    y_2d[:, 0], scale, 1.0), average=average)


@pytest.mark.parametrize("offset, dtype", [(2 ** 62, np.int64), (-2 ** 62, np.int64),
                                           (2 ** 63, np.uint64), (1, np.longdouble)])
def test_scores_that_float64_would_round_keep_their_order_and_values(offset, dtype):
    # Neighbouring integers beyond 2^53 (or long doubles one epsilon apart) are one float64:
    # converted, they would tie where scikit-learn, which sorts them in their own type, ranks
    # them apart. Thresholds come back as the given values.
    rng = np.random.default_rng(5)
    y = rng.random(300) < 0.4
    steps = rng.integers(0, 40, 300).astype(dtype)
    if dtype == np.longdouble:
        steps *= np.finfo(np.longdouble).eps
    scores = dtype(offset) + steps
    assert np.unique(scores.astype(np.float64)).size < np.unique(scores).size
    for name in ("roc_auc_score", "average_precision_score"):
        assert_parity(name, y, scores)
    assert_parity("roc_auc_score", y, scores, max_fpr=0.3)
    for curve in CURVES:
        for expected, actual in zip(SK[curve](y, scores), getattr(fs, curve)(y, scores)):
            assert actual.dtype == expected.dtype
            assert np.array_equal(actual, expected)
    y_2d = rng.random((300, 3)) < 0.4
    scores_2d = dtype(offset) + np.resize(steps, (300, 3))
    for name in ("average_precision_score", "roc_auc_score",
                 "label_ranking_average_precision_score"):
        assert_parity(name, y_2d, scores_2d)


@pytest.mark.skipif(np.finfo(np.longdouble).eps >= np.finfo(np.float64).eps,
                    reason="long double is float64 here")
def test_long_double_probabilities_of_classes_pass_the_probability_check():
    # Ranked (see the test above), they must still add up to 1 in their given values.
    rng = np.random.default_rng(6)
    y = rng.integers(0, 3, 200)
    # Rows (1/2 + k e, 1/4 - k e, 1/4): exact sums of 1, and float64 ties every first column.
    steps = np.finfo(np.longdouble).eps * rng.integers(0, 9, 200).astype(np.longdouble)
    probabilities = np.stack([0.5 + steps, 0.25 - steps, np.full(200, 0.25, np.longdouble)],
                             axis=1)
    assert np.unique(probabilities.astype(np.float64)).size < np.unique(probabilities).size
    for multi_class in ("ovr", "ovo"):
        assert_parity("roc_auc_score", y, probabilities, multi_class=multi_class)


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_probabilities_add_up_in_their_own_type_as_in_scikit_learn(dtype):
    # Rounded to float16, (0.2, 0.3, 0.5) add up to 0.99976 in float64, but to 1 in float16.
    y = [0, 1, 2, 1]
    probabilities = np.array([[0.2, 0.3, 0.5], [0.1, 0.7, 0.2], [0.3, 0.3, 0.4],
                              [0.25, 0.5, 0.25]], dtype)
    for multi_class in ("ovr", "ovo"):
        assert_parity("roc_auc_score", y, probabilities, multi_class=multi_class)


def test_pandas_columns_and_categorical_labels():
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"label": pd.Categorical(["no", "yes", "yes", "no", "no"]),
                          "score": [0.2, 0.9, 0.4, 0.4, 0.1], "weight": [1.0, 2.0, 0.5, 1, 3]})
    assert_parity("roc_auc_score", frame["label"], frame["score"], sample_weight=frame["weight"])
    assert_parity("precision_recall_curve", frame["label"], frame["score"], pos_label="yes")


@pytest.mark.parametrize("dtype", ["Int64", "boolean", "int64[pyarrow]", "Float64"])
def test_frames_of_nullable_or_arrow_columns_are_indicator_matrices(dtype):
    # NumPy reads such a frame as objects (it was refused as an "unknown" target).
    pd = pytest.importorskip("pandas")
    if "pyarrow" in dtype:
        pytest.importorskip("pyarrow")
    rows = [[0, 1], [1, 0], [1, 1], [0, 0], [1, 0], [0, 1]]
    frame, scores = pd.DataFrame(rows, dtype=dtype), np.random.default_rng(8).random((6, 2))
    for name in SCORES:
        assert_parity(name, frame, scores)
    assert fastpr.multiclass.auc_pr(frame, scores) == fastpr.multiclass.auc_pr(
        np.array(rows), scores)


@pytest.mark.parametrize("values", [(0, 3), (-1, 1), (-1, 0)])
def test_indicator_matrices_of_other_values_match(values):
    # scikit-learn weighs labels by the sum of their column ("weighted": {-1, 1} counts the
    # positives less the negatives), and its AUC-ROC refuses values without a positive one.
    rng = np.random.default_rng(9)
    y = np.where(rng.random((30, 3)) < 0.4, values[1], values[0])
    scores = rng.random((30, 3))
    for name in ("roc_auc_score", "average_precision_score"):
        for average in AVERAGES:
            for weights in (None, rng.random(30)):
                assert_parity(name, y, scores, average=average, sample_weight=weights)


def test_signatures_match():
    for name in CURVES + SCORES:
        assert inspect.signature(getattr(fs, name)) == inspect.signature(SK[name]), name


def test_return_types_and_warning_classes():
    y, s = [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]
    assert type(fs.roc_auc_score(y, s)) is float
    assert type(fs.average_precision_score(y, s)) is float
    assert type(fs.label_ranking_average_precision_score([[1, 0], [0, 1]], [[1, 2], [3, 4]])) \
        is float
    # "weighted" with no positives anywhere is the integer 0 in scikit-learn.
    assert_parity("average_precision_score", [[0, 0], [0, 0]], [[1, 2], [3, 4]],
                  average="weighted")
    assert fs.average_precision_score([[0, 0], [0, 0]], [[1, 2], [3, 4]],
                                      average="weighted") == 0
    with pytest.warns(sklearn.exceptions.UndefinedMetricWarning):
        assert math.isnan(fs.roc_auc_score([1, 1, 1], [0.1, 0.2, 0.3]))
    with pytest.warns(UserWarning, match="no positives"):
        assert fs.average_precision_score([0, 0, 0], [0.1, 0.2, 0.3]) == 0.0


BINARY = CURVES + ("average_precision_score", "roc_auc_score")
SPARSE_LABELS = scipy.sparse.csr_matrix(np.array([[0, 1], [1, 0], [1, 1]]))
SCORES_2D = np.array([[0.1, 0.9], [0.8, 0.3], [0.5, 0.6]])
BAD_INPUTS = [
    ("roc_curve", ([0, 1, 0], [0.1, np.nan, 0.3]), {}),
    ("roc_curve", ([0, 1, 0], [0.1, np.inf, 0.3]), {}),
    ("roc_curve", ([0, 1, 0], [0.1, 0.3]), {}),
    ("roc_curve", ([0, 1, 2], [0.1, 0.3, 0.2]), {}),
    ("roc_curve", ([0, 1.5, 0], [0.1, 0.3, 0.2]), {}),
    ("roc_curve", (["a", "b", "a"], [0.1, 0.3, 0.2]), {}),
    ("roc_curve", ([0, 1, 0], [[0.1, 0.2], [0.3, 0.4], [0.5, 0.6]]), {}),
    ("roc_curve", ([0, 1, 0], ["a", "b", "c"]), {}),
    ("roc_curve", ([0, 1, 0], [0.1, 0.3, 0.2]), {"sample_weight": [1, np.nan, 1]}),
    ("roc_curve", ([0, 1, 0], [0.1, 0.3, 0.2]), {"sample_weight": [1, 1]}),
    ("roc_curve", ([0, 1, 0], [0.1, 0.3, 0.2]), {"sample_weight": [0, 0, 0]}),
    ("roc_curve", ([0, 1, 0], [0.1, 0.3, 0.2]), {"drop_intermediate": "yes"}),
    ("roc_curve", ([0, 1, 0], [0.1, 0.3, 0.2]), {"pos_label": [1]}),
    ("roc_curve", ([0, np.nan, 1], [0.1, 0.3, 0.2]), {}),
    ("roc_curve", ("abc", [0.1, 0.3, 0.2]), {}),
    ("precision_recall_curve", ([0, 1, 2], [0.1, 0.3, 0.2]), {}),
    ("precision_recall_curve", ([0, 1, 0], [0.1, 0.3, -np.inf]), {"sample_weight": [1, 1, 0]}),
    ("det_curve", ([0, 0, 0], [0.1, 0.3, 0.2]), {}),
    ("det_curve", ([0, 1, 0], [0.1, 0.3, np.inf]), {}),
    ("average_precision_score", ([0, 0, 0], [0.1, np.nan, 0.3]), {}),
    ("average_precision_score", ([0, 1, 0], [-np.inf, 0.2, 0.3]), {}),
    ("average_precision_score", ([0, 1, 0], [0.1, 0.2, np.nan]), {"sample_weight": [1, 1, 2]}),
    ("average_precision_score", (["a", "b", "a"], [0.1, 0.2, 0.3]), {}),
    ("average_precision_score", ([0, 2, 0], [0.1, 0.2, 0.3]), {}),
    ("average_precision_score", ([0, 1, 0], [0.1, 0.2, 0.3]), {"average": "binary"}),
    ("average_precision_score", ([0, 1, 0], [0.1, 0.2, 0.3]), {"pos_label": None}),
    ("average_precision_score", ([0, 1, 2], np.array([[0.1, 0.9], [0.2, 0.8], [0.3, 0.7]])),
     {}),
    ("average_precision_score", ([0, 1, 2], [[1, 0, 0], [0, 1, 0], [0, 0, 1]]),
     {"pos_label": 2}),
    ("average_precision_score", ([[0, 1], [1, 0]], [[0.1, 0.9], [0.2, 0.8]]), {"pos_label": 0}),
    ("average_precision_score", ([0, 1.5, 0], [0.1, 0.2, 0.3]), {}),
    ("roc_auc_score", ([0, 1, 0], [0.1, 0.3, 0.2]), {"max_fpr": 0}),
    ("roc_auc_score", ([0, 1, 0], [0.1, 0.3, 0.2]), {"max_fpr": 1.5}),
    ("roc_auc_score", ([0, 1, 0], [0.1, 0.3, 0.2]), {"average": "foo"}),
    ("roc_auc_score", ([0, 1, 0], [0.1, 0.3, 0.2]), {"multi_class": "ovx"}),
    ("roc_auc_score", ([], []), {}),
    ("roc_auc_score", ([0, 1, 0], [0.1, np.inf, 0.2]), {}),
    ("roc_auc_score", ([1, 1, 1], [0.1, np.nan, 0.2]), {}),
    ("roc_auc_score", ([0, 1, 0], [0.1, np.nan, 0.2]), {"max_fpr": 0.5}),
    ("roc_auc_score", ([0, 1, 0], [0.1, np.nan, 0.2]), {"sample_weight": [1, 0, 1]}),
    ("roc_auc_score", ([1, 1, 1], [0.1, np.nan, 0.2]), {"sample_weight": [0, 0, 0]}),
    ("roc_auc_score", ([0, 1, 1], [[0.1, 0.2], [np.nan, 0.3], [0.4, 0.5]]), {}),
    ("roc_auc_score", ([0, 1, 0], [[0.1, 0.9], [0.2, 0.8], [0.3, 0.7]]), {}),
    ("roc_auc_score", ([0, 1, 2], [[0.2, 0.3, 0.5]] * 3), {}),
    ("roc_auc_score", ([0, 1, 2], [[0.2, 0.3, 0.5]] * 3), {"multi_class": "ovr",
                                                           "max_fpr": 0.5}),
    ("roc_auc_score", ([0, 1, 2], [[0.2, 0.3, 0.6]] * 3), {"multi_class": "ovr"}),
    ("roc_auc_score", ([0, 1, 2], [[0.2, 0.8]] * 3), {"multi_class": "ovr"}),
    ("roc_auc_score", ([0, 1, 2], [[0.2, 0.3, 0.5]] * 3), {"multi_class": "ovo",
                                                           "average": None}),
    ("roc_auc_score", ([0, 1, 2], [[0.2, 0.3, 0.5]] * 3), {"multi_class": "ovo",
                                                           "average": "micro"}),
    ("roc_auc_score", ([0, 1, 2], [[0.2, 0.3, 0.5]] * 3), {"multi_class": "ovo",
                                                           "sample_weight": [1, 2, 3]}),
    ("roc_auc_score", ([0, 1, 2], [[0.2, 0.3, 0.5]] * 3), {"multi_class": "ovr",
                                                           "labels": [0, 1, 1]}),
    ("roc_auc_score", ([0, 1, 2], [[0.2, 0.3, 0.5]] * 3), {"multi_class": "ovr",
                                                           "labels": [2, 1, 0]}),
    ("roc_auc_score", ([0, 1, 2], [[0.2, 0.3, 0.5]] * 3), {"multi_class": "ovr",
                                                           "labels": [0, 1, 3]}),
    ("roc_auc_score", ([0, 1, 2], [[0.2, 0.3, 0.5]] * 3), {"multi_class": "ovr",
                                                           "labels": [0, 1, 2, 3]}),
    ("roc_auc_score", ([0, 1.5, 0], [0.1, 0.3, 0.2]), {}),
    ("label_ranking_average_precision_score", ([1, 0, 0], [0.75, 0.5, 1]), {}),
    ("label_ranking_average_precision_score", ([[1, 0, 0]], [[0.75, 0.5]]), {}),
    ("label_ranking_average_precision_score", ([[1, 0], [0, 1]], [[0.7, np.inf], [1, 2]]), {}),
    ("label_ranking_average_precision_score", ([[1, 2, 0], [0, 1, 3]], [[1, 2, 3], [1, 2, 3]]),
     {}),
    # Single values, complex and missing scores, labels that do not compare, sparse matrices.
    *[(name, args, {}) for name in BINARY for args in [
        ([1], np.array(0.5)), ([0, 1], np.array([0.1, 0.2 + 1j])),
        ([0, 1], np.array([0.1, None], dtype=object)), (np.array(1), [0.5]),
        (np.array([1, "a"], dtype=object), [0.1, 0.2]),
        (np.array([1, None], dtype=object), [0.1, 0.2])]],
    *[(name, (SPARSE_LABELS, SCORES_2D), {}) for name in ("roc_auc_score",
                                                          "average_precision_score")],
    *[(name, (SPARSE_LABELS.toarray(), scipy.sparse.csr_matrix(SCORES_2D)), {}) for name in SCORES],
]


@pytest.mark.parametrize("name, args, kwargs", BAD_INPUTS)
def test_bad_input_raises_what_scikit_learn_raises(name, args, kwargs):
    expected, _ = _run(SK[name], *args, **kwargs)
    assert isinstance(expected, Exception), "the case must be bad input for scikit-learn"
    actual, _ = _run(getattr(fs, name), *args, **kwargs)
    assert_same(expected, actual)


def _frozen(array):
    array = np.array(array)
    array.flags.writeable = False
    return array


# Labels as NumPy arrays, which the curves split by class as they read them: every kind of label
# that this must hand on to the general checks (other values, NaN, fractions, a third class,
# labels other than {0, 1} and {-1, 1}) and every form of array it takes or must leave alone.
ARRAY_LABELS = [
    (np.array([0, 1, 0, 1]), {}), (np.array([1, 1, 1]), {}), (np.array([0, 0, 0]), {}),
    (np.array([-1, -1]), {}), (np.array([-1, 1, -1, 1]), {}), (np.array([-1, 0, 0, -1]), {}),
    (np.array([1, 2, 1, 2]), {}), (np.array([1, 2, 1, 2]), {"pos_label": 2}),
    (np.array([0, 1, 2, 1]), {"pos_label": 2}), (np.array([0, 1, 2, 1]), {"pos_label": 0}),
    (np.array([3, 3, 5, 5]), {"pos_label": 4}), (np.array([0, 1, 0, 1]), {"pos_label": 2**60}),
    (np.array([0.0, 1.0, 0.0, 1.0]), {}), (np.array([0.0, 1.0, np.nan, 1.0]), {}),
    (np.array([1.0, np.nan, 1.0, 1.0]), {}), (np.array([0.5, 1.0, 0.5, 1.0]), {}),
    (np.array([1.0, 2.0**63, 1.0, 1.0]), {"pos_label": 1}), (np.array([1.0, np.inf, 1.0, 1.0]), {}),
    (np.array([True, False, True, False]), {}), (np.array([True, True, True, True]), {}),
    (np.array([0, 1, 0, 1], dtype=np.int32), {}), (np.array([0, 1, 0, 1]), {"pos_label": True}),
    (np.array([0, 1, 0, 1]), {"pos_label": np.int64(0)}), (np.array([0, 1, 0, 1], ">i8"), {}),
    (_frozen([0, 1, 0, 1]), {}), (np.array([0, 9, 1, 9, 0, 9, 1, 9])[::2], {}),
]


@pytest.mark.parametrize("curve", CURVES)
@pytest.mark.parametrize("labels, options", ARRAY_LABELS)
@pytest.mark.parametrize("scores", [np.array([0.1, 0.4, 0.35, 0.8]),
                                    np.array([0.1, 0.4, 0.35, 0.8], dtype=np.float32),
                                    np.array([0.1, 0.4, np.nan, 0.8]),
                                    np.array([0.1, -np.inf, 0.35, 0.8]),
                                    _frozen([0.5, 0.5, 0.5, 0.5])])
def test_curves_of_label_arrays_match_or_raise_as_scikit_learn(curve, labels, options, scores):
    assert_parity(curve, labels, scores, **options)


def test_label_ranking_weights_are_checked_as_everywhere():
    # They were read with np.asarray: a column of weights broadcast against the rows (2.0 here,
    # an impossible value); object arrays of numbers are numbers, as in scikit-learn.
    y, scores = [[1, 0], [0, 1], [1, 0]], [[0.9, 0.1], [0.8, 0.2], [0.3, 0.7]]
    name = "label_ranking_average_precision_score"
    expected = SK[name](y, scores, sample_weight=[1.0, 2.0, 3.0])
    assert fs.label_ranking_average_precision_score(
        y, scores, sample_weight=[[1.0], [2.0], [3.0]]) == pytest.approx(expected, rel=1e-15)
    with pytest.raises(ValueError, match="sample_weight must be 1-D"):
        fs.label_ranking_average_precision_score(y, scores, sample_weight=np.ones((3, 2)))
    weights = np.array([1, 2, 3], dtype=object)
    assert_parity(name, y, scores, sample_weight=weights)
    assert_parity("roc_auc_score", [0, 1, 0], [0.1, 0.3, 0.2], sample_weight=weights)


def test_label_ranking_takes_sparse_labels_as_scikit_learn_does():
    assert_parity("label_ranking_average_precision_score", SPARSE_LABELS, SCORES_2D)


def test_negative_weights_are_refused_in_rankings_and_weigh_averages_over_samples():
    # scikit-learn's AUC-ROC raises on them, but its average precision returns a number that
    # is no average precision; fastpr's sweep needs counts that never decrease, so both raise.
    rng = np.random.default_rng(0)
    y, scores = rng.random(40) < 0.4, rng.random(40)
    weights = rng.random(40)
    weights[7] = -0.5
    binary = [(name, (y, scores), {}) for name in CURVES + SCORES[:2]]
    multilabel = (rng.random((40, 3)) < 0.4).astype(int), rng.random((40, 3))
    ranked = [("average_precision_score", multilabel, {"average": a})
              for a in ("macro", "weighted", "micro", None)]
    ranked += [("roc_auc_score", multilabel, {"average": "macro"}),
               ("roc_auc_score", (rng.integers(0, 3, 40), np.full((40, 3), 1 / 3)),
                {"multi_class": "ovr"})]
    for name, args, kwargs in binary + ranked:
        with pytest.raises(ValueError, match=r"sample_weight must be >= 0.* -0\.5 at index 7"):
            getattr(fs, name)(*args, sample_weight=weights, **kwargs)
    for name, kwargs in [("average_precision_score", {"average": "samples"}),
                         ("roc_auc_score", {"average": "samples"}),
                         ("label_ranking_average_precision_score", {})]:
        assert_parity(name, *multilabel, sample_weight=weights, **kwargs)


def test_works_without_scikit_learn_and_says_so_where_it_must():
    code = """
import sys
sys.modules["sklearn"] = None  # import sklearn now fails, as when it is not installed
import fastpr.sklearn as fs
print(fs.roc_auc_score([0, 1, 1, 0], [0.1, 0.8, 0.6, 0.7]))
for attempt in (fs.patch, lambda: fs.scorer("auc_pr")):
    try:
        attempt()
    except ImportError as error:
        print(error)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    assert out[0] == "0.75"
    assert len(out) == 3 and all('pip install "fastpr[sklearn]"' in line for line in out[1:])
    check = "import sys, fastpr.sklearn; print('sklearn' in sys.modules)"
    loaded = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True,
                            check=True).stdout
    assert loaded.strip() == "False"


def _references():
    """Every attribute of a loaded scikit-learn module, and every built-in scorer's function."""
    modules = {name: dict(vars(module)) for name, module in list(sys.modules.items())
               if name.split(".")[0] == "sklearn" and module is not None}
    return modules, {name: s._score_func for name, s in _SCORERS.items()}


def test_patch_swaps_everything_and_unpatch_restores_it_exactly():
    before = _references()
    fs.patch()
    fs.patch()  # twice: harmless
    try:
        assert fs.is_patched()
        for name in CURVES + SCORES:
            assert getattr(sklearn.metrics, name) is getattr(fs, name)
            assert getattr(sklearn.metrics._ranking, name) is getattr(fs, name)
        from sklearn.metrics._plot import det_curve, precision_recall_curve

        assert precision_recall_curve.average_precision_score is fs.average_precision_score
        assert det_curve.det_curve is fs.det_curve
        for name in ("average_precision", "roc_auc", "roc_auc_ovr", "roc_auc_ovo",
                     "roc_auc_ovr_weighted", "roc_auc_ovo_weighted"):
            assert sklearn.metrics.get_scorer(name)._score_func in (
                fs.average_precision_score, fs.roc_auc_score)
    finally:
        fs.unpatch()
    assert not fs.is_patched()
    after = _references()
    assert after[1] == before[1]
    for module, namespace in before[0].items():
        for attribute, value in namespace.items():
            assert after[0][module].get(attribute) is value, (module, attribute)
    fs.unpatch()  # not patched: harmless


def test_patched_context_manager_nests():
    with fs.patched():
        with fs.patched():
            assert sklearn.metrics.roc_curve is fs.roc_curve
        assert sklearn.metrics.roc_curve is fs.roc_curve  # the outer block still holds
    assert sklearn.metrics.roc_curve is SK["roc_curve"]



def test_patched_blocks_of_two_threads_unpatch_when_the_last_one_leaves():
    # Thread A enters, then B, then A leaves while B is inside, then B leaves.
    a_inside, b_inside, a_left = threading.Event(), threading.Event(), threading.Event()
    seen_by_b = []

    def a():
        with fs.patched():
            a_inside.set()
            b_inside.wait(10)
        a_left.set()

    def b():
        a_inside.wait(10)
        with fs.patched():
            b_inside.set()
            a_left.wait(10)
            seen_by_b.append(sklearn.metrics.roc_curve)

    threads = [threading.Thread(target=a), threading.Thread(target=b)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert seen_by_b == [fs.roc_curve]  # A's leaving kept B's patch
    assert sklearn.metrics.roc_curve is SK["roc_curve"]
    assert not fs.is_patched()


def test_patch_before_a_block_outlives_it():
    fs.patch()
    try:
        with fs.patched():
            pass
        assert sklearn.metrics.roc_curve is fs.roc_curve
    finally:
        fs.unpatch()
    assert sklearn.metrics.roc_curve is SK["roc_curve"]


def test_displays_draw_the_same_curves_patched():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    from sklearn.metrics import DetCurveDisplay, PrecisionRecallDisplay, RocCurveDisplay

    X, y = _binary_data(4)
    scores = LogisticRegression().fit(X, y).decision_function(X)
    fields = {RocCurveDisplay: ("fpr", "tpr", "roc_auc"),
              PrecisionRecallDisplay: ("precision", "recall", "average_precision"),
              DetCurveDisplay: ("fpr", "fnr")}
    plain = {d: d.from_predictions(y, scores) for d in fields}
    with fs.patched():
        fast = {d: d.from_predictions(y, scores) for d in fields}
    for display, names in fields.items():
        for name in names:
            np.testing.assert_allclose(getattr(fast[display], name),
                                       getattr(plain[display], name), rtol=1e-12)


def _binary_data(seed=0, n=400):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 4))
    y = (X[:, 0] - X[:, 1] + rng.normal(size=n) > 1).astype(int)
    return X, y


def test_cross_validate_and_grid_search_give_the_same_numbers_patched():
    X, y = _binary_data()
    scoring = ["average_precision", "roc_auc"]
    plain = cross_validate(LogisticRegression(), X, y, scoring=scoring, cv=5)
    grid = {"C": [0.01, 1.0]}
    plain_grid = GridSearchCV(LogisticRegression(), grid, scoring=scoring, refit="roc_auc",
                              cv=3).fit(X, y).cv_results_
    with fs.patched():
        fast = cross_validate(LogisticRegression(), X, y, scoring=scoring, cv=5)
        fast_grid = GridSearchCV(LogisticRegression(), grid, scoring=scoring, refit="roc_auc",
                                 cv=3).fit(X, y).cv_results_
    for key in ("test_average_precision", "test_roc_auc"):
        np.testing.assert_allclose(fast[key], plain[key], rtol=1e-12)
    for key in plain_grid:
        if key.startswith(("split", "mean_test", "std_test", "rank_test")):
            np.testing.assert_allclose(fast_grid[key], plain_grid[key], rtol=1e-12, atol=1e-15)


def test_multiclass_scorers_give_the_same_numbers_patched():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(300, 3))
    y = np.array(["a", "b", "c"])[np.argmax(X + rng.normal(size=(300, 3)), axis=1)]
    scoring = ["roc_auc_ovr", "roc_auc_ovo", "roc_auc_ovr_weighted", "roc_auc_ovo_weighted"]
    plain = cross_validate(LogisticRegression(), X, y, scoring=scoring, cv=3)
    with fs.patched():
        fast = cross_validate(LogisticRegression(), X, y, scoring=scoring, cv=3)
    for name in scoring:
        np.testing.assert_allclose(fast[f"test_{name}"], plain[f"test_{name}"], rtol=1e-12)


def test_scorers_use_the_ranking_response_and_greater_is_better():
    X, y = _binary_data(2)
    model = LogisticRegression().fit(X, y)
    decision = model.decision_function(X)
    for scorer, expected in [
        (fs.scorer("auc_pr"), fastpr.auc_pr(y, decision)),
        (fs.scorer("auc_pr", method="davis_goadrich"),
         fastpr.auc_pr(y, decision, method="davis_goadrich")),
        (fs.scorer("auc_npr"), fastpr.auc_npr(y, decision)),
        (fs.scorer("auc_roc"), fastpr.auc_roc(y, decision)),
        (fs.scorer("auc_pr", method="average_precision"),
         SK["average_precision_score"](y, decision)),
    ]:
        assert scorer._sign == 1
        assert scorer(model, X, y) == pytest.approx(expected, rel=1e-12)
    # A better model scores higher.
    worse = LogisticRegression().fit(X[:, 2:], y)
    assert fs.scorer("auc_pr")(worse, X[:, 2:], y) < fs.scorer("auc_pr")(model, X, y)
    # Without decision_function, the positive class's probability; string labels.
    names = np.where(y == 1, "yes", "no")
    nb = GaussianNB().fit(X, names)
    assert fs.scorer("auc_pr")(nb, X, names) == pytest.approx(
        fastpr.auc_pr(names, nb.predict_proba(X)[:, 1], pos_label="yes"), rel=1e-12)
    # Multiclass: the one-vs-rest macro average; a binary-only metric says so.
    y3 = np.digitize(X[:, 0], [-0.5, 0.5])
    m3 = LogisticRegression().fit(X, y3)
    assert fs.scorer("auc_pr")(m3, X, y3) == pytest.approx(
        fastpr.multiclass.auc_pr(y3, m3.decision_function(X)), rel=1e-12)
    with pytest.raises(ValueError, match="binary"):
        fs.scorer("auc_npr")(m3, X, y3)
    with pytest.raises(ValueError, match="metric"):
        fs.scorer("f1")
    # scikit-learn's one-vs-rest AUC-ROC scores the probabilities, which rank differently.
    proba = fs.scorer("auc_roc", response_method="predict_proba")
    assert proba(m3, X, y3) == pytest.approx(sklearn.metrics.get_scorer("roc_auc_ovr")(m3, X, y3),
                                             rel=1e-12)
    assert proba(m3, X, y3) != pytest.approx(fs.scorer("auc_roc")(m3, X, y3), rel=1e-6)


def test_scorers_are_new_at_each_call_as_get_scorer_returns_copies():
    # set_score_request on one scorer must not change another's metadata routing.
    with sklearn.config_context(enable_metadata_routing=True):
        requested = fs.scorer("auc_pr").set_score_request(sample_weight=True)
        assert requested is not fs.scorer("auc_pr")
        fresh = fs.scorer("auc_pr")._get_metadata_request().score.requests
        assert requested._get_metadata_request().score.requests["sample_weight"] is True
        assert fresh.get("sample_weight") is None


def test_scorer_in_grid_search():
    X, y = _binary_data(3)
    search = GridSearchCV(LogisticRegression(), {"C": [0.001, 1.0]}, cv=3,
                          scoring={"pr": fs.scorer("auc_pr"), "npr": fs.scorer("auc_npr")},
                          refit="pr").fit(X, y)
    results = search.cv_results_
    assert np.all((results["mean_test_pr"] > 0) & (results["mean_test_npr"] <= 1))
    assert search.best_index_ == np.argmax(results["mean_test_pr"])
    model = LogisticRegression(C=results["params"][0]["C"]).fit(X, y)
    assert search.scorer_["pr"](model, X, y) == pytest.approx(
        fastpr.auc_pr(y, model.decision_function(X)), rel=1e-12)


# A threshold of 0 is the last zero score of nonzero weight in the given order, as scikit-learn's
# stable sort leaves it: 0.0 and -0.0 tie, and the sign of the threshold is that score's.
@pytest.mark.parametrize("curve", CURVES)
@pytest.mark.parametrize("y_true, y_score, sample_weight", [
    ([0, 1, 0], [-0.0, 0.0, -0.0], None),
    ([0, 1, 0], [0.0, -0.0, 0.0], None),
    ([1, 0, 1, 0], [0.0, -0.0, 0.5, 0.0], None),
    ([0, 1, 0, 1], [-0.0, 0.0, 0.0, -0.0], [1.0, 2.0, 1.0, 0.0]),
    (np.arange(20_000) % 2, np.where(np.arange(20_000) < 19_000, -0.0, 0.5), None),
    (np.arange(20_000) % 3 == 0, np.where(np.arange(20_000) % 7 == 0, 0.0, -0.0),
     np.r_[np.ones(10_000), np.zeros(10_000)]),
])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_a_threshold_of_zero_has_the_sign_that_scikit_learn_gives_it(curve, y_true, y_score,
                                                                     sample_weight, dtype):
    assert_parity(curve, np.asarray(y_true), np.asarray(y_score, dtype=dtype),
                  sample_weight=sample_weight)


# pandas' nullable booleans with a missing value: scikit-learn reads them as floats with NaN.
@pytest.mark.parametrize("name", BINARY)
@pytest.mark.parametrize("where", ["y_true", "y_score"])
@pytest.mark.parametrize("form", ["array", "Series", "arrow"])
def test_nullable_booleans_with_a_missing_value_are_nan_as_in_scikit_learn(name, where, form):
    pd = pytest.importorskip("pandas")
    if form == "arrow":
        pytest.importorskip("pyarrow")
    dtype = "bool[pyarrow]" if form == "arrow" else "boolean"
    values = [True, False, None, True, False]
    column = pd.Series(values, dtype=dtype) if form == "Series" else pd.array(values, dtype=dtype)
    y_true, y_score = [1, 0, 1, 1, 0], [0.1, 0.8, 0.3, 0.4, 0.2]
    args = (column, y_score) if where == "y_true" else (y_true, column)
    assert_parity(name, *args)
    with pytest.raises(ValueError, match=f"^{where} contains NaN at index 2 "):
        getattr(fs, name)(*args)
    # Without one, the same values as scikit-learn (its thresholds as floats).
    complete = column.fillna(True)
    assert_parity(name, *((complete, y_score) if where == "y_true" else (y_true, complete)))


# Weights written as text: scikit-learn reads them as numbers wherever it converts its weights
# with NumPy (one ranking, and averages None, "micro" and "macro"), and fails on them elsewhere
# ("weighted", "samples", label ranking), with TypeError; text that is no number is ValueError.
TEXT_WEIGHTS = {
    "str array": np.array(["1", "2", "0.5", "1"]), "str list": ["1", "2", "0.5", "1"],
    "str objects": np.array(["1", "2", "0.5", "1"], dtype=object),
    "bytes array": np.array([b"1", b"2", b"0.5", b"1"]), "no number": ["1", "a", "1", "1"],
    "nan": ["1", "nan", "1", "1"], "padded": [" 1", "2 ", "1e0", "1"],
}
MULTILABEL = (np.array([[1, 0], [0, 1], [1, 1], [0, 0]]),
              np.array([[0.1, 0.2], [0.3, 0.1], [0.5, 0.6], [0.2, 0.9]]))
MULTICLASS = (np.array([0, 1, 2, 1]), np.array([[0.2, 0.3, 0.5], [0.1, 0.6, 0.3],
                                               [0.3, 0.3, 0.4], [0.5, 0.25, 0.25]]))


@pytest.mark.parametrize("weights", sorted(TEXT_WEIGHTS))
@pytest.mark.parametrize("name", BINARY)
def test_weights_as_text_of_one_ranking_are_read_as_in_scikit_learn(weights, name):
    assert_parity(name, [1, 0, 1, 0], [0.1, 0.2, 0.3, 0.4], sample_weight=TEXT_WEIGHTS[weights])


@pytest.mark.parametrize("weights", sorted(TEXT_WEIGHTS))
@pytest.mark.parametrize("average", AVERAGES)
@pytest.mark.parametrize("case", [
    ("average_precision_score", MULTILABEL, {}), ("roc_auc_score", MULTILABEL, {}),
    ("average_precision_score", MULTICLASS, {}),
    ("roc_auc_score", MULTICLASS, {"multi_class": "ovr"}),
    ("roc_auc_score", MULTICLASS, {"multi_class": "ovo"}),
    ("label_ranking_average_precision_score", MULTILABEL, None)])
def test_weights_as_text_of_many_rankings_are_read_or_refused_as_in_scikit_learn(weights, average,
                                                                                 case):
    name, (y_true, y_score), options = case
    if options is None:  # (no average)
        if average != "macro":
            return
        options = {}
    else:
        options = dict(options, average=average)
    expected, _ = _run(SK[name], y_true, y_score, sample_weight=TEXT_WEIGHTS[weights], **options)
    if isinstance(expected, Exception):  # (where scikit-learn may warn about rankings it did)
        assert_same(expected, _run(getattr(fs, name), y_true, y_score,
                                   sample_weight=TEXT_WEIGHTS[weights], **options)[0])
    else:
        assert_parity(name, y_true, y_score, sample_weight=TEXT_WEIGHTS[weights], **options)


def test_weights_that_are_no_numbers_are_named_with_their_position():
    with pytest.raises(ValueError, match=r"^sample_weight must hold real numbers, got 'a' at "
                                         r"index 1\.$"):
        fs.roc_curve([1, 0, 1, 0], [0.1, 0.2, 0.3, 0.4], sample_weight=["1", "a", "1", "1"])
    with pytest.raises(TypeError, match=r"^sample_weight holds strings"):
        fs.label_ranking_average_precision_score(*MULTILABEL, sample_weight=["1", "1", "1", "1"])
