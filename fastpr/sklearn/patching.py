"""Swap fastpr's drop-in functions into scikit-learn, and back.

:func:`patch` replaces every reference to scikit-learn's own ranking functions that a loaded
module holds (``sklearn.metrics``, ``sklearn.metrics._ranking``, the Displays, a user's
``from sklearn.metrics import roc_auc_score``) and the function behind each built-in scorer
("roc_auc", "average_precision", ...), so code that runs scikit-learn's metrics, including
``cross_validate`` and ``GridSearchCV(scoring=...)``, runs on fastpr unchanged and gets the
same numbers. Only references to scikit-learn's exact function objects are touched, and each
swap is recorded, so :func:`unpatch` puts back exactly what was there.
"""
import contextlib
import sys
import threading

from .._optional import import_optional
from . import curves, metrics

_DROP_INS = {
    "average_precision_score": metrics.average_precision_score,
    "roc_auc_score": metrics.roc_auc_score,
    "label_ranking_average_precision_score": metrics.label_ranking_average_precision_score,
    "precision_recall_curve": curves.precision_recall_curve,
    "roc_curve": curves.roc_curve,
    "det_curve": curves.det_curve,
}
_lock = threading.RLock()
_originals = {}  # scikit-learn's functions by name, kept from the first patch
_swaps = []  # (holder, attribute, original, replacement), in the order they were made
# The ``patched()`` blocks open now, in any thread, and whether a patch preceded the first.
_blocks = {"open": 0, "patched_before": False}


def _sklearn_metrics():
    return import_optional("sklearn.metrics", "sklearn")


def _swap(holder, attribute, original, replacement):
    setattr(holder, attribute, replacement)
    _swaps.append((holder, attribute, original, replacement))


def _module_references(replacements, only_sklearn):
    """(module, attribute, value) of every loaded module's attribute that is a key of
    ``replacements`` (by identity), outside fastpr."""
    found = []
    for name, module in list(sys.modules.items()):
        if module is None or name.split(".")[0] == "fastpr":
            continue
        if only_sklearn and name.split(".")[0] != "sklearn":
            continue
        try:
            namespace = vars(module)
        except TypeError:
            continue
        for attribute, value in list(namespace.items()):
            if id(value) in replacements and replacements[id(value)][0] is value:
                found.append((module, attribute, value))
    return found


def patch():
    """Make scikit-learn's ranking metrics and scorers run on fastpr.

    Swaps ``average_precision_score``, ``roc_auc_score``, ``precision_recall_curve``,
    ``roc_curve``, ``det_curve`` and ``label_ranking_average_precision_score`` into
    ``sklearn.metrics``, into every loaded module that imported them, and into the built-in
    scorers that call them. Patching again is harmless (it also catches modules loaded since).

    Raises
    ------
    ImportError
        When scikit-learn is not installed.

    Examples
    --------
    >>> import sklearn.metrics
    >>> import fastpr.sklearn
    >>> fastpr.sklearn.patch()
    >>> sklearn.metrics.roc_auc_score is fastpr.sklearn.roc_auc_score
    True
    >>> fastpr.sklearn.unpatch()
    >>> sklearn.metrics.roc_auc_score is fastpr.sklearn.roc_auc_score
    False
    """
    sklearn_metrics = _sklearn_metrics()
    scorer_module = import_optional("sklearn.metrics._scorer", "sklearn")
    with _lock:
        if not _originals:
            _originals.update({name: getattr(sklearn_metrics, name) for name in _DROP_INS})
        replacements = {id(original): (original, _DROP_INS[name])
                        for name, original in _originals.items()}
        for module, attribute, original in _module_references(replacements, only_sklearn=False):
            _swap(module, attribute, original, replacements[id(original)][1])
        for scorer in scorer_module._SCORERS.values():
            original = getattr(scorer, "_score_func", None)
            if id(original) in replacements and replacements[id(original)][0] is original:
                _swap(scorer, "_score_func", original, replacements[id(original)][1])


def unpatch():
    """Put back every reference :func:`patch` swapped, and scikit-learn's own in any
    scikit-learn module loaded while patched. Harmless when not patched."""
    with _lock:
        while _swaps:
            holder, attribute, original, replacement = _swaps.pop()
            if getattr(holder, attribute, None) is replacement:
                setattr(holder, attribute, original)
        if _originals:
            ours = {id(_DROP_INS[name]): (_DROP_INS[name], original)
                    for name, original in _originals.items()}
            for module, attribute, replacement in _module_references(ours, only_sklearn=True):
                setattr(module, attribute, ours[id(replacement)][1])


def is_patched():
    """Whether :func:`patch` is in effect (until :func:`unpatch`)."""
    with _lock:
        return bool(_swaps)


@contextlib.contextmanager
def patched():
    """Context manager: scikit-learn's ranking metrics run on fastpr inside the block.

    Restores scikit-learn's functions when the last block open (in any thread) is left,
    unless they were patched before the first was entered.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import cross_val_score
    >>> import fastpr.sklearn
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 3))
    >>> y = (X[:, 0] + rng.normal(size=200) > 0).astype(int)
    >>> plain = cross_val_score(LogisticRegression(), X, y, scoring="average_precision")
    >>> with fastpr.sklearn.patched():
    ...     fast = cross_val_score(LogisticRegression(), X, y, scoring="average_precision")
    >>> bool(np.allclose(plain, fast, rtol=1e-12, atol=0))
    True
    """
    with _lock:
        if _blocks["open"] == 0:
            _blocks["patched_before"] = is_patched()
        patch()  # (may raise ImportError: then no block is open)
        _blocks["open"] += 1
    try:
        yield
    finally:
        with _lock:
            _blocks["open"] -= 1
            if _blocks["open"] == 0 and not _blocks["patched_before"]:
                unpatch()
