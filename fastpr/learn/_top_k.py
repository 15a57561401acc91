"""Top-k gradients of one large ranking on fastpr's thread pool.

The kernels of ``_ranking_top_k`` (``fastpr.learn._kernels.lambdas``) one after the other, each
over the ranking's chunks of ``TOP_K_CHUNK`` positions or columns, those chunks on as many
threads as ``thread_count()`` allows. Each chunk writes only its own columns and its own
partial sums, which are added up in chunk order: the same arithmetic as the serial kernel's, so
the same result whatever the number of threads.
"""
import numpy as np

from .._engine.batch import spread
from .._engine.jit import thread_count
from ._kernels import lambdas as _lambdas


def one_ranking_top_k(ranked_true, scores, order, k, ranknet, score_normalization,
                      query_normalization, scale, grad, hess, work):
    """``top_k_range`` of one ranking, its chunks on threads."""
    n = order.size
    chunks, n_threads = range(_lambdas.top_k_chunks(n)), thread_count()
    starts = np.empty((len(chunks), 2))
    partials = np.empty((len(chunks), 2 * min(k, n) + 1))
    spread(lambda chunk: _lambdas.top_k_counts(ranked_true, chunk, starts), chunks, n_threads)
    n_pos = _lambdas.top_k_starts(starts)
    spread(lambda chunk: _lambdas.top_k_prepare(ranked_true, scores, order, chunk, starts, work),
           chunks, n_threads)
    if 0 < n_pos < n and _lambdas.default_pairs(ranknet, score_normalization,
                                                 float(scores[order[0]]),
                                                 float(scores[order[n - 1]])):
        # (a kernel that compiles only this variant of the pairs, at its first use)
        spread(lambda chunk: _lambdas.top_k_chunk_default(
            ranked_true, scores, order, n_pos, k, chunk, work, partials[chunk],
            np.empty(_lambdas.TOP_K_BLOCK)), chunks, n_threads)
    elif 0 < n_pos < n:
        spread(lambda chunk: _lambdas.top_k_chunk(
            ranked_true, scores, order, n_pos, k, ranknet, score_normalization, chunk, work,
            partials[chunk], np.empty(_lambdas.TOP_K_BLOCK)), chunks, n_threads)
    scaling = _lambdas.top_k_reduce(ranked_true, n_pos, k, query_normalization, scale, partials,
                                    work)
    spread(lambda chunk: _lambdas.top_k_write(ranked_true, order, chunk, starts, scaling, grad,
                                              hess, work), chunks, n_threads)
