"""Columns of a predictions file (CSV or TSV text, Parquet or .npz) as NumPy arrays.

CSV is read by pyarrow when it is installed (the fastest), else by pandas, else by the standard
library's csv module; Parquet needs pyarrow (the ``parquet`` extra). CSV and TSV files are UTF-8
text, with or without the byte-order mark that Excel writes, and may be compressed: ``.gz`` and
``.bz2`` by the standard library, ``.zst`` by pyarrow (the ``zstd`` extra). The path ``"-"``
reads CSV text from standard input. Empty cells of numeric columns become NaN, so that
validation reports them with their row; empty cells of text columns become ``""``. A file that
cannot be read as columns raises :class:`FileFormatError`.
"""
import bz2
import collections
import contextlib
import csv
import dataclasses
import gzip
import importlib.util
import io
import operator
import sys
import zipfile
import zlib
from pathlib import Path

import numpy as np

from ._optional import import_optional
from ._validation import OneOf, options
from .exceptions import InputValueError

FORMATS = {".csv": "csv", ".txt": "csv", ".tsv": "tsv", ".parquet": "parquet", ".pq": "parquet",
           ".npz": "npz"}
DELIMITERS = {"csv": ",", "tsv": "\t"}
COMPRESSIONS = (".gz", ".bz2", ".zst")  # of text files: predictions.csv.gz, predictions.tsv.zst
STDIN = "-"  # the path that reads CSV text from standard input
STDIN_NAME = "<stdin>"  # standard input's name in messages
CSV_READERS = ("pyarrow", "pandas", "csv")  # the fastest first


class FileFormatError(ValueError):
    """A file whose content cannot be read as columns of predictions.

    The message starts with the file; ``path``, ``column`` and ``row`` (data rows counted from 1)
    say where the problem is, ``column`` and ``row`` being None where they do not apply.
    """

    def __init__(self, path, problem, *, column=None, row=None):
        super().__init__(f"{path}: {problem}")
        self.path, self.column, self.row = path, column, row


def file_format(path):
    """'csv', 'tsv', 'parquet' or 'npz', from the file name's suffix (``"-"``: 'csv')."""
    return _format_and_compression(path)[0]


def _format_and_compression(path):
    if str(path) == STDIN:
        return "csv", None
    path = Path(path)
    suffix = path.suffix.lower()
    compression = None
    if suffix in COMPRESSIONS and FORMATS.get(Path(path.stem).suffix.lower()) in DELIMITERS:
        compression, suffix = suffix, Path(path.stem).suffix.lower()
    if suffix not in FORMATS:
        raise InputValueError("{path} has suffix {suffix!r}; fastpr reads {formats} files "
                              "({compressed} compressed text too).", argument="path", path=path,
                              suffix=suffix, formats=", ".join(FORMATS),
                              compressed=", ".join(COMPRESSIONS))
    return FORMATS[suffix], compression


@dataclasses.dataclass(frozen=True)
class _Text:
    """Delimited text: a file (maybe compressed) or standard input's bytes, read once."""

    name: object  # the path, or STDIN_NAME, for messages
    delimiter: str
    compression: str = None
    content: bytes = None  # standard input's

    @classmethod
    def of(cls, path, kind, compression):
        if str(path) != STDIN:
            if compression == ".zst":
                import_optional("pyarrow", "zstd")  # before any reading
            return cls(Path(path), DELIMITERS[kind], compression)
        return cls(STDIN_NAME, DELIMITERS[kind], content=sys.stdin.buffer.read())

    @property
    def path(self):
        """The file's path where readers can open it themselves, else None."""
        return self.name if self.content is None and self.compression is None else None

    def open(self):
        """The bytes, as a binary file object."""
        if self.content is not None:
            return io.BytesIO(self.content)
        if self.compression == ".zst":
            import pyarrow

            # buffered: pyarrow's stream has no line iteration, which _not_utf8 uses
            return io.BufferedReader(pyarrow.input_stream(str(self.name), compression="zstd"))
        return {".gz": gzip.open, ".bz2": bz2.open, None: open}[self.compression](self.name, "rb")

    def open_text(self):
        return io.TextIOWrapper(self.open(), encoding="utf-8-sig", newline="")


@options(reader=OneOf(CSV_READERS))
def read_columns(path, columns=None, *, reader=None):
    """The named columns of ``path`` as a dict of 1-D arrays, in the order asked for.

    Parameters
    ----------
    path : str or Path
        A ``.csv`` (or ``.txt``) or ``.tsv`` file, maybe compressed (``.csv.gz``, ``.csv.bz2``,
        ``.csv.zst``); a ``.parquet`` (or ``.pq``) or ``.npz`` file; or ``"-"``, CSV text on
        standard input.
    columns : sequence of str, optional
        Column names (the header, the Parquet schema, the .npz array names); by default every
        column, in the file's order.
    reader : {"pyarrow", "pandas", "csv"}, optional
        For CSV and TSV only: which reader to use; by default the fastest one installed. Where it
        fails on a malformed file, the csv module's reader reads it and says which row is wrong.

    Raises
    ------
    ImportError
        Parquet or ``.zst`` without pyarrow; the message names the extra to install.
    FileFormatError
        The file is not what its suffix says, is not UTF-8 text (CSV), names a column twice,
        has a row with more or fewer fields than its header, or holds a column of something
        other than numbers, booleans or text (such as Parquet lists or decimals).

    Examples
    --------
    >>> import numpy as np, tempfile, os
    >>> from fastpr.io import read_columns
    >>> path = os.path.join(tempfile.mkdtemp(), "p.npz")
    >>> np.savez(path, label=[0, 1, 1], score=[0.2, 0.9, 0.4])
    >>> read_columns(path, ["score", "label"])
    {'score': array([0.2, 0.9, 0.4]), 'label': array([0, 1, 1])}
    """
    kind, compression = _format_and_compression(path)
    columns = None if columns is None else list(dict.fromkeys(columns))
    if kind == "npz":
        return _read_npz(Path(path), columns)
    if kind == "parquet":
        return _read_parquet(Path(path), columns)
    text = _Text.of(path, kind, compression)
    try:
        return _read_csv(text, columns, reader)
    except UnicodeDecodeError:
        raise _not_utf8(text) from None
    except csv.Error as error:  # such as a quote left open, making one field of the rest
        raise FileFormatError(text.name, f"the csv module cannot read it: {error}.") from None
    except (OSError, EOFError) as error:  # damaged compressed data
        if compression is None or isinstance(error, FileNotFoundError):
            raise
        raise FileFormatError(text.name, f"cannot be decompressed as {compression} "
                                         "(damaged, truncated or not compressed).") from None


def _check_names(path, columns, names):
    """Every column asked for is among ``names``, the file's columns, each name just once;
    returns the columns to read (all of them when ``columns`` is None)."""
    for name, count in collections.Counter(names).items():
        if count > 1:
            raise FileFormatError(path, f"{count} columns are named {name!r}.", column=name)
    if columns is None:
        return list(names)
    _check_present(columns, names, path)
    return columns


def _check_present(columns, available, path):
    """Every name of ``columns`` is among ``available``, the columns of file ``path``."""
    missing = [name for name in columns if name not in available]
    if missing:
        raise InputValueError("{path} has no column {name!r}; its columns are {shown}{more}.",
                              argument="columns", path=path, name=missing[0],
                              shown=", ".join(map(repr, list(available)[:10])),
                              more=", ..." if len(available) > 10 else "")


def _read_npz(path, columns):
    with open(path, "rb") as handle:
        if not zipfile.is_zipfile(handle):
            raise FileFormatError(path, "not a .npz file, which is a zip archive of arrays "
                                        "(truncated, or another kind of file).")
        handle.seek(0)
        with np.load(handle, allow_pickle=False) as arrays:
            columns = _check_names(path, columns, arrays.files)
            return {name: _npz_array(path, arrays, name) for name in columns}


def _npz_array(path, arrays, name):
    try:
        return np.asarray(arrays[name])
    except (ValueError, EOFError, zipfile.BadZipFile, zlib.error):
        raise FileFormatError(path, f"array {name!r} holds Python objects, which fastpr does not "
                                    "unpickle, or is damaged.", column=name) from None


def _read_parquet(path, columns):
    parquet = import_optional("pyarrow.parquet", "parquet")
    import pyarrow

    with open(path, "rb") as handle:  # so that errors past this point are the content's
        try:
            parquet_file = parquet.ParquetFile(handle)
            columns = _check_names(path, columns, parquet_file.schema_arrow.names)
            table = parquet_file.read(columns=columns)
        except (OSError, pyarrow.ArrowException):
            raise FileFormatError(path, "cannot be read as Parquet (damaged, truncated or not "
                                        "a Parquet file).") from None
    return {name: _from_arrow(path, name, table.column(name)) for name in columns}


def _read_csv(text, columns, reader):
    with text.open_text() as handle:
        header = next(csv.reader(handle, delimiter=text.delimiter), [])
    if not header:
        raise FileFormatError(text.name, "the first line, the header, is empty.")
    if "\0" in "".join(header):  # UTF-16 text without a byte-order mark, or not text at all
        raise FileFormatError(text.name, "not UTF-8 text: NUL bytes on line 1; save it as UTF-8.")
    columns = _check_names(text.name, columns, header)
    if reader is None:
        reader = _fastest_csv_reader()
    if reader != "csv":
        try:
            return _CSV_READERS[reader](text, columns, header)
        except ValueError:  # a malformed row, or bytes not UTF-8: the csv module says where
            pass
    return _read_with_csv(text, columns, header)


def _fastest_csv_reader():
    return next(module for module in CSV_READERS
                if module == "csv" or importlib.util.find_spec(module) is not None)


def _from_arrow(path, name, column):
    """Nulls become NaN in numeric columns; other columns become strings, nulls ""."""
    import pyarrow  # only reached after pyarrow was imported to read the file

    kind = column.type
    if pyarrow.types.is_null(kind):  # pyarrow's type for a column of empty cells only
        return np.full(len(column), np.nan)
    if pyarrow.types.is_integer(kind) or pyarrow.types.is_floating(kind):
        if column.null_count:
            return column.to_numpy(zero_copy_only=False).astype(np.float64)
        return column.to_numpy()
    if pyarrow.types.is_boolean(kind) and not column.null_count:
        return column.to_numpy(zero_copy_only=False)
    # Lists and structs are not one value per row; decimals would be rounded to float64.
    if not (pyarrow.types.is_nested(kind) or pyarrow.types.is_decimal(kind)):
        try:
            return np.asarray(column.cast(pyarrow.string()).fill_null("").to_pylist(), dtype=str)
        except (pyarrow.ArrowInvalid, pyarrow.ArrowNotImplementedError):  # bytes, not text
            pass
    raise FileFormatError(path, f"column {name!r} holds {kind} values; fastpr reads numbers, "
                                "booleans and text.", column=name)


def _read_with_pyarrow(text, columns, header):
    pyarrow_csv = import_optional("pyarrow.csv", "parquet")
    with contextlib.nullcontext(text.path) if text.path else text.open() as source:
        table = pyarrow_csv.read_csv(
            source, parse_options=pyarrow_csv.ParseOptions(delimiter=text.delimiter),
            convert_options=pyarrow_csv.ConvertOptions(include_columns=columns))
    return {name: _from_arrow(text.name, name, table.column(name)) for name in columns}


def _read_with_pandas(text, columns, header):
    pandas = importlib.import_module("pandas")
    with contextlib.nullcontext(text.path) if text.path else text.open() as source:
        # every column: with usecols, pandas ignores extra fields
        frame = pandas.read_csv(source, sep=text.delimiter)
    if not isinstance(frame.index, pandas.RangeIndex):
        # pandas makes the first fields an index where the first row is longer than the header
        raise ValueError(f"{text.name}: a row has more fields than the header.")
    out = {}
    for name in columns:
        values = frame[name].to_numpy()
        out[name] = values if values.dtype.kind in "biuf" else frame[name].fillna("").to_numpy(
            dtype=str)
    return out


def _read_with_csv(text, columns, header):
    """Standard library only: rows into columns, then one conversion per column."""
    pick = operator.itemgetter(*[header.index(name) for name in columns])
    picked = []
    with text.open_text() as handle:
        rows = csv.reader(handle, delimiter=text.delimiter)
        next(rows)
        for number, row in enumerate(filter(None, rows), start=1):
            if len(row) != len(header):
                raise FileFormatError(text.name, f"the header has {len(header)} fields, but row "
                                                 f"{number} has {len(row)}.", row=number)
            picked.append(pick(row))
    if len(columns) == 1:
        picked = [(value,) for value in picked]
    values = list(zip(*picked)) if picked else [()] * len(columns)
    return {name: _numbers_or_text(column) for name, column in zip(columns, values)}


def _not_utf8(text):
    """The error for a CSV file that is not UTF-8 text, naming its first stray byte's line."""
    with text.open() as handle:
        for number, line in enumerate(handle, start=1):
            try:
                line.decode("utf-8")
            except UnicodeDecodeError as error:
                return FileFormatError(text.name, f"not UTF-8 text: byte {line[error.start]:#04x} "
                                                  f"on line {number}; save it as UTF-8.")
    return FileFormatError(text.name, "not UTF-8 text; save it as UTF-8.")


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
