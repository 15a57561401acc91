"""Bootstrap counts: the random streams against an independent oracle, the samplers and the
count layouts by their distributions, the gap bins' exactness, and every bootstrap and compare
metric against the slow oracles on the replicate's rows."""
import functools
import math

import mpmath
import numba
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats as scipy_stats

import fastpr
import reference as ref
from compiled import called_from_compiled_code
from fastpr._engine.kernels import draws, uniforms, variates
from fastpr._engine.kernels.gap_bins import gap_bin_starts
from fastpr.intervals import METRICS
from strategies import FEW, SETTINGS
from evaluations import gap_binned

SEED = 20240611
binomial, poisson, bin_totals_into = map(called_from_compiled_code, (
    variates.binomial, variates.poisson, draws.bin_totals_into))
stirling_remainder, log_poisson_probability, log_binomial_ratio = map(called_from_compiled_code, (
    variates.stirling_remainder, variates.log_poisson_probability, variates.log_binomial_ratio))
stream_key, substream_key, uniform = map(called_from_compiled_code, (
    uniforms.stream_key, uniforms.substream_key, uniforms.uniform))
# Statistical tests run at fixed seeds and fail below this p-value: an honest sampler passes,
# while a wrong probability of even a fraction of a percent fails at these sample sizes.
P_VALUE_FLOOR = 1e-6
# (stratified, poisson): the three ways a replicate resamples.
MODES = [(True, False), (False, False), (True, True)]
MODE_IDS = ["stratified", "pooled", "poisson"]
BY_BLOCKS = np.empty(0, dtype=np.int64)  # bin starts that ask for per-example draws by blocks


def _counts(seed, replicate, n_pos, n_neg, stratified, poisson, bin_starts=BY_BLOCKS):
    counts_pos, counts_neg = np.empty(n_pos), np.empty(n_neg)
    draws.replicate_counts(np.uint64(seed), replicate, stratified, poisson, bin_starts,
                           counts_pos, counts_neg)
    return counts_pos, counts_neg


def _random_bin_starts(n, n_bins, rng):
    """Starts of n_bins runs (some of one example) covering n examples, then n."""
    cuts = np.sort(rng.choice(np.arange(1, n), size=n_bins - 1, replace=False))
    return np.r_[0, cuts, n].astype(np.int64)


def _chi_square_p_value(values, distribution, n_cells=40):
    """Pearson's test of integer draws against a scipy distribution, on cells of about equal
    probability cut at its quantiles; a draw where the distribution has no mass fails."""
    edges = np.unique(distribution.ppf(np.linspace(0.0, 1.0, n_cells + 1)[1:-1]))
    probabilities = np.diff(np.r_[0.0, distribution.cdf(edges), 1.0])
    observed = np.bincount(np.searchsorted(edges, values), minlength=edges.size + 1)
    possible = probabilities > 0
    assert not observed[~possible].any(), "draws where the distribution has no mass"
    expected = probabilities[possible] * len(values)
    statistic = np.sum((observed[possible] - expected) ** 2 / expected)
    return scipy_stats.chi2.sf(statistic, possible.sum() - 1)


def _pearson_p_value(observed, expected, dof):
    return scipy_stats.chi2.sf(np.sum((observed - expected) ** 2 / expected), dof)


# --------------------------------------------------------------------------- the streams
def test_the_oracles_hash_is_splitmix64():
    """SplitMix64's published first outputs for seed 1234567 (Rosetta Code, "Pseudo-random
    numbers/Splitmix64"): state k adds k golden gammas to the seed, the output hashes it."""
    published = [6457827717110365317, 3203168211198807973, 9817491932198370423,
                 4593380528125082431, 16408922859458223821]
    states = [(1234567 + k * 0x9E3779B97F4A7C15) % 2**64 for k in range(1, 6)]
    assert [ref.splitmix64_finaliser(state) for state in states] == published


@SETTINGS
@given(st.integers(0, 2**64 - 1), st.integers(0, 2**63 - 1), st.integers(1, 4),
       st.integers(0, 2**40), st.integers(0, 2**40))
def test_keys_and_numbers_are_the_documented_stream(seed, replicate, stream, index, counter):
    key = np.uint64(stream_key(np.uint64(seed), replicate, stream))
    assert int(key) == ref.stream_key(seed, replicate, stream)
    assert int(substream_key(key, index)) == ref.substream_key(int(key), index)
    assert uniform(key, counter) == ref.stream_uniform(int(key), counter)


def test_uniform_streams_look_uniform_and_independent():
    key = np.uint64(stream_key(np.uint64(11), 0, 1))
    u = np.array([uniform(key, k) for k in range(20_000)])
    assert scipy_stats.kstest(u, "uniform").pvalue > 1e-3
    assert abs(np.corrcoef(u[:-1], u[1:])[0, 1]) < 0.03
    for other in (stream_key(np.uint64(11), 1, 1), substream_key(key, 0)):
        other = np.uint64(other)
        v = np.array([uniform(other, k) for k in range(20_000)])
        assert abs(np.corrcoef(u, v)[0, 1]) < 0.03


@FEW
@given(st.integers(0, 2**64 - 1), st.integers(0, 2**63 - 1), st.integers(0, 20),
       st.integers(0, 20), st.booleans())
def test_poisson_counts_are_the_documented_inversion(seed, replicate, n_pos, n_neg, stratified):
    counts_pos, counts_neg = _counts(seed, replicate, n_pos, n_neg, stratified, True)
    for counts, stream in ((counts_pos, draws.POSITIVES), (counts_neg, draws.NEGATIVES)):
        key = ref.stream_key(seed, replicate, stream)
        assert counts.tolist() == ref.poisson_counts(key, counts.size)


@FEW
@given(st.integers(0, 2**64 - 1), st.integers(0, 2**20), st.integers(0, 9000),
       st.integers(1, 50), st.booleans())
def test_draws_land_on_their_block_or_bin_as_documented(seed, replicate, n_neg, n_bins,
                                                        stratified):
    """Whatever totals the chains gave the blocks and bins, their draws land on the examples
    by the documented sub-stream numbers."""
    n_pos = n_neg // 3
    counts_pos, counts_neg = _counts(seed, replicate, n_pos, n_neg, stratified, False)
    for counts, stream in ((counts_pos, draws.POSITIVES), (counts_neg, draws.NEGATIVES)):
        key = ref.stream_key(seed, replicate, stream)
        for block, begin in enumerate(range(0, counts.size, draws.BLOCK)):
            landed = counts[begin:begin + draws.BLOCK]
            assert landed.tolist() == ref.landed_counts(key, block, landed.size,
                                                        int(landed.sum()))
    if n_neg < 2:
        return
    starts = _random_bin_starts(n_neg, min(n_bins, n_neg), np.random.default_rng(replicate))
    _, counts_neg = _counts(seed, replicate, n_pos, n_neg, stratified, False, starts)
    key = ref.stream_key(seed, replicate, draws.BINS)
    for b in range(starts.size - 1):
        landed = counts_neg[starts[b]:starts[b + 1]]
        assert landed.tolist() == ref.landed_counts(key, b, landed.size, int(landed.sum()))


# --------------------------------------------------------------------------- the samplers
def _sampled(sampler, first_argument, second_argument, count, tag):
    key = np.uint64(stream_key(np.uint64(SEED), tag, 9))
    values, counter = np.empty(count, dtype=np.int64), 0
    for k in range(count):
        values[k], counter = sampler(first_argument, second_argument, key, counter)
    return values


@pytest.mark.parametrize("n, p", [
    (1, 0.5), (20, 0.3), (99, 0.1),  # inversion (n p < 10)
    (100, 0.1), (1000, 0.01), (5000, 0.3), (10**6, 1e-4), (10**6, 0.5),  # rejection
    (37, 0.9), (10**9, 0.7), (11, 0.99),  # the rarer outcome sampled, both ways
    # A cell of a large table (fastpr.spark.bootstrap): huge n, tiny p, by either method.
    (10**10, 3e-10), (10**10, 1e-9), (10**10, 1e-5),
])
def test_binomial_variates_have_the_binomial_distribution(n, p):
    values = _sampled(binomial, n, p, 40_000, n)
    assert values.min() >= 0 and values.max() <= n
    assert _chi_square_p_value(values, scipy_stats.binom(n, p)) > P_VALUE_FLOOR


@pytest.mark.parametrize("mean", [0.5, 1.0, 9.99, 10.0, 57.3, 1000.5, 1e6])
def test_poisson_variates_have_the_poisson_distribution(mean):
    values = _sampled(lambda m, _, key, counter: poisson(m, key, counter), mean, None,
                      40_000, int(mean * 100))
    assert _chi_square_p_value(values, scipy_stats.poisson(mean)) > P_VALUE_FLOOR


def test_the_rejection_tests_log_probabilities_are_exact():
    """What the rejection samplers compare candidates with, against mpmath's log-gamma at 50
    digits: errors here bias the variates by too little for the tests above to see."""
    with mpmath.workdps(50):
        for k in [0, 1, 5, 15, 16, 17, 100, 10**4, 10**9]:
            exact = mpmath.loggamma(k + 1) - ((k + 0.5) * mpmath.log(k + 1) - (k + 1)
                                              + mpmath.log(2 * mpmath.pi) / 2)
            assert stirling_remainder(float(k)) == pytest.approx(float(exact), rel=1e-9)
        for mean, k in [(10.0, 0), (10.0, 3), (10.0, 31), (57.3, 40), (1e6, 999_000),
                        (1e6, 10**6)]:
            exact = -mean + k * mpmath.log(mean) - mpmath.loggamma(k + 1)
            assert log_poisson_probability(mean, float(k)) == pytest.approx(
                float(exact), abs=1e-9)
        for n, p, k in [(100, 0.1, 0), (100, 0.1, 25), (10**6, 1e-4, 60),
                        (10**9, 0.3, 3 * 10**8 + 50_000), (40, 0.5, 40),
                        (10**10, 1e-9, 25), (10**10, 1e-5, 10**5 - 900)]:
            m = math.floor((n + 1) * p)
            p_exact = mpmath.mpf(p)
            log_pmf = [mpmath.loggamma(n + 1) - mpmath.loggamma(j + 1)
                       - mpmath.loggamma(n - j + 1) + j * mpmath.log(p_exact)
                       + (n - j) * mpmath.log(1 - p_exact) for j in (k, m)]
            remainders_m = stirling_remainder(float(m)) + stirling_remainder(float(n - m))
            got = log_binomial_ratio(n, float(m), float(k), math.log(p / (1 - p)), remainders_m)
            assert got == pytest.approx(float(log_pmf[0] - log_pmf[1]), abs=1e-8)


def test_binomial_edges_are_exact():
    key = np.uint64(stream_key(np.uint64(SEED), 0, 9))
    assert binomial(0, 0.3, key, 5) == (0, 5)
    assert binomial(17, 0.0, key, 5) == (0, 5)
    assert binomial(17, 1.0, key, 5) == (17, 5)


# --------------------------------------------------------------------------- the layouts
def _bins_key(replicate):
    return np.uint64(stream_key(np.uint64(SEED), replicate, draws.BINS))


@pytest.mark.parametrize("n_draws", [6251, 3 * 6251 + 7])
def test_bin_totals_are_the_multinomial_of_their_sizes(n_draws):
    """Summed over replicates the totals are one multinomial of all the draws; each bin's
    spread is the binomial one, and bins compete (a chain of independent binomials with the
    wrong shares, or Poisson totals, fails one of these)."""
    sizes = np.array([1, 7, 300, 2, 5000, 40, 1, 900])
    n_replicates = 2000
    totals = np.empty((n_replicates, sizes.size))
    for r in range(n_replicates):
        bin_totals_into(_bins_key(r), sizes, n_draws, False, totals[r])
    assert np.all(totals.sum(axis=1) == n_draws)
    shares = sizes / sizes.sum()
    assert _pearson_p_value(totals.sum(axis=0), n_replicates * n_draws * shares,
                            sizes.size - 1) > P_VALUE_FLOOR
    for b in (2, 4, 7):
        assert _chi_square_p_value(totals[:, b], scipy_stats.binom(n_draws, shares[b]),
                                   n_cells=20) > P_VALUE_FLOOR


def test_poisson_bin_totals_are_independent_poisson_of_their_sizes():
    sizes = np.array([1, 7, 300, 2, 5000, 40, 1, 900])
    n_replicates = 2000
    totals = np.empty((n_replicates, sizes.size))
    for r in range(n_replicates):
        bin_totals_into(_bins_key(r), sizes, 0, True, totals[r])
    assert _pearson_p_value(totals.sum(axis=0), n_replicates * sizes, sizes.size) > P_VALUE_FLOOR
    for b in (2, 4, 7):
        assert _chi_square_p_value(totals[:, b], scipy_stats.poisson(sizes[b]),
                                   n_cells=20) > P_VALUE_FLOOR
    assert abs(np.corrcoef(totals[:, 4], totals[:, 7])[0, 1]) < 0.1


@pytest.mark.parametrize("layout", ["blocks", "bins"])
@pytest.mark.parametrize("n_pos, n_neg", [(1, 2), (5, 12), (40, 1000), (37, 9001)])
@pytest.mark.parametrize("stratified, poisson", MODES, ids=MODE_IDS)
def test_every_example_is_drawn_with_probability_one_over_n(n_pos, n_neg, stratified, poisson,
                                                            layout):
    """Summed over replicates, each example (first and last, of every block and bin, included)
    expects one draw per replicate in every mode."""
    starts = BY_BLOCKS
    if layout == "bins":
        starts = _random_bin_starts(n_neg, max(1, n_neg // 25), np.random.default_rng(n_neg))
    n_replicates = 300 if n_neg > 5000 else 2000
    observed = np.zeros(n_pos + n_neg)
    for r in range(n_replicates):
        counts = _counts(SEED, r, n_pos, n_neg, stratified, poisson, starts)
        if not poisson:
            total = counts[0].sum() + counts[1].sum()
            assert total == n_pos + n_neg and (not stratified or counts[0].sum() == n_pos)
        observed += np.concatenate(counts)
    # Fixed totals take a degree of freedom: one per class (stratified), one in all (pooled).
    dof = n_pos + n_neg - (0 if poisson else 2 if stratified else 1)
    assert _pearson_p_value(observed, n_replicates, dof) > P_VALUE_FLOOR


def test_pooled_replicates_split_the_draws_binomially_between_the_classes():
    n_pos, n_neg = 30, 170
    drawn = [_counts(SEED, r, n_pos, n_neg, False, False)[0].sum() for r in range(4000)]
    assert _chi_square_p_value(np.array(drawn, dtype=np.int64),
                               scipy_stats.binom(n_pos + n_neg, n_pos / (n_pos + n_neg)),
                               n_cells=20) > P_VALUE_FLOOR


def test_multinomial_counts_leave_about_one_example_in_e_undrawn():
    for layout in (BY_BLOCKS, np.array([0, 20_000, 20_001, 99_000])):
        _, counts_neg = _counts(5, 0, 1000, 99_000, True, False, layout)
        # Each count is Binomial(n, 1/n): about a share e^-1 are 0, e^-1 are 1, e^-1 / 2 are 2.
        for k, share in ((0, 1.0), (1, 1.0), (2, 0.5)):
            assert abs(np.mean(counts_neg == k) - share * math.exp(-1)) < 0.01


# --------------------------------------------------------------------------- gap bins
def _bins_brute_force(pos, neg):
    """Bin starts from the definition: negatives share a bin when the same positives lie
    below them and the same positives tie with them."""
    keys = [(int(np.sum(pos < s)), int(np.sum(pos <= s))) for s in neg]
    return [j for j in range(len(neg)) if j == 0 or keys[j] != keys[j - 1]] + [len(neg)]


def _ranking_with_counts():
    n = st.integers(2, 40)
    return n.flatmap(lambda size: st.tuples(
        st.lists(st.booleans(), min_size=size, max_size=size),
        st.lists(st.integers(-4, 4), min_size=size, max_size=size),
        st.lists(st.integers(0, 3), min_size=size, max_size=size)))


@SETTINGS
@given(_ranking_with_counts())
def test_gap_bins_are_the_runs_between_positive_scores(ranking):
    y, s, _ = (np.array(column) for column in ranking)
    pos, neg = np.sort(s[y].astype(float)), np.sort(s[~y].astype(float))
    assert gap_bin_starts(pos, neg).tolist() == _bins_brute_force(pos, neg)


@SETTINGS
@given(_ranking_with_counts())
def test_gap_bins_keep_every_area_the_class_totals_and_the_best_f1(ranking):
    """Any counts on the examples: the positives against the bins' totals (each bin one
    negative at its highest score) evaluate as all rows do, to the bit."""
    y, s, counts = (np.array(column) for column in ranking)
    s, counts = s.astype(float), counts.astype(float)
    binned = gap_binned(y, s, counts)
    full = (y, s, counts)
    if not (binned[2][binned[0]].sum() > 0 and binned[2][~binned[0]].sum() > 0):
        return  # areas undefined: evaluate raises or warns alike
    (y_b, s_b, w_b), (y_f, s_f, w_f) = binned, full
    got = fastpr.evaluate(y_b, s_b, sample_weight=w_b).to_dict()
    want = fastpr.evaluate(y_f, s_f, sample_weight=w_f).to_dict()
    del got["n_thresholds"], want["n_thresholds"]  # the one thing bins change
    assert got == want
    assert (fastpr.max_f_beta(y_b, s_b, sample_weight=w_b).value
            == fastpr.max_f_beta(y_f, s_f, sample_weight=w_f).value)


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
# (stratified, resampling, weighted): without weights both kernels sweep gap bins; with them
# bootstrap sweeps every example and compare gives each negative its own bin.
OPTIONS = [(True, "multinomial", False), (False, "multinomial", False), (True, "poisson", False),
           (True, "multinomial", True), (False, "multinomial", True), (True, "poisson", True)]
OPTION_IDS = ["stratified", "pooled", "poisson", "stratified-weighted", "pooled-weighted",
              "poisson-weighted"]


def test_the_oracle_covers_every_method():
    assert set(ORACLE_FIELDS) == set(fastpr.PR_METHODS)


@functools.cache
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


def _oracle_values(y, scores, weights):
    return _oracle(tuple(y.tolist()), tuple(scores.tolist()), tuple(weights.tolist()))


@pytest.mark.parametrize("metric", METRICS)
@pytest.mark.parametrize("stratified, resampling, weighted", OPTIONS, ids=OPTION_IDS)
def test_bootstrap_replicates_are_the_oracle_on_the_replicates_rows(metric, stratified,
                                                                    resampling, weighted):
    scores = SCORES[0]
    weights = WEIGHTS if weighted else None
    options = dict(seed=SEED, stratified=stratified, resampling=resampling,
                   sample_weight=weights)
    samples = [fastpr.bootstrap_sample(Y, scores, r, **options) for r in range(N_BOOT)]
    for method in fastpr.PR_METHODS:
        result = fastpr.bootstrap(Y, scores, metric=metric, method=method, n_boot=N_BOOT,
                                  **options)
        expected = [_oracle_values(*sample)[metric, method] for sample in samples]
        np.testing.assert_allclose(result.replicates, expected, rtol=1e-9, atol=1e-12,
                                   err_msg=method)
        full = _oracle_values(Y, scores, WEIGHTS if weighted else np.ones(Y.size))
        assert result.estimate == pytest.approx(full[metric, method], rel=1e-9,
                                                abs=1e-12), method


@pytest.mark.parametrize("metric", METRICS)
@pytest.mark.parametrize("stratified, resampling, weighted", OPTIONS, ids=OPTION_IDS)
def test_compare_replicates_are_the_oracle_on_the_replicates_rows(metric, stratified,
                                                                  resampling, weighted):
    """compare draws per-example counts by blocks, each class in data order, shared by the
    models."""
    weights = WEIGHTS if weighted else np.ones(Y.size)
    replicate_weights = []
    for r in range(N_BOOT):
        counts_pos, counts_neg = _counts(SEED, r, Y.sum(), (~Y).sum(), stratified,
                                         resampling == "poisson")
        per_example = np.empty(Y.size)
        per_example[Y], per_example[~Y] = counts_pos, counts_neg
        replicate_weights.append(per_example * weights)
    for method in fastpr.PR_METHODS:
        result = fastpr.compare(Y, SCORES, metric=metric, method=method, n_boot=N_BOOT,
                                seed=SEED, stratified=stratified, resampling=resampling,
                                sample_weight=weights if weighted else None)
        expected = [[_oracle_values(Y, scores, w)[metric, method] for scores in SCORES]
                    for w in replicate_weights]
        np.testing.assert_allclose(result.replicates, expected, rtol=1e-9, atol=1e-12,
                                   err_msg=method)
        estimates = [_oracle_values(Y, scores, weights)[metric, method] for scores in SCORES]
        np.testing.assert_allclose(result.estimates, estimates, rtol=1e-9, atol=1e-12,
                                   err_msg=method)


# --------------------------------------------------------------------------- the seed alone
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("stratified, poisson", MODES, ids=MODE_IDS)
def test_replicates_depend_on_the_seed_alone(stratified, poisson, weighted):
    """Not on the thread count, nor on how many replicates are asked for (the kernel calls
    hand out 64 at a time)."""
    rng = np.random.default_rng(3)
    y = rng.random(3000) < 0.1
    s = np.round(rng.normal(size=(3, y.size)) + y, 2)
    w = rng.integers(1, 4, size=y.size).astype(float) if weighted else None
    options = dict(seed=8, stratified=stratified, resampling="poisson" if poisson else
                   "multinomial", sample_weight=w)
    threads = numba.get_num_threads()
    results = []
    try:
        for n_threads, n_boot in ((1, 70), (2, 70), (2, 100)):
            numba.set_num_threads(min(n_threads, numba.config.NUMBA_NUM_THREADS))
            results.append((fastpr.bootstrap(y, s[0], n_boot=n_boot, **options).replicates,
                            fastpr.compare(y, s, n_boot=n_boot, **options).replicates))
    finally:
        numba.set_num_threads(threads)
    for single, paired in results[1:]:
        np.testing.assert_array_equal(single[:70], results[0][0])
        np.testing.assert_array_equal(paired[:70], results[0][1])
