"""The ``|dAP|`` sums of one large ranking on fastpr's thread pool.

``sums_forward`` (``fastpr.learn._kernels.lambdas``) runs once, then ``sums_backward`` of the
ranking's chunks of ``SUMS_CHUNK`` positions on as many threads as ``thread_count()`` allows:
each chunk starts from what the forward pass left for it and writes only its own rows, so the
result is the serial kernel's whatever the number of threads.
"""
import numpy as np

from .._engine.batch import spread
from .._engine.jit import thread_count
from ._kernels import lambdas as _lambdas


def one_ranking_sums(ranked_true, order, out, work):
    """``lambda_sums_range`` of one ranking, the backward pass of its chunks on threads."""
    chunks = np.empty((_lambdas.sums_chunks(order.size), 3))
    _lambdas.sums_forward(ranked_true, work, chunks)
    spread(lambda chunk: _lambdas.sums_backward(ranked_true, work, chunks, chunk, order, out),
           range(chunks.shape[0]), thread_count())
