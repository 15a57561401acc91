"""Exact evaluation of a ranking held in a Dask collection, without gathering it on one machine.

:func:`evaluate` gives the :class:`fastpr.Evaluation` that ``fastpr.evaluate`` would give on the
concatenated data (equal to rounding of the weight sums, every field, the hull included), and
with ``groups=`` the same :class:`fastpr.EvaluationBatch`. No binning and no approximation: the
exact areas of ``fastpr.evaluate``. Needs the ``dask`` extra
(``pip install "fastpr[dask]"``); it runs on whatever scheduler Dask is set to use, a
``dask.distributed`` cluster included.

Only compacted data moves: each partition is reduced on its worker to its distinct scores with
their positive and negative weight (24 bytes per distinct score), and at most one such copy of
each partition moves between workers; the client handles a few numbers per score range and the
ROC-hull vertices. Work: one sort per partition on its worker, then linear passes. Results equal
``fastpr.evaluate`` to rounding: sums of float weights are added in another order.

With ``groups=``, each group's compacted data (24 bytes per distinct score of the group) is
merged across partitions and moves to the client, which evaluates it: that suits many groups of
moderate size; evaluate one very large group on its own, without ``groups``, to spread it over
the workers.
"""
import dataclasses
import math

import numpy as np

try:
    import dask
    import dask.array
except ImportError as error:
    raise ImportError('fastpr.distributed needs Dask: pip install "fastpr[dask]"') from error

from .. import _validation
from .._engine.kernels import sweep as _sweep
from .._engine.kernels.tables import stable_order
from .._engine.ranking import row_of_state, sort_validated, stable_argsort
from .._validation import Integer, options
from .._undefined import warn_if_undefined_in
from ..accumulator import CompactedSegment
from ..exceptions import InputTypeError, InputValueError
from ..results import Evaluation, EvaluationBatch

# How it works. The one-pass sweep of fastpr.evaluate walks the distinct scores from the highest
# down. Cut the score axis into ranges; a range can be swept on its own if it starts from the
# right state:
#
# 1. Compact each partition. Every partition is validated and reduced to a
#    CompactedSegment (the state of an Accumulator): its distinct
#    scores, each with the total positive and negative weight (one sort, on the worker). Memory
#    now follows distinct scores, not rows.
# 2. Choose range boundaries from sampled quantiles. Each partition sends a few evenly spaced
#    scores of its compacted state (weighted by its size); the client picks boundaries at
#    quantiles of that sample, so ranges hold similar numbers of distinct scores.
# 3. Range-partition by score. Each compacted partition is cut at the boundaries
#    (``searchsorted``). Equal scores are one entry of a compacted state, so a tie never straddles
#    two ranges. The pieces of one range, from every partition, are merged into that range's
#    compacted state on one worker: only compacted pieces move, never raw rows.
# 4. Summarise each range. A kernel reduces each range to a few numbers: its total
#    positive and negative weight (P_k, N_k) and what the sweep leaves behind after it
#    (whether its lowest point was a rise in tp; the fp and threshold of its last rise; the tp of
#    its last point with negatives).
# 5. Carry the state across ranges (on the client). A kernel chains the summaries from the
#    highest scores down into the sweep's state where each range starts: prefix sums of
#    (P_k, N_k) give the point (TP, FP), and the summaries the running values that the sweep
#    carries from one threshold to the next (the highest precision at the current recall, a
#    pending ROC-hull corner and its threshold, the tp where the current vertical stretch of the
#    curve began). A range holding one class, or none, passes some of them through unchanged,
#    so a value may come from several ranges up. The state's layout is the sweep kernel's own.
# 6. Sweep each range on its worker with the kernel of ``fastpr.evaluate``, resumed from its
#    carried state. Each returns its partial sums (AUC-ROC, every PR area, the number of points)
#    and its ROC-hull candidates: points dropped by the hull of a subset of the points are not on
#    the hull of all of them.
# 7. Join (on the client). Add the partial sums; run one monotone-chain pass over the ranges'
#    hull vertices (the hull of a union is the hull of the union of the hulls); close the curve at
#    (N, P) as the sweep does. Everything the client handles is per range or per hull vertex.
#
# Work and traffic: one sort per partition on its worker; each range merges the pieces of its M
# source partitions pairwise in a balanced tree (about log2 M linear passes over its state); the
# sweeps are linear. The data moved between workers is at most one compacted copy of each
# partition.
#
# With groups=, each partition builds one compacted segment per group; they are merged per group
# in a tree reduction and each group is swept on the client.

# Scores each partition contributes to the sample that places the range boundaries.
_SAMPLES_PER_PARTITION = 256
# The inputs of one partition, in the order that its tasks take them.
_COLUMNS = ("y_true", "y_score", "sample_weight", "groups")


def _is_dask_series(values):
    return hasattr(values, "to_delayed") and hasattr(values, "npartitions") and getattr(
        values, "ndim", None) == 1


def _partitions(name, values, chunks):
    """One input's partitions as delayed arrays (or pandas Series).

    A dask array whose chunks are known is rechunked to ``chunks`` (y_score's, when y_score is
    a dask array with known chunks), so that inputs with different chunking still line up.
    """
    is_array = isinstance(values, dask.array.Array)
    if not is_array and _is_dask_series(values):
        return list(values.to_delayed())
    array = _dask_vector(name, values, values if is_array else None)
    sizes = array.chunks[0]
    known = chunks is not None and not any(map(math.isnan, sizes))
    if known and sizes != chunks and sum(sizes) == sum(chunks):
        array = array.rechunk((chunks,))
    return list(array.to_delayed().ravel())


def _aligned_partitions(inputs):
    """Each input's partitions, lined up with those of y_score."""
    reference = inputs["y_score"]
    chunks = None
    if isinstance(reference, dask.array.Array) and reference.ndim == 1:
        chunks = reference.chunks[0]
        chunks = None if any(map(math.isnan, chunks)) else chunks
    blocks = {name: _partitions(name, values, chunks) for name, values in inputs.items()}
    for name, partitions in blocks.items():
        if len(partitions) != len(blocks["y_score"]):
            _raise_different_partitions(name, inputs, blocks)
    return blocks


def _raise_different_partitions(name, inputs, blocks):
    """Input ``name`` comes in another number of partitions than y_score: as their lengths
    differ (the usual cause), or as they are partitioned differently. Lengths that dask does not
    know cost a pass over the partitions, which the client pays only for this error."""
    totals = {}
    for key in (key for key in _COLUMNS if key in (name, "y_score")):
        values = inputs[key]
        if isinstance(values, dask.array.Array) and not math.isnan(values.shape[0]):
            totals[key] = values.shape[0]
        else:
            totals[key] = sum(dask.compute(*[dask.delayed(len)(part) for part in blocks[key]]))
    _validation.same_lengths(**totals)
    raise InputValueError("{other} and {argument} both have {total} rows but are partitioned "
                          "differently, in {n_expected} and {n_partitions} partitions; give them "
                          "the same partitions.", argument=name, other="y_score",
                          total=totals[name], n_expected=len(blocks["y_score"]),
                          n_partitions=len(blocks[name]))


@dataclasses.dataclass(frozen=True)
class _Failure:
    """Partition ``number`` failed validation with ``error`` (None when its inputs' ``lengths``,
    in the order of _COLUMNS, differ). Tasks return it rather than raise, so that the client
    can report the first failing partition in terms of the whole data."""

    number: int
    error: Exception | None
    lengths: tuple


def _check(y_true, y_score, sample_weight, groups, pos_label):
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


def _checked(number, columns, pos_label):
    """``_check`` of partition ``number``, or the _Failure that says why it failed."""
    lengths = tuple(None if values is None else len(values) for values in columns)
    if len(set(lengths) - {None}) > 1:
        return _Failure(number, None, lengths)
    try:
        return _check(*columns, pos_label)
    except (TypeError, ValueError) as error:
        return _Failure(number, error, lengths)


def _check_at(rows_before, number, columns, pos_label):
    """``_check`` of partition ``number``, with positions in messages counted in the whole data."""
    with _validation.partition(rows_before, number):
        _check(*columns, pos_label)


def _raise_first_failure(blocks, results, pos_label):
    """Report the first partition that failed validation, if any, as ``fastpr.evaluate`` would
    report the whole data: global lengths and positions. Costs passes over the inputs, which
    the client pays only when there is an error."""
    failures = [result for result in results if isinstance(result, _Failure)]
    if not failures:
        return
    failure = min(failures, key=lambda failure: failure.number)
    present = [name for name in _COLUMNS if name in blocks]
    if failure.error is None:
        sizes = dask.compute({name: [dask.delayed(len)(part) for part in blocks[name]]
                              for name in present})[0]
        lengths = {name: length for name, length in zip(_COLUMNS, failure.lengths)
                   if length is not None}
        _raise_partition_lengths({name: sum(sizes[name]) for name in present},
                                 failure.number, lengths)
    rows_before = sum(dask.compute(*[dask.delayed(len)(part)
                                     for part in blocks["y_score"][:failure.number]]))
    columns = [blocks[name][failure.number] if name in blocks else None for name in _COLUMNS]
    dask.compute(dask.delayed(_check_at)(rows_before, failure.number, columns, pos_label))
    raise failure.error  # not reached: the check fails again, now in the whole data's terms


def _labels(y_true):
    """The distinct labels of one partition, so that the client can check them all together."""
    return _validation.label_set(y_true) if len(y_true) else []


def _compacted(is_positive, scores, weights):
    return CompactedSegment.of_ranking(sort_validated(is_positive, scores, weights))


def _partition(number, y_true, y_score, sample_weight, pos_label):
    """(CompactedSegment, distinct labels) of partition ``number``; (empty segment, _Failure)
    when it fails validation."""
    checked = _checked(number, (y_true, y_score, sample_weight, None), pos_label)
    if isinstance(checked, _Failure):
        return CompactedSegment.empty(), checked
    segment = CompactedSegment.empty() if checked is None else _compacted(*checked[:3])
    return segment, _labels(y_true)


def _check_labels(label_sets, pos_label):
    """Every partition passed on its own; the union of their labels must pass too."""
    union = {label for labels in label_sets for label in labels}
    if union:
        _validation.positive_mask(np.array(sorted(union, key=repr), dtype=object), pos_label,
                                  gathered=True)


def _sample(segment):
    """(evenly spaced distinct scores, the number of distinct scores each one stands for)."""
    scores = segment.scores
    if scores.size == 0:
        return scores, 0.0
    picked = np.unique(np.linspace(0, scores.size - 1, _SAMPLES_PER_PARTITION).round()
                       .astype(np.int64))
    return scores[picked], scores.size / picked.size


def _boundaries(samples, n_ranges):
    """Range boundaries at weighted quantiles of the sampled scores, strictly ascending."""
    values = np.concatenate([scores for scores, _ in samples])
    weights = np.concatenate([np.full(scores.size, w) for scores, w in samples])
    order = stable_argsort(values)
    values, cumulative = values[order], np.cumsum(weights[order])
    targets = cumulative[-1] * np.arange(1, n_ranges) / n_ranges
    picked = np.minimum(np.searchsorted(cumulative, targets), values.size - 1)
    return np.unique(values[picked])


def _merged(*pieces):
    """One segment from many, merged pairwise in a balanced tree."""
    pieces = [piece for piece in pieces if piece.size] or [CompactedSegment.empty()]
    while len(pieces) > 1:
        pairs = zip(pieces[0::2], pieces[1::2])
        pieces = [a.merged(b) for a, b in pairs] + ([pieces[-1]] if len(pieces) % 2 else [])
    return pieces[0]


def _summarised_range(*pieces):
    """(the range's merged segment, the summary of what its sweep passes on to the ranges below)."""
    segment = _merged(*pieces)
    return segment, _sweep.range_summary(*segment.arrays())


def _sweep_range(segment, start):
    """(final state, hull vertices) of one range swept from its carried state; None if empty."""
    return _sweep.resume_range(*segment.arrays(), start) if segment.size else None




def _ranked_evaluation(segments, n_ranges):
    """Steps 2-7 of "How it works" above, from the list of persisted compacted partitions."""
    samples = dask.compute(*[dask.delayed(_sample)(segment) for segment in segments])
    if not any(weight for _, weight in samples):
        _raise_no_weight()
    boundaries = _boundaries(samples, n_ranges)
    n_pieces = boundaries.size + 1
    pieces = [dask.delayed(CompactedSegment.cut, nout=n_pieces)(segment, boundaries)
              for segment in segments]
    # Highest scores first. Each range task also summarises its range, on the worker holding it.
    merged = [dask.delayed(_summarised_range, nout=2)(*[p[r] for p in pieces])
              for r in reversed(range(n_pieces))]
    persisted = dask.persist(*[m[0] for m in merged], *[m[1] for m in merged])
    segments.clear()  # the ranges now hold the data: let the workers free the partitions
    ranges = persisted[:n_pieces]
    starts = _sweep.carried_states(np.stack(dask.compute(*persisted[n_pieces:])))
    swept = [result for result in dask.compute(*[dask.delayed(_sweep_range)(r, start)
                                                 for r, start in zip(ranges, starts)])
             if result is not None]
    state, _ = _sweep.join_ranges(np.stack([state for state, _ in swept]),
                                  np.concatenate([hull for _, hull in swept]))
    with np.errstate(over="ignore"):  # (each range's total is finite, their sum may not be)
        _validation.finite_total("sample_weight", state[_sweep.N_POS] + state[_sweep.N_NEG])
    return Evaluation.from_row(row_of_state(state))


def _group_segments(number, y_true, y_score, sample_weight, groups, pos_label):
    """(group ids, {group: CompactedSegment}, distinct labels) of partition ``number``: its
    distinct group ids sorted (None when it is empty) and a segment for each, empty where the
    group's rows all weigh 0; (None, {}, _Failure) when it fails validation."""
    checked = _checked(number, (y_true, y_score, sample_weight, groups), pos_label)
    if isinstance(checked, _Failure):
        return None, {}, checked
    if checked is None:
        return None, {}, _labels(y_true)
    is_positive, scores, weights, ids = checked
    keys, codes = np.unique(ids, return_inverse=True)
    order, starts = stable_order(codes.reshape(-1).astype(np.int64), keys.size)
    segments = {}
    for k, key in enumerate(keys.tolist()):
        rows = order[starts[k]:starts[k + 1]]
        segments[key] = _compacted(is_positive[rows], scores[rows],
                                   None if weights is None else weights[rows])
    return keys, segments, _labels(y_true)


def _merged_groups(*partitions):
    """Per-group merge of several results of ``_group_segments``; the first _Failure among them
    in place of the labels, if there is one."""
    failures = [labels for _, _, labels in partitions if isinstance(labels, _Failure)]
    if failures:
        return None, {}, min(failures, key=lambda failure: failure.number)
    ids = [keys for keys, _, _ in partitions if keys is not None]
    merged = {}
    labels = set()
    for _, segments, partition_labels in partitions:
        labels.update(partition_labels)
        for key, segment in segments.items():
            merged[key] = merged[key].merged(segment) if key in merged else segment
    # np.unique of every id gives the sorted ids, and their type, of fastpr.evaluate(groups=).
    return np.unique(np.concatenate(ids)) if ids else None, merged, sorted(labels, key=repr)


def _tree_reduce(tasks, combine, fan_in=8):
    """A reduction tree of delayed ``combine`` calls with ``fan_in`` inputs each."""
    while len(tasks) > 1:
        tasks = [dask.delayed(combine)(*tasks[k:k + fan_in]) for k in range(0, len(tasks), fan_in)]
    return tasks[0]


@options(n_ranges=Integer(minimum=1))
def evaluate(y_true, y_score, *, sample_weight=None, pos_label=None, groups=None, n_ranges=None):
    """Every summary of ``fastpr.evaluate`` for a ranking held in Dask collections, exactly.

    Parameters
    ----------
    y_true, y_score : dask array or dask Series, 1-D
        Labels and scores as in :func:`fastpr.evaluate`, in the same number of partitions (dask
        arrays with known chunks are rechunked to ``y_score``'s).
    sample_weight : dask array or dask Series, default=None
        Finite weights >= 0, partitioned like ``y_score``.
    pos_label : scalar, default=None
        As in :func:`fastpr.evaluate`.
    groups : dask array or dask Series, default=None
        Group keys, partitioned like ``y_score``: evaluate each group on its own.
    n_ranges : int, default=None
        Score ranges swept in parallel; default: one per partition of ``y_score``.

    Returns
    -------
    Evaluation or EvaluationBatch
        The :class:`fastpr.Evaluation` of all rows; with ``groups``, the
        :class:`fastpr.EvaluationBatch` of ``fastpr.evaluate(..., groups=...)``: one entry per
        distinct group id, ``index`` the sorted ids, ``index_name`` "group". A group whose rows
        all weigh 0 holds NaN, as one without positives does.

    Notes
    -----
    Each partition is validated on its own worker, with the errors of :func:`fastpr.evaluate`:
    the first failing partition is reported with lengths and positions in the whole data
    (working them out reads the inputs again).
    Labels are read the same way in every partition (positive means ``pos_label``, else 1 or
    True). Computes with Dask's current scheduler, e.g. the ``dask.distributed.Client`` last
    created. ``UndefinedMetricWarning`` is issued on the client, as ``fastpr.evaluate`` issues it
    (for groups, one warning that counts them).

    Examples
    --------
    >>> import dask
    >>> import dask.array as da
    >>> import fastpr.distributed
    >>> y = da.from_array([1, 0, 1, 1, 0, 0], chunks=2)
    >>> s = da.from_array([0.9, 0.8, 0.7, 0.6, 0.6, 0.1], chunks=2)
    >>> with dask.config.set(scheduler="synchronous"):  # here; a cluster's Client in real use
    ...     e = fastpr.distributed.evaluate(y, s)
    ...     per_group = fastpr.distributed.evaluate(y, s, groups=da.from_array(list("ababab"), 2))
    >>> round(e.auc_roc, 4), round(e.auc_pr, 4)
    (0.7222, 0.7407)
    >>> per_group.index, per_group.auc_roc
    (array(['a', 'b'], dtype='<U1'), array([1. , 0.5]))
    """
    inputs = {"y_score": y_score, "y_true": y_true}
    if sample_weight is not None:
        inputs["sample_weight"] = sample_weight
    if groups is not None:
        inputs["groups"] = groups
    blocks = _aligned_partitions(inputs)
    n_partitions = len(blocks["y_score"])
    n_ranges = n_partitions if n_ranges is None else n_ranges
    weight_blocks = blocks.get("sample_weight", [None] * n_partitions)
    columns = list(zip(blocks["y_true"], blocks["y_score"], weight_blocks))
    if groups is not None:
        result = _evaluate_groups(blocks, columns, pos_label)
        warn_if_undefined_in(result, "AUC-ROC", "AUC-PR", "normalised AUC-PR")
        return result
    parts = [dask.delayed(_partition, nout=2)(k, y, s, w, pos_label)
             for k, (y, s, w) in enumerate(columns)]
    persisted = dask.persist(*[part[0] for part in parts], *[part[1] for part in parts])
    label_sets = dask.compute(*persisted[n_partitions:])
    _raise_first_failure(blocks, label_sets, pos_label)
    _check_labels(label_sets, pos_label)
    segments = list(persisted[:n_partitions])
    del persisted
    result = _ranked_evaluation(segments, n_ranges)
    warn_if_undefined_in(result, "AUC-ROC", "AUC-PR", "normalised AUC-PR")
    return result


def _evaluate_groups(blocks, columns, pos_label):
    """Every group's segment merged over the partitions, then swept on the client."""
    per_partition = [dask.delayed(_group_segments)(k, y, s, w, g, pos_label)
                     for k, ((y, s, w), g) in enumerate(zip(columns, blocks["groups"]))]
    ((ids, merged, labels),) = dask.compute(_tree_reduce(per_partition, _merged_groups))
    _raise_first_failure(blocks, [labels], pos_label)
    _check_labels([labels], pos_label)
    segments = [] if ids is None else [merged[key] for key in ids.tolist()]
    if not sum(segment.size for segment in segments):
        _raise_no_weight()
    return EvaluationBatch.from_table(np.stack([segment.row() for segment in segments]), ids,
                                      "group")


# ----------------------------------------------------------------------------- input checks
def _dask_vector(name, values, array):
    """``array`` (``values`` as a dask array, or None if it is neither that nor a dask Series)."""
    if array is None:
        raise InputTypeError("{argument} must be a dask array or a dask Series, got {kind}.",
                             argument=name, kind=type(values).__name__)
    if array.ndim != 1:
        raise InputValueError("{argument} must be 1-D, got a dask array of shape {shape}.",
                              argument=name, shape=array.shape)
    return array


def _raise_partition_lengths(totals, number, lengths):
    """Inputs whose partition ``number`` differs in length (``lengths``, by input name): as their
    ``totals`` do, or else as partitions."""
    _validation.same_lengths(**totals)
    (name_a, n_a), *rest = lengths.items()
    name_b, n_b = next((name, n) for name, n in rest if n != n_a)
    raise InputValueError("{other} and {argument} both have {total} rows but are partitioned "
                          "differently: partition {number} holds {n_a} and {n_b} rows; give "
                          "them the same partitions.", argument=name_b, other=name_a,
                          total=totals[name_a], number=number, n_a=n_a, n_b=n_b)


def _raise_no_weight():
    raise InputValueError("the data is empty: no row has nonzero weight.", argument="y_score")
