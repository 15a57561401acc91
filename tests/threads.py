"""The skip mark of tests that need numba's thread count at two (their fixture ``two_threads``
is in conftest.py)."""
import numba
import pytest

needs_two_threads = pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2,
                                       reason="numba runs with a single thread here")
