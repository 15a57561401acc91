"""scikit-learn's ranking metrics on fastpr's engine: same names, signatures, defaults, return
types and numbers, one sort and one pass per ranking.

Import the functions in place of scikit-learn's::

    from fastpr.sklearn import average_precision_score, roc_auc_score, roc_curve

or run existing scikit-learn code on fastpr unchanged, scorers included::

    import fastpr.sklearn
    fastpr.sklearn.patch()          # or: with fastpr.sklearn.patched(): ...

The functions follow scikit-learn 1.9: ``average_precision_score``, ``roc_auc_score``
(``max_fpr``, ``multi_class="ovr" | "ovo"``, ``labels``), ``precision_recall_curve``,
``roc_curve`` and ``det_curve`` (``drop_intermediate``), ``label_ranking_average_precision_score``.
They do not need scikit-learn, nor import it; :func:`patch` and the scorers do. Where inputs are
refused, the exception types are scikit-learn's, and so are the warnings' classes (scikit-learn's
own classes when it is loaded); messages start with scikit-learn's words where its tests look for
them. Unlike scikit-learn, negative sample weights are refused (``ValueError``).

:func:`scorer` makes scikit-learn scorers of fastpr's own metrics: the correctly interpolated
AUC-PR, Davis & Goadrich's, the normalised AUC-PR, AUC-ROC and AUPRG.
"""
from .det_display import DetCurveDisplay
from .displays import PrecisionRecallDisplay, RocCurveDisplay
from .._validation import InvalidParameterError
from .curves import det_curve, precision_recall_curve, roc_curve
from .metrics import (
    average_precision_score,
    label_ranking_average_precision_score,
    roc_auc_score,
)
from .patching import is_patched, patch, patched, unpatch
from .scorers import scorer

__all__ = [
    "DetCurveDisplay",
    "InvalidParameterError",
    "PrecisionRecallDisplay",
    "RocCurveDisplay",
    "average_precision_score",
    "det_curve",
    "is_patched",
    "label_ranking_average_precision_score",
    "patch",
    "patched",
    "precision_recall_curve",
    "roc_auc_score",
    "roc_curve",
    "scorer",
    "unpatch",
]

