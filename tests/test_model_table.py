"""A table of models (a DataFrame with one score column per model, or a dict of score arrays) as
``y_score``: every result equals the single call on each column bit for bit, keyed by name."""
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import FEW, score_pools

import fastpr

pd = pytest.importorskip("pandas")

NUMBER_FUNCTIONS = [
    ("auc_pr", {}),
    ("auc_pr", {"method": "average_precision"}),
    ("auc_pr", {"method": "hull"}),
    ("auc_roc", {}),
    ("auc_npr", {}),
    ("auc_prg", {}),
]
OBJECT_FUNCTIONS = ["roc_points", "pr_curve", "roc_convex_hull", "achievable_pr_curve",
                    "interpolated_pr_curve", "f_beta_curve", "max_f_beta", "prg_curve", "sweep"]


def quiet(func, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", fastpr.UndefinedMetricWarning)
        return func(*args, **kwargs)


@st.composite
def tables(draw):
    """(labels, {name: float64 scores}, weights or None): a few models of one labelled sample,
    scores from small pools so that ties are common; names in no particular order."""
    n = draw(st.integers(2, 30))
    names = draw(st.lists(st.text(min_size=1, max_size=6), min_size=1, max_size=4, unique=True))
    columns = {}
    for name in names:
        pool = draw(score_pools())
        columns[name] = np.array(draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n)))
    y = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    weights = None
    if draw(st.booleans()):
        weights = np.array(draw(st.lists(st.sampled_from([0.0, 0.5, 1.0, 3.0]), min_size=n,
                                         max_size=n)))
        weights[draw(st.integers(0, n - 1))] = 1.0  # some weight, so that every call accepts it
    return y, columns, weights


def same(a, b):
    """Bit for bit: equal values of equal types, NaN where the other is NaN; recursively
    through results and their arrays."""
    if isinstance(a, fastpr.results.Result):
        assert type(a) is type(b)
        return same(a.to_dict(), b.to_dict())
    if isinstance(a, dict):
        assert list(a) == list(b)
        return all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        assert len(a) == len(b)
        return all(same(x, z) for x, z in zip(a, b))
    assert type(a) is type(b), (a, b)
    return a == b or (np.isnan(a) and np.isnan(b))


def as_frame(columns):
    return pd.DataFrame(columns)


@FEW
@given(tables(), st.sampled_from([dict, as_frame]))
def test_numbers_of_a_table_equal_single_calls_by_name(case, make_table):
    y, columns, weights = case
    table = make_table(columns)
    for name, kwargs in NUMBER_FUNCTIONS:
        func = getattr(fastpr, name)
        got = quiet(func, y, table, sample_weight=weights, **kwargs)
        want = {model: quiet(func, y, s, sample_weight=weights, **kwargs)
                for model, s in columns.items()}
        assert same(got, want), name


@FEW
@given(tables())
def test_curves_of_a_table_equal_single_calls_by_name(case):
    y, columns, weights = case
    table = as_frame(columns)
    for name in OBJECT_FUNCTIONS:
        func = getattr(fastpr, name)
        got = quiet(func, y, table, sample_weight=weights)
        want = {model: quiet(func, y, s, sample_weight=weights) for model, s in columns.items()}
        assert same(got, want), name


@FEW
@given(tables())
def test_evaluate_of_a_table_is_a_batch_indexed_by_the_names(case):
    y, columns, weights = case
    batch = quiet(fastpr.evaluate, y, as_frame(columns), sample_weight=weights)
    assert batch.index.tolist() == list(columns) and batch.index_name == "model"
    for i, s in enumerate(columns.values()):
        assert same(batch[i], quiet(fastpr.evaluate, y, s, sample_weight=weights))
    frame = batch.to_frame()
    assert frame.index.tolist() == list(columns) and frame.index.name == "model"


def test_macro_average_is_the_mean_over_the_models():
    y = [1, 0, 1, 0, 0]
    columns = {"b": [0.9, 0.1, 0.8, 0.3, 0.2], "a": [0.1, 0.9, 0.8, 0.3, 0.2]}
    got = fastpr.auc_roc(y, columns, average="macro")
    assert got == np.mean([fastpr.auc_roc(y, s) for s in columns.values()])


def test_one_weight_row_per_model_combines_as_for_a_2d_batch():
    y = np.array([1, 0, 1, 0, 0, 1])
    columns = {"m1": [0.9, 0.1, 0.8, 0.3, 0.2, 0.4], "m2": [0.1, 0.9, 0.8, 0.3, 0.2, 0.5]}
    weights = np.array([[1, 2, 1, 0, 1, 1], [3, 1, 1, 1, 0, 2]], dtype=float)
    got = fastpr.auc_pr(y, columns, sample_weight=weights)
    assert got == {name: fastpr.auc_pr(y, s, sample_weight=w)
                   for (name, s), w in zip(columns.items(), weights)}


def test_string_labels_and_float32_columns():
    y = np.array(["spam", "ham", "spam", "ham"])
    frame = pd.DataFrame({"x": np.array([0.9, 0.2, 0.4, 0.6], dtype=np.float32),
                          "y": np.array([0.5, 0.6, 0.7, 0.1], dtype=np.float32)})
    got = fastpr.roc_points(y, frame, pos_label="spam")
    for name in frame:
        want = fastpr.roc_points(y, frame[name].to_numpy(), pos_label="spam")
        assert same(got[name], want)


def test_undefined_models_are_counted_in_one_warning():
    with pytest.warns(fastpr.UndefinedMetricWarning, match="for 2 of 2 models"):
        got = fastpr.auc_roc([1, 1, 1], {"a": [1, 2, 3], "b": [3, 2, 1]})
    assert list(got) == ["a", "b"] and all(np.isnan(v) for v in got.values())


@pytest.mark.parametrize("table, error, message", [
    (lambda: pd.DataFrame(np.ones((4, 2))), fastpr.InputTypeError,
     r"column names must be strings; got 0 \(int\)"),
    (lambda: pd.DataFrame(np.ones((4, 2)), columns=["a", "a"]), fastpr.InputValueError,
     "'a' names more than one column"),
    (lambda: {"a": [1, 2, 3, 4], "b": ["w", "x", "y", "z"]}, fastpr.InputTypeError,
     r"y_score\['b'\] must be real numbers"),
    (lambda: pd.DataFrame({"a": [0.1, 0.2, 0.3, 0.4], "txt": list("wxyz")}),
     fastpr.InputTypeError, r"y_score\['txt'\] must be real numbers"),
    (lambda: {"a": [1, 2, 3, 4], "b": [1, 2, 3]}, fastpr.InputValueError,
     r"y_score\['a'\] and y_score\['b'\] have different lengths: 4 and 3"),
    (lambda: {"a": [1, 2, np.nan, 4]}, fastpr.InputValueError,
     r"y_score\['a'\] contains NaN at index 2"),
    (dict, fastpr.InputValueError, "a table with no columns"),
])
def test_bad_tables_are_refused_naming_the_column(table, error, message):
    with pytest.raises(error, match=message):
        fastpr.auc_pr([1, 0, 1, 0], table())


def test_groups_split_one_ranking_not_a_table():
    with pytest.raises(fastpr.InputValueError, match="groups and offsets split one ranking"):
        fastpr.evaluate([1, 0, 1, 0], {"a": [1, 2, 3, 4]}, groups=[0, 0, 1, 1])


def test_labels_must_fit_the_columns():
    with pytest.raises(fastpr.InputValueError, match="y_true has shape"):
        fastpr.auc_pr([1, 0, 1], {"a": [1, 2, 3, 4]})


@pytest.mark.parametrize("test", ["bootstrap", "delong"])
def test_compare_names_the_models_of_a_table(test):
    rng = np.random.default_rng(3)
    y = rng.random(60) < 0.4
    columns = {"base": y + rng.normal(0, 1, 60), "noisy": y + rng.normal(0, 2, 60)}
    options = {"metric": "auc_roc", "test": test, "n_boot": 50, "seed": 1}
    got = fastpr.compare(y, pd.DataFrame(columns), **options)
    want = fastpr.compare(y, list(columns.values()), **options)
    assert got.models.tolist() == ["base", "noisy"] and want.models.tolist() == [0, 1]
    for field in ("estimates", "differences", "low", "high", "p_values", "replicates"):
        assert np.array_equal(getattr(got, field), getattr(want, field), equal_nan=True)


def test_compare_refuses_a_table_of_one_model():
    with pytest.raises(fastpr.InputValueError, match="two or more models"):
        fastpr.compare([1, 0, 1, 0], {"only": [0.9, 0.1, 0.8, 0.3]})


def test_a_polars_frame_is_a_table_like_a_pandas_one():
    pl = pytest.importorskip("polars")
    rng = np.random.default_rng(5)
    y = rng.random(40) < 0.4
    columns = {"a": rng.random(40), "b": y + rng.random(40), "c": rng.integers(0, 5, 40)}
    assert same(fastpr.auc_pr(y, pl.DataFrame(columns)), fastpr.auc_pr(y, as_frame(columns)))
    with pytest.raises(fastpr.InputValueError, match=r"y_score\['a'\] contains NaN at index 39"):
        fastpr.auc_pr(y, pl.DataFrame({"a": [0.5] * 39 + [None]}))
