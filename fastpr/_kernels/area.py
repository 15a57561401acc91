"""Per-segment areas under the PR curve (SPEC section 4 and 5).

A segment joins consecutive operating points A = (tp_a, fp_a) and B = (tp_b, fp_b) in count
space, with tp_b > tp_a. Along it fp grows linearly in tp with local skew
s = (fp_b - fp_a) / (tp_b - tp_a), so precision is p(t) = t / (b t + a) with b = 1 + s and
a = fp_a - s tp_a. Areas returned here are integrals over t (true-positive counts); divide by P
for the area over recall.

The formulas are written with q = 1 / b = dtp / (dtp + dfp) and a / b = fp_a q - tp_a (1 - q)
instead of s, b and a: those overflow when a segment is much steeper than a double's range
(a tiny rise among heavy negatives), and products of tp and fp overflow for huge counts, while
q, a / b and the ratios below stay within the range of the counts themselves.
"""
import math

from .._jit import jit

# Davis & Goadrich steps explicitly until u = t + a / b reaches this value, then switches to the
# Euler-Maclaurin form of the composite trapezoid, whose next omitted term is below
# |a / b^2| / (240 u^8): negligible for u >= 256.
_EULER_MACLAURIN_FROM = 256.0


@jit(inline="always")
def log1p_excess(x):
    """x - log1p(x) for x >= 0 without cancellation.

    With y = x / (2 + x), log1p(x) = 2 atanh(y), so x - log1p(x) = x y - 2 (y^3/3 + y^5/5 + ...);
    the series converges fast for x <= 1 (y <= 1/3) and has no cancellation there. For
    x <= 1/16 (y <= 1/33), the case of almost every segment in a long sweep, five terms leave out
    less than y^11 / 13 < 1e-17 of the result, so a fixed polynomial replaces the loop and its
    unpredictable exit.
    """
    if x > 1.0:
        return x - math.log1p(x)
    y = x / (2.0 + x)
    y2 = y * y
    if x <= 0.0625:
        series = 1.0 / 3.0 + y2 * (1.0 / 5.0 + y2 * (1.0 / 7.0 + y2 * (1.0 / 9.0 + y2 / 11.0)))
        return x * y - 2.0 * (y * y2) * series
    term = y * y2
    tail = 0.0
    k = 3.0
    while term > 1e-17 * x * y:
        tail += term / k
        term *= y2
        k += 2.0
    return x * y - 2.0 * tail


@jit
def worst_ranking_interpolated_area(n_pos, n_neg):
    """Interpolated AUC-PR when every negative outranks every positive (Boyd et al. 2012).

    Its one rising run has fp = N throughout, so the area is (1/P) * integral of t / (t + N) over
    [0, P] = 1 + (1 - pi) ln(1 - pi) / pi = (x - log1p(x)) / x with x = P / N, evaluated without
    cancellation at any skew. NaN without positives, 1 without negatives.
    """
    if n_pos <= 0.0:
        return math.nan
    if n_neg == 0.0:
        return 1.0
    x = n_pos / n_neg
    return log1p_excess(x) / x


@jit(inline="always")
def start_precision(tp_a, fp_a, tp_b, fp_b):
    """Precision where the segment leaves A: its limit from the right when A has tp = 0."""
    if tp_a > 0.0:
        return tp_a / (tp_a + fp_a)
    if fp_a > 0.0:
        return 0.0
    return (tp_b - tp_a) / ((tp_b - tp_a) + (fp_b - fp_a))


@jit(inline="always")
def interpolated_segment(tp_a, fp_a, tp_b, fp_b):
    """Exact integral of p(t) over [tp_a, tp_b].

    The closed form is dtp / b - (a / b^2) ln(D_b / D_a) with D = tp + fp = b t + a. When a < 0
    (precision falls along the segment) both of its terms are positive. When a >= 0 it is
    rewritten as dtp * p(A) + (a / b^2) * (x - log1p(x)), x = b dtp / D_a, again a sum of
    non-negative terms. Either way nothing cancels, so the result keeps full relative precision
    at any skew.
    """
    dtp = tp_b - tp_a
    dfp = fp_b - fp_a
    growth = dtp + dfp  # b dtp = D_b - D_a
    q = dtp / growth
    d_a = tp_a + fp_a
    if d_a == 0.0:
        return dtp * q
    a_b = fp_a * q - tp_a * (dfp / growth)
    x = growth / d_a
    if x == math.inf:  # D_a is too small beside the segment for the ratio to be a double
        return q * (dtp - a_b * (math.log(growth) - math.log(d_a)))
    if a_b < 0.0:
        return q * (dtp - a_b * math.log1p(x))
    return dtp * (tp_a / d_a) + (a_b * q) * log1p_excess(x)


@jit(inline="always")
def _em_inverse_powers(u):
    """sum of B_2k/(2k)! * (2k-1)! * u^-2k over k = 1..3, the Euler-Maclaurin terms of p(t)."""
    v = 1.0 / (u * u)
    return v * (1.0 / 12.0 - v * (1.0 / 120.0 - v / 252.0))


@jit
def davis_goadrich_segment(tp_a, fp_a, tp_b, fp_b, step):
    """Composite trapezoid over nodes tp_a, tp_a + step, ..., tp_b (last step partial).

    ``step`` is one unit of the caller's counts in the units of tp (a power of two, so that the
    result is exactly ``step`` times the one in the caller's units). Long runs of steps use the
    Euler-Maclaurin formula for the trapezoid rule, which is exact to rounding once the nodes
    are far from the pole of p(t) = q t / u(t), u = t + a / b; the first steps are summed one
    by one.
    """
    dtp = tp_b - tp_a
    dfp = fp_b - fp_a
    growth = dtp + dfp
    q = dtp / growth
    pole = q * (tp_a + fp_a)  # u(tp_a): u(t) = (t - tp_a) + pole, without cancellation
    a_b = fp_a * q - tp_a * (dfp / growth)
    p_prev = start_precision(tp_a, fp_a, tp_b, fp_b)
    t = tp_a
    steps = 0.0  # the trapezoids summed so far, in units of step
    while t + step <= tp_b and (t - tp_a) + pole < _EULER_MACLAURIN_FROM * step:
        t += step
        p = q * t / ((t - tp_a) + pole)
        steps += 0.5 * (p_prev + p)
        p_prev = p
    total = steps * step
    n_steps = math.floor((tp_b - t) / step)
    if n_steps >= 1.0:
        t_end = t + n_steps * step
        s = dfp / dtp  # finite here: dtp exceeds one caller's unit
        integral = interpolated_segment(t, fp_a + s * (t - tp_a), t_end, fp_a + s * (t_end - tp_a))
        correction = (a_b * q) * (_em_inverse_powers(((t - tp_a) + pole) / step)
                                  - _em_inverse_powers(((t_end - tp_a) + pole) / step))
        total += integral - correction
        t = t_end
        p_prev = q * t / ((t - tp_a) + pole)
    if t < tp_b:
        total += 0.5 * (p_prev + tp_b / (tp_b + fp_b)) * (tp_b - t)
    return total
