"""Top-k gradients of one large ranking on fastpr's thread pool.

The kernels of ``_ranking_top_k`` (``fastpr._engine.kernels.lambdas``) one after the other, each
over the ranking's chunks of ``TOP_K_CHUNK`` positions or columns, those chunks on as many
threads as ``thread_count()`` allows. Each chunk writes only its own columns and its own
partial sums, which are added up in chunk order: the same arithmetic as the serial kernel's, so
the same result whatever the number of threads.
"""
import numpy as np

from .._engine.jit import thread_count
from .._engine.kernels import lambdas as _lambdas
from .._engine.pool import run_all


def one_ranking_top_k(ranked_true, scores, order, k, ranknet, score_normalization,
                      query_normalization, scale, grad, hess, work):
    """``top_k_range`` of one ranking, its chunks on threads."""
    n = order.size
    n_chunks = _lambdas.top_k_chunks(n)
    starts = np.empty((n_chunks, 2))
    partials = np.empty((n_chunks, 2 * min(k, n) + 1))
    on_threads(n_chunks, lambda chunk: _lambdas.top_k_counts(ranked_true, chunk, starts))
    n_pos = _lambdas.top_k_starts(starts)
    on_threads(n_chunks, lambda chunk: _lambdas.top_k_prepare(ranked_true, scores, order, chunk,
                                                              starts, work))
    if 0 < n_pos < n:
        on_threads(n_chunks, lambda chunk: _lambdas.top_k_chunk(
            ranked_true, scores, order, n_pos, k, ranknet, score_normalization, chunk, work,
            partials[chunk], np.empty(_lambdas.TOP_K_BLOCK)))
    scaling = _lambdas.top_k_reduce(ranked_true, n_pos, k, query_normalization, scale, partials,
                                    work)
    on_threads(n_chunks, lambda chunk: _lambdas.top_k_write(ranked_true, order, chunk, starts,
                                                            scaling, grad, hess, work))


def on_threads(n_chunks, task):
    """``task(chunk)`` for every chunk, each thread taking the next one left."""
    chunks = iter(range(n_chunks))

    def worker():
        for chunk in chunks:  # next() on a shared iterator is atomic under the GIL
            task(chunk)

    run_all([worker] * min(thread_count(), n_chunks))
