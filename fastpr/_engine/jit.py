"""The numba decorators of the kernels (``jit``, and ``helper`` for kernels that only other
kernels call), and where their compiled code is cached.

``nogil=True`` lets callers thread over kernels, and ``error_model="numpy"`` makes division by
zero give inf/nan instead of raising, so kernels never raise.

Compiled code is cached on disk, not in numba's own cache (why not, and the private numba API
that fastpr's uses: ``numba_private``), in one directory named by the Python, NumPy and numba
versions and a hash of all kernel sources, this file, ``numba_private`` and those versions
(llvmlite's too), so any edit or upgrade starts a fresh directory. It lives in the first place
that holds it already or can be written: ``$NUMBA_CACHE_DIR/fastpr``; the installed package's
``_engine/kernels/__pycache__`` (where ``fastpr warmup`` at image build time leaves it for
read-only containers); ``$XDG_CACHE_HOME/fastpr`` or ``~/.cache/fastpr``; a private directory in
the system's temporary directory (with a warning). With none of them, or with a numba that
``numba_private`` does not know, kernels compile in memory in every process (with a warning).

The first compile of a process (a kernel missing from the cache: numba's compile event) prints
one line on stderr, unless ``FASTPR_QUIET`` is set; the command line puts its own line there.
"""
import functools
import hashlib
import os
import shutil
import stat
import sys
import tempfile
import warnings

import llvmlite
import numba
import numba.extending
import numpy as np
from numba.core import event  # numba's documented Event API

from . import numba_private

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Every folder of the package that holds kernels (the engine's, and the learners' that
# fastpr.learn owns): their sources key the cache, since a kernel compiles in what it calls.
_KERNEL_DIRS = (os.path.join(_PACKAGE, "_engine", "kernels"),
                os.path.join(_PACKAGE, "learn", "_kernels"))
_PACKAGE_BASE = os.path.join(_KERNEL_DIRS[0], "__pycache__")
_DISPATCHERS = []  # every kernel made by ``jit`` or ``helper``, in definition order
_NO_CACHE_HINT = ("set NUMBA_CACHE_DIR to a writable directory, or run `fastpr warmup` where "
                  "the package directory is writable (at image build time)")


def jit(function=None, **options):
    """``numba.njit`` with fastpr's options and cache; ``@jit`` or ``@jit(inline="always")``."""
    if function is None:
        return functools.partial(jit, **options)
    return _cached(numba.njit(function, **_options(options)))


def helper(function=None, **options):
    """``jit`` for a kernel that only other kernels call: ``@helper`` or ``@helper(...)``.

    numba gives a kernel a wrapper through which Python calls it (and one for C callers, which
    no fastpr kernel has), about half the compile time of a small function, though a kernel
    called from compiled code uses neither; a helper is compiled without them (calling it from
    Python raises TypeError).
    """
    if function is None:
        return functools.partial(helper, **options)
    if numba.config.DISABLE_JIT or numba_private.PROBLEM:  # (then with the wrappers)
        return jit(function, **options)
    return _cached(numba_private.helper_dispatcher(function, _options(options)))


def _options(options):
    # No wrapper for C callers (numba's cfunc wrapper, for a kernel passed as a first-class
    # function value): Python and compiled code call kernels directly, and the wrapper took
    # compile time at every kernel's first use.
    return {"nogil": True, "error_model": "numpy", "no_cfunc_wrapper": True, **options}


def _cached(dispatcher):
    if numba.extending.is_jitted(dispatcher):  # not a plain function under NUMBA_DISABLE_JIT
        if cache_dir():
            numba_private.cache(dispatcher, cache_dir(), _current_key(), _not_saved)
        _DISPATCHERS.append(dispatcher)
    return dispatcher


def kernels():
    """Every kernel made by ``jit`` so far (their ``stats`` count cache hits and misses)."""
    return list(_DISPATCHERS)


def source_key(kernel_dirs=_KERNEL_DIRS, versions=None):
    """Hex digest of the kernel sources, this file, ``numba_private`` and the versions that shape
    compiled code."""
    if versions is None:
        versions = (sys.version, np.__version__, numba.__version__, llvmlite.__version__)
    digest = hashlib.sha256(repr(versions).encode())
    paths = [os.path.join(kernel_dir, name) for kernel_dir in kernel_dirs
             for name in sorted(os.listdir(kernel_dir)) if name.endswith(".py")]
    for path in [*paths, *map(os.path.abspath, (__file__, numba_private.__file__))]:
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
    if numba_private.PROBLEM:  # (it has warned)
        return None
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


unsaved = []  # kernels whose compiled code could not be saved in this process


def _not_saved(function, error):
    if not unsaved:
        warnings.warn(f"fastpr: cannot save compiled kernels in {cache_dir()} ({error.strerror}), "
                      f"so those missing there compile again in every process; {_NO_CACHE_HINT}.",
                      UserWarning, stacklevel=3)
    unsaved.append(function.__qualname__)


# The environment variable that silences the line of a first compile (any value but "" or "0").
QUIET = "FASTPR_QUIET"


def _say_compiling():
    """The library's line at the first compile of a process (the command line has its own)."""
    where = cache_dir()
    later = (f"cached in {where} for later processes" if where else
             "no writable cache, so every process compiles them")
    if sys.stderr is None:  # (pythonw, some services): print would write to stdout
        return
    try:
        print(f"fastpr: compiling kernels for first use, a few seconds per feature ({later}; "
              f"{QUIET}=1 hides this)", file=sys.stderr, flush=True)
    except (OSError, ValueError):  # a closed or broken stderr must not fail the compile
        pass


# At most one: the library's line, or the callback of the latest on_first_compile.
_first_compile_callback = [_say_compiling]


class _FirstCompileListener(event.Listener):
    def on_start(self, ev):
        # numba sends this event only where a kernel is not in the cache and compiles.
        if _first_compile_callback and any(ev.data["dispatcher"] is d for d in _DISPATCHERS):
            # Events come under numba's compiler lock, so one thread at a time gets here.
            callback = _first_compile_callback.pop()
            if callback is not None and os.environ.get(QUIET, "") in ("", "0"):
                callback()

    def on_end(self, ev):
        pass


event.register("numba:compile", _FirstCompileListener())


def on_first_compile(callback):
    """Call ``callback()`` once, at the next compile of a kernel (a cache miss) in this process,
    unless ``FASTPR_QUIET`` is set; it replaces the library's line, or a callback given earlier
    that has not been called. ``None``: nothing at all."""
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
