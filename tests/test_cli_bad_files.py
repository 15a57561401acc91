"""``fastpr evaluate`` on malformed files: exit status 1 and one line naming the file (and the
column and row where they apply), never a traceback; and files that look odd but are fine."""
import decimal
import json
import subprocess
import sys

import numpy as np
import pyarrow
import pyarrow.parquet
import pytest

import fastpr
from fastpr import cli
from fastpr import io as fastpr_io

ARGS = ["--label", "label", "--score", "score"]


def _text(name, content, encoding="utf-8"):
    def build(folder):
        path = folder / name
        path.write_bytes(content if isinstance(content, bytes) else content.encode(encoding))
        return path
    return build


def _parquet(name, **columns):
    def build(folder):
        path = folder / name
        pyarrow.parquet.write_table(pyarrow.table(columns), path)
        return path
    return build


def _duplicate_parquet_names(folder):
    path = folder / "dup.parquet"
    arrays = [pyarrow.array([1, 0]), pyarrow.array([0.1, 0.2]), pyarrow.array([0.3, 0.4])]
    pyarrow.parquet.write_table(
        pyarrow.Table.from_arrays(arrays, names=["label", "score", "score"]), path)
    return path


def _truncated(build):
    def truncate(folder):
        path = build(folder)
        content = path.read_bytes()
        path.write_bytes(content[:len(content) // 2])
        return path
    return truncate


def _inverted(build, where):
    """The file with some bytes inverted: those of ``where``, a slice or bytes to find."""
    def invert(folder):
        path = build(folder)
        content = bytearray(path.read_bytes())
        span = where
        if isinstance(where, bytes):
            span = slice(content.index(where), content.index(where) + len(where))
        content[span] = bytes(byte ^ 0xFF for byte in content[span])
        path.write_bytes(bytes(content))
        return path
    return invert


def _npz(name, **arrays):
    def build(folder):
        path = folder / name
        np.savez(path, **arrays)
        return path
    return build


# (id, builder of the file in a folder, more arguments, what the message must say besides the file)
CASES = [
    ("empty text group", _text("g.csv", "label,score,g\n1,0.9,a\n0,0.2,\n1,0.4,a\n0,0.5,b\n"),
     ["--group", "g"], "column 'g' has an empty cell at row 2."),
    ("empty numeric group", _text("g.csv", "label,score,g\n1,0.9,1\n0,0.2,\n1,0.4,2\n0,0.5,2\n"),
     ["--group", "g"], "column 'g' contains NaN at row 2 "),
    ("empty Parquet group cell",
     _parquet("g.parquet", label=[1, 0, 1], score=[0.9, 0.2, 0.4], g=["a", None, "b"]),
     ["--group", "g"], "column 'g' has an empty cell at row 2."),
    ("empty text label", _text("l.csv", "label,score\nspam,0.9\n,0.2\nham,0.4\n"),
     ["--pos-label", "spam"], "column 'label' has an empty cell at row 2."),
    ("extra field", _text("x.csv", "label,score\n1,0.9\n0,0.2,7\n1,0.4\n"), [],
     "the header has 2 fields, but row 2 has 3."),
    ("extra field in the first row", _text("x.csv", "label,score\n1,0.9,7\n0,0.2,3\n"), [],
     "the header has 2 fields, but row 1 has 3."),
    ("duplicate header name", _text("d.csv", "label,score,score\n1,0.9,0.1\n0,0.2,0.3\n"), [],
     "2 columns are named 'score'."),
    ("latin-1 cell", _text("l1.csv", "label,score,g\n1,0.9,a\n0,0.2,caf\xe9\n", "latin-1"),
     ["--group", "g"], "not UTF-8 text: byte 0xe9 on line 3"),
    ("latin-1 header", _text("l1.csv", "label,score,gr\xf6\xdfe\n1,0.9,a\n", "latin-1"), [],
     "not UTF-8 text: byte 0xf6 on line 1"),
    ("binary", _text("b.csv", bytes(range(256)) * 8), [], "not UTF-8 text: byte 0x80 on line 2"),
    ("UTF-16", _text("u.csv", "label,score\n1,0.9\n0,0.2\n", "utf-16-le"), [],
     "not UTF-8 text: NUL bytes on line 1"),
    ("UTF-16 with byte-order mark", _text("u.csv", "label,score\n1,0.9\n", "utf-16"), [],
     "not UTF-8 text: byte 0xff on line 1"),
    ("empty file", _text("e.csv", ""), [], "the first line, the header, is empty."),
    ("list column", _parquet("l.parquet", label=[1, 0], score=[[0.1], [0.2]]), [],
     "column 'score' holds list<element: double> values"),
    ("decimal column",
     _parquet("d.parquet", label=[1, 0], score=pyarrow.array(
         [decimal.Decimal("0.10"), decimal.Decimal("0.20")], pyarrow.decimal128(5, 2))), [],
     "column 'score' holds decimal128(5, 2) values"),
    ("bytes column", _parquet("b.parquet", label=[1, 0], score=[b"0.1", b"\xff"]), [],
     "column 'score' holds binary values"),
    ("duplicate Parquet names", _duplicate_parquet_names, [], "2 columns are named 'score'."),
    ("text named .parquet", _text("t.parquet", "label,score\n1,0.9\n"), [],
     "cannot be read as Parquet"),
    ("truncated Parquet", _truncated(_parquet("t.parquet", label=[1, 0], score=[0.1, 0.2])),
     [], "cannot be read as Parquet"),
    ("damaged Parquet page",
     _inverted(_parquet("p.parquet", label=[1, 0], score=[0.1, 0.2]), slice(4, 20)), [],
     "cannot be read as Parquet"),
    ("truncated .npz", _truncated(_npz("t.npz", label=[1, 0], score=[0.1, 0.2])), [],
     "not a .npz file"),
    ("text named .npz", _text("t.npz", "label,score\n1,0.9\n"), [], "not a .npz file"),
    ("Python objects in .npz",
     _npz("o.npz", label=[1, 0], score=np.array([0.1, None], dtype=object)), [],
     "array 'score' holds Python objects"),
    ("damaged .npz array", _inverted(_npz("d.npz", label=[1, 0], score=[0.1, 0.2]),
                                     np.array([0.1, 0.2]).tobytes()), [],
     "array 'score' holds Python objects, which fastpr does not unpickle, or is damaged."),
]
IDS = [case[0] for case in CASES]
# Each raised a traceback before; run through the real command line to see that none shows.
IN_SUBPROCESS = ["empty numeric group", "list column", "truncated .npz"]


def _evaluate(argv, capsys):
    status = cli.main(["evaluate", *map(str, argv)])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def _assert_one_line(status, out, err, *fragments):
    # The notice of a first compile (an empty kernel cache) is not an error line.
    err = "".join(line for line in err.splitlines(keepends=True)
                  if not line.startswith("fastpr: compiling kernels for first use"))
    assert status == 1 and out == ""
    assert "Traceback" not in err and err.count("\n") == 1 and err.endswith("\n"), err
    assert err.startswith("fastpr evaluate: ")
    for fragment in fragments:
        assert fragment in err


@pytest.mark.parametrize("build, more, message", [case[1:] for case in CASES], ids=IDS)
def test_malformed_file_gives_one_line_naming_it(tmp_path, capsys, build, more, message):
    path = build(tmp_path)
    status, out, err = _evaluate([path, *ARGS, *more], capsys)
    _assert_one_line(status, out, err, f": {path}: ", message)


@pytest.mark.parametrize("build, more, message",
                         [case[1:] for case in CASES if case[0] in IN_SUBPROCESS],
                         ids=IN_SUBPROCESS)
def test_no_traceback_reaches_the_terminal(tmp_path, build, more, message):
    path = build(tmp_path)
    result = subprocess.run([sys.executable, "-m", "fastpr", "evaluate", path, *ARGS, *more],
                            capture_output=True, text=True, timeout=300, check=False)
    _assert_one_line(result.returncode, result.stdout, result.stderr, f": {path}: ", message)


@pytest.mark.parametrize("name", ["curves.xyz", "curves", "predictions.csv"])
def test_plot_needs_a_format_matplotlib_writes(tmp_path, capsys, name):
    path = _text("predictions.csv", "label,score\n1,0.9\n0,0.2\n")(tmp_path)
    before = path.read_bytes()
    plot = tmp_path / name
    status, out, err = _evaluate([path, *ARGS, "--plot", plot], capsys)
    _assert_one_line(status, out, err, f"--plot {plot} has ", ".pdf, ", ".png, ")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["predictions.csv"]
    assert path.read_bytes() == before


def test_matplotlib_is_checked_before_the_file_is_read(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    status, out, err = _evaluate([tmp_path / "nowhere.csv", *ARGS, "--plot", tmp_path / "c.png"],
                                 capsys)
    _assert_one_line(status, out, err, "this needs matplotlib.figure")


def test_excel_byte_order_mark_is_not_part_of_the_first_name(tmp_path, capsys):
    y, s = fastpr.datasets.skewed_ranking(n_samples=400, prevalence=0.2)
    path = tmp_path / "excel.csv"
    rows = "".join(f"{label},{score!r}\n" for label, score in zip(y.astype(int).tolist(),
                                                                   s.tolist()))
    path.write_text("label,score\n" + rows, encoding="utf-8-sig")
    assert path.read_bytes().startswith(b"\xef\xbb\xbflabel,")
    status, out, err = _evaluate([path, *ARGS, "--format", "json"], capsys)
    assert status == 0, err
    expected = fastpr.evaluate(y, s).to_dict()
    results = json.loads(out)["all"]["score"]
    assert {name: results[name] for name in expected} == pytest.approx(expected, rel=1e-12)
    for reader in ("pyarrow", "pandas", "csv"):
        columns = fastpr_io.read_columns(path, ["label", "score"], reader=reader)
        np.testing.assert_array_equal(columns["label"], y)
        np.testing.assert_array_equal(columns["score"], s)


@pytest.mark.parametrize("reader", ["pyarrow", "pandas", "csv"])
def test_every_csv_reader_refuses_extra_fields_and_repeated_names(tmp_path, reader):
    for row in (1, 3):
        lines = ["label,score", "1,0.9", "0,0.2", "1,0.4"]
        lines[row] += ",7"
        extra = _text("x.csv", "\n".join(lines) + "\n")(tmp_path)
        with pytest.raises(fastpr_io.FileFormatError, match=f"but row {row} has 3") as caught:
            fastpr_io.read_columns(extra, ["label", "score"], reader=reader)
        assert (caught.value.path, caught.value.column, caught.value.row) == (extra, None, row)
    repeated = _text("r.csv", "label,score,label\n1,0.9,0\n0,0.2,1\n")(tmp_path)
    with pytest.raises(fastpr_io.FileFormatError, match="2 columns are named 'label'") as caught:
        fastpr_io.read_columns(repeated, ["score"], reader=reader)
    assert caught.value.column == "label"


def test_a_field_the_csv_module_cannot_read(tmp_path):
    path = _text("q.csv", 'label,score\n1,"0.9\n' + "x" * 200_000 + "\n")(tmp_path)
    with pytest.raises(fastpr_io.FileFormatError, match="field larger than field limit"):
        fastpr_io.read_columns(path, ["label", "score"], reader="csv")


def test_option_errors_come_first_and_do_not_name_the_file(tmp_path, capsys):
    status, out, err = _evaluate([tmp_path / "nowhere.csv", *ARGS, "--bootstrap", "9",
                                  "--confidence", "2"], capsys)
    _assert_one_line(status, out, err)
    assert err == ("fastpr evaluate: --confidence must be in the open interval (0, 1), got "
                   "2.0.\n")
    # A repeated model would hide the other in --format json (both are named by the column).
    status, out, err = _evaluate([tmp_path / "nowhere.csv", *ARGS, "--score", "score"], capsys)
    _assert_one_line(status, out, err)
    assert err == "fastpr evaluate: --score names column 'score' more than once.\n"


@pytest.mark.parametrize("reader", ["pyarrow", "pandas", "csv"])
def test_every_csv_reader_reads_empty_cells_alike(tmp_path, reader):
    path = _text("g.csv", "label,score,g,e\n1,0.9,a,\n0,0.2,,\n1,0.4,b,\n")(tmp_path)
    columns = fastpr_io.read_columns(path, ["g", "e"], reader=reader)
    assert columns["g"].tolist() == ["a", "", "b"]  # text: empty strings
    assert columns["e"].dtype == np.float64 and np.isnan(columns["e"]).all()  # empty: NaN
