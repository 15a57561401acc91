"""Top k: precision and recall of the k highest scores, exact under ties (the expected value
over the orders of the tie group), per query (P@k, R-precision), against the slow oracles."""
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import reference as ref
import fastpr
from fastpr._engine.kernels.top_k import positives_at_k
from strategies import SETTINGS, cutoffs, rankings, wide_rankings
from test_partial import binned_points, swept


# --------------------------------------------------------------------------- kernel
@SETTINGS
@given(rankings(min_n=1, max_n=6, defined=False, weights=("none",)), st.integers(0, 7))
def test_positives_at_k_is_the_mean_over_every_order_of_the_ties(case, k):
    y, s, _ = case
    points, n, _, _, _ = swept(y, s)
    got = positives_at_k(points, n, k)
    if k > len(y):
        assert math.isnan(got)
        return
    if k == 0:
        assert got == 0.0
        return
    tp, _, precision = ref.top_k_by_orders(y, s, k)
    assert got == pytest.approx(float(tp), rel=1e-15)
    assert got / k == pytest.approx(float(precision), rel=1e-15)  # E[tp / k] = E[tp] / k


@SETTINGS
@given(wide_rankings(), st.data())
def test_positives_at_k_is_unchanged_on_gap_bins(case, data):
    y, s, _ = case
    full, binned = binned_points(y, s)
    k = data.draw(st.integers(1, len(y)))
    assert positives_at_k(binned, binned.shape[1], k) == positives_at_k(full, full.shape[1], k)


def test_positives_at_k_of_a_tie_group_takes_its_share():
    # 0.9 (pos), then 0.5 tied: 2 positives, 1 negative; then 0.1 (neg).
    points, n, _, _, _ = swept([1, 1, 1, 0, 0], [0.9, 0.5, 0.5, 0.5, 0.1])
    assert [positives_at_k(points, n, k) for k in range(6)] == [0, 1, 1 + 2 / 3, 1 + 4 / 3, 3,
                                                                  3]
    assert math.isnan(positives_at_k(points, n, 6))


# --------------------------------------------------------------------------- public layer
def _expected(y, s, k, w=None):
    """(tp, fp, precision, recall) of the orders oracle, with the definitions of top_k."""
    n_pos = ref.totals(y, s, w)[0]
    tp, fp, mean_precision = ref.top_k_by_orders(y, s, k, w)
    precision = mean_precision if w is None else (tp / (tp + fp) if tp + fp else math.nan)
    return (float(tp), float(fp), float(precision),
            float(tp / n_pos) if n_pos else math.nan)


@SETTINGS
@given(rankings(min_n=1, max_n=6, defined=False), st.lists(st.integers(1, 8), min_size=1,
                                                             max_size=3))
def test_top_k_is_the_expectation_over_every_order_of_the_ties(case, ks):
    y, s, w = case
    with _maybe_warns():
        result = fastpr.top_k(y, s, ks, sample_weight=w)
    for i, k in enumerate(ks):
        want = _expected(y, s, k, w)
        got = (result.tp[i], result.fp[i], result.precision[i], result.recall[i])
        np.testing.assert_allclose(got, want, rtol=1e-13, atol=1e-15)
        assert result.k[i] == k and result.n_rows[i] == len(y)


def test_top_k_reports_the_tie_group():
    result = fastpr.top_k([1, 1, 1, 0, 0], [0.9, 0.5, 0.5, 0.5, 0.1], [1, 2, 3, 4, 5, 6])
    assert result.threshold[:5].tolist() == [0.9, 0.5, 0.5, 0.5, 0.1]
    assert math.isnan(result.threshold[5])
    assert result.n_tied.tolist() == [1, 3, 3, 3, 1, 0]
    assert result.n_taken.tolist() == [1, 1, 2, 3, 1, 0]
    np.testing.assert_allclose(result.tp, [1, 1 + 2 / 3, 1 + 4 / 3, 3, 3, 3])
    np.testing.assert_allclose(result.precision, [1, (1 + 2 / 3) / 2, (1 + 4 / 3) / 3, 3 / 4,
                                                  3 / 5, 3 / 6])  # beyond the rows: tp / k


def _queries(draw_queries):
    """Rows of untied queries: (relevant, scores, query ids) concatenated."""
    relevant, scores, ids = [], [], []
    for q, (rel, sc) in enumerate(draw_queries):
        relevant += rel
        scores += sc
        ids += [q] * len(rel)
    return np.array(relevant, bool), np.array(scores, float), np.array(ids)


def _untied_query():
    return st.integers(1, 12).flatmap(lambda n: st.tuples(
        st.lists(st.booleans(), min_size=n, max_size=n),
        st.lists(st.integers(-1000, 1000), min_size=n, max_size=n, unique=True)))


@SETTINGS
@given(st.lists(_untied_query(), min_size=1, max_size=5), st.lists(st.integers(1, 15),
                                                                   min_size=1, max_size=3))
def test_p_at_k_and_r_precision_are_trec_evals_on_untied_runs(queries, ks):
    relevant, scores, ids = _queries(queries)
    with _maybe_warns():
        p_at_k = fastpr.top_k(relevant, scores, ks, groups=ids).precision
        r_prec = fastpr.top_k(relevant, scores, "positives", groups=ids).precision
    for q, (rel, sc) in enumerate(queries):
        want = [float(ref.trec_eval_p_at_k(rel, sc, k)) for k in ks]
        np.testing.assert_allclose(p_at_k[q], want, rtol=1e-15)
        rprec = ref.trec_eval_rprec(rel, sc)
        if rprec is None:
            assert math.isnan(r_prec[q])
        else:
            assert r_prec[q] == pytest.approx(float(rprec), rel=1e-15)


class _maybe_warns:
    """Let an UndefinedMetricWarning (queries without relevant rows) pass."""

    def __enter__(self):
        import warnings
        self._catch = warnings.catch_warnings()
        self._catch.__enter__()
        warnings.simplefilter("ignore", fastpr.UndefinedMetricWarning)

    def __exit__(self, *exc):
        return self._catch.__exit__(*exc)


@SETTINGS
@given(rankings(weights=("none",), max_n=20), st.integers(1, 3), st.data())
def test_equal_integer_weights_are_repeated_rows(case, c, data):
    y, s, _ = case
    k = data.draw(st.integers(1, len(y)))
    weighted = fastpr.top_k(y, s, k, sample_weight=np.full(len(y), float(c)))
    repeated = fastpr.top_k(np.repeat(y, c), np.repeat(s, c), c * k)
    for field in ("tp", "fp", "precision", "recall", "threshold"):
        assert getattr(weighted, field) == pytest.approx(getattr(repeated, field), rel=1e-14)


@SETTINGS
@given(wide_rankings(), st.data())
def test_integer_weights_are_repeated_rows_where_the_kth_score_is_untied(case, data):
    y, s, _ = case
    w = np.array(data.draw(st.lists(st.integers(0, 3), min_size=len(y), max_size=len(y))),
                 float)
    order = np.argsort(-s, kind="stable")
    k = data.draw(st.integers(1, len(y)))
    if k < len(y) and s[order[k - 1]] == s[order[k]]:  # the k-th score tied: rows differ
        return
    big_k = int(w[order[:k]].sum())
    if big_k == 0 or not (w[y].sum() > 0):
        return
    weighted = fastpr.top_k(y, s, k, sample_weight=w)
    repeated = fastpr.top_k(np.repeat(y, w.astype(int)), np.repeat(s, w.astype(int)), big_k)
    for field in ("tp", "fp", "precision", "recall"):
        assert getattr(weighted, field) == pytest.approx(getattr(repeated, field), rel=1e-14)


@SETTINGS
@given(rankings(max_n=12), cutoffs(), st.randoms(use_true_random=False))
def test_top_k_ignores_monotone_transforms_and_row_order_and_unit_weights(case, k, random):
    y, s, w = case
    order = list(range(len(y)))
    random.shuffle(order)
    transformed = np.arctan(s)
    if np.unique(transformed).size != np.unique(s).size:
        return
    with _maybe_warns():
        a = fastpr.top_k(y, s, k, sample_weight=w)
        b = fastpr.top_k(y[order], transformed[order], k,
                         sample_weight=None if w is None else w[order])
        for field in ("k", "tp", "fp", "precision", "recall", "n_tied", "n_taken"):
            np.testing.assert_allclose(getattr(a, field), getattr(b, field), rtol=1e-14)
        if w is None:  # unit weights are no weights, within the rows
            c = fastpr.top_k(y, s, k, sample_weight=np.ones(len(y)))
            inside = np.ravel(a.k) <= len(y)
            for field in ("tp", "fp", "precision", "recall", "threshold"):
                np.testing.assert_allclose(np.ravel(getattr(a, field))[inside],
                                           np.ravel(getattr(c, field))[inside], rtol=1e-14)


@SETTINGS
@given(st.lists(rankings(min_n=5, max_n=5), min_size=1, max_size=4), cutoffs(6))
def test_a_batch_groups_and_a_table_equal_the_loop(cases, k):
    ys, ss = np.array([c[0] for c in cases]), np.array([c[1] for c in cases])
    with _maybe_warns():
        loop = [fastpr.top_k(y, s, k) for y, s in zip(ys, ss)]
        batch = fastpr.top_k(ys, ss, k)
        grouped = fastpr.top_k(ys.ravel(), ss.ravel(), k, groups=np.repeat(
            np.arange(len(cases)) * 10, 5))
        table = fastpr.top_k(ys[0], {f"m{i}": s for i, s in enumerate(ss)}, k)
    assert batch.index.tolist() == list(range(len(cases))) and batch.index_name == "ranking"
    assert grouped.index.tolist() == [10 * i for i in range(len(cases))]
    assert table.index.tolist() == [f"m{i}" for i in range(len(cases))]
    for field in ("k", "tp", "fp", "precision", "recall", "threshold", "n_tied", "n_taken",
                  "n_pos", "n_rows"):
        want = np.array([getattr(one, field) for one in loop])
        np.testing.assert_array_equal(getattr(batch, field), want)
        np.testing.assert_array_equal(getattr(grouped, field), want)
        if (ys == ys[0]).all():
            np.testing.assert_array_equal(getattr(table, field), want)


def test_a_result_prints_and_converts_as_a_table():
    result = fastpr.top_k([1, 0, 1, 0, 0, 1], [0.9, 0.8, 0.7, 0.6, 0.5, 0.4], [1, 3],
                          groups=["a", "a", "a", "b", "b", "b"])
    assert repr(result).splitlines()[:2] == [
        "TopK of 2 rankings",
        "group  k  tp  fp  precision  recall  threshold  n_tied  n_taken  n_pos  n_rows"]
    frame = result.to_frame()
    assert frame.index.tolist() == ["a", "a", "b", "b"] and frame.index.name == "group"
    assert frame["precision"].tolist() == pytest.approx([1, 2 / 3, 0, 1 / 3])
    assert result.to_dict()["k"] == [[1, 3], [1, 3]]
    one = fastpr.top_k([1, 0], [0.2, 0.1], 1)
    assert (one.k, one.precision, one.recall, one.index) == (1, 1.0, 1.0, None)
    assert one == fastpr.top_k([1, 0], [0.2, 0.1], 1) and len({one, one}) == 1


@pytest.mark.parametrize("k, error, match", [
    (0, ValueError, "k must be >= 1, got 0"),
    (-3, ValueError, "k must be >= 1, got -3"),
    ([2, 0], ValueError, r"k must be >= 1, got 0 at index 1"),
    (1.5, TypeError, 'k must be an integer >= 1, a 1-D sequence of them or "positives"'),
    (True, TypeError, "k must be an integer >= 1"),
    ("pos", ValueError, "k must be an integer >= 1, .*; got 'pos'"),
    ([1.0, 2.0], TypeError, r"k must be integers \(counts of rows\)"),
    ([[1, 2]], ValueError, "k must be 1-D"),
    ([], ValueError, "k is empty"),
])
def test_top_k_refuses_bad_k_naming_it(k, error, match):
    with pytest.raises(error, match=match):
        fastpr.top_k([0, 1, 1], [0.1, 0.2, 0.3], k)


def test_no_positives_warn_and_give_nan_recall():
    with pytest.warns(fastpr.UndefinedMetricWarning, match="Recall at k is undefined"):
        result = fastpr.top_k([0, 0], [0.1, 0.2], 1)
    assert result.precision == 0.0 and math.isnan(result.recall)
    with pytest.warns(fastpr.UndefinedMetricWarning, match="R-precision undefined"):
        result = fastpr.top_k([0, 0, 1], [0.1, 0.2, 0.3], "positives", groups=[1, 1, 2])
    assert math.isnan(result.precision[0]) and result.precision[1] == 1.0
