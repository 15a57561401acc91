"""Per-segment areas under the PR curve (SPEC section 4 and 5).

A segment joins consecutive operating points A = (tp_a, fp_a) and B = (tp_b, fp_b) in count
space, with tp_b > tp_a. Along it fp grows linearly in tp with local skew
s = (fp_b - fp_a) / (tp_b - tp_a), so precision is p(t) = t / (b t + a) with b = 1 + s and
a = fp_a - s tp_a. Areas returned here are integrals over t (true-positive counts); divide by P
for the area over recall.
"""
import math

from .._jit import jit

# Davis & Goadrich steps explicitly until u = t + a / b reaches this value, then switches to the
# Euler-Maclaurin form of the composite trapezoid, whose next omitted term is below
# |a / b^2| / (240 u^8): negligible for u >= 256.
_EULER_MACLAURIN_FROM = 256.0


@jit
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


@jit
def start_precision(tp_a, fp_a, tp_b, fp_b):
    """Precision where the segment leaves A: its limit from the right when A has tp = 0."""
    if tp_a > 0.0:
        return tp_a / (tp_a + fp_a)
    if fp_a > 0.0:
        return 0.0
    return (tp_b - tp_a) / ((tp_b - tp_a) + (fp_b - fp_a))


@jit
def interpolated_segment(tp_a, fp_a, tp_b, fp_b):
    """Exact integral of p(t) over [tp_a, tp_b].

    The closed form is dtp / b - (a / b^2) ln(D_b / D_a) with D = tp + fp = b t + a. When a < 0
    (precision falls along the segment) both of its terms are positive. When a >= 0 it is
    rewritten as dtp * p(A) + (a / b^2) * (x - log1p(x)), x = b dtp / D_a, again a sum of
    non-negative terms. Either way nothing cancels, so the result keeps full relative precision
    at any skew.
    """
    dtp = tp_b - tp_a
    d_a = tp_a + fp_a
    b = 1.0 + (fp_b - fp_a) / dtp
    if d_a == 0.0:
        return dtp / b
    a = (fp_a * tp_b - fp_b * tp_a) / dtp
    x = b * dtp / d_a
    if a < 0.0:
        return dtp / b - (a / (b * b)) * math.log1p(x)
    return dtp * (tp_a / d_a) + (a / (b * b)) * log1p_excess(x)


@jit
def _em_inverse_powers(u):
    """sum of B_2k/(2k)! * (2k-1)! * u^-2k over k = 1..3, the Euler-Maclaurin terms of p(t)."""
    v = 1.0 / (u * u)
    return v * (1.0 / 12.0 - v * (1.0 / 120.0 - v / 252.0))


@jit
def davis_goadrich_segment(tp_a, fp_a, tp_b, fp_b):
    """Composite trapezoid over nodes tp_a, tp_a + 1, ..., tp_b (last step partial).

    Long runs of unit steps use the Euler-Maclaurin formula for the trapezoid rule, which is exact
    to rounding once the nodes are far from the pole of p(t); the first steps are summed one by one.
    """
    dtp = tp_b - tp_a
    p_prev = start_precision(tp_a, fp_a, tp_b, fp_b)
    s = (fp_b - fp_a) / dtp
    b = 1.0 + s
    a = fp_a - s * tp_a
    t = tp_a
    total = 0.0
    while t + 1.0 <= tp_b and t + a / b < _EULER_MACLAURIN_FROM:
        t += 1.0
        p = t / (b * t + a)
        total += 0.5 * (p_prev + p)
        p_prev = p
    n_steps = math.floor(tp_b - t)
    if n_steps >= 1.0:
        t_end = t + n_steps
        integral = interpolated_segment(t, fp_a + s * (t - tp_a), t_end, fp_a + s * (t_end - tp_a))
        correction = (a / (b * b)) * (
            _em_inverse_powers(t + a / b) - _em_inverse_powers(t_end + a / b)
        )
        total += integral - correction
        t = t_end
        p_prev = t / (b * t + a)
    if t < tp_b:
        total += 0.5 * (p_prev + tp_b / (tp_b + fp_b)) * (tp_b - t)
    return total
