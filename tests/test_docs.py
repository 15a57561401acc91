"""The documentation: it builds with warnings as errors, its examples run, the API reference
lists every public name and the README links to pages that exist."""
import importlib
import inspect
import os
import re
import subprocess
import sys
from pathlib import Path

import fastpr

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
# Written by the build itself (autosummary, sphinx-gallery): not sources.
GENERATED = ("api/generated", "auto_examples")


def _run(args):
    env = {**os.environ, "MPLBACKEND": "Agg"}
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=900)


def test_docs_build_with_warnings_as_errors(tmp_path):
    # -E: read every page afresh; --keep-going: report every warning, not the first.
    result = _run(["-m", "sphinx", "-W", "--keep-going", "-E", "-q", "-b", "html",
                   "-d", str(tmp_path / "doctrees"), str(DOCS), str(tmp_path / "html")])
    assert result.returncode == 0, f"the documentation's build warned:\n{result.stderr}"
    for page in ("index", "getting-started", "api", "cli", "performance", "changelog",
                 "auto_examples/index"):
        assert (tmp_path / "html" / f"{page}.html").is_file(), page


def test_docs_examples_run_as_written():
    # The project's doctest options (pyproject.toml), for every >>> example on every page.
    pages = [str(page.relative_to(ROOT)) for page in sorted(DOCS.rglob("*.rst"))
             if not any(page.relative_to(DOCS).as_posix().startswith(g) for g in GENERATED)]
    result = _run(["-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=",
                   "--doctest-glob=*.rst", *pages])
    # Exit status 5: no page has an example, which the check below reports as a failure too.
    assert result.returncode == 0, result.stdout[-5000:]
    assert re.search(r"\d+ passed", result.stdout), result.stdout[-5000:]


def _public_names(module):
    """``__all__``, or else the functions and classes a module defines without a leading _."""
    if hasattr(module, "__all__"):
        return [name for name in module.__all__
                if not inspect.ismodule(getattr(module, name))]
    return [name for name, value in vars(module).items()
            if not name.startswith("_") and (inspect.isfunction(value) or inspect.isclass(value))
            and value.__module__ == module.__name__]


def test_api_reference_lists_every_public_name_once():
    reference = (DOCS / "api.rst").read_text()
    listed = re.findall(r"^   ([\w.]+)$", reference, flags=re.MULTILINE)
    twice = sorted({name for name in listed if listed.count(name) > 1})
    assert not twice, f"listed more than once in docs/api.rst: {twice}"
    entries = set(listed)
    mentioned = set(re.findall(r"``([\w.]+)``", reference))
    missing = [name for name in _public_names(fastpr) if name not in entries]
    for short in ("multiclass", "learn", "learn.xgboost", "learn.lightgbm", "sklearn", "plot",
                  "kernels", "distributed", "accumulator", "results", "exceptions", "io",
                  "datasets"):
        module = importlib.import_module(f"fastpr.{short}")
        for name in _public_names(module):
            qualified = f"{short}.{name}"
            # fastpr's own names are documented once, under fastpr; constants in the prose.
            if getattr(fastpr, name, None) is getattr(module, name):
                continue
            if qualified not in entries and qualified not in mentioned:
                missing.append(qualified)
    assert not missing, f"not in docs/api.rst: {missing}"


def test_readme_links_to_files_that_exist():
    readme = (ROOT / "README.md").read_text()
    targets = re.findall(r"\]\((?!https?:)([^)#]+)\)", readme)
    assert targets, "the README's map of the documentation has no links"
    missing = [target for target in targets if not (ROOT / target).exists()]
    assert not missing, f"README.md links to missing files: {missing}"
