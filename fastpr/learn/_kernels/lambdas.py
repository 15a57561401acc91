"""LambdaMART for average precision: |dAP| summed over pairs, and gradients with XGBoost's
``rank:map`` semantics, over rankings given as segments of a row order.

Rankings: segment g is rows ``order[offsets[g]:offsets[g + 1]]`` by descending score, ties in
row order (``order.py``), and ``ranked_true`` holds their labels in the same places
(``ranked_true[k]`` is the label of row ``order[k]``); outputs are indexed by row. Ranks,
counts and sums as in ``ap_deltas.py``. For a pair of opposite labels at ranks u < l,
R |dAP| = U(u) + L(l), where each term depends only on its own example (label, rank r, c_r,
A_r):

    positive: U = c/r - A       L = A - (c + 1)/r
    negative: U = (c + 1)/r - A  L = A - c/r

(the swap formulas of ``ap_deltas.py``, split at the +), so the sum over all the partners of an
example is its own term times the number of its opposite-label partners below (or above) plus
prefix (or suffix) sums of the partners' terms: O(n) after the sort.

Gradients, per pair of opposite labels with the positive at score s+ and the negative at s-,
as XGBoost computes them in float64: delta = |dAP|, divided by (|s+ - s-| + 0.01) with score
normalisation (unless every score of the ranking is equal); sigma = 1 / (1 + exp(-(s+ - s-)))
with the RankNet factor, else 1/2 (its value at equal scores); lambda = (sigma - 1) delta goes
to the positive's gradient and -lambda to the negative's, and max(sigma (1 - sigma), 1e-16) *
2 delta to both hessians. Top-k pairs have their upper example among the first k positions.
Query normalisation multiplies a ranking's gradients and hessians by log2(1 + S) / S, S the sum
of 2 |lambda| over its pairs; then each ranking's ``scales`` entry (empty: 1) multiplies them.
A ranking without positives or without negatives has no pair and gets zeros.

The ``*_range`` kernels take a float64 scratch array ``work`` of shape (``SUMS_WORK``,
``ALL_PAIRS_WORK`` or ``TOP_K_WORK``, m), m at least the longest of their rankings (the sums
touch only a column for each positive): callers from Python allocate it once with NumPy
(whose large blocks come in huge pages) and keep it, where an allocation here would cost page
faults that take longer than the work itself. (Rows of one array for each
field, rather than a record for each example: measured, the records' row views slow the
top-k set-up and pairs by half.)
"""
import math

import numpy as np

from ..._engine.jit import helper, jit, shared
from ..._engine.kernels.checks import check_weights
from .order import check_offsets

_MIN_HESSIAN_FACTOR = 1e-16  # XGBoost's floor on sigma (1 - sigma)
_SCORE_GAP = 0.01  # added to |s+ - s-| by score normalisation
# The widest span of a ranking's scores whose exponential factors (see _ranking_top_k) cannot
# overflow or lose precision to subnormals: exp(700) < 2**1010.
_SPAN = 700.0
# Rows of the |dAP| sums' scratch: for the k-th positive, A at its rank, the sum of U over the
# positives down to it and the sum of U over the negatives above it (see ``sums_forward``).
SUMS_WORK = 3
# All pairs' scratch: the sums' rows, then the sums by position.
ALL_PAIRS_WORK = SUMS_WORK + 1
# Positions of a chunk of the backward pass of the |dAP| sums: fixed, not a share of the
# threads, so that the sums' rounding depends on the input alone.
SUMS_CHUNK = 1 << 18
TOP_K_WORK = 6
# Columns of ``work`` in a chunk of one ranking's top-k pairs (``top_k_chunk``): fixed, not a
# share of the threads, so that the gradients' rounding depends on the input alone.
TOP_K_CHUNK = 1 << 16
# Pairs of one top example whose lambdas are summed after the loop that makes them (see
# ``_own_pairs``), in _LANES running sums (``_own_pairs`` adds up four).
_BLOCK = 256
_LANES = 4
TOP_K_BLOCK = (3, _BLOCK)  # the shape of that scratch: lambdas, hessians, running sums


@jit(inline="always")  # measured: a third off the |dAP| sums and the top-k set-up
def _terms(c, a, inverse_rank, positive):
    """(U, L) of an example with count ``c`` and reciprocal sum ``a`` at its rank (its own rank
    included), given 1 / rank."""
    if positive:
        return c * inverse_rank - a, a - (c + 1.0) * inverse_rank
    return (c + 1.0) * inverse_rank - a, a - c * inverse_rank


@shared  # plain Python too: no kernel to compile for the callers from Python
def sums_chunks(n):
    """The number of chunks of ``SUMS_CHUNK`` positions of a ranking of ``n`` examples."""
    return (n + SUMS_CHUNK - 1) // SUMS_CHUNK


@jit
def sums_forward(labels, prefix, chunks):
    """The forward pass of the |dAP| sums of one ranking whose labels by position are
    ``labels``: into column k of ``prefix`` (float64, ``SUMS_WORK`` rows, a column for each
    positive at least), what the backward pass needs of the k-th positive and cannot count
    again: A at its rank, the sum of U of the positives down to it, and the sum of U of the
    negatives above it; and into the rows of ``chunks`` (float64, ``sums_chunks(n)`` by 3) what
    each chunk's backward pass starts from: the positives up to its last position and the sums
    of L of the positives and of the negatives after it. Only columns of positives are written:
    a few rows of scratch as long as the ranking cost no more than the pages they touch."""
    n = labels.size
    n_chunks = sums_chunks(n)
    c = 0.0
    a = 0.0
    upper_pos = 0.0
    upper_neg = 0.0
    for chunk in range(n_chunks):
        lower_pos = 0.0
        lower_neg = 0.0
        for position in range(chunk * SUMS_CHUNK, min((chunk + 1) * SUMS_CHUNK, n)):
            inverse_rank = 1.0 / (position + 1.0)
            positive = labels[position]
            if positive:
                a += inverse_rank
                c += 1.0
            u, low = _terms(c, a, inverse_rank, positive)
            if positive:
                k = int(c) - 1
                upper_pos += u
                prefix[0, k] = a
                prefix[1, k] = upper_pos
                prefix[2, k] = upper_neg
                lower_pos += low
            else:
                upper_neg += u
                lower_neg += low
        chunks[chunk, 0] = c
        chunks[chunk, 1] = lower_pos
        chunks[chunk, 2] = lower_neg
    after_pos = 0.0  # each chunk's own sums of L become those of the chunks after it
    after_neg = 0.0
    for chunk in range(n_chunks - 1, -1, -1):
        own_pos, own_neg = chunks[chunk, 1], chunks[chunk, 2]
        chunks[chunk, 1] = after_pos
        chunks[chunk, 2] = after_neg
        after_pos += own_pos
        after_neg += own_neg


@jit
def sums_backward(labels, prefix, chunks, chunk, rows, out):
    """The backward pass of chunk ``chunk`` (after ``sums_forward``): each example's L times its
    partners above plus their U, its U times its partners below plus their L, over the number
    of positives (all 0 without positives or negatives), into ``out`` at the rows ``rows``, or
    by position where ``rows`` is empty. Chunks write only their own positions or rows, so they
    can run at the same time."""
    n = labels.size
    n_pos = chunks[chunks.shape[0] - 1, 0]
    n_neg = n - n_pos
    first = chunk * SUMS_CHUNK
    last = min(first + SUMS_CHUNK, n)
    scatter = rows.size > 0
    if n_pos == 0.0 or n_neg == 0.0:
        for position in range(first, last):
            out[rows[position] if scatter else position] = 0.0
        return
    c = chunks[chunk, 0]  # the positives at ranks <= position + 1, their A and sum of U
    a = _prefix(prefix[0], c)
    upper_pos = _prefix(prefix[1], c)
    lower_pos = chunks[chunk, 1]
    lower_neg = chunks[chunk, 2]
    inverse_n_pos = 1.0 / n_pos
    for position in range(last - 1, first - 1, -1):
        positive = labels[position]
        u, low = _terms(c, a, 1.0 / (position + 1.0), positive)
        if positive:
            above = position + 1.0 - c  # negatives
            total = ((prefix[2, int(c) - 1] + above * low) + (n_neg - above) * u
                     + lower_neg) * inverse_n_pos
            lower_pos += low
            c -= 1.0
            a = _prefix(prefix[0], c)
            upper_pos = _prefix(prefix[1], c)
        else:
            total = ((upper_pos + c * low) + (n_pos - c) * u + lower_pos) * inverse_n_pos
            lower_neg += low
        out[rows[position] if scatter else position] = total


@shared
def _prefix(values, c):
    """A column of ``sums_forward``'s row ``values`` at the last of the first ``c`` positives
    (0 for none)."""
    return values[int(c) - 1] if c > 0.0 else 0.0


@helper
def _rank_sums(labels, prefix, chunk_rows, rows, out):
    """The |dAP| sums of one ranking (``sums_forward``, then ``sums_backward`` of each chunk);
    arguments as there, ``chunk_rows`` at least as many as ``chunks`` needs."""
    chunks = chunk_rows[:sums_chunks(labels.size)]
    sums_forward(labels, prefix, chunks)
    for chunk in range(chunks.shape[0]):
        sums_backward(labels, prefix, chunks, chunk, rows, out)


@jit
def lambda_sums_range(ranked_true, order, offsets, first, last, out, work):
    """For every row of rankings ``first .. last - 1``: the sum of |dAP| over every swap with an
    example of the other label in its ranking."""
    chunks = np.empty((sums_chunks(_longest(offsets[first:last + 1])), 3))
    for g in range(first, last):
        _rank_sums(ranked_true[offsets[g]:offsets[g + 1]], work, chunks,
                   order[offsets[g]:offsets[g + 1]], out)


@helper
def _query_factor(query_normalization, sum_lambda, scale):
    """The factor on a ranking's gradients: query normalisation times its scale."""
    norm = 1.0
    if query_normalization and sum_lambda > 0.0:
        norm = math.log2(1.0 + sum_lambda) / sum_lambda
    return norm * scale


@helper
def _scale(scales, g):
    return scales[g] if scales.size else 1.0


@jit
def all_pairs_range(ranked_true, order, offsets, scales, query_normalization, first, last, grad,
                    hess, work):
    """Gradients of rankings ``first .. last - 1`` over all their pairs, without the RankNet
    factor and score normalisation: from the |dAP| sums, each pair's lambda being -|dAP| / 2."""
    sums = work[SUMS_WORK]
    no_rows = np.empty(0, dtype=np.int64)
    chunks = np.empty((sums_chunks(_longest(offsets[first:last + 1])), 3))
    for g in range(first, last):
        ranked = order[offsets[g]:offsets[g + 1]]
        labels = ranked_true[offsets[g]:offsets[g + 1]]
        _rank_sums(labels, work, chunks, no_rows, sums)  # the sums' rows come first
        sum_lambda = 0.0  # sum over pairs of 2 |lambda| = |dAP|: the positives' sums
        for position in range(ranked.size):
            if labels[position]:
                sum_lambda += sums[position]
        factor = 0.5 * _query_factor(query_normalization, sum_lambda, _scale(scales, g))
        for position in range(ranked.size):
            value = sums[position] * factor
            hess[ranked[position]] = value
            grad[ranked[position]] = -value if labels[position] else value


@jit(inline="always")  # measured: a quarter off the top-k pair loop
def _pair(delta, gap, t, ranknet, normalize):
    """(lambda, hessian) of a pair whose |dAP| is ``delta`` and whose positive outscores its
    negative by ``gap``, given t = exp(-gap)."""
    if normalize:
        delta /= abs(gap) + _SCORE_GAP
    sigma = 1.0 / (1.0 + t) if ranknet else 0.5
    return (sigma - 1.0) * delta, max(sigma * (1.0 - sigma), _MIN_HESSIAN_FACTOR) * delta * 2.0


@jit
def top_k_chunks(n):
    """The number of chunks of ``TOP_K_CHUNK`` positions (or columns) of a ranking of ``n``
    examples."""
    return (n + TOP_K_CHUNK - 1) // TOP_K_CHUNK


@helper
def _factor(top, score, positive):
    """The factor of an example at ``score`` in exp(-gap) of its pairs (see
    ``_ranking_top_k``), ``top`` being its ranking's top score."""
    return math.exp(top - score) if positive else math.exp(score - top)


@helper
def _chunk_bounds(chunk, n):
    """``first, last``: chunk ``chunk`` of a ranking of ``n`` examples is its positions (or
    columns) ``first .. last - 1``."""
    first = chunk * TOP_K_CHUNK
    return first, min(first + TOP_K_CHUNK, n)


@jit
def top_k_counts(labels, chunk, counts):
    """``counts[chunk]``: the positives among the positions of chunk ``chunk`` of a ranking
    whose labels by position are ``labels``, and the sum of their reciprocal ranks."""
    first, last = _chunk_bounds(chunk, labels.size)
    c = 0.0
    a = 0.0
    for position in range(first, last):
        if labels[position]:
            c += 1.0
            a += 1.0 / (position + 1.0)
    counts[chunk, 0] = c
    counts[chunk, 1] = a


@jit
def top_k_starts(counts):
    """Turns the rows of ``counts`` (``top_k_counts`` of every chunk) into what precedes each
    chunk, added up in chunk order; returns the ranking's positives."""
    c = 0.0
    a = 0.0
    for chunk in range(counts.shape[0]):
        chunk_c, chunk_a = counts[chunk, 0], counts[chunk, 1]
        counts[chunk, 0] = c
        counts[chunk, 1] = a
        c += chunk_c
        a += chunk_a
    return int(c)


@jit
def top_k_prepare(labels, scores, ranked, chunk, starts, work):
    """Sets the U, L and score columns of ``work`` of the positions of chunk ``chunk`` of one
    ranking (rows ``ranked``, their labels ``labels``), given ``starts`` from ``top_k_starts``,
    and zeroes their running gradients and hessians (see ``_ranking_top_k``)."""
    n = ranked.size
    upper, lower, score, g, h = work[0], work[1], work[2], work[4], work[5]
    first, last = _chunk_bounds(chunk, n)
    c = starts[chunk, 0]
    a = starts[chunk, 1]
    for position in range(first, last):
        inverse_rank = 1.0 / (position + 1.0)
        positive = labels[position]
        if positive:
            c += 1.0
            a += inverse_rank
            column = int(c) - 1
        else:
            column = n - (position + 1 - int(c))
        upper[column], lower[column] = _terms(c, a, inverse_rank, positive)
        score[column] = scores[ranked[position]]
        g[column] = 0.0
        h[column] = 0.0


@jit
def top_k_chunk(labels, scores, ranked, n_pos, k, ranknet, score_normalization, chunk, work,
                partial, block):
    """The top-k pairs of one ranking (after ``top_k_prepare`` of every chunk) whose lower
    example is in the columns of chunk ``chunk`` of ``work``: their lambdas and hessians added
    to those columns' running sums, and to ``partial`` (length 2 min(k, n) + 1, overwritten)
    each top position's own sums (gradient at 2 p, hessian at 2 p + 1) and the sum of
    2 |lambda| (last).
    ``block``: float64 scratch of shape ``TOP_K_BLOCK``.

    Chunks of disjoint columns can run at the same time; the top positions' own sums are then
    the chunks' partial sums added up in chunk order (``top_k_reduce``).
    """
    n = ranked.size
    score, factor = work[2], work[3]
    first, last = _chunk_bounds(chunk, n)
    top = scores[ranked[0]]
    bottom = scores[ranked[n - 1]]
    products = top - bottom <= _SPAN  # False for infinite scores too (inf - x, x - x: inf, nan)
    if products:
        for column in range(first, last):
            factor[column] = _factor(top, score[column], column < n_pos)
    normalize = score_normalization and top != bottom
    if default_pairs(ranknet, score_normalization, top, bottom):  # the loops without branches
        _top_k_pairs(labels, n_pos, k, True, True, True, top, first, last, work, partial,
                     block)
    else:
        _top_k_pairs(labels, n_pos, k, ranknet, normalize, products, top, first, last, work,
                     partial, block)


@shared  # plain Python too: callers from Python choose the kernel with it
def default_pairs(ranknet, score_normalization, top, bottom):
    """Whether the pairs of a ranking whose top and bottom scores are ``top`` and ``bottom``
    take XGBoost's default: the RankNet factor and score normalisation, the scores not all equal
    and spanning at most ``_SPAN`` (the exponential factors of ``_ranking_top_k``)."""
    return ranknet and score_normalization and top != bottom and top - bottom <= _SPAN


@jit
def top_k_chunk_default(labels, scores, ranked, n_pos, k, chunk, work, partial, block):
    """``top_k_chunk`` of a ranking whose pairs take XGBoost's default (``default_pairs``).

    That variant alone: ``top_k_chunk`` compiles the pairs' loops twice, for the default and
    for any options (the first call of one ranking took 5.5 s of CPU with it, 4.1 s with this).
    """
    first, last = _chunk_bounds(chunk, ranked.size)
    top = scores[ranked[0]]
    score, factor = work[2], work[3]
    for column in range(first, last):
        factor[column] = _factor(top, score[column], column < n_pos)
    _top_k_pairs(labels, n_pos, k, True, True, True, top, first, last, work, partial, block)


@jit(inline="always")
def _top_k_pairs(labels, n_pos, k, ranknet, normalize, products, top, first, last, work,
                 partial, block):
    """The pairs of ``top_k_chunk``, compiled once for constant options."""
    n = labels.size
    upper, lower, score, factor, g, h = work[0], work[1], work[2], work[3], work[4], work[5]
    inverse_r = 1.0 / n_pos
    sum_lambda = 0.0
    pos_above = 0
    n_top = min(k, n)
    for position in range(n_top):
        positive = labels[position]
        if positive:  # the negatives below
            own = pos_above
            low, high = max(n_pos, first), min(n - (position - pos_above), last)
            sign = 1.0
            pos_above += 1
        else:  # the positives below
            own = n - 1 - (position - pos_above)
            low, high = max(pos_above, first), min(n_pos, last)
            sign = -1.0
        # own_factor is computed, not read from ``factor``: another chunk may own the column.
        own_lambdas, own_hessian = _own_pairs(
            upper[own], score[own], _factor(top, score[own], positive) if products else 0.0,
            sign, lower[low:high], score[low:high], factor[low:high], g[low:high],
            h[low:high], inverse_r, ranknet, normalize, products, block)
        partial[2 * position] = sign * own_lambdas
        partial[2 * position + 1] = own_hessian
        sum_lambda -= 2.0 * own_lambdas
    partial[2 * n_top] = sum_lambda


@jit(inline="always")
def _own_pairs(own_upper, own_score, own_factor, sign, lower, score, factor, g, h, inverse_r,
               ranknet, normalize, products, block):
    """The pairs of one top example (``sign`` 1 if positive, -1 if negative) with each of the
    examples whose columns are ``lower``, ``score``, ``factor``, ``g`` and ``h``: their lambdas
    and hessians added to ``g`` and ``h``; returns the sums of the lambdas and the hessians.

    In blocks whose lambdas and hessians are stored, then summed in ``_LANES`` running sums:
    a running sum in the loop itself would keep it from vectorising.
    """
    lambdas, hessians, sums = block[0], block[1], block[2]
    sums[:2 * _LANES] = 0.0
    for start in range(0, lower.size, _BLOCK):
        stop = min(start + _BLOCK, lower.size)
        block_lower, block_score = lower[start:stop], score[start:stop]
        block_factor, block_g, block_h = factor[start:stop], g[start:stop], h[start:stop]
        for i in range(stop - start):  # slices: indices the compiler knows are >= 0
            gap = sign * (own_score - block_score[i])  # the positive's score minus the other
            t = block_factor[i] * own_factor if products else math.exp(-gap)
            lam, hessian = _pair(abs((own_upper + block_lower[i]) * inverse_r), gap, t,
                                 ranknet, normalize)
            block_g[i] -= sign * lam
            block_h[i] += hessian
            lambdas[i] = lam
            hessians[i] = hessian
        _add_in_lanes(lambdas[:stop - start], sums[:_LANES])
        _add_in_lanes(hessians[:stop - start], sums[_LANES:2 * _LANES])
    return ((sums[0] + sums[1]) + (sums[2] + sums[3]),
            (sums[4] + sums[5]) + (sums[6] + sums[7]))


@jit(inline="always")
def _add_in_lanes(values, lanes):
    """Adds ``values[i]`` to ``lanes[i % _LANES]``."""
    whole = values.size - values.size % _LANES
    for start in range(0, whole, _LANES):
        for lane in range(_LANES):
            lanes[lane] += values[start + lane]
    for i in range(whole, values.size):
        lanes[i - whole] += values[i]


@jit
def top_k_reduce(labels, n_pos, k, query_normalization, scale, partials, work):
    """Adds up the rows of ``partials`` (one per chunk of ``top_k_chunk``, in chunk order) into
    the running sums of the top positions of one ranking; returns the factor of its gradients
    and hessians, query normalisation times ``scale``."""
    n = labels.size
    if n_pos == 0 or n_pos == n:  # no pairs: ``partials`` were not written
        return scale
    g, h = work[4], work[5]
    n_top = min(k, n)
    sum_lambda = 0.0
    for chunk in range(partials.shape[0]):
        sum_lambda += partials[chunk, 2 * n_top]
    pos_above = 0
    for position in range(n_top):
        if labels[position]:
            own = pos_above
            pos_above += 1
        else:
            own = n - 1 - (position - pos_above)
        own_g = 0.0
        own_h = 0.0
        for chunk in range(partials.shape[0]):
            own_g += partials[chunk, 2 * position]
            own_h += partials[chunk, 2 * position + 1]
        g[own] += own_g
        h[own] += own_h
    return _query_factor(query_normalization, sum_lambda, scale)


@jit
def top_k_write(labels, ranked, chunk, starts, scaling, grad, hess, work):
    """Writes the running sums of the positions of chunk ``chunk`` of one ranking, times
    ``scaling``, into their rows of ``grad`` and ``hess``."""
    n = ranked.size
    g, h = work[4], work[5]
    first, last = _chunk_bounds(chunk, n)
    pos_above = int(starts[chunk, 0])
    for position in range(first, last):
        row = ranked[position]
        if labels[position]:
            column = pos_above
            pos_above += 1
        else:
            column = n - 1 - (position - pos_above)
        grad[row] = g[column] * scaling
        hess[row] = h[column] * scaling


@helper
def _ranking_top_k(labels, scores, ranked, k, ranknet, score_normalization, query_normalization,
                   scale, grad, hess, work, counts, partial, block):
    """Top-k gradients of one ranking (rows ``ranked``, their labels ``labels``) into its rows
    of ``grad`` and ``hess``, its chunks one after the other; ``counts`` and ``partial``:
    scratch of at least ``top_k_chunks(n)`` rows, of 2 and at least 2 min(k, n) + 1 columns,
    ``block`` as in ``top_k_chunk``.

    A chunk is ``TOP_K_CHUNK`` positions for ``top_k_prepare`` and ``top_k_write``, and as many
    columns for ``top_k_chunk``.

    ``work`` rows hold each class's examples in rank order, the positives from the first column
    on and the negatives from the last column back: U, L, score, exponential factor, running
    gradient and hessian.

    exp(-gap) of a pair is the product of a factor of each example, exp(m - s) for the positive
    and exp(s - m) for the negative, m the ranking's top score: no exponential in the O(k n)
    loop. Where the scores span more than ``_SPAN`` (or are infinite) the factors could
    overflow, and each pair takes its own exponential.
    """
    n = ranked.size
    n_chunks = top_k_chunks(n)
    starts = counts[:n_chunks]
    for chunk in range(n_chunks):
        top_k_counts(labels, chunk, starts)
    n_pos = top_k_starts(starts)
    for chunk in range(n_chunks):
        top_k_prepare(labels, scores, ranked, chunk, starts, work)
    if 0 < n_pos < n:
        for chunk in range(n_chunks):
            top_k_chunk(labels, scores, ranked, n_pos, k, ranknet, score_normalization, chunk,
                        work, partial[chunk], block)
    scaling = top_k_reduce(labels, n_pos, k, query_normalization, scale, partial[:n_chunks],
                           work)
    for chunk in range(n_chunks):
        top_k_write(labels, ranked, chunk, starts, scaling, grad, hess, work)


@jit
def top_k_range(ranked_true, scores, order, offsets, scales, k, ranknet, score_normalization,
                query_normalization, first, last, grad, hess, work):
    """Gradients of rankings ``first .. last - 1`` over their top-k pairs."""
    longest = _longest(offsets[first:last + 1])
    counts = np.empty((top_k_chunks(longest), 2))
    partial = np.empty((top_k_chunks(longest), 2 * min(k, longest) + 1))
    block = np.empty(TOP_K_BLOCK)
    for g in range(first, last):
        if offsets[g + 1] > offsets[g]:
            _ranking_top_k(ranked_true[offsets[g]:offsets[g + 1]], scores,
                           order[offsets[g]:offsets[g + 1]], k, ranknet, score_normalization,
                           query_normalization, _scale(scales, g), grad, hess, work, counts,
                           partial, block)


@helper
def _longest(offsets):
    longest = 0
    for g in range(offsets.size - 1):
        longest = max(longest, offsets[g + 1] - offsets[g])
    return longest


@helper
def _checked_scratch(ranked_true, order, offsets, scores, scales, out_a, out_b, has_scores,
                     fields):
    """The float64 scratch ``work`` of ``fields`` rows for the public kernels, once their input
    is checked.

    Refuses arrays that the kernels would read or write past their ends (numba does not check
    indices): one entry per row, ``offsets`` from 0 to n, a scale per ranking or none; and
    values that would give plausible numbers: ``order`` not a permutation of range(n) (rows
    left unwritten, others written twice), scales that are NaN, negative or infinite, and (with
    ``has_scores``) NaN scores. One O(n) pass over ``order`` and the scores, a fraction of the
    kernels' own passes. Its flag per row lies in the first row of ``work``, which the kernels
    overwrite: measured at 10^6 rows, an allocation of its own cost more than the check itself
    (fresh pages).
    """
    n = ranked_true.size
    if order.size != n or scores.size != n or out_a.size != n or out_b.size != n:
        raise ValueError("ranked_true, order, the scores and the outputs must have one entry "
                         "per row")
    check_offsets(offsets, n)
    if scales.size != 0 and scales.size != offsets.size - 1:
        raise ValueError("group_scale must be empty or hold one factor per ranking")
    check_weights("group_scale", scales)
    work = np.empty((fields, max(_longest(offsets), n // 8 + 1)))  # a row holds n bytes
    seen = work[0].view(np.bool_)[:n]
    seen[:] = False
    for k in range(n):  # n rows in range(n), none twice: a permutation
        row = order[k]
        if row < 0 or row >= n:
            raise ValueError("order must be a permutation of range(n): row " + str(row)
                             + " at position " + str(k) + " is not in range(" + str(n) + ")")
        if seen[row]:
            raise ValueError("order must be a permutation of range(n): row " + str(row)
                             + " again at position " + str(k))
        seen[row] = True
        if has_scores and np.isnan(scores[k]):
            raise ValueError("y_score contains NaN at index " + str(k))
    return work


@jit
def lambda_sums_into(ranked_true, order, offsets, out):
    """Write into ``out`` each example's ``|dAP|`` summed over its opposite-label partners in
    its ranking (see :mod:`fastpr.learn.kernels`): ``lambda_sums_range`` of every ranking."""
    work = _checked_scratch(ranked_true, order, offsets, out, out[:0], out, out, False,
                            SUMS_WORK)
    lambda_sums_range(ranked_true, order, offsets, 0, offsets.size - 1, out, work)


@jit
def top_k_gradients(ranked_true, scores, order, offsets, scales, k, ranknet, score_normalization,
                    query_normalization, grad, hess):
    """Write into ``grad`` and ``hess`` the LambdaMART gradients and hessians of average
    precision over each ranking's top-k pairs (see :mod:`fastpr.learn.kernels`): ``top_k_range`` of
    every ranking."""
    if k < 1:  # (k = 0 gave zero gradients, k < 0 arrays of negative size)
        raise ValueError("k must be >= 1, got " + str(k))
    work = _checked_scratch(ranked_true, order, offsets, scores, scales, grad, hess, True,
                            TOP_K_WORK)
    top_k_range(ranked_true, scores, order, offsets, scales, k, ranknet, score_normalization,
                query_normalization, 0, offsets.size - 1, grad, hess, work)


@jit
def all_pairs_gradients(ranked_true, order, offsets, scales, query_normalization, grad, hess):
    """Write into ``grad`` and ``hess`` the LambdaMART gradients and hessians of average
    precision over every opposite-label pair of each ranking (see :mod:`fastpr.learn.kernels`):
    ``all_pairs_range`` of every ranking."""
    work = _checked_scratch(ranked_true, order, offsets, grad, scales, grad, hess, False,
                            ALL_PAIRS_WORK)
    all_pairs_range(ranked_true, order, offsets, scales, query_normalization, 0,
                    offsets.size - 1, grad, hess, work)
