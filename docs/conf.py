"""Sphinx configuration of fastpr's documentation (built with warnings as errors by the tests)."""
import shutil
import sys
from pathlib import Path

import fastpr

# Pages that autosummary and sphinx-gallery generate inside the source tree: start from none, so
# that a page of a removed name or example never lingers and every example runs at each build.
for generated in ("api/generated", "auto_examples"):
    shutil.rmtree(Path(__file__).parent / generated, ignore_errors=True)
sys.path.insert(0, str(Path(__file__).parent / "_ext"))

project = "fastpr"
author = "the fastpr developers"
release = fastpr.__version__
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    # MathJax from the docs extra, copied into the site: formulas render offline (a CDN's
    # MathJax leaves every formula as raw TeX without the network). Sets mathjax_path.
    "sphinx-mathjax-offline",
    "sphinx.ext.intersphinx",
    "numpydoc",
    "sphinxarg.ext",  # docs/cli.rst: the reference generated from the command's own parser
    "myst_parser",  # docs/changelog.rst includes CHANGELOG.md, its one source
    "sphinx_gallery.gen_gallery",
    "fastpr_output",  # docs/_ext: the command's real output, run at build time
]

html_theme = "pydata_sphinx_theme"
html_title = "fastpr"
html_static_path = ["_static"]
html_theme_options = {"navigation_depth": 2, "show_toc_level": 2}
html_css_files = ["code.css"]
# Pages without sub-pages have no section navigation: no left sidebar (the theme kept an empty
# one, a quarter of the width), so that code and the command's tables fit beside the page's
# table of contents.
html_sidebars = {page: [] for page in ("index", "getting-started", "choosing", "cli", "performance",
                                       "compiled", "architecture", "changelog")}
exclude_patterns = ["_build", "examples/*.rst"]
nitpicky = False
# Keep "--option" as typed: option names are quoted in prose and in the generated CLI reference.
smartquotes = False
numpydoc_show_class_members = False
autosummary_generate = True
templates_path = ["_templates"]
# The build must not need the network (CI and the tests build offline): no inventories.
intersphinx_mapping = {}
# CHANGELOG.md's headings are linked by name.
myst_heading_anchors = 3

sphinx_gallery_conf = {
    "examples_dirs": "examples",
    "gallery_dirs": "auto_examples",
    "filename_pattern": "/plot_",
    "download_all_examples": False,
    "remove_config_comments": True,
    # Figures close between scripts; every script seeds its data, so builds are reproducible.
    "reset_modules": ("matplotlib",),
    "write_computation_times": False,
}
