"""Bootstrap, analytic and DeLong intervals, paired comparisons and fold intervals.

The methods are defined in docs/math/intervals.rst.
"""
import math
import statistics
import warnings

import numba
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats as scipy_stats

import fastpr
from fastpr import datasets, intervals
from fastpr._engine.kernels.draws import replicate_counts
from fastpr._rankings import sort_ranking
import reference
from threads import needs_two_threads
from strategies import FEW


def _counts(y, s, seed, replicate, stratified=True):
    """One replicate's counts over each class's sorted examples, as bootstrap_sample gives
    them."""
    y_r, _, w_r = fastpr.bootstrap_sample(y, s, replicate, seed=seed, stratified=stratified)
    return w_r[y_r], w_r[~y_r]


def _example_counts(seed, replicate, n_pos, n_neg):
    """One replicate's counts of each class's examples in data order: what compare draws."""
    counts_pos, counts_neg = np.empty(n_pos), np.empty(n_neg)
    replicate_counts(np.uint64(seed), replicate, True, False, np.empty(0, dtype=np.int64),
                     counts_pos, counts_neg)
    return counts_pos, counts_neg


def _repeated(pos, neg, counts_pos, counts_neg):
    """The resample as explicit rows: each example repeated by its count."""
    rows_pos = np.repeat(pos, counts_pos.astype(np.int64))
    rows_neg = np.repeat(neg, counts_neg.astype(np.int64))
    y = np.concatenate([np.ones(rows_pos.size, bool), np.zeros(rows_neg.size, bool)])
    return y, np.concatenate([rows_pos, rows_neg])


@FEW
@given(st.integers(0, 2**63), st.sampled_from(["interpolated", "average_precision", "hull"]),
       st.booleans())
def test_each_replicate_is_the_metric_of_the_repeated_rows(seed, method, stratified):
    y, s = datasets.skewed_ranking(n_samples=400, prevalence=0.1, seed=seed % 1000)
    result = fastpr.bootstrap(y, s, method=method, n_boot=5, seed=seed, stratified=stratified)
    ranking = sort_ranking(y, s)
    for r in range(5):
        counts_pos, counts_neg = _counts(y, s, seed, r, stratified)
        rows = _repeated(ranking.pos, ranking.neg, counts_pos, counts_neg)
        assert result.replicates[r] == pytest.approx(fastpr.auc_pr(*rows, method=method),
                                                     rel=1e-12, abs=1e-15)


def test_max_f1_replicates_are_the_best_f1_of_the_repeated_rows():
    y, s = datasets.skewed_ranking(n_samples=600, prevalence=0.1, seed=2)
    result = fastpr.bootstrap(y, s, metric="max_f1", n_boot=4, seed=5, interval="bca")
    assert result.estimate == fastpr.max_f_beta(y, s).value
    ranking = sort_ranking(y, s)
    for r in range(4):
        rows = _repeated(ranking.pos, ranking.neg, *_counts(y, s, 5, r))
        assert result.replicates[r] == pytest.approx(fastpr.max_f_beta(*rows).value, rel=1e-12)


def test_max_f1_of_a_replicate_without_positives_is_undefined_as_for_its_rows():
    """Resampling all rows together can draw no positive; F1 is then undefined, as max_f_beta
    says of the replicate's rows: NaN and counted in n_undefined, like every other metric (the
    replicate kernel reported 0 there while the estimate's path reported NaN)."""
    y, s = [1, 0, 0, 0, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.5, 0.4]
    with pytest.warns(fastpr.UndefinedMetricWarning, match="drew no positives"):
        result = fastpr.bootstrap(y, s, metric="max_f1", n_boot=30, seed=3, stratified=False)
    expected = []
    for r in range(30):
        y_r, s_r, w_r = fastpr.bootstrap_sample(y, s, r, seed=3, stratified=False)
        rows = np.repeat(np.arange(y_r.size), w_r.astype(np.int64))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", fastpr.UndefinedMetricWarning)
            expected.append(fastpr.max_f_beta(y_r[rows], s_r[rows]).value)
    np.testing.assert_array_equal(result.replicates, expected)
    assert 0 < result.n_undefined == int(np.count_nonzero(np.isnan(expected)))


def test_paired_replicates_apply_the_same_counts_to_every_model():
    y, a = datasets.skewed_ranking(n_samples=300, prevalence=0.2, seed=4)
    b = -a + np.random.default_rng(1).normal(size=a.size)
    result = fastpr.compare(y, [a, b], metric="auc_roc", n_boot=4, seed=99)
    for r in range(4):
        counts_pos, counts_neg = _example_counts(99, r, int(y.sum()), int((~y).sum()))
        for m, scores in enumerate((a, b)):
            rows = _repeated(scores[y], scores[~y], counts_pos, counts_neg)
            assert result.replicates[r, m] == pytest.approx(fastpr.auc_roc(*rows), rel=1e-12)


@needs_two_threads
@pytest.mark.parametrize("weighted", [False, True])
def test_compare_sorts_its_models_side_by_side_as_one_thread_does(two_threads, weighted):
    """Above the threads' threshold each model's classes sort on their own thread: the replicates
    are those of one thread, and each is the metric of the repeated rows. The models tie
    differently: heavy ties across the classes (the stable sort), a few (the repaired quicksort),
    none, and -0.0 against 0.0."""
    rng = np.random.default_rng(8)
    n = 70_000  # three models: above the threshold of batch.threads_for
    y = rng.random(n) < 0.05
    base = rng.standard_normal(n) + y
    models = [np.round(base, 1), np.round(base + rng.normal(0, 0.1, n), 4), base[::-1].copy()]
    models[0][rng.integers(0, n, 100)] = -0.0
    models[0][rng.integers(0, n, 100)] = 0.0
    weights = rng.integers(0, 3, n).astype(float) if weighted else None
    numba.set_num_threads(1)
    one = fastpr.compare(y, models, metric="auc_roc", n_boot=6, seed=21, sample_weight=weights)
    numba.set_num_threads(2)
    two = fastpr.compare(y, models, metric="auc_roc", n_boot=6, seed=21, sample_weight=weights)
    np.testing.assert_array_equal(one.replicates, two.replicates)
    kept = np.ones(n, bool) if weights is None else weights > 0
    y_kept = y[kept]
    for r in range(2):
        counts_pos, counts_neg = _example_counts(21, r, int(y_kept.sum()), int((~y_kept).sum()))
        if weighted:
            counts_pos, counts_neg = counts_pos * weights[kept & y], counts_neg * weights[kept & ~y]
        for m, scores in enumerate(models):
            rows = _repeated(scores[kept & y], scores[kept & ~y], counts_pos, counts_neg)
            assert two.replicates[r, m] == pytest.approx(fastpr.auc_roc(*rows), rel=1e-12)


def test_result_depends_on_the_seed_alone_not_on_threads():
    y, s = datasets.skewed_ranking(n_samples=5000)
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = fastpr.bootstrap(y, s, n_boot=50, seed=3, interval="bca")
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        many = fastpr.bootstrap(y, s, n_boot=50, seed=3, interval="bca")
    finally:
        numba.set_num_threads(before)
    assert np.array_equal(one.replicates, many.replicates)
    assert (one.low, one.high) == (many.low, many.high)
    other = fastpr.bootstrap(y, s, n_boot=50, seed=4)
    assert not np.array_equal(one.replicates, other.replicates)
    drawn = fastpr.bootstrap(y, s, n_boot=20)
    again = fastpr.bootstrap(y, s, n_boot=20, seed=drawn.seed)
    assert np.array_equal(drawn.replicates, again.replicates)


def test_interval_rules_follow_their_definitions():
    y, s = datasets.skewed_ranking(n_samples=3000, prevalence=0.05)
    percentile = fastpr.bootstrap(y, s, n_boot=300, seed=2)
    basic = fastpr.bootstrap(y, s, n_boot=300, seed=2, interval="basic", confidence=0.9)
    low, high = np.quantile(percentile.replicates, [0.025, 0.975])
    assert (percentile.low, percentile.high) == (low, high)
    low, high = np.quantile(basic.replicates, [0.05, 0.95])
    assert basic.low == pytest.approx(2 * basic.estimate - high, rel=1e-14)
    assert basic.high == pytest.approx(2 * basic.estimate - low, rel=1e-14)


def test_bca_matches_the_textbook_formula_with_leave_one_out_jackknife():
    y, s = datasets.skewed_ranking(n_samples=80, prevalence=0.3, seed=8)  # < 100: exact LOO
    result = fastpr.bootstrap(y, s, n_boot=400, seed=5, interval="bca")
    ranking = sort_ranking(y, s)
    pos, neg = ranking.pos, ranking.neg
    jackknife = [fastpr.auc_pr(np.r_[np.ones(pos.size - 1, bool), np.zeros(neg.size, bool)],
                               np.r_[np.delete(pos, i), neg]) for i in range(pos.size)]
    jackknife += [fastpr.auc_pr(np.r_[np.ones(pos.size, bool), np.zeros(neg.size - 1, bool)],
                                np.r_[pos, np.delete(neg, j)]) for j in range(neg.size)]
    jackknife = np.array(jackknife)
    theta, values = result.estimate, result.replicates
    z0 = scipy_stats.norm.ppf(np.mean(values < theta) + 0.5 * np.mean(values == theta))
    d = jackknife.mean() - jackknife
    a = np.sum(d ** 3) / (6 * np.sum(d ** 2) ** 1.5)
    levels = [scipy_stats.norm.cdf(z0 + (z0 + z) / (1 - a * (z0 + z)))
              for z in scipy_stats.norm.ppf([0.025, 0.975])]
    assert (result.low, result.high) == pytest.approx(tuple(np.quantile(values, levels)),
                                                      rel=1e-9)


def test_bca_counts_replicates_that_tie_with_the_estimate_as_half_below():
    """z0 = Phi^-1(share below + half the share equal). On tied scores many replicates equal the
    estimate (382 of 2,000 here): counting them as above or as below moves the lower bound from
    about 0.714 to elsewhere. Oracle: z0 from the replicates, the acceleration from a
    leave-one-out jackknife counted pair by pair (reference.py), as the textbook writes them."""
    y = np.array([1, 1, 0, 0, 0, 0, 1, 0, 0, 0], bool)
    s = np.array([3, 2, 2, 1, 1, 1, 3, 0, 0, 2], float)
    result = fastpr.bootstrap(y, s, metric="auc_roc", n_boot=2000, seed=1, interval="bca")
    theta, values = result.estimate, result.replicates
    assert theta == float(reference.auc_roc_pairwise(y, s))
    assert np.count_nonzero(values == theta) > 300  # the case needs many ties
    # Leave-one-out (10 examples < 100 groups), each deletion counted pair by pair.
    jackknife = np.array([float(reference.auc_roc_pairwise(np.delete(y, i), np.delete(s, i)))
                          for i in range(y.size)])
    z0 = scipy_stats.norm.ppf(np.mean(values < theta) + 0.5 * np.mean(values == theta))
    d = jackknife.mean() - jackknife
    a = np.sum(d ** 3) / (6 * np.sum(d ** 2) ** 1.5)
    levels = [scipy_stats.norm.cdf(z0 + (z0 + z) / (1 - a * (z0 + z)))
              for z in scipy_stats.norm.ppf([0.025, 0.975])]
    expected = tuple(np.quantile(values, levels))
    assert (result.low, result.high) == pytest.approx(expected, rel=1e-9)
    assert result.low == pytest.approx(0.714, abs=5e-4)


def test_bca_keeps_its_bounds_in_order_where_the_formula_turns_back():
    # At this confidence 1 - a (z0 + z) < 0 for the upper level: the textbook formula's level
    # falls back below the lower one (low 0.2093 > high 0.2090, the estimate outside). Its
    # limit as the factor reaches 0 is the highest replicate.
    y = [1, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0]
    s = [0.4, 0.5, 3.7, 0.4, 0.4, -0.2, 0.6, -0.1, -0.1, 0.2, 2.3]
    result = fastpr.bootstrap(y, s, n_boot=200, seed=119, interval="bca", confidence=1 - 1e-12)
    assert result.low <= result.estimate <= result.high == result.replicates.max()


def test_bca_leaves_out_jackknife_deletions_whose_metric_is_undefined():
    # Deleting a class's only example: its acceleration was taken as 0 for any NaN.
    rng = np.random.default_rng(3)
    values, jackknife = rng.random(300), rng.random(20)
    with_undefined = np.r_[jackknife, np.nan]
    assert intervals._bootstrap_bounds(0.5, values, with_undefined, 0.9, "bca") == (
        intervals._bootstrap_bounds(0.5, values, jackknife, 0.9, "bca"))
    assert intervals._bootstrap_bounds(0.5, values, jackknife, 0.9, "bca") != (
        intervals._bootstrap_bounds(0.5, values, np.zeros(20), 0.9, "bca"))


def test_confidence_next_to_1_gives_finite_intervals_around_the_estimate():
    # 0.5 + confidence / 2 rounds to 1 here: NormalDist.inv_cdf raised StatisticsError.
    confidence = float(np.nextafter(1.0, 0.0))
    y, s = [1, 0, 1, 0, 1, 0], [0.1, 0.2, 0.3, 0.4, 0.5, 0.05]
    results = [fastpr.delong(y, s, confidence=confidence),
               fastpr.bootstrap(y, s, n_boot=50, seed=1, interval="bca", confidence=confidence)]
    results += [fastpr.confidence_interval(y, s, rule=rule, confidence=confidence)
                for rule in ("binomial", "logit")]
    for result in results:
        assert 0.0 <= result.low <= result.estimate <= result.high <= 1.0
    folds = fastpr.fold_interval([0.5, 0.6, 0.7], confidence=confidence)
    assert math.isfinite(folds.low) and folds.low < 0.6 < folds.high
    paired = fastpr.compare(y, [s, s[::-1]], metric="auc_roc", test="delong",
                            confidence=confidence)
    assert np.isfinite(paired.low).all() and (paired.low <= paired.differences).all()


def test_delong_with_one_example_of_a_class_is_undefined():
    # The sample variance of one placement was taken as 0: [-1, -1] and p = 0 for two models
    # of one positive and one negative, p = 6e-5 with three negatives.
    y, a, b = [1, 0, 0, 0], [0.9, 0.1, 0.2, 0.3], [0.1, 0.9, 0.2, 0.3]
    with pytest.warns(fastpr.UndefinedMetricWarning, match="two positives and two negatives"):
        single = fastpr.delong(y, a)
    assert single.estimate == 1.0 and math.isnan(single.low) and math.isnan(single.high)
    with pytest.warns(fastpr.UndefinedMetricWarning, match="two positives and two negatives"):
        paired = fastpr.compare(y, [a, b], metric="auc_roc", test="delong")
    assert np.isnan(paired.low).all() and np.isnan(paired.p_values).all()
    assert paired.differences.tolist() == [-1.0]


def test_compare_warns_about_undefined_replicates_as_bootstrap_does():
    y, scores = [1, 0, 0, 1, 0], [[0.5, 0.1, 0.2, 0.3, 0.4], [0.1, 0.5, 0.2, 0.3, 0.9]]
    with pytest.warns(fastpr.UndefinedMetricWarning, match=r"undefined for 16 of 200 bootstrap"):
        result = fastpr.compare(y, scores, n_boot=200, seed=1, stratified=False,
                                metric="auc_roc")
    assert np.isnan(result.replicates).any(axis=1).sum() == 16
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # (no NumPy std of nothing)
        with pytest.warns(fastpr.UndefinedMetricWarning, match=r"undefined for 2 of 2"):
            none = fastpr.compare([1, 0], [[0.5, 0.1], [0.1, 0.5]], n_boot=2, seed=2,
                                  stratified=False, metric="auc_roc")
    assert np.isnan(none.p_values).all() and np.isnan(none.low).all()


def test_auc_npr_replicates_use_each_replicates_floor():
    y, s = datasets.skewed_ranking(n_samples=500, prevalence=0.1, seed=1)
    result = fastpr.bootstrap(y, s, metric="auc_npr", n_boot=3, seed=6, stratified=False)
    ranking = sort_ranking(y, s)
    for r in range(3):
        counts = _counts(y, s, 6, r, stratified=False)
        rows = _repeated(ranking.pos, ranking.neg, *counts)
        assert result.replicates[r] == pytest.approx(fastpr.auc_npr(*rows), rel=1e-10)


def _pairwise_placements(pos, neg):
    of_pos = np.array([(np.sum(neg < p) + 0.5 * np.sum(neg == p)) / neg.size for p in pos])
    of_neg = np.array([(np.sum(pos > q) + 0.5 * np.sum(pos == q)) / pos.size for q in neg])
    return of_pos, of_neg


@FEW
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 6), st.integers(0, 6)), min_size=4,
                max_size=40))
def test_delong_against_pairwise_placements(rows):
    y = np.array([r[0] for r in rows] + [True, True, False, False])
    a = np.array([r[1] for r in rows] + [1, 5, 2, 0], dtype=float)
    b = np.array([r[2] for r in rows] + [3, 4, 4, 1], dtype=float)
    single = fastpr.delong(y, a, confidence=0.9)
    pos_a, neg_a = _pairwise_placements(a[y], a[~y])
    pos_b, neg_b = _pairwise_placements(b[y], b[~y])
    variance_a = np.var(pos_a, ddof=1) / pos_a.size + np.var(neg_a, ddof=1) / neg_a.size
    half = scipy_stats.norm.ppf(0.95) * math.sqrt(variance_a)
    assert single.estimate == pytest.approx(fastpr.auc_roc(y, a), rel=1e-14)
    assert single.low == pytest.approx(max(0.0, pos_a.mean() - half), abs=1e-12)
    assert single.high == pytest.approx(min(1.0, pos_a.mean() + half), abs=1e-12)
    paired = fastpr.compare(y, [a, b], metric="auc_roc", test="delong")
    variance_b = np.var(pos_b, ddof=1) / pos_b.size + np.var(neg_b, ddof=1) / neg_b.size
    covariance = (np.cov(pos_a, pos_b)[0, 1] / pos_a.size + np.cov(neg_a, neg_b)[0, 1] /
                  neg_a.size)
    difference = pos_b.mean() - pos_a.mean()
    error = math.sqrt(max(variance_a + variance_b - 2 * covariance, 0.0))
    assert paired.differences[0] == pytest.approx(difference, abs=1e-12)
    expected_p = 2 * scipy_stats.norm.sf(abs(difference) / error) if error > 1e-12 else None
    if expected_p is not None:
        assert paired.p_values[0] == pytest.approx(expected_p, rel=1e-6, abs=1e-12)


def test_p_values_far_in_the_tail_are_never_zero():
    """The normal tail as 1 + erf(-x) rounded to 0 from |z| = 8.3 on: p = [0, 0] here, where
    z is 27 and 46. Now erfc of the z score, and past what a double holds the smallest
    positive double as a bound."""
    rng = np.random.default_rng(0)
    y = rng.random(20_000) < 0.3
    good, weak, noise = y + rng.normal(0, 1, y.size), y + rng.normal(0, 3, y.size), rng.random(
        y.size)
    result = fastpr.compare(y, [good, weak, noise], n_boot=50, seed=1)
    replicate_differences = result.replicates[:, 1:] - result.replicates[:, :1]
    z = np.abs(result.differences) / np.std(replicate_differences, axis=0, ddof=1)
    assert 20 < z[0] < 38 < z[1]
    expected = 2 * scipy_stats.norm.sf(z)
    assert result.p_values[0] == pytest.approx(expected[0], rel=1e-9, abs=0)
    assert expected[1] == 0.0 and result.p_values[1] == math.ulp(0.0)
    # DeLong's test takes the same tail, and a difference with no spread is not p = 0 either.
    delong = fastpr.compare(y, [good, noise], metric="auc_roc", test="delong")
    assert 0.0 < delong.p_values[0] <= 1e-300
    assert intervals._two_sided_p(0.1, 0.0) == math.ulp(0.0)
    assert intervals._two_sided_p(0.0, 0.0) == 1.0 and math.isnan(
        intervals._two_sided_p(0.1, math.nan))


def test_identical_models_do_not_differ():
    y, s = datasets.skewed_ranking(n_samples=2000)
    result = fastpr.compare(y, [s, s.copy()], n_boot=50, seed=1)
    assert np.all(result.replicates[:, 0] == result.replicates[:, 1])
    assert result.differences[0] == 0 and result.p_values[0] == 1.0


def test_analytic_intervals_follow_boyd_et_al():
    y, s = datasets.skewed_ranking(n_samples=5000, prevalence=0.05, seed=2)
    e = fastpr.evaluate(y, s)
    z = statistics.NormalDist().inv_cdf(0.975)
    error = math.sqrt(e.auc_pr * (1 - e.auc_pr) / e.n_pos)
    binomial = fastpr.confidence_interval(y, s, rule="binomial")
    assert (binomial.low, binomial.high) == pytest.approx((e.auc_pr - z * error,
                                                           e.auc_pr + z * error), rel=1e-12)
    logit = fastpr.confidence_interval(y, s, rule="logit")
    centre = math.log(e.auc_pr / (1 - e.auc_pr))
    half = z * error / (e.auc_pr * (1 - e.auc_pr))
    expected = (1 / (1 + math.exp(-(centre - half))), 1 / (1 + math.exp(-(centre + half))))
    assert (logit.low, logit.high) == pytest.approx(expected, rel=1e-12)
    assert logit.low < e.auc_pr < logit.high


def test_logit_interval_of_light_positives_spans_the_unit_interval():
    # Positives weighing 2e-5 in all: the standard error is huge on the logit scale, whose
    # lower end was an OverflowError in math.exp. The ends are the logistic of the bounds.
    interval = fastpr.confidence_interval([1, 0, 1, 0], [4, 3, 2, 1], rule="logit",
                                          sample_weight=[1e-5] * 4)
    assert (interval.low, interval.high) == (0.0, 1.0)
    assert interval.estimate == pytest.approx(fastpr.auc_pr([1, 0, 1, 0], [4, 3, 2, 1]), rel=1e-15)
    light = fastpr.confidence_interval([1, 0, 1, 0], [4, 3, 2, 1], rule="logit",
                                       sample_weight=[1e-3] * 4)
    assert 0.0 < light.low < 1e-40 and light.high == pytest.approx(1.0, abs=1e-15)


@pytest.mark.parametrize("rule", ["binomial", "logit"])
@pytest.mark.parametrize("y, s, metric, weight", [
    ([0, 0, 1], [0.1, 0.2, 0.8], "auc_pr", None),  # AUC-PR 1 over one positive
    ([0, 1, 0, 1, 1], [0.1, 0.9, 0.2, 0.8, 0.7], "auc_pr", [1, 2, 1, 0.5, 1]),
    ([1, 1, 0, 0], [0.1, 0.2, 0.5, 0.8], "auc_npr", None),  # the worst ranking: 0
])
def test_analytic_interval_at_0_or_1_is_clopper_pearsons(rule, y, s, metric, weight):
    """Both rules' standard error sqrt(theta (1 - theta) / P) vanishes at the ends: the interval
    was [1, 1] (a point, claiming certainty from one positive). There it is the exact
    Clopper-Pearson interval of P successes (or none) in P trials, a beta quantile."""
    interval = fastpr.confidence_interval(y, s, rule=rule, metric=metric, confidence=0.9,
                                          sample_weight=weight)
    n_pos = float(np.dot(y, np.ones(len(y)) if weight is None else weight))
    if interval.estimate == 1.0:
        expected = (scipy_stats.beta.ppf(0.05, n_pos, 1), 1.0)
    else:
        assert interval.estimate == 0.0
        expected = (0.0, scipy_stats.beta.ppf(0.95, 1, n_pos))
    assert (interval.low, interval.high) == pytest.approx(expected, rel=1e-12)
    assert interval.high - interval.low > 0.3


def test_confidence_interval_has_only_the_analytic_rules():
    # The bootstrap and DeLong's interval have their own functions, and interval= was never
    # released under that name.
    y, s = datasets.skewed_ranking(n_samples=500, seed=3)
    for rule in ("bootstrap", "delong"):
        with pytest.raises(ValueError, match=r"rule must be one of 'binomial', 'logit'"):
            fastpr.confidence_interval(y, s, rule=rule)
    with pytest.raises(TypeError, match=r"interval"):
        fastpr.confidence_interval(y, s, interval="binomial")


def test_fold_interval_is_the_student_t_interval():
    values = [0.61, 0.58, 0.66, 0.63, 0.60, 0.59]
    result = fastpr.fold_interval(values, confidence=0.9)
    expected = scipy_stats.t.interval(0.9, len(values) - 1, loc=np.mean(values),
                                      scale=scipy_stats.sem(values))
    assert (result.low, result.high) == pytest.approx(expected, rel=1e-12)


def test_intervals_cover_the_true_binormal_area():
    # Small version of bench/coverage.py: 60 data sets of 1,000 rows at prevalence 0.2.
    truth = datasets.binormal_auc_pr(0.2, separation=1.5)
    hits = {"percentile": 0, "logit": 0}
    for seed in range(60):
        y, s = datasets.binormal(1000, 0.2, separation=1.5, seed=seed)
        b = fastpr.bootstrap(y, s, n_boot=200, seed=seed)
        logit = fastpr.confidence_interval(y, s, rule="logit")
        hits["percentile"] += b.low <= truth <= b.high
        hits["logit"] += logit.low <= truth <= logit.high
    for name, count in hits.items():
        assert 0.8 <= count / 60 <= 1.0, (name, count)


def test_progress_bar_runs(capsys):
    y, s = datasets.skewed_ranking(n_samples=1000)
    result = fastpr.bootstrap(y, s, n_boot=130, seed=1, progress=True)
    assert result.replicates.shape == (130,)
    assert "130/130" in capsys.readouterr().err


def test_missing_progress_dependency_names_the_extra(monkeypatch):
    import fastpr._optional as optional
    monkeypatch.setattr(optional.importlib, "import_module", _missing)
    y, s = datasets.skewed_ranking(n_samples=1000)
    with pytest.raises(ImportError, match=r'pip install "fastpr\[progress\]"'):
        fastpr.bootstrap(y, s, n_boot=10, progress=True)


def _missing(name):
    raise ImportError(name)


Y, S = [1, 0, 1, 0], [0.9, 0.8, 0.3, 0.1]


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: fastpr.bootstrap(Y, S, metric="f1"), ValueError,
         r"metric='f1': unknown name 'f1'\. metric takes one of 'auc_pr', 'auc_roc', "
         r"'auc_npr', 'max_f1', or one of 'recall_at_precision@P'"),
        (lambda: fastpr.bootstrap(Y, S, interval="normal"), ValueError,
         r"interval must be one of 'percentile', 'basic', 'bca'"),
        (lambda: fastpr.bootstrap(Y, S, n_boot=1), ValueError, r"n_boot must be >= 2, got 1"),
        (lambda: fastpr.bootstrap(Y, S, n_boot=10.0), TypeError, r"n_boot must be an integer"),
        (lambda: fastpr.bootstrap(Y, S, confidence=95), ValueError,
         r"confidence must be in the open interval \(0, 1\), got 95"),
        (lambda: fastpr.bootstrap(Y, S, seed=-1), ValueError, r"seed must be >= 0, got -1"),
        # A string was read as True (stratified="no" stratified), None as False.
        (lambda: fastpr.bootstrap(Y, S, stratified="no"), TypeError,
         r"stratified must be True or False, got 'no'"),
        (lambda: fastpr.compare(Y, [S, S], stratified=None), TypeError,
         r"stratified must be True or False, got None"),
        (lambda: fastpr.bootstrap(Y, S, progress=2), TypeError,
         r"progress must be True, a string or False, got 2"),
        (lambda: fastpr.bootstrap_sample(Y, S, 2**63, seed=1), ValueError,
         r"replicate must be <= 9223372036854775807"),
        (lambda: fastpr.bootstrap(Y, S, resampling="jackknife"), ValueError,
         r"resampling must be one of 'multinomial', 'poisson'"),
        (lambda: fastpr.bootstrap([1, 1], [0.2, 0.1]), ValueError,
         r"y_true has no negatives .* cannot bootstrap an interval"),
        (lambda: fastpr.compare(Y, [S]), ValueError, r"y_scores must hold two or more models"),
        (lambda: fastpr.compare(Y, [S, S[:3]]), ValueError,
         r"y_true and y_scores\[1\] have different lengths: 4 and 3"),
        (lambda: fastpr.compare(Y, [S, S], test="delong"), ValueError,
         r"DeLong's method is for metric='auc_roc', got metric='auc_pr'"),
        (lambda: fastpr.confidence_interval(Y, S, rule="logit", metric="auc_roc"), ValueError,
         r"the logit interval is for the whole PR areas"),
        (lambda: fastpr.fold_interval([0.5]), ValueError, r"values must hold at least two folds"),
        (lambda: fastpr.fold_interval([0.5, np.nan]), ValueError,
         r"values must be finite, got nan at index 1"),
    ],
)
def test_bad_arguments_are_named(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_examples_of_weight_zero_are_absent_from_the_bootstrap_pool():
    # Weight 0 means the row is not there: the replicates must equal those of the data without
    # such rows, as compare's are (before, bootstrap drew them and they diluted every replicate).
    rng = np.random.default_rng(11)
    y = rng.random(200) < 0.3
    s = rng.normal(size=200) + y
    w = rng.integers(1, 4, size=200).astype(float)
    y_zero = np.r_[y, np.zeros(150, bool), np.ones(20, bool)]
    s_zero = np.r_[s, rng.normal(size=170)]
    w_zero = np.r_[w, np.zeros(170)]
    for metric in ("auc_pr", "auc_roc"):
        with_zeros = fastpr.bootstrap(y_zero, s_zero, sample_weight=w_zero, metric=metric,
                                      n_boot=50, seed=3)
        without = fastpr.bootstrap(y, s, sample_weight=w, metric=metric, n_boot=50, seed=3)
        np.testing.assert_array_equal(with_zeros.replicates, without.replicates)
        paired = [fastpr.compare(labels, np.vstack([scores, -scores]), sample_weight=weights,
                                 metric=metric, n_boot=50, seed=3).replicates
                  for labels, scores, weights in ((y_zero, s_zero, w_zero), (y, s, w))]
        np.testing.assert_array_equal(*paired)
    sample = fastpr.bootstrap_sample(y_zero, s_zero, 7, seed=3, sample_weight=w_zero)
    expected = fastpr.bootstrap_sample(y, s, 7, seed=3, sample_weight=w)
    for got, want in zip(sample, expected):
        np.testing.assert_array_equal(got, want)
