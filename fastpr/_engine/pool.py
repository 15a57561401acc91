"""The process's one thread pool: NumPy's sort and the nogil kernels run on it side by side.

Starting the threads of a pool costs about 0.2 ms, so the pool lives as long as the process; a
forked child, which has none of its parent's threads, starts its own. Tasks run inline when one
thread is wanted, and when the caller is itself a pool thread: a task waiting on tasks queued
behind it could wait forever. Buffers that an object reuses from call to call are kept per
thread (:class:`PerThread`).
"""
import os
import threading
from concurrent.futures import ThreadPoolExecutor

from .jit import thread_count, thread_limit

_lock = threading.Lock()
_pool = None
_in_pool_thread = threading.local()


def _mark_pool_thread():
    _in_pool_thread.value = True


def _forget_parent_pool():
    global _lock, _pool
    _lock = threading.Lock()
    _pool = None


os.register_at_fork(after_in_child=_forget_parent_pool)


def _executor():
    global _pool
    with _lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=thread_limit(),
                                       thread_name_prefix="fastpr",
                                       initializer=_mark_pool_thread)
        return _pool


def threaded():
    """Whether ``run_all`` runs tasks side by side here: ``thread_count()`` allows more than one
    and the caller is not itself a pool thread."""
    return thread_count() > 1 and not getattr(_in_pool_thread, "value", False)


def run_all(tasks):
    """The results of calling every task, on pool threads when ``threaded()``; callers pass at
    most ``thread_count()`` tasks, each a loop over shared work."""
    if len(tasks) <= 1 or not threaded():
        return [task() for task in tasks]
    pool = _executor()
    return [done.result() for done in [pool.submit(task) for task in tasks]]


class PerThread(threading.local):
    """Base of the buffers that an object reuses from call to call, one set per thread: a
    subclass's ``__init__`` (without arguments) makes them in each thread at its first use, so
    threads that share the object never write into each other's. Pickled as a new, empty set:
    buffers are no state."""

    def __reduce__(self):
        return type(self), ()
