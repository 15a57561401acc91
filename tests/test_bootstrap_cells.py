"""The bootstrap of rows given as cells (distinct (score, class, weight) entries with their row
counts, as fastpr.spark.bootstrap gathers them) against fastpr.bootstrap on the rows: the same
estimate and jackknife, replicates of the same distribution (two-sample tests, and the exact
distribution of a tiny case by enumeration), and results that do not depend on the cells'
order or split."""
import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats as scipy_stats

import fastpr
import reference as ref
from fastpr import _partitioned, intervals
from fastpr.intervals import bootstrap_cells
from strategies import FEW, rankings

# Two-sample tests at fixed seeds fail below this p-value (deterministic: the seeds are fixed).
P_VALUE_FLOOR = 1e-4
# (stratified, resampling): the three ways a replicate resamples.
MODES = [(True, "multinomial"), (False, "multinomial"), (True, "poisson")]
MODE_IDS = ["stratified", "pooled", "poisson"]


def cells_of(y, s, w=None):
    """(scores, is_positive, counts, weights) of rows: one cell per distinct (score, class,
    weight), in np.unique's order."""
    columns = [s, y] if w is None else [s, y, w]
    keys, counts = np.unique(np.column_stack(columns).astype(np.float64), axis=0,
                             return_counts=True)
    return keys[:, 0], keys[:, 1].astype(bool), counts, None if w is None else keys[:, 2]


def sorted_rows(y, s, w):
    """The rows sorted by (score, weight): the order whose jackknife the cells' equals."""
    order = np.lexsort((w, s))
    return y[order], s[order], w[order]


def tied_data(n, seed, weighted=False):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    s = rng.integers(0, 25, n) + 0.5 * y * rng.integers(0, 2, n)
    w = rng.integers(1, 4, n) * 0.25 if weighted else None
    return y, s.astype(np.float64), w


def resampler_of_rows(y, s, w=None):
    return intervals._Resampler.single(intervals._resampling_pool(y, s, w, None))


def resampler_of_cells(*cells):
    return intervals._Resampler.cells(*intervals._cells_by_class(*cells))


def jackknife_values(resampler, metric):
    spec = fastpr._validation.metric_spec(metric)
    point = fastpr._point_metrics.point(spec)
    return intervals._metric_values(resampler.jackknife(point), spec, "interpolated")[:, 0]


METRICS = ["auc_pr", "auc_roc", "auc_npr", "max_f1", "recall_at_precision@0.3",
           "precision_at_k@20", "r_precision", "auc_pr@0.2:0.8"]


# --------------------------------------------------------------------------- estimate, jackknife
@pytest.mark.parametrize("metric", METRICS)
def test_unweighted_estimate_and_jackknife_equal_the_rows_bit_for_bit(metric):
    y, s, _ = tied_data(400, seed=1)
    rows = resampler_of_rows(y, s)
    cells = resampler_of_cells(*cells_of(y, s))
    spec = fastpr._validation.metric_spec(metric)
    assert intervals._estimate(cells, spec, "interpolated") == intervals._estimate(
        rows, spec, "interpolated")
    np.testing.assert_array_equal(jackknife_values(cells, metric), jackknife_values(rows, metric))


@pytest.mark.parametrize("metric", ["auc_pr", "auc_roc", "max_f1", "tpr_at_fpr@0.2"])
def test_weighted_estimate_and_jackknife_equal_the_rows_sorted_by_score_and_weight(metric):
    """Weights that are multiples of 1/4, so that sums are exact in either order."""
    y, s, w = tied_data(400, seed=2, weighted=True)
    rows = resampler_of_rows(*sorted_rows(y, s, w))
    cells = resampler_of_cells(*cells_of(y, s, w))
    spec = fastpr._validation.metric_spec(metric)
    assert intervals._estimate(cells, spec, "interpolated") == intervals._estimate(
        rows, spec, "interpolated")
    np.testing.assert_array_equal(jackknife_values(cells, metric), jackknife_values(rows, metric))


def test_bca_bounds_use_the_cells_jackknife():
    """Under 100 rows the jackknife is leave-one-out, over 100 delete-a-group: the cells' BCa
    bounds are those of their replicates with the rows' jackknife."""
    for n in (60, 400):
        y, s, _ = tied_data(n, seed=n)
        got = bootstrap_cells(*cells_of(y, s), interval="bca", n_boot=200, seed=3)
        assert (got.low, got.high) == intervals._bootstrap_bounds(
            got.estimate, got.replicates[np.isfinite(got.replicates)],
            jackknife_values(resampler_of_rows(y, s), "auc_pr"), 0.95, "bca")


# --------------------------------------------------------------------------- distribution
def _assert_same_distribution(a, b):
    """Two samples of replicate values: a two-sample KS test, and means and standard deviations
    within four standard errors of their difference."""
    a, b = a[np.isfinite(a)], b[np.isfinite(b)]
    assert scipy_stats.ks_2samp(a, b).pvalue > P_VALUE_FLOOR
    mean_error = np.sqrt(a.var() / a.size + b.var() / b.size)
    assert abs(a.mean() - b.mean()) <= 4 * mean_error

    def sd_error(x):  # the delta method's standard error of a sample standard deviation
        centred = x - x.mean()
        return np.sqrt(max(np.mean(centred ** 4) - x.var() ** 2, 0.0) / x.size) / (2 * x.std())
    assert abs(a.std() - b.std()) <= 4 * np.hypot(sd_error(a), sd_error(b))


@pytest.mark.parametrize("stratified, resampling", MODES, ids=MODE_IDS)
@pytest.mark.parametrize("metric", ["auc_pr", "max_f1", "precision_at_k@10"])
def test_replicates_have_the_rows_distribution(metric, stratified, resampling):
    y, s, _ = tied_data(80, seed=4)
    options = dict(metric=metric, n_boot=4000, stratified=stratified, resampling=resampling)
    rows = fastpr.bootstrap(y, s, seed=11, **options)
    cells = bootstrap_cells(*cells_of(y, s), seed=12, **options)
    _assert_same_distribution(cells.replicates, rows.replicates)
    assert cells.estimate == rows.estimate


@pytest.mark.parametrize("stratified, resampling", MODES, ids=MODE_IDS)
def test_weighted_replicates_have_the_rows_distribution(stratified, resampling):
    y, s, w = tied_data(80, seed=5, weighted=True)
    options = dict(n_boot=4000, stratified=stratified, resampling=resampling)
    rows = fastpr.bootstrap(y, s, sample_weight=w, seed=13, **options)
    cells = bootstrap_cells(*cells_of(y, s, w), seed=14, **options)
    _assert_same_distribution(cells.replicates, rows.replicates)


def test_the_replicates_of_a_tiny_case_have_the_exact_distribution():
    """Five rows (two tied across classes), drawn with replacement: every one of the 5^5 index
    sequences is equally likely, and the interpolated AUC-PR of each (the oracle's, on the
    drawn rows) gives the exact distribution. 20,000 replicates' empirical distribution must lie
    within 0.015 of it everywhere (the Dvoretzky-Kiefer-Wolfowitz bound puts the chance of more
    at 2 exp(-2 * 20000 * 0.015^2) = 2.5e-4; the seed is fixed)."""
    y = np.array([True, False, True, False, False])
    s = np.array([0.9, 0.7, 0.5, 0.5, 0.1])
    exact = []
    for drawn in itertools.product(range(5), repeat=5):
        counts = np.bincount(drawn, minlength=5).astype(np.float64)
        if not counts[y].any():
            exact.append(np.nan)  # no positives: undefined, as a replicate's NaN
            continue
        kept = counts > 0
        cnt = ref.counts(ref.operating_points(y[kept], s[kept], counts[kept]))
        exact.append(float(ref.interpolated_area(cnt)))
    exact = np.array(exact)
    with pytest.warns(fastpr.UndefinedMetricWarning):
        got = bootstrap_cells(*cells_of(y, s), n_boot=20_000, stratified=False,
                              seed=5).replicates
    assert abs(np.isnan(got).mean() - np.isnan(exact).mean()) <= 0.015
    # The kernel's areas and the oracle's exact fractions differ by rounding: compare at 1e-9.
    exact, got = (np.round(values[np.isfinite(values)], 9) for values in (exact, got))
    assert set(got.tolist()) <= set(exact.tolist())  # every value drawn is a possible one
    values = np.unique(exact)
    exact_cdf = np.searchsorted(np.sort(exact), values, "right") / 5 ** 5
    got_cdf = np.searchsorted(np.sort(got), values, "right") / 20_000
    assert np.abs(exact_cdf - got_cdf).max() <= 0.015


# --------------------------------------------------------------------------- order and split
def test_the_same_seed_gives_the_same_replicates_whatever_the_cells_order_or_split():
    y, s, w = tied_data(200, seed=6, weighted=True)
    for weights in (None, w):
        scores, is_positive, counts, cell_weights = cells_of(y, s, weights)
        expected = bootstrap_cells(scores, is_positive, counts, cell_weights, n_boot=300,
                                   seed=8, interval="bca")
        order = np.random.default_rng(0).permutation(scores.size)
        shuffled = bootstrap_cells(scores[order], is_positive[order], counts[order],
                                   None if weights is None else cell_weights[order],
                                   n_boot=300, seed=8, interval="bca")
        np.testing.assert_array_equal(shuffled.replicates, expected.replicates)
        assert (shuffled.low, shuffled.high) == (expected.low, expected.high)
        # Cells split in two (counts a + b), and cells of count 0, change nothing either.
        split = counts // 2
        doubled = bootstrap_cells(np.r_[scores, scores, 0.5], np.r_[is_positive, is_positive,
                                                                     True],
                                  np.r_[split, counts - split, 0],
                                  None if weights is None else np.r_[cell_weights,
                                                                     cell_weights, 1.0],
                                  n_boot=300, seed=8, interval="bca")
        np.testing.assert_array_equal(doubled.replicates, expected.replicates)


@FEW
@given(rankings(weights=("none", "int")), st.data())
def test_rows_as_cells_and_split_cells_keep_the_estimate_and_jackknife(ranking, data):
    """Each row a cell of count 1 gives the rows' estimate and jackknife (rows sorted by score
    and weight; integer weights, whose sums are exact in any order);
    splitting a cell of count c into two of counts a + b = c at the same score, without the
    merging of equal cells, leaves the estimate and the jackknife as they were."""
    y, s, w = ranking
    ones = np.ones(y.size, dtype=np.int64)
    cells = resampler_of_cells(s, y, ones, w)
    spec = fastpr._validation.metric_spec("auc_pr")
    rows = resampler_of_rows(*sorted_rows(y, s, w)) if w is not None else resampler_of_rows(y, s)
    assert intervals._estimate(cells, spec, "interpolated") == intervals._estimate(
        rows, spec, "interpolated")
    np.testing.assert_array_equal(jackknife_values(cells, "auc_pr"),
                                  jackknife_values(rows, "auc_pr"))
    # Split one cell in place (the arrays as _Resampler.cells takes them, so nothing merges).
    by_class = intervals._cells_by_class(*cells_of(y, s, w))
    at = data.draw(st.sampled_from([0, 3]))  # the positives' cells, or the negatives'
    scores, counts, weights = by_class[at:at + 3]
    splittable = np.flatnonzero(counts >= 2)
    if not splittable.size:
        return
    c = data.draw(st.sampled_from(splittable.tolist()))
    a = data.draw(st.integers(1, int(counts[c]) - 1))
    parted = np.insert(counts, c, a)
    parted[c + 1] -= a
    split = list(by_class)
    split[at:at + 3] = (np.insert(scores, c, scores[c]), parted,
                        np.insert(weights, c, weights[c]) if weights.size else weights)
    whole, parts = intervals._Resampler.cells(*by_class), intervals._Resampler.cells(*split)
    assert intervals._estimate(parts, spec, "interpolated") == intervals._estimate(
        whole, spec, "interpolated")
    np.testing.assert_array_equal(jackknife_values(parts, "auc_pr"),
                                  jackknife_values(whole, "auc_pr"))


# --------------------------------------------------------------------------- input
def test_zero_weight_cells_leave_the_pool_as_zero_weight_rows_do():
    y, s, w = tied_data(120, seed=7, weighted=True)
    w[::5] = 0.0
    got = bootstrap_cells(*cells_of(y, s, w), n_boot=50, seed=1, interval="bca")
    rows = fastpr.bootstrap(*sorted_rows(y, s, w)[:2], sample_weight=sorted_rows(y, s, w)[2],
                            n_boot=50, seed=1)
    assert got.estimate == rows.estimate


def test_top_k_with_weights_is_refused_as_bootstrap_refuses_it():
    y, s, w = tied_data(50, seed=8, weighted=True)
    with pytest.raises(ValueError) as rows:
        fastpr.bootstrap(y, s, sample_weight=w, metric="precision_at_k@5")
    with pytest.raises(ValueError) as cells:
        bootstrap_cells(*cells_of(y, s, w), metric="precision_at_k@5")
    assert str(cells.value) == str(rows.value)


@pytest.mark.parametrize("counts, message", [
    ([1, -1, 2], r"counts must be whole numbers of rows \(0 to 2\^53\), got -1 at index 1"),
    ([1, 1.5, 2], r"counts must be whole numbers .* got 1.5 at index 1"),
    ([1, np.nan, 2], r"counts must be whole numbers .* got nan at index 1"),
    ([1, 2], r"is_positive and counts have different lengths: 3 and 2|"
             r"scores and counts have different lengths: 3 and 2"),
])
def test_bad_counts_are_refused_by_name(counts, message):
    with pytest.raises(ValueError, match=message):
        bootstrap_cells([0.1, 0.5, 0.9], np.array([True, False, True]), counts)


def test_labels_must_be_bool_and_scores_numbers():
    with pytest.raises(TypeError, match="is_positive must be an array of bool, got dtype int64"):
        bootstrap_cells([0.1, 0.5], np.array([1, 0]), [1, 1])
    with pytest.raises(ValueError, match="scores contains NaN at index 1"):
        bootstrap_cells([0.1, np.nan], np.array([True, False]), [1, 1])
    with pytest.raises(ValueError, match="y_true has no negatives"):
        bootstrap_cells([0.1, 0.5], np.array([True, False]), [1, 0])


@pytest.mark.parametrize("stratified, resampling", MODES, ids=MODE_IDS)
def test_cells_of_a_huge_table_resample_exactly_and_fast(stratified, resampling):
    """Cells of 10^9 to 10^11 rows (a large Spark table with few scores): the binomial and
    Poisson draws at such sizes (exact, see test_resampling) give every replicate a value,
    centred on the estimate with the tiny spread of so many rows."""
    rng = np.random.default_rng(9)
    scores = np.arange(40.0)
    is_positive = np.arange(40) % 3 == 0
    counts = rng.integers(10**9, 10**11, 40)
    result = bootstrap_cells(scores, is_positive, counts, metric="auc_roc", n_boot=400, seed=1,
                             stratified=stratified, resampling=resampling)
    assert np.isfinite(result.replicates).all()
    assert abs(result.replicates.mean() - result.estimate) < 1e-4
    assert 0 < result.replicates.std() < 1e-4


@FEW
@given(rankings(weights=("none",)), st.lists(st.integers(-3, 3), max_size=3))
def test_ranges_reduced_to_positive_cells_and_gap_bins_give_the_same_bootstrap(ranking, cuts):
    """fastpr.spark.bootstrap's path for many scores, without Spark: rows cut into score ranges
    at any boundaries, each range reduced to its positive cells and its negatives' gap bins
    (finer than the whole data's where a range ends), give the bootstrap of all the cells: the
    same replicates, estimate and BCa bounds (jackknife)."""
    y, s, _ = ranking
    edges = np.unique(np.r_[-np.inf, np.array(cuts, float), np.inf])
    parts = []
    for low, high in zip(edges[:-1], edges[1:]):
        inside = (s >= low) & (s < high) | (high == np.inf) & (s == np.inf)
        pos, pos_n, neg, neg_n = _partitioned.binned_cells(y[inside], s[inside])
        parts.append((np.r_[pos, neg], np.r_[np.ones(pos.size, bool), np.zeros(neg.size, bool)],
                      np.r_[pos_n, neg_n]))
    reduced = [np.concatenate(column) for column in zip(*parts)]
    options = dict(n_boot=40, seed=2, interval="bca", metric="max_f1")
    got = bootstrap_cells(*reduced, **options)
    expected = bootstrap_cells(*cells_of(y, s), **options)
    np.testing.assert_array_equal(got.replicates, expected.replicates)
    assert (got.estimate, got.low, got.high) == (expected.estimate, expected.low, expected.high)
