"""fastpr against the slow oracles of tests/reference.py on small generated rankings."""
import math
import warnings
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from sklearn import metrics as skm

import fastpr
import reference as ref
from strategies import FEW, SETTINGS, integer_weighted, rankings

REL, ABS = 1e-12, 1e-14
FIELDS = ["n_pos", "n_neg", "prevalence", "n_thresholds", "auc_roc", "auc_roc_hull", "auc_pr",
          "auc_pr_dg", "average_precision", "auc_pr_lower", "auc_pr_upper", "auc_pr_linear",
          "auc_pr_hull", "auc_pr_min", "auc_npr"]
METHOD_FIELDS = {"interpolated": "auc_pr", "davis_goadrich": "auc_pr_dg",
                 "average_precision": "average_precision", "lower_trapezoid": "auc_pr_lower",
                 "upper_trapezoid": "auc_pr_upper", "linear": "auc_pr_linear",
                 "hull": "auc_pr_hull"}


def close(got, expected, rel=REL, abs_=ABS):
    return math.isclose(got, float(expected), rel_tol=rel, abs_tol=abs_)


def assert_close(got, expected, what, rel=REL, abs_=ABS):
    assert close(got, expected, rel, abs_), f"{what}: got {got!r}, oracle {float(expected)!r}"


def assert_values(got, expected, what, exact):
    """Array against a list of Fractions: equal when the weights are integers, else close."""
    expected = np.array([float(v) for v in expected])
    assert got.shape == expected.shape, f"{what}: shape {got.shape}, oracle {expected.shape}"
    if exact:
        np.testing.assert_array_equal(got, expected, err_msg=what)
    else:
        np.testing.assert_allclose(got, expected, rtol=REL, atol=ABS, err_msg=what)


def check_evaluation(e, y, s, w):
    """Every field to relative precision REL. Only auc_npr gets an absolute floor: it subtracts
    auc_pr_min from auc_pr and divides by 1 - auc_pr_min, which shrinks as prevalence nears 1."""
    expected = ref.evaluation(y, s, w)
    assert e.n_thresholds == expected["n_thresholds"]
    npr_abs = ABS / float(1 - expected["auc_pr_min"])
    for name in FIELDS:
        assert_close(getattr(e, name), expected[name], name,
                     abs_=npr_abs if name == "auc_npr" else 0.0)
    return expected


# ---------------------------------------------------------------------------------------------
# The oracles themselves, against the worked numbers of docs/math/ and independent tools.


def test_oracle_closed_form_equals_quadrature():
    F = Fraction
    for a, b in [((0, 0), (3, 5)), ((1, 2), (4, 9)), ((0, 3), (5, 5)), ((2, 0), (3, 7)),
                 ((F(1, 3), F(5, 7)), (F(9, 2), F(11, 3))), ((1000, 1), (F(10001, 10), 1))]:
        closed = ref.interpolated_segment(*map(F, a), *map(F, b))
        quad = ref.interpolated_segment_quad(*map(F, a), *map(F, b))
        with mpmath.workdps(60):
            assert abs(closed - quad) < mpmath.mpf(10) ** -45 * abs(quad)


def test_oracle_table1_and_figure6():
    F = Fraction
    # Table 1 (P = 20): A = (5, 5), B = (10, 30); the DG nodes are the table's rows, then a leg
    # (10, 30) -> (20, 30) of skew 0, precision t / (t + 30) at t = 10 .. 20.
    precisions = [F(tp, tp + fp) for tp, fp in zip(range(5, 11), range(5, 31, 5))]
    assert [round(float(p), 3) for p in precisions] == [0.5, 0.375, 0.318, 0.286, 0.265, 0.25]
    table = sum((precisions[k] + precisions[k + 1]) / 2 for k in range(5))
    leg = sum((F(t, t + 30) + F(t + 1, t + 31)) / 2 for t in range(10, 20))
    cnt = [(F(5), F(5)), (F(10), F(30)), (F(20), F(30))]
    assert ref.davis_goadrich_area(cnt) == (table + leg) / 20
    # Figure 6: nine positives first, everything else tied.
    cnt = [(F(0), F(0)), (F(9), F(0)), (F(433), F(56164))]
    assert 0.0290 < float(ref.interpolated_area(cnt)) < 0.0300
    assert 0.50 < float(ref.linear(cnt)) < 0.52
    e = fastpr.evaluate(np.r_[np.ones(433, bool), np.zeros(56164, bool)],
                        np.r_[np.full(9, 2.0), np.ones(433 - 9 + 56164)])
    assert_close(e.auc_pr, ref.interpolated_area(cnt), "figure 6 interpolated")
    assert_close(e.auc_pr_linear, ref.linear(cnt), "figure 6 linear")
    assert_close(e.auc_pr_dg, ref.davis_goadrich_area(cnt), "figure 6 davis_goadrich")
    assert_close(e.average_precision, ref.average_precision(cnt), "figure 6 AP")


def test_oracle_worst_ranking_area_is_auc_pr_min():
    for n_pos, n_neg in [(1, 9), (1, 1), (3, 17), (40, 2)]:
        y = [False] * n_neg + [True] * n_pos
        s = list(range(n_pos + n_neg, 0, -1))  # every negative above every positive
        cnt = ref.counts(ref.operating_points(y, s))
        with mpmath.workdps(60):
            diff = ref.interpolated_area(cnt) - ref.auc_pr_min(n_pos, n_neg)
            assert abs(diff) < mpmath.mpf(10) ** -40
    assert abs(float(ref.auc_pr_min(1, 9)) - 0.052) < 1e-3
    assert abs(float(ref.auc_pr_min(1, 1)) - 0.307) < 1e-3


def test_oracle_docstring_example():
    y, s = [1, 0, 1, 1, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.6, 0.1]
    assert ref.auc_roc_pairwise(y, s) == Fraction(13, 18)
    cnt = ref.counts(ref.operating_points(y, s))
    assert cnt == [(0, 0), (1, 0), (1, 1), (2, 1), (3, 2), (3, 3)]
    assert ref.average_precision(cnt) == Fraction(1, 3) * (1 + Fraction(2, 3) + Fraction(3, 5))
    # (fp, tp) = (1, 2) lies on the segment (0, 1) -> (2, 3), so it is dropped
    points = ref.operating_points(y, s)
    assert ref.roc_hull_bruteforce(points) == [(0, 0), (0, 1), (2, 3), (3, 3)]
    assert ref.auc_roc_hull(points) == Fraction(7, 9)


@SETTINGS
@given(rankings())
def test_oracles_agree_with_scikit_learn(case):
    y, s, w = case
    s = np.unique(s, return_inverse=True)[1].astype(float)  # scikit-learn rejects inf
    cnt = ref.counts(ref.operating_points(y, s, w))
    assert math.isclose(float(ref.auc_roc_pairwise(y, s, w)),
                        skm.roc_auc_score(y, s, sample_weight=w), rel_tol=1e-12)
    assert math.isclose(float(ref.average_precision(cnt)),
                        skm.average_precision_score(y, s, sample_weight=w), rel_tol=1e-12)
    precision, recall, _ = skm.precision_recall_curve(y, s, sample_weight=w)
    assert math.isclose(float(ref.linear(cnt)), skm.auc(recall, precision), rel_tol=1e-12)


# ---------------------------------------------------------------------------------------------
# fastpr against the oracles.


def _case(y, s, w=None):
    return (np.array(y, dtype=bool), np.array(s, dtype=float),
            None if w is None else np.array(w, dtype=float))


# Hand-picked corners, always run: a trailing and a leading threshold whose rows all weigh 0,
# -0.0 tied with 0.0, +-inf scores, a tie of both classes at the top, a vertical hull start.
CORNERS = [
    _case([1, 0, 0, 0], [0, 0, 0, -1], [1, 1, 0, 0]),
    _case([0, 1, 0], [2, 1, 0], [0, 1, 1]),
    _case([1, 0, 1, 0], [-0.0, 0.0, 0.0, -0.0]),
    _case([1, 0, 1, 0, 1], [np.inf, np.inf, -np.inf, -np.inf, 5e-324]),
    _case([1, 1, 0, 1, 0, 0], [3, 3, 3, 2, 1, 1], [0.5, 2.25, 1.75, 0.1, 3.0, 0.3]),
    # A rise of 2 from tp = 1.169...: (tp + 2) - tp rounds to just below 2, and the sweep's
    # Davis-Goadrich steps once took the second step by Euler-Maclaurin (1.6e-7 off).
    _case([1, 0, 1], [0, 0, -1], [1.1694612525825312, 1, 2]),
]


def corners(test):
    for case in CORNERS:
        test = example(case)(test)
    return test


@corners
@SETTINGS
@given(rankings())
def test_evaluate_matches_oracles(case):
    y, s, w = case
    check_evaluation(fastpr.evaluate(y, s, sample_weight=w), y, s, w)


@FEW
@given(rankings(max_n=12, weights=("int",), max_int_weight=400))
def test_evaluate_matches_oracles_large_counts(case):
    """Counts in the hundreds: long Davis-Goadrich runs (past the kernel's Euler-Maclaurin switch)."""
    y, s, w = case
    check_evaluation(fastpr.evaluate(y, s, sample_weight=w), y, s, w)


@FEW
@example((*_case([1, 0], [0, 1], [1, 1e7]), ), 1e7, 1.0)
@example((*_case([1, 0, 1, 0], [3, 2, 1, 0], [1, 1, 2, 0.3]), ), 1e7, 1.0)
@example((*_case([1, 0, 1, 0], [3, 2, 1, 0], [1, 1, 2, 0.3]), ), 1e-6, 1.0)
@given(rankings(max_n=12, weights=("none", "int", "float")),
       st.sampled_from([1e-6, 1e-3, 1e3, 1e5, 1e7]), st.sampled_from([1.0, 1e-4, 1e-8]))
def test_evaluate_matches_oracles_at_extreme_skew(case, neg_scale, pos_scale):
    """Prevalence near 0 or 1 and tiny segments next to large counts: where the closed forms
    would cancel (x - log(1 + x) for small x) unless evaluated with care."""
    y, s, w = case
    w = np.ones(y.size) if w is None else w
    w = np.where(y, w * pos_scale, w * neg_scale)
    check_evaluation(fastpr.evaluate(y, s, sample_weight=w), y, s, w)


@FEW
@given(rankings(), st.sampled_from(sorted(METHOD_FIELDS)))
def test_auc_pr_and_auc_roc_match_oracles(case, method):
    y, s, w = case
    expected = ref.evaluation(y, s, w)
    got = fastpr.auc_pr(y, s, method=method, sample_weight=w)
    assert_close(got, expected[METHOD_FIELDS[method]], method)
    assert_close(fastpr.auc_roc(y, s, sample_weight=w), expected["auc_roc"], "auc_roc")


@corners
@SETTINGS
@given(rankings())
def test_roc_and_pr_curves_match_oracle_points(case):
    y, s, w = case
    exact = integer_weighted(w)
    points = ref.operating_points(y, s, w)
    cnt = ref.counts(points)
    n_pos, n_neg = cnt[-1]
    roc = fastpr.roc_points(y, s, sample_weight=w)
    np.testing.assert_array_equal(roc.thresholds, [t for t, _, _ in points])
    assert_values(roc.tp, [tp for tp, _ in cnt], "tp", exact)
    assert_values(roc.fp, [fp for _, fp in cnt], "fp", exact)
    assert_values(roc.tpr, [tp / n_pos for tp, _ in cnt], "tpr", exact)
    assert_values(roc.fpr, [fp / n_neg for _, fp in cnt], "fpr", exact)
    assert_close(roc.n_pos, n_pos, "n_pos")
    assert_close(roc.n_neg, n_neg, "n_neg")
    pr = fastpr.pr_curve(y, s, sample_weight=w)
    np.testing.assert_array_equal(pr.thresholds, roc.thresholds)
    np.testing.assert_array_equal(pr.tp, roc.tp)
    np.testing.assert_array_equal(pr.fp, roc.fp)
    assert_values(pr.recall, [tp / n_pos for tp, _ in cnt], "recall", False)
    assert_values(pr.precision, ref.pr_curve_precision(cnt), "precision", False)


def _distance_to_polyline(point, vertices):
    """Euclidean distance from (fp, tp) to the polyline through vertices (floats)."""
    px, py = point
    best = math.inf
    for (ax, ay), (bx, by) in zip(vertices, vertices[1:]):
        dx, dy = bx - ax, by - ay
        u = 0.0 if dx == dy == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy)
                                                   / (dx * dx + dy * dy)))
        best = min(best, math.hypot(px - ax - u * dx, py - ay - u * dy))
    return best


def assert_hull_matches(hull, points, exact):
    """roc_convex_hull output against the gift-wrapping oracle.

    With integer weights every count is exact, so the vertex lists must be identical. With float
    weights the kernel's counts carry rounding, so a vertex that is collinear to within rounding
    may be kept or dropped: then every vertex in one list but not the other must lie on the other
    hull to within rounding.
    """
    expected = ref.roc_hull_points(points)
    if exact:
        np.testing.assert_array_equal(hull.thresholds, [t for t, _, _ in expected])
        np.testing.assert_array_equal(hull.tp, [float(tp) for _, tp, _ in expected])
        np.testing.assert_array_equal(hull.fp, [float(fp) for _, _, fp in expected])
        return
    scale = float(points[-1][1] + points[-1][2])
    got = list(zip(hull.fp.tolist(), hull.tp.tolist()))
    want = [(float(fp), float(tp)) for _, tp, fp in expected]
    assert got[0] == (0.0, 0.0) and np.allclose(got[-1], want[-1], rtol=REL)
    assert all(a[0] <= b[0] for a, b in zip(got, got[1:])), got
    # every kernel vertex is an operating point with that threshold
    for (fp, tp), t in zip(got, hull.thresholds):
        assert any(t == pt and math.isclose(tp, float(ptp), rel_tol=REL, abs_tol=ABS)
                   and math.isclose(fp, float(pfp), rel_tol=REL, abs_tol=ABS)
                   for pt, ptp, pfp in points), (t, tp, fp)
    for v in got:
        if not any(np.allclose(v, u, rtol=REL, atol=ABS) for u in want):
            assert _distance_to_polyline(v, want) <= 1e-12 * scale, (v, want)
    for u in want:
        if not any(np.allclose(v, u, rtol=REL, atol=ABS) for v in got):
            assert _distance_to_polyline(u, got) <= 1e-12 * scale, (u, got)


@corners
@SETTINGS
@given(rankings())
def test_roc_convex_hull_matches_gift_wrapping(case):
    y, s, w = case
    points = ref.operating_points(y, s, w)
    hull = fastpr.roc_convex_hull(y, s, sample_weight=w)
    assert_hull_matches(hull, points, integer_weighted(w))
    n_pos, n_neg = points[-1][1], points[-1][2]
    assert_close(hull.n_pos, n_pos, "n_pos")
    assert_close(hull.n_neg, n_neg, "n_neg")
    np.testing.assert_allclose(hull.tpr, hull.tp / float(n_pos), rtol=REL)
    np.testing.assert_allclose(hull.fpr, hull.fp / float(n_neg), rtol=REL)


@corners
@SETTINGS
@given(rankings())
def test_achievable_pr_curve_vertices_and_area_match_oracles(case):
    y, s, w = case
    points = ref.operating_points(y, s, w)
    n_pos = points[-1][1]
    curve = fastpr.achievable_pr_curve(y, s, sample_weight=w, max_recall_step=0.05)
    assert_close(curve.area, ref.hull_area(points), "area")
    if integer_weighted(w):
        vertices = ref.roc_hull_points(points)
        cnt = [(tp, fp) for _, tp, fp in vertices]
        v = curve.is_vertex
        np.testing.assert_array_equal(curve.thresholds[v], [t for t, _, _ in vertices])
        np.testing.assert_array_equal(curve.tp[v], [float(tp) for tp, _ in cnt])
        np.testing.assert_array_equal(curve.fp[v], [float(fp) for _, fp in cnt])
        assert_values(curve.recall[v], [tp / n_pos for tp, _ in cnt], "recall", False)
        assert_values(curve.precision[v], ref.pr_curve_precision(cnt), "precision", False)


def test_hull_with_many_vertices_matches_gift_wrapping():
    """More vertices than the kernel's initial hull stack (64), so the stack must grow."""
    m = 150
    j = np.arange(1, m + 1)
    # group j (score m - j) holds positive weight m - j + 1 and negative weight j: the slopes
    # (m - j + 1) / j fall strictly, so every operating point is a hull vertex
    y = np.r_[np.ones(m, bool), np.zeros(m, bool)]
    s = np.r_[m - j, m - j].astype(float)
    w = np.r_[m - j + 1, j].astype(float)
    points = ref.operating_points(y, s, w)
    hull = fastpr.roc_convex_hull(y, s, sample_weight=w)
    assert hull.tp.size == m + 1
    assert_hull_matches(hull, points, exact=True)
    e = fastpr.evaluate(y, s, sample_weight=w)
    assert_close(e.auc_roc_hull, ref.auc_roc_hull(points), "auc_roc_hull")
    assert_close(e.auc_pr_hull, ref.hull_area(points), "auc_pr_hull")
    # the same with a few collinear points added on every edge: they must all be dropped
    y2 = np.r_[y, np.ones(m, bool), np.zeros(m, bool)]
    s2 = np.r_[s, m - j + 0.5, m - j + 0.5]
    w2 = np.r_[w * 2, m - j + 1, j].astype(float)  # edge j: 3 (m - j + 1, j), a point at 1/3
    points2 = ref.operating_points(y2, s2, w2)
    assert len(points2) == 2 * m + 1
    hull2 = fastpr.roc_convex_hull(y2, s2, sample_weight=w2)
    assert hull2.tp.size == m + 1
    assert_hull_matches(hull2, points2, exact=True)


# ---------------------------------------------------------------------------------------------
# Undefined metrics


@SETTINGS
@given(rankings(min_n=1, defined=False), st.booleans())
def test_missing_class_gives_nan_and_warns(case, drop_positives):
    y, s, w = case
    # make one class absent: give it zero weight, or else relabel every row as the other class
    absent = y if drop_positives else ~y
    if w is not None and w[~absent].any():
        w = np.where(absent, 0.0, w)
    else:
        y = np.full_like(y, not drop_positives)
    points = ref.operating_points(y, s, w)
    n_pos, n_neg = points[-1][1], points[-1][2]
    assert (n_pos == 0) == drop_positives and (n_neg == 0) != drop_positives
    with pytest.warns(fastpr.UndefinedMetricWarning):
        e = fastpr.evaluate(y, s, sample_weight=w)
    assert e.n_thresholds == len(points) - 1
    assert_close(e.n_pos, n_pos, "n_pos")
    assert_close(e.n_neg, n_neg, "n_neg")
    assert e.prevalence == (0.0 if drop_positives else 1.0)
    assert math.isnan(e.auc_roc) and math.isnan(e.auc_roc_hull) and math.isnan(e.auc_npr)
    pr_fields = list(METHOD_FIELDS.values()) + ["auc_pr_min"]
    if drop_positives:
        assert all(math.isnan(getattr(e, f)) for f in pr_fields)
    else:
        # no negatives: precision is 1 everywhere; the oracles give 1 for every estimator
        cnt = ref.counts(points)
        expected = {"auc_pr": ref.interpolated_area(cnt), "auc_pr_dg": ref.davis_goadrich_area(cnt),
                    "average_precision": ref.average_precision(cnt),
                    "auc_pr_lower": ref.lower_trapezoid(cnt),
                    "auc_pr_upper": ref.upper_trapezoid(cnt), "auc_pr_linear": ref.linear(cnt),
                    "auc_pr_hull": ref.hull_area(points), "auc_pr_min": ref.auc_pr_min(n_pos, 0)}
        for f in pr_fields:
            assert float(expected[f]) == 1.0
            assert_close(getattr(e, f), expected[f], f)
    with pytest.warns(fastpr.UndefinedMetricWarning):
        assert math.isnan(fastpr.auc_roc(y, s, sample_weight=w))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = fastpr.auc_pr(y, s, sample_weight=w)
    warned = any(issubclass(c.category, fastpr.UndefinedMetricWarning) for c in caught)
    if drop_positives:
        assert math.isnan(value) and warned
    else:
        assert value == 1.0 and not warned
