"""Sphinx configuration of fastpr's documentation (built with warnings as errors by the tests)."""
import fastpr

project = "fastpr"
author = "the fastpr developers"
release = fastpr.__version__
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx.ext.intersphinx",
    "numpydoc",
]

html_theme = "pydata_sphinx_theme"
html_title = "fastpr"
exclude_patterns = ["_build"]
nitpicky = False
numpydoc_show_class_members = False
autosummary_generate = True
