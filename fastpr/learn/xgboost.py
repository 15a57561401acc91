"""fastpr's AP gradients and metrics for XGBoost: a custom objective and a custom eval metric.

For ``xgb.train``: ``obj=Objective()`` and ``custom_metric=Metric(name)`` with
``maximize=True``. For the scikit-learn wrappers: ``XGBClassifier(objective=SklearnObjective(),
eval_metric=SklearnMetric(name))``. XGBoost itself is not imported here: the adapters only call
the methods of the DMatrix they are handed.

A DMatrix without query groups is one ranking (binary classification); one with groups
(``group=`` or ``qid=``) is one ranking per query (learning to rank), and the metric is the
macro mean over the queries where it is defined, as XGBoost's ``aucpr`` averages. Labels are
0 and 1, checked once per DMatrix and kept while the same one comes back. Without query
groups the objective deals the rows into random queries each round and mixes in logistic loss
(``Objective(ungrouped="one_query")``: one ranking); for a binary task, logistic loss with
this module's ``Metric`` for early stopping is usually the better choice (the learners guide).

Early stopping must maximise these metrics. ``xgb.train`` takes ``maximize=True``; the
scikit-learn wrappers decide from the metric's name alone, maximising names that begin with
``auc``, so every name reported here does: fastpr's areas do, and the others, such as
``"average_precision"`` (the step-wise AUC-PR estimator) or ``"recall_at_precision@0.9"``, are
reported with ``auc_pr_`` in front (``"auc_pr_average_precision"``).

Examples
--------
>>> import numpy as np
>>> from fastpr.learn import xgboost as fastpr_xgb
>>> class DMatrix:  # what the adapters read of an xgboost.DMatrix
...     def get_label(self): return np.array([1, 0, 1, 0], dtype=np.float32)
...     def get_group(self): return np.array([], dtype=np.uint32)
...     def get_weight(self): return np.array([], dtype=np.float32)
>>> predt = np.array([0.9, 0.8, 0.7, 0.6], dtype=np.float32)
>>> fastpr_xgb.Metric("average_precision")(predt, DMatrix())
('auc_pr_average_precision', 0.8333333333333333)
>>> grad, hess = fastpr_xgb.Objective()(predt, DMatrix())
>>> bool(grad[2] < 0 < grad[1])
True
"""
from ._boosting import GradientsAdapter, MetricAdapter
from ._weights import refuse_sample_weight


def reported_name(name):
    """The name under which XGBoost logs metric ``name``: one that its early stopping, left to
    decide from the name, maximises."""
    return name if name.startswith("auc") else f"auc_pr_{name}"


class Objective(GradientsAdapter):
    """A custom objective for ``xgb.train(obj=...)``: LambdaMART gradients of average precision,
    as :func:`fastpr.learn.lambdamart_gradients` with the options given here.

    Query groups of the DMatrix are the rankings, and their gradients are those of XGBoost's
    ``rank:map``. DMatrix weights of a ranking task are query weights, passed on as
    ``group_weight``. Without query groups (binary classification) each round deals the rows
    into random queries (``ungrouped``); per-example weights are not defined for changes of
    average precision and raise.

    Parameters
    ----------
    pairs, k, ranknet, score_normalization, query_normalization
        As in :func:`fastpr.learn.lambdamart_gradients`; the defaults are those of XGBoost's
        ``rank:map``.
    ungrouped : {"random_queries", "one_query"}, default="random_queries"
        What data without query groups is. ``"random_queries"``: each round, a fresh random
        partition of the rows into queries of about ``query_positives`` positives each (each
        class's rows dealt evenly at random), each query a ranking, its gradients rescaled and
        mixed with logistic loss's as below. ``"one_query"``: all rows are one ranking, as
        ``rank:map`` reads them (the options below do not apply); it warns when that ranking
        is much longer than ``k``, since its trees then hardly split (see the learners guide).
    query_positives : int, default=None
        Positives per random query; None: ``k // 8`` (4 at k = 32; at least 1).
    rescale : bool, default=True
        Multiply each round's random-query gradients and hessians by one factor so that the
        hessians sum to n p (1 - p), as logistic loss's do at the prior (n rows, a share p of
        positives), so that ``min_child_weight`` and ``reg_lambda`` mean what they mean there.
    logistic_weight : float in [0, 1), default=0.75
        The random queries' gradients and hessians are ``(1 - w)`` times AP's plus ``w`` times
        logistic loss's (``sigmoid(margin) - y`` and ``sigmoid(margin) (1 - sigmoid(margin))``).
        0 gives AP's alone. The defaults of ``query_positives`` and ``logistic_weight`` are
        those that came closest to never losing against logistic loss in fastpr's benchmark
        (bench/learner_quality.py, in the learners guide); AP's gradients alone lost more.
    seed : int, default=0
        Seeds the random queries: round i of a training run gets the i-th partition of this
        object's stream, so a new ``Objective(seed=s)`` repeats a run.
    """

    def __call__(self, predt, dtrain):
        """(grad, hess) as float64 arrays for the margins ``predt`` of the rows of ``dtrain``."""
        groups, weights = _groups(dtrain), _weights(dtrain)
        if groups is None:
            refuse_sample_weight(weights, "the objective of one ranking")
        return self._gradients(dtrain.get_label(), predt, groups, weights)


class Metric(MetricAdapter):
    """A custom metric for ``xgb.train(custom_metric=..., maximize=True)``: any metric of
    :class:`fastpr.learn.FixedLabels`, of one ranking or macro-averaged over query groups.

    Parameters
    ----------
    name : str, default="auc_pr"
        One of :data:`fastpr.learn.METRICS`, or a metric with a level as
        :meth:`fastpr.learn.FixedLabels.metric` takes it (``"recall_at_precision@0.9"``,
        ``"precision_at_k@10"``, ...), logged as :func:`reported_name` names it
        (``"auc_pr_recall_at_precision@0.9"``). ``"auc_pr"`` equals XGBoost's ``aucpr`` on the
        same predictions.

    Notes
    -----
    Without query groups, DMatrix weights are example weights and weigh the metric as
    ``sample_weight`` of :func:`fastpr.evaluate`. With groups they are query weights, which leave
    each query's metric as it is, and the mean over queries is unweighted, as in ``aucpr``.
    A ranking of one class (or whose examples of one class all weigh 0) has no metric: NaN, left
    out of the mean, as ``aucpr`` leaves it out.
    """

    def __call__(self, predt, dmatrix):
        """(name as logged, value) for the predictions ``predt`` of the rows of ``dmatrix``."""
        groups = _groups(dmatrix)
        weights = _weights(dmatrix) if groups is None else None
        labels = self._labels.get(dmatrix.get_label(), groups, weights)
        return reported_name(self.name), labels.metric(predt, self.name)


class SklearnObjective(Objective):
    """:class:`Objective` for the scikit-learn wrappers (``XGBClassifier(objective=...)``),
    which hand over labels and margins without query groups (``XGBRanker`` takes no custom
    objective): random queries unless ``ungrouped="one_query"``."""

    def __call__(self, y_true, y_pred):
        """(grad, hess) as float64 arrays."""
        return self._gradients(y_true, y_pred, None, None)


class SklearnMetric(Metric):
    """:class:`Metric` for the scikit-learn wrappers (``eval_metric=...``), named (its
    ``__name__``) so that their early stopping maximises it.

    ``XGBRanker`` calls it on each query and averages the values itself: a query of one example
    counts as 1 and a query of one class gives NaN (and so a NaN mean). ``xgb.train`` with
    :class:`Metric` gives the macro mean over the queries where the metric is defined.
    """

    def __init__(self, name="auc_pr"):
        super().__init__(name)
        self.__name__ = reported_name(self.name)

    def __call__(self, y_true, y_pred, sample_weight=None):
        """The metric of one ranking, weighted by ``sample_weight`` if given."""
        return self._labels.get(y_true, None, sample_weight).metric(y_pred, self.name)


def _groups(dmatrix):
    """Query group sizes, or None for one ranking."""
    sizes = dmatrix.get_group()
    return sizes if sizes.size else None


def _weights(dmatrix):
    weights = dmatrix.get_weight()
    return weights if weights.size else None
