"""Result types: one ranking's row (:class:`Evaluation`), the table of many rankings
(:class:`EvaluationBatch`), and what they have in common; the one reader of the engine's rows."""
import dataclasses
import math
from dataclasses import dataclass

import numpy as np

from ._engine.kernels import layout
from ._validation import OneOf, options
from .exceptions import InputTypeError


def _plain(value):
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    if dataclasses.is_dataclass(value):
        return value.to_dict()
    return value


def _short(value):
    if isinstance(value, np.ndarray):
        return f"array(shape={value.shape}, dtype={value.dtype})"
    if isinstance(value, float):
        return f"{value:.6g}"
    return repr(value)


def _same(a, b):
    """Equal values: arrays element by element, NaN equal to NaN (the same result twice)."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        a, b = np.asarray(a), np.asarray(b)
        try:
            return bool(np.array_equal(a, b, equal_nan=True))
        except TypeError:  # (labels and names: no NaN to find)
            return bool(np.array_equal(a, b))
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return bool(a == b)


def _hash_key(value):
    """A hashable stand-in for a field, equal wherever ``_same`` says equal (one NaN, one zero)."""
    if isinstance(value, np.ndarray):
        if value.dtype.kind == "f":
            canonical = np.where(np.isnan(value), np.nan, value + 0.0)  # (-0.0 + 0.0 is 0.0)
            return value.shape, canonical.tobytes()
        return value.shape, tuple(value.ravel().tolist())
    if isinstance(value, float) and math.isnan(value):
        return "nan"
    return value


class Result:
    """Mixin for frozen dataclasses of scalars and arrays (declared with ``eq=False``: the
    comparison is this one's, which compares arrays element by element)."""

    def to_dict(self):
        """Fields as plain Python values (arrays become lists): ``json.dumps`` writes them, NaN
        and infinities (the origin's threshold) as NaN and Infinity, which not every JSON
        reader takes."""
        return {f.name: _plain(getattr(self, f.name)) for f in dataclasses.fields(self)}

    def __eq__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return all(_same(getattr(self, f.name), getattr(other, f.name))
                   for f in dataclasses.fields(self))

    def __hash__(self):
        return hash((type(self).__name__,
                     *(_hash_key(getattr(self, f.name)) for f in dataclasses.fields(self))))

    def __repr__(self):
        fields = dataclasses.fields(self)
        body = ", ".join(f"{f.name}={_short(getattr(self, f.name))}" for f in fields)
        return f"{type(self).__name__}({body})"


# Each AUC-PR estimator (a method of fastpr.auc_pr) and the Evaluation field that holds it.
_METHOD_FIELDS = {
    "interpolated": "auc_pr",
    "davis_goadrich": "auc_pr_dg",
    "average_precision": "average_precision",
    "lower_trapezoid": "auc_pr_lower",
    "upper_trapezoid": "auc_pr_upper",
    "linear": "auc_pr_linear",
    "hull": "auc_pr_hull",
}
PR_METHODS = tuple(_METHOD_FIELDS)
# Each Evaluation field and its column in the engine's rows (fastpr._engine.kernels.layout),
# which hold the fields in this order (so that a row reads into an Evaluation positionally).
COLUMNS = {name: column for column, name in enumerate(layout.FIELDS)}


def method_field(method):
    """The Evaluation field that holds the area of a (checked) :func:`auc_pr` method."""
    return _METHOD_FIELDS[method]


@dataclass(frozen=True, repr=False, eq=False)
class Evaluation(Result):
    """Every summary of one ranking, from one sort and one pass.

    ``n_pos``/``n_neg`` are total weights (counts when unweighted). ``auc_pr`` is the
    ``interpolated`` area; ``auc_pr_min`` (the worst ranking's area) and ``auc_npr`` belong to it.
    """

    n_pos: float
    n_neg: float
    prevalence: float
    n_thresholds: int
    auc_roc: float
    auc_roc_hull: float
    auc_pr: float
    auc_pr_dg: float
    average_precision: float
    auc_pr_lower: float
    auc_pr_upper: float
    auc_pr_linear: float
    auc_pr_hull: float
    auc_pr_min: float
    auc_npr: float

    @classmethod
    def from_row(cls, row):
        """The Evaluation of one row of the engine's results."""
        # ``row`` in the layout of fastpr._engine.kernels.layout.
        values = row[: len(COLUMNS)].tolist()
        values[layout.N_THRESHOLDS] = int(values[layout.N_THRESHOLDS])
        return cls(*values)

    @options(method=OneOf(PR_METHODS))
    def area(self, method):
        """The AUC-PR of one estimator, by its :func:`auc_pr` method name."""
        return getattr(self, _METHOD_FIELDS[method])


@dataclass(frozen=True, repr=False, eq=False)
class MacroAverage(Result):
    """The mean of one metric over the rankings where it is defined, and what it left out."""

    metric: str
    value: float
    n_used: int
    n_undefined: int


@dataclass(frozen=True, repr=False, eq=False)
class EvaluationBatch(Result):
    """:class:`fastpr.Evaluation` of many rankings: the same fields, as arrays of one entry each.

    ``index`` names each ranking: row numbers of a 2-D batch, column names of a table of models
    (a DataFrame or a dict of scores), group ids (sorted) for ``groups=``, segment numbers for
    ``offsets=``, class labels for :mod:`fastpr.multiclass`. ``index_name`` says which
    ("ranking", "model", "group" or "class"). Rankings without positives (or, for the ROC
    metrics and ``auc_npr``, without negatives) hold NaN; ``n_pos`` and ``n_neg`` show why and
    :meth:`macro` leaves them out of the mean. ``result[i]`` is the :class:`Evaluation` of
    ranking ``i``, equal to a single call on it.
    """

    index: np.ndarray
    index_name: str
    n_pos: np.ndarray
    n_neg: np.ndarray
    prevalence: np.ndarray
    n_thresholds: np.ndarray
    auc_roc: np.ndarray
    auc_roc_hull: np.ndarray
    auc_pr: np.ndarray
    auc_pr_dg: np.ndarray
    average_precision: np.ndarray
    auc_pr_lower: np.ndarray
    auc_pr_upper: np.ndarray
    auc_pr_linear: np.ndarray
    auc_pr_hull: np.ndarray
    auc_pr_min: np.ndarray
    auc_npr: np.ndarray

    def __len__(self):
        return self.n_pos.size

    def __getitem__(self, i):
        """The :class:`Evaluation` of ranking ``i`` (a position, not an ``index`` label)."""
        if not isinstance(i, (int, np.integer)) or isinstance(i, bool):
            raise InputTypeError("{argument} must be an integer, got {value!r}: batch[i] is "
                                 "ranking i's Evaluation, and the fields are arrays to slice "
                                 "(batch.auc_pr[0:2]).", argument="i", value=i)
        return Evaluation(**{f.name: getattr(self, f.name)[i].item()
                             for f in dataclasses.fields(Evaluation)})

    @property
    def n_undefined_pr(self):
        """How many rankings have no positives, so that every PR area is NaN."""
        return int(np.count_nonzero(self.n_pos == 0))

    @property
    def n_undefined_roc(self):
        """How many rankings lack positives or negatives, so that AUC-ROC is NaN."""
        return int(np.count_nonzero((self.n_pos == 0) | (self.n_neg == 0)))

    @options(method=OneOf(PR_METHODS))
    def area(self, method):
        """The AUC-PR of one estimator for every ranking, by its :func:`auc_pr` method name."""
        return getattr(self, method_field(method))

    @classmethod
    def from_table(cls, table, index, index_name):
        """The batch of a table of the engine's rows, field for field as
        :meth:`Evaluation.from_row`, ``index`` naming the rankings and ``index_name`` saying what
        they are."""
        columns = {name: table[:, column].copy() for name, column in COLUMNS.items()}
        columns["n_thresholds"] = columns["n_thresholds"].astype(np.int64)
        return cls(index=np.asarray(index), index_name=index_name, **columns)

    @options(metric=OneOf(tuple(COLUMNS)))
    def macro(self, metric="auc_pr"):
        """Mean of ``metric`` (a field name) over the rankings where it is defined (not NaN).

        ``macro("average_precision")`` over queries is the mean average precision (MAP).
        """
        values = getattr(self, metric)
        value, n_used = defined_mean(values)
        return MacroAverage(metric, value, n_used, values.size - n_used)

    def to_frame(self):
        """A pandas DataFrame, one row per ranking, indexed by ``index`` (needs pandas)."""
        import pandas as pd

        columns = {f.name: getattr(self, f.name) for f in dataclasses.fields(Evaluation)}
        return pd.DataFrame(columns, index=pd.Index(self.index, name=self.index_name))


def defined_mean(values):
    """(mean of the values that are not NaN, how many there are); NaN when none is."""
    defined = values[~np.isnan(values)]
    return (float(defined.mean()) if defined.size else math.nan), int(defined.size)
