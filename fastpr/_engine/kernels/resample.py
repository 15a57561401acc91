"""Bootstrap replicates' rows: counts drawn from the seed (fastpr._engine.kernels.draws),
swept as weights over the already sorted scores, so no replicate sorts anything.

Three kernels, each filling ``out[r]`` for replicates ``first + r``, r = start, start + step, ...
(threads that call one with the same ``step`` and starts 0 .. step - 1 fill ``out`` between
them, and each replicate's numbers come from its own streams, so ``out`` depends on the seed
only):

- ``binned_replicates_into``: one model. Without weights the negatives' counts matter only
  through their gap bins' totals (fastpr._engine.kernels.gap_bins), so a replicate draws P
  positive counts and one total per bin and sweeps O(P) entries.
- ``counted_replicates_into``: one model held as cells, distinct (score, class, weight)
  entries with their row counts (``fastpr.spark.bootstrap``). Rows in one cell are
  interchangeable, so a replicate depends on the rows only through each cell's total, and
  drawing the cells' totals directly (the multinomial chain of ``draws.bin_totals_into`` over
  the cells' sizes, or Poisson(size) each) has exactly the distribution of drawing the rows:
  O(cells) per replicate, O(positive cells) without weights, where the caller has first
  collapsed the negative cells into their gap bins.
- ``paired_replicates_into``: models sharing per-example counts (``compare``). Counts are drawn
  block by block in example order and added into each model's bins (its gap bins, or one bin
  per example where weights keep examples apart) while the block is in cache. (Carrying
  several replicates per pass, so that each block of bin numbers is read once for all of them,
  measured slower: their bin sums then no longer fit in the core's cache.)
"""
import numpy as np

from ..jit import jit
from . import draws
from .layout import N_COLUMNS, N_THRESHOLDS, NEG_WEIGHT, POS_WEIGHT
from .point_metrics import point_metric
from .rows import record
from .uniforms import stream_key

# Each replicate's row: a row (fastpr._engine.kernels.layout), then the metric of its operating
# points that ``code`` names (``point_metrics``; NaN where ``code`` is None: the points are not
# stored). A replicate swept over gap bins counts each bin as one threshold in N_THRESHOLDS; no
# result reads that column of a replicate.
#
# ``code`` None compiles the kernels without the points and without ``point_metric`` (numba
# prunes the branches on ``code is None`` from that version before typing it), so the areas
# compile as before, and the first metric read from points compiles the version that holds
# them all.
POINT_METRIC = N_COLUMNS
N_REPLICATE = N_COLUMNS + 1


@jit(inline="always")  # a kernel of its own would compile the sweep into one more layer
def _record(pos, pos_w, neg, neg_w, points, code, level_a, level_b, row):
    """Sweep one replicate's weighted ranking into its row and append its points' metric."""
    record(pos, pos_w, neg, neg_w, points, row)
    row[POINT_METRIC] = (point_metric(points, np.int64(row[N_THRESHOLDS]) + 1, row[POS_WEIGHT],
                                      row[NEG_WEIGHT], code, level_a, level_b)
                         if code is not None else np.nan)


@jit
def binned_replicates_into(pos, pos_w, neg, neg_w, bin_starts, seed, first, start, step,
                           stratified, poisson, code, level_a, level_b, out):
    """Replicates of one model: its sorted classes with their weights (empty: unit weights),
    and the starts of its negatives' gap bins. Without weights the bins' totals are swept as
    one negative each at the bin's highest score; weights keep examples apart, so there the
    bins' draws are spread on their examples (as ``bootstrap_sample`` spreads them) and every
    example is swept."""
    n_pos = pos.size
    n_neg = neg.size
    n_bins = bin_starts.size - 1
    bin_sizes = np.empty(n_bins, dtype=np.int64)
    bin_scores = np.empty(n_bins)
    for b in range(n_bins):
        bin_sizes[b] = bin_starts[b + 1] - bin_starts[b]
        bin_scores[b] = neg[bin_starts[b + 1] - 1]
    weighted = pos_w.size > 0
    counts_pos = np.empty(n_pos)
    totals = np.empty(n_bins)
    counts_neg = np.empty(n_neg if weighted else 0)
    points = np.empty((3, n_pos + (n_neg if weighted else n_bins) + 1 if code is not None
                       else 0))
    for r in range(start, out.shape[0], step):
        replicate = first + r
        draws_pos, draws_neg = draws.class_draws(seed, replicate, n_pos, n_neg, stratified)
        draws.example_counts_into(stream_key(seed, replicate, draws.POSITIVES), draws_pos,
                                  poisson, counts_pos)
        key_bins = stream_key(seed, replicate, draws.BINS)
        draws.bin_totals_into(key_bins, bin_sizes, draws_neg, poisson, totals)
        negatives, negative_weights = bin_scores, totals
        if weighted:
            draws.bin_spread_into(key_bins, bin_starts, totals, counts_neg)
            for i in range(n_pos):
                counts_pos[i] *= pos_w[i]
            for j in range(n_neg):
                counts_neg[j] *= neg_w[j]
            negatives, negative_weights = neg, counts_neg
        _record(pos, counts_pos, negatives, negative_weights, points, code, level_a, level_b,
                out[r, 0])


@jit
def counted_replicates_into(pos, pos_n, pos_w, neg, neg_n, neg_w, seed, first, start, step,
                            stratified, poisson, code, level_a, level_b, out):
    """Replicates of one model held as cells: ``pos`` the positive cells' scores (ascending; a
    score repeats where weights differ), ``pos_n`` their row counts (int64), ``pos_w`` their
    weights (empty: unit weights); the same for the negatives. Each class's draws (its row
    total when stratified, else a binomial split of all rows) land on its cells by the
    multinomial chain over their counts, from the POSITIVES and BINS streams (or each cell
    takes Poisson(its count)); a cell is swept once, weighing its total times its weight."""
    total_pos = np.int64(0)
    for i in range(pos_n.size):
        total_pos += pos_n[i]
    total_neg = np.int64(0)
    for j in range(neg_n.size):
        total_neg += neg_n[j]
    weights_pos = np.empty(pos.size)
    weights_neg = np.empty(neg.size)
    points = np.empty((3, pos.size + neg.size + 1 if code is not None else 0))
    for r in range(start, out.shape[0], step):
        replicate = first + r
        draws_pos, draws_neg = draws.class_draws(seed, replicate, total_pos, total_neg,
                                                 stratified)
        draws.bin_totals_into(stream_key(seed, replicate, draws.POSITIVES), pos_n, draws_pos,
                              poisson, weights_pos)
        draws.bin_totals_into(stream_key(seed, replicate, draws.BINS), neg_n, draws_neg,
                              poisson, weights_neg)
        for i in range(pos_w.size):
            weights_pos[i] *= pos_w[i]
        for j in range(neg_w.size):
            weights_neg[j] *= neg_w[j]
        _record(pos, weights_pos, neg, weights_neg, points, code, level_a, level_b, out[r, 0])


@jit
def paired_replicates_into(pos, pos_w, pos_order, bin_scores, n_bins, bin_of, neg_w, seed, first,
                           start, step, stratified, poisson, code, level_a, level_b, out):
    """Replicates of models scored on the same examples.

    ``pos[m]`` holds model m's sorted positive scores, and its sorted position i is positive
    example ``pos_order[m, i]`` of weight ``pos_w[m, i]`` (empty orders: positions are examples;
    empty weights: unit weights). Negative example j falls in bin ``bin_of[m, j]`` of model m,
    whose ``n_bins[m]`` bins have scores ``bin_scores[m]``; its count is multiplied by ``neg_w[j]``
    (empty: unit weights).
    """
    n_models, n_pos = pos.shape
    n_neg = bin_of.shape[1]
    by_order = pos_order.shape[1] > 0
    pos_weighted = pos_w.shape[1] > 0
    neg_weighted = neg_w.size > 0
    counts_pos = np.empty(n_pos)
    block_totals = np.empty(draws.n_blocks(n_neg))  # (not np.zeros: see draws.block_totals_into)
    for block in range(block_totals.size):
        block_totals[block] = 0.0
    counts = np.empty(draws.BLOCK)
    sums = np.empty((n_models, bin_scores.shape[1]))
    weights_pos = np.empty(n_pos)
    points = np.empty((3, n_pos + bin_scores.shape[1] + 1 if code is not None else 0))
    for r in range(start, out.shape[0], step):
        replicate = first + r
        draws_pos, draws_neg = draws.class_draws(seed, replicate, n_pos, n_neg, stratified)
        draws.example_counts_into(stream_key(seed, replicate, draws.POSITIVES), draws_pos,
                                  poisson, counts_pos)
        key_neg = stream_key(seed, replicate, draws.NEGATIVES)
        if not poisson:
            draws.block_totals_into(key_neg, n_neg, draws_neg, block_totals)
        sums[:] = 0.0
        # Example by example, in cache: each block's counts go into every model's bins.
        for block in range(block_totals.size):
            begin = block * draws.BLOCK
            size = np.minimum(draws.BLOCK, n_neg - begin)
            draws.block_counts_into(key_neg, block, size, block_totals[block], poisson, counts)
            if neg_weighted:
                for i in range(size):
                    counts[i] *= neg_w[begin + i]
            for m in range(n_models):
                into = sums[m]
                bins = bin_of[m]
                for i in range(size):
                    into[bins[begin + i]] += counts[i]
        for m in range(n_models):
            for i in range(n_pos):
                count = counts_pos[pos_order[m, i] if by_order else i]
                weights_pos[i] = count * pos_w[m, i] if pos_weighted else count
            n = n_bins[m]
            _record(pos[m], weights_pos, bin_scores[m, :n], sums[m, :n], points, code, level_a,
                    level_b, out[r, m])
