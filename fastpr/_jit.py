"""The one numba decorator every kernel uses.

``cache=True`` keeps compiled code between processes, ``nogil=True`` lets callers thread over
kernels, and ``error_model="numpy"`` makes division by zero give inf/nan instead of raising, so
kernels never raise.
"""
import functools

import numba

jit = functools.partial(numba.njit, cache=True, nogil=True, error_model="numpy")


def thread_count():
    """Threads for batch work: numba's setting (``NUMBA_NUM_THREADS``, ``numba.set_num_threads``).

    Read without starting numba's threading layer, as ``numba.get_num_threads`` would: under
    GNU OpenMP, a child forked after that dies at its own first parallel region. Until something
    starts the layer (``numba.set_num_threads`` does), no thread can have set a count, so the
    count is ``NUMBA_NUM_THREADS``.
    """
    try:
        numba.threading_layer()
    except ValueError:  # not started
        return numba.config.NUMBA_NUM_THREADS
    return numba.get_num_threads()


def thread_limit():
    """The most threads ``thread_count`` can ever return in this process (``NUMBA_NUM_THREADS``)."""
    return numba.config.NUMBA_NUM_THREADS
