"""Columns of a predictions file (CSV, Parquet or .npz) as NumPy arrays.

CSV is read by pyarrow when it is installed (the fastest), else by pandas, else by the standard
library's csv module; Parquet needs pyarrow (the ``parquet`` extra). Empty cells of numeric
columns become NaN, so that validation reports them with their row.
"""
import csv
import importlib.util
import operator
from pathlib import Path

import numpy as np

from . import _validation
from ._optional import import_optional

FORMATS = {".csv": "csv", ".txt": "csv", ".parquet": "parquet", ".pq": "parquet", ".npz": "npz"}


def file_format(path):
    """'csv', 'parquet' or 'npz', from the file name's suffix."""
    return _validation.choice_of_suffix(Path(path), FORMATS)


def read_columns(path, columns, *, reader=None):
    """The named columns of ``path`` as a dict of 1-D arrays, in the order asked for.

    Parameters
    ----------
    path : str or Path
        A ``.csv`` (or ``.txt``), ``.parquet`` (or ``.pq``) or ``.npz`` file.
    columns : sequence of str
        Column names (the CSV header, the Parquet schema, the .npz array names).
    reader : {"pyarrow", "pandas", "csv"}, optional
        For CSV only: which reader to use; by default the fastest one installed.

    Examples
    --------
    >>> import numpy as np, tempfile, os
    >>> from fastpr.io import read_columns
    >>> path = os.path.join(tempfile.mkdtemp(), "p.npz")
    >>> np.savez(path, label=[0, 1, 1], score=[0.2, 0.9, 0.4])
    >>> read_columns(path, ["score", "label"])
    {'score': array([0.2, 0.9, 0.4]), 'label': array([0, 1, 1])}
    """
    path = Path(path)
    kind = file_format(path)
    columns = list(dict.fromkeys(columns))
    if kind == "npz":
        with np.load(path, allow_pickle=False) as arrays:
            _validation.columns_present(columns, arrays.files, path)
            return {name: np.asarray(arrays[name]) for name in columns}
    if kind == "parquet":
        parquet = import_optional("pyarrow.parquet", "parquet")
        _validation.columns_present(columns, parquet.read_schema(path).names, path)
        table = parquet.read_table(path, columns=columns)
        return {name: _from_arrow(table.column(name)) for name in columns}
    with open(path, newline="") as handle:
        header = next(csv.reader(handle), [])
    _validation.columns_present(columns, header, path)
    if reader is not None:
        return _CSV_READERS[_validation.choice("reader", reader, tuple(_CSV_READERS))](
            path, columns, header)
    try:
        return _CSV_READERS[_fastest_csv_reader()](path, columns, header)
    except ValueError:  # a malformed row: the csv module's reader says which one
        return _read_with_csv(path, columns, header)


def _fastest_csv_reader():
    for module in ("pyarrow", "pandas"):
        if importlib.util.find_spec(module) is not None:
            return module
    return "csv"


def _from_arrow(column):
    """Nulls become NaN in numeric columns; other columns become strings."""
    import pyarrow  # only reached after pyarrow was imported to read the file

    kind = column.type
    if pyarrow.types.is_integer(kind) or pyarrow.types.is_floating(kind):
        if column.null_count:
            return column.to_numpy(zero_copy_only=False).astype(np.float64)
        return column.to_numpy()
    if pyarrow.types.is_boolean(kind) and not column.null_count:
        return column.to_numpy(zero_copy_only=False)
    return np.asarray(column.cast(pyarrow.string()).to_pylist(), dtype=str)


def _read_with_pyarrow(path, columns, header):
    pyarrow_csv = import_optional("pyarrow.csv", "parquet")
    table = pyarrow_csv.read_csv(
        path, convert_options=pyarrow_csv.ConvertOptions(include_columns=columns))
    return {name: _from_arrow(table.column(name)) for name in columns}


def _read_with_pandas(path, columns, header):
    pandas = importlib.import_module("pandas")
    frame = pandas.read_csv(path, usecols=columns)
    out = {}
    for name in columns:
        values = frame[name].to_numpy()
        out[name] = values if values.dtype.kind in "biuf" else values.astype(str)
    return out


def _read_with_csv(path, columns, header):
    """Standard library only: rows into columns, then one conversion per column."""
    pick = operator.itemgetter(*[header.index(name) for name in columns])
    with open(path, newline="") as handle:
        rows = csv.reader(handle)
        next(rows)
        try:
            picked = [pick(row) for row in rows if row]
        except IndexError:
            picked = None
    if picked is None:
        _validation.short_csv_row(path, _first_short_row(path, max(header.index(c) for c in columns)))
    if len(columns) == 1:
        picked = [(value,) for value in picked]
    values = list(zip(*picked)) if picked else [()] * len(columns)
    return {name: _numbers_or_text(column) for name, column in zip(columns, values)}


def _first_short_row(path, last_index):
    """The data row (from 1) of the first non-empty line with too few fields."""
    with open(path, newline="") as handle:
        rows = csv.reader(handle)
        next(rows)
        for number, row in enumerate((row for row in rows if row), start=1):
            if len(row) <= last_index:
                return number
    return None


def _numbers_or_text(texts):
    """Integers, else floats (empty cells NaN), else the text itself."""
    text = np.asarray(texts, dtype=str)
    try:
        return text.astype(np.int64)
    except ValueError:
        pass
    try:
        return np.where(text == "", "nan", text).astype(np.float64)
    except ValueError:
        return text


_CSV_READERS = {"pyarrow": _read_with_pyarrow, "pandas": _read_with_pandas, "csv": _read_with_csv}
