"""``fastpr evaluate FILE`` and ``fastpr demo --out``, run as a user runs them."""
import csv
import io
import json
import pathlib
import re
import subprocess
import sys

import matplotlib.image
import numpy as np
import pyarrow
import pyarrow.parquet
import pytest

import fastpr
import fastpr.plot
from fastpr import cli, datasets
from fastpr import io as fastpr_io
from fastpr.cli import report as cli_report


def _run(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "fastpr", *map(str, args)], capture_output=True,
                          text=True, timeout=300, cwd=cwd, check=False)


def _columns():
    y, a = datasets.skewed_ranking(n_samples=3000, prevalence=0.05)
    rng = np.random.default_rng(5)
    b = np.round(a + rng.normal(size=a.size), 3)
    w = rng.integers(1, 4, size=a.size).astype(float)
    group = np.array(["north", "south", "east"])[rng.integers(0, 3, size=a.size)]
    return {"y": y.astype(int), "a": a, "b": b, "w": w, "region": group}


def _write_csv(path, columns):
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(columns)
        writer.writerows(zip(*[values.tolist() for values in columns.values()]))
    return path


@pytest.fixture(scope="module")
def data():
    return _columns()


@pytest.fixture(scope="module")
def csv_file(tmp_path_factory, data):
    return _write_csv(tmp_path_factory.mktemp("cli") / "predictions.csv", data)


def _json(*args):
    result = _run("evaluate", *args, "--format", "json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def _expected(y, s, w=None):
    return fastpr.evaluate(y, s, sample_weight=w).to_dict()


def _metrics(results):
    """The Evaluation fields of one results dict of the report."""
    return {name: results[name] for name in cli_report.FIELDS}


def test_json_holds_every_estimator_of_every_model(csv_file, data):
    report = _json(csv_file, "--label", "y", "--score", "a", "--score", "b", "--weight", "w")
    assert list(report) == ["file", "n_rows", "models", "added_metrics", "interval", "all",
                            "groups", "mean", "mean_over"]
    assert report["added_metrics"] == []
    assert report["models"] == ["a", "b"] and report["n_rows"] == 3000
    assert report["interval"] is report["groups"] is report["mean"] is report["mean_over"] is None
    for model in ("a", "b"):
        results = report["all"][model]
        assert list(results) == [*cli_report.FIELDS, "auc_pr_ci_low", "auc_pr_ci_high"]
        assert _metrics(results) == pytest.approx(
            _expected(data["y"], data[model], data["w"]), rel=1e-12)
        assert results["auc_pr_ci_low"] is results["auc_pr_ci_high"] is None


def test_counts_are_integers_unless_weights_make_fractions(tmp_path, data):
    report = _json(_write_csv(tmp_path / "c.csv", data), "--label", "y", "--score", "a")
    assert type(report["all"]["a"]["n_pos"]) is int and type(report["all"]["a"]["n_neg"]) is int
    halves = {**data, "w": data["w"] / 2}
    report = _json(_write_csv(tmp_path / "h.csv", halves), "--label", "y", "--score", "a",
                   "--weight", "w")
    expected = halves["w"][data["y"] == 1].sum()
    assert report["all"]["a"]["n_pos"] == expected and not float(expected).is_integer()


def test_csv_output_has_one_line_per_model_and_every_metric(csv_file, data):
    result = _run("evaluate", csv_file, "--label", "y", "--score", "b", "--score", "a",
                  "--format", "csv")
    assert result.returncode == 0, result.stderr
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert list(rows[0]) == ["subset", "group", "model", *cli_report.FIELDS, "auc_pr_ci_low",
                             "auc_pr_ci_high"]
    assert [(row["subset"], row["group"], row["model"]) for row in rows] == [
        ("all", "", "b"), ("all", "", "a")]
    for row in rows:
        expected = _expected(data["y"], data[row["model"]])
        assert {name: float(row[name]) for name in expected} == pytest.approx(expected,
                                                                              rel=1e-12)
        assert row["auc_pr_ci_low"] == row["auc_pr_ci_high"] == ""


def _table(stdout):
    """The table's head and rows (lists of cells), from the line after the title to the first
    blank line; and the lines after it."""
    lines = stdout.splitlines()
    end = lines.index("", 2)
    return lines[2].split(), [line.split() for line in lines[3:end]], lines[end + 1:]


def test_table_has_one_row_per_model_and_a_key(csv_file, data):
    result = _run("evaluate", csv_file, "--label", "y", "--score", "a", "--score", "b")
    assert result.returncode == 0, result.stderr
    head, rows, after = _table(result.stdout)
    assert head[:3] == ["model", "pos", "neg"] and [row[0] for row in rows] == ["a", "b"]
    for model, row in zip("ab", rows):
        assert float(row[head.index("pr")]) == round(fastpr.auc_pr(data["y"], data[model]), 4)
        assert row[head.index("pos")] == str(int(data["y"].sum()))  # a count, no decimals
    key = " ".join(after)
    assert key.startswith("key: ") and all(f"{h} = " in key for h in head[1:])


def test_groups_give_per_group_results_and_their_mean(csv_file, data):
    report = _json(csv_file, "--label", "y", "--score", "a", "--group", "region")
    assert sorted(report["groups"]) == ["east", "north", "south"]
    areas = []
    for name, results in report["groups"].items():
        rows = data["region"] == name
        assert _metrics(results["a"]) == pytest.approx(
            _expected(data["y"][rows], data["a"][rows]), rel=1e-12)
        areas.append(results["a"]["auc_pr"])
    assert report["mean"]["a"]["auc_pr"] == pytest.approx(np.mean(areas), rel=1e-12)
    assert report["mean"]["a"]["n_pos"] is None
    assert report["mean_over"] == {"groups": 3, "used": 3, "no_positives": 0, "no_negatives": 0}


@pytest.fixture(scope="module")
def group_without_positives(tmp_path_factory, data):
    """The data with no positive in group 'east' (and no negative in a fourth group)."""
    y = np.where(data["region"] == "east", 0, data["y"])
    region = np.where(np.arange(y.size) < 5, "west", data["region"])
    y[:5] = 1
    columns = {**data, "y": y, "region": region}
    return _write_csv(tmp_path_factory.mktemp("cli") / "groups.csv", columns), columns


def test_group_mean_says_which_groups_it_covers(group_without_positives):
    path, columns = group_without_positives
    report = _json(path, "--label", "y", "--score", "a", "--score", "b", "--group", "region")
    assert report["mean_over"] == {"groups": 4, "used": 2, "no_positives": 1, "no_negatives": 1}
    for model in ("a", "b"):
        per_group = [fastpr.evaluate(columns["y"][columns["region"] == g],
                                     columns[model][columns["region"] == g])
                     for g in ("north", "south")]  # the groups with both classes
        for name in cli_report.MEAN_FIELDS:
            assert report["mean"][model][name] == pytest.approx(
                np.mean([getattr(e, name) for e in per_group]), rel=1e-12)
        assert report["groups"]["east"][model]["auc_pr"] is None  # undefined: null
    table = _run("evaluate", path, "--label", "y", "--score", "a", "--score", "b", "--group",
                 "region").stdout
    head, rows, after = _table(table)
    assert head[:2] == ["group", "model"]
    assert [row[:2] for row in rows] == [["(all)", "a"], ["(all)", "b"]] + [
        [g, m] for g in ("east", "north", "south", "west") for m in "ab"] + [
        ["(mean)", "a"], ["(mean)", "b"]]
    assert after[0] == ("(mean): mean over 2 of 4 groups (1 had no positives; 1 had no "
                        "negatives)")


def test_bootstrap_interval_is_the_library_s(csv_file, data):
    report = _json(csv_file, "--label", "y", "--score", "a", "--bootstrap", "64", "--seed", "3",
                   "--ci-method", "basic")
    expected = fastpr.bootstrap(data["y"], data["a"], n_boot=64, seed=3, interval="basic")
    assert report["all"]["a"]["auc_pr_ci_low"] == pytest.approx(expected.low, rel=1e-12)
    assert report["all"]["a"]["auc_pr_ci_high"] == pytest.approx(expected.high, rel=1e-12)
    assert report["interval"] == {"metric": "auc_pr", "method": "basic", "confidence": 0.95,
                                  "replicates": 64, "seed": 3}


def test_table_shows_the_interval_beside_its_area(csv_file, data):
    result = _run("evaluate", csv_file, "--label", "y", "--score", "a", "--bootstrap", "64",
                  "--confidence", "0.9")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    expected = fastpr.bootstrap(data["y"], data["a"], n_boot=64, seed=0, confidence=0.9)
    assert lines[2].split()[7:10] == ["pr", "90%", "CI"]
    assert f"{expected.estimate:.4f}  [{expected.low:.4f}, {expected.high:.4f}]" in lines[3]
    assert "90% CI = percentile bootstrap interval of pr, 64 replicates, seed 0" in " ".join(
        line.strip() for line in lines)


# --------------------------------------------------------------------------- operating points
POINTS = ["--at-precision", "0.3", "--at-precision", "0.2", "--at-recall", "0.5", "--at-fpr",
          "0.05", "--at-tpr", "0.9", "--top-k", "100", "--top-k", "7"]
ADDED = ["recall@precision>=0.3", "recall@precision>=0.2", "precision@recall>=0.5",
         "tpr@fpr<=0.05", "tnr@tpr>=0.9", "precision@100", "recall@100", "precision@7",
         "recall@7"]


def _library_points(y, s, w=None, groups=None):
    """The added columns by fastpr's functions: {name: value} (per group: arrays)."""
    options = dict(sample_weight=w, groups=groups)

    def value(result, field, at):
        if isinstance(result, list):
            return np.array([np.atleast_1d(getattr(r, field))[at] for r in result])
        return np.asarray(getattr(result, field)).reshape(-1, 2)[:, at].squeeze()

    at_precision = fastpr.recall_at_precision(y, s, [0.3, 0.2], **options)
    top = fastpr.top_k(y, s, [100, 7], **options)
    single = {name: getattr(fastpr, function)(y, s, level, **options) for name, function, level
              in (("precision@recall>=0.5", "precision_at_recall", 0.5),
                  ("tpr@fpr<=0.05", "tpr_at_fpr", 0.05), ("tnr@tpr>=0.9", "tnr_at_tpr", 0.9))}
    return {"recall@precision>=0.3": value(at_precision, "value", 0),
            "recall@precision>=0.2": value(at_precision, "value", 1),
            **{name: (np.array([r.value for r in result]) if isinstance(result, list)
                      else result.value) for name, result in single.items()},
            "precision@100": value(top, "precision", 0), "recall@100": value(top, "recall", 0),
            "precision@7": value(top, "precision", 1), "recall@7": value(top, "recall", 1)}


def test_operating_points_and_top_k_add_columns_of_the_library_s_values(csv_file, data):
    report = _json(csv_file, "--label", "y", "--score", "a", "--score", "b", "--weight", "w",
                   *POINTS)
    assert report["added_metrics"] == ADDED
    for model in ("a", "b"):
        results = report["all"][model]
        assert list(results) == [*cli_report.METRICS, *ADDED]
        expected = _library_points(data["y"], data[model], data["w"])
        for name in ADDED:
            assert results[name] == pytest.approx(float(expected[name]), rel=1e-12), name


def test_added_columns_per_group_and_their_mean(csv_file, data):
    report = _json(csv_file, "--label", "y", "--score", "a", "--group", "region", *POINTS)
    expected = _library_points(data["y"], data["a"], groups=data["region"])
    for name in ADDED:
        per_group = [report["groups"][g]["a"][name] for g in ("east", "north", "south")]
        assert per_group == pytest.approx(list(expected[name]), rel=1e-12), name
        assert report["mean"]["a"][name] == pytest.approx(np.mean(per_group), rel=1e-12)


def test_added_columns_in_the_table_csv_and_key(csv_file, data):
    table = _run("evaluate", csv_file, "--label", "y", "--score", "a", "--at-precision", "0.3",
                 "--top-k", "100")
    assert table.returncode == 0, table.stderr
    head, rows, after = _table(table.stdout)
    assert head[-3:] == ["R@P>=0.3", "P@100", "R@100"]
    expected = _library_points(data["y"], data["a"])
    assert rows[0][-3:] == [f"{float(expected[name]):.4f}" for name in (
        "recall@precision>=0.3", "precision@100", "recall@100")]
    key = " ".join(line.strip() for line in after)
    assert ("R@P>=0.3 = best recall at one threshold with precision >= 0.3; P@100 = precision "
            "of the 100 highest scores; R@100 = recall of the 100 highest scores.") in key
    result = _run("evaluate", csv_file, "--label", "y", "--score", "a", "--at-tpr", "0.9",
                  "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert list(rows[0])[-1] == "tnr@tpr>=0.9"
    assert float(rows[0]["tnr@tpr>=0.9"]) == pytest.approx(
        fastpr.tnr_at_tpr(data["y"], data["a"], 0.9).value, rel=1e-12)


@pytest.mark.parametrize("args, message", [
    (["--at-precision", "1.5"], r"--at-precision must .*1\.5"),
    (["--top-k", "0"], r"--top-k .*0"),
    (["--at-fpr", "0.1", "--at-fpr", "0.1"], r"--at-fpr 0\.1 is given more than once"),
])
def test_bad_operating_point_options_end_with_one_line(csv_file, args, message):
    result = _run("evaluate", csv_file, "--label", "y", "--score", "a", *args)
    assert result.returncode == 1 and result.stdout == ""
    assert re.fullmatch(rf"fastpr evaluate: {message}.*\n", result.stderr), result.stderr


def test_progress_bars_name_their_model(csv_file):
    result = _run("evaluate", csv_file, "--label", "y", "--score", "a", "--score", "b",
                  "--bootstrap", "64", "--progress", "--format", "json")
    assert result.returncode == 0, result.stderr
    finished = [line.split(":")[0] for line in re.split(r"[\r\n]", result.stderr)
                if "64/64" in line]  # a bar may redraw its last state
    assert list(dict.fromkeys(finished)) == ["bootstrap of a", "bootstrap of b"]
    assert json.loads(result.stdout)["all"]["a"]["auc_pr_ci_low"] > 0


def test_parquet_npz_and_every_csv_reader_agree(tmp_path, csv_file, data):
    numeric = {k: v for k, v in data.items() if k != "region"}
    np.savez(tmp_path / "p.npz", **numeric)
    pyarrow.parquet.write_table(pyarrow.table(data), tmp_path / "p.parquet")
    args = ("--label", "y", "--score", "a", "--weight", "w")
    from_csv = _json(csv_file, *args)["all"]
    assert _json(tmp_path / "p.npz", *args)["all"] == from_csv
    assert _json(tmp_path / "p.parquet", *args)["all"] == from_csv
    for reader in ("pyarrow", "pandas", "csv"):
        columns = fastpr_io.read_columns(csv_file, ["region", "y", "a"], reader=reader)
        assert list(columns) == ["region", "y", "a"]
        np.testing.assert_array_equal(columns["y"], data["y"])
        np.testing.assert_array_equal(columns["a"], data["a"])
        np.testing.assert_array_equal(columns["region"], data["region"])


def test_text_labels_with_pos_label(tmp_path):
    path = _write_csv(tmp_path / "t.csv", {"kind": np.array(["spam", "ham", "spam", "ham"]),
                                           "s": np.array([0.9, 0.8, 0.3, 0.1])})
    report = _json(path, "--label", "kind", "--score", "s", "--pos-label", "spam")
    assert report["all"]["s"]["auc_roc"] == fastpr.auc_roc([1, 0, 1, 0], [0.9, 0.8, 0.3, 0.1])


def _png_is_drawn(path):
    image = matplotlib.image.imread(path)
    return path.stat().st_size > 10_000 and image[..., :3].std() > 0.05


def test_plot_option_writes_the_curves(tmp_path, csv_file):
    result = _run("evaluate", csv_file, "--label", "y", "--score", "a", "--score", "b",
                  "--plot", tmp_path / "curves.png")
    assert result.returncode == 0, result.stderr
    assert _png_is_drawn(tmp_path / "curves.png")


def test_plot_draws_each_model_s_bootstrap_interval(tmp_path, csv_file, monkeypatch, capsys):
    drawn = []
    plot_pr = fastpr.plot.plot_pr

    def spy(*args, **kwargs):
        drawn.append((kwargs["label"], kwargs["bootstrap"]))
        return plot_pr(*args, **kwargs)

    monkeypatch.setattr(fastpr.plot, "plot_pr", spy)
    assert cli.main(["evaluate", str(csv_file), "--label", "y", "--score", "a", "--score", "b",
                     "--bootstrap", "32", "--plot", str(tmp_path / "c.png"),
                     "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [label for label, _ in drawn] == ["a", "b"]
    for label, interval in drawn:
        assert (interval.low, interval.high) == (report["all"][label]["auc_pr_ci_low"],
                                                 report["all"][label]["auc_pr_ci_high"])
    assert _png_is_drawn(tmp_path / "c.png")


# The cell errors name the cell's line too (before: only the row).
BAD_INPUTS = [
    ("label,score\n1,0.5\n0,0.2\n1,\n0,0.1\n", ["--score", "score"],
     "column 'score' contains NaN at row 3 (1 NaN in all)."),
    ("label,score\n1,0.5\n0,0.2\n1,abc\n", ["--score", "score"],
     "column 'score' holds 'abc' at row 3 (line 4), which is not a number."),
    # Python's float() reads these; the CSV readers leave them as text.
    ("label,score\n1,0.5\n0,1_000\n", ["--score", "score"],
     "column 'score' holds '1_000' at row 2 (line 3), which is not a number."),
    ("label,score\n1,0.5\n0,\u0661\u0662\n", ["--score", "score"],
     "column 'score' holds '\u0661\u0662' at row 2 (line 3), which is not a number."),
    ("label,score\n1,0.5\n0,0.2\n2,0.3\n0,0.1\n", ["--score", "score"],
     ("column 'label' must have two classes, got 3 distinct labels: 0, 1, 2; a third label "
      "first appears at row 3 (2).")),
    ("label,score\n1,0.5\n1,0.2\n", ["--score", "score"],
     ("column 'label' has no negatives (or they all weigh 0), so fastpr cannot compute the ROC "
      "and PR areas.")),
    ("label,score\nyes,0.5\nno,0.2\n", ["--score", "score"],
     ("column 'label' has labels ['no', 'yes'], which are not {0, 1}, {-1, 1} or bool; pass "
      "--pos-label to say which one is positive.")),
    ("label,score\nyes,0.5\nno,0.2\n", ["--score", "score", "--pos-label", "maybe"],
     "--pos-label='maybe' is not a label of column 'label', whose labels are ['no', 'yes']."),
    ("label,score\n1,0.5\n0,0.2\n", ["--score", "score", "--pos-label", "x"],
     "--pos-label 'x' is not a number, but column 'label' holds numbers."),
    ("label,score\n1,0.5\n0,0.2\n", ["--score", "score", "--weight", "w"],
     "has no column 'w'; its columns are 'label', 'score'."),
    ("label,score,w\n1,0.5,1\n0,0.2,-2\n", ["--score", "score", "--weight", "w"],
     "column 'w' must be >= 0, got -2.0 at row 2."),
    ("label,score\n1,0.5\n0\n", ["--score", "score"], "the header has 2 fields, but row 2 has 1."),
    ("label,score\n", ["--score", "score"], "column 'label' is empty."),
]


@pytest.mark.parametrize("content, args, message", BAD_INPUTS)
def test_bad_input_ends_with_one_line(tmp_path, content, args, message):
    path = tmp_path / "bad.csv"
    path.write_text(content)
    result = _run("evaluate", path, "--label", "label", *args)
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("fastpr evaluate: ")
    assert message in result.stderr and str(path) in result.stderr


def test_read_columns_rejects_an_unknown_reader(csv_file):
    with pytest.raises(ValueError, match="reader must be one of 'pyarrow', 'pandas', 'csv'; got 'x'"):
        fastpr_io.read_columns(csv_file, ["y"], reader="x")


def test_pos_label_names_big_integer_and_bytes_labels_exactly(tmp_path):
    # Through float(), 2**53 + 1 became 2**53, the other class; bytes were compared with text.
    big = 2**53
    np.savez(tmp_path / "big.npz", y=np.array([big, big + 1, big + 1, big, big]),
             s=[0.1, 0.9, 0.8, 0.2, 0.3])
    report = _json(tmp_path / "big.npz", "--label", "y", "--score", "s", "--pos-label",
                   str(big + 1))
    assert (report["all"]["s"]["n_pos"], report["all"]["s"]["auc_roc"]) == (2, 1.0)
    np.savez(tmp_path / "bytes.npz", y=np.array([b"a", b"b", b"b", b"a"]), s=[0.1, 0.9, 0.8, 0.2])
    report = _json(tmp_path / "bytes.npz", "--label", "y", "--score", "s", "--pos-label", "b")
    assert (report["all"]["s"]["n_pos"], report["all"]["s"]["auc_roc"]) == (2, 1.0)


def test_npz_arrays_must_be_one_dimensional(tmp_path):
    np.savez(tmp_path / "p.npz", y=[0, 1], s=[[0.1, 0.2]])
    result = _run("evaluate", tmp_path / "p.npz", "--label", "y", "--score", "s")
    assert result.returncode == 1
    assert result.stderr == (f"fastpr evaluate: {tmp_path / 'p.npz'}: column 's' must be 1-D, "
                             "got an array of shape (1, 2).\n")


def test_missing_file_and_unknown_format(tmp_path):
    result = _run("evaluate", tmp_path / "nowhere.csv", "--label", "y", "--score", "s")
    assert result.returncode == 1
    assert result.stderr == f"fastpr evaluate: cannot read {tmp_path / 'nowhere.csv'}: " \
                            "No such file or directory\n"
    (tmp_path / "p.xlsx").write_text("")
    result = _run("evaluate", tmp_path / "p.xlsx", "--label", "y", "--score", "s")
    assert result.returncode == 1 and "has suffix '.xlsx'; fastpr reads .csv" in result.stderr


def test_missing_extras_are_named(tmp_path, monkeypatch, capsys, csv_file):
    pyarrow.parquet.write_table(pyarrow.table({"y": [0, 1], "s": [0.1, 0.2]}),
                                tmp_path / "p.parquet")
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    assert cli.main(["evaluate", str(tmp_path / "p.parquet"), "--label", "y", "--score", "s"]) == 1
    assert capsys.readouterr().err == ("fastpr evaluate: this needs pyarrow.parquet, which is not "
                                       'installed: pip install "fastpr[parquet]"\n')
    assert cli.main(["evaluate", str(csv_file), "--label", "y", "--score", "a",
                     "--plot", str(tmp_path / "x.png")]) == 1
    assert capsys.readouterr().err == ("fastpr evaluate: this needs matplotlib.figure, which is not "
                                       'installed: pip install "fastpr[plot]"\n')


def test_demo_writes_its_figures(tmp_path):
    result = _run("demo", "--out", tmp_path / "figures")
    assert result.returncode == 0, result.stderr
    names = ["roc_hull.png", "pr_curve.png", "pr_linear_error.png", "reversal.png"]
    assert sorted(p.name for p in (tmp_path / "figures").iterdir()) == sorted(names)
    for name in names:
        assert _png_is_drawn(tmp_path / "figures" / name), name
    listed = result.stdout.split("\nFigures:\n")[1].splitlines()
    assert [line.split()[0] for line in listed] == [str(tmp_path / "figures" / name)
                                                   for name in names]


def test_demo_without_matplotlib_says_which_extra(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    assert cli.main(["demo", "--out", str(tmp_path / "f")]) == 0
    out = capsys.readouterr().out
    # The hint said "fastpr[plot]" where the README installs ".[plot]": the same command in both.
    readme = (pathlib.Path(__file__).parent.parent / "README.md").read_text()
    install = re.search(r'`((?:\S*/)?pip install (?:-q )?"[^"]*\[plot\]")`', readme).group(1)
    assert out.rstrip().splitlines()[-1] == (
        f'Figures: {install} and fastpr demo draws them into {tmp_path / "f"}/.')
    assert "interpolated AUC-PR (correct)" in out and not (tmp_path / "f").exists()
