"""Which columns ``fastpr evaluate`` evaluates and how it reads them: a bad cell is an error,
never a model lost; integers that float64 would round are refused; identifiers are left out
with a note; the file is read in batches (standard input too); Ctrl-C ends it in one line."""
import json
import signal
import subprocess
import sys
import time

import hypothesis
import numpy as np
import pytest
from hypothesis import strategies as st

import fastpr
from fastpr import cli
from fastpr import io as fastpr_io

COMPILING = "fastpr: compiling kernels for first use"


def _evaluate(capsys, *argv):
    status = cli.main(["evaluate", *map(str, argv)])
    captured = capsys.readouterr()
    err = [line for line in captured.err.splitlines() if not line.startswith(COMPILING)]
    return status, captured.out, err


def _rows(y, *columns):
    return "".join(",".join(map(str, row)) + "\n" for row in zip(y, *columns))


@pytest.fixture(scope="module")
def ranking():
    y, s = fastpr.datasets.skewed_ranking(n_samples=400, prevalence=0.2, seed=3)
    return y.astype(int), np.round(s, 6)


# ----------------------------------------------------------------------------- a bad cell
def test_a_bad_cell_in_one_of_two_models_is_an_error_naming_it(tmp_path, capsys, ranking):
    # The file was read as "1 model (model_b)", exit 0, nothing on stderr.
    y, s = ranking
    cells = s.astype(str).tolist()
    cells[6] = "oops"
    path = tmp_path / "preds.csv"
    path.write_text("y,model_a,model_b\n" + _rows(y, cells, s + 1))
    status, out, err = _evaluate(capsys, path, "--label", "y")
    assert (status, out) == (1, "")
    assert err == [f"fastpr evaluate: {path}: column 'model_a' holds 'oops' at row 7 (line 8), "
                   "which is not a number; leave the column out with --exclude model_a, or name "
                   "the models with --score."]


def test_a_bad_cell_in_the_only_model_is_named_too(tmp_path, capsys, ranking):
    # The error said the file had "no numeric column besides 'y'".
    y, s = ranking
    cells = s.astype(str).tolist()
    cells[0] = "n/a"
    path = tmp_path / "preds.csv"
    path.write_text("y,score\n" + _rows(y, cells))
    status, _, err = _evaluate(capsys, path, "--label", "y")
    assert status == 1
    assert err[0].startswith(f"fastpr evaluate: {path}: column 'score' holds 'n/a' at row 1 "
                             "(line 2), which is not a number")


def test_line_numbers_count_blank_lines_and_quoted_line_breaks(tmp_path, capsys):
    path = tmp_path / "p.csv"
    path.write_text('y,s,note\n1,0.5,"two\nlines"\n\n0,x,b\n')
    status, _, err = _evaluate(capsys, path, "--label", "y", "--score", "s")
    assert status == 1
    assert "column 's' holds 'x' at row 2 (line 5), which is not a number" in err[0]


def test_a_bad_cell_past_the_first_batch_is_named(tmp_path, capsys, monkeypatch, ranking):
    # Types inferred from the first batch must not hide a later cell that is not a number.
    monkeypatch.setattr(fastpr_io, "_BLOCK", 256)
    y, s = ranking
    cells = s.astype(str).tolist()
    cells[350] = "oops"
    path = tmp_path / "preds.csv"
    path.write_text("y,model_a,model_b\n" + _rows(y, cells, s))
    status, _, err = _evaluate(capsys, path, "--label", "y")
    assert status == 1
    assert err[0].startswith(f"fastpr evaluate: {path}: column 'model_a' holds 'oops' at row "
                             "351 (line 352), which is not a number")


def test_a_text_column_with_no_number_is_not_a_model(tmp_path, capsys, ranking):
    y, s = ranking
    path = tmp_path / "preds.csv"
    path.write_text("y,s,note\n" + _rows(y, s, ["x", "y"] * (y.size // 2)))
    status, out, _ = _evaluate(capsys, path, "--label", "y", "--format", "json")
    assert status == 0 and json.loads(out)["models"] == ["s"]


# ----------------------------------------------------------------------------- big integers
@pytest.mark.parametrize("offset", [0, 2**64])  # read as uint64; beyond any integer dtype
@pytest.mark.parametrize("named", [True, False])
def test_integers_float64_would_round_are_refused(tmp_path, capsys, ranking, offset, named):
    # A column of 2**63 + 1000 i became 489 thresholds out of 1,000, exit 0. (Pairs of equal
    # scores: integers all distinct would be an identifier, left out, without --score.)
    y, _ = ranking
    scores = [2**63 + 1000 * (i // 2) + offset for i in range(y.size)]
    path = tmp_path / "big.csv"
    path.write_text("y,s\n" + _rows(y, scores))
    status, out, err = _evaluate(capsys, path, "--label", "y", *(["--score", "s"] * named))
    assert (status, out) == (1, "")
    first = next(k for k, score in enumerate(scores) if float(score) != score)
    assert err[0].startswith(f"fastpr evaluate: {path}: column 's' holds {scores[first]} at row "
                             f"{first + 1}, which float64 cannot represent exactly")


def test_integers_float64_holds_are_exact_scores(tmp_path, capsys, ranking):
    y, _ = ranking
    scores = np.arange(y.size) * 1000 + 2**52
    path = tmp_path / "big.csv"
    path.write_text("y,s\n" + _rows(y, scores[::-1]))
    status, out, _ = _evaluate(capsys, path, "--label", "y", "--score", "s", "--format", "json")
    assert status == 0
    assert json.loads(out)["all"]["s"]["n_thresholds"] == y.size


@hypothesis.settings(max_examples=30, deadline=None,
                     suppress_health_check=[hypothesis.HealthCheck.function_scoped_fixture])
@hypothesis.given(values=st.lists(st.one_of(st.integers(-2**70, 2**70), st.floats(-1e6, 1e6)),
                                  min_size=1, max_size=40),
                  bad=st.sampled_from(["oops", "1_0", " 3", "0x1", "--1", "NA"]),
                  where=st.integers(0, 39), reader=st.sampled_from(fastpr_io.CSV_READERS))
def test_read_columns_never_rounds_nor_loses_a_cell(tmp_path, values, bad, where, reader):
    # Hostile cells: integers beyond float64 and int64, and text that some parsers read.
    # (pandas reads a number between spaces as the number, as it always has.)
    hypothesis.assume(not (reader == "pandas" and bad != bad.strip()))
    path = tmp_path / "h.csv"
    path.write_text("s\n" + "".join(f"{value}\n" for value in values))
    integers = all(isinstance(value, int) for value in values)
    held = integers and (-2**63 <= min(values) and max(values) < 2**63 or
                         0 <= min(values) and max(values) < 2**64)
    if not held and any(isinstance(value, int) and float(value) != value for value in values):
        with pytest.raises(fastpr_io.FileFormatError, match="which float64 cannot represent "
                           "exactly, and no integer dtype holds the column"):
            fastpr_io.read_columns(path, ["s"], reader=reader)
    else:
        read = fastpr_io.read_columns(path, ["s"], reader=reader)["s"]
        assert read.dtype.kind in ("iu" if held else "f")
        assert read.tolist() == (values if held else [float(value) for value in values])
    cells = [str(value) for value in values]
    cells.insert(min(where, len(cells)), bad)
    path.write_text("s\n" + "".join(f"{cell}\n" for cell in cells))
    read = fastpr_io.read_columns(path, ["s"], reader=reader)["s"]
    assert read.dtype.kind == "U" and read.tolist() == cells


def test_read_columns_refuses_integers_that_no_array_type_holds(tmp_path):
    path = tmp_path / "h.csv"
    path.write_text("s\n1\n" + str(2**64 + 1) + "\n")
    for reader in fastpr_io.CSV_READERS:
        with pytest.raises(fastpr_io.FileFormatError, match=f"column 's' holds {2**64 + 1} at "
                           "row 2, which float64 cannot represent exactly"):
            fastpr_io.read_columns(path, ["s"], reader=reader)


def test_parquet_integers_with_empty_cells_are_not_rounded(tmp_path):
    # Empty cells make a column float64 (NaN): its integers must fit, or the read is refused.
    import pyarrow
    import pyarrow.parquet

    path = tmp_path / "p.parquet"
    pyarrow.parquet.write_table(pyarrow.table({"s": [1, None, 2**60 + 1]}), path)
    with pytest.raises(fastpr_io.FileFormatError, match=f"column 's' holds {2**60 + 1} at row 3, "
                       "which float64 cannot represent exactly"):
        fastpr_io.read_columns(path)
    pyarrow.parquet.write_table(pyarrow.table({"s": [1, None, 2**52 + 1]}), path)
    np.testing.assert_array_equal(fastpr_io.read_columns(path)["s"], [1, np.nan, 2**52 + 1])


# ----------------------------------------------------------------------------- identifiers
def test_identifier_columns_are_left_out_with_a_note(tmp_path, capsys, ranking):
    # transaction_id was evaluated as a model (AUC-ROC 0.4999) without a word.
    y, s = ranking
    rng = np.random.default_rng(0)
    path = tmp_path / "fraud.csv"
    path.write_text("transaction_id,is_fraud,score,row,customerId,amount\n" + _rows(
        rng.permutation(y.size) + 10**9, y, s, np.arange(y.size), rng.integers(0, 50, y.size),
        rng.integers(0, 9, y.size)))
    status, out, err = _evaluate(capsys, path, "--label", "is_fraud", "--format", "json")
    assert status == 0
    assert json.loads(out)["models"] == ["score", "amount"]
    assert err == ["fastpr evaluate: left out 'transaction_id', 'row', 'customerId', which look "
                   "like identifiers (named like one, or integers all distinct); name a column "
                   "with --score to evaluate it."]
    status, out, err = _evaluate(capsys, path, "--label", "is_fraud", "--score", "row",
                                 "--format", "json")
    assert status == 0 and json.loads(out)["models"] == ["row"] and err == []


def test_exclude_leaves_columns_out(tmp_path, capsys, ranking):
    y, s = ranking
    path = tmp_path / "p.csv"
    path.write_text("y,a,b,c\n" + _rows(y, s, s * 2, -s))
    status, out, err = _evaluate(capsys, path, "--label", "y", "--exclude", "a",
                                 "--exclude", "c", "--format", "json")
    assert (status, err) == (0, []) and json.loads(out)["models"] == ["b"]
    status, _, err = _evaluate(capsys, path, "--label", "y", "--exclude", "d")
    assert status == 1 and err == [f"fastpr evaluate: --exclude d: {path} has no column 'd'; "
                                   "its columns are 'y', 'a', 'b', 'c'."]
    status, _, err = _evaluate(capsys, path, "--label", "y", "--exclude", "a", "--score", "b")
    assert status == 1 and err == ["fastpr evaluate: --exclude chooses among the columns "
                                   "evaluated without --score; with --score, name only the "
                                   "models."]


# ----------------------------------------------------------------------------- streaming
@pytest.mark.parametrize("block", [64, 1000, 1 << 20])
def test_batches_give_the_whole_file_s_columns(tmp_path, monkeypatch, block):
    # Ints then floats, a column that turns to text after the first batch, empty cells.
    monkeypatch.setattr(fastpr_io, "_BLOCK", block)
    n = 300
    ints = [str(i) for i in range(n)]
    mixed = ints[:200] + [f"{i}.5" for i in range(200, n)]
    late_text = ints[:250] + ["x"] + ints[251:]
    empty = ["" if i % 7 == 0 else str(i) for i in range(n)]
    path = tmp_path / "p.csv"
    path.write_text("i,m,t,e\n" + _rows(ints, mixed, late_text, empty))
    read = fastpr_io.read_columns(path)
    assert read["i"].dtype == np.int16 and read["i"].tolist() == list(range(n))
    assert read["m"].dtype == np.float64 and read["m"].tolist() == [float(v) for v in mixed]
    assert read["t"].tolist() == late_text
    expected = [np.nan if v == "" else float(v) for v in empty]
    np.testing.assert_array_equal(read["e"], expected)
    assert fastpr_io.read_columns(path, reader="csv")["t"].tolist() == late_text


def test_a_column_longer_than_expected_grows(tmp_path, monkeypatch):
    # The float column is sized from the first megabyte's lines; a wrong guess only costs a copy.
    monkeypatch.setattr(fastpr_io, "_BLOCK", 64)
    monkeypatch.setattr(fastpr_io, "_rows_expected", lambda text: 3)
    values = np.random.default_rng(4).normal(size=500).tolist()
    path = tmp_path / "p.csv"
    path.write_text("s\n" + "".join(f"{value!r}\n" for value in values))
    assert fastpr_io.read_columns(path)["s"].tolist() == values


def test_standard_input_is_read_in_batches(tmp_path, ranking):
    # Standard input was read whole (sys.stdin.buffer.read()) before any parsing.
    y, s = ranking
    text = "y,s\n" + _rows(y, s) * 40
    script = "\n".join([
        "import sys, types, fastpr.io as io",
        "io._BLOCK = 4096",
        "raw = sys.stdin.buffer",
        "def read(size=-1):",
        "    assert 0 <= size <= 1 << 16, size  # a whole read (size -1) would hold the text",
        "    return raw.read(size)",
        "sys.stdin = types.SimpleNamespace(buffer=types.SimpleNamespace(read=read))",
        "c = io.read_columns('-')",
        "print(c['y'].size, c['s'].dtype)"])
    result = subprocess.run([sys.executable, "-c", script], input=text, capture_output=True,
                            text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [str(40 * y.size), "float64"]


# ----------------------------------------------------------------------------- Ctrl-C
def test_ctrl_c_ends_the_command_in_one_line_with_130(tmp_path):
    # A multi-frame traceback, and the process ran on for up to 9 s.
    rng = np.random.default_rng(1)
    n = 2_000_000
    path = tmp_path / "p.npz"
    np.savez(path, y=rng.integers(0, 2, n), s=rng.random(n))
    process = subprocess.Popen([sys.executable, "-m", "fastpr", "evaluate", str(path),
                                "--label", "y", "--bootstrap", "100000", "--progress"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(1)
        for line in iter(process.stderr.readline, ""):  # the progress bar: the work has begun
            if "bootstrap of s" in line:
                break
        process.send_signal(signal.SIGINT)
        sent = time.monotonic()
        out, err = process.communicate(timeout=60)
        waited = time.monotonic() - sent
    finally:
        process.kill()
    assert process.returncode == 130
    assert err.splitlines()[-1] == "fastpr evaluate: interrupted" and "Traceback" not in err
    assert waited < 5, waited
