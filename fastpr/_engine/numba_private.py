"""numba's private API, which only the kernel cache uses, checked against numba at import.

numba's public cache (``cache=True``, ``NUMBA_CACHE_DIR``) keys a function's cache on its own
source file only (a documented limit: after an edit to ``area.py`` a cached ``sweep`` ran the
old area code), raises at import where the package and ``$HOME`` are read-only, lets two
processes that save one function at once mix up its signatures, and raises on a damaged file;
no public setting changes that. So ``cache`` builds fastpr's cache on numba's classes, and
``helper_dispatcher`` makes a dispatcher that has no entry point for Python and refuses calls
from Python (which the public decorators cannot: the call would crash the process).

``incompatibility`` checks at import that every numba name used here exists, with the
parameters and attributes used here. Where one differs, ``PROBLEM`` says which, one warning
names it and numba's version, and nothing here is used: kernels compile in memory, never stale.
"""
import functools
import importlib
import inspect
import os
import re
import sys
import warnings

try:
    import fcntl
except ImportError:  # Windows: saves go unlocked, as numba's own always do
    fcntl = None

import numba

# numba's names used below (in numba.core), the parameters they take, and the attributes of the
# classes below that their code uses (load_overload's: _KernelCache's is a copy with one change);
# an indented line continues the one above.
_USES = """
caching:_CacheLocator.get_cache_path(self)
caching:_CacheLocator.get_source_stamp(self)
caching:_CacheLocator.get_disambiguator(self)
caching:_CacheLocator.ensure_cache_path(self) get_cache_path
caching:CompileResultCacheImpl.__init__(self, py_func) _lineno _locator _filename_base
caching:CompileResultCacheImpl.get_filename_base(self, fullname, abiflags) get_disambiguator
caching:CompileResultCacheImpl.check_cachable(self, cres) _locator _py_file _lineno
caching:IndexDataCacheFile.__init__(self, cache_path, filename_base, source_stamp) _cache_path
caching:IndexDataCacheFile.save(self, key, data) _load_index
caching:IndexDataCacheFile.load(self, key) _load_index
caching:IndexDataCacheFile._load_index(self)
caching:FunctionCache.__init__(self, py_func) _py_func _impl_class _impl _cache_file locator
caching:FunctionCache.load_overload(self, sig, target_context) refresh _load_overload
    _guard_against_spurious_io_errors
caching:FunctionCache._guard_against_spurious_io_errors(self)
caching:FunctionCache._load_overload(self, sig, target_context)
caching:FunctionCache.save_overload(self, sig, data)
registry:CPUDispatcher.__init__(self, py_func, locals, targetoptions, pipeline_class) _cache
registry:CPUDispatcher.compile(self, sig) _cache load_overload save_overload
runtime:rtsys.initialize(ctx)
"""


def incompatibility():
    """What the installed numba lacks or has changed of ``_USES``, or None."""
    for line in re.sub(r"\n\s+", " ", _USES).strip().splitlines():
        name, parameters, names = re.fullmatch(r"(\S+)\((.*)\) ?(.*)", line).groups()
        module, path = ("numba.core." + name).split(":")
        try:
            found = importlib.import_module(module)
            for attribute in path.split("."):
                found = getattr(found, attribute)
            signature = inspect.signature(found)
            unused = set(names.split()) - set(inspect.unwrap(found).__code__.co_names)
        except (ImportError, AttributeError, TypeError, ValueError):
            return f"numba.core.{name} is missing or not a Python function"
        if ", ".join(signature.parameters) != parameters:
            return f"numba.core.{name} takes {signature}, not ({parameters})"
        if unused:
            return f"numba.core.{name} no longer uses {', '.join(sorted(unused))}"
    return None


PROBLEM = incompatibility()
if PROBLEM:
    warnings.warn(f"fastpr: numba {numba.__version__} is not the numba that fastpr's kernel cache "
                  f"was written for ({PROBLEM}), so kernels compile in memory in every process "
                  "(seconds at first use), until a fastpr release supports this numba.",
                  UserWarning, stacklevel=2)
else:
    from numba.core import caching
    from numba.core.registry import CPUDispatcher
    from numba.core.runtime import rtsys

    def cache(dispatcher, path, stamp, on_save_error):
        """Cache ``dispatcher``'s compiled code in directory ``path``, fresh while ``stamp`` is
        the same; ``on_save_error(py_func, error)`` is called where a save raises OSError."""
        dispatcher._cache = _KernelCache(dispatcher.py_func, path, stamp, on_save_error)

    class _HelperDispatcher(CPUDispatcher):
        def __call__(self, *args, **kwargs):
            # Its compiled code has no entry point for Python: calling it would crash the process.
            raise TypeError(f"{self.py_func.__qualname__} is a helper: only compiled kernels "
                            "call it")

    def helper_dispatcher(function, options):
        """A dispatcher for ``function`` with no wrappers for Python or C callers."""
        return _HelperDispatcher(py_func=function, locals={}, targetoptions={
            "nopython": True, "no_cpython_wrapper": True, "no_cfunc_wrapper": True, **options})

    class _CacheImpl(caching.CompileResultCacheImpl, caching._CacheLocator):
        """numba's cache implementation of one kernel, and its locator (numba's searches its
        own locators, or NUMBA_CACHE_LOCATOR_CLASSES): files in ``path``, fresh while ``stamp``
        is the same, named as numba names them (module.function-line.pyXY)."""

        def __init__(self, py_func, path, stamp):
            self._locator, self._path, self._stamp = self, path, stamp
            code = py_func.__code__
            self._py_file, self._lineno = code.co_filename, code.co_firstlineno
            module = py_func.__module__.rsplit(".", 1)[-1]
            self._filename_base = self.get_filename_base(f"{module}.{py_func.__qualname__}",
                                                         getattr(sys, "abiflags", ""))

        def get_cache_path(self):
            return self._path

        def get_source_stamp(self):
            return self._stamp

        def get_disambiguator(self):
            return str(self._lineno)

    class _IndexDataFile(caching.IndexDataCacheFile):
        """numba's index and data files of one kernel, saved while holding the cache's lock.

        numba saves a new signature by reading the kernel's index, taking the first data file
        number that it does not list, and writing both: two processes saving signatures of one
        kernel at once (``fastpr warmup``'s, workers starting together) could take the same
        number, and one signature's entry would then lead to the other's code.
        """

        def save(self, key, data):
            # A POSIX record lock (lockf), not flock: a process forked while another thread
            # saves does not inherit it, so it cannot keep the lock from others for its life.
            with open(os.path.join(self._cache_path, ".lock"), "a") as lock:
                if fcntl is not None:
                    fcntl.lockf(lock, fcntl.LOCK_EX)
                super().save(key, data)  # (closing the file releases the lock)

        # A damaged file (a cache restored in part, a power cut) is a miss, and is written
        # anew, not an error: anything its unpickling raises says only that it cannot be read.

        def _load_index(self):
            try:
                return super()._load_index()
            except Exception:  # noqa: BLE001
                return {}

        def load(self, key):
            try:
                return super().load(key)
            except Exception:  # noqa: BLE001
                return None

    class _KernelCache(caching.FunctionCache):
        def __init__(self, py_func, path, stamp, on_save_error):
            self._impl_class = functools.partial(_CacheImpl, path=path, stamp=stamp)
            super().__init__(py_func)
            self._cache_file = _IndexDataFile(path, self._impl.filename_base, stamp)
            self._on_save_error = on_save_error

        def load_overload(self, sig, target_context):
            # numba's first refreshes the whole target (imports every typing and lowering
            # registry, SciPy's BLAS check included): most of a warm start. Code compiled
            # earlier needs only numba's runtime; a compile after a miss refreshes the target.
            rtsys.initialize(target_context)
            with self._guard_against_spurious_io_errors():
                return self._load_overload(sig, target_context)

        def save_overload(self, sig, data):
            try:
                super().save_overload(sig, data)
            except OSError as error:
                self._on_save_error(self._py_func, error)

