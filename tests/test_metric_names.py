"""The ``metric=`` strings of bootstrap, compare, confidence_interval and fastpr.learn: one
grammar ("name" or "name@level"), parsed in one place, with the same errors from every entry
point."""
import numpy as np
import pytest
from hypothesis import given

import fastpr
from fastpr import _validation, intervals
from fastpr.learn import FixedLabels
from fastpr.learn import lightgbm as fastpr_lgb
from fastpr.learn import xgboost as fastpr_xgb
from strategies import SETTINGS, metric_strings

Y, S = [1, 0, 1, 0, 1, 0], [0.9, 0.8, 0.7, 0.3, 0.2, 0.1]


@pytest.mark.parametrize("text, name, levels", [
    ("auc_pr", "auc_pr", ()),
    ("max_f1", "max_f1", ()),
    ("recall_at_precision@0.9", "recall_at_precision", (0.9,)),
    ("precision_at_recall@0.8", "precision_at_recall", (0.8,)),
    ("tpr_at_fpr@0.05", "tpr_at_fpr", (0.05,)),
    ("tnr_at_tpr@0.95", "tnr_at_tpr", (0.95,)),
    ("tnr_at_tpr@1", "tnr_at_tpr", (1.0,)),
    ("precision_at_k@1000", "precision_at_k", (1000,)),
    ("recall_at_k@1", "recall_at_k", (1,)),
    ("r_precision", "r_precision", ()),
    ("auc_roc@0.1", "auc_roc", (0.1,)),
    ("auc_roc_mcclish@1e-1", "auc_roc_mcclish", (0.1,)),
    ("auc_pr@0.2:0.8", "auc_pr", (0.2, 0.8)),
    ("auc_npr@0:1", "auc_npr", (0.0, 1.0)),
])
def test_metric_strings_parse_into_name_and_levels(text, name, levels):
    spec = _validation.metric_spec(text)
    assert (spec.text, spec.name, spec.levels) == (text, name, levels)
    assert all(type(level) is type(expected) for level, expected in zip(spec.levels, levels))


@SETTINGS
@given(metric_strings())
def test_any_text_is_a_metric_or_a_value_error_that_names_it(text):
    constraint = _validation.Metric(intervals.METRICS)
    try:
        spec = constraint.check("metric", text)
    except ValueError as error:
        assert error.argument == "metric"
        assert str(error).startswith(f"metric={text!r}: ")
        return
    assert spec.text == text and spec.name == text.partition("@")[0]
    assert bool(spec.levels) == ("@" in text)
    assert spec.name in intervals.METRICS or spec.levels or spec.name == "r_precision"
    for level in spec.levels:
        assert 0 <= level <= (1 if isinstance(level, float) else level)


def test_the_option_returns_the_parsed_spec():
    spec = _validation.Metric(("auc_pr",)).check("metric", "recall_at_precision@0.9")
    assert spec == _validation.metric_spec("recall_at_precision@0.9")
    assert spec.levels == (0.9,)


# (string, the problem the message names)
BAD = [
    ("f1", r"unknown name 'f1'"),
    ("recall_at_precison@0.9", r"unknown name 'recall_at_precison'"),
    ("recall_at_precision", r"recall_at_precision needs a level, as in "
                            r"'recall_at_precision@0\.9'"),
    ("recall_at_precision@", r"the level of recall_at_precision must be a number in \[0, 1\], "
                             r"got ''"),
    ("recall_at_precision@1.5", r"the level of recall_at_precision must be a number in "
                                r"\[0, 1\], got '1\.5'"),
    ("tpr_at_fpr@-0.1", r"the level of tpr_at_fpr must be a number in \[0, 1\], got '-0\.1'"),
    ("tnr_at_tpr@nan", r"the level of tnr_at_tpr must be a number in \[0, 1\], got 'nan'"),
    ("precision_at_recall@0.5@0.6", r"the level of precision_at_recall must be a number in "
                                    r"\[0, 1\], got '0\.5@0\.6'"),
    ("precision_at_k@0", r"the level of precision_at_k must be an integer >= 1, got '0'"),
    ("recall_at_k@10.5", r"the level of recall_at_k must be an integer >= 1, got '10\.5'"),
    ("precision_at_k", r"precision_at_k needs a level, as in 'precision_at_k@1000'"),
    ("r_precision@10", r"r_precision takes no level, got '10'"),
    ("r_precision@", r"r_precision takes no level, got ''"),
    ("auc_roc@0", r"the level of auc_roc must be a number in \(0, 1\], got '0'"),
    ("auc_roc_mcclish", r"auc_roc_mcclish needs a level, as in 'auc_roc_mcclish@0\.1'"),
    ("auc_pr@0.8:0.2", r"the level of auc_pr must be a recall range A:B with 0 <= A < B <= 1, "
                       r"got '0\.8:0\.2'"),
    ("auc_npr@0.5", r"the level of auc_npr must be a recall range A:B with 0 <= A < B <= 1, "
                    r"got '0\.5'"),
    (" auc_pr", r"unknown name ' auc_pr'"),
]
FORMS = r".*'recall_at_precision@P'.*'auc_npr@A:B'"


def _entry_points():
    labels = FixedLabels(Y)
    return {
        "bootstrap": ("metric", lambda m: fastpr.bootstrap(Y, S, metric=m, n_boot=2, seed=0)),
        "compare": ("metric", lambda m: fastpr.compare(Y, [S, S], metric=m, n_boot=2, seed=0)),
        "confidence_interval": ("metric", lambda m: fastpr.confidence_interval(Y, S, metric=m)),
        "FixedLabels.metric": ("name", lambda m: labels.metric(S, m)),
        "xgboost.Metric": ("name", lambda m: fastpr_xgb.Metric(m)),
        "lightgbm.SklearnMetric": ("name", lambda m: fastpr_lgb.SklearnMetric(m)),
    }


@pytest.mark.parametrize("entry", list(_entry_points()))
@pytest.mark.parametrize("text, problem", BAD)
def test_bad_metric_strings_are_refused_alike_everywhere(entry, text, problem):
    argument, call = _entry_points()[entry]
    with pytest.raises(ValueError, match=rf"^{argument}={text!r}: {problem}\. {argument} "
                                         rf"takes {FORMS}") as error:
        call(text)
    assert error.value.argument == argument


@pytest.mark.parametrize("value", [3, None, b"auc_pr", ["auc_pr"]])
def test_a_metric_that_is_no_string_is_a_type_error(value):
    with pytest.raises(TypeError, match=r"metric must be a string, got "):
        fastpr.bootstrap(Y, S, metric=value, n_boot=2)


def test_each_entry_point_keeps_its_own_plain_names():
    """The names without a level stay those each function had: learn's estimators are not
    bootstrap's, and max_f1 is bootstrap's."""
    with pytest.raises(ValueError, match=r"unknown name 'auc_pr_dg'"):
        fastpr.bootstrap(Y, S, metric="auc_pr_dg", n_boot=2)
    with pytest.raises(ValueError, match=r"unknown name 'max_f1'"):
        FixedLabels(Y).metric(S, "max_f1")
    with pytest.raises(ValueError, match=r"max_f1 takes no level, got '0\.5'"):
        fastpr.bootstrap(Y, S, metric="max_f1@0.5", n_boot=2)


@pytest.mark.parametrize("metric", ["recall_at_precision@0.9", "auc_pr@0.2:0.8", "max_f1",
                                    "r_precision"])
def test_confidence_interval_refuses_what_it_has_no_rule_for(metric):
    with pytest.raises(ValueError, match=rf"the logit interval is for the whole PR areas "
                                         rf"\(metric 'auc_pr' or 'auc_npr'\), got "
                                         rf"metric={metric!r}; use fastpr.bootstrap"):
        fastpr.confidence_interval(Y, S, metric=metric)


def test_delong_refuses_a_partial_area():
    with pytest.raises(ValueError, match=r"DeLong's method is for metric='auc_roc', got "
                                         r"metric='auc_roc@0.1'"):
        fastpr.compare(Y, [S, S], metric="auc_roc@0.1", test="delong")


@pytest.mark.parametrize("metric", ["auc_pr@0.2:0.8", "auc_npr@0.2:0.8"])
def test_a_partial_pr_area_needs_the_interpolated_estimator(metric):
    with pytest.raises(ValueError, match=rf"metric={metric!r} is a partial area of the "
                                         r"interpolated curve; got method='hull'"):
        fastpr.bootstrap(Y, S, metric=metric, method="hull", n_boot=2)


@pytest.mark.parametrize("metric", ["precision_at_k@2", "recall_at_k@2", "r_precision"])
def test_top_k_replicates_refuse_sample_weights(metric):
    w = np.ones(len(Y))
    for call in (lambda: fastpr.bootstrap(Y, S, metric=metric, n_boot=2, sample_weight=w),
                 lambda: fastpr.compare(Y, [S, S], metric=metric, n_boot=2, sample_weight=w)):
        with pytest.raises(ValueError, match=rf"metric={metric!r} counts rows .* without "
                                             r"sample_weight"):
            call()
