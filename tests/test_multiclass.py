"""fastpr.multiclass: one-vs-rest per class against single calls and scikit-learn."""
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import average_precision_score, roc_auc_score
from strategies import FEW

import fastpr

TOL = 1e-12


@st.composite
def multiclass_cases(draw, multilabel=False):
    """(y_true, probabilities, weights or None) with every class present, ties likely."""
    # scikit-learn reads two label classes as a binary problem with one score column.
    n_classes = draw(st.integers(2 if multilabel else 3, 5))
    n = draw(st.integers(2 * n_classes, 40))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    raw = rng.integers(1, draw(st.sampled_from([3, 10, 1000])), size=(n, n_classes)).astype(float)
    proba = raw / raw.sum(axis=1, keepdims=True)
    if multilabel:
        y = rng.random((n, n_classes)) < 0.4
        y[: n_classes, :] = np.eye(n_classes, dtype=bool)  # a positive in every column
        y[n_classes: 2 * n_classes, :] = ~np.eye(n_classes, dtype=bool)  # and a negative
    else:
        y = rng.integers(0, n_classes, size=n)
        y[:n_classes] = np.arange(n_classes)
    weights = rng.uniform(0.1, 3.0, size=n) if draw(st.booleans()) else None
    return y, proba, weights


@FEW
@given(multiclass_cases())
def test_labels_match_sklearn(case):
    y, proba, w = case
    for average in ["macro", "weighted", None]:
        ours = fastpr.multiclass.auc_pr(y, proba, method="average_precision", average=average,
                                        sample_weight=w)
        theirs = average_precision_score(y, proba, average=average, sample_weight=w)
        np.testing.assert_allclose(ours, theirs, rtol=TOL, atol=TOL)
    for average in ["macro", "weighted"]:
        ours = fastpr.multiclass.auc_roc(y, proba, average=average, sample_weight=w)
        theirs = roc_auc_score(y, proba, average=average, multi_class="ovr", sample_weight=w)
        np.testing.assert_allclose(ours, theirs, rtol=TOL, atol=TOL)


@FEW
@given(multiclass_cases(multilabel=True))
def test_indicator_matrix_matches_sklearn(case):
    y, proba, w = case
    for average in ["macro", "weighted", "micro", None]:
        ours = fastpr.multiclass.auc_pr(y, proba, method="average_precision", average=average,
                                        sample_weight=w)
        theirs = average_precision_score(y, proba, average=average, sample_weight=w)
        np.testing.assert_allclose(ours, theirs, rtol=TOL, atol=TOL)
        ours = fastpr.multiclass.auc_roc(y, proba, average=average, sample_weight=w)
        theirs = roc_auc_score(y, proba, average=average, sample_weight=w)
        np.testing.assert_allclose(ours, theirs, rtol=TOL, atol=TOL)


@FEW
@given(multiclass_cases())
def test_each_class_equals_the_binary_call(case):
    y, proba, w = case
    result = fastpr.multiclass.evaluate(y, proba, sample_weight=w)
    np.testing.assert_array_equal(result.index, np.unique(y))
    for c, label in enumerate(result.index):
        assert result[c] == fastpr.evaluate(y == label, proba[:, c], sample_weight=w)
    np.testing.assert_array_equal(
        fastpr.multiclass.auc_pr(y, proba, average=None, sample_weight=w), result.auc_pr)


def test_labels_name_the_columns():
    y = np.array(["b", "a", "c", "b"])
    proba = np.array([[0.2, 0.7, 0.1], [0.1, 0.1, 0.8], [0.3, 0.3, 0.4], [0.1, 0.5, 0.4]])
    result = fastpr.multiclass.evaluate(y, proba, labels=["c", "b", "a"])
    np.testing.assert_array_equal(result.index, ["c", "b", "a"])
    assert result[1] == fastpr.evaluate(y == "b", proba[:, 1])
    assert result.to_frame().index.name == "class"


def test_a_class_without_positives_is_left_out_with_a_warning():
    y = np.array([[1, 0, 0], [0, 1, 0], [1, 1, 0], [0, 0, 0]])
    proba = np.array([[0.9, 0.1, 0.3], [0.2, 0.8, 0.1], [0.6, 0.7, 0.2], [0.1, 0.3, 0.4]])
    with pytest.warns(fastpr.UndefinedMetricWarning, match="undefined for 1 of 3 classes: 1 have no positives"):
        per_class = fastpr.multiclass.auc_pr(y, proba, average=None)
    assert np.isnan(per_class[2])
    with pytest.warns(fastpr.UndefinedMetricWarning):
        macro = fastpr.multiclass.auc_pr(y, proba, average="macro")
    assert macro == pytest.approx(np.mean(per_class[:2]), rel=1e-15)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert fastpr.multiclass.auc_pr(y, proba, average="micro") > 0


MULTICLASS_ERRORS = [
    ({"y_true": [0, 1], "y_score": [0.1, 0.2]}, ValueError,
     r"y_score must be 2-D, got an array of shape \(2,\)"),
    ({"y_true": [0, 1, 2], "y_score": np.ones((3, 2))}, ValueError,
     r"y_true has 3 classes but y_score has 2 columns; pass labels="),
    ({"y_true": [0, 1, 2], "y_score": np.ones((2, 3))}, ValueError,
     r"y_true and y_score have different lengths: 3 and 2"),
    ({"y_true": [0, 1, 5], "y_score": np.ones((3, 2)), "labels": [0, 1]}, ValueError,
     r"y_true holds 5 at index 2, which is not in labels"),
    ({"y_true": [0, 1], "y_score": np.ones((2, 2)), "labels": [0, 1, 2]}, ValueError,
     r"labels names 3 classes but y_score has 2 columns"),
    ({"y_true": [0, 1], "y_score": np.ones((2, 2)), "labels": [1, 1]}, ValueError,
     r"labels must be distinct"),
    ({"y_true": np.ones((2, 3)), "y_score": np.ones((2, 2))}, ValueError,
     r"y_true as an indicator matrix must have y_score's shape \(2, 2\); got \(2, 3\)"),
    ({"y_true": [[0, 2], [1, 0]], "y_score": np.ones((2, 2))}, ValueError,
     r"must hold only 0 and 1 \(or bool\); got 2 at row 0, column 1"),
    ({"y_true": [["a", "b"], ["b", "a"]], "y_score": np.ones((2, 2))}, TypeError,
     r"y_true as an indicator matrix must hold 0 and 1, got dtype <U1"),
    ({"y_true": [0, 1], "y_score": [[0.1, np.nan], [0.2, 0.3]]}, ValueError,
     r"y_score contains NaN at row 0, column 1"),
    ({"y_true": [0, 1], "y_score": np.ones((2, 2)), "sample_weight": [1, 2, 3]}, ValueError,
     r"y_true and sample_weight have different lengths: 2 and 3"),
]


@pytest.mark.parametrize("kwargs, error, message", MULTICLASS_ERRORS)
def test_multiclass_error_messages(kwargs, error, message):
    with pytest.raises(error, match=message):
        fastpr.multiclass.evaluate(**kwargs)


def test_unknown_average_is_refused():
    with pytest.raises(ValueError, match=r"average must be one of None, 'macro', 'weighted', "
                                         r"'micro'; got 'samples'"):
        fastpr.multiclass.auc_roc([0, 1], np.eye(2), average="samples")
