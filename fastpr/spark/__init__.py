"""Exact evaluation of a ranking held in a Spark DataFrame, without collecting its rows.

:func:`evaluate` gives the :class:`fastpr.Evaluation` that ``fastpr.evaluate`` gives on the
collected rows (every field, the hull included, equal to rounding of the weight sums), and with
``groups=``, or several models' score columns (``score=[...]``), the same
:class:`fastpr.EvaluationBatch`. No binning and no approximation: the exact
areas of ``fastpr.evaluate``. :func:`accumulate` returns the merged exact state as a
:class:`fastpr.Accumulator`, from which the curves follow. :func:`bootstrap` gives
``fastpr.bootstrap``'s interval exactly, from each distinct (score, label, weight) cell's row
count. Needs the ``spark`` extra (``pip install "fastpr[spark]"``) and Java, as any PySpark
does; the executors' Python must be able to import fastpr.
"""
import dataclasses
import pickle
import warnings

import numpy as np

try:
    import pyarrow as pa
    from pyspark import StorageLevel, TaskContext
    from pyspark.sql import functions as F
    from pyspark.sql import types as T
except ImportError as error:
    raise ImportError('fastpr.spark needs PySpark and pyarrow: pip install "fastpr[spark]"') \
        from error

from .. import _partitioned, _validation
from .._undefined import warn_if_undefined_in
from .._engine.jit import thread_count
from .._validation import Integer, OneOf, options
from ..accumulator import Accumulator, CompactedSegment
from ..exceptions import InputError, InputTypeError, InputValueError, UndefinedMetricWarning
from ..intervals import BOOTSTRAP_OPTIONS, bootstrap_cells
from ..metrics import evaluate as _evaluate
from ..results import EvaluationBatch

# How it works. Rows move to Python only where they must be sorted there; the checks are the
# input layer's, wherever the rows are.
#
# Few distinct scores (strategy="driver", and "auto" first): the JVM adds up the weight (or
# counts the rows) of each distinct (score, label) pair, as Spark's own evaluator does; the
# driver collects those pairs (as Arrow), checks them with the input layer as one y_true /
# y_score / sample_weight (and the least weight of each pair, for negative weights), and merges
# them exactly into an Accumulator. Memory on the driver follows the number of distinct scores,
# never the rows; where the JVM finds more than max_driver_entries pairs, "auto" turns to the
# ranges. (Trying the pairs first beats estimating their number first: on a cached DataFrame of
# 3·10^6 rows and about 1,000 scores a HyperLogLog pass took 0.44 s, the pairs' whole path 0.26 s.
# The price is paid where nearly every score is distinct: there the aggregation thrown away took
# about 7 s a model at 3·10^6 rows on a loaded 2-core machine, more than the ranges themselves,
# so the guide advises strategy="ranges" for such scores.) Several models
# (score=[...]) are one job too: each row becomes one row per model (posexplode of an array of
# the score columns, with the model's number) and the JVM adds up the (model, score, label)
# triples; the driver splits them by model and checks each model's pairs as its own column.
#
# Many distinct scores: a sample sort that keeps every machine's memory to its share. A sample of
# about 2^16 scores, drawn in the JVM, gives range boundaries at quantiles of the rows' scores;
# each row is routed to its score range in the JVM (comparisons with the boundaries: no Python
# on the way); one task per range checks, sorts and compacts its rows and summarises what its
# sweep passes on to the ranges below; the driver chains those summaries into the state where
# each range's sweep starts; one task per range resumes the sweep of fastpr.evaluate there, on
# the executor holding it; the driver joins the ranges' partial sums and ROC-hull vertices.
# Several models run one sample sort each, on their own column.
#
# Errors. Where the pairs or a range fail a check, each partition is checked on its executor
# (mapInArrow) to find the first failing row, which is reported with its column, partition and
# row; a task returns its failure as a value, so that no executor's exception reaches the user.

# Columns of the range jobs.
_RANGED = "range int, score double, pos double, neg double, meta binary"
# Default bound on the entries the driver gathers: 2^21 distinct scores, 48 MiB.
_MAX_DRIVER_ENTRIES = 1 << 21
# Rows sampled (in the JVM) to place the range boundaries.
_SAMPLE_ROWS = 1 << 16
_RANGE = "__fastpr_range"
_RANGED_SCHEMA = pa.schema([("range", pa.int32()), ("score", pa.float64()),
                            ("pos", pa.float64()), ("neg", pa.float64()), ("meta", pa.binary())])


def _columns(df, label, score, weight, groups):
    """{argument: column name} of the columns given, each checked to exist in ``df``; a list
    (or tuple) of score columns, one per model, stays a list, checked as ``fastpr.evaluate``
    checks the column names of a table of models."""
    named = {"label": label, "score": score, "weight": weight, "groups": groups}
    given = {argument: column for argument, column in named.items() if column is not None}
    for argument, column in given.items():
        if argument == "score" and isinstance(column, (list, tuple)):
            given["score"] = _model_columns(df, column)
            continue
        if not isinstance(column, str):
            raise InputTypeError("{argument} must be the name of a column of the DataFrame, got "
                                 "{kind}.", argument=argument, kind=type(column).__name__)
        _refuse_absent(df, argument, column)
    return given


def _refuse_absent(df, argument, column):
    if column not in df.columns:
        raise InputValueError("{argument}={column!r} is not a column of the DataFrame; it "
                              "has {present}.", argument=argument, column=column,
                              present=", ".join(map(repr, df.columns)))


def _model_columns(df, names):
    """The list of score columns ``names``, one per model: not empty, strings, each a column of
    ``df`` and named once."""
    if not names:
        raise InputValueError("{argument} is an empty list: name one score column or more.",
                              argument="score")
    seen = set()
    for position, name in enumerate(names):
        if not isinstance(name, str):
            raise InputTypeError("{argument} must name columns of the DataFrame (strings); got "
                                 "{value!r} ({kind}) at position {at}.", argument="score",
                                 position=position, at=position, value=name,
                                 kind=type(name).__name__)
        if name in seen:
            raise InputValueError("{argument} names the column {value!r} more than once; each "
                                  "model's column must be named once.", argument="score",
                                  position=position, value=name)
        seen.add(name)
        _refuse_absent(df, "score", name)
    return list(names)


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
    label : str
        Name of the label column, read as ``y_true`` of :func:`fastpr.evaluate`: two labels
        in all (positive means ``pos_label``, else 1 or True). Nulls are refused.
    score : str or list of str
        Name of the score column, read as ``y_score``: real scores without NaN or nulls. A list
        (or tuple) of column names evaluates several models scored on the same rows, as
        :func:`fastpr.evaluate` evaluates a table of models ``{name: column}``: the names must
        be unique columns of ``df``, and each column is checked as a ``y_score`` of its own.
    weight : str, default=None
        Name of a column of finite weights >= 0 (``sample_weight``).
    groups : str, default=None
        Name of a column of group keys: evaluate each group on its own. Needs one score column
        (``fastpr.evaluate`` refuses a table of models with groups).
    pos_label : scalar, default=None
        As in :func:`fastpr.evaluate`.
    strategy : {"auto", "driver", "ranges"}, default="auto"
        "driver": Spark adds up the weight of each distinct (score, label) pair and the driver
        merges the pairs exactly; its memory follows the number of distinct scores (24 bytes
        each). "ranges": the rows are sorted by score ranges on the executors, so that no
        machine holds all of them. "auto" takes "driver" where the data holds at most
        ``max_driver_entries`` distinct (score, label) pairs (the JVM adds them up and stops
        collecting past that), else "ranges"; with several score columns, one choice for all
        of them, by the pairs of all the models together.
    n_ranges : int, default=None
        Score ranges of the "ranges" strategy; default: twice the partitions of ``df``.
    max_driver_entries : int, default=2097152
        The most distinct (score, label) pairs "auto" lets the driver gather (2^21: 48 MiB),
        counted over all the models where ``score`` is a list.

    Returns
    -------
    Evaluation or EvaluationBatch
        As :func:`fastpr.evaluate` on the collected columns; with ``groups``, its
        :class:`fastpr.EvaluationBatch`, ``index`` the sorted group keys. With a list of score
        columns, the EvaluationBatch of ``fastpr.evaluate(label, {name: column, ...})``:
        ``index`` the names in the order given, ``index_name`` "model"; a list of one name
        gives a batch of one, as a one-column table does.

    Notes
    -----
    The input layer of :func:`fastpr.evaluate` checks the data, so the same bad input gets the
    same error, raised on the driver and restated in the DataFrame's terms: the column, and the
    row within its partition, found by checking each partition on its executor. Results equal
    those of ``fastpr.evaluate`` to rounding: weight sums are added in another order (exactly where
    weights are integers and total below 2^53).

    With ``groups``, the rows are repartitioned by the group column and each partition is
    evaluated with one ``fastpr.evaluate(..., groups=...)`` call: a group's rows must fit in
    one executor task.

    With a list of K score columns, "driver" is still one Spark job: each row stands for K
    rows (model, score, label[, weight]) and the JVM adds up the distinct (model, score,
    label) triples, so the driver holds the distinct pairs of all the models. "ranges" runs
    the sample sort once per model, on its own column: K times the jobs and the sorting of one
    column (a Python loop over the columns costs the same).

    Examples
    --------
    >>> import fastpr.spark
    >>> df = spark.createDataFrame([(1, 0.9), (0, 0.8), (1, 0.7), (1, 0.6), (0, 0.6), (0, 0.1)],
    ...                            "y int, s double")  # doctest: +SKIP
    >>> round(fastpr.spark.evaluate(df, label="y", score="s").auc_pr, 4)  # doctest: +SKIP
    0.7407

    Several models' score columns of one table, in one call:

    >>> df = spark.createDataFrame([(1, 0.9, 0.1), (0, 0.8, 0.2), (1, 0.7, 0.3), (0, 0.1, 0.4)],
    ...                            "y int, good double, bad double")  # doctest: +SKIP
    >>> batch = fastpr.spark.evaluate(df, label="y", score=["good", "bad"])  # doctest: +SKIP
    >>> batch.index, batch.auc_roc  # doctest: +SKIP
    (array(['good', 'bad'], dtype=object), array([0.75, 0.25]))
    """
    columns = _columns(df, label, score, weight, groups)
    if groups is not None:
        if not isinstance(columns["score"], str):
            # As fastpr.evaluate refuses a table of models (2-D y_score) with groups.
            raise InputValueError("groups splits one ranking, so {argument} must name one "
                                  "column, not a list of {n}.", argument="score",
                                  n=len(columns["score"]))
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
    df, label, weight, pos_label
        As in :func:`evaluate`.
    score : str
        Name of the score column: one only (a list raises ``TypeError``).

    Returns
    -------
    Accumulator
        Every distinct score with its total positive and negative weight, as
        :meth:`fastpr.Accumulator.update` would hold after the collected rows:
        ``accumulate(...).evaluate()`` equals :func:`evaluate`, and ``accumulate(...).sweep()``
        is the :class:`fastpr.SweptRanking` of the rows, which every curve function, figure and
        operating-point query reads in place of the data.

    Notes
    -----
    The driver holds one entry per distinct score (24 bytes): use it where they are few. The
    state keeps each score's total weights, not how many rows made them, so it is not what a
    bootstrap resamples; :func:`bootstrap` keeps the row count of each distinct (score, label,
    weight) cell, from which the bootstrap of the rows follows exactly. One score column only:
    for several models, call it once per column (:func:`evaluate` takes a list).
    """
    if isinstance(score, (list, tuple)):
        raise InputTypeError("accumulate takes one score column, got a list of {n}: call it once "
                             "per model (evaluate takes a list).", argument="score", n=len(score))
    columns = _columns(df, label, score, weight, None)
    return _aggregated(df, columns, pos_label, None)[0]


def _arrow_schema(selected):
    """The Arrow schema of ``selected``'s rows, as mapInArrow hands them to a partition."""
    from pyspark.sql.pandas.types import to_arrow_schema
    return to_arrow_schema(selected.schema)


def _selected(df, columns):
    """The label, score (one column) and weight columns of ``df``."""
    return df.select(*[columns[argument] for argument in ("label", "score", "weight")
                       if argument in columns])


def _ranked(df, columns, pos_label, strategy, n_ranges, max_driver_entries):
    """The Evaluation of one ranking, or the EvaluationBatch of several models (a list of score
    columns), by the strategy chosen (see "How it works")."""
    several = not isinstance(columns["score"], str)
    models = [dict(columns, score=name) for name in columns["score"]] if several else [columns]
    evaluations = None
    if strategy != "ranges":
        # One decision for all the models, as the cap bounds what the driver holds in all: the
        # one job that adds up every model's pairs tells only their total, and a model with
        # many scores takes the ranges however few the others have.
        cap = None if strategy == "driver" else max_driver_entries
        accumulators = _aggregated(df, columns, pos_label, cap)
        if accumulators is not None:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UndefinedMetricWarning)  # warned by evaluate
                evaluations = [accumulator.evaluate() for accumulator in accumulators]
    if evaluations is None:
        n_ranges = 2 * df.rdd.getNumPartitions() if n_ranges is None else n_ranges
        evaluations = [_sample_sorted(_selected(df, model), model, pos_label, n_ranges)
                       for model in models]
    if not several:
        return evaluations[0]
    return EvaluationBatch(index=np.array(columns["score"], dtype=object), index_name="model",
                           **{name: np.array([getattr(evaluation, name)
                                              for evaluation in evaluations])
                              for name in _BATCH_FIELDS})


def _sample_sorted(selected, columns, pos_label, n_ranges):
    """The Evaluation of one ranking by the sample sort (the ranges)."""
    return _range_sorted(selected, columns, pos_label,
                         _range_boundaries(selected, columns, pos_label, n_ranges))


def _range_boundaries(selected, columns, pos_label, n_ranges):
    """The boundaries of ``n_ranges`` score ranges of about as many rows each: quantiles of a
    sample of the scores. The JVM reads them as doubles to sample and route them: scores of
    another type than a number or a bool (which are 0 and 1) are checked by the input layer
    first, in each partition, so that they get its error rather than Spark's cast's."""
    score = columns["score"]
    if not isinstance(selected.schema[score].dataType, _REAL_TYPES):
        _check_partitions(selected, columns, pos_label)
    sample, rows_each = _sampled_scores(selected, score)
    return _partitioned.boundaries([(sample, rows_each)], n_ranges) if sample.size else (
        np.empty(0))


def _sampled_scores(selected, score):
    """(sorted finite scores of about _SAMPLE_ROWS of the rows, drawn at random in the JVM,
    the number of rows each stands for)."""
    n_rows = selected.count()
    fraction = min(1.0, _SAMPLE_ROWS / max(n_rows, 1))
    values = selected.select(F.col(score).cast("double")).sample(
        fraction=fraction, seed=0).toArrow().column(0).to_numpy(zero_copy_only=False)
    values = np.sort(values[np.isfinite(values)])  # nulls (NaN here) are for the checks
    return values, n_rows / max(values.size, 1)


def _aggregated(df, columns, pos_label, cap):
    """The Accumulators, one per score column, of the distinct (score, label) pairs with their
    total weight, added up in the JVM in one job (the models' pairs keyed by model number) and
    checked by the input layer on the driver, model by model; None when there are more than
    ``cap`` of them in all."""
    label, weight = columns["label"], columns.get("weight")
    several = not isinstance(columns["score"], str)
    sums = [F.count(F.lit(1)).alias("total")] if weight is None else [
        F.sum(weight).alias("total"), F.min(weight).alias("least")]
    if several:
        pairs = _exploded(df, columns, pos_label).groupBy(_MODEL, _SCORE, label).agg(*sums)
    else:
        pairs = _selected(df, columns).groupBy(columns["score"], label).agg(*sums)
    if cap is not None:
        pairs = pairs.limit(cap + 1)
    table = pairs.toArrow()
    if cap is not None and table.num_rows > cap:
        return None
    if not several:
        return [_accumulated(table, columns["score"], df, columns, pos_label)]
    models = table.column(_MODEL).to_numpy()
    order = np.argsort(models, kind="stable")
    table = table.take(order)
    ends = np.cumsum(np.bincount(models, minlength=len(columns["score"])))
    return [_accumulated(table.slice(end - size, size), _SCORE, df,
                         dict(columns, score=name), pos_label)
            for name, end, size in zip(columns["score"], ends, np.diff(ends, prepend=0))]


# Spark types whose values a double holds as fastpr reads them (bool as 0 and 1), so that
# score columns of different ones can share the array of _exploded, as NumPy stacks a table's
# columns into float64.
_REAL_TYPES = (T.BooleanType, T.ByteType, T.ShortType, T.IntegerType, T.LongType, T.FloatType,
               T.DoubleType)
_MODEL, _SCORE = "__fastpr_model", "__fastpr_score"


def _exploded(df, columns, pos_label):
    """One row (label, [weight], model number, score) per row and score column of ``df``."""
    names = columns["score"]
    scores = [F.col(name) for name in names]
    types = [df.schema[name].dataType for name in names]
    if len(set(types)) > 1:
        # An array holds one type: Spark would cast the columns to a common one (strings to
        # numbers, decimals to doubles), which the input layer might refuse in the column
        # itself. A column of another type is checked alone first, and raises its error.
        for name, kind in zip(names, types):
            if not isinstance(kind, _REAL_TYPES):
                _aggregated(df, dict(columns, score=name), pos_label, None)
        scores = [score.cast("double") for score in scores]
    kept = [columns[argument] for argument in ("label", "weight") if argument in columns]
    return df.select(*kept, F.posexplode(F.array(*scores)).alias(_MODEL, _SCORE))


def _accumulated(table, score, df, columns, pos_label):
    """The Accumulator of one score column's pairs, the rows of ``table`` (its scores in column
    ``score``), checked by the input layer; where they fail, the error of the first failing
    row of ``df``'s columns, as ``columns`` names them."""
    weight = columns.get("weight")
    try:
        aggregated = dict(columns, score=score, **({"weight": "total"} if weight else {}))
        result = _checked(None, table.drop_columns(["least"]) if weight else table,
                          aggregated, pos_label)
        if isinstance(result, _partitioned.Failure):
            raise result.error
        if weight is not None:
            _validation.nonnegative("sample_weight", _column(table, "least"))
    except InputError as error:
        _raise_first_failure(_selected(df, columns), columns, pos_label, error)
    if result is None or (weight is not None and not result[2].any()):
        _raise_empty(columns, result is None)
    is_positive, scores, weights, _ = result
    weights = np.ones(scores.size) if weights is None else weights
    if weight is None:  # counts: exact in int64
        weights = _column(table, "total")
    zero = np.zeros_like(weights)
    return Accumulator.from_arrays(scores, np.where(is_positive, weights, zero),
                                   np.where(is_positive, zero, weights))


def _raise_first_failure(selected, columns, pos_label, error):
    """Raise the error of the first partition that fails the input layer, with its row, as
    ``fastpr.evaluate`` finds it; where every partition passes on its own (a third label in
    all, weights whose total overflows), ``error``, found in all the rows together."""
    _check_partitions(selected, columns, pos_label)
    _raise_partition_error(None, error, columns)


def _check_partitions(selected, columns, pos_label):
    """Check each partition on its executor with the input layer, and raise the first failure
    with its row; then the union of the labels, as one ``y_true``."""
    schema = _arrow_schema(selected)
    collected = selected.mapInArrow(_check_partition(columns, pos_label, schema),
                                    "meta binary").collect()
    _checked_metas([pickle.loads(row.meta) for row in collected], columns, pos_label)


def _partition_records(columns, pos_label, schema, passed):
    """A mapInArrow function that checks one partition and yields its record: its failure, or
    its rows and labels with what ``passed(checked rows)`` adds (a dict)."""
    @_partitioned.task
    def record(batches):
        number = TaskContext.get().partitionId()
        table = _table(batches, schema)
        result = _checked(number, table, columns, pos_label)
        if isinstance(result, _partitioned.Failure):
            meta = dict(number=number, error=result.error)
        else:
            meta = dict(number=number, error=None, n_rows=table.num_rows,
                        labels=_partitioned.labels(_column(table, columns["label"])),
                        **passed(result))
        yield pa.RecordBatch.from_pydict({"meta": [pickle.dumps(meta)]})
    return record


def _check_partition(columns, pos_label, schema):
    """The mapInArrow function that checks one partition: its record (labels or failure)."""
    return _partition_records(columns, pos_label, schema, lambda result: dict(weighs=True))


def _raise_empty(columns, no_rows):
    if no_rows:
        raise InputValueError("{argument} column {column!r} is empty: the DataFrame holds no "
                              "rows to evaluate.", argument="score", column=columns["score"])
    raise InputValueError("{argument} column {column!r} is zero everywhere, so there is "
                          "nothing to evaluate.", argument="weight", column=columns["weight"])


def _range_sorted(selected, columns, pos_label, boundaries):
    """The Evaluation of one ranking by the sample sort of "How it works"."""
    ranged, metas = _by_range(selected, columns, pos_label, boundaries,
                              _summarise_range(columns, pos_label), _RANGED)
    try:
        if not any(meta["weighs"] for meta in metas):
            _raise_empty(columns, not metas)
        summaries = {meta["range"]: meta["summary"] for meta in metas}
        # Highest scores first; a range without rows passes on what an empty segment does.
        order = list(reversed(range(boundaries.size + 1)))
        empty = _partitioned.summarised_range()[1]
        starts = dict(zip(order, _partitioned.carried_states(
            [summaries.get(r, empty) for r in order])))
        # Each range's entries lie in one partition of ``ranged``: sweep them where they are
        # (a second groupBy would shuffle them again).
        swept = ranged.where(F.col("meta").isNull()).mapInArrow(
            _sweep_ranges(starts), "range int, meta binary").collect()
    finally:
        ranged.unpersist()
    results = {row.range: pickle.loads(row.meta) for row in swept}
    return _partitioned.joined([results.get(r) for r in order])


def _by_range(selected, columns, pos_label, boundaries, reduce, schema):
    """(each score range's rows reduced on its executor by ``reduce``, persisted; the ranges'
    records): ``reduce`` is an applyInArrow function that writes a range's entries, then one
    row holding its record (``meta``). The first failure found, if any, is raised (with its
    row, as :func:`evaluate` raises it), and the union of the ranges' labels is checked; the
    caller unpersists the ranges."""
    routed = selected.withColumn(_RANGE, _range_code(columns["score"], boundaries))
    ranged = routed.groupBy(_RANGE).applyInArrow(reduce, schema)
    ranged.persist(StorageLevel.MEMORY_AND_DISK)
    try:
        metas = [pickle.loads(row.meta) for row in
                 ranged.where(F.col("meta").isNotNull()).select("meta").collect()]
        failures = [meta["error"] for meta in metas if meta["error"] is not None]
        if failures:
            _raise_first_failure(selected, columns, pos_label, failures[0])
        try:
            _partitioned.check_labels([meta["labels"] for meta in metas], pos_label)
        except InputError as error:
            _raise_first_failure(selected, columns, pos_label, error)
    except BaseException:
        ranged.unpersist()
        raise
    return ranged, metas


def _range_code(score, boundaries):
    """The range of each row's score (column ``score``), computed in the JVM: range r holds
    boundaries[r - 1] <= score < boundaries[r], as CompactedSegment.cut, so the number of
    boundaries at or below the score. NaN compares above every number and lands in the top
    range, a null in a range of its own; their task refuses them."""
    score = F.col(score).cast("double")  # (a bool as 0 or 1)
    return sum((F.when(score >= float(b), 1).otherwise(0) for b in boundaries.tolist()),
               F.lit(0)).cast("int")


def _summarise_range(columns, pos_label):
    """The applyInArrow function that checks, compacts and summarises one score range: its
    entries, then one row holding its record (summary, labels, or the failure)."""
    @_partitioned.task
    def summarise(key, table):
        r = key[0].as_py()
        result = _checked(None, table, columns, pos_label)
        if isinstance(result, _partitioned.Failure):
            meta = dict(range=r, error=result.error)
            segment = CompactedSegment.empty()
        else:
            segment, summary = _partitioned.summarised_range(_partitioned.compacted(*result[:3]))
            meta = dict(range=r, error=None, summary=summary, weighs=bool(segment.size),
                        labels=_partitioned.labels(_column(table, columns["label"])))
        n = segment.size
        return pa.table({"range": pa.array([r if r is not None else -1] * (n + 1), pa.int32()),
                         "score": np.r_[segment.scores, np.nan],
                         "pos": np.r_[segment.pos_weight.astype(np.float64), np.nan],
                         "neg": np.r_[segment.neg_weight.astype(np.float64), np.nan],
                         "meta": [None] * n + [pickle.dumps(meta)]})
    return summarise


def _sweep_ranges(starts):
    """The mapInArrow function that resumes the sweep of each range of a partition of the
    summarised ranges from its carried state: one row (range, pickled result) per range."""
    @_partitioned.task
    def sweep(batches):
        table = pa.Table.from_batches(list(batches), schema=_RANGED_SCHEMA)
        ranges = table.column("range").to_numpy()
        if not ranges.size:
            return
        # A range's entries come in one block, in ascending order, as they were written; sort
        # them where they did not stay so.
        order = np.argsort(ranges, kind="stable")
        ranges = ranges[order]
        columns = [table.column(name).to_numpy()[order] for name in ("score", "pos", "neg")]
        cuts = np.flatnonzero(np.diff(ranges)) + 1
        for block in np.split(np.arange(ranges.size), cuts):
            scores, pos, neg = (column[block] for column in columns)
            if not np.all(scores[1:] > scores[:-1]):
                within = np.argsort(scores, kind="stable")
                scores, pos, neg = scores[within], pos[within], neg[within]
            r = int(ranges[block[0]])
            result = _partitioned.sweep_range(CompactedSegment(scores, pos, neg), starts[r])
            yield pa.RecordBatch.from_pydict({"range": pa.array([r], pa.int32()),
                                              "meta": [pickle.dumps(result)]})
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
    def evaluated(result):
        batch = None if result is None else _group_batch(*result)
        return dict(batch=batch,
                    weighs=batch is not None and bool(np.any(batch.n_pos + batch.n_neg)))
    return _partition_records(columns, pos_label, schema, evaluated)


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


# ----------------------------------------------------------------------------- bootstrap
# The column of each cell's row count.
_COUNT = "__fastpr_count"
# What the driver holds per cell, about (measured on 10^6 cells, with weights and max_f1): its
# Arrow row (score, label, weight, count: 32 bytes) and the checked and sorted arrays made from
# it; and per thread of the replicates, a replicate's weights and operating points (40 bytes).
_CELL_BYTES = 100
_CELL_BYTES_PER_THREAD = 40


@options(**BOOTSTRAP_OPTIONS, max_driver_entries=Integer(minimum=0))
def bootstrap(df, *, label, score, weight=None, pos_label=None, metric="auc_pr",
              method="interpolated", n_boot=1000, confidence=0.95, interval="percentile",
              stratified=True, resampling="multinomial", seed=None, progress=False,
              max_driver_entries=_MAX_DRIVER_ENTRIES):
    """:func:`fastpr.bootstrap` of a ranking held in a Spark DataFrame, from the row counts of
    its distinct (score, label, weight) cells.

    Parameters
    ----------
    df, label, score, weight, pos_label
        As in :func:`evaluate`.
    metric, method, n_boot, confidence, interval, stratified, resampling, seed, progress
        As in :func:`fastpr.bootstrap` (the top-k metrics without ``weight``).
    max_driver_entries : int, default=2097152
        The most entries the driver gathers (each about 100 bytes, and 40 more per thread of
        the replicates: 360 MiB at the default with two threads): distinct (score, label[,
        weight]) cells, or without weights, where the cells are more, the positive cells and
        the negatives' gap bins. More is an error, never an approximation.

    Returns
    -------
    BootstrapResult
        The estimate of :func:`fastpr.bootstrap` on the collected rows, and replicates with
        exactly the distribution of its replicates (not the same numbers for the same seed).

    Notes
    -----
    Rows that share score, label and weight are interchangeable: a replicate depends on them
    only through the number drawn into their cell, and drawing the rows with replacement gives
    the cells a multinomial of their row counts (Poisson resampling: a Poisson of each count).
    Spark counts the rows of each cell (one ``groupBy``) and the driver draws the cells' totals
    directly, so the result is exact, not an approximation of the rows' bootstrap: the same
    estimate, and replicates of the same distribution. The BCa jackknife is computed from the
    cells too; it equals ``fastpr.bootstrap``'s on the rows sorted by score (and weight) within
    each class, as Spark's rows have no order of their own. The cells are sorted on the driver,
    so the result depends on the seed alone, not on the partitioning.

    Without weights, a bootstrap draws the negatives between two positive scores as one (their
    gap bin). So where the cells are more than ``max_driver_entries``, the rows are routed to
    score ranges as by :func:`evaluate`'s "ranges" strategy, and each range, on its executor,
    becomes its positive cells and its negatives' gap bins (a bin cut where a range ends is
    merged again on the driver): the driver gathers O(positive cells) entries, and the result
    is the same.

    Cost: one aggregation in the JVM (and the ranges' pass where it finds too many cells); on
    the driver, memory for each entry and per replicate O(cells), or O(positive cells) without
    weights. Weighted data with many distinct scores needs a larger ``max_driver_entries``.

    Errors are those of :func:`evaluate` (nulls, NaN, negative weights, a third label, no rows,
    zero weight everywhere, found with their partition and row).

    Examples
    --------
    >>> import fastpr.spark
    >>> df = spark.createDataFrame([(1, 0.9), (0, 0.8), (1, 0.7), (1, 0.6), (0, 0.6), (0, 0.1)],
    ...                            "y int, s double")  # doctest: +SKIP
    >>> b = fastpr.spark.bootstrap(df, label="y", score="s", n_boot=200, seed=1)  # doctest: +SKIP
    >>> round(b.estimate, 4)  # doctest: +SKIP
    0.7407
    """
    if isinstance(score, (list, tuple)):
        raise InputTypeError("{argument} must name one score column: the bootstrap takes one "
                             "model's scores, got a {kind}; bootstrap each column in turn.",
                             argument="score", kind=type(score).__name__)
    columns = _columns(df, label, score, weight, None)
    keys = [columns[argument] for argument in ("score", "label", "weight")
            if argument in columns]
    selected = df.select(*keys)
    cells = selected.groupBy(*keys).agg(F.count(F.lit(1)).alias(_COUNT))
    table = cells.limit(max_driver_entries + 1).toArrow()
    if table.num_rows <= max_driver_entries:
        scores, is_positive, weights = _checked_cells(selected, table.drop_columns([_COUNT]),
                                                      columns, pos_label)
        counts = _column(table, _COUNT)
    elif weight is None:
        scores, is_positive, counts = _binned_cells(selected, columns, pos_label,
                                                    max_driver_entries)
        weights = None
    else:
        _refuse_cells(cells.count(), max_driver_entries, "distinct (score, label, weight) cells")
    # (``metric`` arrives parsed by the options, or as the default string; bootstrap_cells
    # checks it again as text)
    return bootstrap_cells(scores, is_positive, counts, weights,
                           metric=_validation.metric_spec(metric).text, method=method,
                           n_boot=n_boot, confidence=confidence, interval=interval,
                           stratified=stratified, resampling=resampling, seed=seed,
                           progress=progress)


def _refuse_cells(found, max_driver_entries, what):
    """Raise that ``found`` entries (``what``) are more than the driver may gather."""
    size = _CELL_BYTES + _CELL_BYTES_PER_THREAD * thread_count()
    raise InputValueError(
        "the DataFrame holds {found} {what}, more than {argument}={limit} lets the driver "
        "gather (about {size} bytes each here, {total} MiB in all): raise {argument}, or round "
        "the scores.", argument="max_driver_entries", found=found, what=what,
        limit=max_driver_entries, size=size, total=max(1, round(found * size / 2**20)))


def _binned_cells(selected, columns, pos_label, max_driver_entries):
    """(scores, is_positive, counts) of unweighted rows with more distinct scores than
    ``max_driver_entries``: the positive cells and the negatives' gap bins, each score range
    (as the "ranges" strategy of :func:`evaluate` routes the rows) reduced on its executor by
    ``_partitioned.binned_cells``, so the driver receives O(positive cells) entries."""
    boundaries = _range_boundaries(selected, columns, pos_label,
                                   2 * selected.rdd.getNumPartitions())
    reduced, metas = _by_range(selected, columns, pos_label, boundaries,
                               _bin_range(columns, pos_label), _BINNED)
    try:
        if not metas:
            _raise_empty(columns, True)
        found = sum(meta["n_entries"] for meta in metas)
        if found > max_driver_entries:
            _refuse_cells(found, max_driver_entries, "positive cells and gap bins of negatives "
                          "(without weights, what the driver gathers of many distinct scores)")
        table = reduced.where(F.col("meta").isNull()).select(
            "score", "positive", "count").toArrow()
    finally:
        reduced.unpersist()
    return (_column(table, "score"), _column(table, "positive").astype(bool),
            _column(table, "count"))


# Columns of the binned ranges: entries, then one row per range holding its record.
_BINNED = "range int, score double, positive boolean, count long, meta binary"


def _bin_range(columns, pos_label):
    """The applyInArrow function that checks one score range of unweighted rows and reduces it
    to its positive cells and its negatives' gap bins, then one row holding its record (the
    number of entries and the labels, or the failure)."""
    @_partitioned.task
    def reduce(key, table):
        r = key[0].as_py()
        result = _checked(None, table, columns, pos_label)
        if isinstance(result, _partitioned.Failure):
            meta = dict(range=r, error=result.error)
            pos = pos_counts = neg = neg_counts = np.empty(0)
        else:
            pos, pos_counts, neg, neg_counts = _partitioned.binned_cells(*result[:2])
            meta = dict(range=r, error=None, n_entries=pos.size + neg.size,
                        labels=_partitioned.labels(_column(table, columns["label"])))
        n = pos.size + neg.size
        return pa.table({"range": pa.array([r if r is not None else -1] * (n + 1), pa.int32()),
                         "score": np.r_[pos, neg, np.nan],
                         "positive": np.r_[np.ones(pos.size, bool), np.zeros(neg.size + 1,
                                                                              bool)],
                         "count": np.r_[pos_counts, neg_counts, 0].astype(np.int64),
                         "meta": [None] * n + [pickle.dumps(meta)]})
    return reduce


def _checked_cells(selected, table, columns, pos_label):
    """(scores, is_positive, weights or None) of the cells, checked by the input layer as one
    y_true / y_score / sample_weight; a failure is raised as :func:`evaluate` raises it, with
    the first failing row found on the executors."""
    try:
        result = _checked(None, table, columns, pos_label)
        if isinstance(result, _partitioned.Failure):
            raise result.error
    except InputError as error:
        _raise_first_failure(selected, columns, pos_label, error)
    if result is None or ("weight" in columns and not result[2].any()):
        _raise_empty(columns, result is None)
    is_positive, scores, weights, _ = result
    return scores, is_positive, weights
