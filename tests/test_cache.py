"""The kernel cache: read-only installs, warmed caches, stale code, and what the command says.

Each case runs in fresh processes on a copy of the package, so that the cache starts as the test
needs it. Compiling is slow, so the copies compile only a few kernels: ``hull_areas`` (which
calls a kernel of another file) where any kernel will do, ``evaluate`` where the case is about
it.
"""
import contextlib
import json
import os
import shutil
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import fastpr
from fastpr._engine import jit as _jit
from fastpr._engine import numba_private

PACKAGE = os.path.dirname(fastpr.__file__)
NO_CACHE = "fastpr: no writable cache directory"
UNSAVED = "fastpr: cannot save compiled kernels"

# Prints what the child computed and its kernels' cache statistics as JSON.
_CHILD = """
import json, numba, numpy as np, fastpr
from fastpr._engine import jit as _jit
from fastpr._engine.kernels.hull import hull_areas
{code}
kernels = _jit.kernels()
print(json.dumps({{
    "result": result,
    "compiled": sum(sum(k.stats.cache_misses.values()) for k in kernels),
    "loaded": sum(sum(k.stats.cache_hits.values()) for k in kernels),
    "cache_dir": _jit.cache_dir()}}))
"""
# hull_areas is a helper, which only compiled code calls; numba's own (uncached) function does.
HULL = """
vertices = np.array([[0.0, 0.0, 9.0], [1.0, 3.0, 0.5], [4.0, 4.0, 0.1]])
result = numba.njit(lambda v: hull_areas(v))(vertices)[1]
"""
EVALUATE = """
y, s = [1, 0, 1, 1, 0, 0], np.array([0.9, 0.8, 0.7, 0.6, 0.6, 0.1])
result = [fastpr.evaluate(y, s).auc_pr]
"""
EVALUATE_BOTH = EVALUATE + "result.append(fastpr.evaluate(y, s.astype(np.float32)).auc_pr)\n"
# Read-only arrays (pyarrow's, memory-mapped ones), for which numba compiles kernels again.
EVALUATE_READ_ONLY = """
frozen = [np.array(a) for a in (y, s, [1.0, 2.0, 1.0, 1.0, 0.5, 1.0])]
for a in frozen:
    a.flags.writeable = False
result.append(fastpr.evaluate(frozen[0], frozen[1], sample_weight=frozen[2]).auc_pr)
"""
# Two kernels that neither ``fastpr evaluate`` nor warmup's ``evaluate`` compiles.
MISSING_FROM_WARMUP = """
from fastpr._engine.kernels.gap_bins import gap_bin_starts
from fastpr._engine.kernels.intermediate import drop_intermediate
points = np.array([[np.inf, 0.5, 0.2, 0.1], [0.0, 1.0, 2.0, 2.0], [0.0, 0.0, 0.0, 1.0]])
result = [gap_bin_starts(np.array([0.5]), np.array([0.1, 0.9])).tolist(),
          drop_intermediate(*points, 0, 0)]
"""


def _copy_package(root):
    site = root / "site"
    shutil.copytree(PACKAGE, site / "fastpr", ignore=shutil.ignore_patterns("__pycache__"))
    return site


def _env(site, home, tmp, numba_cache_dir=None):
    """Environment of a child that imports the copy in ``site`` (children run in ``site``: the
    directory of ``python -c`` comes first on the path)."""
    env = dict(os.environ, HOME=str(home), TMPDIR=str(tmp),
               PYTHONPATH=os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")]))
    env.pop("XDG_CACHE_HOME", None)
    env.pop("NUMBA_CACHE_DIR", None)
    if numba_cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = str(numba_cache_dir)
    return env


@contextlib.contextmanager
def _read_only(*paths):
    """A command prefix under which ``paths`` are read-only.

    Root ignores file modes, so as root each path is bind-mounted read-only in a private mount
    namespace (skipped where ``unshare`` cannot do that); otherwise ``chmod -R a-w``.
    """
    if not hasattr(os, "geteuid"):
        pytest.skip("needs POSIX file modes")
    paths = [str(p) for p in paths]
    if os.geteuid() != 0:
        for path in paths:
            subprocess.run(["chmod", "-R", "a-w", path], check=True)
        try:
            yield []
        finally:
            for path in paths:
                subprocess.run(["chmod", "-R", "u+w", path], check=True)
        return
    prefix = ["unshare", "--user", "--map-root-user", "--mount", "sh", "-c",
              'while [ "$1" != -- ]; do mount --bind -o ro "$1" "$1" || exit 9; shift; done; '
              'shift; exec "$@"', "sh", *paths, "--"]
    if subprocess.run([*prefix, "true"], capture_output=True).returncode != 0:
        pytest.skip("running as root, and unshare cannot mount read-only here")
    yield prefix


def _run(env, code, prefix=()):
    """(values printed by the child, its stderr)."""
    out = subprocess.run([*prefix, sys.executable, "-c", _CHILD.format(code=code)], env=env,
                         cwd=env["PYTHONPATH"].split(os.pathsep)[0], capture_output=True,
                         text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1]), out.stderr


def _warnings(stderr):
    """The lines of ``stderr`` but the one that says a first compile is under way."""
    return [line for line in stderr.splitlines()
            if not line.startswith("fastpr: compiling kernels for first use")]


def _command(env, *args, prefix=()):
    return subprocess.run([*prefix, sys.executable, "-m", "fastpr", *args], env=env,
                          cwd=env["PYTHONPATH"].split(os.pathsep)[0], capture_output=True,
                          text=True, timeout=600)


@pytest.fixture(scope="module")
def warmed(tmp_path_factory):
    """A package copy whose own cache the first command filled and warmup completed for
    ``evaluate``, as an image build would; with the first command's output."""
    root = tmp_path_factory.mktemp("warmed")
    site = _copy_package(root)
    home, tmp = root / "home", root / "tmp"
    home.mkdir()
    tmp.mkdir()
    env = _env(site, home, tmp)
    csv = root / "small.csv"
    csv.write_text("y,s\n" + "".join(f"{k % 3 == 0:d},{(k * 37 % 100) / 100}\n"
                                     for k in range(60)))
    first, second = (_command(env, "evaluate", str(csv), "--label", "y", "--score", "s")
                     for _ in range(2))
    out = subprocess.run([sys.executable, "-c", "from fastpr.cli import warmup; "
                          "assert not warmup.run(['evaluate'])"], env=env, cwd=site,
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    return {"site": site, "home": home, "tmp": tmp, "csv": csv, "first": first, "second": second}


def test_first_command_says_once_that_it_compiles_and_later_ones_do_not(warmed):
    first, second = warmed["first"], warmed["second"]
    assert first.returncode == second.returncode == 0, first.stderr + second.stderr
    notices = [line for line in first.stderr.splitlines() if "compiling kernels" in line]
    assert len(notices) == 1, first.stderr
    assert str(warmed["site"]) in notices[0] and " s " in notices[0]
    assert "compiling" not in second.stderr
    assert first.stdout == second.stdout


def test_read_only_package_uses_the_cache_warmup_filled(warmed):
    env = _env(warmed["site"], warmed["home"], warmed["tmp"])
    with _read_only(warmed["site"], warmed["home"], warmed["tmp"]) as prefix:
        values, stderr = _run(env, EVALUATE_BOTH + EVALUATE_READ_ONLY, prefix)
        command = _command(env, "evaluate", str(warmed["csv"]), "--label", "y", "--score", "s",
                           prefix=prefix)
    assert values["compiled"] == 0 and values["loaded"] > 0
    assert values["cache_dir"].startswith(str(warmed["site"]))
    scores = np.array([0.9, 0.8, 0.7, 0.6, 0.6, 0.1])
    assert values["result"] == [fastpr.evaluate([1, 0, 1, 1, 0, 0], s).auc_pr
                                for s in (scores, scores.astype(np.float32))] + [
        fastpr.evaluate([1, 0, 1, 1, 0, 0], scores, sample_weight=[1, 2, 1, 1, 0.5, 1]).auc_pr]
    assert stderr == ""
    assert command.returncode == 0 and command.stderr == ""
    assert command.stdout == warmed["first"].stdout


def test_a_kernel_missing_from_a_read_only_cache_compiles_and_warns_once(warmed):
    env = _env(warmed["site"], warmed["home"], warmed["tmp"])
    with _read_only(warmed["site"], warmed["home"], warmed["tmp"]) as prefix:
        # One warning for both kernels.
        values, stderr = _run(env, MISSING_FROM_WARMUP, prefix)
    assert values["compiled"] >= 2 and values["result"] == [[0, 1, 2], 3]
    assert values["cache_dir"].startswith(str(warmed["site"]))
    assert stderr.count(UNSAVED) == 1 and "Traceback" not in stderr


def test_warmup_in_several_processes_leaves_every_kernel_in_the_cache(warmed, tmp_path):
    # A copy of the warmed package: evaluate's kernels load, the others compile.
    site = tmp_path / "site"
    shutil.copytree(warmed["site"], site)
    env = _env(site, warmed["home"], warmed["tmp"])
    code = ("import json; from fastpr.cli import warmup; reports = []; "
            "unsaved = warmup.run(['evaluate', 'curves', 'accumulator'], "
            "lambda *report: reports.append(report), jobs=2); "
            "print(json.dumps([unsaved, reports]))")
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=site, capture_output=True,
                         text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    unsaved, reports = json.loads(out.stdout.strip().splitlines()[-1])
    compiled = {name: count for name, _, count, _ in reports}
    assert unsaved == [] and set(compiled) == {"evaluate", "curves", "accumulator"}
    assert compiled["evaluate"] == 0 and compiled["curves"] > 0 and compiled["accumulator"] > 0
    again, _ = _run(env, "from fastpr.cli import warmup\n"
                         "result = warmup.run(['evaluate', 'curves', 'accumulator'])\n")
    assert again["compiled"] == 0 and again["result"] == []
    assert again["cache_dir"].startswith(str(site))


def test_warmup_stops_at_a_feature_that_fails_in_its_own_process(monkeypatch):
    from fastpr.cli import warmup

    if _jit.cache_dir() is None:
        pytest.skip("no cache on disk: warmup runs every feature here")
    monkeypatch.setattr(warmup, "_CHILD", "import sys; sys.exit('no such luck')")
    with pytest.raises(warmup.FeatureFailed, match="failed in its own process:\nno such luck"):
        warmup.run(["evaluate", "curves", "accumulator"], jobs=2)


# Saves 200 signatures of one kernel through fastpr's locked files, starting at a given time.
_SAVES = """
import sys, time
from fastpr._engine import numba_private
directory, name, start = sys.argv[1], sys.argv[2], float(sys.argv[3])
cache = numba_private._IndexDataFile(directory, "kernel", "stamp")
while time.time() < start:
    pass
for i in range(200):
    cache.save((name, i), f"{name} {i}")
"""


def _saved_side_by_side(directory):
    """What two processes that save signatures of one kernel at the same time leave: for each
    signature, whether it loads its own data."""
    start = time.time() + 2  # after both have imported fastpr
    children = [subprocess.Popen([sys.executable, "-c", _SAVES, str(directory), name,
                                  str(start)]) for name in ("a", "b")]
    assert [child.wait(timeout=300) for child in children] == [0, 0]
    cache = numba_private._IndexDataFile(str(directory), "kernel", "stamp")
    return [cache.load((name, i)) == f"{name} {i}" for name in ("a", "b") for i in range(200)]


@pytest.mark.skipif(numba_private.fcntl is None, reason="saves are locked only where fcntl is")
def test_processes_saving_one_kernel_at_once_keep_every_signature(tmp_path):
    # With numba's unlocked IndexDataCacheFile in place of _IndexDataFile, two runs of this lost
    # or mixed up 215 and 42 of the 400 signatures, 10 of them leading to the other process's
    # data (numba's cache: read the index, take a free number, write both).
    assert all(_saved_side_by_side(tmp_path))


def test_read_only_everywhere_still_imports_evaluates_and_warns_once(tmp_path):
    site = _copy_package(tmp_path)
    home, tmp, numba_cache = (tmp_path / name for name in ("home", "tmp", "numba"))
    for path in (home, tmp, numba_cache):
        path.mkdir()
    # The temporary directory stays writable (Python falls back to /tmp anyway), but the
    # private directory there is one that other users could write, so it is refused.
    shared = tmp / f"fastpr-{os.getuid()}"
    shared.mkdir()
    shared.chmod(0o777)
    env = _env(site, home, tmp, numba_cache)
    with _read_only(site, home, numba_cache) as prefix:
        values, stderr = _run(env, EVALUATE, prefix)
        warmup = _command(env, "warmup", prefix=prefix)
    assert values["cache_dir"] is None and values["compiled"] > 0
    assert values["result"][0] == fastpr.evaluate([1, 0, 1, 1, 0, 0],
                                                  [0.9, 0.8, 0.7, 0.6, 0.6, 0.1]).auc_pr
    assert stderr.count(NO_CACHE) == 1 and "compile in memory" in stderr
    assert UNSAVED not in stderr
    assert warmup.returncode == 1 and "NUMBA_CACHE_DIR" in warmup.stderr
    assert [list(path.iterdir()) for path in (home, shared, numba_cache)] == [[], [], []]


def test_private_temporary_directory_when_nothing_else_is_writable(tmp_path):
    site = _copy_package(tmp_path)
    home, tmp = tmp_path / "home", tmp_path / "tmp"
    home.mkdir()
    tmp.mkdir()
    env = _env(site, home, tmp)
    with _read_only(site, home) as prefix:
        first, stderr = _run(env, HULL, prefix)
        again, stderr_again = _run(env, HULL, prefix)
    assert first["cache_dir"].startswith(str(tmp / f"fastpr-{os.getuid()}"))
    assert first["compiled"] > 0 and again["compiled"] == 0 and again["result"] == first["result"]
    assert stderr.count(NO_CACHE) == 1 and first["cache_dir"] in stderr
    assert (tmp / f"fastpr-{os.getuid()}").stat().st_mode & 0o077 == 0


def test_numba_cache_dir_comes_first_and_a_read_only_one_is_passed_over(tmp_path):
    site = _copy_package(tmp_path)
    home, tmp, numba_cache = (tmp_path / name for name in ("home", "tmp", "numba"))
    for path in (home, tmp, numba_cache):
        path.mkdir()
    env = _env(site, home, tmp, numba_cache)
    values, stderr = _run(env, HULL)
    assert values["cache_dir"].startswith(str(numba_cache / "fastpr"))
    assert _warnings(stderr) == []
    shutil.rmtree(numba_cache / "fastpr")
    with _read_only(numba_cache) as prefix:
        values, stderr = _run(env, HULL, prefix)
    package_cache = site / "fastpr" / "_engine" / "kernels" / "__pycache__"
    assert values["cache_dir"].startswith(str(package_cache))
    assert _warnings(stderr) == []


def test_an_edit_to_a_kernel_that_another_cached_kernel_calls_recompiles(tmp_path):
    site = _copy_package(tmp_path)
    env = _env(site, tmp_path, tmp_path)
    first, _ = _run(env, HULL)
    cached, _ = _run(env, HULL)
    # hull_areas (hull.py) calls interpolated_segment (area.py); only area.py changes.
    with open(site / "fastpr" / "_engine" / "kernels" / "area.py", "a") as f:
        f.write(textwrap.dedent("""
            _one_segment = interpolated_segment


            @jit
            def interpolated_segment(tp_a, fp_a, tp_b, fp_b):
                return 2.0 * _one_segment(tp_a, fp_a, tp_b, fp_b)
            """))
    edited, _ = _run(env, HULL)
    assert first["compiled"] > 0 and cached["compiled"] == 0
    assert cached["result"] == first["result"] > 0
    assert edited["compiled"] > 0 and edited["result"] == 2 * first["result"]
    # The old cache directory is gone, the new one holds the new code.
    caches = os.listdir(site / "fastpr" / "_engine" / "kernels" / "__pycache__")
    assert [os.path.join(site, "fastpr", "_engine", "kernels", "__pycache__", c) for c in caches
            if not c.endswith(".pyc")] == [edited["cache_dir"]]


def test_cache_key_covers_every_kernel_file_and_the_versions(tmp_path):
    kernels = (tmp_path / "kernels", tmp_path / "learn_kernels")
    for copy, source in zip(kernels, (("_engine", "kernels"), ("learn", "_kernels"))):
        shutil.copytree(os.path.join(PACKAGE, *source), copy,
                        ignore=shutil.ignore_patterns("__pycache__"))
    versions = ("3.11", "2.4", "0.68", "0.45")
    key = _jit.source_key(kernels, versions)
    assert key == _jit.source_key(kernels, versions)
    upgrades = [versions[:k] + ("other",) + versions[k + 1:] for k in range(len(versions))]
    assert len({key, *(_jit.source_key(kernels, v) for v in upgrades)}) == 1 + len(upgrades)
    paths = sorted(path for folder in kernels for path in folder.glob("*.py"))
    assert {path.parent for path in paths} == set(kernels)
    for path in paths:
        original = path.read_text()
        path.write_text(original + "\n")
        assert _jit.source_key(kernels, versions) != key, path
        path.write_text(original)


def test_no_usable_temporary_directory_is_no_cache_there(monkeypatch):
    # docker run --read-only without a tmpfs: tempfile raised FileNotFoundError at import.
    def nowhere():
        raise FileNotFoundError("No usable temporary directory found")

    monkeypatch.setattr(_jit.tempfile, "gettempdir", nowhere)
    assert _jit._private_temp_dir() is None


def test_environments_of_other_interpreter_builds_keep_apart_what_they_prune(monkeypatch):
    # Two environments sharing an editable checkout, one Python built differently: each
    # deleted the other's cache, as only the versions in the name told them apart.
    prefix = _jit._versions_prefix()
    monkeypatch.setattr(_jit.sys, "version", sys.version + " (another build)")
    assert _jit._versions_prefix() != prefix


def test_a_relative_numba_cache_dir_stays_where_it_was_when_the_process_moves(tmp_path):
    site = _copy_package(tmp_path)
    (site / "elsewhere").mkdir()
    env = _env(site, tmp_path, tmp_path, "relative")  # (children run in ``site``)
    values, _ = _run(env, "import os\nos.chdir('elsewhere')\n" + HULL)
    assert values["cache_dir"].startswith(str(site / "relative" / "fastpr"))
    assert not (site / "elsewhere" / "relative").exists()


def test_damaged_cache_files_are_misses_written_anew(tmp_path):
    site = _copy_package(tmp_path)
    env = _env(site, tmp_path, tmp_path, tmp_path / "numba")
    first, _ = _run(env, HULL)
    files = [path for path in (tmp_path / "numba").rglob("*") if path.suffix in (".nbi", ".nbc")]
    assert files
    for k, path in enumerate(files):  # empty, and garbage
        path.write_bytes(b"" if k % 2 else b"not a pickle")
    damaged, stderr = _run(env, HULL)
    again, _ = _run(env, HULL)
    assert damaged["result"] == again["result"] == first["result"] and "Error" not in stderr
    assert damaged["compiled"] > 0 and again["compiled"] == 0


def test_other_numba_functions_keep_numba_own_cache(tmp_path):
    (tmp_path / "user_module.py").write_text(textwrap.dedent("""
        import numba

        @numba.njit(cache=True)
        def twice(x):
            return 2 * x
        """))
    code = ("import fastpr, user_module; user_module.twice(2.0); "
            "print(user_module.twice.stats.cache_path)")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path),
                                                       os.environ.get("PYTHONPATH", "")]))
    env.pop("NUMBA_CACHE_DIR", None)
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=tmp_path, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == str(tmp_path / "__pycache__")
    assert any(name.startswith("user_module.twice") for name in
               os.listdir(tmp_path / "__pycache__"))

