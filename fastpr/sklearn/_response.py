"""The scores of a fitted binary classifier, taken as scikit-learn's displays take them, without
importing scikit-learn: the positive class's column of ``predict_proba``, else
``decision_function`` (negated when the positive class is the first)."""
import numpy as np

from ..exceptions import InputValueError

RESPONSE_METHODS = ("auto", "predict_proba", "decision_function")


def estimator_scores(estimator, X, response_method="auto", pos_label=None):
    """(y_score, pos_label): the scores of ``X`` for the positive class, ``classes_[1]`` unless
    ``pos_label`` names one of the estimator's two classes."""
    if response_method not in RESPONSE_METHODS:
        raise InputValueError("{argument} must be one of {allowed}; got {value!r}.",
                              argument="response_method", value=response_method,
                              allowed=", ".join(map(repr, RESPONSE_METHODS)))
    classes = getattr(estimator, "classes_", None)
    if classes is None:
        raise InputValueError("{argument} must be a fitted classifier; {kind} has no classes_ "
                              "(fit it first).", argument="estimator",
                              kind=type(estimator).__name__)
    classes = np.asarray(classes)
    if classes.size != 2:
        raise InputValueError("{argument} must be a binary classifier; {kind} has {n} classes.",
                              argument="estimator", kind=type(estimator).__name__,
                              n=classes.size)
    pos_label = classes[1] if pos_label is None else pos_label
    matches = np.flatnonzero(classes == pos_label)
    if matches.size != 1:
        raise InputValueError("{argument} must be one of the estimator's classes {classes}; "
                              "got {value!r}.", argument="pos_label", value=pos_label,
                              classes=classes.tolist())
    methods = RESPONSE_METHODS[1:] if response_method == "auto" else (response_method,)
    method = next((name for name in methods if hasattr(estimator, name)), None)
    if method is None:
        raise InputValueError("{argument} has none of {methods}.", argument="estimator",
                              methods=", ".join(methods))
    scores = np.asarray(getattr(estimator, method)(X))
    if method == "predict_proba":
        return scores[:, matches[0]], pos_label
    return (-scores if matches[0] == 0 else scores), pos_label
