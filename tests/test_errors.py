"""Typed errors, declared options and the undefined-metric warning.

An error says which argument is at fault (``error.argument``) and where (``error.position``), and
restates itself in a caller's terms; options declared with ``fastpr._validation`` are checked and
normalised the same way everywhere; warnings point at the user's line.
"""
import math
import pickle
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import SETTINGS

import fastpr
import fastpr.learn
import fastpr.sklearn
from fastpr import _validation, datasets
from fastpr.exceptions import InputError

Y = [0, 1, 1, 0]
S = [0.1, 0.9, 0.4, 0.3]


@pytest.mark.parametrize(
    "call, kind, argument, other, position",
    [
        (lambda: fastpr.evaluate(Y, [0.1, np.nan, 0.4, 0.3]), ValueError, "y_score", None, 1),
        (lambda: fastpr.evaluate(Y, S, sample_weight=[1, 1, -1, 1]), ValueError,
         "sample_weight", None, 2),
        (lambda: fastpr.evaluate(Y, [[0.1, 0.2, 0.3, 0.4], [0.5, np.nan, 0.1, 0.1]]),
         ValueError, "y_score", None, (1, 1)),
        (lambda: fastpr.evaluate(Y, S[:3]), ValueError, "y_score", "y_true", None),
        (lambda: fastpr.evaluate([0, 1, 2, 0, 1], [1, 2, 3, 4, 5]), ValueError, "y_true", None,
         2),
        (lambda: fastpr.evaluate(["a", "b"], [1, 2], pos_label="c"), ValueError, "pos_label",
         "y_true", None),
        (lambda: fastpr.evaluate(Y, ["a", "b", "c", "d"]), TypeError, "y_score", None, None),
        (lambda: fastpr.bootstrap(Y, S, confidence=1.5), ValueError, "confidence", None, None),
        (lambda: fastpr.bootstrap(Y, S, n_boot=2.5), TypeError, "n_boot", None, None),
        (lambda: fastpr.auc_pr(Y, S, method="area"), ValueError, "method", None, None),
        (lambda: fastpr.multiclass.auc_roc([0, 1, 2], np.eye(3), average="mean"), ValueError,
         "average", None, None),
        (lambda: fastpr.evaluate(Y, [[0.1, 0.2], [0.3]]), ValueError, "y_score", None, None),
        # The generators took any prevalence and separation (NaN, inf, 1.5) without a word.
        (lambda: datasets.binormal(10, 1.5), ValueError, "prevalence", None, None),
        (lambda: datasets.binormal(10, 0.5, separation=np.inf), ValueError,
         "separation", None, None),
        (lambda: datasets.skewed_ranking(n_samples=-1), ValueError, "n_samples", None,
         None),
        (lambda: datasets.binormal_auc_pr(0.5, n_grid=1), ValueError, "n_grid", None,
         None),
    ],
)
def test_an_error_names_its_argument_and_position(call, kind, argument, other, position):
    with pytest.raises(InputError) as caught:
        call()
    error = caught.value
    assert isinstance(error, kind)
    assert (error.argument, error.other, error.position) == (argument, other, position)
    assert argument in str(error)


def test_an_error_restates_itself_in_other_terms():
    with pytest.raises(fastpr.InputValueError) as caught:
        fastpr.evaluate([0, 1, 1], [0.3, 0.2, np.nan])
    error = caught.value
    assert str(error) == "y_score contains NaN at index 2 (1 NaN in all)."
    assert error.describe({"y_score": "column 's'"}, lambda i: f"row {i + 1}") == (
        "column 's' contains NaN at row 3 (1 NaN in all).")


def test_an_error_survives_pickling_as_dask_workers_send_it():
    with pytest.raises(fastpr.InputError) as caught:
        fastpr.evaluate(["no", "yes"], [0.2, 0.4], pos_label="maybe")
    copy = pickle.loads(pickle.dumps(caught.value))
    assert type(copy) is fastpr.InputValueError
    assert (str(copy), copy.argument, copy.other) == (str(caught.value), "pos_label", "y_true")
    assert copy.describe({"pos_label": "--pos-label"}).startswith("--pos-label='maybe' is not")


@_validation.options(level=_validation.Interval(0, 1, closed="neither"),
                  count=_validation.Integer(minimum=2), how=_validation.OneOf(("a", None)))
def _declared(level, *, count=3, how="a"):
    return level, count, how


def test_declared_options_are_checked_and_normalised_wherever_they_are_passed():
    level, count, how = _declared(np.float32(0.5), count=np.int64(4), how=None)
    assert (type(level), type(count), how) == (float, int, None)
    assert _declared(level=0.25) == (0.25, 3, "a")
    with pytest.raises(fastpr.InputValueError, match=r"^level must be in the open interval "
                                                     r"\(0, 1\), got 1\.$"):
        _declared(1)
    with pytest.raises(fastpr.InputTypeError, match=r"^count must be an integer, got 2\.0\.$"):
        _declared(0.5, count=2.0)
    with pytest.raises(fastpr.InputValueError, match=r"^how must be one of 'a', None; got 'b'\.$"):
        _declared(0.5, how="b")


def test_an_option_that_is_no_parameter_is_refused_at_once():
    with pytest.raises(TypeError, match="has no parameter 'levle'"):
        _validation.options(levle=_validation.Interval(0, 1))(lambda level: level)


@pytest.mark.parametrize("closed", ["both", "left", "right", "neither"])
@given(value=st.one_of(st.floats(), st.integers(-3, 3)),
       low=st.sampled_from([None, -1.0, 0.0]), high=st.sampled_from([None, 0.0, 1.0]))
@SETTINGS
def test_an_interval_accepts_exactly_the_finite_numbers_within_it(closed, value, low, high):
    interval = _validation.Interval(low, high, closed=closed)
    above = low is None or (value >= low if closed in ("both", "left") else value > low)
    below = high is None or (value <= high if closed in ("both", "right") else value < high)
    if math.isfinite(value) and above and below:
        assert interval.check("x", value) == value
    else:
        with pytest.raises(fastpr.InputValueError) as caught:
            interval.check("x", value)
        assert str(caught.value) == f"x must be {interval.description}, got {value!r}."


@pytest.mark.parametrize(
    "interval, description",
    [
        (_validation.Interval(0, 1, closed="neither"), "in the open interval (0, 1)"),
        (_validation.Interval(0, 1, closed="right"), "in the half-open interval (0, 1]"),
        (_validation.Interval(0, 1), "in the closed interval [0, 1]"),
        (_validation.Interval(0, None, closed="left"), "finite and >= 0"),
        (_validation.Interval(0, None, closed="neither"), "finite and > 0"),
        (_validation.Interval(), "finite"),
    ],
)
def test_an_interval_says_what_it_is(interval, description):
    assert interval.description == description


def test_the_command_line_checks_the_options_of_the_function_it_calls():
    with pytest.raises(fastpr.InputValueError) as caught:
        _validation.check(fastpr.bootstrap, n_boot=1, confidence=0.9, seed=0)
    assert caught.value.describe({"n_boot": "--bootstrap"}) == "--bootstrap must be >= 2, got 1."


@pytest.mark.parametrize(
    "call",
    [
        lambda: fastpr.evaluate([0, 0], [0.1, 0.2]),
        lambda: fastpr.auc_pr([0, 0], [0.1, 0.2]),  # decorated: one more frame in fastpr
        lambda: fastpr.auc_roc([0, 0, 1, 1], [0.1, 0.2, 0.3, 0.4], groups=[1, 1, 2, 2]),
        lambda: fastpr.max_f_beta([0, 0], [0.1, 0.2]),
        lambda: fastpr.aggregate([([0, 0], [0.1, 0.2]), ([0, 1], [0.1, 0.2])]),
    ],
)
def test_an_undefined_metric_warning_points_at_the_users_call(call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    [warning] = caught
    assert warning.category is fastpr.UndefinedMetricWarning
    assert warning.filename == __file__


def test_counts_of_undefined_entries_share_one_name():
    with pytest.warns(fastpr.UndefinedMetricWarning, match="^Metrics are undefined for 1 of 2 "
                                                           "groups: "):
        batch = fastpr.evaluate([1, 0, 0, 0], [0.4, 0.3, 0.2, 0.1], groups=[1, 1, 2, 2])
    assert batch.macro("auc_pr").n_undefined == batch.n_undefined_pr == 1
    folds = [([1, 0], [0.4, 0.3]), ([0, 0], [0.2, 0.1])]
    with pytest.warns(fastpr.UndefinedMetricWarning,
                      match="^Metrics are undefined for 1 of 2 folds: "):
        assert fastpr.aggregate(folds).n_undefined == 1


# The same bad input gets the same answer from every entry point: the one input layer answers it.
_ENTRY_POINTS = {
    "evaluate": lambda y, s, w: fastpr.evaluate(y, s, sample_weight=w),
    "bootstrap": lambda y, s, w: fastpr.bootstrap(y, s, sample_weight=w, n_boot=5, seed=1),
    "Accumulator": lambda y, s, w: fastpr.Accumulator().update(y, s, sample_weight=w),
    "learn.FixedLabels": lambda y, s, w: fastpr.learn.FixedLabels(y, sample_weight=w).metric(s),
    "sklearn.average_precision_score":
        lambda y, s, w: fastpr.sklearn.average_precision_score(y, s, sample_weight=w),
    "sklearn.precision_recall_curve":
        lambda y, s, w: fastpr.sklearn.precision_recall_curve(y, s, sample_weight=w),
}


# What the drop-ins say first, in scikit-learn's words (its tests match on them), then the same.
_SKLEARN_WORDS = {"y_true and y_score have different lengths: 4 and 3.":
                  "Found input variables with inconsistent numbers of samples: [4, 3]. "}


@pytest.mark.parametrize("entry", sorted(_ENTRY_POINTS))
@pytest.mark.parametrize("y_score, sample_weight, kind, message", [
    ([0.9, np.nan, 0.3, 0.1], None, ValueError,
     "y_score contains NaN at index 1 (1 NaN in all)."),
    ([0.9, 0.5, 0.3, 0.1], [1, -1, 1, 1], ValueError,
     "sample_weight must be >= 0, got -1.0 at index 1."),
    ([0.9, 0.5, 0.3], None, ValueError, "y_true and y_score have different lengths: 4 and 3."),
    (["a", "b", "c", "d"], None, TypeError,
     "y_score must be real numbers, got an array of dtype <U1."),
])
def test_the_same_bad_input_gets_the_same_answer_everywhere(entry, y_score, sample_weight, kind,
                                                            message):
    with pytest.raises(kind) as caught:
        _ENTRY_POINTS[entry]([1, 0, 1, 0], y_score, sample_weight)
    words = _SKLEARN_WORDS.get(message, "") if entry.startswith("sklearn.") else ""
    assert str(caught.value) == words + message
