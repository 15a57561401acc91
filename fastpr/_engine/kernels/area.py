"""Areas under the PR curve between neighbouring operating points, for every estimator.

A segment joins consecutive operating points A = (tp_a, fp_a) and B = (tp_b, fp_b) in count
space, with tp_b > tp_a. Along it fp grows linearly in tp with local skew
s = (fp_b - fp_a) / (tp_b - tp_a), so precision is p(t) = t / (b t + a) with b = 1 + s and
a = fp_a - s tp_a. Areas returned here are integrals over t (true-positive counts); divide by P
for the area over recall.

The formulas are written with q = 1 / b = dtp / (dtp + dfp) and a / b = fp_a q - tp_a (1 - q)
instead of s, b and a: those overflow when a segment is much steeper than a double's range (a
tiny rise among heavy negatives), and products of tp and fp overflow for huge counts, while q,
a / b and the ratios below stay within the range of the counts themselves.
"""
import math

import numpy as np

from ..jit import helper, jit

# Davis & Goadrich steps explicitly until u = t + a / b reaches this value, then switches to the
# Euler-Maclaurin form of the composite trapezoid, whose next omitted term is below
# |a / b^2| / (240 u^8): negligible for u >= 256.
_EULER_MACLAURIN_FROM = 256.0


@helper
def excess_ratio(x):
    """(x - log1p(x)) / x for x >= 0, to full relative precision (1 at x = inf).

    With y = x / (2 + x), log1p(x) = 2 atanh(y), so (x - log1p(x)) / x = y - 2 (y^3/3 + y^5/5 +
    ...) / x, and y^3 / x = y^2 / (2 + x); the series converges fast for x <= 1 (y <= 1/3) and has
    no cancellation there, nor a product as small as x^2 that could underflow. For x <= 1/16
    (y <= 1/33), the case of almost every segment in a long sweep, five terms leave out less
    than y^11 / 13 < 1e-17 of the result, so a fixed polynomial replaces the loop and its
    unpredictable exit. Above 1 the ratio is over 0.3 and 1 - log1p(x) / x loses nothing.
    """
    if x > 1.0:
        return 1.0 - math.log1p(x) / x if x < math.inf else 1.0
    inverse = 1.0 / (2.0 + x)
    y = x * inverse
    y2 = y * y
    if x <= 0.0625:
        series = 1.0 / 3.0 + y2 * (1.0 / 5.0 + y2 * (1.0 / 7.0 + y2 * (1.0 / 9.0 + y2 / 11.0)))
        return y - 2.0 * (y2 * inverse) * series
    term = y2
    tail = 0.0
    k = 3.0
    while term > 1e-17 * y:
        tail += term / k
        term *= y2
        k += 2.0
    return y - 2.0 * inverse * tail


@jit
def worst_ranking_interpolated_area(n_pos, n_neg):
    """Interpolated AUC-PR when every negative outranks every positive (Boyd et al. 2012).

    Its one rising run has fp = N throughout, so the area is (1/P) * integral of t / (t + N) over
    [0, P] = 1 + (1 - pi) ln(1 - pi) / pi = (x - log1p(x)) / x with x = P / N, evaluated without
    cancellation at any skew. NaN without positives, 1 without negatives (or with negatives too
    light beside the positives for P / N to be a double).
    """
    if n_pos <= 0.0:
        return math.nan
    if n_neg == 0.0:
        return 1.0
    return excess_ratio(n_pos / n_neg)


@helper
def start_precision(tp_a, fp_a, tp_b, fp_b):
    """Precision where the segment leaves A: its limit from the right when A has tp = 0."""
    if tp_a > 0.0:
        return tp_a / (tp_a + fp_a)
    if fp_a > 0.0:
        return 0.0
    return (tp_b - tp_a) / ((tp_b - tp_a) + (fp_b - fp_a))


@helper
def interpolated_segment(tp_a, fp_a, tp_b, fp_b):
    """Exact integral of p(t) over [tp_a, tp_b].

    The closed form is dtp / b - (a / b^2) ln(D_b / D_a) with D = tp + fp = b t + a. With
    x = b dtp / D_a (the growth of D) and alpha = a / (b D_a), it is dtp (q - alpha log1p(x) / x)
    and, when a >= 0, dtp (p(A) + alpha (x - log1p(x)) / x). When a < 0 (precision falls along
    the segment) the first is a sum of positive terms, when a >= 0 the second: nothing cancels.
    Every factor after dtp is a ratio of at most 1, so no intermediate underflows or overflows
    where the result does not, and the result keeps full relative precision at any skew.
    """
    dtp = tp_b - tp_a
    dfp = fp_b - fp_a
    d_a = tp_a + fp_a
    if dfp == 0.0 and d_a > 0.0:
        # A vertical run, most segments of a sweep: below, q = 1 and alpha = fp_a / d_a >= 0
        # exactly, so this is the same number without two divisions.
        return dtp * (tp_a / d_a + (fp_a / d_a) * excess_ratio(dtp / d_a))
    growth = dtp + dfp
    q = dtp / growth  # divisions, not reciprocals: a subnormal count has no finite reciprocal
    if d_a == 0.0:
        return dtp * q
    p_a = tp_a / d_a
    alpha = (fp_a / d_a) * q - p_a * (dfp / growth)
    x = growth / d_a
    if alpha < 0.0:
        return dtp * (q - alpha * (math.log1p(x) / x if x < math.inf else 0.0))
    return dtp * (p_a + alpha * excess_ratio(x))


@helper
def _em_inverse_powers(u):
    """sum of B_2k/(2k)! * (2k-1)! * u^-2k over k = 1..3, the Euler-Maclaurin terms of p(t)."""
    v = 1.0 / (u * u)
    return v * (1.0 / 12.0 - v * (1.0 / 120.0 - v / 252.0))


@helper
def davis_goadrich_segment(tp_a, fp_a, tp_b, fp_b, step):
    """Composite trapezoid over nodes tp_a, tp_a + step, ..., tp_b (last step partial).

    ``step`` is one unit of the caller's counts in the units of tp (a power of two, so that the
    result is exactly ``step`` times the one in the caller's units). Long runs of steps use the
    Euler-Maclaurin formula for the trapezoid rule, which is exact to rounding once the nodes
    are far from the pole of p(t) = q t / u(t), u = t + a / b; the first steps are summed one
    by one, at offsets from tp_a that stay exact even where tp_a + step rounds to tp_a.
    """
    dtp = tp_b - tp_a
    dfp = fp_b - fp_a
    growth = dtp + dfp
    q = dtp / growth
    pole = q * (tp_a + fp_a)  # u(tp_a): u(tp_a + offset) = offset + pole, without cancellation
    a_b = fp_a * q - tp_a * (dfp / growth)
    p_prev = start_precision(tp_a, fp_a, tp_b, fp_b)
    offset = 0.0
    steps = 0.0  # the trapezoids summed so far, in units of step
    while offset + step <= dtp and offset + pole < _EULER_MACLAURIN_FROM * step:
        offset += step
        p = q * (tp_a + offset) / (offset + pole)
        steps += 0.5 * (p_prev + p)
        p_prev = p
    total = steps * step
    # Whole steps left, counted from the same offsets as the loop: counted from tp_b - (tp_a +
    # offset) instead, a dtp that rounds just below a whole number of steps stopped the loop one
    # step short and sent that step, next to the pole, to Euler-Maclaurin (a relative error of
    # 1e-7 in the area).
    n_steps = np.floor((dtp - offset) / step)  # (math.floor is an int64 in numba: it wraps)
    if n_steps >= 1.0:
        t = tp_a + offset
        t_end = t + n_steps * step
        s = dfp / dtp  # finite here: dtp exceeds one caller's unit
        integral = interpolated_segment(t, fp_a + s * (t - tp_a), t_end, fp_a + s * (t_end - tp_a))
        u_end = offset + n_steps * step + pole
        correction = (a_b * q) * (_em_inverse_powers((offset + pole) / step)
                                  - _em_inverse_powers(u_end / step))
        total += integral - correction
        offset += n_steps * step
        p_prev = q * t_end / u_end
    if offset < dtp:
        total += 0.5 * (p_prev + tp_b / (tp_b + fp_b)) * (dtp - offset)
    return total
