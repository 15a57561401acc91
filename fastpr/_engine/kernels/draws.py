"""A bootstrap replicate's counts, from random streams keyed by (seed, replicate, kind).

A class of n examples receives its draws (n, stratified) in one of two ways, both exactly the
multinomial of drawing with replacement:

- per example, by blocks: consecutive blocks of ``BLOCK`` examples get their totals by a chain
  of binomials (block g: Binomial(draws left, its size / examples left)), then block g's draws
  land uniformly on its examples, with numbers from the block's own sub-stream, so a block is
  drawn alone, in cache;
- per bin (``bin_totals_into``): consecutive runs of examples (the gap bins of
  fastpr._engine.kernels.gap_bins) get their totals by the same chain, and where the examples
  themselves are wanted, ``bin_spread_into`` lands each bin's draws uniformly on its examples
  from the bin's own sub-stream.

The positives of rows always go by blocks (the POSITIVES stream). The negatives of one ranking
(``bootstrap``, ``bootstrap_sample``) go by its gap bins (the BINS stream); those of several
models scored on the same examples (``compare``) by blocks in example order (the NEGATIVES
stream), since the models' bins differ. Not stratified, the positives' share of all n draws is
first drawn as Binomial(n, P / n) from the CLASSES stream. With Poisson resampling every
example's count is an independent Poisson(1) (inverted from the number at the example's index)
and a bin's total is Poisson(its size). Chains take their numbers from the stream's counter in
order. Cells (``resample.counted_replicates_into``: distinct (score, class, weight) entries
with their row counts) are bins whose sizes are those counts: each class's cells get their
totals by ``bin_totals_into``, the positives' from the POSITIVES stream, the negatives' (or
their gap bins') from the BINS stream. The layout is part of what a seed means: changing it
changes every replicate.
"""
import numpy as np

from ..jit import helper, jit
from .uniforms import stream_key, substream_key, uniform
from .variates import binomial, poisson, poisson_by_inversion

POSITIVES, NEGATIVES, CLASSES, BINS = 1, 2, 3, 4  # the streams of one replicate
BLOCK = 4096  # examples per block of per-example counts
# The first number of a stream. A NumPy integer: a counter that starts as a Python constant
# makes numba compile the samplers once more, for the constant's value.
_FIRST = np.int64(0)


@helper
def n_blocks(n_examples):
    return (n_examples + BLOCK - 1) // BLOCK


@helper
def class_draws(seed, replicate, n_pos, n_neg, stratified):
    """(draws of the positives, draws of the negatives): each class's size when stratified,
    else a binomial split of all of them."""
    n = n_pos + n_neg
    if stratified or n == 0:
        return n_pos, n_neg
    drawn, _ = binomial(n, n_pos / n, stream_key(seed, replicate, CLASSES), _FIRST)
    return drawn, n - drawn


@helper
def _multinomial_totals_into(key, sizes, n_draws, totals):
    """Totals of n_draws draws over consecutive runs of sizes[b] examples: a chain of
    binomials, numbers from the key's stream in order."""
    examples_left = 0.0
    for b in range(sizes.size):
        examples_left += sizes[b]
    draws_left = n_draws
    counter = _FIRST
    for b in range(sizes.size):
        total, counter = binomial(draws_left, sizes[b] / examples_left, key, counter)
        draws_left -= total
        examples_left -= sizes[b]
        totals[b] = total


@helper
def bin_totals_into(key, sizes, n_draws, poisson_totals, totals):
    """Draws that land in each bin of sizes[b] negatives (multinomial), or Poisson(size)
    totals, into ``totals``; ``key`` is the replicate's BINS stream."""
    if not poisson_totals:
        _multinomial_totals_into(key, sizes, n_draws, totals)
        return
    counter = _FIRST
    for b in range(sizes.size):
        totals[b], counter = poisson(float(sizes[b]), key, counter)


@helper
def bin_spread_into(key, starts, totals, counts):
    """Per-example counts of the negatives whose bins start at ``starts`` (and end at its last
    entry) from the bins' totals: each bin's draws land uniformly on its examples, with
    numbers from its own sub-stream of the BINS stream ``key``."""
    for j in range(counts.size):
        counts[j] = 0.0
    for b in range(totals.size):
        sub = substream_key(key, b)
        size = starts[b + 1] - starts[b]
        for d in range(np.int64(totals[b])):
            counts[starts[b] + np.int64(uniform(sub, d) * size)] += 1.0


@helper
def block_totals_into(key, n_examples, n_draws, totals):
    """Draws that land in each block of one class (multinomial resampling; ``key`` is the
    class's stream)."""
    # (np.empty and a loop: numba compiles functions of its own for np.full and np.zeros, and
    # for each type of the builtins min, max and int, at their first use: np.int64 and
    # np.minimum here and in the kernels of the bootstrap instead)
    sizes = np.empty(n_blocks(n_examples), dtype=np.int64)
    for b in range(sizes.size):
        sizes[b] = BLOCK
    if sizes.size:
        sizes[-1] = n_examples - (sizes.size - 1) * BLOCK
    _multinomial_totals_into(key, sizes, n_draws, totals)


@helper
def block_counts_into(key, block, size, total, poisson_counts, counts):
    """Counts of the ``size`` examples of one block into counts[:size]: its ``total`` draws
    landed uniformly, with numbers from the block's sub-stream, or each a Poisson(1) inverted
    from the number at its index in the class."""
    if poisson_counts:
        offset = block * BLOCK
        for i in range(size):
            counts[i] = poisson_by_inversion(1.0, uniform(key, offset + i))
        return
    for i in range(size):
        counts[i] = 0.0
    sub = substream_key(key, block)
    # The draws' positions first, then their tally: apart, the hashes vectorise, and the tally
    # runs without waiting on them (together they took twice as long).
    positions = np.empty(np.minimum(np.int64(total), BLOCK), dtype=np.int64)
    for first in range(0, np.int64(total), BLOCK):
        n = np.minimum(BLOCK, np.int64(total) - first)
        for d in range(n):
            positions[d] = np.int64(uniform(sub, first + d) * size)
        for d in range(n):
            counts[positions[d]] += 1.0


@helper
def example_counts_into(key, n_draws, poisson_counts, counts):
    """Per-example counts of a whole class, block by block, into ``counts``."""
    n = counts.size
    totals = np.empty(n_blocks(n))
    for block in range(totals.size):
        totals[block] = 0.0
    if not poisson_counts:
        block_totals_into(key, n, n_draws, totals)
    for block in range(totals.size):
        start = block * BLOCK
        block_counts_into(key, block, np.minimum(BLOCK, n - start), totals[block], poisson_counts,
                          counts[start:])


@jit
def replicate_counts(seed, replicate, stratified, poisson_counts, bin_starts, counts_pos,
                     counts_neg):
    """One replicate's per-example counts of both classes into the count vectors: by blocks,
    or for the negatives by the bins that start at ``bin_starts`` when it is not empty."""
    draws_pos, draws_neg = class_draws(seed, replicate, counts_pos.size, counts_neg.size,
                                       stratified)
    example_counts_into(stream_key(seed, replicate, POSITIVES), draws_pos, poisson_counts,
                        counts_pos)
    if bin_starts.size == 0:
        example_counts_into(stream_key(seed, replicate, NEGATIVES), draws_neg, poisson_counts,
                            counts_neg)
        return
    n_bins = bin_starts.size - 1
    sizes = np.empty(n_bins, dtype=np.int64)
    for b in range(n_bins):
        sizes[b] = bin_starts[b + 1] - bin_starts[b]
    totals = np.empty(n_bins)
    key = stream_key(seed, replicate, BINS)
    bin_totals_into(key, sizes, draws_neg, poisson_counts, totals)
    bin_spread_into(key, bin_starts, totals, counts_neg)
