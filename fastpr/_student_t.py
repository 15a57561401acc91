"""Student's t quantiles for whole degrees of freedom, from the exact finite series of its
distribution function (Abramowitz & Stegun 26.7.3-4), inverted by bisection. NumPy has no t
distribution, and one quantile per interval does not justify SciPy as a dependency."""
import math


def _central_probability(t, df):
    """P(|T| <= t) for T ~ Student t with ``df`` (a whole number >= 1) degrees of freedom."""
    theta = math.atan(t / math.sqrt(df))
    sin, cos = math.sin(theta), math.cos(theta)
    cos2 = cos * cos
    if df % 2 == 1:
        total, term = 0.0, cos
        for k in range(1, (df - 1) // 2 + 1):
            total += term
            term *= cos2 * (2 * k) / (2 * k + 1)
        return (2 / math.pi) * (theta + sin * total) if df > 1 else 2 * theta / math.pi
    total, term = 0.0, 1.0
    for k in range(1, df // 2 + 1):
        total += term
        term *= cos2 * (2 * k - 1) / (2 * k)
    return sin * total


def two_sided_quantile(confidence, df):
    """t with P(|T| <= t) = ``confidence`` (0 <= confidence < 1) for Student's t with ``df``
    degrees of freedom: the (1 + confidence) / 2 quantile, without rounding that level (which
    is 1.0 for confidences within 2**-53 of 1). The series gives P(|T| <= t), whose distance
    from 1 loses relative precision as it shrinks: t is within about 1e-12 (relative) of
    SciPy's up to confidence 1 - 1e-4, and within 4e-8 at 1 - 1e-9 (5 to 500 degrees of
    freedom). Each bisection step sums about df / 2 terms."""
    target = confidence
    low, high = 0.0, 1.0
    while _central_probability(high, df) < target:
        high *= 2
    for _ in range(200):
        middle = 0.5 * (low + high)
        if _central_probability(middle, df) < target:
            low = middle
        else:
            high = middle
        if high - low <= 1e-15 * high:
            break
    return 0.5 * (low + high)
