"""Hypothesis properties of fastpr: invariances, dominance, exact weight semantics, ranges."""
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import fastpr
from fastpr._engine import ranking
from fastpr._engine.kernels import sweep
from fastpr._rankings import sort_ranking
from strategies import FEW, SETTINGS, integer_weighted, rankings

AREAS = ["auc_roc", "auc_roc_hull", "auc_pr", "auc_pr_dg", "average_precision", "auc_pr_lower",
         "auc_pr_upper", "auc_pr_linear", "auc_pr_hull", "auc_pr_min", "auc_npr"]
TOL = 1e-12


def evaluate(y, s, w):
    return fastpr.evaluate(y, s, sample_weight=w).to_dict()


def curves(y, s, w):
    """Every array and scalar of every curve function, keyed by name."""
    out = {}
    for name, result in [("roc", fastpr.roc_points(y, s, sample_weight=w)),
                         ("pr", fastpr.pr_curve(y, s, sample_weight=w)),
                         ("hull", fastpr.roc_convex_hull(y, s, sample_weight=w)),
                         ("achievable", fastpr.achievable_pr_curve(y, s, sample_weight=w,
                                                                   max_recall_step=0.1))]:
        for field, value in vars(result).items():
            out[f"{name}.{field}"] = value
    return out


def assert_same(a, b, skip=()):
    """Exactly equal (==) field by field; arrays elementwise, NaN only where the other is NaN."""
    assert a.keys() == b.keys()
    for key in a:
        if any(key.endswith(s) for s in skip):
            continue
        x, y = np.asarray(a[key]), np.asarray(b[key])
        assert x.shape == y.shape, key
        assert np.array_equal(x, y, equal_nan=x.dtype.kind == "f"), (key, a[key], b[key])


def assert_close(a, b, keys, tol=TOL):
    for key in keys:
        assert math.isclose(a[key], b[key], rel_tol=tol, abs_tol=1e-14), (key, a[key], b[key])


def _rank(s):
    return np.unique(s, return_inverse=True)[1].astype(float)


MONOTONE = {
    "3s+1": lambda s: 3 * s + 1,
    "exp": np.exp,
    "cube": lambda s: s**3 - 7,
    "arctan": np.arctan,
    "rank": _rank,
}


@SETTINGS
@given(rankings(scores=("int",)), st.sampled_from(sorted(MONOTONE)))
def test_strictly_increasing_transform_changes_nothing(case, name):
    """Integer scores in -3..3, so every transform here is exact and strictly increasing."""
    y, s, w = case
    t = MONOTONE[name](s)
    assert np.unique(t).size == np.unique(s).size
    assert_same(evaluate(y, s, w), evaluate(y, t, w))
    assert_same(curves(y, s, w), curves(y, t, w), skip=("thresholds",))
    # thresholds move with the scores (point 0 keeps +inf)
    roc_s = fastpr.roc_points(y, s, sample_weight=w)
    roc_t = fastpr.roc_points(y, t, sample_weight=w)
    image = dict(zip(s.tolist(), t.tolist()))
    assert roc_t.thresholds[0] == roc_s.thresholds[0] == np.inf
    np.testing.assert_array_equal(roc_t.thresholds[1:], [image[v] for v in roc_s.thresholds[1:]])


@SETTINGS
@given(rankings(scores=("float",)))
def test_rank_transform_of_float_scores_changes_nothing(case):
    """Scores include +-inf, -0.0 and 0.0 (one threshold), subnormals and huge values."""
    y, s, w = case
    assert_same(evaluate(y, s, w), evaluate(y, _rank(s), w))
    assert_same(curves(y, s, w), curves(y, _rank(s), w), skip=("thresholds",))


@SETTINGS
@given(rankings(), st.randoms(use_true_random=False))
def test_row_permutation_changes_nothing(case, random):
    y, s, w = case
    order = list(range(y.size))
    random.shuffle(order)
    a = evaluate(y, s, w)
    b = evaluate(y[order], s[order], None if w is None else w[order])
    if integer_weighted(w):
        assert_same(a, b)
    else:  # float weights are summed in another order: equal up to rounding
        assert a["n_thresholds"] == b["n_thresholds"]
        assert_close(a, b, AREAS + ["n_pos", "n_neg", "prevalence"], tol=1e-11)


@SETTINGS
@given(rankings())
def test_label_flip_and_negated_scores_keep_auc_roc(case):
    """Swapping the classes and reversing the ranking reflects the ROC curve about the
    anti-diagonal, which keeps AUC-ROC and the hull's AUC-ROC."""
    y, s, w = case
    a = evaluate(y, s, w)
    b = evaluate(~y, -s, w)
    if integer_weighted(w):
        assert (a["n_pos"], a["n_neg"]) == (b["n_neg"], b["n_pos"])
        assert a["auc_roc"] == b["auc_roc"]
        assert a["auc_roc_hull"] == b["auc_roc_hull"]
    else:  # float weights are summed in another order
        assert math.isclose(a["n_pos"], b["n_neg"], rel_tol=TOL)
        assert math.isclose(a["n_neg"], b["n_pos"], rel_tol=TOL)
        assert_close(a, b, ["auc_roc", "auc_roc_hull"])
    roc_a = fastpr.roc_points(y, s, sample_weight=w)
    roc_b = fastpr.roc_points(~y, -s, sample_weight=w)
    np.testing.assert_allclose(roc_b.fpr[::-1], 1 - roc_a.tpr, atol=1e-14)
    np.testing.assert_allclose(roc_b.tpr[::-1], 1 - roc_a.fpr, atol=1e-14)


def _hull_tp_at(hull_fp, hull_tp, fp):
    """Highest tp of the hull polyline at fp (vertical edges take their top)."""
    best = -math.inf
    for k in range(1, hull_fp.size):
        fa, fb, ta, tb = hull_fp[k - 1], hull_fp[k], hull_tp[k - 1], hull_tp[k]
        if fa <= fp <= fb:
            best = max(best, tb if fa == fb else ta + (tb - ta) * (fp - fa) / (fb - fa))
    return best


@SETTINGS
@given(rankings())
def test_hull_dominates_curve(case):
    y, s, w = case
    e = evaluate(y, s, w)
    assert e["auc_roc_hull"] >= e["auc_roc"] - TOL
    assert e["auc_pr_hull"] >= e["auc_pr"] - TOL
    roc = fastpr.roc_points(y, s, sample_weight=w)
    hull = fastpr.roc_convex_hull(y, s, sample_weight=w)
    scale = TOL * (roc.n_pos + roc.n_neg)
    for fp, tp in zip(roc.fp, roc.tp):
        assert tp <= _hull_tp_at(hull.fp, hull.tp, fp) + scale, (fp, tp)
    # vertices are operating points, from the origin to (N, P), and turn clockwise
    assert (hull.fp[0], hull.tp[0]) == (0.0, 0.0)
    assert (hull.fp[-1], hull.tp[-1]) == (roc.fp[-1], roc.tp[-1])
    points = set(zip(roc.thresholds.tolist(), roc.fp.tolist(), roc.tp.tolist()))
    assert set(zip(hull.thresholds.tolist(), hull.fp.tolist(), hull.tp.tolist())) <= points
    if integer_weighted(w):  # exact counts: strictly convex, no collinear vertex kept
        d_fp, d_tp = np.diff(hull.fp), np.diff(hull.tp)
        assert np.all(d_fp[:-1] * d_tp[1:] - d_tp[:-1] * d_fp[1:] < 0)


@SETTINGS
@given(rankings(weights=("int",)))
def test_integer_weights_equal_repeated_rows(case):
    y, s, w = case
    repeats = w.astype(int)
    a_eval, a_curves = evaluate(y, s, w), curves(y, s, w)
    y_rep, s_rep = np.repeat(y, repeats), np.repeat(s, repeats)
    assert_same(a_eval, evaluate(y_rep, s_rep, None))
    assert_same(a_curves, curves(y_rep, s_rep, None))
    # the same with unit weights spelt out
    assert_same(a_eval, evaluate(y_rep, s_rep, np.ones(y_rep.size)))


@pytest.mark.parametrize("long", [False, True], ids=["swept as float64", "float32 sweep"])
@SETTINGS
@given(rankings(scores=("float",), float_width=32))
def test_float32_scores_equal_float64(long, case):
    """Short float32 rankings are swept as float64, long ones by a float32 sweep: both equal."""
    y, s32, w = case
    assert s32.dtype == np.float32
    s64 = s32.astype(np.float64)
    short_enough = ranking._FLOAT32_SWEEP_MIN
    ranking._FLOAT32_SWEEP_MIN = 0 if long else short_enough
    try:
        assert sort_ranking(y, s32, w).pos.dtype == (np.float32 if long else np.float64)
        assert_same(evaluate(y, s32, w), evaluate(y, s64, w))
        assert_same(curves(y, s32, w), curves(y, s64, w))
    finally:
        ranking._FLOAT32_SWEEP_MIN = short_enough


def unclipped_areas(y, s, w):
    """The areas straight from the sweep's sums, before ``summarise_into`` clips them to [0, 1]."""
    r = sort_ranking(y, s, w)
    stats, _ = sweep.sweep(r.pos, r.pos_weight, r.neg, r.neg_weight, np.empty((3, 0)))
    n_pos, n_neg = stats[sweep.TP], stats[sweep.FP]
    return {"auc_roc": stats[sweep.ROC2] / (2 * n_pos * n_neg),
            "auc_roc_hull": stats[sweep.HULL_ROC2] / (2 * n_pos * n_neg),
            "auc_pr": stats[sweep.INTERPOLATED] / n_pos,
            "auc_pr_dg": stats[sweep.DAVIS_GOADRICH] / n_pos,
            "average_precision": stats[sweep.AVERAGE_PRECISION] / n_pos,
            "auc_pr_lower": stats[sweep.LOWER2] / (2 * n_pos),
            "auc_pr_upper": stats[sweep.UPPER2] / (2 * n_pos),
            "auc_pr_hull": stats[sweep.HULL_INTERPOLATED] / n_pos}


@SETTINGS
@given(rankings())
def test_every_area_is_in_unit_interval(case):
    y, s, w = case
    raw = unclipped_areas(y, s, w)
    for name, value in raw.items():
        assert -TOL <= value <= 1 + TOL, (name, value)
    e = evaluate(y, s, w)
    for name in AREAS:
        assert -TOL <= e[name] <= 1 + TOL, (name, e[name])
    assert raw["auc_pr"] >= e["auc_pr_min"] - TOL  # no ranking beats the worst one downwards
    for method in fastpr.PR_METHODS:
        assert 0 <= fastpr.auc_pr(y, s, method=method, sample_weight=w) <= 1


@SETTINGS
@given(rankings())
def test_lower_trapezoid_equals_linear(case):
    y, s, w = case
    e = evaluate(y, s, w)
    assert e["auc_pr_lower"] == e["auc_pr_linear"]
    assert (fastpr.auc_pr(y, s, method="lower_trapezoid", sample_weight=w)
            == fastpr.auc_pr(y, s, method="linear", sample_weight=w) == e["auc_pr_linear"])


@FEW
@given(rankings(weights=("none", "int")))
def test_achievable_pr_curve_follows_hull_and_integrates_to_hull_area(case):
    y, s, w = case
    hull = fastpr.roc_convex_hull(y, s, sample_weight=w)
    step = 2e-4
    c = fastpr.achievable_pr_curve(y, s, sample_weight=w, max_recall_step=step)
    v = c.is_vertex
    np.testing.assert_array_equal(c.tp[v], hull.tp)
    np.testing.assert_array_equal(c.fp[v], hull.fp)
    np.testing.assert_array_equal(c.thresholds[v], hull.thresholds)
    assert np.isnan(c.thresholds[~v]).all()
    np.testing.assert_allclose(c.recall[v], hull.tp / hull.n_pos, rtol=1e-15)
    called = hull.tp + hull.fp
    first = hull.tp[1] / called[1]  # origin: precision of the first edge, dTP / (dTP + dFP)
    np.testing.assert_allclose(c.precision[v][1:], hull.tp[1:] / called[1:], rtol=1e-15)
    assert c.precision[0] == pytest.approx(first, rel=1e-15)
    # every point lies on a hull edge (fp linear in tp), recall steps are small
    assert np.all(np.diff(c.recall) <= step * (1 + 1e-9))
    edge = np.searchsorted(np.flatnonzero(v), np.arange(c.tp.size), side="right") - 1
    edge = np.minimum(edge, hull.tp.size - 2)
    ta, tb, fa, fb = hull.tp[edge], hull.tp[edge + 1], hull.fp[edge], hull.fp[edge + 1]
    i = tb > ta
    np.testing.assert_allclose(c.fp[i], fa[i] + (fb - fa)[i] * (c.tp - ta)[i] / (tb - ta)[i],
                               rtol=1e-12, atol=1e-12)
    i = c.tp > 0
    np.testing.assert_allclose(c.precision[i], c.tp[i] / (c.tp + c.fp)[i], rtol=1e-15)
    # A fine trapezoid rule over the sampled curve is within its error bound of the exact area:
    # on each step of width h in recall, |error| <= h^3 / 12 max |p''|, where along an edge
    # p(t) = t / (b t + a) has |d2p/dr2| = P^2 2 |a| b / (b t + a)^3, largest at the step's left.
    area = fastpr.auc_pr(y, s, method="hull", sample_weight=w)
    assert c.area == area
    e = edge[:-1]
    rising = (c.tp[1:] > c.tp[:-1]) & (hull.tp[e + 1] > hull.tp[e])
    e = e[rising]
    skew = (hull.fp[e + 1] - hull.fp[e]) / (hull.tp[e + 1] - hull.tp[e])
    a, b = hull.fp[e] - skew * hull.tp[e], 1 + skew
    h, d_left = np.diff(c.recall)[rising], (c.tp + c.fp)[:-1][rising]
    k = a != 0  # a = 0: constant precision (edges from the origin), no error
    bound = np.sum(h[k] ** 3 / 12 * hull.n_pos**2 * 2 * np.abs(a[k]) * b[k] / d_left[k] ** 3)
    assert bound < 1e-5
    assert abs(np.trapezoid(c.precision, c.recall) - area) <= 1.01 * bound + 1e-13


@SETTINGS
@given(rankings(), st.randoms(use_true_random=False))
def test_straight_lines_never_overstate_between_distinct_scores(case, random):
    # What docs/math/interpolation.rst and the README say of `linear`: between distinct scores a
    # step adds positives only (the true curve is concave there, above the straight line) or
    # negatives only (no area), so only ties of both classes make straight lines overstate.
    y, _, w = case
    order = list(range(y.size))
    random.shuffle(order)
    s = np.array(order, dtype=np.float64)
    linear = fastpr.auc_pr(y, s, method="linear", sample_weight=w)
    assert linear <= fastpr.auc_pr(y, s, sample_weight=w) + TOL
