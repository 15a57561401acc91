"""Operating points, top k and partial areas as ``metric=`` of bootstrap, compare and
fastpr.learn: every value equals the public function of that name on the same rows (the data
for the estimate, each replicate's resample for its value), through the gap-bin path (no
weights) and the weighted path alike."""
import math
import warnings

import numpy as np
import pytest

import fastpr
from fastpr import _validation, datasets
from fastpr._engine.kernels.draws import replicate_counts
from fastpr.learn import FixedLabels
from fastpr.learn import lightgbm as fastpr_lgb
from fastpr.learn import xgboost as fastpr_xgb
from boosting_data import BoostingData

OPERATING = ["recall_at_precision@0.5", "precision_at_recall@0.6", "tpr_at_fpr@0.1",
             "tnr_at_tpr@0.8"]
TOP_K = ["precision_at_k@40", "recall_at_k@40", "r_precision"]
PARTIAL = ["auc_roc@0.2", "auc_roc_mcclish@0.2", "auc_pr@0.2:0.7", "auc_npr@0.2:0.7"]
NEW = OPERATING + TOP_K + PARTIAL


def public(metric, y, s, w=None):
    """The metric by the public function of its name (NaN where undefined, quietly)."""
    spec = _validation.metric_spec(metric)
    name, levels = spec.name, spec.levels
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", fastpr.UndefinedMetricWarning)
        if name in ("recall_at_precision", "precision_at_recall", "tpr_at_fpr", "tnr_at_tpr"):
            return float(getattr(fastpr, name)(y, s, levels[0], sample_weight=w).value)
        if name in ("precision_at_k", "recall_at_k"):
            result = fastpr.top_k(y, s, levels[0], sample_weight=w)
            return float(result.precision if name == "precision_at_k" else result.recall)
        if name == "r_precision":
            return float(fastpr.top_k(y, s, "positives", sample_weight=w).precision)
        if name in ("auc_roc", "auc_roc_mcclish"):
            return float(fastpr.auc_roc(y, s, max_fpr=levels[0], sample_weight=w,
                                        mcclish=name == "auc_roc_mcclish"))
        if name == "auc_pr":
            return float(fastpr.auc_pr(y, s, recall_range=levels, sample_weight=w))
        if name == "auc_npr":
            return float(fastpr.auc_npr(y, s, recall_range=levels, sample_weight=w))
        assert name == "max_f1"
        return float(fastpr.max_f_beta(y, s, sample_weight=w).value)


def close(got, want):
    """Equal up to the rounding of sums in another order (NaN equals NaN)."""
    if math.isnan(want):
        return math.isnan(got)
    return got == pytest.approx(want, rel=1e-12, abs=1e-14)


# Each new metric unweighted and weighted, but for the top-k metrics, which count rows and are
# refused with weights (test_metric_names checks that refusal).
WEIGHTINGS = [(metric, weighted) for metric in NEW for weighted in (False, True)
              if not (weighted and metric in TOP_K)]


def tied_data(seed=0, n=300):
    """Scores rounded into ties, so that replicates sweep gap bins and tie groups."""
    y, s = datasets.skewed_ranking(n_samples=n, prevalence=0.2, seed=seed)
    return y, np.round(s, 1)


def repeated(y_r, s_r, w_r):
    """A replicate's rows, each example repeated by its count."""
    rows = np.repeat(np.arange(y_r.size), w_r.astype(np.int64))
    return y_r[rows], s_r[rows]


@pytest.mark.parametrize(("metric", "weighted"),
                         WEIGHTINGS + [("max_f1", False), ("max_f1", True)])
def test_estimate_and_each_replicate_equal_the_public_function(metric, weighted):
    y, s = tied_data()
    w = np.random.default_rng(1).integers(0, 4, y.size).astype(float) if weighted else None
    options = dict(seed=7, stratified=not weighted, sample_weight=w)
    result = fastpr.bootstrap(y, s, metric=metric, n_boot=8, interval="bca", **options)
    assert result.metric == metric
    assert close(result.estimate, public(metric, y, s, w))
    for r in range(8):
        y_r, s_r, w_r = fastpr.bootstrap_sample(y, s, r, **options)
        want = public(metric, y_r, s_r, w_r) if weighted else public(metric, *repeated(y_r, s_r,
                                                                                         w_r))
        assert close(result.replicates[r], want), r
    assert result.low <= result.high  # BCa: its jackknife read the same metric


@pytest.mark.parametrize(("metric", "weighted"), WEIGHTINGS)
def test_compare_applies_each_replicate_s_counts_to_both_models(metric, weighted):
    y, a = tied_data(seed=2, n=250)
    b = np.round(a + np.random.default_rng(3).normal(0, 1, a.size), 1)
    w = np.random.default_rng(4).integers(1, 4, y.size).astype(float) if weighted else None
    result = fastpr.compare(y, [a, b], metric=metric, n_boot=5, seed=9, interval="bca",
                            sample_weight=w)
    assert result.metric == metric
    for m, scores in enumerate((a, b)):
        assert close(result.estimates[m], public(metric, y, scores, w))
    n_pos, n_neg = int(y.sum()), int((~y).sum())
    labels = np.r_[np.ones(n_pos, bool), np.zeros(n_neg, bool)]
    for r in range(5):
        counts_pos, counts_neg = np.empty(n_pos), np.empty(n_neg)
        replicate_counts(np.uint64(9), r, True, False, np.empty(0, dtype=np.int64), counts_pos,
                         counts_neg)
        counts = np.r_[counts_pos, counts_neg]
        for m, scores in enumerate((a, b)):
            s_r = np.r_[scores[y], scores[~y]]
            want = (public(metric, labels, s_r, counts * np.r_[w[y], w[~y]]) if weighted
                    else public(metric, *repeated(labels, s_r, counts)))
            assert close(result.replicates[r, m], want), (r, m)
    assert np.all(result.low <= result.high)


def test_a_level_no_replicate_meets_leaves_them_undefined():
    # One tie group of half positives: precision 1/2 at the only threshold, in every stratified
    # replicate too.
    y, s = np.arange(40) % 2 == 0, np.full(40, 0.5)
    with pytest.warns(fastpr.UndefinedMetricWarning) as caught:
        result = fastpr.bootstrap(y, s, metric="recall_at_precision@0.9", n_boot=4, seed=1)
    assert [str(w.message).split(":")[0] for w in caught] == [
        "recall_at_precision@0.9 is undefined on the data as given",
        "Metrics are undefined for 4 of 4 bootstrap replicates"]
    assert math.isnan(result.estimate) and math.isnan(public("recall_at_precision@0.9", y, s))
    assert result.n_undefined == 4 and math.isnan(result.low)


def test_an_undefined_estimate_has_no_interval_and_the_warnings_say_why():
    """No threshold of the data reaches precision 0.9, but some replicates do: an interval of
    those alone would describe the lucky resamples (it gave [0.005, 0.024] around NaN)."""
    y, s = datasets.skewed_ranking()
    with pytest.warns(fastpr.UndefinedMetricWarning) as caught:
        result = fastpr.bootstrap(y, s, metric="recall_at_precision@0.9", n_boot=50, seed=7)
    assert math.isnan(result.estimate) and math.isnan(result.low) and math.isnan(result.high)
    assert 0 < result.n_undefined < 50
    messages = " ".join(str(w.message) for w in caught)
    assert ("recall_at_precision@0.9 is undefined on the data as given: no threshold meets its "
            "level" in messages)
    assert "no threshold of theirs meets the level of recall_at_precision@0.9" in messages
    b = s + np.random.default_rng(0).normal(0, 0.1, s.size)
    with pytest.warns(fastpr.UndefinedMetricWarning) as caught:
        comparison = fastpr.compare(y, [b, s], metric="recall_at_precision@0.9", n_boot=20,
                                    seed=7)
    assert any("undefined on the data as given for model" in str(w.message) for w in caught)
    assert np.isnan(comparison.low).all() and np.isnan(comparison.high).all()
    assert np.isnan(comparison.p_values).all()


# ----------------------------------------------------------------------------- fastpr.learn
@pytest.mark.parametrize("metric", NEW)
def test_fixed_labels_give_the_public_function_per_query_and_its_mean(metric):
    y, s = tied_data(seed=5, n=400)
    groups = np.random.default_rng(6).integers(0, 5, y.size)
    labels = FixedLabels(y, groups=groups)
    per_query = labels.metric(s, metric, average=None)
    want = [public(metric, y[groups == g], s[groups == g]) for g in range(5)]
    assert all(close(got, expected) for got, expected in zip(per_query, want))
    assert close(labels.metric(s, metric), float(np.nanmean(want)))
    assert close(FixedLabels(y).metric(s, metric), public(metric, y, s))
    if metric not in TOP_K:
        w = np.random.default_rng(7).random(y.size)
        assert close(FixedLabels(y, sample_weight=w).metric(s, metric), public(metric, y, s, w))


def test_fixed_labels_refuse_weights_for_the_top_k_metrics():
    labels = FixedLabels([1, 0, 1, 0], sample_weight=[1.0, 2.0, 1.0, 1.0])
    with pytest.raises(ValueError, match=r"name='precision_at_k@2' counts rows"):
        labels.metric([0.4, 0.3, 0.2, 0.1], "precision_at_k@2")


def test_a_ranking_without_negatives_has_no_value_as_for_the_areas():
    assert math.isnan(FixedLabels([1, 1, 1]).metric([0.3, 0.2, 0.1], "recall_at_precision@0.5"))


@pytest.mark.parametrize("metric", ["recall_at_precision@0.5", "precision_at_k@10",
                                    "auc_pr@0.2:0.8"])
def test_boosting_adapters_report_the_metric_under_its_name(metric):
    y, s = tied_data(seed=8)
    labels, scores = y.astype(np.float32), s.astype(np.float32)
    want = FixedLabels(y).metric(scores, metric)
    name, value = fastpr_xgb.Metric(metric)(scores, BoostingData(labels, np.array([]),
                                                                 np.array([])))
    assert (name, value) == (fastpr_xgb.reported_name(metric), want)
    assert name.startswith("auc")  # what XGBoost's scikit-learn wrappers maximise
    assert fastpr_lgb.Metric(metric)(scores, BoostingData(labels, None, None)) == (metric, want,
                                                                                    True)
    assert fastpr_xgb.SklearnMetric(metric).__name__ == name
