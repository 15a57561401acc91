"""Exact evaluation of a ranking split into partitions, for any engine that runs tasks.

The engine-neutral half of ``fastpr.distributed`` (Dask) and ``fastpr.spark``: plain functions on
NumPy arrays and :class:`fastpr.accumulator.CompactedSegment`, which an engine runs as its tasks
and whose results it moves between its machines. Nothing here imports an engine.

How it works
------------
The one-pass sweep of ``fastpr.evaluate`` walks the distinct scores from the highest down. Cut
the score axis into ranges; a range can be swept on its own if it starts from the right state.
The engines run a sample sort:

1. Prepare each partition (:func:`prepared`, on its worker). It is validated (:func:`checked`;
   a failure comes back as a :class:`Failure` rather than an exception, so that the driver can
   report the first failing partition in terms of the whole data) and sampled: a strided sample
   of about 4,096 scores. Where the sample shows heavy ties (fewer than 90% of it distinct), the
   partition is compacted first (:func:`compacted`): its distinct scores, each with the total
   positive and negative weight (one sort; a CompactedSegment, the state of an Accumulator), so
   that what moves follows its distinct scores, not its rows, and no range receives one tie's
   rows from every partition. The driver checks the union of the partitions' labels
   (:func:`check_labels`).
2. Choose range boundaries from the samples (:func:`boundaries`): quantiles of the sampled
   scores, each weighted by the rows (or compacted entries) that it stands for, so that ranges
   receive similar numbers of rows. One range per worker (:func:`n_ranges_for`).
3. Route each partition to the ranges in one pass (:func:`routed`, on its worker): every row goes
   to the range of its score, split by class on the way (its score, 8 bytes; 16 with a weight),
   a compacted partition is cut at the boundaries. Equal scores go to one range, so a tie never
   straddles two ranges.
4. Sort each range (:func:`sorted_range`, on the worker that receives it): the rows of every
   partition, each class sorted as ``fastpr.evaluate`` sorts a ranking (merged with the
   compacted pieces, if any), and a kernel reduces the range to a few numbers: its total
   positive and negative weight (P_k, N_k) and what the sweep leaves behind after it (whether
   its lowest point was a rise in tp; the fp and threshold of its last rise; the tp of its last
   point with negatives).
5. Carry the state across ranges, on the driver or in one small task that gathers the
   summaries (:func:`carried_states`). A kernel chains the
   summaries from the highest scores down into the sweep's state where each range starts:
   prefix sums of (P_k, N_k) give the point (TP, FP), and the summaries the running values that
   the sweep carries from one threshold to the next (the highest precision at the current
   recall, a pending ROC-hull corner and its threshold, the tp where the current vertical
   stretch of the curve began). A range holding one class, or none, passes some of them through
   unchanged, so a value may come from several ranges up. The state's layout is the sweep
   kernel's own.
6. Sweep each range where it lies, with the kernel of ``fastpr.evaluate`` resumed from its
   carried state (:func:`sweep_sorted`). Each returns its partial sums (AUC-ROC, every PR area,
   the number of points) and its ROC-hull candidates: points dropped by the hull of a subset of
   the points are not on the hull of all of them.
7. Join, on the driver (:func:`joined`). Add the partial sums; run one monotone-chain pass over
   the ranges' hull vertices (the hull of a union is the hull of the union of the hulls); close
   the curve at (N, P) as the sweep does. Everything the driver handles is per range or per
   hull vertex.

Work and traffic: a pass over each partition to route it, one sort per range (the sort of
``fastpr.evaluate`` over a share of the rows), then linear passes; the rows cross the network
once, as 8 bytes each. Memory: a worker holds its partitions and its ranges' rows; no machine
holds all rows. Results equal ``fastpr.evaluate`` to rounding: sums of float weights are added
in another order.

Where distinct scores are few, the compacted states of whole partitions can be merged instead
(:func:`partition`, :func:`merged`, and per range :func:`summarised_range` and
:func:`sweep_range`, on CompactedSegments: 24 bytes per distinct score).

With ``groups=``, each partition builds one compacted segment per group
(:func:`group_segments`); they are merged per group (:func:`merged_groups`) and each group is
swept on the driver (:func:`group_batch`).

Threads: the engines give each task one core and run as many tasks side by side as there are
cores, so every step that an engine runs as a task (:func:`task`) keeps its work on the task's
thread; fastpr's own threads there would only compete with the other tasks.
"""
import dataclasses
import functools
import inspect

import numpy as np

from . import _validation
from ._engine.batch import on_this_thread
from ._engine.kernels import sweep as _sweep
from ._engine.kernels.gap_bins import gap_bin_starts
from ._engine.kernels.split import gather_by_code, route_codes
from ._engine.kernels.tables import stable_order
from ._engine.ranking import (SortedRanking, row_of_state, sort_split, sort_validated,
                              stable_argsort)
from .accumulator import CompactedSegment
from .exceptions import InputValueError
from .results import Evaluation, EvaluationBatch

# Scores each partition contributes to the sample that places the range boundaries.
SAMPLES_PER_PARTITION = 256
# Rows of a partition sampled to see its ties, and the fraction of them that must be distinct
# for the partition to move as rows: below it the partition is compacted first. A sample of
# 4,096 holds 90% distinct scores from about 20,000 equally frequent ones on (a compacted
# partition of 2.5M rows would then be a hundredth of its rows' 8 bytes each), and fewer where
# one score holds a tenth of the rows, which raw rows would take to one range whole.
TIE_SAMPLE = 4096
COMPACT_BELOW = 0.9
# The inputs of one partition, in the order that its tasks take them.
COLUMNS = ("y_true", "y_score", "sample_weight", "groups")


@dataclasses.dataclass(frozen=True)
class Failure:
    """Partition ``number`` failed validation with ``error`` (None when its inputs' ``lengths``,
    in the order of COLUMNS, differ). Tasks return it rather than raise, so that the driver
    can report the first failing partition in terms of the whole data."""

    number: int
    error: Exception | None
    lengths: tuple


# ----------------------------------------------------------------------------- one partition
def task(function):
    """``function`` (or generator function) as a step that an engine runs as one of its tasks:
    the work it starts stays on the task's thread (see "Threads")."""
    if inspect.isgeneratorfunction(function):
        def on_one_core(*args, **kwargs):
            with on_this_thread():
                yield from function(*args, **kwargs)
    else:
        def on_one_core(*args, **kwargs):
            with on_this_thread():
                return function(*args, **kwargs)
    on_one_core = functools.wraps(function)(on_one_core)
    # PySpark counts a task function's parameters without following __wrapped__.
    on_one_core.__signature__ = inspect.signature(function)
    return on_one_core


def check(y_true, y_score, sample_weight, groups, pos_label):
    """One partition, whose inputs have one length, validated: (is_positive, scores, weights,
    group ids), or None when it is empty. Unlike the whole data, a partition may be empty or
    weigh 0 everywhere (then its weights are zeros)."""
    if len(y_score) == 0:
        return None
    absent = sample_weight is not None and np.asarray(sample_weight).dtype.kind in "biuf" and (
        not np.any(sample_weight))  # NaN is truthy, so it is still found
    is_positive, scores, weights = _validation.check_binary_inputs(
        y_true, y_score, None if absent else sample_weight, pos_label)
    ids = None if groups is None else _validation.group_ids(groups, len(y_score))
    return is_positive, scores, np.zeros(scores.size) if absent else weights, ids


def checked(number, columns, pos_label):
    """:func:`check` of partition ``number`` (``columns`` in the order of COLUMNS, None where
    absent), or the Failure that says why it failed."""
    lengths = tuple(None if values is None else len(values) for values in columns)
    if len(set(lengths) - {None}) > 1:
        return Failure(number, None, lengths)
    try:
        return check(*columns, pos_label)
    except (TypeError, ValueError) as error:
        return Failure(number, error, lengths)


def check_at(rows_before, number, columns, pos_label):
    """:func:`check` of partition ``number``, with positions in messages counted in the whole
    data (``rows_before`` rows precede it): raises the error of ``fastpr.evaluate``."""
    with _validation.partition(rows_before, number):
        check(*columns, pos_label)


def labels(y_true):
    """The distinct labels of one partition, so that the driver can check them all together."""
    return _validation.label_set(y_true) if len(y_true) else []


def compacted(is_positive, scores, weights):
    """The CompactedSegment of validated rows (one sort)."""
    return CompactedSegment.of_ranking(sort_validated(is_positive, scores, weights))


def partition(number, y_true, y_score, sample_weight, pos_label):
    """(CompactedSegment, distinct labels) of partition ``number``; (empty segment, Failure)
    when it fails validation."""
    result = checked(number, (y_true, y_score, sample_weight, None), pos_label)
    if isinstance(result, Failure):
        return CompactedSegment.empty(), result
    segment = CompactedSegment.empty() if result is None else compacted(*result[:3])
    return segment, labels(y_true)


# ----------------------------------------------------------------------------- on the driver
def check_labels(label_sets, pos_label):
    """Every partition passed on its own; the union of their labels must pass too."""
    union = {label for labels in label_sets for label in labels}
    if union:
        _validation.positive_mask(np.array(sorted(union, key=repr), dtype=object), pos_label,
                                  gathered=True)


def raise_partition_lengths(totals, number, lengths):
    """Inputs whose partition ``number`` differs in length (``lengths``, by input name): raise
    as their ``totals`` (rows of each input) differ, or else as partitions do."""
    _validation.same_lengths(**totals)
    (name_a, n_a), *rest = lengths.items()
    name_b, n_b = next((name, n) for name, n in rest if n != n_a)
    raise InputValueError("{other} and {argument} both have {total} rows but are partitioned "
                          "differently: partition {number} holds {n_a} and {n_b} rows; give "
                          "them the same partitions.", argument=name_b, other=name_a,
                          total=totals[name_a], number=number, n_a=n_a, n_b=n_b)


def raise_no_weight():
    """The whole data holds no row of nonzero weight: raise as ``fastpr.evaluate`` does."""
    raise InputValueError("the data is empty: no row has nonzero weight.", argument="y_score")


# ----------------------------------------------------------------------------- score ranges
def sample(segment):
    """(evenly spaced distinct scores, the number of distinct scores each one stands for)."""
    scores = segment.scores
    if scores.size == 0:
        return scores, 0.0
    picked = np.unique(np.linspace(0, scores.size - 1, SAMPLES_PER_PARTITION).round()
                       .astype(np.int64))
    return scores[picked], scores.size / picked.size


def boundaries(samples, n_ranges):
    """Range boundaries at weighted quantiles of the sampled scores (a list of results of
    :func:`sample`), strictly ascending: at most ``n_ranges - 1`` of them."""
    values = np.concatenate([scores for scores, _ in samples])
    weights = np.concatenate([np.full(scores.size, w) for scores, w in samples])
    order = stable_argsort(values)
    values, cumulative = values[order], np.cumsum(weights[order])
    targets = cumulative[-1] * np.arange(1, n_ranges) / n_ranges
    picked = np.minimum(np.searchsorted(cumulative, targets), values.size - 1)
    return np.unique(values[picked])


def merged(*pieces):
    """One segment from many, merged pairwise in a balanced tree."""
    pieces = [piece for piece in pieces if piece.size] or [CompactedSegment.empty()]
    while len(pieces) > 1:
        pairs = zip(pieces[0::2], pieces[1::2])
        pieces = [a.merged(b) for a, b in pairs] + ([pieces[-1]] if len(pieces) % 2 else [])
    return pieces[0]


def summarised_range(*pieces):
    """(the range's merged segment, the summary of what its sweep passes on to the ranges
    below)."""
    segment = merged(*pieces)
    return segment, _sweep.range_summary(*segment.arrays())


def carried_states(summaries):
    """The sweep's state where each range starts, from the ranges' summaries (a sequence of
    results of ``summarised_range(...)[1]``, highest scores first)."""
    return _sweep.carried_states(np.stack(summaries))


def sweep_range(segment, start):
    """(final state, hull vertices) of one range swept from its carried state; None if empty."""
    return _sweep.resume_range(*segment.arrays(), start) if segment.size else None


def joined(swept):
    """The Evaluation of the whole data from the results of :func:`sweep_range` of every range,
    highest scores first (None for an empty range): the ranges' ROC-hull vertices are joined in
    one monotone-chain pass, which needs them in the sweep's order."""
    swept = [result for result in swept if result is not None]
    if not swept:
        raise_no_weight()
    state, _ = _sweep.join_ranges(np.stack([state for state, _ in swept]),
                                  np.concatenate([hull for _, hull in swept]))
    with np.errstate(over="ignore"):  # (each range's total is finite, their sum may not be)
        _validation.finite_total("sample_weight", state[_sweep.N_POS] + state[_sweep.N_NEG])
    return Evaluation.from_row(row_of_state(state))


# ----------------------------------------------------------------------------- sample sort
@dataclasses.dataclass(frozen=True)
class Rows:
    """Validated rows of a partition, in no order: the class mask, the scores and the weights
    (None: unit weights)."""

    is_positive: np.ndarray
    scores: np.ndarray
    weights: np.ndarray | None

    @property
    def size(self):
        return self.scores.size

    def __sizeof__(self):
        # What an engine's scheduler reads (Dask's sizeof) to keep tasks where the rows are.
        return object.__sizeof__(self) + _nbytes(self.is_positive, self.scores, self.weights)


@dataclasses.dataclass(frozen=True)
class Classes:
    """Rows of one score range from one partition, split by class, in no order: each class's
    scores and weights (None: unit weights). The class goes without saying: 8 bytes a row."""

    pos: np.ndarray
    pos_weight: np.ndarray | None
    neg: np.ndarray
    neg_weight: np.ndarray | None

    @property
    def size(self):
        return self.pos.size + self.neg.size

    def __sizeof__(self):
        return object.__sizeof__(self) + _nbytes(self.pos, self.pos_weight, self.neg,
                                                 self.neg_weight)


def _nbytes(*arrays):
    return sum(array.nbytes for array in arrays if array is not None)


@task
def prepared(number, y_true, y_score, sample_weight, pos_label):
    """Partition ``number`` ready to route: (part, distinct labels, sample).

    ``part`` is its validated :class:`Rows`, or its CompactedSegment where a sample of its
    scores shows heavy ties (few distinct scores: compacted first, only they move), or None when
    it is empty. ``sample`` is the (scores, rows each stands for) of :func:`sampled_rows` or of
    :func:`sample`, for :func:`boundaries`. (None, Failure, empty sample) when the partition
    fails validation.
    """
    result = checked(number, (y_true, y_score, sample_weight, None), pos_label)
    if isinstance(result, Failure):
        return None, result, (np.empty(0), 0.0)
    if result is None:
        return None, labels(y_true), (np.empty(0), 0.0)
    rows = Rows(*result[:3])
    sample_scores, weight, distinct = sampled_rows(rows.scores)
    if distinct < COMPACT_BELOW:
        segment = compacted(rows.is_positive, rows.scores, rows.weights)
        return segment, labels(y_true), sample(segment)
    return rows, labels(y_true), (sample_scores, weight)


def sampled_rows(scores):
    """(SAMPLES_PER_PARTITION evenly spaced quantiles of a strided sample of about TIE_SAMPLE
    of ``scores``, the number of rows each one stands for, the fraction of the strided sample's
    scores that are distinct)."""
    taken = np.sort(scores[::max(1, scores.size // TIE_SAMPLE)].astype(np.float64))
    distinct = (1 + np.count_nonzero(taken[1:] != taken[:-1])) / taken.size
    picked = np.unique(np.linspace(0, taken.size - 1, SAMPLES_PER_PARTITION).round()
                       .astype(np.int64))
    return taken[picked], scores.size / picked.size, distinct


def n_ranges_for(n_workers):
    """The number of score ranges to sort: one per worker (a worker thread, or a core), so that
    every worker sorts once, a share of the rows as large as its share of the partitions."""
    return max(1, n_workers)


@task
def routed(part, boundaries):
    """A prepared partition's pieces, one per score range (``boundaries.size + 1`` of them,
    lowest scores first): piece r holds the rows (or the compacted entries) with
    ``boundaries[r - 1] <= score < boundaries[r]``. Rows move as :class:`Classes`, grouped by a
    counting sort by range and class (a pass that finds each row's range, one that moves the
    scores): 8 bytes a row (16 with weights); a CompactedSegment is cut."""
    n_pieces = boundaries.size + 1
    if part is None:
        return (CompactedSegment.empty(),) * n_pieces
    if isinstance(part, CompactedSegment):
        return part.cut(boundaries)
    # Code 2 r for the negatives of range r, 2 r + 1 for its positives.
    codes = np.empty(part.size, np.int32)
    starts = np.zeros(2 * n_pieces + 1, np.int64)
    route_codes(part.scores, part.is_positive, boundaries, codes, starts)
    scores = np.empty_like(part.scores)
    gather_by_code(part.scores, codes, starts, scores)
    weights = None
    if part.weights is not None:
        weights = np.empty_like(part.weights)
        gather_by_code(part.weights, codes, starts, weights)

    def rows(code):
        span = slice(starts[code], starts[code + 1])
        return scores[span], None if weights is None else weights[span]

    return tuple(Classes(*rows(2 * r + 1), *rows(2 * r)) for r in range(n_pieces))


@task
def sorted_range(*pieces):
    """(the range's rows sorted by class, its summary) from its pieces of every partition
    (:class:`Classes` and CompactedSegments, as :func:`routed` cuts them).

    Rows alone: one sort of each class of the range's rows, whose sweep then runs on them as
    ``fastpr.evaluate`` runs on a whole ranking. With compacted pieces: the rows are
    compacted and merged with them, and the range is the merged segment's ranking. A range
    without weight comes back empty.
    """
    rows = [piece for piece in pieces if isinstance(piece, Classes) and piece.size]
    segments = [piece for piece in pieces if isinstance(piece, CompactedSegment) and piece.size]
    if rows:
        # (np.concatenate copies even one piece: sort_split sorts its arrays in place.)
        pos, neg = (np.concatenate([getattr(piece, name) for piece in rows])
                    for name in ("pos", "neg"))
        pos_weight = neg_weight = None
        if rows[0].pos_weight is not None:
            pos_weight, neg_weight = (np.concatenate([getattr(piece, name) for piece in rows])
                                      for name in ("pos_weight", "neg_weight"))
        ranking = sort_split(pos, pos_weight, neg, neg_weight)
        if segments:
            segments.append(CompactedSegment.of_ranking(ranking))
    if segments:
        ranking = merged(*segments).ranking
    elif not rows:
        ranking = _EMPTY_RANKING
    summary = _sweep.classes_summary(*_arrays(ranking))
    if not summary[_sweep.RANGE_N_POS] + summary[_sweep.RANGE_N_NEG]:
        ranking = _EMPTY_RANKING
    return ranking, summary


@task
def sweep_sorted(ranking, start):
    """(final state, hull vertices) of one range of :func:`sorted_range` swept from its
    carried state (its row of :func:`carried_states`); None if it is empty."""
    return _sweep.resume_classes(*_arrays(ranking), start) if ranking.size else None


_EMPTY_RANKING = SortedRanking(np.empty(0), np.empty(0), np.empty(0), np.empty(0))


def _arrays(ranking):
    return ranking.pos, ranking.pos_weight, ranking.neg, ranking.neg_weight


# ----------------------------------------------------------------------------- groups
@task
def group_segments(number, y_true, y_score, sample_weight, groups, pos_label):
    """(group ids, {group: CompactedSegment}, distinct labels) of partition ``number``: its
    distinct group ids sorted (None when it is empty) and a segment for each, empty where the
    group's rows all weigh 0; (None, {}, Failure) when it fails validation."""
    result = checked(number, (y_true, y_score, sample_weight, groups), pos_label)
    if isinstance(result, Failure):
        return None, {}, result
    if result is None:
        return None, {}, labels(y_true)
    is_positive, scores, weights, ids = result
    keys, codes = np.unique(ids, return_inverse=True)
    order, starts = stable_order(codes.reshape(-1).astype(np.int64), keys.size)
    segments = {}
    for k, key in enumerate(keys.tolist()):
        rows = order[starts[k]:starts[k + 1]]
        segments[key] = compacted(is_positive[rows], scores[rows],
                                  None if weights is None else weights[rows])
    return keys, segments, labels(y_true)


@task
def merged_groups(*partitions):
    """Per-group merge of several results of :func:`group_segments` (or of this function); the
    first Failure among them in place of the labels, if there is one."""
    failures = [found for _, _, found in partitions if isinstance(found, Failure)]
    if failures:
        return None, {}, min(failures, key=lambda failure: failure.number)
    ids = [keys for keys, _, _ in partitions if keys is not None]
    segments = {}
    union = set()
    for _, partition_segments, partition_labels in partitions:
        union.update(partition_labels)
        for key, segment in partition_segments.items():
            segments[key] = segments[key].merged(segment) if key in segments else segment
    # np.unique of every id gives the sorted ids, and their type, of fastpr.evaluate(groups=).
    return np.unique(np.concatenate(ids)) if ids else None, segments, sorted(union, key=repr)


def group_batch(ids, segments):
    """The EvaluationBatch of ``fastpr.evaluate(groups=)`` from the merged result of
    :func:`merged_groups` without a Failure (``ids``, ``segments``)."""
    segments = [] if ids is None else [segments[key] for key in ids.tolist()]
    if not sum(segment.size for segment in segments):
        raise_no_weight()
    return EvaluationBatch.from_table(np.stack([segment.row() for segment in segments]), ids,
                                      "group")


# ----------------------------------------------------------------------------- bootstrap
def binned_cells(is_positive, scores):
    """What an unweighted bootstrap needs of validated rows (one score range of them): the
    distinct positive scores with their row counts, and the negatives' gap bins among those
    positives (``fastpr._engine.kernels.gap_bins``), each as its highest score and its rows.
    A bin cut where the range ends is finer than the whole data's bin, which
    ``fastpr.intervals.bootstrap_cells`` merges again with its neighbours."""
    scores = scores.astype(np.float64, copy=False)
    pos, pos_counts = np.unique(scores[is_positive], return_counts=True)
    neg, neg_counts = np.unique(scores[~is_positive], return_counts=True)
    starts = gap_bin_starts(pos, neg)
    bin_counts = np.add.reduceat(neg_counts, starts[:-1]) if neg.size else neg_counts
    return pos, pos_counts, neg[starts[1:] - 1], bin_counts
