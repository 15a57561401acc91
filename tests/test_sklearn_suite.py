"""scikit-learn's own tests of its ranking metrics, run on fastpr: the installed
sklearn/metrics/tests/test_ranking.py, unchanged and not copied, with ``fastpr.sklearn.patch()``
in effect (tests/sklearn_patched_plugin.py). A drop-in passes them all: the same numbers, and
errors and warnings in scikit-learn's words wherever its tests match on them."""
import importlib.util
import json
import os
import pathlib
import subprocess
import sys

import pytest

import fastpr

_RANKING_TESTS = importlib.util.find_spec("sklearn.metrics.tests.test_ranking")
# Tests that cannot pass on fastpr, with the reason; none today.
CANNOT_PASS = {}


@pytest.mark.skipif(_RANKING_TESTS is None, reason="the installed scikit-learn has no tests")
def test_scikit_learns_ranking_tests_pass_patched(tmp_path):
    test_file = pathlib.Path(_RANKING_TESTS.origin)
    package = test_file.parents[2]  # sklearn/, whose conftest.py the tests need
    report = tmp_path / "report.jsonl"
    (tmp_path / "pytest.ini").write_text("[pytest]\n")  # none of this project's settings
    tests = pathlib.Path(__file__).parent
    env = dict(os.environ, FASTPR_SUITE_REPORT=str(report), PYTHONPATH=os.pathsep.join(
        [str(tests), str(pathlib.Path(fastpr.__file__).parents[1]),
         os.environ.get("PYTHONPATH", "")]))
    run = subprocess.run(
        [sys.executable, "-m", "pytest", str(test_file), "-q", "-p", "sklearn_patched_plugin",
         "-p", "no:cacheprovider", "-c", str(tmp_path / "pytest.ini"), "--rootdir", str(package),
         "--confcutdir", str(package)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=1200)
    assert report.exists(), run.stdout[-3000:] + run.stderr[-3000:]
    outcomes = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()]
    passed = [o["test"] for o in outcomes if o["outcome"] == "passed"]
    failed = {o["test"]: o["message"] for o in outcomes if o["outcome"] == "failed"}
    assert len(passed) + len(failed) > 200, run.stdout[-3000:]  # it ran (248 tests in 1.9)
    unexpected = {test: message for test, message in failed.items() if test not in CANNOT_PASS}
    assert not unexpected, f"{len(unexpected)} of {len(outcomes)} failed:\n" + "\n\n".join(
        f"{test}\n{message}" for test, message in unexpected.items())
