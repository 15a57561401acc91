"""Calls from Python into the engine's helpers, which only compiled code can call
(``fastpr._engine.jit.helper``)."""
import functools

import numba


@functools.cache
def called_from_compiled_code(helper):
    """A compiled function that calls ``helper`` with its own arguments and returns its result."""

    @numba.njit
    def call(*args):
        return helper(*args)

    return call
