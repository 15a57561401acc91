"""The one numba decorator every kernel uses.

``cache=True`` keeps compiled code between processes, ``nogil=True`` lets callers thread over
kernels, and ``error_model="numpy"`` makes division by zero give inf/nan instead of raising, so
kernels never raise.
"""
import functools

import numba
import numba.extending

jit = functools.partial(numba.njit, cache=True, nogil=True, error_model="numpy")
# A plain Python function (on scalars or NumPy arrays alike) that compiled code may call too: one
# rule shared by the kernels and the API.
shared = numba.extending.register_jitable


def thread_count():
    """Threads for batch work: numba's setting (``NUMBA_NUM_THREADS``, ``numba.set_num_threads``)."""
    return numba.get_num_threads()


def thread_limit():
    """The most threads ``thread_count`` can ever return in this process (``NUMBA_NUM_THREADS``)."""
    return numba.config.NUMBA_NUM_THREADS
