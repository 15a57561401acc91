"""Confidence intervals and paired model comparison (Boyd et al. 2013; docs/math/intervals.rst).

Every bootstrap here sorts once: a replicate is a vector of counts over the already sorted
examples, and its random numbers come from a stream keyed by (seed, replicate), so results
depend on the seed alone, not on the thread count.
"""
import math
import secrets
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from . import _point_metrics, _student_t, _validation
from ._engine.batch import each, spread
from ._engine.jit import thread_count
from ._engine.kernels import resample, rows
from ._engine.kernels.delong import placements
from ._engine.kernels.draws import replicate_counts
from ._engine.kernels.gap_bins import gap_bin_starts
from ._engine.ranking import SortedRanking, stable_argsort, sweep_ranking
from ._rankings import sort_ranking
from ._optional import import_optional
from ._validation import Boolean, Integer, Metric, OneOf, options
from ._validation import Interval as Within
from ._undefined import warn_undefined, warn_undefined_entries
from .exceptions import InputTypeError, InputValueError
from .results import (COLUMNS, P_FLOOR, PR_METHODS, Result, Table, method_field, number_text,
                      p_value_text)
from .unachievable import normalised_auc_pr

METRICS = ("auc_pr", "auc_roc", "auc_npr", "max_f1")  # those without a level
BOOTSTRAP_INTERVALS = ("percentile", "basic", "bca")
RESAMPLING = ("multinomial", "poisson")
_BATCH = 64  # replicates per kernel call: the progress bar's step
_JACKKNIFE_GROUPS = 100
_NORMAL = NormalDist()
# The smallest p-value the tests state: the smallest positive double. A tail beyond it is
# returned as this bound rather than as 0.
_SMALLEST_P = math.ulp(0.0)
_NO_WEIGHTS = np.empty(0)
_CONFIDENCE = Within(0, 1, closed="neither")
_UNDEFINED_REPLICATES = ("they drew no positives or no negatives, or their weights are beyond "
                         "what double precision resolves")
# The metrics that a ranking may leave undefined with both classes: no threshold meets the level.
_CONSTRAINED = ("recall_at_precision", "precision_at_recall", "tpr_at_fpr", "tnr_at_tpr")
_SEED = Integer(0, 2**64 - 1)
# The options of every bootstrap (``fastpr.spark.bootstrap`` checks its own by them).
BOOTSTRAP_OPTIONS = dict(metric=Metric(METRICS), method=OneOf(PR_METHODS),
                          interval=OneOf(BOOTSTRAP_INTERVALS), resampling=OneOf(RESAMPLING),
                          confidence=_CONFIDENCE, n_boot=Integer(minimum=2), seed=_SEED,
                          stratified=Boolean(), progress=Boolean(text=True))


@dataclass(frozen=True, repr=False, eq=False)
class Interval(Result):
    """A point estimate and its two-sided interval at ``confidence``."""

    metric: str
    method: str
    interval: str
    estimate: float
    low: float
    high: float
    confidence: float

    def _tables(self):
        return [_interval_table(self, f"Interval: {_percent(self.confidence)} {self.interval} "
                                      "interval")]


@dataclass(frozen=True, repr=False, eq=False)
class BootstrapResult(Result):
    """Bootstrap interval with its replicate values and the settings that reproduce them.

    Replicates whose metric is undefined (a resample without positives; for AUC-ROC and the
    normalised area, or without negatives) are NaN in ``replicates``, counted in
    ``n_undefined`` and left out of the interval.
    """

    metric: str
    method: str
    interval: str
    estimate: float
    low: float
    high: float
    confidence: float
    replicates: np.ndarray
    n_boot: int
    n_undefined: int
    stratified: bool
    resampling: str
    seed: int

    def _tables(self):
        undefined = f", {self.n_undefined} undefined" if self.n_undefined else ""
        title = (f"BootstrapResult: {_percent(self.confidence)} {self.interval} interval from "
                 f"{self.n_boot} replicates ({'stratified ' if self.stratified else ''}"
                 f"{self.resampling}, seed {self.seed}{undefined})")
        # The PR estimator is a setting of the PR areas alone: beside another metric it would
        # read as if it had shaped that metric.
        return [_interval_table(self, title, with_method=self.metric.partition("@")[0]
                                in ("auc_pr", "auc_npr"))]


def _interval_table(result, title, with_method=True):
    """One row, indexed by the metric: the estimate and its interval (after the method, with
    ``with_method``)."""
    method = {"method": np.array([result.method])} if with_method else {}
    return Table(title, {**method, **{name: np.array([getattr(result, name)])
                                      for name in ("estimate", "low", "high")}},
                 np.array([result.metric]), "metric")


def _percent(confidence):
    return f"{number_text(100 * confidence)}%"


@dataclass(frozen=True, repr=False, eq=False)
class Comparison(Result):
    """Models scored on the same examples, each compared with the first (``differences[k]`` is
    model k + 1 minus model 0), with intervals and two-sided p-values for no difference.
    ``models`` names them: the column names of a table of models, else positions 0, 1, ...

    Printed (and by ``to_frame()``), a row per model: its estimate and, for the others, the
    difference with its interval and p-value. A printed p-value below what its test resolves
    shows as a bound, never 0: ``"< 1/B"`` for the bootstrap test of B replicates (with a
    defined difference), whose normal tail is not borne out by any replicate beyond 1/B, and
    ``"< 1e-16"`` for DeLong's; ``p_values`` and the frame keep the computed values.
    """

    metric: str
    method: str
    test: str
    models: np.ndarray
    estimates: np.ndarray
    differences: np.ndarray
    low: np.ndarray
    high: np.ndarray
    p_values: np.ndarray
    confidence: float
    replicates: np.ndarray  # (n_boot, n_models) for the bootstrap test, empty for DeLong

    def _tables(self):
        # The p-values' bounds: see the class docstring.
        first = {"estimate": self.estimates}
        columns = {name: np.concatenate([[math.nan], getattr(self, field)])
                   for name, field in (("difference", "differences"), ("low", "low"),
                                       ("high", "high"), ("p_value", "p_values"))}
        if self.test == "bootstrap":
            differences = self.replicates[:, 1:] - self.replicates[:, :1]
            bounds = [1 / max(n, 1) for n in np.isfinite(differences).sum(axis=0)]
            replicates = f", {self.replicates.shape[0]} replicates"
        else:
            bounds, replicates = [P_FLOOR] * self.differences.size, ""
        cells = {name: [""] + [number_text(v) for v in values[1:].tolist()]
                 for name, values in columns.items()}
        cells["p_value"] = [""] + [p_value_text(p, max(bound, P_FLOOR)) for p, bound
                                   in zip(self.p_values.tolist(), bounds)]
        title = (f"Comparison of {self.metric} ({self.method}) with model {self.models[0]}: "
                 f"{self.test} test{replicates}, {_percent(self.confidence)} intervals")
        return [Table(title, {**first, **columns}, self.models, "model", cells)]


# --------------------------------------------------------------------------- resampled data
@dataclass(frozen=True)
class _Resampler:
    """Each model's sorted scores (rows), weights and example order, ready for the kernel; for
    cells (one model), also each cell's row count (``pos_count``, ``neg_count``; None for
    rows)."""

    pos: np.ndarray
    pos_weight: np.ndarray
    neg: np.ndarray
    neg_weight: np.ndarray
    pos_order: np.ndarray
    neg_order: np.ndarray
    bins: "_GapBins | _ExampleBins | _CellBins"  # the negatives as the kernels take them
    pos_count: np.ndarray = None
    neg_count: np.ndarray = None

    @classmethod
    def single(cls, ranking):
        no_order = np.empty((1, 0), dtype=np.int64)
        pos, neg = (scores[None, :].astype(np.float64, copy=False)
                    for scores in (ranking.pos, ranking.neg))
        return cls(pos, ranking.pos_weight[None, :], neg, ranking.neg_weight[None, :], no_order,
                   no_order, _GapBins(gap_bin_starts(pos[0], neg[0])))

    @classmethod
    def cells(cls, pos, pos_count, pos_weight, neg, neg_count, neg_weight):
        """One model held as cells: each class's distinct (score, weight) entries sorted by
        (score, weight), their row counts (int64, > 0) and weights (empty: unit weights)."""
        no_order = np.empty((1, 0), dtype=np.int64)
        if pos_weight.size:  # weights keep cells apart: every cell is swept
            bins = _CellBins(pos_count, neg, neg_count, neg_weight)
        else:  # gap bins of the negative cells, as the rows' bootstrap draws them
            starts = gap_bin_starts(pos, neg)
            bins = _CellBins(pos_count, neg[starts[1:] - 1],
                             np.add.reduceat(neg_count, starts[:-1]) if neg.size else neg_count,
                             _NO_WEIGHTS)
        return cls(pos[None, :], pos_weight[None, :], neg[None, :], neg_weight[None, :],
                   no_order, no_order, bins, pos_count.astype(np.float64),
                   neg_count.astype(np.float64))

    @classmethod
    def paired(cls, is_positive, score_rows, weights):
        """Stable argsort of each model's scores within each class: the order maps the shared
        per-example counts to that model's sorted positions."""
        columns, rows_to_sort = {}, []
        for name, mask in (("pos", is_positive), ("neg", ~is_positive)):
            if weights is not None:
                mask = mask & (weights > 0)
            scores = score_rows[:, mask].astype(np.float64)
            columns[name] = np.empty_like(scores)
            columns[name + "_order"] = np.empty(scores.shape, dtype=np.int64)
            rows_to_sort += [(scores[m], columns[name][m], columns[name + "_order"][m])
                             for m in range(scores.shape[0])]
        # Each model's classes sort side by side (NumPy's argsort releases the GIL): at 10^6
        # rows these sorts took as long as 100 replicates.
        each(_sort_row, rows_to_sort, score_rows.size)
        for name, mask in (("pos", is_positive), ("neg", ~is_positive)):
            columns[name + "_weight"] = (np.empty((1, 0)) if weights is None else
                                         weights[mask & (weights > 0)][columns[name + "_order"]])
        if weights is None:
            bins = _ExampleBins.gaps(columns["pos"], columns["neg"], columns["neg_order"])
        else:
            bins = _ExampleBins.examples(columns["neg"], columns["neg_order"],
                                         weights[~is_positive & (weights > 0)])
        return cls(**columns, bins=bins)

    def replicates(self, seed, n_boot, stratified, poisson, point, progress):
        out = np.empty((n_boot, self.pos.shape[0], resample.N_REPLICATE))
        title = progress if isinstance(progress, str) else None
        bar = (import_optional("tqdm", "progress").tqdm(total=n_boot, desc=title)
               if progress else None)
        seed = np.uint64(seed)
        for first in range(0, n_boot, _BATCH):
            count = min(_BATCH, n_boot - first)
            n_tasks = min(thread_count(), count)  # task t takes replicates t, t + n_tasks, ...
            spread(lambda start: self.bins.replicates_into(
                self, seed, first, start, n_tasks, stratified, poisson, point,
                out[first:first + count]), range(n_tasks), n_tasks)
            if bar is not None:
                bar.update(count)
        if bar is not None:
            bar.close()
        return out

    def full_rows(self, point):
        """Each model's replicate row on the data as given (every row counted once)."""
        if self.pos_count is None:
            every_pos = np.ones(self.pos.shape[1], bool)
            every_neg = np.ones(self.neg.shape[1], bool)
        else:
            every_pos, every_neg = self.pos_count, self.neg_count
        return np.array([self._row(m, every_pos, every_neg, point)
                         for m in range(self.pos.shape[0])])

    def _row(self, model, kept_pos, kept_neg, point):
        pos_weight = self._weights(kept_pos, self.pos_weight, self.pos_order, model)
        neg_weight = self._weights(kept_neg, self.neg_weight, self.neg_order, model)
        ranking = SortedRanking(self.pos[model], pos_weight, self.neg[model], neg_weight)
        return _replicate_row(sweep_ranking(ranking, with_points=point[0] is not None), point)

    def jackknife(self, point):
        """Delete-a-group jackknife: examples in ``_JACKKNIFE_GROUPS`` groups (by position within
        their class, the negatives' positions following the positives'), or leave-one-out when
        there are fewer examples than that."""
        n_groups, deleted = self._jackknife_groups()
        out = np.empty((n_groups, self.pos.shape[0], resample.N_REPLICATE))
        for g, (kept_pos, kept_neg) in enumerate(deleted):
            for m in range(self.pos.shape[0]):
                out[g, m] = self._row(m, kept_pos, kept_neg, point)
        return out

    def _jackknife_groups(self):
        """(number of groups, what each group's deletion keeps of each class, one group at a
        time): masks of the examples, or the cells' counts left. A cell holds consecutive
        positions of its class, and loses in group g its positions k with k % groups == g."""
        if self.pos_count is None:
            n_pos, n_neg = self.pos.shape[1], self.neg.shape[1]
            n_groups = min(_JACKKNIFE_GROUPS, n_pos + n_neg)
            group_pos = np.arange(n_pos) % n_groups
            group_neg = (n_pos + np.arange(n_neg)) % n_groups
            return n_groups, ((group_pos != g, group_neg != g) for g in range(n_groups))
        n_pos = self.pos_count.sum()  # (whole numbers below 2^53: exact in float64)
        n_groups = int(min(_JACKKNIFE_GROUPS, n_pos + self.neg_count.sum()))
        ends = [(count, np.cumsum(count) + offset)
                for count, offset in ((self.pos_count, 0.0), (self.neg_count, n_pos))]
        return n_groups, (tuple(count - _in_group(end - count, end, g, n_groups)
                                for count, end in ends) for g in range(n_groups))

    @staticmethod
    def _weights(kept_examples, base, order, model):
        """Weights of one model's sorted positions, from each position's rows kept (a mask of
        examples, or the counts of cells); unit weights stay an empty array."""
        if kept_examples.dtype == np.bool_ and kept_examples.all():
            return base[model] if base.shape[1] else _NO_WEIGHTS
        kept = kept_examples.astype(np.float64)
        if order.shape[1]:
            kept = kept[order[model]]
        return kept * base[model] if base.shape[1] else kept


def _in_group(starts, ends, group, n_groups):
    """How many of the positions k in [starts, ends) have k % n_groups == group (per entry,
    whole numbers as float64): those below ``end`` number ceil((end - group) / n_groups) for
    any end >= 0."""
    return ((ends - group + n_groups - 1) // n_groups
            - (starts - group + n_groups - 1) // n_groups)


def _sort_row(row):
    """Sort one model's scores of one class into ``into``, its stable order into ``order``."""
    scores, into, order = row
    order[:] = stable_argsort(scores)
    np.take(scores, order, out=into)


@dataclass(frozen=True)
class _GapBins:
    """Where one model's gap bins (fastpr._engine.kernels.gap_bins) start in its sorted
    negatives, and end: its replicates draw the bins' totals."""

    starts: np.ndarray

    def replicates_into(self, data, seed, first, start, step, stratified, poisson, point, out):
        """One thread's share of ``out`` (see the kernel's start and step)."""
        resample.binned_replicates_into(data.pos[0], data.pos_weight[0], data.neg[0],
                                        data.neg_weight[0], self.starts, seed, first, start,
                                        step, stratified, poisson, *point, out)


@dataclass(frozen=True)
class _ExampleBins:
    """Negatives whose counts are drawn per example and summed into each model's bins: its gap
    bins, or one bin per example where weights keep examples apart. Bin scores are rows padded
    to the most bins; ``of_example[m, j]`` is the bin of negative example j for model m; the
    negatives' weights are by example (empty: unit weights)."""

    scores: np.ndarray
    n_bins: np.ndarray
    of_example: np.ndarray
    example_weight: np.ndarray

    @classmethod
    def gaps(cls, pos, neg, neg_order):
        """Each model's gap bins, from its sorted classes and its negatives' order."""
        n_models, n_neg = neg.shape
        all_starts = [gap_bin_starts(pos[m], neg[m]) for m in range(n_models)]
        n_bins = np.array([starts.size - 1 for starts in all_starts])
        scores = np.zeros((n_models, n_bins.max()))
        of_example = np.empty((n_models, n_neg), dtype=_bin_dtype(n_neg))
        for m, starts in enumerate(all_starts):
            scores[m, :n_bins[m]] = neg[m, starts[1:] - 1]
            of_example[m, neg_order[m]] = np.repeat(np.arange(n_bins[m]), np.diff(starts))
        return cls(scores, n_bins, of_example, _NO_WEIGHTS)

    @classmethod
    def examples(cls, neg, neg_order, weight_by_example):
        """One bin per negative: each model's sorted negatives and the sorted position of each
        example."""
        n_models, n_neg = neg.shape
        of_example = np.empty((n_models, n_neg), dtype=_bin_dtype(n_neg))
        for m in range(n_models):
            of_example[m, neg_order[m]] = np.arange(n_neg)
        return cls(neg, np.full(n_models, n_neg), of_example,
                   np.ascontiguousarray(weight_by_example, dtype=np.float64))

    def replicates_into(self, data, seed, first, start, step, stratified, poisson, point, out):
        """One thread's share of ``out`` (see the kernel's start and step)."""
        resample.paired_replicates_into(data.pos, data.pos_weight, data.pos_order, self.scores,
                                        self.n_bins, self.of_example, self.example_weight, seed,
                                        first, start, step, stratified, poisson, *point, out)


@dataclass(frozen=True)
class _CellBins:
    """The cells' sizes for ``resample.counted_replicates_into``: the positive cells' row counts,
    and the negatives as the kernel draws them (their gap bins' scores and sizes without weights,
    else the cells themselves with their weights)."""

    pos_count: np.ndarray
    neg: np.ndarray
    neg_count: np.ndarray
    neg_weight: np.ndarray

    def replicates_into(self, data, seed, first, start, step, stratified, poisson, point, out):
        """One thread's share of ``out`` (see the kernel's start and step)."""
        resample.counted_replicates_into(data.pos[0], self.pos_count, data.pos_weight[0],
                                         self.neg, self.neg_count, self.neg_weight, seed, first,
                                         start, step, stratified, poisson, *point, out)


def _bin_dtype(n_neg):
    return np.int32 if n_neg < 2**31 else np.int64


def _resampling_pool(y_true, y_score, sample_weight, pos_label):
    """The sorted ranking that replicates draw from: examples of weight 0 are absent rows, so
    they are left out of the pool (as ``compare`` leaves them out), not drawn and counted."""
    ranking = sort_ranking(y_true, y_score, sample_weight, pos_label)
    if not ranking.pos_weight.size:
        return ranking
    kept_pos, kept_neg = ranking.pos_weight > 0, ranking.neg_weight > 0
    return SortedRanking(ranking.pos[kept_pos], ranking.pos_weight[kept_pos],
                         ranking.neg[kept_neg], ranking.neg_weight[kept_neg])


def _replicate_row(swept, point):
    """A swept ranking's row with the kernel's value of its points appended (NaN for a field of
    the row), as the replicates' rows of ``fastpr._engine.kernels.resample``."""
    return np.append(swept.row, _point_metrics.of_swept(swept, *point))


def _metric_values(table, spec, method):
    """The metric of every replicate row (any leading shape)."""
    if _point_metrics.point(spec)[0] is not None:
        return _point_metrics.finish(table[..., resample.POINT_METRIC], spec,
                                     table[..., rows.POS_WEIGHT], table[..., rows.NEG_WEIGHT])
    metric = spec.name
    if metric == "auc_roc" or metric == "auc_npr" and method == "interpolated":
        return table[..., COLUMNS[metric]]
    area = table[..., COLUMNS[method_field(method)]]
    if metric == "auc_pr":
        return area
    return normalised_auc_pr(area, table[..., rows.POS_WEIGHT], table[..., rows.NEG_WEIGHT],
                             method)


# --------------------------------------------------------------------------- interval rules
def _bootstrap_bounds(estimate, values, jackknife_values, confidence, interval):
    """(low, high) from finite replicate values by the percentile, basic or BCa rule; NaN when
    no replicate has a value, or the estimate none (an interval of the replicates that have one
    would describe those resamples alone: of a constraint met by chance, say)."""
    if values.size == 0 or math.isnan(estimate):
        return math.nan, math.nan
    alpha = 1.0 - confidence
    if interval == "bca":
        share_below = (np.mean(values < estimate) + 0.5 * np.mean(values == estimate))
        bias = _NORMAL.inv_cdf(min(max(share_below, 1e-12), 1 - 1e-12))
        # Deleting a class's only example leaves its metric undefined: such deletions are left
        # out, as undefined replicates are.
        defined = jackknife_values[np.isfinite(jackknife_values)]
        spread = defined.mean() - defined if defined.size else defined
        denominator = 6.0 * np.sum(spread ** 2) ** 1.5
        acceleration = np.sum(spread ** 3) / denominator if denominator > 0 else 0.0
        levels = []
        for z_level in (-_two_sided_z(confidence), _two_sided_z(confidence)):
            shifted = bias + z_level
            stretch = 1 - acceleration * shifted
            # The adjusted level rises with z while the stretch is positive, to 0 or 1 as it
            # reaches 0; beyond, the formula turns back, and the level keeps that limit.
            adjusted = bias + shifted / stretch if stretch > 0 else math.copysign(math.inf,
                                                                                  shifted)
            levels.append(_NORMAL.cdf(adjusted))
        low, high = np.quantile(values, levels)
    else:
        low, high = np.quantile(values, [alpha / 2, 1 - alpha / 2])
        if interval == "basic":
            low, high = 2 * estimate - high, 2 * estimate - low
    return float(low), float(high)


def _two_sided_z(confidence):
    """z with P(|Z| <= z) = ``confidence`` for a standard normal Z, from the tail (1 -
    confidence) / 2, which stays exact where 0.5 + confidence / 2 would round to 1."""
    return -_NORMAL.inv_cdf((1.0 - confidence) / 2)


def _seed(seed):
    """The seed as an integer; None draws one (and the result records it)."""
    return secrets.randbits(63) if seed is None else seed


def _resampled_values(resampler, options):
    """Replicate metric values (n_boot, n_models) and, for BCa, jackknife values."""
    seed = _seed(options["seed"])
    point = _point_metrics.point(options["metric"])
    replicates = resampler.replicates(seed, options["n_boot"], options["stratified"],
                                      options["resampling"] == "poisson", point,
                                      options["progress"])
    values = _metric_values(replicates, options["metric"], options["method"])
    jackknife = None
    if options["interval"] == "bca":
        jackknife = _metric_values(resampler.jackknife(point), options["metric"],
                                   options["method"])
    return seed, values, jackknife


# --------------------------------------------------------------------------- public API
@options(**BOOTSTRAP_OPTIONS)
def bootstrap(y_true, y_score, *, metric="auc_pr", method="interpolated", n_boot=1000,
              confidence=0.95, interval="percentile", stratified=True, resampling="multinomial",
              seed=None, sample_weight=None, pos_label=None, progress=False):
    """Bootstrap confidence interval of AUC-PR (any estimator), AUC-ROC, normalised AUC-PR, an
    operating point, a top-k metric or a partial area.

    Parameters
    ----------
    y_true, y_score, sample_weight, pos_label
        As in :func:`fastpr.evaluate`.
    metric : str, default="auc_pr"
        ``"auc_pr"``, ``"auc_roc"``, ``"auc_npr"``, ``"max_f1"`` (the best F1 over the
        operating points, :func:`fastpr.max_f_beta`), or a metric with its level after "@":
        the best rate at one threshold under a constraint, ``"recall_at_precision@P"``,
        ``"precision_at_recall@R"``, ``"tpr_at_fpr@F"``, ``"tnr_at_tpr@T"`` (the ``value`` of
        :func:`fastpr.recall_at_precision` and its kin); the top k, ``"precision_at_k@K"``,
        ``"recall_at_k@K"``, ``"r_precision"`` (:func:`fastpr.top_k`; they count rows, so they
        take no ``sample_weight`` here); partial areas, ``"auc_roc@F"`` (raw) and
        ``"auc_roc_mcclish@F"`` (:func:`fastpr.auc_roc` with ``max_fpr=F``),
        ``"auc_pr@A:B"`` and ``"auc_npr@A:B"`` (``recall_range=(A, B)``, the interpolated
        estimator). Each replicate chooses its own best threshold, so the interval is that of
        the metric as defined, not of one threshold's rates. The metrics other than the areas
        read each replicate's operating points, which makes replicates somewhat slower.
    method : str, default="interpolated"
        The PR estimator (see :func:`fastpr.auc_pr`) for ``auc_pr`` and ``auc_npr``.
    n_boot : int, default=1000
        Number of replicates.
    confidence : float, default=0.95
    interval : {"percentile", "basic", "bca"}, default="percentile"
        BCa's acceleration comes from a delete-a-group jackknife (100 groups of examples, or
        leave-one-out below 100 examples), which keeps it at 100 extra passes for any n.
    stratified : bool, default=True
        Resample positives and negatives separately (class totals fixed), or all rows together.
    resampling : {"multinomial", "poisson"}, default="multinomial"
        Counts from drawing n examples with replacement, or independent Poisson(1) counts per
        example (the streaming-friendly approximation; ``stratified`` is then moot). Examples
        of weight 0 are left out of the pool, as absent rows are.
    seed : int, optional
        Replicate r uses the random stream keyed by (seed, r): the same seed gives the same
        replicates on any machine and any number of threads. None draws a seed and records it.
    progress : bool or str, default=False
        Show a progress bar (needs the ``progress`` extra: tqdm); a string is the bar's title.

    Returns
    -------
    BootstrapResult

    Notes
    -----
    Cost: one sort plus, per replicate, O(P) without weights (P positives, however many
    negatives) and O(n) with weights. Replicates run in parallel on all cores (numba's thread
    count).

    Examples
    --------
    >>> import fastpr
    >>> from fastpr import datasets
    >>> y, s = datasets.skewed_ranking()
    >>> b = fastpr.bootstrap(y, s, n_boot=200, seed=7)
    >>> round(b.estimate, 4), round(b.low, 4), round(b.high, 4)
    (0.0939, 0.0698, 0.1357)
    """
    spec = _metric(metric, method, sample_weight)
    resampler = _Resampler.single(_resampling_pool(y_true, y_score, sample_weight, pos_label))
    return _bootstrapped(resampler, spec, method, n_boot, confidence, interval, stratified,
                         resampling, seed, progress)


@options(**BOOTSTRAP_OPTIONS)
def bootstrap_cells(scores, is_positive, counts, weights=None, *, metric="auc_pr",
                    method="interpolated", n_boot=1000, confidence=0.95, interval="percentile",
                    stratified=True, resampling="multinomial", seed=None, progress=False):
    """:func:`bootstrap` of rows given as cells: distinct (score, class, weight) entries, each
    with the number of rows it holds (``fastpr.spark.bootstrap`` counts them in Spark).

    Parameters
    ----------
    scores : array-like of shape (n_cells,)
        Each cell's score (no NaN).
    is_positive : array-like of bool, shape (n_cells,)
        Each cell's class.
    counts : array-like of shape (n_cells,)
        Each cell's rows: whole numbers >= 0.
    weights : array-like of shape (n_cells,), default=None
        Each cell's weight (the weight of each of its rows: finite, >= 0); None: unit weights.
    metric, method, n_boot, confidence, interval, stratified, resampling, seed, progress
        As in :func:`bootstrap`; the top-k metrics only without ``weights``.

    Returns
    -------
    BootstrapResult
        With the estimate of :func:`bootstrap` on the rows, and replicates with the same
        distribution as its replicates (not the same numbers for the same seed).

    Notes
    -----
    Rows in one cell are interchangeable, so a replicate depends on them only through the total
    drawn into each cell. Drawing the rows with replacement gives the cells Multinomial(n;
    count / n) totals (stratified: each class's cells Multinomial(its rows; count / its rows)),
    and Poisson resampling an independent Poisson(count) total per cell: this function draws
    those totals directly, so its replicates have exactly the distribution of the rows'.
    The BCa jackknife is computed exactly too: a cell holding positions [a, b) of its class
    loses, in group g, its positions k with k % 100 == g. Without weights this is
    :func:`bootstrap`'s jackknife bit for bit (tied rows are interchangeable); with weights it
    is :func:`bootstrap`'s on the rows sorted by (score, weight) within each class. Cells are
    sorted by (class, score, weight) and equal ones merged first, so the result does not
    depend on their order. Cells of count or weight 0 leave the pool, as rows of weight 0 do.

    Cost: a sort of the cells, then per replicate O(cells) with weights, O(positive cells)
    without (the negative cells between two positive scores are drawn as one).

    Examples
    --------
    Five scores of 510 rows: the estimate of ``fastpr.bootstrap`` on the 510 rows.

    >>> from fastpr.intervals import bootstrap_cells
    >>> b = bootstrap_cells([0.9, 0.8, 0.7, 0.6, 0.1], [True, False, True, True, False],
    ...                     [30, 50, 20, 10, 400], n_boot=200, seed=7)
    >>> round(b.estimate, 4), round(b.low, 4), round(b.high, 4)
    (0.7346, 0.629, 0.8135)
    """
    spec = _metric(metric, method, weights)
    resampler = _Resampler.cells(*_cells_by_class(scores, is_positive, counts, weights))
    return _bootstrapped(resampler, spec, method, n_boot, confidence, interval, stratified,
                         resampling, seed, progress)


def _cells_by_class(scores, is_positive, counts, weights):
    """The checked cells as ``_Resampler.cells`` takes them: per class, the distinct (score,
    weight) entries in that order with their summed counts (int64) and weights (empty without
    weights); cells of count or weight 0 are left out."""
    scores = _validation.scores(scores, "scores").astype(np.float64, copy=False)
    classes = _validation.as_1d("is_positive", is_positive)
    if classes.dtype != np.bool_:
        raise InputTypeError("{argument} must be an array of bool, got dtype {dtype}.",
                             argument="is_positive", dtype=classes.dtype)
    counts = _validation.as_1d("counts", counts)
    _validation.check_dtype("counts", counts)
    _validation.refuse_first(~(counts >= 0) | (counts != np.floor(counts))
                             | (counts >= _validation.EXACT_INTEGER), "counts", counts,
                             "{argument} must be whole numbers of rows (0 to 2^53), got "
                             "{value} at {where}.")
    _validation.same_lengths(scores=scores.size, is_positive=classes.size, counts=counts.size)
    kept = counts > 0
    if weights is not None:
        weights = _validation.nonnegative("weights", _validation.as_1d("weights", weights))
        _validation.same_lengths(scores=scores.size, weights=weights.size)
        kept &= weights > 0
    by_class = []
    for in_class in (classes & kept, ~classes & kept):
        s, n = scores[in_class], counts[in_class].astype(np.int64)
        w = _NO_WEIGHTS if weights is None else weights[in_class]
        order = np.lexsort((w, s)) if w.size else np.argsort(s, kind="stable")
        s, n, w = s[order], n[order], w[order] if w.size else w
        # Equal cells, consecutive once sorted, become one: the replicates' streams then follow
        # the rows, not how they were split into cells.
        new = np.ones(s.size, bool)
        new[1:] = (s[1:] != s[:-1]) | ((w[1:] != w[:-1]) if w.size else False)
        starts = np.flatnonzero(new)
        n = np.add.reduceat(n, starts) if n.size else n
        by_class += [s[starts], n, w[starts] if w.size else w]
    return by_class


def _bootstrapped(resampler, spec, method, n_boot, confidence, interval, stratified,
                  resampling, seed, progress):
    """The BootstrapResult of a resampler (of rows or of cells): its estimate, replicates,
    warnings and bounds."""
    estimate = _estimate(resampler, spec, method)
    options = dict(metric=spec, method=method, n_boot=n_boot, interval=interval,
                   stratified=stratified, resampling=resampling, seed=seed, progress=progress)
    seed, values, jackknife = _resampled_values(resampler, options)
    values = values[:, 0]
    finite = np.isfinite(values)
    _warn_undefined_estimates(spec, [estimate])
    warn_undefined_entries(int(np.count_nonzero(~finite)), n_boot, "bootstrap replicates",
                           _undefined_replicates(spec), "the interval leaves them out")
    low, high = _bootstrap_bounds(estimate, values[finite],
                                  None if jackknife is None else jackknife[:, 0],
                                  confidence, interval)
    return BootstrapResult(spec.text, method, interval, estimate, low, high, confidence, values,
                           n_boot, int(np.count_nonzero(~finite)), bool(stratified), resampling,
                           seed)


def _undefined_replicates(spec):
    """Why replicates of the metric may be undefined, for the warning that counts them."""
    if spec.name in _CONSTRAINED:
        return (f"no threshold of theirs meets the level of {spec.text}, or "
                f"{_UNDEFINED_REPLICATES}")
    return _UNDEFINED_REPLICATES


def _warn_undefined_estimates(spec, estimates, models=None):
    """Warn where the metric of the data as given is undefined: its interval is NaN."""
    undefined = [k for k, estimate in enumerate(estimates) if math.isnan(estimate)]
    if not undefined:
        return
    which = "" if models is None else (
        f" for model{'s' if len(undefined) > 1 else ''} "
        f"{', '.join(str(models[k]) for k in undefined)}")
    why = ("no threshold meets its level" if spec.name in _CONSTRAINED
           else "its function says why")
    around = "its interval is" if models is None else "the intervals and p-values with it are"
    warn_undefined(f"{spec.text} is undefined on the data as given{which}: {why}; {around} "
                   "NaN.")


def _estimate(resampler, spec, method):
    """The metric of the data as given (every count 1), where both classes are present."""
    full = resampler.full_rows(_point_metrics.point(spec))
    _validation.both_classes(full[0, rows.POS_WEIGHT], full[0, rows.NEG_WEIGHT],
                             "bootstrap an interval")
    return float(_metric_values(full, spec, method)[0])


def estimate_of(result, y_true, y_score, sample_weight=None, pos_label=None):
    """The ``estimate`` that :func:`bootstrap` would give ``result`` on this data: equal to
    ``result.estimate`` where ``result`` is this data's bootstrap."""
    pool = _resampling_pool(y_true, y_score, sample_weight, pos_label)
    return _estimate(_Resampler.single(pool), _validation.metric_spec(result.metric),
                     result.method)


@options(replicate=Integer(0, 2**63 - 1), seed=_SEED, resampling=OneOf(RESAMPLING),
         stratified=Boolean())
def bootstrap_sample(y_true, y_score, replicate, *, seed, stratified=True,
                     resampling="multinomial", sample_weight=None, pos_label=None):
    """The data of one replicate of :func:`bootstrap`, as weighted rows.

    Parameters
    ----------
    y_true, y_score, sample_weight, pos_label
        As in :func:`fastpr.bootstrap`.
    replicate : int
        Which replicate, from 0; ``bootstrap(..., seed=seed).replicates[replicate]`` is its
        metric.
    seed : int
        The bootstrap's seed (``BootstrapResult.seed``).
    stratified, resampling
        As in :func:`fastpr.bootstrap`.

    Returns
    -------
    y_true, y_score, sample_weight : ndarray
        Bool labels, scores and weights (each example's count in the replicate times its own
        weight), positives first and each class in ascending score order, so any fastpr function
        can evaluate or draw the replicate.

    Examples
    --------
    >>> import fastpr
    >>> from fastpr import datasets
    >>> y, s = datasets.skewed_ranking()
    >>> b = fastpr.bootstrap(y, s, n_boot=200, seed=7)
    >>> y_r, s_r, w_r = fastpr.bootstrap_sample(y, s, 5, seed=7)
    >>> bool(fastpr.auc_pr(y_r, s_r, sample_weight=w_r) == b.replicates[5]), int(w_r.sum())
    (True, 20000)
    """
    ranking = _resampling_pool(y_true, y_score, sample_weight, pos_label)
    counts_pos, counts_neg = np.empty(ranking.pos.size), np.empty(ranking.neg.size)
    bin_starts = gap_bin_starts(*(np.asarray(scores, dtype=np.float64)
                                  for scores in (ranking.pos, ranking.neg)))
    replicate_counts(np.uint64(seed), replicate, bool(stratified), resampling == "poisson",
                     bin_starts, counts_pos, counts_neg)
    if ranking.pos_weight.size:
        counts_pos *= ranking.pos_weight
        counts_neg *= ranking.neg_weight
    labels = np.concatenate([np.ones(ranking.pos.size, bool), np.zeros(ranking.neg.size, bool)])
    return labels, np.concatenate([ranking.pos, ranking.neg]), np.concatenate([counts_pos,
                                                                                counts_neg])


@options(confidence=_CONFIDENCE)
def delong(y_true, y_score, *, confidence=0.95, pos_label=None):
    """AUC-ROC with DeLong's variance and its normal interval (clipped to [0, 1]).

    Placement values come from one merge pass over each class's sorted scores, so the cost is
    that of :func:`fastpr.evaluate`: O(n log n) for the sort, O(n) after it. Unweighted only.

    Examples
    --------
    >>> import fastpr
    >>> r = fastpr.delong([1, 0, 1, 1, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.6, 0.1])
    >>> round(r.estimate, 4), round(r.low, 4), round(r.high, 4)
    (0.7222, 0.2353, 1.0)
    """
    ranking = sort_ranking(y_true, y_score, None, pos_label)
    _validation.both_classes(ranking.pos.size, ranking.neg.size, "compute DeLong's variance")
    mean_pos, var_pos, _, var_neg = placements(ranking.pos, ranking.neg, _NO_WEIGHTS,
                                               _NO_WEIGHTS)
    estimate = float(mean_pos)
    if not _delong_defined(ranking.pos.size, ranking.neg.size):
        return Interval("auc_roc", "delong", "delong", estimate, math.nan, math.nan, confidence)
    variance = var_pos / ranking.pos.size + var_neg / ranking.neg.size
    half = _two_sided_z(confidence) * math.sqrt(variance)
    return Interval("auc_roc", "delong", "delong", estimate, max(0.0, estimate - half),
                    min(1.0, estimate + half), confidence)


def _delong_defined(n_pos, n_neg):
    """Whether each class has the two examples that the sample variance of its placements
    needs; else warn (the interval, or the test, is NaN)."""
    if min(n_pos, n_neg) >= 2:
        return True
    warn_undefined(f"DeLong's variance needs two positives and two negatives (the sample "
                   f"variance of each class's placements), got {n_pos} and {n_neg}; returning "
                   "NaN bounds.")
    return False


def _delong_variance(of_pos, of_neg):
    """Covariance matrix of the models' AUCs from their placements (rows = models); NaN, with a
    warning, where a class has one example."""
    n_pos, n_neg = of_pos.shape[1], of_neg.shape[1]
    if not _delong_defined(n_pos, n_neg):
        return np.full((of_pos.shape[0],) * 2, np.nan)
    return np.atleast_2d(np.cov(of_pos)) / n_pos + np.atleast_2d(np.cov(of_neg)) / n_neg


@options(**BOOTSTRAP_OPTIONS, test=OneOf(("bootstrap", "delong")))
def compare(y_true, y_scores, *, metric="auc_pr", method="interpolated", test="bootstrap",
            n_boot=1000, confidence=0.95, interval="percentile", stratified=True,
            resampling="multinomial", seed=None, sample_weight=None, pos_label=None,
            progress=False):
    """Compare models scored on the same examples: each against the first, with paired tests.

    ``test="bootstrap"`` resamples the examples once per replicate and applies the same counts
    to every model (each model is sorted once), so the differences keep the pairing. The
    p-value is two-sided, from a z test on the bootstrap's standard error (as pROC's bootstrap
    test): ``z = d / sd(d*)``, the observed difference over the standard deviation of the
    replicate differences, and ``p = 2 Phi(-|z|)``. ``test="delong"`` (AUC-ROC only) uses
    DeLong's covariance of the paired AUCs for the standard error.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
    y_scores : sequence of array-likes, array of shape (n_models, n_samples), DataFrame or dict
        Two or more models' scores for the same examples; a table of models (a pandas or
        polars DataFrame with one score column per model, or a dict ``{name: scores}``) names
        them by its columns, the first column being the model the others are compared with.
    metric, method, n_boot, confidence, interval, stratified, resampling, seed, progress
        As in :func:`bootstrap` (``interval`` applies to the bootstrap test).
    test : {"bootstrap", "delong"}, default="bootstrap"
    sample_weight, pos_label
        As in :func:`fastpr.evaluate` (the DeLong test is unweighted).

    Returns
    -------
    Comparison
        Arrays of one entry per model (``estimates``) or per model after the first
        (``differences``, ``low``, ``high``, ``p_values``); ``models`` names the models: the
        column names of a table, else positions.

    Notes
    -----
    The p-value is the normal tail at ``z``, computed as ``erfc(|z| / sqrt 2)`` so that it
    keeps its precision far into the tail; it is never 0: a tail below the smallest positive
    double (``|z|`` above about 38), or a nonzero difference whose replicates do not vary at
    all, gives that double (about 4.9e-324) as a bound. The tail rests on the normal
    approximation, not on counting replicates: ``n_boot`` replicates estimate the standard
    error, but cannot show a tail far below ``1 / n_boot``; read a tiny p-value as "below
    about ``1 / n_boot``" for the bootstrap's evidence (report it as "p < ...", not "p = 0").

    Cost: a stable argsort of each model's scores within each class, then per replicate one
    count for every example, O(n), shared by the models, plus one pass per model. Without
    weights, :func:`bootstrap` draws only the positives' counts and one total per run of
    negatives between two positive scores, O(P); the models' runs differ, so a paired
    replicate cannot do that. With few positives a comparison of m models therefore takes
    longer than m bootstraps.

    Examples
    --------
    >>> import numpy as np, fastpr
    >>> from fastpr import datasets
    >>> y, a = datasets.skewed_ranking()
    >>> b = a + np.random.default_rng(0).normal(0, 2, a.size)   # a noisier copy of model a
    >>> c = fastpr.compare(y, [a, b], n_boot=200, seed=1)
    >>> c.estimates.round(4), c.differences.round(4), c.low.round(4), c.high.round(4)
    (array([0.0939, 0.034 ]), array([-0.0599]), array([-0.0988]), array([-0.0317]))
    >>> round(float(c.p_values[0]), 4)
    0.0004
    """
    is_positive, score_rows, weights, models = _validation.paired_models(
        y_true, y_scores, sample_weight, pos_label)
    spec = _validation.metric_spec(metric)
    if test == "delong":
        _check_delong(spec.text, weights)
        return _delong_comparison(is_positive, score_rows, confidence, models)
    spec = _metric(spec, method, weights)
    resampler = _Resampler.paired(is_positive, score_rows, weights)
    _validation.both_classes(resampler.pos.shape[1], resampler.neg.shape[1], "compare models")
    estimates = _metric_values(resampler.full_rows(_point_metrics.point(spec)), spec, method)
    options = dict(metric=spec, method=method, n_boot=n_boot, interval=interval,
                   stratified=stratified, resampling=resampling, seed=seed, progress=progress)
    _, values, jackknife = _resampled_values(resampler, options)
    _warn_undefined_estimates(spec, estimates, models)
    warn_undefined_entries(int(np.count_nonzero(~np.isfinite(values).all(axis=1))), n_boot,
                           "bootstrap replicates", _undefined_replicates(spec),
                           "the intervals and p-values leave them out")
    differences = estimates[1:] - estimates[0]
    replicate_differences = values[:, 1:] - values[:, :1]
    low, high, p_values = [], [], []
    for k, difference in enumerate(differences):
        column = replicate_differences[:, k]
        column = column[np.isfinite(column)]
        bounds = _bootstrap_bounds(difference, column, None if jackknife is None else
                                   jackknife[:, k + 1] - jackknife[:, 0], confidence, interval)
        low.append(bounds[0])
        high.append(bounds[1])
        p_values.append(_two_sided_p(difference, np.std(column, ddof=1))
                        if column.size > 1 else math.nan)
    return Comparison(spec.text, method, "bootstrap", models, estimates, differences,
                      np.array(low), np.array(high), np.array(p_values), confidence, values)


def _two_sided_p(difference, standard_error):
    """The z test's two-sided p-value, 2 Phi(-|d| / se), as erfc(|z| / sqrt 2), which keeps its
    relative precision in the far tail (1 + erf(-x), the normal CDF's form, rounds to 0 from
    |z| = 8.3 on); never 0: past |z| = 38.4, or with no spread at all (se = 0, d != 0), it is
    the smallest positive double (about 4.9e-324), a bound above the tail. NaN stays
    NaN."""
    if math.isnan(difference):  # (an undefined estimate: no test, whatever the replicates)
        return math.nan
    if difference == 0 and standard_error == 0:
        return 1.0
    z = abs(difference) / standard_error if standard_error != 0 else math.inf
    tail = math.erfc(z / math.sqrt(2.0))
    return tail if math.isnan(tail) else max(tail, _SMALLEST_P)


def _delong_comparison(is_positive, score_rows, confidence, models):
    """DeLong's paired test: placements in example order, their covariance across models."""
    of_pos, of_neg = [], []
    for scores in score_rows:
        pos, neg = scores[is_positive], scores[~is_positive]
        order_pos, order_neg = stable_argsort(pos), stable_argsort(neg)
        sorted_pos, sorted_neg = np.empty(pos.size), np.empty(neg.size)
        placements(pos[order_pos], neg[order_neg], sorted_pos, sorted_neg)
        example_pos, example_neg = np.empty_like(sorted_pos), np.empty_like(sorted_neg)
        example_pos[order_pos], example_neg[order_neg] = sorted_pos, sorted_neg
        of_pos.append(example_pos)
        of_neg.append(example_neg)
    _validation.both_classes(len(of_pos[0]), len(of_neg[0]), "compute DeLong's variance")
    of_pos, of_neg = np.array(of_pos), np.array(of_neg)
    estimates = of_pos.mean(axis=1)
    covariance = _delong_variance(of_pos, of_neg)
    z = _two_sided_z(confidence)
    differences = estimates[1:] - estimates[0]
    standard_errors = np.sqrt(np.maximum(
        np.diag(covariance)[1:] + covariance[0, 0] - 2 * covariance[0, 1:], 0.0))
    p_values = np.array([_two_sided_p(d, e) for d, e in zip(differences, standard_errors)])
    return Comparison("auc_roc", "delong", "delong", models, estimates, differences,
                      differences - z * standard_errors, differences + z * standard_errors,
                      p_values, confidence, np.empty((0, score_rows.shape[0])))


_RULES = ("binomial", "logit")


@options(rule=OneOf(_RULES), metric=Metric(METRICS), method=OneOf(PR_METHODS),
         confidence=_CONFIDENCE)
def confidence_interval(y_true, y_score, *, rule="logit", metric="auc_pr",
                        method="interpolated", confidence=0.95, sample_weight=None,
                        pos_label=None):
    """An analytic confidence interval of a PR area by one of the rules of Boyd et al. (2013).

    No resampling: for the bootstrap's intervals see :func:`bootstrap`, for DeLong's interval
    of AUC-ROC :func:`delong`.

    Parameters
    ----------
    rule : {"binomial", "logit"}, default="logit"
        ``"binomial"``: ``theta +- z sqrt(theta (1 - theta) / P)``, clipped to [0, 1].
        ``"logit"``: the same standard error on the logit scale, mapped back (stays inside
        (0, 1)). P is the positives' total weight. Where ``theta`` is 0 or 1 (a perfect
        ranking, or the normalised area of the worst one) that standard error is 0, and both
        rules give Clopper and Pearson's exact interval instead (see Notes).
    metric : {"auc_pr", "auc_npr"}, default="auc_pr"
        The area; the other metrics of :func:`bootstrap` have no analytic rule here.
    method, confidence, sample_weight, pos_label
        As in :func:`bootstrap`.

    Returns
    -------
    Interval

    Notes
    -----
    Both rules treat the area as a proportion over P positives and use the normal
    approximation, whose standard error vanishes at ``theta`` = 0 and 1: the interval would be
    the single point ``[theta, theta]`` however few the positives (one positive ranked first
    gives AUC-PR 1). There, both rules return the exact Clopper-Pearson interval of a
    proportion observed as all (or none) of P: ``[(alpha / 2)^(1 / P), 1]`` for ``theta`` = 1
    and ``[0, 1 - (alpha / 2)^(1 / P)]`` for ``theta`` = 0, with ``alpha = 1 - confidence``
    (``[0.025, 1]`` for one positive at 95%). It narrows as P grows, as the rules' interval does
    near the ends.

    Examples
    --------
    >>> import fastpr
    >>> from fastpr import datasets
    >>> y, s = datasets.skewed_ranking()
    >>> ci = fastpr.confidence_interval(y, s, rule="logit")
    >>> round(ci.estimate, 4), round(ci.low, 4), round(ci.high, 4)
    (0.0939, 0.0603, 0.1433)
    """
    spec = _validation.metric_spec(metric)
    _check_analytic_metric(rule, spec.text)
    row = sweep_ranking(sort_ranking(y_true, y_score, sample_weight, pos_label)).row
    n_pos = row[rows.POS_WEIGHT]
    _validation.both_classes(n_pos, row[rows.NEG_WEIGHT], f"give a {rule} interval")
    theta = float(_metric_values(row, spec, method))
    z = _two_sided_z(confidence)
    standard_error = math.sqrt(max(theta * (1 - theta), 0.0) / n_pos)
    if theta in (0.0, 1.0):
        low, high = _clopper_pearson_at_the_end(theta, n_pos, confidence)
    elif rule == "binomial":
        low, high = max(0.0, theta - z * standard_error), min(1.0, theta + z * standard_error)
    else:
        centre = math.log(theta / (1 - theta))
        half = z * standard_error / (theta * (1 - theta))
        low, high = (_logistic(centre + sign * half) for sign in (-1, 1))
    return Interval(spec.text, method, rule, theta, low, high, confidence)


def _clopper_pearson_at_the_end(theta, n_pos, confidence):
    """Clopper and Pearson's exact interval for P successes in P trials (theta = 1) or none
    (theta = 0): [(alpha / 2)^(1 / P), 1] or [0, 1 - (alpha / 2)^(1 / P)]. Both rules'
    standard error vanishes there, and their point [theta, theta] would claim certainty."""
    log_bound = math.log((1.0 - confidence) / 2) / n_pos
    if theta == 1.0:
        return math.exp(log_bound), 1.0
    return 0.0, -math.expm1(log_bound)


def _logistic(x):
    """1 / (1 + e^-x), without overflow where the standard error is wide (light positives)."""
    if x >= 0:
        return 1 / (1 + math.exp(-x))
    return math.exp(x) / (1 + math.exp(x))


@options(confidence=_CONFIDENCE)
def fold_interval(values, *, confidence=0.95):
    """Student-t interval of the mean of per-fold results (cross-validation; Boyd et al. 2013).

    ``mean +- t_{k-1} s / sqrt(k)`` for k folds with sample standard deviation s.

    Examples
    --------
    >>> import fastpr
    >>> r = fastpr.fold_interval([0.61, 0.58, 0.66, 0.63, 0.60])
    >>> round(r.estimate, 3), round(r.low, 3), round(r.high, 3)
    (0.616, 0.578, 0.654)
    """
    values = _fold_values(values)
    k = values.size
    mean = float(values.mean())
    t = _student_t.two_sided_quantile(confidence, k - 1)
    half = t * float(values.std(ddof=1)) / math.sqrt(k)
    return Interval("mean", "folds", "t", mean, mean - half, mean + half, confidence)


# ----------------------------------------------------------------------------- input checks
def _check_delong(metric, sample_weight):
    if metric != "auc_roc":
        raise InputValueError("DeLong's method is for {argument}='auc_roc', got {argument}="
                              "{metric!r}.", argument="metric", metric=metric)
    if sample_weight is not None:
        raise InputValueError("DeLong's method takes unweighted data; use the bootstrap with "
                              "{argument}.", argument="sample_weight")


def _metric(metric, method, sample_weight):
    """The parsed metric of a bootstrap, refused where its replicates cannot give it."""
    spec = _validation.metric_spec(metric)
    if spec.name in ("auc_pr", "auc_npr") and spec.levels and method != "interpolated":
        raise InputValueError("{argument}={metric!r} is a partial area of the interpolated "
                              "curve; got method={method!r}: leave method at 'interpolated'.",
                              argument="metric", metric=spec.text, method=method)
    if spec.name in _point_metrics.TOP_K and sample_weight is not None:
        raise InputValueError("{argument}={metric!r} counts rows (the k highest scores), and a "
                              "replicate's weights are not row counts: bootstrap it without "
                              "sample_weight.", argument="metric", metric=spec.text)
    return spec


def _check_analytic_metric(rule, metric):
    if metric not in ("auc_pr", "auc_npr"):
        raise InputValueError("the {rule} interval is for the whole PR areas ({argument} "
                              "'auc_pr' or 'auc_npr'), got {argument}={metric!r}; use "
                              "fastpr.bootstrap (or fastpr.delong for AUC-ROC).",
                              argument="metric", rule=rule, metric=metric)


def _fold_values(values):
    """Per-fold results: 1-D, finite, at least two."""
    array = _validation.as_1d("values", values)
    _validation.check_dtype("values", array)
    array = array.astype(np.float64)
    if array.size < 2:
        raise InputValueError("{argument} must hold at least two folds, got {size}.",
                              argument="values", size=array.size)
    _validation.refuse_first(~np.isfinite(array), "values", array,
                             "{argument} must be finite, got {value} at {where}.")
    return array
