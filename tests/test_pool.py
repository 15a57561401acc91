"""The process's thread pool: results in order, numba's thread count, no deadlock when nested,
a fresh pool in a forked child, a failing chunk stopping the others."""
import multiprocessing
import sys
import threading
import time

import numba
import pytest
from threads import needs_two_threads

from fastpr._engine.batch import run_all, spread


def _thread_name():
    return threading.current_thread().name


def _both_at_once():
    """Two tasks that finish only if they run at the same time."""
    barrier = threading.Barrier(2, timeout=10)
    return [lambda: barrier.wait() is not None, lambda: barrier.wait() is not None]


@needs_two_threads
def test_tasks_run_on_pool_threads_at_once_and_results_keep_their_order(two_threads):
    assert run_all(_both_at_once()) == [True, True]
    names = run_all([_thread_name, _thread_name])
    assert all(name.startswith("fastpr") for name in names)
    assert run_all([lambda k=k: k * k for k in range(2)]) == [0, 1]


def test_one_thread_runs_tasks_inline():
    before = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        assert run_all([_thread_name, _thread_name]) == [_thread_name()] * 2
    finally:
        numba.set_num_threads(before)


@needs_two_threads
def test_a_task_that_runs_tasks_runs_them_inline_instead_of_waiting_on_its_own_pool(two_threads):
    def outer():
        return run_all([_thread_name, _thread_name]) == [_thread_name()] * 2

    result = []
    caller = threading.Thread(target=lambda: result.append(run_all([outer, outer])), daemon=True)
    caller.start()
    caller.join(timeout=30)
    assert not caller.is_alive(), "nested run_all deadlocked"
    assert result == [[True, True]]


@needs_two_threads
def test_a_chunk_that_raises_stops_the_other_threads_and_raises_to_the_caller(two_threads):
    done = []

    def task(chunk):
        if chunk == 3:
            raise KeyError(chunk)
        time.sleep(0.001)  # (releases the GIL: the failing thread takes the chunks left at once)
        done.append(chunk)
        return chunk

    with pytest.raises(KeyError):
        spread(task, range(200), 2)
    assert len(done) < 100
    assert spread(task, range(3), 2) == [0, 1, 2]


def _in_forked_child():
    numba.set_num_threads(2)
    return run_all(_both_at_once())


@needs_two_threads
@pytest.mark.skipif(sys.platform == "win32", reason="no fork on Windows")
def test_a_forked_child_starts_its_own_pool(two_threads):
    run_all([_thread_name, _thread_name])  # the parent's pool exists before the fork
    with multiprocessing.get_context("fork").Pool(1) as children:
        assert children.apply_async(_in_forked_child).get(timeout=60) == [True, True]
