"""Fixtures shared by test modules."""
import numba
import pytest


@pytest.fixture
def two_threads():
    """numba's thread count at two for the test, then as it was."""
    before = numba.get_num_threads()
    numba.set_num_threads(2)
    yield
    numba.set_num_threads(before)
