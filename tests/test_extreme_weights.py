"""Weights from 1e-300 to 1e300 (mixed within one input, zeros included) and extreme scores.

Every area of ``evaluate`` is compared with the exact oracles of ``reference.py``; the 2-D batch,
``groups=`` and the Accumulator must agree with the single call; and where double precision
cannot give an answer (class totals more than ``MAX_CLASS_RATIO`` apart, a normalised area with
no room below 1) the value is NaN with an UndefinedMetricWarning saying why.

Tolerance. fastpr adds the weights in floating point, so each operating point carries a relative
error of at most (n - 1) 2**-53 (n <= 9 rows here), and every area is a sum of at most n
non-negative terms, each a well-conditioned function of those points (precision is a ratio of
them; the segment integrals are written without cancellation): a few hundred units of 2**-53 at
most, so relative 1e-12 leaves a margin of about 20. Besides, the sweep counts in units that put
the classes' largest weights within 2**(d / 2) of 1 (d = log2 of their ratio, at most about
600 + log2 n where areas are reported), so a weight more than 2**1022 below that unit is rounded
as a subnormal, off by up to 2**-1075. Its term in AUC-ROC is at most its weight over its class
total (>= 2**(-d / 2 - 1)), so AUC-ROC can be off by n**1.5 2**-773 < 1e-230 in absolute terms:
that matters only for an AUC-ROC that small (the tiny weights are all of it), and is the absolute
tolerance. A PR area is at least the floor, about P / 2N >= 2**-601, so there it is far below the
relative tolerance.
"""
import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

import fastpr
import reference as ref
from compiled import called_from_compiled_code
from fastpr._engine.kernels.summary import MAX_CLASS_RATIO
from fastpr._engine.kernels import sweep
from fastpr._engine.kernels.normalised import MIN_HEADROOM

REL, ABS = 1e-12, 1e-230
AREAS = ["auc_roc", "auc_roc_hull", "auc_pr", "auc_pr_dg", "average_precision", "auc_pr_lower",
         "auc_pr_upper", "auc_pr_linear", "auc_pr_hull"]
TINY = 2.2250738585072014e-308
SCORES = [0.0, -0.0, 5e-324, -5e-324, TINY, -TINY, 1e-300, 1.0, -1.0, 1e308, -1e308,
          1.7976931348623157e308, -1.7976931348623157e308, math.inf, -math.inf]
# The Davis-Goadrich oracle steps through every unit of tp; beyond this many it is too slow.
DG_ORACLE_MAX_POS = 100


@st.composite
def extreme_rankings(draw):
    """(y, s, w): both classes with nonzero weight; weights 10**k times a mantissa, k in
    [-300, 300] around a drawn centre (spread 0: all of one size, up to 600: anything), or 0."""
    n = draw(st.integers(2, 9))
    centre = draw(st.integers(-300, 300))
    spread = draw(st.sampled_from([0, 3, 30, 300, 600]))
    weights = []
    for _ in range(n):
        exponent = min(300, max(-300, centre + draw(st.integers(-spread, spread))))
        mantissa = draw(st.sampled_from([0.0, 1.0, 1.5, 3.0, 7.25, 9.999999999999998]))
        weights.append(float(f"{mantissa}e{exponent}"))
    y = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    y[0], y[1] = True, False
    for k in (0, 1):
        weights[k] = weights[k] or float(f"1e{centre}")
    s = draw(st.lists(st.sampled_from(SCORES), min_size=n, max_size=n))
    return np.array(y), np.array(s), np.array(weights)


def evaluate_recording(*args, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = fastpr.evaluate(*args, **kwargs)
    return result, [str(w.message) for w in caught
                    if issubclass(w.category, fastpr.UndefinedMetricWarning)]


def assert_close(actual, expected, what, rel=REL, abs_tol=ABS):
    expected = float(expected)
    assert abs(actual - expected) <= max(rel * abs(expected), abs_tol), (what, actual, expected)


def assert_same(a, b):
    """Field by field equal, NaN where NaN (Evaluation or its to_dict())."""
    a, b = (x.to_dict() if hasattr(x, "to_dict") else x for x in (a, b))
    for key in a:
        assert np.array_equal(a[key], b[key], equal_nan=isinstance(a[key], float)), key


def scaled_weight_tolerance(y, w):
    """REL, widened where the sweep's scale leaves the smallest weight subnormal: that weight
    then keeps only the bits above 2**-1074, and so does every precision it enters. None where
    it vanishes (the documented limit: no comparison is possible then).

    A scale keeps every weight normal unless the weights span more than double precision's
    range allows next to the products the sweep forms (about 1e-300 with 1e238 in one input).
    """
    nonzero = w[w > 0]
    weight_scale = called_from_compiled_code(sweep.weight_scale)
    scale = weight_scale(w[y].max(initial=0.0), w[~y].max(initial=0.0), nonzero.min())
    smallest = nonzero.min() * scale
    if smallest == 0.0:
        return None
    return max(REL, 64 * 2.0**-1074 / smallest)  # 2**-1074: a subnormal's absolute spacing


def oracle_areas(y, s, w, n_pos):
    points = ref.operating_points(y, s, w)
    cnt = ref.counts(points)
    expected = {
        "auc_roc": ref.auc_roc_pairwise(y, s, w),
        "auc_roc_hull": ref.auc_roc_hull(points),
        "auc_pr": ref.interpolated_area(cnt),
        "average_precision": ref.average_precision(cnt),
        "auc_pr_lower": ref.lower_trapezoid(cnt),
        "auc_pr_upper": ref.upper_trapezoid(cnt),
        "auc_pr_linear": ref.linear(cnt),
        "auc_pr_hull": ref.hull_area(points),
    }
    if n_pos <= DG_ORACLE_MAX_POS:
        expected["auc_pr_dg"] = ref.davis_goadrich_area(cnt)
    return expected


@settings(max_examples=500, deadline=None)
@given(extreme_rankings())
def test_every_area_matches_the_exact_oracle_or_says_why_not(case):
    y, s, w = case
    e, messages = evaluate_recording(y, s, sample_weight=w)
    n_pos, n_neg = ref.totals(y, s, w)
    assert_close(e.n_pos, n_pos, "n_pos", abs_tol=0)
    assert_close(e.n_neg, n_neg, "n_neg", abs_tol=0)
    far_apart = max(n_pos / n_neg, n_neg / n_pos) > Fraction(MAX_CLASS_RATIO)
    if far_apart:
        event("class totals too far apart")
        assert all(math.isnan(getattr(e, name)) for name in AREAS + ["auc_npr"])
        assert any("2**600" in m for m in messages), messages
        return
    rel = scaled_weight_tolerance(y, w)
    event("areas compared" if rel is not None else "smallest weight beyond double range")
    if rel is None:
        return
    for name, expected in oracle_areas(y, s, w, n_pos).items():
        assert_close(getattr(e, name), expected, name, rel=rel)
    assert e.n_thresholds == len(ref.operating_points(y, s, w)) - 1
    floor = ref.auc_pr_min(n_pos, n_neg)
    assert_close(e.auc_pr_min, floor, "auc_pr_min")
    headroom = 1 - floor
    if float(headroom) < MIN_HEADROOM * (1 - 1e-9):
        assert math.isnan(e.auc_npr)
        assert any("2**-26" in m for m in messages), messages
    elif float(headroom) > MIN_HEADROOM * (1 + 1e-9):
        # The area's rounding, divided by the room above the floor.
        expected = (ref.interpolated_area(ref.counts(ref.operating_points(y, s, w))) - floor)
        assert_close(e.auc_npr, expected / headroom, "auc_npr", abs_tol=4 * REL / float(headroom))
        assert not messages


@settings(max_examples=60, deadline=None)
@given(extreme_rankings(), st.randoms(use_true_random=False))
def test_batch_groups_and_accumulator_agree_with_the_single_call(case, random):
    y, s, w = case
    single, messages = evaluate_recording(y, s, sample_weight=w)
    order = np.array(random.sample(range(y.size), y.size))  # a second ranking for the batch
    rows, row_messages = evaluate_recording(y, [s, s[order]], sample_weight=[w, w])
    assert_same(rows[0], single)
    assert_same(rows[1], evaluate_recording(y, s[order], sample_weight=w)[0])
    groups, _ = evaluate_recording(np.r_[y, y], np.r_[s, s[order]], sample_weight=np.r_[w, w],
                                   groups=np.repeat([0, 1], y.size))
    assert_same(groups[0], single)
    assert_same(groups[1], rows[1])
    assert bool(messages) == bool(row_messages)
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        accumulated = fastpr.Accumulator().update(y, s, sample_weight=w).evaluate()
    # Equal to the rounding of weight sums, which the accumulator adds in another order.
    for key, value in single.to_dict().items():
        if isinstance(value, float) and math.isnan(value):
            assert math.isnan(getattr(accumulated, key)), key
        elif key != "n_thresholds":
            assert_close(getattr(accumulated, key), value, key,
                         abs_tol=ABS if key != "auc_npr" else 1e-6)


@pytest.mark.parametrize("weight", [1e160, 1e-200, 1e300, 5e-324, 2.0**63])
def test_uniform_extreme_weights_equal_unit_weights(weight):
    """Every row weighing the same must give the unweighted areas (found NaN at 1e160, 1e-200),
    but Davis-Goadrich's, which steps by one unit of weight: a segment of many steps gives the
    integral, one shorter than a step the straight line. (From 2**63 steps on, the count of
    whole steps wrapped in int64 and gave the straight line.)"""
    y = np.array([1, 0, 1, 1, 0, 0, 1, 0], bool)
    s = np.array([0.9, 0.8, 0.7, 0.6, 0.6, 0.1, 0.1, 0.05])
    plain = fastpr.evaluate(y, s)
    weighted = fastpr.evaluate(y, s, sample_weight=np.full(y.size, weight))
    assert weighted.n_pos == pytest.approx(4 * weight, rel=1e-15)
    for name in AREAS + ["auc_pr_min", "auc_npr"]:
        expected = getattr(plain, name)
        if name == "auc_pr_dg":
            expected = plain.auc_pr if weight > 1 else plain.auc_pr_linear
        assert getattr(weighted, name) == pytest.approx(expected, rel=1e-14), name
    assert plain.auc_pr_linear != pytest.approx(plain.auc_pr, rel=1e-3)  # (apart, so it tells)
    boot = fastpr.bootstrap(y, s, metric="auc_roc", n_boot=20, seed=3,
                            sample_weight=np.full(y.size, weight))
    np.testing.assert_allclose(boot.replicates, fastpr.bootstrap(
        y, s, metric="auc_roc", n_boot=20, seed=3).replicates, rtol=1e-14)


def test_a_rise_lost_in_rounding_adds_no_area_but_stays_a_point():
    """tp + 1e-17 == tp: the segment has zero width in doubles and no area (it was NaN, a
    division by that width), while the threshold is still a point and a new recall."""
    e = fastpr.evaluate([1, 0, 1], [3.0, 0.0, 0.0], sample_weight=[1, 1, 1e-17])
    assert e.auc_pr == e.auc_pr_dg == e.auc_pr_hull == 1.0
    assert e.n_thresholds == 2
    assert fastpr.evaluate([1, 0, 1], [3.0, 0.0, 0.0], sample_weight=[1, 1, 1e-15]).auc_pr == (
        pytest.approx(float(ref.interpolated_area(ref.counts(ref.operating_points(
            [1, 0, 1], [3.0, 0.0, 0.0], [1, 1, 1e-15])))), rel=1e-15))


NEGLIGIBLE_NEGATIVES = ([1, 0, 1, 0, 1, 0], [0.9, 0.8, 0.7, 0.6, 0.5, 0.4],
                        [1, 1e-18, 1, 1e-18, 1, 1e-18])


def test_normalised_area_without_room_is_nan_with_a_warning_on_every_path():
    """Negatives of weight 1e-18 put the floor at 1 in double precision: one answer (NaN with a
    warning) everywhere, where evaluate, auc_pr and the Accumulator raised ZeroDivisionError."""
    y, s, w = NEGLIGIBLE_NEGATIVES
    with pytest.warns(fastpr.UndefinedMetricWarning, match="2\\*\\*-26"):
        single = fastpr.evaluate(y, s, sample_weight=w)
    assert math.isnan(single.auc_npr) and single.auc_pr_min == 1.0
    with pytest.warns(fastpr.UndefinedMetricWarning, match="2\\*\\*-26"):
        batch = fastpr.evaluate(y, [s, s], sample_weight=w)
    assert_same(batch[0], single)
    with pytest.warns(fastpr.UndefinedMetricWarning, match="2\\*\\*-26"):
        assert math.isnan(fastpr.auc_npr(y, s, sample_weight=w))
    assert fastpr.auc_pr(y, s, sample_weight=w) == single.auc_pr
    assert fastpr.auc_roc(y, s, sample_weight=w) == single.auc_roc
    with pytest.warns(fastpr.UndefinedMetricWarning, match="2\\*\\*-26"):
        assert_same(fastpr.Accumulator().update(y, s, sample_weight=w).evaluate(), single)
    with pytest.warns(fastpr.UndefinedMetricWarning, match="1 of 2 folds"):
        assert math.isnan(fastpr.aggregate([(y, s, w), (y, s)], how="normalized").values[0])


def test_bootstrap_of_an_undefined_normalised_area_says_so():
    y, s, w = NEGLIGIBLE_NEGATIVES
    with pytest.warns(fastpr.UndefinedMetricWarning):
        result = fastpr.bootstrap(y, s, metric="auc_npr", n_boot=20, seed=1, sample_weight=w)
    assert math.isnan(result.estimate) and math.isnan(result.low) and math.isnan(result.high)


def test_davis_goadrich_steps_where_a_unit_step_is_below_rounding():
    """Counts of 1e17 >= 2**53 before a steep segment: tp + 1 == tp there, and the stepping loop
    never advanced (evaluate hung). The first rise has precision 1 throughout (no negative above
    it), so its area is exactly its 1e17; the steep one's 1000 unit steps are summed exactly."""
    y, s, w = [1, 1, 0], [2.0, 1.0, 1.0], [1e17, 1e3, 1e30]
    tp_a, dtp, dfp = Fraction(1e17), Fraction(1e3), Fraction(1e30)
    precision = [(tp_a + k) / (tp_a + k + dfp * k / dtp) for k in range(1001)]
    steep = sum((precision[k - 1] + precision[k]) / 2 for k in range(1, 1001))
    expected = (tp_a + steep) / (tp_a + dtp)
    assert fastpr.auc_pr(y, s, sample_weight=w, method="davis_goadrich") == pytest.approx(
        float(expected), rel=1e-13)

