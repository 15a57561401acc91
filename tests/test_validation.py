"""Every user-facing error and warning: the message names the argument and the problem."""
import numpy as np
import pandas as pd
import pytest

import fastpr

Y = [0, 1, 1, 0]
S = [0.1, 0.9, 0.4, 0.3]


@pytest.mark.parametrize(
    "y_true, y_score, kwargs, error, match",
    [
        (Y, [0.1, np.nan, 0.4, np.nan], {}, ValueError, r"y_score contains NaN at index 1 \(2 NaN"),
        ([0, 1, 2, 0], S, {}, ValueError, r"y_true must have two classes, got 3 distinct labels"),
        (["a", "b", "b", "a"], S, {"pos_label": "c"}, ValueError,
         r"pos_label='c' is not a label of y_true"),
        (["a", "b", "b", "a"], S, {}, ValueError, r"pass pos_label"),
        ([0, 2, 2, 0], S, {}, ValueError, r"not \{0, 1\}, \{-1, 1\} or bool; pass pos_label"),
        (Y, S[:3], {}, ValueError, r"y_true and y_score have different lengths: 4 and 3"),
        ([], [], {}, ValueError, r"y_true is empty"),
        (Y, S, {"sample_weight": [1, -2, 1, 1]}, ValueError,
         r"sample_weight must be >= 0, got -2.0 at index 1"),
        (Y, S, {"sample_weight": [1, 1, np.nan, 1]}, ValueError,
         r"sample_weight must be finite, got nan at index 2"),
        (Y, S, {"sample_weight": [1, 1, 1, np.inf]}, ValueError,
         r"sample_weight must be finite, got inf at index 3"),
        (Y, S, {"sample_weight": [1, 1, 1]}, ValueError,
         r"y_true and sample_weight have different lengths: 4 and 3"),
        (Y, S, {"sample_weight": [0, 0, 0, 0]}, ValueError, r"sample_weight is zero everywhere"),
        (Y, S, {"sample_weight": ["a", "b", "c", "d"]}, TypeError,
         r"sample_weight must be real numbers, got an array of dtype <U1"),
        (Y, ["a", "b", "c", "d"], {}, TypeError, r"y_score must be real numbers, got .*dtype <U1"),
        (Y, [1 + 1j, 2, 3, 4], {}, TypeError, r"y_score must be real numbers, got .*complex128"),
        (Y, [0.1, None, 0.3, 0.4], {}, TypeError, r"y_score must be real numbers, got .*object"),
        (Y, np.ones((4, 2)), {}, ValueError,
         (r"y_true has shape \(4,\), but y_score has shape \(4, 2\).* for one column of scores "
          r"per class use fastpr.multiclass")),
        (Y, np.ones((2, 2, 1)), {}, ValueError,
         r"y_score must be 1-D, got an array of shape \(2, 2, 1\)"),
        (np.ones((4, 1)), S, {}, ValueError, r"y_true must be 1-D, got an array of shape \(4, 1\)"),
        (Y, 0.5, {}, ValueError, r"y_score must be 1-D, got an array of shape \(\)"),
        ([0.0, 1.0, np.nan, 0.0], S, {}, ValueError, r"y_true contains NaN at index 2"),
        (Y, np.array([1, 2**60 + 1, 3, 4], dtype=np.int64), {}, ValueError,
         r"y_score holds 1152921504606846977 at index 1, which float64 cannot represent exactly"),
    ],
)
def test_errors_name_the_argument_and_the_problem(y_true, y_score, kwargs, error, match):
    with pytest.raises(error, match=match):
        fastpr.evaluate(y_true, y_score, **kwargs)


@pytest.mark.skipif(np.finfo(np.longdouble).eps >= np.finfo(np.float64).eps,
                    reason="long double is float64 here")
def test_a_long_double_float64_cannot_hold_is_shown_in_full():
    scores = np.array([0.25, 1 + np.finfo(np.longdouble).eps, 0.5, 0.75], dtype=np.longdouble)
    with pytest.raises(ValueError, match=r"y_score holds 1\.00000000000000000\d* at index 1, "
                                         r"which float64 cannot represent exactly"):
        fastpr.evaluate(Y, scores)


def test_unknown_method_lists_the_methods():
    with pytest.raises(ValueError, match=r"method must be one of 'interpolated', 'davis_goadrich', "
                                         r".*'hull'; got 'trapezoid'"):
        fastpr.auc_pr(Y, S, method="trapezoid")


@pytest.mark.parametrize(
    "args, match",
    [
        ((5, 5, 4, 30, 20), r"B must not precede A"),
        ((5, 5, 5, 5, 20), r"A and B are the same point"),
        ((5, 5, 10, 30, 8), r"n_pos must be > 0 and at least tp_b = 10"),
        ((5, -1, 10, 30, 20), r"fp_a must be finite and >= 0, got -1"),
        ((5, 5, float("inf"), 30, 20), r"tp_b must be finite and >= 0, got inf"),
    ],
)
def test_interpolate_pr_rejects_bad_segments(args, match):
    with pytest.raises(ValueError, match=match):
        fastpr.interpolate_pr(*args)


def test_interpolate_pr_rejects_non_numbers():
    with pytest.raises(TypeError, match=r"tp_a must be a real number, got '5'"):
        fastpr.interpolate_pr("5", 5, 10, 30, 20)


def test_max_recall_step_is_checked():
    with pytest.raises(ValueError, match=r"max_recall_step must be in the half-open interval "
                                         r"\(0, 1\], got 0"):
        fastpr.achievable_pr_curve(Y, S, max_recall_step=0)


def test_no_positives_warns_and_gives_nan():
    with pytest.warns(fastpr.UndefinedMetricWarning, match="AUC-ROC and AUC-PR are undefined "
                                                           "because y_true has no positives"):
        e = fastpr.evaluate([0, 0, 0], [0.1, 0.2, 0.3])
    assert np.isnan(e.auc_roc) and np.isnan(e.auc_pr) and np.isnan(e.average_precision)
    assert e.n_neg == 3 and e.n_pos == 0


def test_no_negatives_keeps_the_pr_areas():
    with pytest.warns(fastpr.UndefinedMetricWarning, match="no negatives"):
        e = fastpr.evaluate([1, 1, 1], [0.1, 0.2, 0.2])
    assert np.isnan(e.auc_roc) and np.isnan(e.auc_roc_hull) and np.isnan(e.auc_npr)
    assert e.auc_pr == e.average_precision == e.auc_pr_dg == e.auc_pr_hull == 1.0


def test_auc_pr_does_not_warn_about_roc():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert fastpr.auc_pr([1, 1], [0.3, 0.2]) == 1.0


def test_positives_that_all_weigh_zero_are_no_positives():
    with pytest.warns(fastpr.UndefinedMetricWarning, match="no positives"):
        assert np.isnan(fastpr.auc_roc(Y, S, sample_weight=[1, 0, 0, 1]))


@pytest.mark.parametrize(
    "labels, pos_label",
    [
        ([False, True, True, False], None),
        ([0, 1, 1, 0], None),
        ([-1, 1, 1, -1], None),
        ([0.0, 1.0, 1.0, 0.0], None),
        (np.array([0, 1, 1, 0], dtype=np.uint8), None),
        (["no", "yes", "yes", "no"], "yes"),
        (["b", "a", "a", "b"], "a"),
        ([True, False, False, True], False),
        (pd.Series([3, 7, 7, 3]), 7),
    ],
)
def test_label_encodings_agree(labels, pos_label):
    assert fastpr.evaluate(labels, S, pos_label=pos_label) == fastpr.evaluate(Y, S)


@pytest.mark.parametrize(
    "scores",
    [
        np.array(S, dtype=np.float16),
        np.array(S, dtype=np.float32),
        np.array([1, 9, 4, 3], dtype=np.int8),
        np.array([1, 9, 4, 3], dtype=np.uint64),
        np.array([1, 9, 4, 3], dtype=np.longdouble),
        pd.Series(S),
        tuple(S),
    ],
)
def test_score_dtypes_agree(scores):
    assert fastpr.evaluate(Y, scores) == fastpr.evaluate(Y, S)


def test_boolean_scores_are_two_thresholds():
    e = fastpr.evaluate(Y, [False, True, False, False])
    assert e.n_thresholds == 2
    assert e.auc_roc == 0.75


def test_a_third_class_anywhere_is_found():
    labels = np.r_[np.zeros(1000, dtype=np.int64), np.ones(1000, dtype=np.int64), [7], [1]]
    with pytest.raises(ValueError, match=r"got 3 distinct labels: 0, 1, 7"):
        fastpr.evaluate(labels, np.arange(labels.size, dtype=float))
