"""Columns of a predictions file (CSV or TSV text, Parquet or .npz) as NumPy arrays.

CSV is read by pyarrow when it is installed (the fastest), else by pandas, else by the standard
library's csv module; Parquet needs pyarrow (the ``parquet`` extra). CSV and TSV files are UTF-8
text, with or without the byte-order mark that Excel writes, and may be compressed: ``.gz`` and
``.bz2`` by the standard library, ``.zst`` by pyarrow (the ``zstd`` extra). The path ``"-"``
reads CSV text from standard input. Empty cells of numeric columns become NaN, so that
validation reports them with their row; empty cells of text columns become ``""``. A file that
cannot be read as columns raises :class:`FileFormatError`.

pyarrow reads CSV text and Parquet in batches (standard input too), converting each batch to
compact arrays as it comes, so that memory holds the columns' numbers, never the whole text.
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
import re
import sys
import zipfile
import zlib
from pathlib import Path

import numpy as np

from ._optional import import_optional
from . import _validation
from ._validation import OneOf, options
from .exceptions import InputValueError

FORMATS = {".csv": "csv", ".txt": "csv", ".tsv": "tsv", ".parquet": "parquet", ".pq": "parquet",
           ".npz": "npz"}
DELIMITERS = {"csv": ",", "tsv": "\t"}
COMPRESSIONS = (".gz", ".bz2", ".zst")  # of text files: predictions.csv.gz, predictions.tsv.zst
STDIN = "-"  # the path that reads CSV text from standard input
STDIN_NAME = "<stdin>"  # standard input's name in messages
CSV_READERS = ("pyarrow", "pandas", "csv")  # the fastest first
# A cell that the readers read as a number. Python's float() takes more ("1_000", " 2", Arabic
# digits), which they leave as text.
NUMBER = re.compile(r"[+-]?((\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|inf|infinity|nan)",
                    re.IGNORECASE | re.ASCII)
_INTEGER = r"^[+-]?[0-9]+$"
# Bytes of text that the pyarrow reader parses at a time (it holds a few dozen blocks at once).
_BLOCK = 1 << 20


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
    """Delimited text: a file (maybe compressed) or standard input, read as it comes."""

    name: object  # the path, or STDIN_NAME, for messages
    delimiter: str
    compression: str = None
    head: bytes = None  # standard input's first bytes (its header); the rest follows unread
    complete: bool = True  # whether ``head`` is all of standard input

    @classmethod
    def of(cls, path, kind, compression):
        if str(path) != STDIN:
            if compression == ".zst":
                import_optional("pyarrow", "zstd")  # before any reading
            return cls(Path(path), DELIMITERS[kind], compression)
        head = sys.stdin.buffer.read(_BLOCK)
        return cls(STDIN_NAME, DELIMITERS[kind], head=head, complete=len(head) < _BLOCK)

    @property
    def path(self):
        """The file's path where readers can open it themselves, else None."""
        return self.name if self.head is None and self.compression is None else None

    @property
    def reopenable(self):
        """Whether :meth:`open` gives all the bytes again after a reader has read them."""
        return self.complete

    def open(self):
        """The bytes, as a binary file object (standard input's: its head, then the rest)."""
        if self.head is not None:
            return io.BufferedReader(_Prefixed(self.head, sys.stdin.buffer), _BLOCK)
        if self.compression == ".zst":
            import pyarrow

            # buffered: pyarrow's stream has no line iteration, which _not_utf8 uses
            return io.BufferedReader(pyarrow.input_stream(str(self.name), compression="zstd"))
        return {".gz": gzip.open, ".bz2": bz2.open, None: open}[self.compression](self.name, "rb")

    def open_text(self):
        return io.TextIOWrapper(self.open(), encoding="utf-8-sig", newline="")


class _Prefixed(io.RawIOBase):
    """Bytes already read (``head``), then the rest of the stream ``rest``."""

    def __init__(self, head, rest):
        super().__init__()
        self._head, self._rest = memoryview(head), rest

    def readable(self):
        return True

    def readinto(self, buffer):
        if self._head.nbytes:
            count = min(len(buffer), self._head.nbytes)
            buffer[:count] = self._head[:count]
            self._head = self._head[count:]
            return count
        data = self._rest.read(len(buffer))
        buffer[:len(data)] = data
        return len(data)


@options(reader=OneOf(CSV_READERS))
def read_columns(path, columns=None, *, reader=None, exclude=()):
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
    exclude : container of str, optional
        Without ``columns``: the columns to leave out, unread (anything that answers ``in``).

    Returns
    -------
    dict of str to ndarray
        A CSV column whose cells are all numbers (or empty) is numbers: integers in the smallest
        integer dtype that holds them (int8 to int64, else uint64), else float64 with empty
        cells NaN, or booleans for a column of true and false; any other column is text.

    Raises
    ------
    ImportError
        Parquet or ``.zst`` without pyarrow; the message names the extra to install.
    FileFormatError
        The file is not what its suffix says, is not UTF-8 text (CSV), names a column twice,
        has a row with more or fewer fields than its header, holds a column of something
        other than numbers, booleans or text (such as Parquet lists or decimals), or holds an
        integer that float64 would round in a column that no integer dtype holds.

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
        return _read_npz(Path(path), columns, exclude)
    if kind == "parquet":
        return _read_parquet(Path(path), columns, exclude)
    text = _Text.of(path, kind, compression)
    try:
        return _read_csv(text, columns, reader, exclude)
    except UnicodeDecodeError:
        raise _not_utf8(text) from None
    except csv.Error as error:  # such as a quote left open, making one field of the rest
        raise FileFormatError(text.name, f"the csv module cannot read it: {error}.") from None
    except (OSError, EOFError) as error:  # damaged compressed data
        if compression is None or isinstance(error, FileNotFoundError):
            raise
        raise FileFormatError(text.name, f"cannot be decompressed as {compression} "
                                         "(damaged, truncated or not compressed).") from None


def line_number(path, row):
    r"""The line of CSV or TSV file ``path`` on which its data row ``row`` starts.

    Rows count from 1, the first row of data, and skip blank lines, as the readers do; lines
    count from 1, the header, and include blank lines and the line breaks in quoted cells.
    None for Parquet and .npz files, standard input, a row past the end, or a file that cannot
    be read again.

    Examples
    --------
    >>> import tempfile, os
    >>> from fastpr.io import line_number
    >>> path = os.path.join(tempfile.mkdtemp(), "p.csv")
    >>> _ = open(path, "w").write('y,s,note\n1,0.5,"two\nlines"\n\n0,x,b\n')
    >>> line_number(path, 2)
    5
    """
    kind, compression = _format_and_compression(path)
    if kind not in DELIMITERS or str(path) == STDIN:
        return None
    text = _Text.of(path, kind, compression)
    try:
        with text.open_text() as handle:
            rows = csv.reader(handle, delimiter=text.delimiter)
            next(rows, None)
            number = 0
            end = rows.line_num  # the line on which the record before ends
            for fields in rows:
                start, end = end + 1, rows.line_num
                number += bool(fields)
                if fields and number == row:
                    return start
    except (OSError, EOFError, UnicodeDecodeError, csv.Error):
        pass
    return None


def _check_names(path, columns, names, exclude=()):
    """Every column asked for is among ``names``, the file's columns, each name just once;
    returns the columns to read (all of them but ``exclude`` when ``columns`` is None)."""
    for name, count in collections.Counter(names).items():
        if count > 1:
            raise FileFormatError(path, f"{count} columns are named {name!r}.", column=name)
    if columns is None:
        return [name for name in names if name not in exclude]
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


def _read_npz(path, columns, exclude):
    with open(path, "rb") as handle:
        if not zipfile.is_zipfile(handle):
            raise FileFormatError(path, "not a .npz file, which is a zip archive of arrays "
                                        "(truncated, or another kind of file).")
        handle.seek(0)
        with np.load(handle, allow_pickle=False) as arrays:
            columns = _check_names(path, columns, arrays.files, exclude)
            return {name: _npz_array(path, arrays, name) for name in columns}


def _npz_array(path, arrays, name):
    try:
        return np.asarray(arrays[name])
    except (ValueError, EOFError, zipfile.BadZipFile, zlib.error):
        raise FileFormatError(path, f"array {name!r} holds Python objects, which fastpr does not "
                                    "unpickle, or is damaged.", column=name) from None


def _read_parquet(path, columns, exclude):
    parquet = import_optional("pyarrow.parquet", "parquet")
    import pyarrow

    with open(path, "rb") as handle:  # so that errors past this point are the content's
        try:
            parquet_file = parquet.ParquetFile(handle)
            columns = _check_names(path, columns, parquet_file.schema_arrow.names, exclude)
            # batch by batch: decoded compactly as they come, not the whole file's pages first
            batches = list(parquet_file.iter_batches(columns=columns))
            table = pyarrow.Table.from_batches(batches, parquet_file.schema_arrow.empty_table()
                                               .select(columns).schema)
            del batches
        except (OSError, pyarrow.ArrowException):
            raise FileFormatError(path, "cannot be read as Parquet (damaged, truncated or not "
                                        "a Parquet file).") from None
    out = {}
    for name in columns:  # one column converted at a time, its Arrow copy then released
        out[name] = _from_arrow(path, name, table.column(name))
        table = table.drop_columns([name])
    return out


def _read_csv(text, columns, reader, exclude):
    with text.open_text() as handle:
        header = next(csv.reader(handle, delimiter=text.delimiter), [])
    if not header:
        raise FileFormatError(text.name, "the first line, the header, is empty.")
    if "\0" in "".join(header):  # UTF-16 text without a byte-order mark, or not text at all
        raise FileFormatError(text.name, "not UTF-8 text: NUL bytes on line 1; save it as UTF-8.")
    columns = _check_names(text.name, columns, header, exclude)
    if reader is None:
        reader = _fastest_csv_reader()
    if reader != "csv":
        try:
            return _CSV_READERS[reader](text, columns, header)
        except FileFormatError:
            raise
        except ValueError as error:  # a malformed row, or bytes not UTF-8: the csv module says
            if not text.reopenable:  # where, from the start, which standard input has passed
                raise FileFormatError(text.name, f"cannot be read: {error}") from None
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
        if column.null_count:  # NaN for the empty cells: float64, which must hold the integers
            if pyarrow.types.is_integer(kind):
                _refuse_rounding(path, name, [column.fill_null(0).to_numpy()], [1])
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
    import_optional("pyarrow.csv", "parquet")
    as_text = set()  # columns of numbers that turned out to hold text past the first batch
    while True:
        try:
            return _stream_csv(text, columns, as_text)
        except _TurnsToText as turn:
            if not text.reopenable:
                raise FileFormatError(
                    text.name, f"column {turn.name!r} holds numbers, then {turn.value!r} at row "
                               f"{turn.row}; read once from standard input, a column must be "
                               "numbers or text from its first rows (save it to a file).",
                    column=turn.name, row=turn.row) from None
            as_text.add(turn.name)  # read again, that column as text from the start


def _stream_csv(text, columns, as_text):
    """The columns batch by batch, every cell read as text and each batch converted at once to
    compact numbers (or kept as text), so that the whole text is never held."""
    import pyarrow
    import pyarrow.csv as pyarrow_csv

    rows = _rows_expected(text)
    built = {name: _Column(text.name, name, name in as_text, rows) for name in columns}
    options = dict(
        read_options=pyarrow_csv.ReadOptions(block_size=_BLOCK),
        parse_options=pyarrow_csv.ParseOptions(delimiter=text.delimiter),
        # As text, so that one batch's types (pyarrow infers them from the first) never make a
        # later cell an error or round it; only empty cells are missing (null).
        convert_options=pyarrow_csv.ConvertOptions(
            include_columns=columns, column_types=dict.fromkeys(columns, pyarrow.string()),
            null_values=[""], strings_can_be_null=True))
    with contextlib.nullcontext(str(text.path)) if text.path else text.open() as source:
        row = 1
        with pyarrow_csv.open_csv(source, **options) as batches:
            for batch in batches:
                for name in columns:
                    built[name].add(batch.column(name), row)
                row += batch.num_rows
    out = {}
    for name in columns:  # one column's batches joined at a time, then released
        out[name] = built.pop(name).finish()
    return out


def _rows_expected(text):
    """About how many rows a plain text file has (a little more), from the lines of its first
    megabyte; None where the size is unknown (standard input, compressed files)."""
    if text.path is None:
        return None
    with open(text.path, "rb") as handle:
        head = handle.read(1 << 20)
        size = handle.seek(0, io.SEEK_END)
    lines = head.count(b"\n")
    if len(head) == size or not lines:
        return lines + 1
    return int(size / (len(head) / lines) * 1.1) + 1024


class _TurnsToText(Exception):
    """A column read as numbers holds text past its first batch."""

    def __init__(self, name, row, value):
        super().__init__(name)
        self.name, self.row, self.value = name, row, value


class _Column:
    """One column's batches: compact numbers, converted as they come, or text.

    Floats go straight into one growing float64 array, sized from ``rows`` (an estimate of the
    file's rows) where there is one: the pages past the end are never touched, so memory holds
    the column once. Integers and booleans, the narrow columns, are kept batch by batch.
    """

    def __init__(self, path, name, as_text=False, rows=None):
        self.path, self.name, self.as_text = path, name, as_text
        self.kind = None  # of the numbers so far: "i" (integers), "f" or "b" (booleans)
        self.chunks, self.rows = [], []  # arrays, and the row of each one's first cell
        self.floats, self.size, self.expected = None, 0, rows or 1 << 20

    def add(self, cells, row):
        """The batch ``cells`` (pyarrow strings, null where empty), whose first is ``row``."""
        if not self.as_text:
            numbers = _parse(cells, self.kind)
            if numbers is not None:
                numbers = self._exact(numbers, cells, row)
                if self.kind == "f" or numbers.dtype.kind == "f":
                    self._add_floats(numbers)
                else:
                    self.kind = numbers.dtype.kind.replace("u", "i")
                    self.chunks.append(_narrowest(numbers))
                    self.rows.append(row)
                return
            if self.kind is not None:
                first = _first_non_number(cells)
                raise _TurnsToText(self.name, row + first, cells[first].as_py())
            self.as_text = True
        self.chunks.append(cells)

    def _add_floats(self, numbers):
        if self.floats is None:  # the first floats: the integers before them become floats
            _refuse_rounding(self.path, self.name, self.chunks, self.rows)
            self.kind, self.floats = "f", np.empty(max(self.expected, 2 * numbers.size))
            for chunk in self.chunks:
                self._append(chunk)
            self.chunks, self.rows = [], []
        self._append(numbers)

    def _append(self, values):
        end = self.size + values.size
        if end > self.floats.size:  # more rows than expected: grow (a copy)
            grown = np.empty(max(end, int(self.floats.size * 1.5)))
            grown[:self.size] = self.floats[:self.size]
            self.floats = grown
        self.floats[self.size:end] = values
        self.size = end

    def _exact(self, numbers, cells, row):
        """``numbers`` as NumPy, refusing integers of ``cells`` that float64 rounds."""
        import pyarrow
        import pyarrow.compute as compute

        if pyarrow.types.is_floating(numbers.type):
            # Integers of at most 15 digits are below 2**53, which float64 holds exactly.
            long = compute.greater(compute.binary_length(cells), 15)
            if compute.any(long).as_py():
                positions = np.flatnonzero(compute.and_(
                    long, compute.match_substring_regex(cells, _INTEGER)).fill_null(False))
                integers = np.array([int(cells[k].as_py()) for k in positions], dtype=object)
                _refuse_rounding(self.path, self.name, [integers], [row], positions)
        elif numbers.null_count and not pyarrow.types.is_boolean(numbers.type):
            _refuse_rounding(self.path, self.name, [numbers.fill_null(0).to_numpy()], [row])
            numbers = numbers.cast(pyarrow.float64())  # NaN for the empty cells
        return numbers.to_numpy(zero_copy_only=False)

    def finish(self):
        """The column: the batches joined."""
        if self.as_text:
            import pyarrow

            cells = pyarrow.chunked_array(self.chunks, pyarrow.string()).fill_null("")
            return np.asarray(cells.to_numpy(zero_copy_only=False), dtype=str)
        if self.floats is not None:
            # a view of the part filled: the untouched rest was never in memory
            return self.floats[:self.size]
        if not self.chunks:  # no rows: as pyarrow reads a column of no cells
            return np.empty(0)
        dtypes = {chunk.dtype for chunk in self.chunks}
        if self.kind == "i" and np.dtype(np.uint64) in dtypes and all(
                chunk.min() >= 0 for chunk in self.chunks if chunk.size):
            return np.concatenate(self.chunks, dtype=np.uint64, casting="unsafe")
        if np.result_type(*dtypes).kind == "f":  # signed integers with uint64 ones
            _refuse_rounding(self.path, self.name, self.chunks, self.rows)
            return np.concatenate(self.chunks, dtype=np.float64, casting="unsafe")
        return np.concatenate(self.chunks)


def _parse(cells, kind):
    """The pyarrow strings ``cells`` as numbers of a type that follows ``kind`` (that of the
    batches before), or None where one of them is not a number."""
    import pyarrow
    import pyarrow.compute as compute

    if kind == "b":
        types = [pyarrow.bool_()]
    elif kind == "f":
        types = [pyarrow.float64()]
    else:  # integers as long as they are, booleans only from the first batch
        types = [pyarrow.int64(), pyarrow.uint64(), pyarrow.float64()]
        types += [pyarrow.bool_()] if kind is None else []
    for kind in types:
        try:
            numbers = compute.cast(cells, kind)
        except (pyarrow.ArrowInvalid, pyarrow.ArrowNotImplementedError):
            continue
        # a boolean column with empty cells is text, as before (NaN is no boolean)
        return None if kind == pyarrow.bool_() and numbers.null_count else numbers
    return None


def _first_non_number(cells):
    """The position of the first cell of pyarrow strings ``cells`` that is not a number."""
    for position, cell in enumerate(cells.to_pylist()):
        if cell is not None and not NUMBER.fullmatch(cell):
            return position
    return 0


def _narrowest(values):
    """Integers in the narrowest dtype that holds them: the compact form of a label column."""
    if values.dtype.kind == "i" and values.size:
        low, high = values.min(), values.max()
        for dtype in (np.int8, np.int16, np.int32):
            if np.iinfo(dtype).min <= low and high <= np.iinfo(dtype).max:
                return values.astype(dtype)
    return values


def _refuse_rounding(path, name, chunks, rows, positions=None):
    """Raise naming the first integer of ``chunks`` (arrays whose first values are at ``rows``;
    or at ``rows[0] + positions``) that float64 would round: the library's rule for scores."""
    for k, (chunk, row) in enumerate(zip(chunks, rows)):
        if chunk.dtype.kind in "iuO" and _validation._rounds_in_float64(chunk):
            with np.errstate(invalid="ignore", over="ignore"):
                changed = chunk.astype(np.float64).astype(chunk.dtype) != chunk
            first = int(np.argmax(changed))
            at = row + (first if positions is None else int(positions[first]))
            raise FileFormatError(path, f"column {name!r} holds {chunk[first]} at row {at}, which "
                                        "float64 cannot represent exactly, and no integer dtype "
                                        "holds the column; rescale it.", column=name, row=at)


def _read_with_pandas(text, columns, header):
    pandas = importlib.import_module("pandas")
    with contextlib.nullcontext(text.path) if text.path else text.open() as source:
        # every column: with usecols, pandas ignores extra fields; only empty cells are missing
        frame = pandas.read_csv(source, sep=text.delimiter, keep_default_na=False,
                                na_values=[""])
    if not isinstance(frame.index, pandas.RangeIndex):
        # pandas makes the first fields an index where the first row is longer than the header
        raise ValueError(f"{text.name}: a row has more fields than the header.")
    out = {}
    for name in columns:
        values = frame[name].to_numpy()
        if values.dtype.kind in "iub":
            out[name] = _narrowest(values)
        elif values.dtype.kind == "f" and not _maybe_rounded(values):
            out[name] = values
        else:  # text (maybe numbers with "nan", or integers beyond uint64), or floats that may
            # be integers rounded: the cells' text, read by the one rule
            out[name] = _numbers_or_text(text.name, name, _pandas_text(text, name, frame[name]))
    return out


def _maybe_rounded(floats):
    """Whether some of ``floats`` are whole numbers from 2**53 up: rounded integers, maybe."""
    with np.errstate(invalid="ignore"):
        big = np.abs(floats) >= _validation.EXACT_INTEGER
    return bool(big.any() and (floats[big] == np.floor(floats[big])).any())


def _pandas_text(text, name, column):
    """The cells of ``column`` (read by pandas) as text, empty cells ""."""
    if column.dtype.kind == "f":  # the text before pandas parsed it
        if not text.reopenable:
            raise FileFormatError(text.name, f"column {name!r} holds whole numbers of 2**53 or "
                                             "more, which pandas may have rounded; install "
                                             "pyarrow, or save standard input to a file.",
                                  column=name)
        pandas = importlib.import_module("pandas")
        with contextlib.nullcontext(text.path) if text.path else text.open() as source:
            column = pandas.read_csv(source, sep=text.delimiter, usecols=[name], dtype=object,
                                     keep_default_na=False, na_filter=False)[name]
    return ["" if cell is None or isinstance(cell, float) else str(cell)
            for cell in column.tolist()]


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
    return {name: _numbers_or_text(text.name, name, column)
            for name, column in zip(columns, values)}


def _not_utf8(text):
    """The error for a CSV file that is not UTF-8 text, naming its first stray byte's line."""
    if not text.reopenable:  # standard input, past its start
        return FileFormatError(text.name, "not UTF-8 text; save it as UTF-8.")
    with text.open() as handle:
        for number, line in enumerate(handle, start=1):
            try:
                line.decode("utf-8")
            except UnicodeDecodeError as error:
                return FileFormatError(text.name, f"not UTF-8 text: byte {line[error.start]:#04x} "
                                                  f"on line {number}; save it as UTF-8.")
    return FileFormatError(text.name, "not UTF-8 text; save it as UTF-8.")


def _numbers_or_text(path, name, cells):
    """The cells (str) of column ``name`` as numbers, as the pyarrow reader reads them: integers
    (the narrowest dtype), else floats (empty cells NaN), else the text itself."""
    text = np.asarray(cells, dtype=str)
    joined = "".join(cells)
    # Digits, signs, points and exponents only: numbers if NumPy parses them, checked below in
    # one pass; other characters (inf, nan, text) need the cell-by-cell test, which stops at
    # the first cell of text.
    plain = joined.isascii() and not joined.encode().translate(None, b"0123456789+-.eE")
    if not plain and not all(cell == "" or NUMBER.fullmatch(cell) for cell in cells):
        return text
    if not text.size:
        return np.empty(0)
    empty = "" in cells
    if plain and not empty and not any(mark in joined for mark in ".eE"):  # integers
        for dtype in (np.int64, np.uint64):
            try:
                return _narrowest(text.astype(dtype))
            except (ValueError, OverflowError):
                pass
    # Integers longer than 15 characters may be beyond 2**53: the rule decides.
    longs = np.flatnonzero(np.strings.str_len(text) > 15)
    longs = [k for k in longs.tolist() if re.match(_INTEGER, cells[k])]
    _refuse_rounding(path, name, [np.array([int(cells[k]) for k in longs], dtype=object)], [1],
                     longs)
    try:
        return np.where(text == "", "nan", text).astype(np.float64) if empty else text.astype(
            np.float64)
    except ValueError:  # such as "1.2.3" or "1e": not numbers after all
        return text


_CSV_READERS = {"pyarrow": _read_with_pyarrow, "pandas": _read_with_pandas, "csv": _read_with_csv}
