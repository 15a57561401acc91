"""Exact evaluation of a ranking held in a Spark DataFrame, without collecting its rows.

:func:`evaluate` gives the :class:`fastpr.Evaluation` that ``fastpr.evaluate`` gives on the
collected rows (every field, the hull included, equal to rounding of the weight sums), and with
``groups=`` the same :class:`fastpr.EvaluationBatch`. No binning and no approximation: the exact
areas of ``fastpr.evaluate``. :func:`accumulate` returns the merged exact state as a
:class:`fastpr.Accumulator`, from which the curves follow. Needs the ``spark`` extra
(``pip install "fastpr[spark]"``) and Java, as any PySpark does; the executors' Python must be
able to import fastpr.
"""
import dataclasses
import math
import pickle
import warnings

import numpy as np

try:
    import pyarrow as pa
    from pyspark import StorageLevel, TaskContext
    from pyspark.ml.feature import Bucketizer
    from pyspark.sql import functions as F
except ImportError as error:
    raise ImportError('fastpr.spark needs PySpark and pyarrow: pip install "fastpr[spark]"') \
        from error

from .. import _partitioned, _validation
from .._validation import Integer, OneOf, options
from .._undefined import warn_if_undefined_in
from ..accumulator import Accumulator, CompactedSegment
from ..exceptions import InputError, InputTypeError, InputValueError, UndefinedMetricWarning
from ..metrics import evaluate as _evaluate
from ..results import EvaluationBatch

# How it works. One Spark job compacts every partition (mapInArrow, on the executors): its rows
# are validated by fastpr's input layer, then reduced to their distinct scores, each with its
# total positive and negative weight (24 bytes per distinct score), and a sample of its scores.
# Each partition returns its entries where it holds few distinct scores (at most
# max_driver_entries / partitions), and a record of its labels, sample, and any validation
# failure as a value rather than an exception.
#
# Few distinct scores: the driver merges the entries exactly (an Accumulator) and sweeps them
# once. Memory on the driver follows the number of distinct scores, never the rows.
#
# Many distinct scores: a sample sort that keeps every machine's memory to its share.
# The samples give range boundaries (quantiles of the rows' scores); each row is routed to its
# score range in the JVM (a Bucketizer: no Python on the way); one task per range sorts and
# compacts the range and summarises what its sweep passes on to the ranges below; the driver
# chains those summaries into the state where each range's sweep starts; one task per range
# resumes the sweep of fastpr.evaluate there; the driver joins the ranges' partial sums and
# ROC-hull vertices. The driver handles a few numbers per range and the hull vertices.

# Columns of the compaction job: the entries (meta null), then one row (meta set) per partition.
_ENTRIES = "score double, pos double, neg double, meta binary"
# Columns of the range jobs.
_RANGED = "range int, score double, pos double, neg double, meta binary"
# Default bound on the entries the driver gathers: 2^21 distinct scores, 48 MiB.
_MAX_DRIVER_ENTRIES = 1 << 21
_RANGE = "__fastpr_range"
_ENTRIES_SCHEMA = pa.schema([("score", pa.float64()), ("pos", pa.float64()),
                             ("neg", pa.float64()), ("meta", pa.binary())])


def _columns(df, label, score, weight, groups):
    """{argument: column name} of the columns given, each checked to exist in ``df``."""
    named = {"label": label, "score": score, "weight": weight, "groups": groups}
    given = {argument: column for argument, column in named.items() if column is not None}
    for argument, column in given.items():
        if not isinstance(column, str):
            raise InputTypeError("{argument} must be the name of a column of the DataFrame, got "
                                 "{kind}.", argument=argument, kind=type(column).__name__)
        if column not in df.columns:
            raise InputValueError("{argument}={column!r} is not a column of the DataFrame; it "
                                  "has {present}.", argument=argument, column=column,
                                  present=", ".join(map(repr, df.columns)))
    return given


# fastpr's argument names, as the Spark arguments restate them in errors.
_FASTPR_NAMES = {"y_true": "label", "y_score": "score", "sample_weight": "weight",
                 "groups": "groups"}


def _column(table, name):
    """A column of a partition's Arrow table as a NumPy array."""
    return table.column(name).combine_chunks().to_numpy(zero_copy_only=False)


def _checked(number, table, columns, pos_label):
    """``_partitioned.checked`` of a partition's Arrow table: (is_positive, scores, weights,
    group ids), None when it is empty, or the Failure that says why it fails. SQL nulls, which
    NumPy would read as NaN or None, are refused first, by name."""
    arrays = []
    for name in _partitioned.COLUMNS:
        argument = _FASTPR_NAMES[name]
        if argument not in columns:
            arrays.append(None)
            continue
        column = table.column(columns[argument])
        if column.null_count:
            try:
                _validation.refuse_missing(name, np.asarray(column.is_null()))
            except InputError as error:
                return _partitioned.Failure(number, error, ())
        arrays.append(column.combine_chunks().to_numpy(zero_copy_only=False))
    return _partitioned.checked(number, arrays, pos_label)


def _table(batches, schema):
    """One Arrow table of a partition's record batches (an empty one when there are none)."""
    return pa.Table.from_batches(list(batches), schema=schema)


def _record(**meta):
    """The one row of a partition's record (pickled ``meta``) in the compaction's columns."""
    return pa.RecordBatch.from_pydict(
        {"score": [None], "pos": [None], "neg": [None], "meta": [pickle.dumps(meta)]},
        schema=_ENTRIES_SCHEMA)


def _compact_partition(columns, pos_label, entries_cap, schema):
    """The mapInArrow function of the compaction job (see "How it works")."""
    def compact(batches):
        number = TaskContext.get().partitionId()
        table = _table(batches, schema)
        result = _checked(number, table, columns, pos_label)
        if isinstance(result, _partitioned.Failure):
            yield _record(number=number, error=result.error)
            return
        segment = (CompactedSegment.empty() if result is None
                   else _partitioned.compacted(*result[:3]))
        kept = segment.size <= entries_cap
        if kept and segment.size:
            yield pa.RecordBatch.from_pydict(
                {"score": segment.scores, "pos": segment.pos_weight.astype(np.float64),
                 "neg": segment.neg_weight.astype(np.float64), "meta": [None] * segment.size},
                schema=_ENTRIES_SCHEMA)
        yield _record(number=number, error=None, kept=kept, n_rows=table.num_rows,
                      weighs=bool(segment.size), sample=_partitioned.sample(segment),
                      labels=_partitioned.labels(_column(table, columns["label"])))
    return compact


def _raise_partition_error(number, error, columns):
    """Restate a partition's validation error in the DataFrame's terms and raise it."""
    if not isinstance(error, InputError):
        raise type(error)(f"{error} (in partition {number})") from None
    names = {name: f"{argument} column {columns[argument]!r}"
             for name, argument in _FASTPR_NAMES.items() if argument in columns}
    text = error.describe(names, lambda position: f"row {position} of partition {number}")
    kind = InputTypeError if isinstance(error, TypeError) else InputValueError
    raise kind("{text}", argument=_FASTPR_NAMES.get(error.argument, error.argument),
               position=error.position, text=text) from None


def _checked_metas(metas, columns, pos_label):
    """The partitions' records in order, after the first failure (if any) is raised and the
    union of their labels is checked as one ``y_true``."""
    metas = sorted(metas, key=lambda meta: meta["number"])
    for meta in metas:
        if meta["error"] is not None:
            _raise_partition_error(meta["number"], meta["error"], columns)
    try:
        _partitioned.check_labels([meta["labels"] for meta in metas], pos_label)
    except InputError as error:
        _raise_partition_error(None, error, columns)
    if not any(meta["n_rows"] for meta in metas):
        raise InputValueError("{argument} column {column!r} is empty: the DataFrame holds no "
                              "rows to evaluate.", argument="score", column=columns["score"])
    if not any(meta["weighs"] for meta in metas):
        raise InputValueError("{argument} column {column!r} is zero everywhere, so there is "
                              "nothing to evaluate.", argument="weight", column=columns["weight"])
    return metas


@options(strategy=OneOf(("auto", "driver", "ranges")), n_ranges=Integer(minimum=1),
         max_driver_entries=Integer(minimum=0))
def evaluate(df, *, label, score, weight=None, groups=None, pos_label=None, strategy="auto",
             n_ranges=None, max_driver_entries=_MAX_DRIVER_ENTRIES):
    """Every summary of ``fastpr.evaluate`` for a ranking held in a Spark DataFrame, exactly.

    Parameters
    ----------
    df : pyspark.sql.DataFrame
        The table; only the named columns are read.
    label, score : str
        Names of the label and score columns, read as ``y_true`` and ``y_score`` of
        :func:`fastpr.evaluate`: two labels in all (positive means ``pos_label``, else 1 or
        True), real scores without NaN. Nulls are refused.
    weight : str, default=None
        Name of a column of finite weights >= 0 (``sample_weight``).
    groups : str, default=None
        Name of a column of group keys: evaluate each group on its own.
    pos_label : scalar, default=None
        As in :func:`fastpr.evaluate`.
    strategy : {"auto", "driver", "ranges"}, default="auto"
        "driver" merges every partition's compacted entries on the driver, whose memory then
        follows the number of distinct scores (24 bytes each); "ranges" sorts the rows by score
        ranges on the executors, so that no machine holds all of them. "auto" takes "driver" when
        every partition holds at most ``max_driver_entries / partitions`` distinct scores, as
        each partition finds while it compacts, and "ranges" otherwise (then the compaction
        job's work is spent only on the checks and the sample).
    n_ranges : int, default=None
        Score ranges of the "ranges" strategy; default: twice the partitions of ``df``.
    max_driver_entries : int, default=2**21
        The most compacted entries "auto" lets the driver gather (2^21: 48 MiB).

    Returns
    -------
    Evaluation or EvaluationBatch
        As :func:`fastpr.evaluate` on the collected columns; with ``groups``, its
        :class:`fastpr.EvaluationBatch`, ``index`` the sorted group keys.

    Notes
    -----
    Each partition is checked on its executor by the input layer of :func:`fastpr.evaluate`, so
    the same bad input gets the same error, raised on the driver and restated in the
    DataFrame's terms (the column, the row within its partition). Results equal those of
    ``fastpr.evaluate`` to rounding: weight sums are added in another order (exactly where
    weights are integers and total below 2^53).

    With ``groups``, the rows are repartitioned by the group column and each partition is
    evaluated with one ``fastpr.evaluate(..., groups=...)`` call: a group's rows must fit in
    one executor task.

    Examples
    --------
    >>> import fastpr.spark
    >>> df = spark.createDataFrame([(1, 0.9), (0, 0.8), (1, 0.7), (1, 0.6), (0, 0.6), (0, 0.1)],
    ...                            "y int, s double")  # doctest: +SKIP
    >>> round(fastpr.spark.evaluate(df, label="y", score="s").auc_pr, 4)  # doctest: +SKIP
    0.7407
    """
    columns = _columns(df, label, score, weight, groups)
    if groups is not None:
        result = _evaluate_groups(df, columns, pos_label)
        warn_if_undefined_in(result, "AUC-ROC", "AUC-PR", "normalised AUC-PR")
        return result
    result = _ranked(df, columns, pos_label, strategy, n_ranges, max_driver_entries)
    warn_if_undefined_in(result, "AUC-ROC", "AUC-PR", "normalised AUC-PR")
    return result


def accumulate(df, *, label, score, weight=None, pos_label=None):
    """The exact state of a ranking held in a Spark DataFrame, merged on the driver.

    Parameters
    ----------
    df, label, score, weight, pos_label
        As in :func:`evaluate`.

    Returns
    -------
    Accumulator
        Every distinct score with its total positive and negative weight, as
        :meth:`fastpr.Accumulator.update` would hold after the collected rows:
        ``accumulate(...).evaluate()`` equals :func:`evaluate`, and ``to_arrays()`` gives the
        exact curves (pass the scores twice, once per class, with the weights as
        ``sample_weight``).

    Notes
    -----
    The driver holds one entry per distinct score (24 bytes): use it where they are few. The
    state has no rows left, so it cannot be resampled by row: bootstrap needs the rows.
    """
    columns = _columns(df, label, score, weight, None)
    collected, metas = _compaction(df, columns, pos_label, math.inf)
    return _merged_entries(collected)


def _compaction(df, columns, pos_label, entries_cap):
    """(entries collected as an Arrow table, the partitions' checked records)."""
    selected = df.select(*[columns[argument] for argument in ("label", "score", "weight")
                           if argument in columns])
    schema = _arrow_schema(selected)
    cap = entries_cap if math.isfinite(entries_cap) else np.iinfo(np.int64).max
    collected = selected.mapInArrow(_compact_partition(columns, pos_label, cap, schema),
                                    _ENTRIES).toArrow()
    meta = collected.column("meta").to_pylist()
    metas = [pickle.loads(value) for value in meta if value is not None]
    return collected, _checked_metas(metas, columns, pos_label)


def _arrow_schema(selected):
    """The Arrow schema of ``selected``'s rows, as mapInArrow hands them to a partition."""
    from pyspark.sql.pandas.types import to_arrow_schema
    return to_arrow_schema(selected.schema)


def _merged_entries(collected):
    """The Accumulator of the entries of a collected compaction."""
    entries = collected.filter(collected.column("meta").is_null())
    return Accumulator.from_arrays(*(entries.column(name).to_numpy()
                                     for name in ("score", "pos", "neg")))


def _ranked(df, columns, pos_label, strategy, n_ranges, max_driver_entries):
    """The Evaluation of one ranking, by the strategy chosen (see "How it works")."""
    n_partitions = df.rdd.getNumPartitions()
    cap = {"driver": math.inf, "ranges": -1,
           "auto": max_driver_entries // max(n_partitions, 1)}[strategy]
    collected, metas = _compaction(df, columns, pos_label, cap)
    if all(meta["kept"] for meta in metas):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedMetricWarning)  # warned once, by evaluate
            return _merged_entries(collected).evaluate()
    n_ranges = 2 * n_partitions if n_ranges is None else n_ranges
    boundaries = _partitioned.boundaries([meta["sample"] for meta in metas], n_ranges)
    return _range_sorted(df, columns, pos_label, boundaries)


def _range_sorted(df, columns, pos_label, boundaries):
    """The Evaluation of one ranking by the sample sort of "How it works"."""
    selected = df.select(*[columns[argument] for argument in ("label", "score", "weight")
                           if argument in columns])
    if boundaries.size:
        # Range r holds boundaries[r - 1] <= score < boundaries[r], as CompactedSegment.cut.
        routed = Bucketizer(splits=[-math.inf, *boundaries.tolist(), math.inf],
                            inputCol=columns["score"], outputCol=_RANGE).transform(selected)
        routed = routed.withColumn(_RANGE, F.col(_RANGE).cast("int"))
    else:
        routed = selected.withColumn(_RANGE, F.lit(0))
    ranged = routed.groupBy(_RANGE).applyInArrow(_summarise_range(columns, pos_label), _RANGED)
    ranged.persist(StorageLevel.MEMORY_AND_DISK)
    try:
        summaries = {row.range: pickle.loads(row.meta) for row in
                     ranged.where(F.col("meta").isNotNull()).select("range", "meta").collect()}
        # Highest scores first; a range without rows passes on what an empty segment does.
        order = list(reversed(range(boundaries.size + 1)))
        empty = _partitioned.summarised_range()[1]
        starts = dict(zip(order, _partitioned.carried_states(
            [summaries.get(r, empty) for r in order])))
        swept = ranged.where(F.col("meta").isNull()).groupBy("range").applyInArrow(
            _sweep_range(starts), "range int, meta binary").collect()
    finally:
        ranged.unpersist()
    results = {row.range: pickle.loads(row.meta) for row in swept}
    return _partitioned.joined([results.get(r) for r in order])


def _summarise_range(columns, pos_label):
    """The applyInArrow function that compacts one score range (validated rows: the compaction
    job checked them) and summarises it: its entries, then one row holding the summary."""
    def summarise(key, table):
        result = _checked(None, table, columns, pos_label)
        if isinstance(result, _partitioned.Failure):  # the data changed since it was checked
            raise result.error
        segment, summary = _partitioned.summarised_range(_partitioned.compacted(*result[:3]))
        n = segment.size
        return pa.table({"range": pa.array([key[0].as_py()] * (n + 1), pa.int32()),
                         "score": np.r_[segment.scores, np.nan],
                         "pos": np.r_[segment.pos_weight.astype(np.float64), np.nan],
                         "neg": np.r_[segment.neg_weight.astype(np.float64), np.nan],
                         "meta": [None] * n + [pickle.dumps(summary)]})
    return summarise


def _sweep_range(starts):
    """The applyInArrow function that resumes the sweep of one range from its carried state."""
    def sweep(key, table):
        r = key[0].as_py()
        scores, pos, neg = (table.column(name).to_numpy() for name in ("score", "pos", "neg"))
        if not np.all(scores[1:] > scores[:-1]):  # Spark keeps a group's rows, not their order
            order = np.argsort(scores, kind="stable")
            scores, pos, neg = scores[order], pos[order], neg[order]
        result = _partitioned.sweep_range(CompactedSegment(scores, pos, neg), starts[r])
        return pa.table({"range": pa.array([r], pa.int32()), "meta": [pickle.dumps(result)]})
    return sweep


# ----------------------------------------------------------------------------- groups
# The fields of an EvaluationBatch that hold one entry per ranking.
_BATCH_FIELDS = [field.name for field in dataclasses.fields(EvaluationBatch)
                 if field.name not in ("index", "index_name")]


def _evaluate_groups(df, columns, pos_label):
    """Rows repartitioned by group; one fastpr.evaluate(groups=...) per partition."""
    names = [columns[argument] for argument in ("label", "score", "weight", "groups")
             if argument in columns]
    selected = df.select(*names).repartition(F.col(columns["groups"]))
    schema = _arrow_schema(selected)
    collected = selected.mapInArrow(_evaluate_partition(columns, pos_label, schema),
                                    "meta binary").collect()
    metas = _checked_metas([pickle.loads(row.meta) for row in collected], columns, pos_label)
    batches = [meta["batch"] for meta in metas if meta["batch"] is not None]
    index = np.concatenate([batch.index for batch in batches])
    # Each group lies in one partition; np.unique sorts the keys as fastpr.evaluate(groups=).
    ids, first = np.unique(index, return_index=True)
    fields = {name: np.concatenate([getattr(batch, name) for batch in batches])[first]
              for name in _BATCH_FIELDS}
    return EvaluationBatch(index=ids, index_name="group", **fields)


def _evaluate_partition(columns, pos_label, schema):
    """The mapInArrow function of ``groups=``: one fastpr.evaluate call per partition, whose
    groups are whole."""
    def evaluate_partition(batches):
        number = TaskContext.get().partitionId()
        table = _table(batches, schema)
        result = _checked(number, table, columns, pos_label)
        if isinstance(result, _partitioned.Failure):
            meta = dict(number=number, error=result.error)
        else:
            batch = None if result is None else _group_batch(*result)
            meta = dict(number=number, error=None, n_rows=table.num_rows, batch=batch,
                        weighs=batch is not None and bool(np.any(batch.n_pos + batch.n_neg)),
                        labels=_partitioned.labels(_column(table, columns["label"])))
        yield pa.RecordBatch.from_pydict({"meta": [pickle.dumps(meta)]})
    return evaluate_partition


def _group_batch(is_positive, scores, weights, ids):
    """The EvaluationBatch of one partition's validated rows, whose groups are whole."""
    if weights is not None and not weights.any():
        # fastpr.evaluate refuses data that weighs 0 everywhere; here it is a part of the data,
        # whose groups all hold NaN, as a group of zero weight does in fastpr.evaluate.
        keys = np.unique(ids)
        empty = CompactedSegment.empty().row()
        return EvaluationBatch.from_table(np.tile(empty, (keys.size, 1)), keys, "group")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)  # warned once, on the driver
        return _evaluate(is_positive, scores, sample_weight=weights, groups=ids)
