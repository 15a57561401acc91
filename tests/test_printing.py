"""What a user sees: printed results show their numbers as short tables, and ``to_frame`` gives
the same table as a pandas DataFrame."""
import sys

import numpy as np
import pytest

import fastpr
from fastpr import datasets
from fastpr.intervals import Comparison
from fastpr.results import WIDTH, number_text, p_value_text


@pytest.fixture(scope="module")
def ranking():
    return datasets.skewed_ranking()


def _lines(result):
    text = repr(result)
    assert "array(" not in text, text
    assert all(len(line) <= WIDTH for line in text.splitlines()), text
    return text.splitlines()


def test_number_text_keeps_four_significant_digits_and_whole_numbers():
    assert [number_text(v) for v in (0.0939027, 197.0, 19803, 0.00494125, 19803.7, 2.5e-5,
                                     float("inf"), float("nan"), 1.0, True)] == [
        "0.0939", "197", "19803", "0.004941", "19804", "2.5e-05", "inf", "NaN", "1", "True"]


def test_p_values_print_as_a_bound_below_what_the_test_resolves():
    assert p_value_text(0.0) == "< 1e-16"
    assert p_value_text(3e-300, bound=1 / 1000) == "< 0.001"
    assert p_value_text(0.00042, bound=1 / 1000) == "< 0.001"
    assert p_value_text(0.0123, bound=1 / 1000) == "0.012"
    assert p_value_text(float("nan")) == "NaN"


def test_a_batch_prints_a_row_per_ranking_with_its_numbers():
    batch = fastpr.evaluate([1, 0, 1, 0], {"sharp": [0.9, 0.8, 0.7, 0.1],
                                           "reversed": [0.1, 0.2, 0.3, 0.4],
                                           "tied": [0.5, 0.5, 0.5, 0.5]})
    lines = _lines(batch)
    assert lines[0] == "EvaluationBatch of 3 rankings"
    header = lines[1].split()
    assert header[:3] == ["model", "n_pos", "n_neg"] and "auc_roc" in header
    rows = {line.split()[0]: line.split() for line in lines[2:5]}
    column = header.index("auc_roc")
    assert [rows[m][column] for m in ("sharp", "reversed", "tied")] == ["0.75", "0.25", "0.5"]
    # Every field is printed, in blocks of columns that fit the width.
    printed = {word for line in lines for word in line.split()}
    assert {f for f in batch.to_frame().columns} <= printed


def test_a_long_batch_keeps_its_first_and_last_rows():
    scores = np.random.default_rng(0).random((100, 40))
    lines = _lines(fastpr.evaluate(np.arange(40) % 3 == 0, scores))
    labels = [line.split()[0] for line in lines[1:] if line and line[0] != "["]
    assert labels[:12] == ["ranking", "0", "1", "2", "3", "4", "...", "95", "96", "97", "98",
                           "99"]
    assert lines[-1] == "[100 rows x 15 columns]"


def test_an_evaluation_prints_every_field_within_the_width(ranking):
    e = fastpr.evaluate(*ranking)
    lines = _lines(e)
    assert lines[0] == "Evaluation"
    # Each block: a header of field names over one line of their values.
    blocks = [lines[k:k + 2] for k in range(1, len(lines), 2)]
    values = {}
    for header, row in blocks:
        values.update(zip(header.split(), row.split()))
    assert values == {name: number_text(value) for name, value in e.to_dict().items()}


def test_a_comparison_prints_each_model_and_its_difference(ranking):
    y, a = ranking
    b = a + np.random.default_rng(0).normal(0, 2, a.size)
    c = fastpr.compare(y, {"a": a, "b": b}, n_boot=200, seed=1)
    lines = _lines(c)
    title = " ".join(" ".join(lines[:2]).split())
    assert "with model a" in title and "200 replicates" in title
    header = lines[-3].split()
    assert header == ["model", "estimate", "difference", "low", "high", "p_value"]
    assert lines[-2].split() == ["a", number_text(c.estimates[0])]
    assert lines[-1].split()[:5] == ["b", *map(number_text, (c.estimates[1], c.differences[0],
                                                             c.low[0], c.high[0]))]
    frame = c.to_frame()
    assert list(frame.index) == ["a", "b"] and frame.index.name == "model"
    assert frame.loc["b", "p_value"] == c.p_values[0] and np.isnan(frame.loc["a", "p_value"])


@pytest.mark.parametrize("test, n_boot, shown", [("bootstrap", 1000, "< 0.001"),
                                                 ("bootstrap", 250, "< 0.004"),
                                                 ("delong", 0, "< 1e-16")])
def test_a_tiny_p_value_prints_as_the_bound_the_test_resolves(test, n_boot, shown):
    # A bootstrap of B replicates cannot resolve a tail below 1 / B; 0.0 is never printed.
    replicates = np.tile([0.5, 0.9], (n_boot, 1)) if n_boot else np.empty((0, 2))
    c = Comparison("auc_roc", "delong" if test == "delong" else "interpolated", test,
                   np.array(["x", "y"]), np.array([0.5, 0.9]), np.array([0.4]),
                   np.array([0.3]), np.array([0.5]), np.array([0.0]), 0.95, replicates)
    assert _lines(c)[-1].split()[-2:] == shown.split()


def test_a_bootstrap_prints_its_interval_and_settings(ranking):
    result = fastpr.bootstrap(*ranking, n_boot=50, seed=3)
    lines = _lines(result)
    assert "95% percentile interval from 50 replicates" in " ".join(" ".join(lines[:2]).split())
    assert lines[-1].split() == ["auc_pr", "interpolated",
                                 *map(number_text, (result.estimate, result.low, result.high))]
    frame = result.to_frame()
    assert frame.loc["auc_pr", "high"] == result.high


@pytest.mark.parametrize("metric", ["recall_at_precision@0.2", "auc_roc", "max_f1",
                                    "precision_at_k@50"])
def test_a_bootstrap_shows_the_pr_method_only_where_it_applies(ranking, metric):
    """The PR estimator shapes auc_pr and auc_npr alone: beside another metric a method column
    would read as if it had shaped it."""
    result = fastpr.bootstrap(*ranking, metric=metric, n_boot=20, seed=3)
    lines = _lines(result)
    assert "interpolated" not in repr(result) and "method" not in lines[-2].split()
    assert lines[-1].split() == [metric, *map(number_text, (result.estimate, result.low,
                                                            result.high))]
    assert list(result.to_frame().columns) == ["estimate", "low", "high"]
    npr = fastpr.bootstrap(*ranking, metric="auc_npr", method="average_precision", n_boot=20,
                           seed=3)
    assert _lines(npr)[-1].split()[:2] == ["auc_npr", "average_precision"]


def test_every_result_type_prints_numbers_not_array_shapes(ranking):
    y, s = ranking
    swept = fastpr.sweep(y, s)
    results = [fastpr.roc_points(swept), fastpr.pr_curve(swept), fastpr.achievable_pr_curve(swept),
               fastpr.interpolated_pr_curve(swept), fastpr.f_beta_curve(swept),
               fastpr.prg_curve(swept), swept, fastpr.max_f_beta(swept),
               fastpr.at_prevalence(y, s, prevalence=0.1), fastpr.delong(y, s),
               fastpr.evaluate_at_thresholds(y, s, fastpr.hull_thresholds(y, s)),
               fastpr.aggregate([fastpr.evaluate(y[:9000], s[:9000]),
                                 fastpr.evaluate(y[9000:], s[9000:])]),
               fastpr.evaluate(y, [s, -s]).macro()]
    for result in results:
        lines = _lines(result)
        assert lines[0].startswith(type(result).__name__)
        frame = result.to_frame()
        assert len(frame) >= 1


def test_a_curve_frame_is_its_points(ranking):
    curve = fastpr.roc_points(*ranking)
    frame = curve.to_frame()
    assert list(frame.columns) == ["fpr", "tpr", "thresholds", "tp", "fp"]
    np.testing.assert_array_equal(frame["tpr"], curve.tpr)


def test_printing_needs_no_pandas_and_to_frame_names_the_extra(monkeypatch):
    batch = fastpr.evaluate([1, 0, 1, 0], [[0.9, 0.8, 0.7, 0.1], [0.1, 0.2, 0.3, 0.4]])
    monkeypatch.setitem(sys.modules, "pandas", None)  # (import pandas raises ImportError)
    assert "0.75" in repr(batch)
    with pytest.raises(ImportError, match=r'pip install "fastpr\[pandas\]"'):
        batch.to_frame()
