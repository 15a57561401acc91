"""The numba decorators of the kernels (``jit``, and ``helper`` for kernels that only other
kernels call), and where their compiled code is cached.

``nogil=True`` lets callers thread over kernels, and ``error_model="numpy"`` makes division by
zero give inf/nan instead of raising, so kernels never raise.

Compiled code is cached on disk, but not with numba's own locators: those key a function's
cache on its own source file only, so after an edit to ``area.py`` a cached ``sweep`` (which
has the area code compiled into it) ran the old code; and where the package directory and
``$HOME`` are read-only they raise at import time. Here every kernel is cached in one directory
named by the Python, NumPy and numba versions and a hash of all kernel sources, this file and
those versions (llvmlite's too), so any edit or upgrade starts a fresh directory. The directory
lives in the first of these that holds it already or can be written:

1. ``$NUMBA_CACHE_DIR/fastpr``;
2. ``_engine/kernels/__pycache__`` inside the installed package (where ``fastpr warmup`` at
   image build time leaves it for read-only containers);
3. ``$XDG_CACHE_HOME/fastpr`` or ``~/.cache/fastpr``;
4. a private directory in the system's temporary directory (with a warning).

With none of them, kernels compile in memory in every process (with a warning).
"""
import contextlib
import functools
import hashlib
import os
import shutil
import stat
import sys
import tempfile
import warnings

try:
    import fcntl
except ImportError:  # Windows: saves go unlocked, as numba's own always do
    fcntl = None

import llvmlite
import numba
import numba.extending
import numpy as np
from numba.core import caching, event
from numba.core.dispatcher import Dispatcher
from numba.core.registry import CPUDispatcher
from numba.core.runtime import rtsys

_KERNEL_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels")
_PACKAGE_BASE = os.path.join(_KERNEL_DIR, "__pycache__")
_DISPATCHERS = []  # every kernel made by ``jit`` or ``helper``, in definition order
_NO_CACHE_HINT = ("set NUMBA_CACHE_DIR to a writable directory, or run `fastpr warmup` where "
                  "the package directory is writable (at image build time)")


def jit(function=None, **options):
    """``numba.njit`` with fastpr's options and cache; ``@jit`` or ``@jit(inline="always")``."""
    if function is None:
        return functools.partial(jit, **options)
    return _cached(numba.njit(function, **_options(options)), function)


class _HelperDispatcher(CPUDispatcher):
    def __call__(self, *args, **kwargs):
        # Its compiled code has no entry point for Python: calling it would crash the process.
        raise TypeError(f"{self.py_func.__qualname__} is a helper: only compiled kernels call it")


def helper(function=None, **options):
    """``jit`` for a kernel that only other kernels call: ``@helper`` or ``@helper(...)``.

    numba gives every kernel a wrapper through which Python calls it and one for C callers,
    about half the compile time of a small function, though a kernel called from compiled code
    uses neither; a helper is compiled without them (calling it from Python raises TypeError).
    """
    if function is None:
        return functools.partial(helper, **options)
    if numba.config.DISABLE_JIT:
        return function
    options = {"nopython": True, "no_cpython_wrapper": True, "no_cfunc_wrapper": True,
               **_options(options)}
    return _cached(_HelperDispatcher(py_func=function, locals={}, targetoptions=options),
                   function)


def _options(options):
    return {"nogil": True, "error_model": "numpy", **options}


def _cached(dispatcher, function):
    if isinstance(dispatcher, Dispatcher):  # not a plain function under NUMBA_DISABLE_JIT
        dispatcher._cache = _KernelCache(function) if cache_dir() else caching.NullCache()
        _DISPATCHERS.append(dispatcher)
    return dispatcher


def kernels():
    """Every kernel made by ``jit`` so far (their ``stats`` count cache hits and misses)."""
    return list(_DISPATCHERS)


def source_key(kernel_dir=_KERNEL_DIR, versions=None):
    """Hex digest of the kernel sources, this file and the versions that shape compiled code."""
    if versions is None:
        versions = (sys.version, np.__version__, numba.__version__, llvmlite.__version__)
    digest = hashlib.sha256(repr(versions).encode())
    paths = [os.path.join(kernel_dir, name) for name in sorted(os.listdir(kernel_dir))
             if name.endswith(".py")]
    for path in [*paths, os.path.abspath(__file__)]:
        with open(path, "rb") as f:
            digest.update(os.path.basename(path).encode() + b"\0" + f.read() + b"\0")
    return digest.hexdigest()


_current_key = functools.cache(source_key)


def _versions_prefix():
    """The start of the cache directory's name: the interpreter and library versions, and a
    digest of the interpreter's build and llvmlite's version, so that two environments that
    share the package directory (an editable install) keep apart what they prune."""
    build = hashlib.sha256(repr((sys.version, llvmlite.__version__)).encode()).hexdigest()[:8]
    return (f"{sys.implementation.cache_tag}-numpy{np.__version__}-numba{numba.__version__}-"
            f"{build}-")


def _bases():
    """(parent of the cache directory, whether it is temporary), in order of preference."""
    if numba.config.CACHE_DIR:  # (absolute: the process may change directory later)
        yield os.path.join(os.path.abspath(numba.config.CACHE_DIR), "fastpr"), False
    yield _PACKAGE_BASE, False
    user_cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"),
                                                                  ".cache")
    yield os.path.join(user_cache, "fastpr"), False
    if hasattr(os, "getuid"):
        yield _private_temp_dir(), True


def _private_temp_dir():
    """A directory in the temporary directory that only this user can write, or None.

    Cached code is unpickled, so a directory that another user could write is never used.
    """
    try:
        path = os.path.join(tempfile.gettempdir(), f"fastpr-{os.getuid()}")
        os.makedirs(path, mode=0o700, exist_ok=True)
        info = os.lstat(path)
    except OSError:  # (FileNotFoundError too: no usable temporary directory at all)
        return None
    private = (stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid()
               and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH))
    return path if private else None


def _writable(path):
    try:
        os.makedirs(path, exist_ok=True)
        tempfile.TemporaryFile(dir=path).close()
    except OSError:
        return False
    return True


def _prune_siblings(path):
    """Delete the caches of earlier sources for the same versions beside a new one.

    Only inside the package: elsewhere other installations may share the parent, and caches for
    other versions may belong to other environments that use this same source tree.
    """
    parent, name = os.path.split(path)
    prefix = _versions_prefix()
    for other in os.listdir(parent):
        if other != name and other.startswith(prefix):
            shutil.rmtree(os.path.join(parent, other), ignore_errors=True)


@functools.cache
def cache_dir():
    """The directory of this process's kernel cache, or None when kernels compile in memory.

    A directory that exists is used even when read-only: it was warmed (``fastpr warmup``)
    before the files were made read-only. Warns once if the cache is temporary or absent.
    """
    name = _versions_prefix() + _current_key()[:16]
    for base, temporary in _bases():
        if base is None:
            continue
        path = os.path.join(base, name)
        existed = os.path.isdir(path)
        if not (existed and os.access(path, os.R_OK | os.X_OK) or _writable(path)):
            continue
        if base == _PACKAGE_BASE and not existed:
            _prune_siblings(path)
        if temporary:
            warnings.warn(f"fastpr: no writable cache directory for compiled kernels; using "
                          f"{path}, which may not outlive this machine; {_NO_CACHE_HINT}.",
                          UserWarning, stacklevel=3)
        return path
    warnings.warn("fastpr: no writable cache directory for compiled kernels, so they compile "
                  f"in memory in every process (seconds at first use); {_NO_CACHE_HINT}.",
                  UserWarning, stacklevel=3)
    return None


class _Locator(caching._CacheLocator):
    """Every kernel's cache in ``cache_dir()``, fresh as long as ``source_key()`` is the same."""

    def __init__(self, py_func):
        self._py_file = py_func.__code__.co_filename
        self._lineno = py_func.__code__.co_firstlineno

    def get_cache_path(self):
        return cache_dir()

    def get_source_stamp(self):
        return _current_key()

    def get_disambiguator(self):
        return str(self._lineno)


class _KernelCacheImpl(caching.CompileResultCacheImpl):
    def __init__(self, py_func):
        # numba's constructor searches its own locators (or NUMBA_CACHE_LOCATOR_CLASSES); this
        # one always uses _Locator, and names files as numba does: module.function-line.pyXY.
        self._lineno = py_func.__code__.co_firstlineno
        self._locator = _Locator(py_func)
        module = py_func.__module__.rsplit(".", 1)[-1]
        self._filename_base = self.get_filename_base(f"{module}.{py_func.__qualname__}",
                                                     getattr(sys, "abiflags", ""))


class _IndexDataFile(caching.IndexDataCacheFile):
    """numba's index and data files of one kernel, saved while holding the cache's lock.

    numba saves a new signature by reading the kernel's index, taking the first data file number
    that it does not list, and writing both: two processes saving signatures of one kernel at
    the same time (``fastpr warmup``'s, workers starting together) could take the same number,
    and one signature's entry would then lead to the other's code.
    """

    def save(self, key, data):
        with _cache_lock(self._cache_path):
            super().save(key, data)

    # A damaged file (a cache restored in part, a power cut) is a miss, and is written anew,
    # not an error: anything its unpickling raises says only that it cannot be read.

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


@contextlib.contextmanager
def _cache_lock(directory):
    """Hold the lock file of a cache directory (an OSError where it cannot be written).

    A POSIX record lock (``lockf``), not ``flock``: a process forked while another thread saves
    does not inherit it, so it cannot keep the lock from other processes for its whole life.
    """
    if fcntl is None:
        yield
        return
    with open(os.path.join(directory, ".lock"), "a") as lock:
        fcntl.lockf(lock, fcntl.LOCK_EX)
        yield  # closing the file releases the lock


unsaved = []  # kernels whose compiled code could not be saved in this process


class _KernelCache(caching.FunctionCache):
    _impl_class = _KernelCacheImpl

    def __init__(self, py_func):
        super().__init__(py_func)
        self._cache_file = _IndexDataFile(self._cache_path, self._impl.filename_base,
                                          self._impl.locator.get_source_stamp())

    def load_overload(self, sig, target_context):
        # numba first refreshes the whole target (imports every typing and lowering registry,
        # SciPy's BLAS check included): most of a warm start. Code compiled earlier needs only
        # numba's runtime; a compile after a miss refreshes the target itself.
        rtsys.initialize(target_context)
        with self._guard_against_spurious_io_errors():
            return self._load_overload(sig, target_context)

    def save_overload(self, sig, data):
        try:
            super().save_overload(sig, data)
        except OSError as error:
            if not unsaved:
                warnings.warn(f"fastpr: cannot save compiled kernels in {cache_dir()} "
                              f"({error.strerror}), so those missing there compile again in "
                              f"every process; {_NO_CACHE_HINT}.", UserWarning, stacklevel=2)
            unsaved.append(self._py_func.__qualname__)


_first_compile_callback = []  # at most one: the callback of the latest on_first_compile


class _FirstCompileListener(event.Listener):
    def on_start(self, ev):
        if _first_compile_callback and any(ev.data["dispatcher"] is d for d in _DISPATCHERS):
            # Events come under numba's compiler lock, so one thread at a time gets here.
            _first_compile_callback.pop()()

    def on_end(self, ev):
        pass


event.register("numba:compile", _FirstCompileListener())


def on_first_compile(callback):
    """Call ``callback()`` once, at the next compile of a kernel (a cache miss) in this process;
    it replaces a callback given earlier that has not been called."""
    _first_compile_callback[:] = [callback]


# A plain Python function (on scalars or NumPy arrays alike) that compiled code may call too: one
# rule shared by the kernels and the API.
shared = numba.extending.register_jitable


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
