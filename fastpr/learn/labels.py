""":class:`FixedLabels`: labels checked once, then metrics, ``|dAP|`` sums and LambdaMART
gradients of any number of candidate scores (boosting rounds, early stopping, search loops)."""
import math

import numpy as np

from .. import _point_metrics, _validation
from .._engine import tables as engine_tables
from ._kernels import lambdas as _lambdas
from .._engine.kernels import rows as row_columns
from .._engine.kernels import summary as summary_columns
from .._engine.kernels import sweep as _sweep
from .._engine.kernels import tables as table_kernels
from .._engine.kernels.area import worst_ranking_interpolated_area
from .._engine.kernels.lean_sweep import lean_summary_into
from .._engine.kernels.normalised import normalised_area
from .._engine.kernels.split import split_into
from .._engine.batch import PerThread
from .._engine.ranking import SortedRanking, record_into, sweep_ranking
from .._validation import Boolean, Integer, Metric, OneOf, options
from .._rankings import AVERAGES, averaged
from ..exceptions import InputValueError
from ..results import COLUMNS
from ._rankings import Rankings
from ._sums import one_ranking_sums
from ._top_k import one_ranking_top_k
from ._weights import group_weights, refuse_sample_weight

# The names without a level; :meth:`FixedLabels.metric` takes those with one too.
METRICS = ("auc_roc", "auc_roc_hull", "auc_pr", "auc_pr_dg", "average_precision",
           "auc_pr_lower", "auc_pr_upper", "auc_pr_linear", "auc_pr_hull", "auc_npr")
# The options of LambdaMART gradients (ranknet and score_normalization: None, the pairs'
# default, or a bool).
GRADIENT_OPTIONS = {"pairs": OneOf(("topk", "all")), "k": Integer(minimum=1),
                    "ranknet": Boolean(), "score_normalization": Boolean(),
                    "query_normalization": Boolean()}
# The metrics of ``lean_summary_into``, which is several times faster than the whole sweep.
_LEAN = ("auc_roc", "average_precision", "auc_pr", "auc_npr")
# Where the lean pass puts each of its metrics in the summary vector.
_SUMMARY_COLUMNS = {"auc_roc": summary_columns.AUC_ROC, "auc_pr": summary_columns.INTERPOLATED,
                    "average_precision": summary_columns.AVERAGE_PRECISION}
_FLOATS = (np.dtype(np.float64), np.dtype(np.float32))  # native byte order
_NO_WEIGHTS = np.empty(0)
_NO_ROWS = np.empty(0, dtype=np.int64)


class FixedLabels:
    """Labels (and query groups) validated once, for scoring many candidate scores of them.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Labels as in :func:`fastpr.evaluate`.
    groups, offsets : array-like, default=None
        Query groups as in :func:`fastpr.evaluate`: one ranking per group, group g being the
        g-th distinct id in sorted order (``groups``) or rows ``offsets[g]:offsets[g + 1]``.
    sample_weight : array-like of shape (n_samples,), default=None
        Weights for :meth:`metric`, as in :func:`fastpr.evaluate`. Changes of average precision
        have no per-example weights, so with them :meth:`lambda_sums` and
        :meth:`lambdamart_gradients` raise.
    pos_label : scalar, default=None
        The positive label, as in :func:`fastpr.evaluate`.

    Attributes
    ----------
    n_groups : int
        Rankings: 1 without groups.
    group_ids : ndarray or None
        The group of each ranking: the sorted distinct ids of ``groups``, the segment numbers of
        ``offsets``, None for one ranking. ``group_weight`` and per-group results follow it.
    n_pos, n_neg : ndarray of int, shape (n_groups,)
        Positives and negatives of each ranking (counts, whatever the weights).
    n_single_class : int
        Rankings without positives or without negatives. Their metrics are NaN (a macro mean
        leaves them out), as are those of rankings whose positives or negatives all weigh 0;
        their ``|dAP|`` sums and gradients are 0, since they have no pair to swap. Where
        :func:`fastpr.evaluate` gives a ranking without negatives PR areas of 1 (precision is 1
        at every recall, whatever the scores), :meth:`metric` gives NaN, as XGBoost's ``aucpr``
        does: such a ranking cannot tell one set of scores from another.

    Notes
    -----
    The rankings of :meth:`lambda_sums` and :meth:`lambdamart_gradients` order examples by
    descending score with ties in row order (a stable sort, as XGBoost's), so average precision
    there is that of positions: it equals ``average_precision`` of :meth:`metric` (which gives
    tied scores one threshold) when no scores tie.

    Calls reuse buffers kept in the object, one set per thread, so threads may share it.

    Examples
    --------
    >>> import numpy as np
    >>> from fastpr.learn import FixedLabels
    >>> labels = FixedLabels([1, 0, 1, 0, 0, 1], groups=[0, 0, 0, 1, 1, 1])
    >>> labels.metric([0.9, 0.8, 0.1, 0.7, 0.2, 0.4], "average_precision", average=None)
    array([0.83333333, 0.5       ])
    >>> grad, hess = labels.lambdamart_gradients([0.9, 0.8, 0.1, 0.7, 0.2, 0.4])
    >>> bool(grad[2] < 0 < grad[1])  # the low positive is pushed up, the high negative down
    True
    """

    def __init__(self, y_true, *, groups=None, offsets=None, sample_weight=None, pos_label=None):
        self._rankings = Rankings(y_true, groups, offsets, pos_label)
        n = self._rankings.is_positive.size
        self._weights = _validation.weights(sample_weight, n)
        self.n_groups = self._rankings.n_groups
        self.group_ids = self._rankings.ids
        self.n_pos = self._rankings.n_pos
        self.n_neg = self._rankings.n_neg
        self.n_single_class = self._rankings.n_single_class
        codes = self._rankings.codes
        # Rows group by group for fastpr's batch tables; empty where groups are contiguous.
        self._rows = (table_kernels.stable_order(codes, self.n_groups)[0] if groups is not None
                      else _NO_ROWS)
        self._one_ranking = codes is None and self._weights is None
        if self._one_ranking:  # see _fast_metric
            self._n_pos = int(self.n_pos[0])
            self._has_negatives = bool(self.n_neg[0])
            self._scratch = _FastScratch()
            self._floor = worst_ranking_interpolated_area(float(self.n_pos[0]),
                                                          float(self.n_neg[0]))

    @options(name=Metric(METRICS), average=OneOf(AVERAGES))
    def metric(self, y_score, name="auc_pr", *, average="macro"):
        """One metric of the ranking (or of each group) that ``y_score`` makes.

        Parameters
        ----------
        y_score : array-like of shape (n_samples,)
            Scores as in :func:`fastpr.evaluate`.
        name : str, default="auc_pr"
            A metric of :class:`fastpr.Evaluation`: ``"auc_pr"`` (interpolated),
            ``"auc_pr_dg"``, ``"average_precision"``, ``"auc_pr_lower"``, ``"auc_pr_upper"``,
            ``"auc_pr_linear"``, ``"auc_pr_hull"``, ``"auc_npr"``, ``"auc_roc"`` or
            ``"auc_roc_hull"``; or an operating point, a top-k metric or a partial area as
            :func:`fastpr.bootstrap` names them (``"recall_at_precision@0.9"``,
            ``"precision_at_k@10"``, ``"r_precision"``, ``"auc_roc@0.1"``, ...), equal to the
            function of that name on each ranking; the top-k metrics count rows, so they take
            no ``sample_weight``.
        average : {"macro", None}, default="macro"
            With groups: their mean over the groups where the metric is defined, or (None) one
            value per group. Ignored for one ranking.

        Returns
        -------
        float or ndarray
            Equal to the same field of :func:`fastpr.evaluate` on these labels and scores
            where the ranking has positives and negatives of nonzero weight; NaN otherwise (see
            ``n_single_class``), without a warning.
        """
        spec = _validation.metric_spec(name)
        if spec.levels or spec.name in _point_metrics.TOP_K:
            return self._points_metric(y_score, spec, average)
        name = spec.text
        if self._one_ranking:
            value = self._fast_metric(self._fast_scores(y_score), name)
            return value if self._has_negatives else math.nan  # see below
        scores = self._rankings.checked_scores(y_score)
        order = self._rows if self._rows.size else None
        table = engine_tables.table(engine_tables.Rankings(
            self._rankings.is_positive, scores, self._weights, self._rankings.offsets, order))
        # A ranking without negatives (or whose negatives weigh 0) has precision 1 whatever the
        # scores, so fastpr.evaluate gives it PR areas of 1; it says nothing of the scores, and
        # counted in a mean it would pull the mean towards 1: undefined here, as in XGBoost's
        # aucpr (evaluate's NaN already covers the ROC metrics there and rankings without
        # positives).
        values = np.where(table[:, COLUMNS["n_neg"]] > 0, table[:, COLUMNS[name]], np.nan)
        if self._rankings.codes is None:
            return float(values[0])
        return averaged(values, average)

    def _points_metric(self, y_score, spec, average):
        """``metric`` of a metric read from each ranking's operating points: each ranking
        sorted and swept with its points (on threads, ``tables.read_each``; a ranking without
        negatives: NaN, as above)."""
        if spec.name in _point_metrics.TOP_K and self._weights is not None:
            raise InputValueError("{argument}={metric!r} counts rows (the k highest scores), "
                                  "which sample_weight does not weigh: make FixedLabels "
                                  "without it.", argument="name", metric=spec.text)
        scores = self._rankings.checked_scores(y_score)
        point = _point_metrics.point(spec)

        def read(ranking):
            swept = sweep_ranking(ranking, with_points=True)
            pos_total = swept.row[row_columns.POS_WEIGHT]
            neg_total = swept.row[row_columns.NEG_WEIGHT]
            value = _point_metrics.finish(_point_metrics.of_swept(swept, *point), spec,
                                          pos_total, neg_total)
            return value if neg_total > 0 else math.nan

        order = self._rows if self._rows.size else None
        values = np.array(engine_tables.read_each(engine_tables.Rankings(
            self._rankings.is_positive, scores, self._weights, self._rankings.offsets, order),
            read), dtype=np.float64)
        if self._rankings.codes is None:
            return float(values[0])
        return averaged(values, average)

    def _fast_scores(self, y_score):
        """``y_score`` checked but for NaN (which ``_fast_metric`` finds), with no checks at
        all for a float array of the right length that needs no conversion."""
        if (type(y_score) is np.ndarray and y_score.dtype in _FLOATS
                and y_score.shape == self._rankings.is_positive.shape
                and y_score.flags.c_contiguous):
            return y_score
        return self._rankings.checked_scores(y_score, find_nan=False)

    def _fast_metric(self, scores, name):
        """``metric`` of one unweighted ranking: each class's scores split into buffers kept
        from call to call (one set per thread), sorted by NumPy, swept once (only for the areas
        asked when they are those of ``lean_summary_into``)."""
        buffers = self._scratch.by_dtype.get(scores.dtype)
        if buffers is None:
            buffers = self._scratch.by_dtype[scores.dtype] = _FastBuffers(
                self._n_pos, scores.size - self._n_pos, scores.dtype)
        pos, neg = buffers.pos, buffers.neg
        split_into(scores, self._rankings.is_positive, *buffers.split)
        pos.sort()
        neg.sort()
        # NaN sorts last: checking the largest score of each class finds them.
        if pos.size and math.isnan(pos[-1]) or neg.size and math.isnan(neg[-1]):
            _validation.reject_nan("y_score", scores)
        if name not in _LEAN:
            record_into(SortedRanking(pos, _NO_WEIGHTS, neg, _NO_WEIGHTS), buffers.row)
            return float(buffers.row[COLUMNS[name]])
        interpolate = name in ("auc_pr", "auc_npr")
        lean_summary_into(pos, neg, interpolate, buffers.stats, buffers.summary)
        if name == "auc_npr":
            return normalised_area(float(buffers.summary[summary_columns.INTERPOLATED]),
                                   self._floor)
        return float(buffers.summary[_SUMMARY_COLUMNS[name]])

    def lambda_sums(self, y_score):
        """For every example, the sum of ``|dAP|`` over the swaps with each example of the other
        label in its ranking (see :func:`fastpr.learn.lambda_sums`)."""
        self._refuse_weights("lambda_sums")
        rankings = self._rankings
        scores = _float64(rankings.checked_scores(y_score, find_nan=False))
        out = np.empty(scores.size)
        order, ranked_true = rankings.order(scores, out.view(np.uint64), _lambdas.SUMS_WORK)
        if self.n_groups == 1:  # its chunks on threads
            rankings.run(lambda first, last, work: one_ranking_sums(ranked_true, order, out, work),
                         _lambdas.SUMS_WORK)
        else:
            rankings.run(lambda first, last, work: _lambdas.lambda_sums_range(
                ranked_true, order, rankings.offsets, first, last, out, work),
                _lambdas.SUMS_WORK)
        return out

    @options(**GRADIENT_OPTIONS)
    def lambdamart_gradients(self, y_score, *, pairs="topk", k=32, ranknet=None,
                             score_normalization=None, query_normalization=True,
                             group_weight=None):
        """LambdaMART gradients and hessians of average precision for ``y_score``
        (see :func:`fastpr.learn.lambdamart_gradients`)."""
        self._refuse_weights("lambdamart_gradients")
        scales = _NO_WEIGHTS
        if group_weight is not None:
            weights = group_weights(group_weight, self.n_groups)
            weights = weights / weights.max()  # (a sum of subnormal weights has no inverse)
            scales = weights * (self.n_groups / weights.sum())  # XGBoost's weight norm
        return rankings_gradients(self._rankings, y_score, pairs, k, ranknet,
                                  score_normalization, query_normalization, scales)

    def _refuse_weights(self, what):
        if self._weights is not None:
            refuse_sample_weight(self._weights, what)


class _FastScratch(PerThread):
    """A thread's buffers of ``FixedLabels._fast_metric``, a :class:`_FastBuffers` by score
    dtype (one attribute: each read of a thread's attribute costs a fifth of a microsecond)."""

    def __init__(self):
        self.by_dtype = {}


class _FastBuffers:
    """Each class's scores of one dtype (``split`` with the spare slot that ``split_into``
    needs, ``pos`` and ``neg`` without) and the outputs of the sweeps."""

    __slots__ = ("split", "pos", "neg", "row", "stats", "summary")

    def __init__(self, n_pos, n_neg, dtype):
        self.split = np.empty(n_pos + 1, dtype=dtype), np.empty(n_neg + 1, dtype=dtype)
        self.pos, self.neg = self.split[0][:n_pos], self.split[1][:n_neg]
        self.row = np.empty(row_columns.N_COLUMNS)
        self.stats = np.empty(_sweep.SCALE + 1)
        self.summary = np.empty(summary_columns.N_SUMMARY)


def rankings_gradients(rankings, y_score, pairs, k, ranknet, score_normalization,
                       query_normalization, scales):
    """(grad, hess) of :meth:`FixedLabels.lambdamart_gradients` for the labels and groups of
    ``rankings`` (a ``Rankings``), with options checked by the caller and ``scales`` a factor
    per ranking (or empty for 1)."""
    top_k = pairs == "topk"
    ranknet = _switch("ranknet", ranknet, top_k)
    score_normalization = _switch("score_normalization", score_normalization, top_k)
    scores = _float64(rankings.checked_scores(y_score, find_nan=False))
    if (ranknet or score_normalization) and not (np.isfinite(scores.min())
                                                 and np.isfinite(scores.max())):
        _validation.reject_nan("y_score", scores)
        raise InputValueError("{argument} must be finite for the RankNet factor and score "
                              "normalisation, which read differences of scores.",
                              argument="y_score")
    grad = np.empty(scores.size)
    hess = np.empty(scores.size)
    fields = _lambdas.TOP_K_WORK if top_k else _lambdas.ALL_PAIRS_WORK
    order, ranked_true = rankings.order(scores, grad.view(np.uint64), fields)
    if top_k and rankings.n_groups == 1:  # its pairs in chunks, on threads
        rankings.run(lambda first, last, work: one_ranking_top_k(
            ranked_true, scores, order, k, ranknet, score_normalization,
            query_normalization, scales[0] if scales.size else 1.0, grad, hess, work),
            fields)
    elif top_k:
        rankings.run(lambda first, last, work: _lambdas.top_k_range(
            ranked_true, scores, order, rankings.offsets, scales, k, ranknet,
            score_normalization, query_normalization, first, last, grad, hess, work),
            fields)
    else:
        rankings.run(lambda first, last, work: _lambdas.all_pairs_range(
            ranked_true, order, rankings.offsets, scales, query_normalization,
            first, last, grad, hess, work), fields)
    return grad, hess


def _float64(scores):
    """The learner's kernels take float64 scores (one compiled version each)."""
    return scores.astype(np.float64, copy=False)


def _switch(name, value, top_k):
    """An option of top-k pairs (None: on); all pairs take it only off (None: off)."""
    if value is None:
        return top_k
    if value and not top_k:
        raise InputValueError("{argument}=True needs pairs='topk': the sum over all pairs is "
                              "linear only in |dAP| itself, which the RankNet factor and score "
                              "normalisation multiply by a factor of each pair's scores.",
                              argument=name)
    return value
