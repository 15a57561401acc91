"""fastpr's AP gradients and metrics for LightGBM: a custom objective and a custom eval metric.

For ``lgb.train``: ``params={"objective": Objective(), ...}`` and ``feval=Metric(name)``. For
the scikit-learn wrappers: ``LGBMClassifier(objective=SklearnObjective())`` or
``LGBMRanker(objective=SklearnObjective())``, and ``fit(..., eval_metric=SklearnMetric(name))``.
LightGBM itself is not imported here: the adapters only call the methods of the Dataset they
are handed.

A Dataset without query groups is one ranking (binary classification); one with ``group=`` is
one ranking per query (learning to rank), and the metric is the macro mean over the queries
where it is defined. Labels are 0 and 1, checked once per Dataset and kept while the same one
comes back. Every metric says it is higher-is-better, so LightGBM's early stopping maximises
it. Without query groups the objective deals the rows into random queries each round and mixes
in logistic loss (``Objective(ungrouped="one_query")``: one ranking); for a binary task,
LightGBM's ``binary`` objective with this module's ``Metric`` for early stopping is usually the
better choice (the learners guide).

Examples
--------
>>> import numpy as np
>>> from fastpr.learn import lightgbm as fastpr_lgb
>>> class Dataset:  # what the adapters read of a lightgbm.Dataset
...     def get_label(self): return np.array([1, 0, 1, 0], dtype=np.float32)
...     def get_group(self): return None
...     def get_weight(self): return None
>>> preds = np.array([0.9, 0.8, 0.7, 0.6])
>>> fastpr_lgb.Metric("average_precision")(preds, Dataset())
('average_precision', 0.8333333333333333, True)
"""
from ._boosting import GradientsAdapter, MetricAdapter
from ._weights import refuse_sample_weight


class Objective(GradientsAdapter):
    """A custom objective for ``lgb.train(params={"objective": ...})``: LambdaMART gradients of
    average precision, as :func:`fastpr.learn.lambdamart_gradients` with the options given here.

    Query groups of the Dataset are the rankings. Without them (binary classification) each
    round deals the rows into random queries (``ungrouped``). LightGBM's weights are per
    example, which changes of average precision do not define: a weighted Dataset raises.

    Parameters
    ----------
    pairs, k, ranknet, score_normalization, query_normalization
        As in :func:`fastpr.learn.lambdamart_gradients` (the defaults are those of XGBoost's
        ``rank:map``).
    ungrouped, query_positives, rescale, logistic_weight, seed
        As in :class:`fastpr.learn.xgboost.Objective`: without query groups, a fresh random
        partition into queries of about ``query_positives`` positives each round, its AP
        gradients mixed with logistic loss's (default), or ``ungrouped="one_query"`` for one
        ranking of all rows.
    """

    def __call__(self, preds, train_data):
        """(grad, hess) as float64 arrays for the raw scores ``preds`` of ``train_data``."""
        return self.gradients(train_data.get_label(), preds, train_data.get_weight(),
                              train_data.get_group())

    def gradients(self, y_true, y_pred, weight, group):
        """(grad, hess) of labels ``y_true`` and raw scores ``y_pred`` in query groups of sizes
        ``group`` (None: no groups)."""
        refuse_sample_weight(weight, "LightGBM's objective (its weights are per example)")
        return self._gradients(y_true, y_pred, group, None)


class Metric(MetricAdapter):
    """A custom metric for ``lgb.train(feval=...)``: any metric of
    :class:`fastpr.learn.FixedLabels`, of one ranking or macro-averaged over query groups,
    returned as ``(name, value, True)`` (higher is better).

    Parameters
    ----------
    name : str, default="auc_pr"
        One of :data:`fastpr.learn.METRICS`, or a metric with a level as
        :meth:`fastpr.learn.FixedLabels.metric` takes it (``"recall_at_precision@0.9"``,
        ``"precision_at_k@10"``, ...), reported under this name. ``"average_precision"``
        equals LightGBM's ``average_precision`` on the same scores where both are defined.

    Notes
    -----
    Dataset weights weigh each example as ``sample_weight`` of :func:`fastpr.evaluate`. A
    ranking of one class (or whose examples of one class all weigh 0) has no metric: NaN, left
    out of the mean over queries, as XGBoost's ``aucpr`` leaves it out (LightGBM's own
    ``average_precision`` gives 1 there).
    """

    def __call__(self, preds, eval_data):
        """(name, value, True) for the scores ``preds`` of ``eval_data``."""
        return self.evaluate(eval_data.get_label(), preds, eval_data.get_weight(),
                             eval_data.get_group())

    def evaluate(self, y_true, y_pred, weight, group):
        """(name, value, True) of labels ``y_true``, scores ``y_pred``, example weights
        ``weight`` (or None) and query groups of sizes ``group`` (None: one ranking)."""
        labels = self._labels.get(y_true, group, weight)
        return self.name, labels.metric(y_pred, self.name), True


class SklearnObjective(Objective):
    """:class:`Objective` for the scikit-learn wrappers (``LGBMClassifier``, ``LGBMRanker``),
    which call it with labels, raw scores, weights and query group sizes."""

    def __call__(self, y_true, y_pred, weight, group):
        """(grad, hess) as float64 arrays."""
        return self.gradients(y_true, y_pred, weight, group)


class SklearnMetric(Metric):
    """:class:`Metric` for the scikit-learn wrappers' ``eval_metric``, which call it with
    labels, scores, weights and query group sizes."""

    def __call__(self, y_true, y_pred, weight, group):
        """(name, value, True)."""
        return self.evaluate(y_true, y_pred, weight, group)
