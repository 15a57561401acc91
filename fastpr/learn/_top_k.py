"""Top-k gradients of one large ranking on fastpr's thread pool.

Its pairs split by their lower example into chunks of ``TOP_K_CHUNK`` columns, run by as many
threads as ``thread_count()`` allows; each chunk keeps its own sums of the top positions, added
up in chunk order afterwards, so the result does not depend on the number of threads.
"""
import numpy as np

from .._engine.jit import thread_count
from .._engine.kernels import lambdas as _lambdas
from .._engine.pool import run_all


def one_ranking_top_k(ranked_true, scores, order, k, ranknet, score_normalization,
                      query_normalization, scale, grad, hess, work):
    """``top_k_range`` of one ranking, its chunks on threads: the same arithmetic, so the same
    result, as ``top_k_range``'s one chunk after the other."""
    n = order.size
    n_pos = _lambdas.top_k_prepare(ranked_true, scores, order, work)
    n_chunks = _lambdas.top_k_chunks(n)
    partials = np.empty((n_chunks, 2 * min(k, n) + 1))
    if 0 < n_pos < n:
        chunks = iter(range(n_chunks))

        def worker():
            block = np.empty(_lambdas.TOP_K_BLOCK)
            for chunk in chunks:  # next() on a shared iterator is atomic under the GIL
                first = chunk * _lambdas.TOP_K_CHUNK
                _lambdas.top_k_chunk(ranked_true, scores, order, n_pos, k, ranknet,
                                     score_normalization, first,
                                     min(first + _lambdas.TOP_K_CHUNK, n), work,
                                     partials[chunk], block)

        run_all([worker] * min(thread_count(), n_chunks))
    _lambdas.top_k_finish(ranked_true, order, n_pos, k, query_normalization, scale, partials,
                          grad, hess, work)
