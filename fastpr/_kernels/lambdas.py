"""LambdaMART for average precision: |dAP| summed over pairs, and gradients with XGBoost's
``rank:map`` semantics, over rankings given as segments of a row order.

Rankings: segment g is rows ``order[offsets[g]:offsets[g + 1]]`` by descending score, ties in
row order (``order.py``); outputs are indexed by row. Ranks, counts and sums as in
``ap_deltas.py``. For a pair of opposite labels at ranks u < l, R |dAP| = U(u) + L(l), where
each term depends only on its own example (label, rank r, c_r, A_r):

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
"""
import math

import numpy as np

from .._jit import jit

_MIN_HESSIAN_FACTOR = 1e-16  # XGBoost's floor on sigma (1 - sigma)
_SCORE_GAP = 0.01  # added to |s+ - s-| by score normalisation


@jit
def _terms(c, a, inverse_rank, positive):
    """(U, L) of an example with count ``c`` and reciprocal sum ``a`` at its rank (its own rank
    included), given 1 / rank."""
    if positive:
        return c * inverse_rank - a, a - (c + 1.0) * inverse_rank
    return (c + 1.0) * inverse_rank - a, a - c * inverse_rank


@jit
def _fill_terms(is_positive, ranked, labels, upper, lower):
    """Per position: label, U and L; returns the number of positives."""
    c = 0.0
    a = 0.0
    for position in range(ranked.size):
        inverse_rank = 1.0 / (position + 1.0)
        positive = is_positive[ranked[position]]
        if positive:
            c += 1.0
            a += inverse_rank
        labels[position] = positive
        upper[position], lower[position] = _terms(c, a, inverse_rank, positive)
    return int(c)


@jit
def _rank_sums(is_positive, ranked, labels, sums, upper, lower):
    """The |dAP| sums of one ranking, by position, into ``sums`` (all 0 without positives or
    negatives); returns the number of positives. ``labels``, ``upper`` and ``lower``: float64
    scratch at least as long as the ranking.

    Forward: each example's L times its partners above, plus their U; backward: its U times its
    partners below, plus their L.
    """
    n = ranked.size
    c = 0.0
    a = 0.0
    upper_pos = 0.0
    upper_neg = 0.0
    for position in range(n):
        inverse_rank = 1.0 / (position + 1.0)
        positive = is_positive[ranked[position]]
        labels[position] = positive
        if positive:
            c += 1.0
            a += inverse_rank
        u, low = _terms(c, a, inverse_rank, positive)
        upper[position] = u
        lower[position] = low
        if positive:
            sums[position] = upper_neg + (position + 1.0 - c) * low
            upper_pos += u
        else:
            sums[position] = upper_pos + c * low
            upper_neg += u
    n_pos = c
    n_neg = n - c
    if n_pos == 0.0 or n_neg == 0.0:
        for position in range(n):
            sums[position] = 0.0
        return int(n_pos)
    lower_pos = 0.0
    lower_neg = 0.0
    for position in range(n - 1, -1, -1):  # c: the positives at ranks <= position + 1
        if labels[position]:
            below = n_neg - (position + 1.0 - c)
            sums[position] = (sums[position] + below * upper[position] + lower_neg) / n_pos
            lower_pos += lower[position]
            c -= 1.0
        else:
            below = n_pos - c
            sums[position] = (sums[position] + below * upper[position] + lower_pos) / n_pos
            lower_neg += lower[position]
    return int(n_pos)


@jit
def _longest(offsets, first, last):
    longest = 0
    for g in range(first, last):
        longest = max(longest, offsets[g + 1] - offsets[g])
    return longest


@jit
def lambda_sums_range(is_positive, order, offsets, first, last, out):
    """For every row of rankings ``first .. last - 1``: the sum of |dAP| over every swap with an
    example of the other label in its ranking."""
    work = np.empty((4, _longest(offsets, first, last)))
    labels, sums = work[0], work[1]
    for g in range(first, last):
        ranked = order[offsets[g]:offsets[g + 1]]
        _rank_sums(is_positive, ranked, labels, sums, work[2], work[3])
        for position in range(ranked.size):
            out[ranked[position]] = sums[position]


@jit
def _query_factor(query_normalization, sum_lambda, scale):
    """The factor on a ranking's gradients: query normalisation times its scale."""
    norm = 1.0
    if query_normalization and sum_lambda > 0.0:
        norm = math.log2(1.0 + sum_lambda) / sum_lambda
    return norm * scale


@jit
def _scale(scales, g):
    return scales[g] if scales.size else 1.0


@jit
def all_pairs_range(is_positive, order, offsets, scales, query_normalization, first, last, grad,
                    hess):
    """Gradients of rankings ``first .. last - 1`` over all their pairs, without the RankNet
    factor and score normalisation: from the |dAP| sums, each pair's lambda being -|dAP| / 2."""
    work = np.empty((4, _longest(offsets, first, last)))
    labels, sums = work[0], work[1]
    for g in range(first, last):
        ranked = order[offsets[g]:offsets[g + 1]]
        _rank_sums(is_positive, ranked, labels, sums, work[2], work[3])
        sum_lambda = 0.0  # sum over pairs of 2 |lambda| = |dAP|: the positives' sums
        for position in range(ranked.size):
            sum_lambda += labels[position] * sums[position]
        factor = 0.5 * _query_factor(query_normalization, sum_lambda, _scale(scales, g))
        for position in range(ranked.size):
            value = sums[position] * factor
            hess[ranked[position]] = value
            grad[ranked[position]] = -value if labels[position] else value


@jit
def _pair(delta, gap, ranknet, normalize):
    """(lambda, hessian) of a pair whose |dAP| is ``delta`` and whose positive outscores its
    negative by ``gap``."""
    if normalize:
        delta /= abs(gap) + _SCORE_GAP
    sigma = 1.0 / (1.0 + math.exp(-gap)) if ranknet else 0.5
    return (sigma - 1.0) * delta, max(sigma * (1.0 - sigma), _MIN_HESSIAN_FACTOR) * delta * 2.0


@jit
def _ranking_top_k(is_positive, scores, ranked, k, ranknet, score_normalization,
                   query_normalization, scale, grad, hess, work):
    """Top-k gradients of one ranking into rows ``ranked`` of ``grad`` and ``hess``.

    ``work`` (at least (8, n)): label, U and L by position, then each class's examples in rank
    order (positive a in column a, negative b in column n_pos + b): U, L, score and running
    gradient and hessian.
    """
    n = ranked.size
    labels, upper, lower = work[0], work[1], work[2]
    n_pos = _fill_terms(is_positive, ranked, labels, upper, lower)
    n_neg = n - n_pos
    if n_pos == 0 or n_neg == 0:
        for position in range(n):
            grad[ranked[position]] = 0.0
            hess[ranked[position]] = 0.0
        return
    class_upper, class_lower, score, g, h = work[3], work[4], work[5], work[6], work[7]
    a = 0
    b = 0
    for position in range(n):
        if labels[position]:
            column = a
            a += 1
        else:
            column = n_pos + b
            b += 1
        class_upper[column] = upper[position]
        class_lower[column] = lower[position]
        score[column] = scores[ranked[position]]
        g[column] = 0.0
        h[column] = 0.0
    normalize = score_normalization and scores[ranked[0]] != scores[ranked[n - 1]]
    inverse_r = 1.0 / n_pos
    sum_lambda = 0.0
    a = 0
    b = n_pos
    for position in range(min(k, n)):
        if labels[position]:
            for other in range(b, n):  # the negatives below
                delta = abs((class_upper[a] + class_lower[other]) * inverse_r)
                lam, hessian = _pair(delta, score[a] - score[other], ranknet, normalize)
                g[a] += lam
                g[other] -= lam
                h[a] += hessian
                h[other] += hessian
                sum_lambda -= 2.0 * lam
            a += 1
        else:
            for other in range(a, n_pos):  # the positives below
                delta = abs((class_upper[b] + class_lower[other]) * inverse_r)
                lam, hessian = _pair(delta, score[other] - score[b], ranknet, normalize)
                g[other] += lam
                g[b] -= lam
                h[other] += hessian
                h[b] += hessian
                sum_lambda -= 2.0 * lam
            b += 1
    factor = _query_factor(query_normalization, sum_lambda, scale)
    a = 0
    b = n_pos
    for position in range(n):
        column = a if labels[position] else b
        if labels[position]:
            a += 1
        else:
            b += 1
        grad[ranked[position]] = g[column] * factor
        hess[ranked[position]] = h[column] * factor


@jit
def top_k_range(is_positive, scores, order, offsets, scales, k, ranknet, score_normalization,
                query_normalization, first, last, grad, hess):
    """Gradients of rankings ``first .. last - 1`` over their top-k pairs."""
    work = np.empty((8, _longest(offsets, first, last)))
    for g in range(first, last):
        _ranking_top_k(is_positive, scores, order[offsets[g]:offsets[g + 1]], k, ranknet,
                       score_normalization, query_normalization, _scale(scales, g), grad, hess,
                       work)


@jit
def lambda_sums(is_positive, order, offsets, out):
    """``lambda_sums_range`` of every ranking."""
    lambda_sums_range(is_positive, order, offsets, 0, offsets.size - 1, out)


@jit
def top_k_gradients(is_positive, scores, order, offsets, scales, k, ranknet, score_normalization,
                    query_normalization, grad, hess):
    """``top_k_range`` of every ranking."""
    top_k_range(is_positive, scores, order, offsets, scales, k, ranknet, score_normalization,
                query_normalization, 0, offsets.size - 1, grad, hess)


@jit
def all_pairs_gradients(is_positive, order, offsets, scales, query_normalization, grad, hess):
    """``all_pairs_range`` of every ranking."""
    all_pairs_range(is_positive, order, offsets, scales, query_normalization, 0,
                    offsets.size - 1, grad, hess)
