"""The documentation: it builds with warnings as errors, its examples run, the API reference
lists every public name and the README links to pages that exist."""
import html
import importlib
import inspect
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

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
    _check_offline(tmp_path / "html")
    _check_api_summaries((tmp_path / "html" / "api.html").read_text())
    _check_code_width((tmp_path / "html" / "getting-started.html").read_text())


def _text(fragment):
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", fragment)).split())


def _check_offline(site):
    """No page loads a script or a stylesheet from the network (offline, a CDN's MathJax left
    every formula as raw TeX); the formulas' MathJax is a file of the site."""
    remote = {}
    for page in site.rglob("*.html"):
        found = re.findall(r"<(?:script|link)\b[^>]*\b(?:src|href)=\"((?:https?:)?//[^\"]+)\"",
                           page.read_text())
        if found:
            remote[page.relative_to(site).as_posix()] = sorted(set(found))
    assert not remote, f"pages that load from the network: {remote}"
    page = site / "math" / "estimators.html"
    scripts = re.findall(r"<script[^>]*src=\"([^\"]*mathjax[^\"]*)\"", page.read_text(), re.I)
    assert scripts, "math/estimators.html loads no MathJax"
    assert all((page.parent / src.split("?")[0]).is_file() for src in scripts), scripts


def _check_api_summaries(api):
    """Every entry of the API page has its own one-line description: not a builtin's docstring
    (a tuple's "Built-in immutable sequence."), not empty, no raw source path."""
    rows = {}
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", api, flags=re.S):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row, flags=re.S)
        if len(cells) == 2:
            rows[_text(cells[0])] = (_text(cells[1]), cells[1])
    assert "PR_METHODS" in rows and "auc_pr" in rows, sorted(rows)
    bad = {name: summary for name, (summary, _) in rows.items()
           if not summary or "Built-in" in summary or ".rst" in summary}
    assert not bad, f"API entries without a description of their own: {bad}"
    assert 'href="math/estimators.html' in rows["auc_pr"][1], rows["auc_pr"][1]


def _check_code_width(page):
    """Getting started's code is not cut at a 1400-pixel window. The page has no left sidebar
    on wide screens (it has no sections to navigate) and docs/_static/code.css widens the
    article to 75em: beside the 17rem table of contents that leaves about 1050 pixels of code,
    125 characters of the 14-pixel code font, for the command's 121-column table."""
    assert re.search(r'id="pst-primary-sidebar" class="[^"]*hide-on-wide', page)
    assert re.search(r'<link[^>]*href="_static/code.css', page)
    long = [line for block in re.findall(r"<pre[^>]*>(.*?)</pre>", page, flags=re.S)
            for line in html.unescape(re.sub(r"<[^>]+>", "", block)).splitlines()
            if len(line) > 124]
    assert not long, long


def test_examples_written_in_the_readme_and_getting_started_fit_79_columns():
    # Their examples and what they print read without scrolling in a narrower window too, and
    # in a terminal (the shell commands stay one line each, as the README's tests run them).
    long = [f"{name}:{number}" for name in ("README.md", "docs/getting-started.rst")
            for number, line in enumerate((ROOT / name).read_text().splitlines(), 1)
            if len(line) > 79 and re.match(r"(>>>|\.\.\.) ", line)]
    assert not long, long


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
                  "kernels", "distributed", "spark", "accumulator", "results", "exceptions", "io",
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


def test_readme_picture_is_what_its_example_draws(tmp_path):
    # The picture once showed other data than the example above it; the README's examples,
    # run in order as its doctest runs them, draw docs/pr_curve.png again.
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.testing.compare import compare_images

    source, namespace = [], {}
    for line in (ROOT / "README.md").read_text().splitlines():
        if line.startswith((">>> ", "... ")):
            source.append(line[4:])
    exec("\n".join(source), namespace)
    drawn = tmp_path / "pr_curve.png"
    namespace["ax"].figure.savefig(drawn)
    # Different data draws a different picture (about 40 RMS); font rendering, a few.
    assert compare_images(str(DOCS / "pr_curve.png"), str(drawn), tol=10) is None
