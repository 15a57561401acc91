"""Counter-based random numbers and bootstrap replicates as count vectors (SPEC section 8).

Replicate r of seed s draws its numbers from the stream keyed by (s, r): the k-th number is a
SplitMix64 hash of the key and k, so any replicate can be produced alone, on any thread, in any
order, and the result depends on the seed only. A replicate is a vector of counts over the
already sorted examples (weights for the one-pass sweep), so no replicate sorts anything.

Arrays are laid out per model: ``pos`` is (n_models, P) and ``neg`` (n_models, N), each row
sorted ascending. ``pos_order[m, i]`` is the example (within the positives) at sorted position i
of model m; empty orders mean a single model whose counts apply to sorted positions directly,
which is valid because resampling treats the examples of a class alike.
"""
import numpy as np

from ..jit import jit
from .fmeasure import max_f1
from .rows import N_COLUMNS, N_THRESHOLDS, POS_WEIGHT, record

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX_1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX_2 = np.uint64(0x94D049BB133111EB)
_TO_UNIT = 2.0 ** -53
_POSITIVE_STREAM, _NEGATIVE_STREAM = np.uint64(1), np.uint64(2)
# Each replicate's row: the row of fastpr._engine.kernels.rows, then the best F1 over the operating
# points (NaN unless asked for: it needs the points stored).
MAX_F1 = N_COLUMNS
N_REPLICATE = N_COLUMNS + 1


@jit(inline="always")
def _mix(z):
    """SplitMix64's finaliser: a bijective hash of 64-bit integers with full avalanche."""
    z = (z ^ (z >> np.uint64(30))) * _MIX_1
    z = (z ^ (z >> np.uint64(27))) * _MIX_2
    return z ^ (z >> np.uint64(31))


@jit(inline="always")
def stream_key(seed, replicate, stream):
    """The key of one replicate's stream of one kind (positives, negatives)."""
    return _mix(_mix(np.uint64(seed) ^ _mix(np.uint64(replicate) + _GOLDEN))
                + np.uint64(stream) * _GOLDEN)


@jit(inline="always")
def uniform(key, counter):
    """The counter-th number of a stream, uniform on [0, 1) with 53 random bits."""
    return float(_mix(np.uint64(key) + np.uint64(counter) * _GOLDEN) >> np.uint64(11)) * _TO_UNIT


@jit(inline="always")
def _poisson_one(u):
    """Poisson(1) by inversion of its distribution function."""
    k = 0
    term = np.exp(-1.0)
    cumulative = term
    while u > cumulative and k < 30:
        k += 1
        term /= k
        cumulative += term
    return float(k)


@jit
def draw_counts(seed, replicate, stratified, poisson, counts_pos, counts_neg):
    """Fill the count vectors of one replicate (both zeroed here).

    Multinomial: each class draws its own size with replacement (stratified), or all examples
    draw together (not stratified). Poisson: independent Poisson(1) counts, for streaming-size
    data where the total need not be fixed.
    """
    n_pos, n_neg = counts_pos.size, counts_neg.size
    counts_pos[:] = 0.0
    counts_neg[:] = 0.0
    key_pos = stream_key(seed, replicate, _POSITIVE_STREAM)
    key_neg = stream_key(seed, replicate, _NEGATIVE_STREAM)
    if poisson:
        for i in range(n_pos):
            counts_pos[i] = _poisson_one(uniform(key_pos, i))
        for j in range(n_neg):
            counts_neg[j] = _poisson_one(uniform(key_neg, j))
    elif stratified:
        for k in range(n_pos):
            counts_pos[int(uniform(key_pos, k) * n_pos)] += 1.0
        for k in range(n_neg):
            counts_neg[int(uniform(key_neg, k) * n_neg)] += 1.0
    else:
        n = n_pos + n_neg
        for k in range(n):
            slot = int(uniform(key_pos, k) * n)
            if slot < n_pos:
                counts_pos[slot] += 1.0
            else:
                counts_neg[slot - n_pos] += 1.0


@jit(inline="always")
def _replicate_weights(counts, base, order, model, out):
    """Weights of one model's sorted positions: each example's count times its own weight."""
    unit = base.shape[1] == 0
    if order.shape[1] == 0:
        for i in range(out.size):
            out[i] = counts[i] if unit else counts[i] * base[model, i]
    else:
        for i in range(out.size):
            out[i] = counts[order[model, i]] * (1.0 if unit else base[model, i])


@jit
def replicate_rows_into(pos, pos_w, neg, neg_w, pos_order, neg_order, seed, first, start, step,
                        stratified, poisson, with_f1, out):
    """Rows of replicates ``first + r`` for r = start, start + step, ... below ``out.shape[0]``,
    written to ``out[r]`` (n_models, N_REPLICATE).

    Threads that call this with the same ``step`` and starts 0 .. step - 1 fill ``out`` between
    them; each replicate's numbers come from its own stream, so ``out`` does not depend on the
    split.
    """
    n_models, n_pos = pos.shape
    n_neg = neg.shape[1]
    # One unweighted model: the counts are the weights of the sorted positions as they stand.
    counts_are_weights = (pos_order.shape[1] == 0 and pos_w.shape[1] == 0
                          and neg_order.shape[1] == 0 and neg_w.shape[1] == 0)
    counts_pos, counts_neg = np.empty(n_pos), np.empty(n_neg)
    weights_pos, weights_neg = counts_pos, counts_neg
    if not counts_are_weights:
        weights_pos, weights_neg = np.empty(n_pos), np.empty(n_neg)
    points = np.empty((3, n_pos + n_neg + 1 if with_f1 else 0))
    for r in range(start, out.shape[0], step):
        draw_counts(seed, first + r, stratified, poisson, counts_pos, counts_neg)
        for m in range(n_models):
            if not counts_are_weights:
                _replicate_weights(counts_pos, pos_w, pos_order, m, weights_pos)
                _replicate_weights(counts_neg, neg_w, neg_order, m, weights_neg)
            row = out[r, m]
            record(pos[m], weights_pos, neg[m], weights_neg, points, row)
            row[MAX_F1] = (max_f1(points, int(row[N_THRESHOLDS]) + 1, row[POS_WEIGHT])
                           if with_f1 else np.nan)
