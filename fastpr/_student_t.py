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


def quantile(p, df):
    """The p-quantile (0.5 <= p < 1) of Student's t with ``df`` degrees of freedom."""
    target = 2 * p - 1
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
