"""The private numba API under the kernel cache (``fastpr._engine.numba_private``).

The first test fails when the installed numba has changed any of it, so that CI goes red on an
incompatible numba; the last checks what such a numba gets: one warning that names the change,
and kernels compiled in memory that compute the same. That a fresh process loads every kernel
from fastpr's cache after warmup (cache hits only) is checked in test_cache.py:
``test_read_only_package_uses_the_cache_warmup_filled`` and
``test_warmup_in_several_processes_leaves_every_kernel_in_the_cache``.
"""
import json
import os
import re
import subprocess
import sys

import numba
import numpy as np
import pytest
from compiled import called_from_compiled_code
from numba.core import caching

import fastpr
from fastpr._engine import numba_private
from fastpr._engine.kernels.hull import hull_areas


def test_the_installed_numba_has_every_private_piece_that_fastpr_uses():
    assert numba_private.incompatibility() is None
    assert numba_private.PROBLEM is None


def test_every_numba_method_that_fastpr_overrides_is_checked():
    checked = re.findall(r"caching:(\w+)\.(\w+)\(", numba_private._USES)
    for cls in (numba_private._CacheImpl, numba_private._IndexDataFile,
                numba_private._KernelCache):
        bases = {base.__name__ for base in cls.__mro__[1:]}
        for name, value in vars(cls).items():
            if callable(value):
                assert any(b in bases and m == name for b, m in checked), (cls.__name__, name)


def _load_overload_with_another_parameter(self, sig, target_context, flags):
    return None


def _index_file_that_keeps_its_directory_elsewhere(self, cache_path, filename_base, source_stamp):
    self._directory = cache_path


@pytest.mark.parametrize(("owner", "name", "value", "problem"), [
    (caching, "CompileResultCacheImpl", None,
     "numba.core.caching:CompileResultCacheImpl.__init__ is missing or not a Python function"),
    (caching.IndexDataCacheFile, "_load_index", None,
     "numba.core.caching:IndexDataCacheFile._load_index is missing or not a Python function"),
    (caching.FunctionCache, "load_overload", _load_overload_with_another_parameter,
     "numba.core.caching:FunctionCache.load_overload takes (self, sig, target_context, flags), "
     "not (self, sig, target_context)"),
    (caching.IndexDataCacheFile, "__init__", _index_file_that_keeps_its_directory_elsewhere,
     "numba.core.caching:IndexDataCacheFile.__init__ no longer uses _cache_path"),
])
def test_a_missing_or_changed_piece_is_named(monkeypatch, owner, name, value, problem):
    if value is None:
        monkeypatch.delattr(owner, name)
    else:
        monkeypatch.setattr(owner, name, value)
    assert numba_private.incompatibility() == problem


# A numba without IndexDataCacheFile: what the child computed, and its kernels' statistics.
_WITHOUT = """
import json
import numba.core.caching

del numba.core.caching.IndexDataCacheFile

import numba, numpy as np, fastpr
from fastpr._engine import jit
from fastpr._engine.kernels.hull import hull_areas  # a helper, so an ordinary kernel here

vertices = np.array([[0.0, 0.0, 9.0], [1.0, 3.0, 0.5], [4.0, 4.0, 0.1]])
result = [fastpr.evaluate([1, 0, 1, 1, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.6, 0.1]).to_dict(),
          numba.njit(lambda v: hull_areas(v))(vertices)[1]]
print(json.dumps({
    "result": result, "cache_dir": jit.cache_dir(),
    "compiled": sum(sum(k.stats.cache_misses.values()) for k in jit.kernels()),
    "loaded": sum(sum(k.stats.cache_hits.values()) for k in jit.kernels())}))
"""


def test_a_changed_numba_warns_once_and_compiles_in_memory_what_computes_the_same(tmp_path):
    numba_cache = tmp_path / "numba"
    numba_cache.mkdir()
    env = dict(os.environ, NUMBA_CACHE_DIR=str(numba_cache))
    out = subprocess.run([sys.executable, "-c", _WITHOUT], env=env, cwd=tmp_path,
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    values = json.loads(out.stdout.strip().splitlines()[-1])
    vertices = np.array([[0.0, 0.0, 9.0], [1.0, 3.0, 0.5], [4.0, 4.0, 0.1]])
    assert values["result"] == [
        fastpr.evaluate([1, 0, 1, 1, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.6, 0.1]).to_dict(),
        called_from_compiled_code(hull_areas)(vertices)[1]]
    assert values["cache_dir"] is None and values["compiled"] > 0 and values["loaded"] == 0
    assert list(numba_cache.iterdir()) == []
    warning = (f"fastpr: numba {numba.__version__} is not the numba that fastpr's kernel cache was "
               "written for (numba.core.caching:IndexDataCacheFile.__init__ is missing")
    assert out.stderr.count(warning) == 1 and out.stderr.count("Warning") == 1, out.stderr
