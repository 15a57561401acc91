"""scikit-learn scorers for fastpr's own metrics, for ``scoring=`` in ``cross_validate``,
``GridSearchCV`` and the rest.

Like scikit-learn's ranking scorers, they read ``decision_function`` where the estimator has
one and ``predict_proba`` otherwise (the positive class's column for binary targets), and
greater is better. A 2-D response (multiclass or multilabel) gives the one-vs-rest macro
average of :mod:`fastpr.multiclass`.
"""
import numpy as np

import fastpr

from .._optional import import_optional
from .._validation import distinct

def _positive_label(y_true, pos_label):
    """The scorer's positive class: ``pos_label``, else the greater of two labels (the class
    whose column scikit-learn's scorer took), else fastpr's own rule."""
    if pos_label is not None:
        return pos_label
    classes = distinct(np.asarray(y_true))
    return classes[-1].item() if classes.size == 2 else None


def _binary_only(metric, y_score):
    if np.ndim(y_score) != 1:
        raise ValueError(f"the {metric} scorer is for binary targets; got a response of shape "
                         f"{np.shape(y_score)} (a multiclass or multilabel estimator).")


def auc_pr(y_true, y_score, *, method="interpolated", pos_label=None, sample_weight=None):
    """:func:`fastpr.auc_pr` (one-vs-rest macro average for a 2-D ``y_score``)."""
    if np.ndim(y_score) == 2:
        return fastpr.multiclass.auc_pr(y_true, y_score, method=method,
                                        sample_weight=sample_weight)
    return fastpr.auc_pr(y_true, y_score, method=method, sample_weight=sample_weight,
                         pos_label=_positive_label(y_true, pos_label))


def auc_roc(y_true, y_score, *, pos_label=None, sample_weight=None):
    """:func:`fastpr.auc_roc` (one-vs-rest macro average for a 2-D ``y_score``)."""
    if np.ndim(y_score) == 2:
        return fastpr.multiclass.auc_roc(y_true, y_score, sample_weight=sample_weight)
    return fastpr.auc_roc(y_true, y_score, sample_weight=sample_weight,
                          pos_label=_positive_label(y_true, pos_label))


def auc_npr(y_true, y_score, *, method="interpolated", pos_label=None, sample_weight=None):
    """:func:`fastpr.auc_npr` (binary targets)."""
    _binary_only("auc_npr", y_score)
    return fastpr.auc_npr(y_true, y_score, method=method, sample_weight=sample_weight,
                          pos_label=_positive_label(y_true, pos_label))


def auc_prg(y_true, y_score, *, pos_label=None, sample_weight=None):
    """:func:`fastpr.auc_prg` (binary targets)."""
    _binary_only("auc_prg", y_score)
    return fastpr.auc_prg(y_true, y_score, sample_weight=sample_weight,
                          pos_label=_positive_label(y_true, pos_label))


_METRICS = {"auc_pr": auc_pr, "auc_roc": auc_roc, "auc_npr": auc_npr, "auc_prg": auc_prg}


def scorer(metric="auc_pr", *, response_method=("decision_function", "predict_proba"),
           **options):
    """A scikit-learn scorer of one of fastpr's metrics.

    Parameters
    ----------
    metric : {"auc_pr", "auc_roc", "auc_npr", "auc_prg"}, default="auc_pr"
        The fastpr function to score with.
    response_method : str or tuple of str, default=("decision_function", "predict_proba")
        What of the estimator's output is scored, as in ``sklearn.metrics.make_scorer``: the
        first it has. For a multiclass estimator, scikit-learn's "roc_auc_ovr" scores
        ``predict_proba``, whose columns can rank the samples differently from
        ``decision_function``'s (a softmax mixes the classes' scores): pass
        ``response_method="predict_proba"`` for its numbers.
    **options
        Passed to it: ``method=`` (an estimator of :func:`fastpr.auc_pr`, for "auc_pr" and
        "auc_npr") and ``pos_label=``.

    Returns
    -------
    scorer
        ``sklearn.metrics.make_scorer(...)`` on ``response_method``, greater is better.

    Raises
    ------
    ImportError
        When scikit-learn is not installed.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import cross_val_score
    >>> import fastpr.sklearn
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(300, 3))
    >>> y = (X[:, 0] + rng.normal(size=300) > 1).astype(int)
    >>> dg = fastpr.sklearn.scorer("auc_pr", method="davis_goadrich")
    >>> cross_val_score(LogisticRegression(), X, y, scoring=dg, cv=3).round(3)
    array([0.682, 0.416, 0.656])
    """
    if metric not in _METRICS:
        raise ValueError(f"metric must be one of {', '.join(map(repr, _METRICS))}; got "
                         f"{metric!r}.")
    if "method" in options:
        if metric not in ("auc_pr", "auc_npr"):
            raise ValueError(f"method= is for 'auc_pr' and 'auc_npr', not {metric!r}.")
        if options["method"] not in fastpr.PR_METHODS:
            raise ValueError(f"method must be one of {', '.join(fastpr.PR_METHODS)}; got "
                             f"{options['method']!r}.")
    make_scorer = import_optional("sklearn.metrics", "sklearn").make_scorer
    return make_scorer(_METRICS[metric], response_method=response_method,
                       greater_is_better=True, **options)

