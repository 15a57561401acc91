"""Many rankings per call: 2-D batches, groups and offsets equal loops of single calls bit for bit."""
import pickle
import warnings

import numba
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import FEW, SETTINGS, rankings

import fastpr


def quiet(func, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", fastpr.UndefinedMetricWarning)
        return func(*args, **kwargs)


def assert_identical(got, want):
    """Two Evaluations equal field by field (==, NaN where the other is NaN), types included."""
    got, want = got.to_dict(), want.to_dict()
    assert got.keys() == want.keys()
    for key in want:
        assert type(got[key]) is type(want[key]), key
        assert got[key] == want[key] or (got[key] != got[key] and want[key] != want[key]), (
            key, got[key], want[key])


def single(y, s, w):
    """The single-ranking call, or None where it refuses (every weight 0): then undefined."""
    if w is not None and not np.any(w):
        return None
    return quiet(fastpr.evaluate, y, s, sample_weight=w)


def assert_matches_loop(batch, cases):
    assert len(batch) == len(cases)
    for i, (y, s, w) in enumerate(cases):
        want = single(y, s, w)
        if want is None:
            assert batch.n_pos[i] == batch.n_neg[i] == 0 and np.isnan(batch.auc_pr[i])
        else:
            assert_identical(batch[i], want)


@st.composite
def batches(draw, weights=("none", "int", "float"), float_width=64):
    """A list of rankings of one length n (each with its own labels, scores and weights)."""
    n = draw(st.integers(2, 30))
    return draw(st.lists(rankings(min_n=n, max_n=n, weights=weights, float_width=float_width),
                         min_size=1, max_size=5))


@SETTINGS
@given(st.sampled_from([64, 32]).flatmap(lambda width: batches(weights=("none",),
                                                               float_width=width)))
def test_shared_labels_batch_equals_loop(cases):
    y = cases[0][0]
    scores = np.stack([s for _, s, _ in cases])
    batch = quiet(fastpr.evaluate, y, scores)
    assert_matches_loop(batch, [(y, row, None) for row in scores])


@SETTINGS
@given(st.sampled_from([64, 32]).flatmap(lambda width: batches(float_width=width)))
def test_per_row_labels_and_weights_equal_loop(cases):
    labels = np.stack([y for y, _, _ in cases])
    scores = np.stack([s for _, s, _ in cases])
    weighted = all(w is not None for _, _, w in cases)
    weights = np.stack([w for _, _, w in cases]) if weighted else None
    batch = quiet(fastpr.evaluate, labels, scores, sample_weight=weights)
    assert_matches_loop(batch, [(y, s, w if weighted else None) for y, s, w in cases])


@SETTINGS
@given(batches(weights=("int", "float")))
def test_shared_weights_equal_loop(cases):
    y, _, w = cases[0]
    scores = np.stack([s for _, s, _ in cases])
    batch = quiet(fastpr.evaluate, y, scores, sample_weight=w)
    assert_matches_loop(batch, [(y, row, w) for row in scores])


@SETTINGS
@given(rankings(max_n=60, defined=False), st.data())
def test_groups_equal_loop_over_groups(case, data):
    y, s, w = case
    ids = data.draw(st.sampled_from([[3, -1, 7], ["b", "a"], [2.5, 0.5], [10**12, 10**12 + 5]]))
    groups = np.array(data.draw(st.lists(st.sampled_from(ids), min_size=y.size,
                                         max_size=y.size)))
    batch = quiet(fastpr.evaluate, y, s, sample_weight=w, groups=groups)
    np.testing.assert_array_equal(batch.index, np.unique(groups))
    assert_matches_loop(batch, [(y[groups == g], s[groups == g],
                                 None if w is None else w[groups == g]) for g in batch.index])


@FEW
@given(rankings(max_n=60, defined=False), st.lists(st.integers(0, 5), min_size=60, max_size=60))
def test_offsets_equal_groups(case, group_draw):
    y, s, w = case
    groups = np.sort(np.array(group_draw[: y.size]))
    offsets = np.r_[0, np.cumsum(np.bincount(groups))]
    by_offsets = quiet(fastpr.evaluate, y, s, sample_weight=w, offsets=offsets)
    by_groups = quiet(fastpr.evaluate, y, s, sample_weight=w, groups=groups)
    present = np.diff(offsets) > 0  # offsets may hold empty groups; groups never do
    assert np.count_nonzero(present) == len(by_groups)
    for i, j in enumerate(np.flatnonzero(present)):
        assert_identical(by_offsets[j], by_groups[i])
    empty = np.flatnonzero(~present)
    assert np.all(by_offsets.n_pos[empty] == 0) and np.all(np.isnan(by_offsets.auc_pr[empty]))


def _long_rows(seed, n_rows, n):
    """Rows long enough for the NumPy-sorted path, with ties, signed zeros and mixed weights."""
    rng = np.random.default_rng(seed)
    scores = rng.choice([-0.0, 0.0, 0.25, 0.5, -np.inf, np.inf, 1.0], size=(n_rows, n))
    scores[:, ::3] = rng.normal(size=(n_rows, (n + 2) // 3))
    labels = rng.random((n_rows, n)) < 0.3
    weights = rng.choice([0.0, 0.1, 0.7, 1.3, 2.0], size=(n_rows, n))
    return labels, scores, weights


def test_long_rows_and_groups_equal_loop():
    labels, scores, weights = _long_rows(0, 3, 5000)
    batch = quiet(fastpr.evaluate, labels, scores, sample_weight=weights)
    assert_matches_loop(batch, list(zip(labels, scores, weights)))
    # Unweighted rows with their own labels: classes of unequal sizes, filled with +inf to one
    # width for the sort, while +inf is also a real score.
    batch = quiet(fastpr.evaluate, labels, scores)
    assert_matches_loop(batch, [(y, s, None) for y, s in zip(labels, scores)])
    # One long group among short ones, shuffled together.
    groups = np.r_[np.zeros(4000, dtype=np.int64), np.arange(1000) % 37 + 1]
    order = np.random.default_rng(1).permutation(groups.size)
    y, s, w, g = labels[0][order], scores[0][order], weights[0][order], groups[order]
    batch = quiet(fastpr.evaluate, y, s, sample_weight=w, groups=g)
    assert_matches_loop(batch, [(y[g == k], s[g == k], w[g == k]) for k in batch.index])


def test_results_do_not_depend_on_the_thread_count(monkeypatch):
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("numba runs with a single thread here")
    monkeypatch.setattr("fastpr._engine.tables._THREADED_MIN_SCORES", 0)  # threads even for small work
    monkeypatch.setattr("fastpr._engine.tables._MIN_RANGE_SCORES", 1)
    labels, scores, weights = _long_rows(2, 40, 3000)
    groups = np.random.default_rng(3).integers(0, 500, scores.shape[1])
    calls = [lambda: fastpr.evaluate(labels[0], scores),
             lambda: fastpr.evaluate(labels, scores, sample_weight=weights),
             lambda: fastpr.evaluate(labels[0], scores[0], sample_weight=weights[0],
                                     groups=groups)]
    before = numba.get_num_threads()
    try:
        results = {}
        for n_threads in (1, 2):
            numba.set_num_threads(n_threads)
            results[n_threads] = [quiet(call).to_dict() for call in calls]
    finally:
        numba.set_num_threads(before)
    for one, two in zip(results[1], results[2]):
        for key in one:
            np.testing.assert_array_equal(np.asarray(one[key]), np.asarray(two[key]))


def test_undefined_groups_are_counted_warned_once_and_left_out_of_means():
    y = [1, 0, 0, 0, 1, 1, 1, 0]
    s = [0.9, 0.1, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3]
    groups = ["q1", "q1", "q2", "q2", "q3", "q3", "q4", "q4"]
    with pytest.warns(fastpr.UndefinedMetricWarning) as caught:
        batch = fastpr.evaluate(y, s, groups=groups)
    assert len(caught) == 1
    assert str(caught[0].message) == (
        "Metrics are undefined for 2 of 4 groups: 1 have no positives (AUC-ROC and AUC-PR "
        "undefined); 1 have no negatives (AUC-ROC and normalised AUC-PR undefined) (or those "
        "examples weigh 0). Their values are NaN, and averages over groups leave them out.")
    np.testing.assert_array_equal(batch.n_pos, [1, 0, 2, 1])
    np.testing.assert_array_equal(batch.n_neg, [1, 2, 0, 1])
    assert batch.n_undefined_pr == 1 and batch.n_undefined_roc == 2
    assert np.isnan(batch.average_precision[1]) and batch.average_precision[2] == 1.0
    mean_ap = batch.macro("average_precision")
    assert (mean_ap.value, mean_ap.n_used, mean_ap.n_undefined) == (1.0, 3, 1)
    assert batch.macro("auc_roc").n_undefined == 2
    with pytest.warns(fastpr.UndefinedMetricWarning):
        assert fastpr.auc_pr(y, s, groups=groups, method="average_precision",
                             average="macro") == 1.0
    with pytest.warns(fastpr.UndefinedMetricWarning):
        np.testing.assert_array_equal(fastpr.auc_roc(y, s, groups=groups),
                                      [1.0, np.nan, np.nan, 1.0])


def test_map_matches_the_reference_average_precision():
    from reference import average_precision, counts, operating_points

    rng = np.random.default_rng(5)
    y, s = rng.random(300) < 0.3, rng.integers(0, 20, 300).astype(float)
    groups = rng.integers(0, 12, 300)
    expected = [float(average_precision(counts(operating_points(y[groups == g], s[groups == g]))))
                for g in np.unique(groups)]
    got = fastpr.auc_pr(y, s, groups=groups, method="average_precision", average="macro")
    assert got == pytest.approx(np.mean(expected), rel=1e-12)


def test_batch_result_behaves_like_a_result():
    batch = fastpr.evaluate([1, 0, 1, 0], [[0.9, 0.8, 0.7, 0.1], [0.1, 0.2, 0.3, 0.4],
                                           [0.5, 0.5, 0.5, 0.5]])
    assert len(batch) == 3
    assert batch[0] == fastpr.evaluate([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])
    np.testing.assert_array_equal(batch.area("linear"), batch.auc_pr_linear)
    assert batch.to_dict()["auc_roc"] == [0.75, 0.25, 0.5]
    assert repr(batch).splitlines()[2].split()[:3] == ["0", "2", "2"]  # ranking, n_pos, n_neg
    frame = batch.to_frame()
    assert frame.index.name == "ranking" and list(frame.index) == [0, 1, 2]
    assert frame["auc_roc"].tolist() == [0.75, 0.25, 0.5]
    assert list(frame.columns)[:3] == ["n_pos", "n_neg", "prevalence"]
    np.testing.assert_array_equal(fastpr.auc_roc([1, 0, 1, 0], batch_scores := [
        [0.9, 0.8, 0.7, 0.1], [0.1, 0.2, 0.3, 0.4]]), [0.75, 0.25])
    assert fastpr.auc_pr([1, 0, 1, 0], batch_scores, average="macro") == pytest.approx(
        np.mean([fastpr.auc_pr([1, 0, 1, 0], row) for row in batch_scores]), rel=1e-15)


def test_results_holding_arrays_compare_and_hash_by_value():
    # The dataclasses' own == compared arrays as a whole (ValueError), and hash failed on them.
    y, rows = [1, 0, 1, 0], [[0.9, 0.8, 0.7, 0.1], [0.1, 0.2, 0.3, 0.4]]
    batch = fastpr.evaluate(y, rows)
    copy = pickle.loads(pickle.dumps(batch))
    assert batch == copy and hash(batch) == hash(copy)
    assert batch != fastpr.evaluate(y, rows[::-1]) and batch != batch[0]
    curve = fastpr.roc_points(y, rows[0])
    assert curve == fastpr.roc_points(y, rows[0]) != fastpr.roc_points(y, rows[1])
    assert len({curve, fastpr.roc_points(y, rows[0])}) == 1
    # NaN fields (one class) and -0.0 against 0.0 are the same result twice.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", fastpr.UndefinedMetricWarning)
        one_class = fastpr.evaluate([1, 1], [0.1, 0.2])
        assert one_class == fastpr.evaluate([1, 1], [0.1, 0.2])
        assert hash(one_class) == hash(fastpr.evaluate([1, 1], [0.1, 0.2]))
    assert fastpr.pr_curve([1, 0], [-0.0, 1.0]) == fastpr.pr_curve([1, 0], [0.0, 1.0])
    assert hash(fastpr.pr_curve([1, 0], [-0.0, 1.0])) == hash(fastpr.pr_curve([1, 0], [0.0, 1.0]))


def test_batch_positions_and_macro_metrics_are_checked():
    batch = fastpr.evaluate([1, 0, 1, 0], [[0.9, 0.8, 0.7, 0.1], [0.1, 0.2, 0.3, 0.4]])
    with pytest.raises(TypeError, match=r"i must be an integer, got slice\(0, 2, None\)"):
        batch[0:2]
    assert batch[np.int64(1)] == batch[1]
    with pytest.raises(ValueError, match="metric must be one of 'n_pos'"):
        batch.macro("index")  # (it averaged the positions)


def test_stable_order_groups_rows_in_input_order():
    from fastpr._engine.kernels.tables import stable_order

    codes = np.array([2, 0, 2, 1, 0, 2], dtype=np.int64)
    order, starts = stable_order(codes, 4)
    np.testing.assert_array_equal(order, [1, 4, 3, 0, 2, 5])
    np.testing.assert_array_equal(starts, [0, 2, 3, 6, 6])


@pytest.mark.parametrize("ids", [np.array([5, 300, 5, 70000]), np.array([-3, 4, -3, 4], np.int8),
                                 np.array([2**63 + 7, 2**63 + 1, 2**63 + 7, 5], np.uint64)])
def test_integer_group_ids_keep_their_values_and_dtype(ids):
    batch = quiet(fastpr.evaluate, [1, 0, 0, 1], [0.3, 0.2, 0.1, 0.4], groups=ids)
    np.testing.assert_array_equal(batch.index, np.unique(ids))
    assert batch.index.dtype == ids.dtype


BATCH_ERRORS = [
    ({"y_true": [1, 0, 1], "y_score": [[0.1, 0.2], [0.3, 0.4]]}, ValueError,
     (r"y_true has shape \(3,\), but y_score has shape \(2, 2\): y_true must have shape \(2,\) "
      r"\(shared by every row\) or \(2, 2\)")),
    ({"y_true": [1, 0], "y_score": [[0.1, 0.2], [0.3, np.nan]]}, ValueError,
     r"y_score contains NaN at row 1, column 1 \(1 NaN in all\)"),
    ({"y_true": [1, 0], "y_score": np.zeros((0, 2))}, ValueError, r"y_score is empty"),
    ({"y_true": [1, 0], "y_score": [[0.1, 0.2]], "sample_weight": [[1, 1], [1, 1]]}, ValueError,
     r"sample_weight has shape \(2, 2\), but y_score has shape \(1, 2\)"),
    ({"y_true": [1, 0], "y_score": [[0.1, 0.2], [0.3, 0.4]], "sample_weight": [[1, 1], [0, 0]]},
     ValueError, r"sample_weight is zero everywhere in row 1"),
    ({"y_true": [1, 0], "y_score": [[0.1, 0.2], [0.3, 0.4]], "sample_weight": [[1, 1], [1, -2]]},
     ValueError, r"sample_weight must be >= 0, got -2.0 at row 1, column 1"),
    ({"y_true": [1, 0], "y_score": [[0.1, 0.2]], "sample_weight": [np.inf, 1]}, ValueError,
     r"sample_weight must be finite, got inf at index 0"),
    ({"y_true": [1, 0], "y_score": [[2**60 + 1, 0]]}, ValueError,
     r"y_score holds 1152921504606846977 at row 0, column 0, which float64 cannot represent"),
    ({"y_true": [1, 0], "y_score": [0.1, 0.2], "groups": [1, 1], "offsets": [0, 2]}, ValueError,
     r"Pass groups or offsets, not both"),
    ({"y_true": [1, 0], "y_score": [[0.1, 0.2]], "groups": [1, 1]}, ValueError,
     r"y_score must be 1-D; got shape \(1, 2\)"),
    ({"y_true": [1, 0], "y_score": [0.1, 0.2], "groups": [1, 1, 1]}, ValueError,
     r"y_true and groups have different lengths: 2 and 3"),
    ({"y_true": [1, 0], "y_score": [0.1, 0.2], "groups": [1.0, np.nan]}, ValueError,
     r"groups contains NaN at index 1"),
    ({"y_true": [1, 0], "y_score": [0.1, 0.2], "groups": np.array(["a", None], dtype=object)},
     TypeError, r"groups must hold numbers or strings, got None at index 1"),
    ({"y_true": [1, 0], "y_score": [0.1, 0.2], "offsets": [0.0, 2.0]}, TypeError,
     r"offsets must be integers, got an array of dtype float64"),
    ({"y_true": [1, 0], "y_score": [0.1, 0.2], "offsets": [0, 1]}, ValueError,
     (r"offsets must run from 0 to the number of rows \(2\) with at least one group; got 2 "
      r"values from 0 to 1")),
    ({"y_true": [1, 0, 1], "y_score": [0.1, 0.2, 0.3], "offsets": [0, 2, 1, 3]}, ValueError,
     r"offsets must be non-decreasing; got offsets\[1\] = 2 > offsets\[2\] = 1"),
]


@pytest.mark.parametrize("kwargs, error, message", BATCH_ERRORS)
def test_batch_error_messages(kwargs, error, message):
    with pytest.raises(error, match=message):
        fastpr.evaluate(**kwargs)



@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("n_threads", [1, 2])
@pytest.mark.parametrize("where", [(0, 0), (57, 3), (99, 8), (99, 9)])
@pytest.mark.parametrize("shared", [True, False])
def test_nan_found_while_sorting_a_large_batch_names_the_first(shared, where, n_threads, dtype,
                                                               monkeypatch):
    # Unweighted batches skip the up-front NaN scan: the sort brings NaN to the end of its row.
    # Rows span several blocks and workers; columns 3 and 8 are negatives, 0 and 9 positives
    # (per-row labels add or drop positives elsewhere, so the classes need +inf filling).
    monkeypatch.setattr("fastpr._engine.tables._BLOCK_SCORES", 40)
    monkeypatch.setattr("fastpr._engine.tables._THREADED_MIN_SCORES", 0)
    labels = np.array([1, 0, 1, 0, 1, 1, 0, 0, 0, 1])
    if not shared:
        labels = np.tile(labels, (100, 1))
        labels[::2, 5] = 0
        labels[::3, 6] = 1
    scores = np.random.default_rng(0).random((100, 10)).astype(dtype)
    scores[where] = np.nan
    scores[99, 9] = np.nan
    n_nan = 1 + (where != (99, 9))
    before = numba.get_num_threads()
    numba.set_num_threads(min(n_threads, numba.config.NUMBA_NUM_THREADS))
    try:
        for metric in (fastpr.evaluate, fastpr.auc_pr, fastpr.auc_roc):
            with pytest.raises(ValueError, match=(rf"y_score contains NaN at row {where[0]}, "
                                                  rf"column {where[1]} \({n_nan} NaN in all\)")):
                metric(labels, scores)
    finally:
        numba.set_num_threads(before)

def test_group_ids_of_an_odd_kind_are_refused():
    with pytest.raises(TypeError, match=r"groups must hold numbers or strings, got an array of "
                                        r"dtype complex128"):
        fastpr.evaluate([1, 0], [0.1, 0.2], groups=[1j, 2j])


def test_average_must_be_known():
    with pytest.raises(ValueError, match=r"average must be one of None, 'macro'; got 'mean'"):
        fastpr.auc_pr([1, 0], [[0.1, 0.2]], average="mean")
    with pytest.raises(ValueError, match=r"average must be one of None, 'macro'; got 'micro'"):
        fastpr.auc_roc([1, 0], [[0.1, 0.2]], average="micro")


CURVES = {"roc": fastpr.roc_points, "pr": fastpr.pr_curve, "hull": fastpr.roc_convex_hull,
          "achievable": fastpr.achievable_pr_curve}


@FEW
@given(batches(), st.sampled_from(sorted(CURVES)), st.booleans())
def test_curves_of_a_batch_equal_single_calls(cases, name, shared):
    curve = CURVES[name]
    labels = cases[0][0] if shared else np.stack([y for y, _, _ in cases])
    scores = np.stack([s for _, s, _ in cases])
    weighted = all(w is not None for _, _, w in cases)
    weights = np.stack([w for _, _, w in cases]) if weighted else None
    curves = quiet(curve, labels, scores, sample_weight=weights)
    assert len(curves) == len(cases)
    for r, got in enumerate(curves):
        want = quiet(curve, labels if shared else labels[r], scores[r],
                     sample_weight=None if weights is None else weights[r])
        for key, value in want.to_dict().items():
            np.testing.assert_array_equal(np.asarray(got.to_dict()[key]), np.asarray(value))


def test_a_row_holds_the_evaluation_fields_in_order():
    """Evaluation.from_row reads an engine row by position, so the layout must list the fields
    of Evaluation in their order (EvaluationBatch.from_table reads the same columns by name)."""
    from dataclasses import fields

    from fastpr.results import COLUMNS

    assert list(COLUMNS) == [field.name for field in fields(fastpr.Evaluation)]
    assert list(COLUMNS.values()) == list(range(len(COLUMNS)))
