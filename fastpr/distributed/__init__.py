"""Exact evaluation of a ranking held in a Dask collection, without gathering it on one machine.

:func:`evaluate` gives the :class:`fastpr.Evaluation` that ``fastpr.evaluate`` would give on the
concatenated data (equal to rounding of the weight sums, every field, the hull included), and
with ``groups=`` the same :class:`fastpr.EvaluationBatch`. No binning and no approximation: the
exact areas of ``fastpr.evaluate``. Needs the ``dask`` extra
(``pip install "fastpr[dask]"``); it runs on whatever scheduler Dask is set to use, a
``dask.distributed`` cluster included.

A sample sort, one sort for all the data: each partition is validated and sampled on its
worker, the client places one score range per worker at quantiles of the samples, each
partition's rows go to the ranges of their scores in one pass (8 bytes a row; a partition of
heavily tied scores moves compacted, 24 bytes per distinct score), and each range is sorted and
swept on its worker from the state that the ranges above it leave, as ``fastpr.evaluate`` sorts
and sweeps; the client handles the samples and the ROC-hull vertices, and waits for the workers
twice (once for the samples, once for the rest). No machine holds all rows. Results equal
``fastpr.evaluate`` to rounding: sums of float weights are added in another order.

With ``groups=``, each group's compacted data (24 bytes per distinct score of the group) is
merged across partitions and moves to the client, which evaluates it: that suits many groups of
moderate size; evaluate one very large group on its own, without ``groups``, to spread it over
the workers.
"""
import math
import operator
import os
import sys
import uuid

try:
    import dask
    import dask.array
except ImportError as error:
    raise ImportError('fastpr.distributed needs Dask: pip install "fastpr[dask]"') from error

from .. import _partitioned as core
from .. import _validation
from .._validation import Integer, options
from .._undefined import warn_if_undefined_in
from ..exceptions import InputTypeError, InputValueError

# How it works: see fastpr/_partitioned.py, which holds every step that does not need Dask (the
# Spark engine runs the same functions). This module only builds the Dask graph around them:
# prepare (validate, sample) each partition on its worker (persisted), place the range
# boundaries on the client, then one graph, which the client waits for once: route each
# partition's rows to the ranges, sort and summarise each range on one worker, carry the state
# across ranges (one small task, on a worker), sweep each range where it lies; join on the
# client.
#
# With groups=, each partition builds one compacted segment per group; they are merged per group
# in a tree reduction and each group is swept on the client.
#
# Where tasks run. A task returning several things is read by one small task per thing. Dask's
# own (``delayed(..., nout=)``) are all named "getitem-<token>", which the distributed scheduler
# counts as one task group, all of a graph's; a group many times larger than the cluster whose
# dependencies are few tasks counts as "root-ish", and root-ish tasks go to whichever worker is
# free, wherever their data lies. The 12 getitems of 4 prepared partitions were placed so: whole
# partitions moved between workers, and in some runs every partition, and then every range,
# ended on one worker (10^7 rows on 2 workers: 2.0x one process instead of 1.5x). _item names
# each step's items as a group of their own, as large as the group of tasks they read, which
# the scheduler places where the data is.


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
    for key in (key for key in core.COLUMNS if key in (name, "y_score")):
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


def _raise_first_failure(blocks, results, pos_label):
    """Report the first partition that failed validation, if any, as ``fastpr.evaluate`` would
    report the whole data: global lengths and positions. Costs passes over the inputs, which
    the client pays only when there is an error."""
    failures = [result for result in results if isinstance(result, core.Failure)]
    if not failures:
        return
    failure = min(failures, key=lambda failure: failure.number)
    present = [name for name in core.COLUMNS if name in blocks]
    if failure.error is None:
        sizes = dask.compute({name: [dask.delayed(len)(part) for part in blocks[name]]
                              for name in present})[0]
        lengths = {name: length for name, length in zip(core.COLUMNS, failure.lengths)
                   if length is not None}
        core.raise_partition_lengths({name: sum(sizes[name]) for name in present},
                                     failure.number, lengths)
    rows_before = sum(dask.compute(*[dask.delayed(len)(part)
                                     for part in blocks["y_score"][:failure.number]]))
    columns = [blocks[name][failure.number] if name in blocks else None for name in core.COLUMNS]
    dask.compute(dask.delayed(core.check_at)(rows_before, failure.number, columns, pos_label))
    raise failure.error  # not reached: the check fails again, now in the whole data's terms


def _item(task, position, step, index, token):
    """Item ``position`` of the tuple that delayed ``task`` returns, as task ``index`` of the
    task group named by ``step`` and ``token`` (see "Where tasks run")."""
    return dask.delayed(operator.getitem, pure=True)(
        task, position, dask_key_name=(f"fastpr-{step}-{token}", index))


def _ranked_evaluation(parts, samples, n_ranges):
    """Steps 2-7 of "How it works" (fastpr/_partitioned.py), from the persisted prepared
    partitions and their samples: one graph from the routing to the sweeps, so that the client
    waits once (the carried states are a task of the graph, on a worker)."""
    if not any(weight for _, weight in samples):
        core.raise_no_weight()
    boundaries = core.boundaries(samples, n_ranges)
    n_pieces = boundaries.size + 1
    token = uuid.uuid4().hex
    routed = [dask.delayed(core.routed)(part, boundaries) for part in parts]
    # Highest scores first. Each range task also summarises its range, on the worker holding it.
    ranges = [dask.delayed(core.sorted_range)(*[_item(task, r, "piece", k, f"{token}-{r}")
                                                for k, task in enumerate(routed)])
              for r in reversed(range(n_pieces))]
    summaries = [_item(task, 1, "summary", r, token) for r, task in enumerate(ranges)]
    starts = dask.delayed(core.carried_states)(summaries)
    swept = dask.persist(*[dask.delayed(core.sweep_sorted)(_item(task, 0, "ranking", r, token),
                                                           _item(starts, r, "start", r, token))
                           for r, task in enumerate(ranges)])
    # On a cluster persist returns at once: dropping the partitions here lets the workers free
    # each one as soon as it is routed (and each range once it is swept), as the graph runs.
    parts.clear()
    del routed, ranges, summaries, starts
    return core.joined(dask.compute(*swept))


def _n_workers():
    """The threads of the Dask cluster that the current scheduler runs on (that of the default
    Client), or this machine's cores for Dask's local schedulers."""
    distributed = sys.modules.get("distributed")  # no Client without it
    try:
        return sum(distributed.default_client().nthreads().values())
    except (AttributeError, ValueError):
        return os.cpu_count() or 1


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
        Score ranges sorted and swept in parallel; default: one per thread of the cluster's
        workers (of the default ``dask.distributed`` Client), else one per core.

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
    if n_ranges is None:
        n_ranges = core.n_ranges_for(_n_workers())
    weight_blocks = blocks.get("sample_weight", [None] * n_partitions)
    columns = list(zip(blocks["y_true"], blocks["y_score"], weight_blocks))
    if groups is not None:
        result = _evaluate_groups(blocks, columns, pos_label)
        warn_if_undefined_in(result, "AUC-ROC", "AUC-PR", "normalised AUC-PR")
        return result
    token = uuid.uuid4().hex
    prepared = [dask.delayed(core.prepared)(k, y, s, w, pos_label)
                for k, (y, s, w) in enumerate(columns)]
    persisted = dask.persist(*[_item(task, item, step, k, token)
                               for item, step in enumerate(("part", "labels", "sample"))
                               for k, task in enumerate(prepared)])
    label_sets, samples = dask.compute(persisted[n_partitions:2 * n_partitions],
                                       persisted[2 * n_partitions:])
    _raise_first_failure(blocks, label_sets, pos_label)
    core.check_labels(label_sets, pos_label)
    parts = list(persisted[:n_partitions])
    del persisted, prepared
    result = _ranked_evaluation(parts, samples, n_ranges)
    warn_if_undefined_in(result, "AUC-ROC", "AUC-PR", "normalised AUC-PR")
    return result


def _evaluate_groups(blocks, columns, pos_label):
    """Every group's segment merged over the partitions, then swept on the client."""
    per_partition = [dask.delayed(core.group_segments)(k, y, s, w, g, pos_label)
                     for k, ((y, s, w), g) in enumerate(zip(columns, blocks["groups"]))]
    ((ids, merged, labels),) = dask.compute(_tree_reduce(per_partition, core.merged_groups))
    _raise_first_failure(blocks, [labels], pos_label)
    core.check_labels([labels], pos_label)
    return core.group_batch(ids, merged)


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
