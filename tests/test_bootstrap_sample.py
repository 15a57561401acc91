"""fastpr.bootstrap_sample redraws exactly the replicates that fastpr.bootstrap evaluated."""
import numpy as np
import pytest

import fastpr
import reference as ref
from fastpr import datasets


@pytest.mark.parametrize("stratified, resampling, weighted", [
    (True, "multinomial", False), (False, "multinomial", True), (True, "poisson", True),
])
def test_each_replicate_evaluates_to_the_bootstrap_s_value(stratified, resampling, weighted):
    y, s = datasets.skewed_ranking(n_samples=2000, prevalence=0.05)
    w = np.random.default_rng(2).integers(0, 3, size=y.size).astype(float) if weighted else None
    result = fastpr.bootstrap(y, s, metric="auc_roc", n_boot=20, seed=11, stratified=stratified,
                              resampling=resampling, sample_weight=w)
    for replicate in (0, 7, 19):
        y_r, s_r, w_r = fastpr.bootstrap_sample(y, s, replicate, seed=11, stratified=stratified,
                                                resampling=resampling, sample_weight=w)
        assert fastpr.auc_roc(y_r, s_r, sample_weight=w_r) == result.replicates[replicate]
        in_pool = y if w is None else y & (w > 0)  # examples of weight 0 are absent rows
        assert y_r.sum() == in_pool.sum()  # the same examples, reweighted
        if resampling == "multinomial" and stratified:
            assert w_r[y_r].sum() == y.sum()


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("stratified, resampling", [
    (True, "multinomial"), (False, "multinomial"), (True, "poisson"),
])
def test_samples_reweigh_the_sorted_examples_by_whole_counts(stratified, resampling, weighted):
    rng = np.random.default_rng(4)
    y = rng.random(60) < 0.3
    s = rng.integers(0, 20, size=y.size).astype(float)  # ties: many share a gap bin
    w = rng.integers(1, 4, size=y.size).astype(float) if weighted else None
    options = dict(seed=9, stratified=stratified, resampling=resampling, sample_weight=w)
    result = fastpr.bootstrap(y, s, metric="auc_roc", n_boot=70, **options)
    pos, neg = (np.flatnonzero(in_class) for in_class in (y, ~y))
    pos, neg = pos[ref.sorted_positions(s[pos])], neg[ref.sorted_positions(s[neg])]
    base = np.ones(y.size) if w is None else w
    for replicate in (0, 69):  # 69: past the first kernel call of 64 replicates
        y_r, s_r, w_r = fastpr.bootstrap_sample(y, s, replicate, **options)
        np.testing.assert_array_equal(y_r, np.arange(y.size) < pos.size)
        np.testing.assert_array_equal(s_r, np.concatenate([s[pos], s[neg]]))
        counts = w_r / np.concatenate([base[pos], base[neg]])
        np.testing.assert_array_equal(counts, np.round(counts))
        if resampling == "multinomial":
            assert counts.sum() == y.size
            assert not stratified or counts[:pos.size].sum() == pos.size
        expected = ref.auc_roc_pairwise(y_r, s_r, w_r)
        assert result.replicates[replicate] == pytest.approx(float(expected), rel=1e-12)


def test_weights_of_one_are_no_weights():
    """Weights of 1 (and 0, which leaves an example out) resample as the unweighted rows do."""
    y, s = datasets.skewed_ranking(n_samples=3000, prevalence=0.05)
    kept = np.random.default_rng(3).random(y.size) < 0.8
    for resampling in ("multinomial", "poisson"):
        options = dict(n_boot=20, seed=4, resampling=resampling)
        plain = fastpr.bootstrap(y[kept], s[kept], **options)
        masked = fastpr.bootstrap(y, s, sample_weight=kept.astype(float), **options)
        np.testing.assert_array_equal(plain.replicates, masked.replicates)
        pair = np.vstack([s, -s])
        np.testing.assert_array_equal(
            fastpr.compare(y[kept], pair[:, kept], **options).replicates,
            fastpr.compare(y, pair, sample_weight=kept.astype(float), **options).replicates)
        for got, want in zip(fastpr.bootstrap_sample(y, s, 3, seed=4, resampling=resampling,
                                                     sample_weight=kept.astype(float)),
                             fastpr.bootstrap_sample(y[kept], s[kept], 3, seed=4,
                                                     resampling=resampling)):
            np.testing.assert_array_equal(got, want)


def test_counts_follow_the_examples():
    """Unweighted multinomial counts: whole numbers adding up to n, one per example."""
    y, s = [1, 0, 1, 0, 0], [0.3, 0.1, 0.9, 0.5, 0.2]
    y_r, s_r, w_r = fastpr.bootstrap_sample(y, s, 3, seed=0, stratified=False)
    np.testing.assert_array_equal(s_r, [0.3, 0.9, 0.1, 0.2, 0.5])
    np.testing.assert_array_equal(y_r, [True, True, False, False, False])
    assert w_r.sum() == 5 and np.all(w_r == np.round(w_r))


def test_bad_options():
    with pytest.raises(ValueError, match="replicate must be >= 0, got -1"):
        fastpr.bootstrap_sample([0, 1], [0.1, 0.2], -1, seed=0)
    with pytest.raises(ValueError, match="resampling must be one of 'multinomial', 'poisson'"):
        fastpr.bootstrap_sample([0, 1], [0.1, 0.2], 0, seed=0, resampling="jackknife")
    with pytest.raises(TypeError, match="seed must be an integer, got None"):
        fastpr.bootstrap_sample([0, 1], [0.1, 0.2], 0, seed=None)
