"""What a first call says and compiles: one line on stderr when a process first compiles
kernels, none when they load from the cache, none with FASTPR_QUIET set; no function of numba's
own, and of the learners' pairs only the variant that the call runs.

Compiling is slow, so one process compiles with an empty cache and the others reuse its cache.
"""
import io
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import fastpr

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(fastpr.__file__)))
NOTICE = "fastpr: compiling kernels for first use"

# Prints the kernel signatures that each step compiled, and the functions that numba compiled
# other than fastpr's, as JSON.
_CHILD = """
import json, sys
import numpy as np
from numba.core import event
import fastpr
from fastpr._engine import jit as _jit

def compiled():
    return sum(sum(k.stats.cache_misses.values()) for k in _jit.kernels())

others = []  # for each step

class Others(event.Listener):
    def on_start(self, ev):
        function = ev.data["dispatcher"].py_func
        if not function.__module__.startswith("fastpr."):
            others[-1].append(f"{function.__module__}.{function.__qualname__}")

    def on_end(self, ev):
        pass

event.register("numba:compile", Others())

y, s = np.array([1, 0, 1, 1, 0, 0]), np.array([0.9, 0.8, 0.7, 0.6, 0.6, 0.1])
frozen = s.copy()
frozen.flags.writeable = False  # read-only scores: numba compiles the split again for them
steps = {"float64": lambda: fastpr.evaluate(y, s),
         "float32": lambda: fastpr.evaluate(y, s.astype(np.float32)),
         "read-only": lambda: fastpr.evaluate(y, frozen),
         "compare": lambda: fastpr.compare(y, [s, s[::-1]], n_boot=4, seed=0, metric="max_f1")}
counts = []
for step in sys.argv[1:]:
    others.append([])
    before = compiled()
    steps[step]()
    counts.append(compiled() - before)
print(json.dumps([counts, others]))
"""


def _first_calls(cache, *steps, quiet=None):
    """((signatures compiled by each step, other functions compiled), stderr) of a fresh process
    caching in ``cache``."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), PYTHONPATH=os.pathsep.join(
        [REPOSITORY, os.environ.get("PYTHONPATH", "")]))
    env.pop("FASTPR_QUIET", None)
    if quiet is not None:
        env["FASTPR_QUIET"] = quiet
    out = subprocess.run([sys.executable, "-c", _CHILD, *steps], env=env, cwd=cache,
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1]), out.stderr


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    """A kernel cache that a first process filled with the kernels of evaluate (float64 and
    float32 scores) and compare; with what that process compiled and said."""
    cache = tmp_path_factory.mktemp("numba")
    (counts, others), stderr = _first_calls(cache, "float64", "float32", "compare")
    return {"path": cache, "counts": counts, "others": others, "stderr": stderr}


def test_the_first_compile_of_a_process_says_so_in_one_line_and_only_once(cache):
    # Every call compiled; the later ones, more first uses in the same process, say nothing.
    assert all(count > 0 for count in cache["counts"])
    lines = cache["stderr"].splitlines()
    assert len(lines) == 1 and lines[0].startswith(NOTICE), cache["stderr"]
    assert str(cache["path"]) in lines[0] and "FASTPR_QUIET=1" in lines[0]


def test_a_process_that_loads_every_kernel_from_the_cache_says_nothing(cache):
    (counts, _), stderr = _first_calls(cache["path"], "float64", "float32")
    assert counts == [0, 0] and stderr == ""


def test_fastpr_quiet_silences_the_line(cache):
    # The read-only scores compile a kernel that the cache does not hold.
    (counts, _), stderr = _first_calls(cache["path"], "float64", "read-only", quiet="1")
    assert counts[0] == 0 and counts[1] > 0 and stderr == ""


def test_a_first_call_compiles_only_fastpr_functions_and_numba_allocations(cache):
    # numba compiles a function of its own for each type of the builtins min, max and int that
    # a kernel uses, and for np.zeros and np.full (0.05-0.2 s each): the first evaluate of
    # float64 and float32 scores compiled ten, the first compare nine (and np.empty's).
    evaluate, compare = cache["others"][:2], cache["others"][2]
    assert evaluate == [[], []]
    assert [name for name in compare if "np_empty" not in name and "allocate" not in name] == []


def test_a_closed_or_missing_stderr_does_not_fail_the_compile(monkeypatch, capsys):
    # The line is printed inside numba's compile: an error there would fail the first call.
    from fastpr._engine import jit as _jit

    closed = io.StringIO()
    closed.close()
    monkeypatch.setattr(sys, "stderr", closed)
    _jit._say_compiling()
    monkeypatch.setattr(sys, "stderr", None)  # pythonw: print would write to stdout instead
    _jit._say_compiling()
    assert capsys.readouterr().out == ""


def _refused(*args):
    raise AssertionError("top_k_chunk compiles both variants of the pairs")


@pytest.mark.parametrize("shift, general", [(1.0, False), (800.0, True)])
def test_one_ranking_with_the_default_options_runs_only_the_default_pairs(monkeypatch, shift,
                                                                          general):
    # The one-ranking path called top_k_chunk, which compiles the pairs' loops for XGBoost's
    # default and for any options, three times as long at the first call as the default alone.
    # Scores spanning more than 700 need the general variant (no exponential factors).
    from fastpr.learn import _top_k, lambdamart_gradients

    y = np.array([1, 0, 1, 1, 0, 0, 1, 0])
    s = np.linspace(0.0, 1.0, y.size) * shift
    want = lambdamart_gradients(y, s)
    monkeypatch.setattr(_top_k._lambdas, "top_k_chunk_default" if general else "top_k_chunk",
                        _refused)
    np.testing.assert_array_equal(lambdamart_gradients(y, s), want)
