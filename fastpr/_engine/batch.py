"""The one way work goes over threads: rows of a 2-D input, ranges of ragged segments (groups,
offsets), chunks of one long ranking, bootstrap replicates, classes sorted side by side; and
the groups' codes that order segments.

A caller cuts its work into chunks; :func:`spread` runs one loop per thread on the process's one
pool, each taking the next chunk left from an iterator that the threads share (a future per
chunk would cost more than the work of many). The work is NumPy's sort and nogil kernels, which
release the GIL. Threads: numba's thread count, read without starting numba's threading layer
(callers may fork, and call from many threads on any layer), or one where the work would not
repay the hand-over. The pool lives as long as the process (starting one costs about 0.2 ms); a
forked child starts its own. Work runs inline on one thread; when the caller is itself a pool
thread, as a task waiting on tasks queued behind it could wait forever; and inside
:func:`on_this_thread`, the tasks of Dask and Spark.
"""
import contextlib
import os
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from .jit import thread_count, thread_limit

# Below this many scores in all, handing work to the thread pool costs more than it saves.
THREADED_MIN_SCORES = 1 << 17
# Scores per chunk: enough to amortise the Python calls, few enough to keep a chunk's buffers in
# cache; and at least this many chunks per thread, to even out the threads' finishing times.
BLOCK_SCORES = 1 << 16
BLOCKS_PER_THREAD = 4
# The fewest rows in a range of short segments (about 40 of 100 rows): fewer would cost more in
# Python calls than they take.
MIN_RANGE_SCORES = 1 << 12

_lock = threading.Lock()
_pool = None
_inline = threading.local()  # .value: work started on this thread runs on it alone


def _mark_pool_thread():
    _inline.value = True


@contextlib.contextmanager
def on_this_thread():
    """Run the work started inside on the calling thread alone.

    For the tasks of an engine (Dask, Spark): the engine gives each task one core and runs as
    many side by side as there are cores, so fastpr's own threads there would only compete with
    the other tasks: at 3·10^7 rows on two Dask workers of one thread each (2 cores), sorting
    each range on two threads made ``fastpr.distributed.evaluate`` 1.46x the single process,
    against 1.20x with each task on its thread (medians of 9 paired runs).
    """
    was = getattr(_inline, "value", False)
    _inline.value = True
    try:
        yield
    finally:
        _inline.value = was


def _forget_parent_pool():
    global _lock, _pool
    _lock = threading.Lock()
    _pool = None


os.register_at_fork(after_in_child=_forget_parent_pool)


def _start_pool():
    global _pool
    with _lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=thread_limit(), thread_name_prefix="fastpr",
                                       initializer=_mark_pool_thread)
        return _pool


def threaded():
    """Whether :func:`spread` can run chunks side by side here: ``thread_count()`` allows more
    than one thread, and the caller is neither a pool thread nor inside
    :func:`on_this_thread`."""
    return thread_count() > 1 and not getattr(_inline, "value", False)


def threads_for(n_scores, min_scores=THREADED_MIN_SCORES):
    """Threads for work on ``n_scores`` scores in all: ``thread_count()``, 1 below
    ``min_scores``."""
    return thread_count() if n_scores >= min_scores else 1


def spread(task, chunks, n_threads):
    """``[task(chunk) for chunk in chunks]`` (a sequence), on ``min(n_threads, len(chunks))``
    pool threads, each taking the next chunk left. A task that raises stops the others from
    taking more chunks, and its exception is raised here."""
    n_threads = min(n_threads, len(chunks))
    if n_threads <= 1 or getattr(_inline, "value", False):
        return list(map(task, chunks))
    results = [None] * len(chunks)
    shared = iter(enumerate(chunks))

    def loop():
        try:
            for i, chunk in shared:  # next() on a shared iterator is atomic under the GIL
                results[i] = task(chunk)
        except BaseException:
            for _ in shared:  # take the chunks left, so that the other threads stop too
                pass
            raise

    for done in list(map((_pool or _start_pool()).submit, [loop] * n_threads)):
        done.result()
    return results


def each(function, items, n_scores):
    """``[function(item) for item in items]`` (a sequence), on threads when the items' work,
    ``n_scores`` scores in all, repays the hand-over."""
    return spread(function, items, threads_for(n_scores))


def run_all(tasks):
    """The results of calling every task, side by side where ``threaded()``."""
    return spread(_call, tasks, thread_count())


def _call(task):  # operator.call, which Python 3.10 lacks
    return task()


def segment_ranges(starts, n_threads, block=BLOCK_SCORES, min_block=MIN_RANGE_SCORES):
    """[(first, last)]: ranges of the segments ``starts[g]:starts[g + 1]`` (none empty), of
    about ``block`` rows each, fewer when that leaves under ``BLOCKS_PER_THREAD`` ranges per
    thread, but not under ``min_block``."""
    n_rows = int(starts[-1])
    block = max(min_block, min(block, n_rows // (BLOCKS_PER_THREAD * n_threads)))
    bounds = np.searchsorted(starts[:-1], np.arange(0, n_rows, block))
    bounds = np.unique(np.append(bounds, starts.size - 1)).tolist()
    return list(zip(bounds[:-1], bounds[1:]))


def group_codes(groups):
    """(ids, codes): sorted distinct group ids and each row's position among them.

    Integer ids of a compact range need no sort: the code is the id minus the smallest one.
    """
    if groups.dtype.kind in "iu":
        low, high = groups.min(), groups.max()
        if int(high) - int(low) <= 2 * groups.size:
            # Subtract and add back in a type that cannot overflow: int64 for narrow ids, the
            # ids' own type for 64-bit ones (their span fits because it is at most 2n).
            wide = groups.dtype if groups.dtype.itemsize == 8 else np.dtype(np.int64)
            low = wide.type(low)
            codes = (groups.astype(wide, copy=False) - low).astype(np.int64)
            present = np.bincount(codes) > 0
            if present.all():
                return (np.arange(present.size, dtype=wide) + low).astype(groups.dtype), codes
            renumber = np.cumsum(present) - 1
            ids = np.flatnonzero(present).astype(wide) + low
            return ids.astype(groups.dtype), renumber[codes]
    ids, codes = np.unique(groups, return_inverse=True)
    return ids, codes.reshape(-1).astype(np.int64)


def row_of(values, r):
    """Row ``r`` of a 2-D input's per-row labels or weights; shared ones (1-D or None) as they
    are."""
    return values if values is None or values.ndim == 1 else values[r]


class PerThread(threading.local):
    """Base of the buffers that an object reuses from call to call, one set per thread: a
    subclass's ``__init__`` makes them in each thread at its first use, so threads that share
    the object never write into each other's. Pickled as a new, empty set: buffers are no
    state."""

    def __reduce__(self):
        return type(self), ()
