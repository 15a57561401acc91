"""Result types: one ranking's row (:class:`Evaluation`), the table of many rankings
(:class:`EvaluationBatch`), and what they have in common; the one reader of the engine's rows."""
import dataclasses
import math
import textwrap
from dataclasses import dataclass

import numpy as np

from ._engine.kernels import layout
from ._validation import OneOf, options
from ._optional import import_optional
from .exceptions import InputTypeError


def _plain(value):
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    if dataclasses.is_dataclass(value):
        return value.to_dict()
    return value


# What a printed result looks like (Result.__repr__): pandas' DataFrame layout, without pandas.
WIDTH = 79  # characters of a printed line: tables wrap their columns into blocks that fit
DIGITS = 4  # significant digits of a printed number (more where its integer part has more)
_MAX_ROWS = 20  # a longer table prints its first and last _END_ROWS rows around "..."
_END_ROWS = 5
P_FLOOR = 1e-16  # p-values below this print as "< 1e-16": double precision's relative spacing


def number_text(value, digits=DIGITS):
    """``value`` as a table prints it: integers (and whole floats) in full, other floats with
    ``digits`` significant digits (every digit of the integer part), scientific notation
    below 1e-4 and from 1e15, NaN as ``NaN``."""
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    value = float(value)
    if math.isnan(value):
        return "NaN"
    if math.isinf(value) or (value != 0 and not 1e-4 <= abs(value) < 1e15):
        return f"{value:.{digits}g}"
    if value.is_integer():
        return str(int(value))
    return np.format_float_positional(value, precision=max(digits, len(str(int(abs(value))))),
                                      fractional=False, trim="-")


def p_value_text(p, bound=P_FLOOR):
    """A p-value with two significant digits, or ``"< bound"`` below ``bound`` (never 0)."""
    if math.isnan(p):
        return "NaN"
    if p < bound:
        return f"< {number_text(bound, 2)}"
    return number_text(p, 2)


def _text(value):
    return value if isinstance(value, str) else number_text(value)


def _scalars(result):
    """(name, value) of a result's fields that are neither arrays nor results."""
    return [(f.name, getattr(result, f.name)) for f in dataclasses.fields(result)
            if not isinstance(getattr(result, f.name), (np.ndarray, Result))]


def _scalar_items(result):
    """The title's ``name=value``: the scalars, and arrays that are not columns by shape."""
    items = []
    for f in dataclasses.fields(result):
        value = getattr(result, f.name)
        if isinstance(value, np.ndarray) and value.ndim != 1:
            items.append(f"{f.name}=<array of shape {value.shape}>")
        elif not isinstance(value, (np.ndarray, Result)):
            items.append(f"{f.name}={value!r}" if isinstance(value, str)
                         else f"{f.name}={_text(value)}")
    return items


@dataclass(frozen=True)
class Table:
    """A table of a result: what ``repr`` prints and ``to_frame`` returns.

    ``columns`` maps each column's name to a 1-D array, all of one length; ``index`` labels
    the rows (None: no labels printed, positions in the frame) and ``index_name`` says what
    they are. ``cells`` maps a column to the printed text of each of its entries where that is
    not the number (a p-value below what its test resolves, a blank for the first model's
    difference); the frame keeps the numbers.
    """

    title: str
    columns: dict
    index: np.ndarray = None
    index_name: str = None
    cells: dict = dataclasses.field(default_factory=dict)

    def lines(self, width=WIDTH):
        """The title, then the rows in blocks of columns that fit in ``width`` characters."""
        n = len(next(iter(self.columns.values())))
        shown = (list(range(n)) if n <= _MAX_ROWS else
                 [*range(_END_ROWS), None, *range(n - _END_ROWS, n)])

        def column(name, cells):
            texts = ["..." if i is None else cells[i] for i in shown]
            return name, max([len(name), *map(len, texts)]), texts

        columns = [column(name, self.cells.get(name) or [_text(v) for v in values.tolist()])
                   for name, values in self.columns.items()]
        if self.index is not None:
            label = column(self.index_name or "", [_text(v) for v in self.index.tolist()])
        else:
            label = ("", 0, [""] * len(shown))
        blocks, used = [[]], label[1]
        for entry in columns:
            if blocks[-1] and used + 2 + entry[1] > width:
                blocks.append([])
                used = label[1]
            blocks[-1].append(entry)
            used += 2 + entry[1]
        lines = textwrap.wrap(self.title, width, subsequent_indent="  ", break_on_hyphens=False)
        for block in blocks:  # (no blank line between blocks: doctests end at one)
            rows = [(label[0], *(name for name, _, _ in block))]
            rows += [(label[2][r], *(texts[r] for _, _, texts in block))
                     for r in range(len(shown))]
            for row in rows:
                cells = [row[0].ljust(label[1])]
                cells += [text.rjust(w) for text, (_, w, _) in zip(row[1:], block)]
                lines.append("  ".join(cells).rstrip() if label[1] else
                             "  ".join(cells[1:]).rstrip())
        if n > _MAX_ROWS:
            lines.append(f"[{n} rows x {len(columns)} columns]")
        return lines


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
    comparison is this one's, which compares arrays element by element).

    A result prints its numbers as a short table, as a pandas DataFrame does but without
    pandas: a row per ranking, model or point, a column per field, :data:`DIGITS` significant
    digits, long tables elided with "..." between their first and last rows, wide ones
    wrapped into blocks of columns; ``to_frame()`` returns the same table as a DataFrame.
    """

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
        """The numbers as plain text: a short table per run of equal-length arrays (rows
        elided with "..." past 20, keeping the first and last 5; columns wrapped at 79
        characters), :data:`DIGITS` significant digits, other fields on the title line. A
        result of a few scalars prints on one line. A p-value below what its test resolves
        prints as a bound (``"< 0.005"`` for a bootstrap of 200 replicates; see
        :class:`fastpr.Comparison`)."""
        return "\n".join(self._lines(WIDTH))

    def _lines(self, width):
        tables = self._tables()
        nested = [(f.name, getattr(self, f.name)) for f in dataclasses.fields(self)
                  if isinstance(getattr(self, f.name), Result)]
        if not tables:
            line = f"{type(self).__name__}({', '.join(_scalar_items(self))})"
            if len(line) <= width or nested:
                lines = textwrap.wrap(line, width, subsequent_indent="  ",
                                      break_on_hyphens=False)
            else:
                tables = [Table(type(self).__name__, {name: np.array([value]) for name, value
                                                      in _scalars(self)})]
        if tables:
            lines = []
            for table in tables:
                lines += table.lines(width)
        for name, result in nested:
            lines += [f"{name}:", *("  " + line if line else "" for line in
                                    result._lines(width - 2))]
        return lines

    def _tables(self):
        """The tables that this result prints (a subclass may override it), the first being
        what :meth:`to_frame` returns: the 1-D arrays, a table for each length, positions as
        the index, under a title of the other fields. Empty for a result of scalars."""
        arrays = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, np.ndarray) and value.ndim == 1:
                arrays.setdefault(value.size, {})[f.name] = value
        if not arrays:
            return []
        items = _scalar_items(self)
        title = f"{type(self).__name__}({', '.join(items)})" if items else type(self).__name__
        return [Table(title if i == 0 else "", columns, np.arange(size))
                for i, (size, columns) in enumerate(arrays.items())]

    def to_frame(self):
        """The table that the result prints, as a pandas DataFrame (needs pandas: the
        ``pandas`` extra); a result of scalars as one row. Fields that are results themselves
        (an ``evaluation``) have their own ``to_frame``."""
        pd = import_optional("pandas", "pandas")
        tables = self._tables()
        if not tables:
            return pd.DataFrame({name: [value] for name, value in _scalars(self)})
        table = tables[0]
        index = None if table.index is None else pd.Index(table.index, name=table.index_name)
        return pd.DataFrame(dict(table.columns), index=index)


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

    def _tables(self):
        columns = {f.name: getattr(self, f.name) for f in dataclasses.fields(Evaluation)}
        return [Table(f"EvaluationBatch of {len(self)} rankings", columns, self.index,
                       self.index_name)]


def defined_mean(values):
    """(mean of the values that are not NaN, how many there are); NaN when none is."""
    defined = values[~np.isnan(values)]
    return (float(defined.mean()) if defined.size else math.nan), int(defined.size)
