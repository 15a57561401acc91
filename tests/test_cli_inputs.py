"""``fastpr evaluate`` read as a new user feeds it: standard input, .tsv, compressed CSV, a file
of many score columns; ``--version``, ``--help``, missing extras and a reader that goes away."""
import bz2
import gzip
import json
import subprocess
import sys

import numpy as np
import pyarrow
import pytest

import fastpr
from fastpr import cli, datasets
from fastpr import io as fastpr_io


def _run(*args, **kwargs):
    return subprocess.run([sys.executable, "-m", "fastpr", *map(str, args)], capture_output=True,
                          text=True, timeout=300, check=False, **kwargs)


def _stderr_lines(stderr):
    """stderr without the notice of a first compile (an empty kernel cache)."""
    return [line for line in stderr.splitlines()
            if not line.startswith("fastpr: compiling kernels for first use")]


@pytest.fixture(scope="module")
def data():
    y, a = datasets.skewed_ranking(n_samples=1500, prevalence=0.1)
    rng = np.random.default_rng(2)
    note = np.array(["x", "y", "z"])[rng.integers(0, 3, a.size)]
    return {"y": y.astype(int), "a": a, "note": note,
            "b": np.round(a + rng.normal(size=a.size), 3), "w": rng.integers(1, 4, a.size)}


def _text(columns, delimiter=","):
    lines = [delimiter.join(columns)]
    lines += [delimiter.join(map(str, row)) for row in zip(*[v.tolist() for v in columns.values()])]
    return "\n".join(lines) + "\n"


def _write_zst(path, content):
    with pyarrow.output_stream(str(path), compression="zstd") as stream:
        stream.write(content)


WRITERS = {
    "p.tsv": lambda path, text: path.write_text(text),
    "p.csv.gz": lambda path, text: path.write_bytes(gzip.compress(text.encode())),
    "p.tsv.bz2": lambda path, text: path.write_bytes(bz2.compress(text.encode())),
    "p.csv.zst": lambda path, text: _write_zst(path, text.encode()),
}


@pytest.fixture(scope="module")
def files(tmp_path_factory, data):
    folder = tmp_path_factory.mktemp("inputs")
    paths = {"p.csv": folder / "p.csv"}
    paths["p.csv"].write_text(_text(data))
    for name, write in WRITERS.items():
        paths[name] = folder / name
        write(paths[name], _text(data, "\t" if ".tsv" in name else ","))
    return paths


@pytest.mark.parametrize("name", list(WRITERS))
@pytest.mark.parametrize("reader", fastpr_io.CSV_READERS)
def test_tsv_and_compressed_text_read_as_the_csv_does(files, data, name, reader):
    columns = fastpr_io.read_columns(files[name], ["note", "y", "a", "w"], reader=reader)
    for column, values in columns.items():
        np.testing.assert_array_equal(values, data[column])


def test_evaluate_reads_compressed_files_and_standard_input(files, data):
    args = ("--label", "y", "--score", "a", "--weight", "w", "--format", "json")
    expected = fastpr.evaluate(data["y"], data["a"], sample_weight=data["w"]).to_dict()
    from_stdin = _run("evaluate", "-", *args, input=files["p.csv"].read_text())
    assert from_stdin.returncode == 0, from_stdin.stderr
    report = json.loads(from_stdin.stdout)
    assert report["file"] == "<stdin>"
    assert {k: report["all"]["a"][k] for k in expected} == pytest.approx(expected, rel=1e-12)
    for name in ("p.csv.gz", "p.tsv.bz2", "p.csv.zst"):
        result = _run("evaluate", files[name], *args)
        assert result.returncode == 0, result.stderr
        assert json.loads(result.stdout)["all"] == report["all"], name


def test_bad_standard_input_is_named_in_one_line():
    result = _run("evaluate", "-", "--label", "y", "--score", "s", input="y,s\n1,0.5\n0\n")
    assert result.returncode == 1 and result.stdout == ""
    assert _stderr_lines(result.stderr) == [
        "fastpr evaluate: <stdin>: the header has 2 fields, but row 2 has 1."]


@pytest.mark.parametrize("name", ["p.csv.gz", "p.csv.bz2", "p.csv.zst"])
def test_damaged_compressed_file_is_one_line(tmp_path, capsys, name):
    path = tmp_path / name
    path.write_bytes(b"y,s\n1,0.5\n")  # not compressed at all
    assert cli.main(["evaluate", str(path), "--label", "y", "--score", "s"]) == 1
    err = capsys.readouterr().err
    assert _stderr_lines(err) == [(f"fastpr evaluate: {path}: cannot be decompressed as "
                                   f"{name[5:]} (damaged, truncated or not compressed).")]


def test_unknown_compressed_suffix_is_named(tmp_path, capsys):
    path = tmp_path / "p.json.gz"
    path.write_bytes(gzip.compress(b"{}"))
    assert cli.main(["evaluate", str(path), "--label", "y", "--score", "s"]) == 1
    assert "has suffix '.gz'; fastpr reads .csv, .txt, .tsv" in capsys.readouterr().err


def test_without_score_every_numeric_column_is_a_model(files, data):
    everything = json.loads(_run("evaluate", files["p.csv"], "--label", "y", "--weight", "w",
                                 "--format", "json").stdout)
    assert everything["models"] == ["a", "b"]  # "note" is text, "y" and "w" have their roles
    named = json.loads(_run("evaluate", files["p.csv"], "--label", "y", "--weight", "w",
                            "--score", "b", "--score", "a", "--format", "json").stdout)
    assert everything["all"] == named["all"]
    assert list(everything["all"]) == ["a", "b"] and list(named["all"]) == ["b", "a"]


def test_without_score_a_file_of_no_numeric_column_is_refused(tmp_path, capsys):
    path = tmp_path / "t.csv"
    path.write_text("y,name\n1,a\n0,b\n")
    assert cli.main(["evaluate", str(path), "--label", "y"]) == 1
    assert capsys.readouterr().err == (f"fastpr evaluate: {path} has no numeric column besides "
                                       "'y' to evaluate; name one with --score.\n")
    assert cli.main(["evaluate", str(path), "--label", "label"]) == 1
    assert capsys.readouterr().err == (f"fastpr evaluate: {path} has no column 'label'; its "
                                       "columns are 'y', 'name'.\n")


def test_version():
    result = _run("--version")
    assert result.returncode == 0 and result.stdout == f"fastpr {fastpr.__version__}\n"


def test_every_option_has_help_and_the_output_shape_is_documented():
    parser = cli._parser()
    commands = next(a for a in parser._actions if a.dest == "command").choices
    for command in [parser, *commands.values()]:
        for action in command._actions:
            if action.dest != "command":
                assert action.help, (command.prog, action.dest)
    result = _run("evaluate", "--help")
    assert result.returncode == 0
    for words in ("--ci-method {percentile,basic,bca}", "--confidence LEVEL", "--format",
                  '"mean_over": null or {"groups", "used", "no_positives", "no_negatives"}',
                  "subset (all, group or mean)", "auc_pr_ci_low auc_pr_ci_high"):
        assert words in result.stdout, words


@pytest.mark.parametrize("module, extra, option", [("tqdm", "progress", "--progress"),
                                                   ("matplotlib.figure", "plot", "--plot")])
def test_missing_extras_are_named_before_the_file_is_read(tmp_path, monkeypatch, capsys, module,
                                                         extra, option):
    monkeypatch.setitem(sys.modules, module, None)
    more = [str(tmp_path / "c.png")] if option == "--plot" else []
    assert cli.main(["evaluate", str(tmp_path / "nowhere.csv"), "--label", "y", "--score", "s",
                     "--bootstrap", "10", option, *more]) == 1
    assert capsys.readouterr().err == (f"fastpr evaluate: this needs {module}, which is not "
                                       f'installed: pip install "fastpr[{extra}]"\n')


def test_zst_without_pyarrow_names_the_extra(files, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    assert cli.main(["evaluate", str(files["p.csv.zst"]), "--label", "y", "--score", "a"]) == 1
    assert capsys.readouterr().err == ("fastpr evaluate: this needs pyarrow, which is not "
                                       'installed: pip install "fastpr[zstd]"\n')


@pytest.mark.parametrize("args", [["demo", "--no-figures"],
                                  ["evaluate", "FILE", "--label", "y", "--score", "a"]])
def test_a_reader_gone_away_ends_quietly_with_141(files, args):
    """``fastpr demo | head -1``: the reader closes the pipe; no traceback, the shell's status
    for SIGPIPE (here the pipe is closed before anything is written, so that the write fails
    whatever the timing)."""
    args = [str(files["p.csv"]) if a == "FILE" else a for a in args]
    process = subprocess.Popen([sys.executable, "-m", "fastpr", *args], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    process.stdout.close()
    stderr = process.stderr.read()
    assert process.wait(timeout=300) == cli.BROKEN_PIPE_STATUS == 141
    assert _stderr_lines(stderr) == []


def test_demo_piped_into_head(tmp_path):
    """As the user types it: head has long exited when the demo, done drawing its figures,
    prints their list."""
    pipeline = f"set -o pipefail; '{sys.executable}' -m fastpr demo | head -1"
    result = subprocess.run(["bash", "-c", pipeline],
                            capture_output=True, text=True, timeout=300, check=False,
                            cwd=tmp_path)
    assert result.stdout == "Davis & Goadrich (2006) Table 1: interpolating between A = " \
                            "(TP 5, FP 5) and\n"
    assert result.returncode == 141
    assert _stderr_lines(result.stderr) == []


def test_table_shows_rare_class_values_and_weighted_totals(tmp_path, capsys):
    rng = np.random.default_rng(0)
    y = np.zeros(20_000, int)
    y[rng.choice(y.size, 3, replace=False)] = 1
    s, w = rng.normal(size=y.size) + 2 * y, np.full(y.size, 0.5)
    np.savez(tmp_path / "rare.npz", y=y, s=s, w=w)
    assert cli.main(["evaluate", str(tmp_path / "rare.npz"), "--label", "y", "--weight", "w"]) == 0
    lines = capsys.readouterr().out.splitlines()
    cells = dict(zip(lines[2].split(), lines[3].split()))
    e = fastpr.evaluate(y, s, sample_weight=w)
    assert (cells["pos"], cells["neg"]) == ("1.5", "9998.5")  # weight totals, not rounded
    assert cells["prev"] == f"{e.prevalence:.2e}" == "1.50e-04"  # not 0.0000
    assert cells["pr_min"] == f"{e.auc_pr_min:.2e}" and cells["pr"] == f"{e.auc_pr:.4f}"
