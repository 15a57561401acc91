"""Bootstrap counts against an independent oracle of their random stream, their distribution,
and every bootstrap and compare metric against the slow oracles on the resampled rows."""
import functools
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats as scipy_stats

import fastpr
import reference as ref
from fastpr._engine.kernels import resample
from fastpr.intervals import METRICS
from strategies import SETTINGS

SEED = 20240611
# (stratified, poisson): the three ways draw_counts resamples.
MODES = [(True, False), (False, False), (True, True)]
MODE_IDS = ["stratified", "pooled", "poisson"]


def _kernel_counts(seed, replicate, n_pos, n_neg, stratified, poisson):
    counts_pos, counts_neg = np.empty(n_pos), np.empty(n_neg)
    resample.draw_counts(np.uint64(seed), replicate, stratified, poisson, counts_pos, counts_neg)
    return counts_pos, counts_neg


def test_the_oracles_hash_is_splitmix64():
    """SplitMix64's published first outputs for seed 1234567 (Rosetta Code, "Pseudo-random
    numbers/Splitmix64"): state k adds k golden gammas to the seed, the output hashes it."""
    published = [6457827717110365317, 3203168211198807973, 9817491932198370423,
                 4593380528125082431, 16408922859458223821]
    states = [(1234567 + k * 0x9E3779B97F4A7C15) % 2**64 for k in range(1, 6)]
    assert [ref.splitmix64_finaliser(state) for state in states] == published


@SETTINGS
@given(st.integers(0, 2**64 - 1), st.integers(0, 2**63 - 1), st.integers(0, 30),
       st.integers(0, 30), st.sampled_from(MODES))
def test_draw_counts_are_the_documented_stream(seed, replicate, n_pos, n_neg, mode):
    counts_pos, counts_neg = _kernel_counts(seed, replicate, n_pos, n_neg, *mode)
    expected_pos, expected_neg = ref.bootstrap_counts(seed, replicate, n_pos, n_neg, *mode)
    assert counts_pos.tolist() == expected_pos
    assert counts_neg.tolist() == expected_neg


@pytest.mark.parametrize("n_pos, n_neg", [(1, 2), (5, 12), (40, 1000)])
@pytest.mark.parametrize("stratified, poisson", MODES, ids=MODE_IDS)
def test_every_sorted_position_is_drawn_with_probability_one_over_n(n_pos, n_neg, stratified,
                                                                    poisson):
    """Summed over replicates, each position (first and last included) expects one draw per
    replicate in every mode. The seed is fixed and the bar is p = 1e-6, so an honest stream
    passes, while a position never drawn adds the number of replicates to Pearson's statistic."""
    n_replicates = 2000
    observed = np.zeros(n_pos + n_neg)
    for r in range(n_replicates):
        observed += np.concatenate(_kernel_counts(SEED, r, n_pos, n_neg, stratified, poisson))
    statistic = np.sum((observed - n_replicates) ** 2) / n_replicates
    # Fixed totals take a degree of freedom: one per class (stratified), one in all (pooled).
    dof = n_pos + n_neg - (0 if poisson else 2 if stratified else 1)
    assert scipy_stats.chi2.sf(statistic, dof) > 1e-6, (statistic, dof)


def test_poisson_counts_have_poisson_one_probabilities_mean_and_variance():
    n = 1_000_000
    _, counts = _kernel_counts(SEED, 0, 0, n, True, True)
    for k in range(7):
        p = math.exp(-1) / math.factorial(k)
        assert abs(np.mean(counts == k) - p) < 4 * math.sqrt(p * (1 - p) / n), k
    assert abs(counts.mean() - 1) < 4 * math.sqrt(1 / n)
    # The sample variance of Poisson(1) has variance (mu_4 - 1) / n with mu_4 = 4.
    assert abs(counts.var() - 1) < 4 * math.sqrt(3 / n)


def test_count_vectors_have_the_right_totals_and_spread():
    counts_pos, counts_neg = _kernel_counts(5, 0, 1000, 99_000, True, False)
    assert counts_pos.sum() == 1000 and counts_neg.sum() == 99_000
    # Multinomial with n draws over n slots: about a share e^-1 of slots get none.
    assert abs(np.mean(counts_neg == 0) - math.exp(-1)) < 0.01
    pooled_pos, pooled_neg = _kernel_counts(5, 0, 1000, 99_000, False, False)
    assert pooled_pos.sum() + pooled_neg.sum() == 100_000 and pooled_pos.sum() != 1000


def test_uniform_streams_look_uniform_and_independent():
    key = np.uint64(resample.stream_key(11, 0, 1))
    u = np.array([resample.uniform(key, k) for k in range(20_000)])
    assert scipy_stats.kstest(u, "uniform").pvalue > 1e-3
    assert abs(np.corrcoef(u[:-1], u[1:])[0, 1]) < 0.03
    other = np.uint64(resample.stream_key(11, 1, 1))
    v = np.array([resample.uniform(other, k) for k in range(20_000)])
    assert abs(np.corrcoef(u, v)[0, 1]) < 0.03


# --------------------------------------------------------------------------- every metric
ORACLE_FIELDS = {
    "interpolated": "auc_pr",
    "davis_goadrich": "auc_pr_dg",
    "average_precision": "average_precision",
    "lower_trapezoid": "auc_pr_lower",
    "upper_trapezoid": "auc_pr_upper",
    "linear": "auc_pr_linear",
    "hull": "auc_pr_hull",
}
_RNG = np.random.default_rng(5)
Y = np.array([1, 0, 1, 1, 0, 0, 0, 1, 0, 1, 0, 0, 1, 0], bool)
SCORES = _RNG.integers(0, 5, size=(2, Y.size)).astype(float)  # two models, many ties
WEIGHTS = _RNG.integers(1, 4, size=Y.size).astype(float)
N_BOOT = 3
# (stratified, resampling, weighted)
OPTIONS = [(True, "multinomial", False), (False, "multinomial", True), (True, "poisson", False)]
OPTION_IDS = ["stratified", "pooled-weighted", "poisson"]


def test_the_oracle_covers_every_method():
    assert set(ORACLE_FIELDS) == set(fastpr.PR_METHODS)


@functools.lru_cache(maxsize=None)
def _oracle(y, s, w):
    """{(metric, method): value} of one weighted ranking (tuples), from the slow oracles."""
    e = ref.evaluation(y, s, w)
    floor = ref.evaluation(*ref.worst_ranking(int(e["n_pos"]), int(e["n_neg"])))
    f1 = ref.best_f1(y, s, w)
    values = {}
    for method, field in ORACLE_FIELDS.items():
        values["auc_pr", method] = float(e[field])
        values["auc_npr", method] = float((e[field] - floor[field]) / (1 - floor[field]))
        values["auc_roc", method] = float(e["auc_roc"])
        values["max_f1", method] = float(f1)
    return values


def _oracle_values(scores, weights):
    return _oracle(tuple(Y.tolist()), tuple(scores.tolist()), tuple(weights.tolist()))


def _replicate_weights(replicate, stratified, resampling, weights, scores=None):
    """Each example's weight in a replicate: its count from the stream oracle times its weight.

    With ``scores``, counts apply to each class's sorted positions (bootstrap); without, to
    the class's examples in data order (compare, whose models share the counts)."""
    rows = []
    for in_class in (Y, ~Y):
        index = np.flatnonzero(in_class)
        if scores is not None:
            index = index[ref.sorted_positions(scores[index])]
        rows.append(index)
    counts = ref.bootstrap_counts(SEED, replicate, rows[0].size, rows[1].size, stratified,
                                  resampling == "poisson")
    per_example = np.zeros(Y.size)
    for index, class_counts in zip(rows, counts):
        per_example[index] = class_counts
    return per_example * weights


@pytest.mark.parametrize("metric", METRICS)
@pytest.mark.parametrize("stratified, resampling, weighted", OPTIONS, ids=OPTION_IDS)
def test_bootstrap_replicates_are_the_oracle_on_the_resampled_rows(metric, stratified,
                                                                   resampling, weighted):
    scores = SCORES[0]
    weights = WEIGHTS if weighted else np.ones(Y.size)
    replicate_weights = [_replicate_weights(r, stratified, resampling, weights, scores)
                         for r in range(N_BOOT)]
    for method in fastpr.PR_METHODS:
        result = fastpr.bootstrap(Y, scores, metric=metric, method=method, n_boot=N_BOOT,
                                  seed=SEED, stratified=stratified, resampling=resampling,
                                  sample_weight=weights if weighted else None)
        expected = [_oracle_values(scores, w)[metric, method] for w in replicate_weights]
        np.testing.assert_allclose(result.replicates, expected, rtol=1e-9, atol=1e-12,
                                   err_msg=method)
        assert result.estimate == pytest.approx(_oracle_values(scores, weights)[metric, method],
                                                rel=1e-9, abs=1e-12), method


@pytest.mark.parametrize("metric", METRICS)
@pytest.mark.parametrize("stratified, resampling, weighted", OPTIONS, ids=OPTION_IDS)
def test_compare_replicates_are_the_oracle_on_the_resampled_rows(metric, stratified,
                                                                 resampling, weighted):
    weights = WEIGHTS if weighted else np.ones(Y.size)
    replicate_weights = [_replicate_weights(r, stratified, resampling, weights)
                         for r in range(N_BOOT)]
    for method in fastpr.PR_METHODS:
        result = fastpr.compare(Y, SCORES, metric=metric, method=method, n_boot=N_BOOT,
                                seed=SEED, stratified=stratified, resampling=resampling,
                                sample_weight=weights if weighted else None)
        expected = [[_oracle_values(scores, w)[metric, method] for scores in SCORES]
                    for w in replicate_weights]
        np.testing.assert_allclose(result.replicates, expected, rtol=1e-9, atol=1e-12,
                                   err_msg=method)
        estimates = [_oracle_values(scores, weights)[metric, method] for scores in SCORES]
        np.testing.assert_allclose(result.estimates, estimates, rtol=1e-9, atol=1e-12,
                                   err_msg=method)
