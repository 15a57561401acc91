"""Slow oracles written straight from the definitions in docs/math/, unlike the kernels on purpose.

The kernels merge-walk two sorted arrays, use a log1p rewrite and Euler-Maclaurin for the areas
and a monotone-chain stack for the hull. Here instead:

* operating points are found by brute force (for each distinct score, sum the weights of every
  row scored at or above it), in exact ``Fraction`` arithmetic;
* AUC-ROC is counted pair by pair (Mann-Whitney, ties 1/2);
* the interpolated PR area uses the plain closed form ``dtp/b - a/b^2 ln(...)`` in ``mpmath`` with
  enough digits that its cancellation does not matter;
* Davis & Goadrich, average precision and the trapezoid estimators are exact ``Fraction`` sums;
* the ROC convex hull is found by gift wrapping (Jarvis march), also in ``Fraction``;
* bootstrap counts are redrawn from the documented random stream in Python integers;
* partial areas: ROC trapezoids clipped at the FPR limit in ``Fraction``, the interpolated PR
  curve and the worst ranking's curve integrated over a recall range by ``mpmath.quad``;
* the top k: the mean over every order of every tie group, enumerated; trec_eval's ``P_k`` and
  ``Rprec`` from their definitions, on untied queries.

Inputs are plain lists or NumPy arrays: labels (bool-like), scores (real, +-inf allowed) and
optional non-negative weights. Counts are ``Fraction``; every area is returned as an exact
``Fraction`` or a high-precision ``mpmath.mpf``; convert with ``float()`` to compare.
"""
import itertools
import math
from fractions import Fraction

import mpmath

DPS = 60


def _rows(y, s, w=None):
    """(is_positive, score as float, weight as Fraction) for every row."""
    y = [bool(v) for v in y]
    s = [float(v) for v in s]
    w = [Fraction(1)] * len(y) if w is None else [Fraction(float(v)) for v in w]
    assert len(y) == len(s) == len(w)
    return list(zip(y, s, w))


def totals(y, s, w=None):
    """(P, N): total positive and negative weight."""
    rows = _rows(y, s, w)
    return (sum((wt for pos, _, wt in rows if pos), Fraction(0)),
            sum((wt for pos, _, wt in rows if not pos), Fraction(0)))


def distinct_scores(s):
    """Distinct score values, descending; values that compare equal (-0.0, 0.0) are one."""
    found = []
    for v in (float(x) for x in s):
        if not any(v == f for f in found):
            found.append(v)
    return sorted(found, reverse=True)


def operating_points(y, s, w=None):
    """[(threshold, TP, FP)], origin (inf, 0, 0) first, one point per distinct score
    (docs/math/points.rst).

    TP and FP at threshold t are the weights of positives / negatives with score >= t, summed
    afresh for every threshold. A threshold whose rows all weigh 0 makes no point.
    """
    rows = _rows(y, s, w)
    points = [(math.inf, Fraction(0), Fraction(0))]
    for t in distinct_scores(s):
        new_weight = sum((wt for _, v, wt in rows if v == t), Fraction(0))
        if new_weight == 0:
            continue
        tp = sum((wt for pos, v, wt in rows if pos and v >= t), Fraction(0))
        fp = sum((wt for pos, v, wt in rows if not pos and v >= t), Fraction(0))
        points.append((t, tp, fp))
    return points


def counts(points):
    """[(TP, FP)] of a list of (threshold, TP, FP) points."""
    return [(tp, fp) for _, tp, fp in points]


# ---------------------------------------------------------------------------------------------
# ROC


def auc_roc_pairwise(y, s, w=None):
    """Mann-Whitney U / (P N): every (positive, negative) pair, ties 1/2, weights multiply."""
    rows = _rows(y, s, w)
    pos = [(v, wt) for p, v, wt in rows if p]
    neg = [(v, wt) for p, v, wt in rows if not p]
    u = Fraction(0)
    for vp, wp in pos:
        for vn, wn in neg:
            if vp > vn:
                u += wp * wn
            elif vp == vn:
                u += wp * wn / 2
    n_pos = sum((wt for _, wt in pos), Fraction(0))
    n_neg = sum((wt for _, wt in neg), Fraction(0))
    return u / (n_pos * n_neg)


def trapezoid_roc_area(vertices):
    """Area under a polyline of (FP, TP) count points, normalised by its last point (N, P)."""
    n_neg, n_pos = vertices[-1]
    area = Fraction(0)
    for (fa, ta), (fb, tb) in zip(vertices, vertices[1:]):
        area += (fb - fa) * (ta + tb) / 2
    return area / (n_pos * n_neg)


def _cross(o, a, b):
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def roc_hull_bruteforce(points):
    """ROC convex hull by gift wrapping: vertex list [(FP, TP)] from the origin to (N, P).

    ``points`` are (threshold, TP, FP) or (TP, FP) tuples. From the current vertex the next one
    is the point that no other point lies to the left of (clockwise walk from the lowest-left
    point); among collinear candidates the farthest wins, so collinear points are dropped.
    """
    pts = sorted({(p[-1], p[-2]) for p in points})  # unique (FP, TP)
    origin, end = pts[0], pts[-1]
    assert origin == (0, 0) and all(f <= end[0] and t <= end[1] for f, t in pts)
    hull = [origin]
    current = origin
    while current != end:
        candidate = None
        for q in pts:
            if q == current:
                continue
            if candidate is None:
                candidate = q
                continue
            turn = _cross(current, candidate, q)
            dq = (q[0] - current[0], q[1] - current[1])
            dc = (candidate[0] - current[0], candidate[1] - current[1])
            ahead = dq[0] * dc[0] + dq[1] * dc[1] > 0
            farther = dq[0] ** 2 + dq[1] ** 2 > dc[0] ** 2 + dc[1] ** 2
            if turn > 0 or (turn == 0 and ahead and farther):
                candidate = q
        hull.append(candidate)
        current = candidate
        assert len(hull) <= len(pts)
    return hull


def roc_hull_points(points):
    """The operating points (threshold, TP, FP) that are ROC-hull vertices, in curve order."""
    vertices = roc_hull_bruteforce(points)
    by_count = {(fp, tp): (t, tp, fp) for t, tp, fp in points}
    return [by_count[v] for v in vertices]


def auc_roc_hull(points):
    return trapezoid_roc_area(roc_hull_bruteforce(points))


# ---------------------------------------------------------------------------------------------
# PR areas; ``cnt`` is a list of (TP, FP) count points, origin first, last = (P, N).


def _log10(x):
    """log10 of a positive Fraction, however far beyond the range of floats."""
    x = Fraction(x)
    return math.log10(x.numerator) - math.log10(x.denominator)


def _mpf(x):
    x = Fraction(x)
    return mpmath.mpf(x.numerator) / x.denominator


def interpolated_segment(tp_a, fp_a, tp_b, fp_b):
    """Integral over tp in [TP_A, TP_B] of tp / (tp + FP_A + s (tp - TP_A)), plain closed form.

    Evaluated with the working precision raised by the digits the closed form can cancel
    (about log10 of D_A / dTP), so the result is good to far more than double precision.
    """
    dtp = tp_b - tp_a
    s = (fp_b - fp_a) / dtp
    a = fp_a - s * tp_a
    b = 1 + s
    if a == 0:
        with mpmath.workdps(DPS):
            return _mpf(dtp / b)
    d_a, d_b = a + b * tp_a, a + b * tp_b  # = TP + FP at A and B
    extra = 2 * max(0, math.ceil(_log10(d_a / dtp + 1)))
    with mpmath.workdps(DPS + extra):
        value = _mpf(dtp / b) - _mpf(a / (b * b)) * mpmath.log(_mpf(d_b) / _mpf(d_a))
    with mpmath.workdps(DPS):
        return +value


def interpolated_segment_quad(tp_a, fp_a, tp_b, fp_b):
    """The same integral by mpmath.quad (a check of the closed form, not used by the oracles)."""
    s = (fp_b - fp_a) / (tp_b - tp_a)
    with mpmath.workdps(DPS):
        s_m, fa, ta, tb = _mpf(s), _mpf(fp_a), _mpf(tp_a), _mpf(tp_b)
        return mpmath.quad(lambda t: t / (t + fa + s_m * (t - ta)), [ta, tb])


def interpolated_area(cnt):
    """``interpolated`` (docs/math/estimators.rst): the segment integrals over recall, as mpf."""
    n_pos = cnt[-1][0]
    with mpmath.workdps(DPS):
        total = mpmath.mpf(0)
        for (ta, fa), (tb, fb) in zip(cnt, cnt[1:]):
            if tb > ta:
                total += interpolated_segment(ta, fa, tb, fb)
        return total / _mpf(n_pos)


def _start_precision(tp_a, fp_a, s):
    """Precision where a segment leaves A (the limits at tp = 0 of docs/math/interpolation.rst)."""
    if tp_a > 0:
        return tp_a / (tp_a + fp_a)
    if fp_a > 0:
        return Fraction(0)
    return 1 / (1 + s)


def davis_goadrich_area(cnt):
    """``davis_goadrich`` (docs/math/estimators.rst): trapezoids over nodes TP_A, TP_A + 1, ...,
    TP_B (exact)."""
    n_pos = cnt[-1][0]
    total = Fraction(0)
    for (ta, fa), (tb, fb) in zip(cnt, cnt[1:]):
        if tb <= ta:
            continue
        s = (fb - fa) / (tb - ta)
        nodes = [ta]
        k = 1
        while ta + k <= tb:
            nodes.append(ta + k)
            k += 1
        if nodes[-1] < tb:
            nodes.append(tb)
        values = [_start_precision(ta, fa, s)]
        values += [t / (t + fa + s * (t - ta)) for t in nodes[1:]]
        for i in range(1, len(nodes)):
            total += (nodes[i] - nodes[i - 1]) * (values[i - 1] + values[i]) / 2
    return total / n_pos


def average_precision(cnt):
    """``average_precision`` (docs/math/estimators.rst): sum over points with dTP > 0 of
    (dTP / P) precision(B)."""
    n_pos = cnt[-1][0]
    return sum(((tb - ta) / n_pos * tb / (tb + fb)
                for (ta, _), (tb, fb) in zip(cnt, cnt[1:]) if tb > ta), Fraction(0))


def pr_points(cnt):
    """(recall, precision) of every operating point after the origin, preceded by (0, 1)."""
    n_pos = cnt[-1][0]
    return [(Fraction(0), Fraction(1))] + [(tp / n_pos, tp / (tp + fp)) for tp, fp in cnt[1:]]


def _grouped_by_recall(cnt):
    groups = {}
    for r, p in pr_points(cnt):
        low, high = groups.get(r, (p, p))
        groups[r] = (min(low, p), max(high, p))
    return [groups[r] + (r,) for r in sorted(groups)]


def lower_trapezoid(cnt):
    """Boyd et al. 2013: min precision at the left recall, max at the right one."""
    g = _grouped_by_recall(cnt)
    return sum(((rb - ra) * (low_a + high_b) / 2
                for (low_a, _, ra), (_, high_b, rb) in zip(g, g[1:])), Fraction(0))


def upper_trapezoid(cnt):
    """Boyd et al. 2013: max precision at both ends."""
    g = _grouped_by_recall(cnt)
    return sum(((rb - ra) * (high_a + high_b) / 2
                for (_, high_a, ra), (_, high_b, rb) in zip(g, g[1:])), Fraction(0))


def linear(cnt):
    """Straight lines between (0, 1) and every PR point, trapezoid rule."""
    pts = pr_points(cnt)
    return sum(((rb - ra) * (pa + pb) / 2 for (ra, pa), (rb, pb) in zip(pts, pts[1:])),
               Fraction(0))


def hull_area(points):
    """``hull`` (docs/math/estimators.rst): the interpolated area over the ROC-hull vertices."""
    return interpolated_area([(tp, fp) for fp, tp in roc_hull_bruteforce(points)])


def auc_pr_min(n_pos, n_neg):
    """The worst ranking's interpolated area, 1 + (1 - pi) ln(1 - pi) / pi, at high precision
    (1 when there are no negatives).

    1 - pi is taken exactly from the counts, and the working precision is raised by the digits
    that the formula cancels at extreme prevalence (about log10 of the class ratio)."""
    if n_neg == 0:
        return mpmath.mpf(1)
    share_neg = Fraction(n_neg) / (Fraction(n_pos) + Fraction(n_neg))  # 1 - pi
    extra = 2 * math.ceil(abs(_log10(Fraction(n_pos) / Fraction(n_neg))) + 1)
    with mpmath.workdps(DPS + extra):
        value = 1 + _mpf(share_neg) * mpmath.log(_mpf(share_neg)) / _mpf(1 - share_neg)
    with mpmath.workdps(DPS):
        return +value


# ---------------------------------------------------------------------------------------------
# PR curve points as fastpr reports them


def pr_curve_precision(cnt):
    """Precision of every operating point, the origin included, with the limits at tp = 0 of
    docs/math/points.rst: the origin takes the first step's dTP / (dTP + dFP), other tp = 0
    points take 0."""
    (t0, f0), (t1, f1) = cnt[0], cnt[1]
    first = (t1 - t0) / ((t1 - t0) + (f1 - f0))
    return [first if tp + fp == 0 else tp / (tp + fp) for tp, fp in cnt]


def evaluation(y, s, w=None):
    """Every field of fastpr.Evaluation, from the oracles (exact or high precision)."""
    points = operating_points(y, s, w)
    cnt = counts(points)
    n_pos, n_neg = cnt[-1]
    interp = interpolated_area(cnt)
    minimum = auc_pr_min(n_pos, n_neg)
    return dict(
        n_pos=n_pos,
        n_neg=n_neg,
        prevalence=n_pos / (n_pos + n_neg),
        n_thresholds=len(points) - 1,
        auc_roc=auc_roc_pairwise(y, s, w),
        auc_roc_hull=auc_roc_hull(points),
        auc_pr=interp,
        auc_pr_dg=davis_goadrich_area(cnt),
        average_precision=average_precision(cnt),
        auc_pr_lower=lower_trapezoid(cnt),
        auc_pr_upper=upper_trapezoid(cnt),
        auc_pr_linear=linear(cnt),
        auc_pr_hull=hull_area(points),
        auc_pr_min=minimum,
        auc_npr=(interp - minimum) / (1 - minimum),
    )


# ---------------------------------------------------------------------------------------------
# PR-space analytics (docs/math/hull.rst and docs/math/unachievable.rst)

def worst_ranking(n_pos, n_neg):
    """(y, s): every negative (distinct scores) above every positive (distinct scores)."""
    y = [False] * n_neg + [True] * n_pos
    s = list(range(n_neg + n_pos, 0, -1))
    return y, s


def points_at_thresholds(y, s, thresholds, w=None):
    """[(TP, FP)] at the origin, at each threshold (highest first) and at (P, N), consecutive
    repeats removed: the curve of a classifier restricted to those thresholds."""
    rows = _rows(y, s, w)
    cnt = [(Fraction(0), Fraction(0))]
    for t in sorted(set(float(v) for v in thresholds), reverse=True) + [-math.inf]:
        tp = sum((wt for pos, v, wt in rows if pos and v >= t), Fraction(0))
        fp = sum((wt for pos, v, wt in rows if not pos and v >= t), Fraction(0))
        if (tp, fp) != cnt[-1]:
            cnt.append((tp, fp))
    return cnt


_TINY = Fraction(1, 10**30)


def _heights(cnt, x, space):
    """Highest point of the curve above x: ROC (fpr, tpr) with straight segments, or PR
    (recall, precision) with fp linear in tp along each segment. None where the curve has no
    point at x (PR at recall 0, where precision is only a limit)."""
    n_pos, n_neg = cnt[-1]
    best = None
    for (ta, fa), (tb, fb) in zip(cnt, cnt[1:]):
        if space == "roc":
            xa, xb, ya, yb = fa / n_neg, fb / n_neg, ta / n_pos, tb / n_pos
            if not xa <= x <= xb:
                continue
            y = max(ya, yb) if xa == xb else ya + (yb - ya) * (x - xa) / (xb - xa)
        else:
            xa, xb = ta / n_pos, tb / n_pos
            if not xa <= x <= xb or x == 0:
                continue
            if ta == tb:
                y = max(ta / (ta + fa), tb / (tb + fb))
            else:
                t = x * n_pos
                f = fa + (fb - fa) * (t - ta) / (tb - ta)
                y = t / (t + f)
        best = y if best is None else max(best, y)
    return best


def dominates(cnt_a, cnt_b, space):
    """Curve a nowhere below curve b: compared at every x where either has a point, and just
    inside each gap between them (exact offsets of 1e-30), in exact fractions."""
    def xs(cnt):
        n_pos, n_neg = cnt[-1]
        return {fp / n_neg if space == "roc" else tp / n_pos for tp, fp in cnt}
    grid = sorted(xs(cnt_a) | xs(cnt_b))
    probes = list(grid)
    for left, right in zip(grid, grid[1:]):
        probes += [left + _TINY, right - _TINY]
    for x in probes:
        height_a, height_b = _heights(cnt_a, x, space), _heights(cnt_b, x, space)
        if height_b is not None and height_a < height_b:
            return False
    return True


# ---------------------------------------------------------------------------------------------
# Bootstrap counts: the random streams of fastpr._engine.kernels.uniforms and the parts of a
# replicate's layout (fastpr._engine.kernels.draws) that are a fixed function of them, redone in
# Python integers (every sum and product masked to 64 bits by hand). Block and bin totals come
# from binomial chains, which the tests check by their distribution instead.

_MASK_64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def splitmix64_finaliser(z):
    """SplitMix64's output function: xor-shifts by 30, 27, 31 and two odd multipliers."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK_64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK_64
    return z ^ (z >> 31)


def stream_key(seed, replicate, stream):
    """Key of replicate ``replicate``'s stream ``stream``."""
    keyed = splitmix64_finaliser(seed ^ splitmix64_finaliser((replicate + _GOLDEN) & _MASK_64))
    return splitmix64_finaliser((keyed + stream * _GOLDEN) & _MASK_64)


def substream_key(key, index):
    """Key of sub-stream ``index`` (a block or a bin) of the stream keyed ``key``."""
    return splitmix64_finaliser((splitmix64_finaliser(key ^ index) + _GOLDEN) & _MASK_64)


def stream_uniform(key, counter):
    """The counter-th number of a stream: the hash's top 53 bits over 2**53, in [0, 1)."""
    return (splitmix64_finaliser((key + counter * _GOLDEN) & _MASK_64) >> 11) * 2.0 ** -53


def _poisson_cdf():
    """P(K <= k) for Poisson(1), k = 0, 1, ..., at 40 digits, until it passes 1 - 2**-60."""
    with mpmath.workdps(40):
        cdf, term, k = [], mpmath.exp(-1), 0
        while not cdf or cdf[-1] < 1 - mpmath.mpf(2) ** -60:
            cdf.append((cdf[-1] if cdf else 0) + term)
            k += 1
            term /= k
        return cdf


_POISSON_CDF = _poisson_cdf()


def poisson_by_inversion(u):
    """The smallest k with u <= P(K <= k), K ~ Poisson(1)."""
    return next(k for k, cumulative in enumerate(_POISSON_CDF) if u <= cumulative)


def poisson_counts(key, n):
    """Poisson resampling's counts of a class's n examples: example i inverts number i."""
    return [poisson_by_inversion(stream_uniform(key, i)) for i in range(n)]


def landed_counts(key, index, size, total):
    """Counts of ``size`` examples on which ``total`` draws land uniformly: draw d picks
    example int(u_d * size), u_d number d of sub-stream ``index``."""
    sub = substream_key(key, index)
    counts = [0] * size
    for d in range(total):
        counts[int(stream_uniform(sub, d) * size)] += 1
    return counts


def sorted_positions(scores):
    """Indices of a class's examples in the order its counts apply to: ascending score, ties in
    their original order."""
    return sorted(range(len(scores)), key=lambda i: float(scores[i]))


def best_f1(y, s, w=None):
    """max over operating points of F1 = 2 TP / (TP + FP + P) (0 at the origin), exact."""
    points = operating_points(y, s, w)
    n_pos = totals(y, s, w)[0]
    return max(2 * tp / (tp + fp + n_pos) for _, tp, fp in points)


# ---------------------------------------------------------------------------------------------
# Partial areas (docs/math/partial.rst)


def partial_auc_roc(y, s, max_fpr, w=None):
    """Raw area under the ROC polyline over FPR in [0, max_fpr], exact: the operating points in
    ``Fraction``, each trapezoid clipped at FP = max_fpr N by exact linear interpolation."""
    cnt = counts(operating_points(y, s, w))
    n_pos, n_neg = cnt[-1]
    limit = Fraction(max_fpr) * n_neg
    area = Fraction(0)
    for (ta, fa), (tb, fb) in zip(cnt, cnt[1:]):
        if fa >= limit:
            break
        if fb > limit:
            tb = ta + (tb - ta) * (limit - fa) / (fb - fa)
            fb = limit
        area += (fb - fa) * (ta + tb) / 2
    return area / (n_pos * n_neg)


def mcclish(area, max_fpr):
    """McClish (1989): the raw partial area mapped so that the diagonal gives 1/2 and a perfect
    ranking 1, as scikit-learn's roc_auc_score(max_fpr=f) reports it (exact for Fractions)."""
    f = Fraction(max_fpr)
    least, most = f * f / 2, f
    return (1 + (Fraction(area) - least) / (most - least)) / 2


def partial_interpolated_area(cnt, recall_low, recall_high):
    """The interpolated PR curve's area over recall in [recall_low, recall_high] by mpmath
    quadrature of precision, segment by segment: between neighbouring points, at tp = t,
    precision is t / (t + FP_A + s (t - TP_A)), s the segment's dFP / dTP."""
    n_pos = cnt[-1][0]
    low, high = Fraction(recall_low) * n_pos, Fraction(recall_high) * n_pos
    with mpmath.workdps(DPS):
        total = mpmath.mpf(0)
        for (ta, fa), (tb, fb) in zip(cnt, cnt[1:]):
            a, b = max(ta, low), min(tb, high)
            if b > a:
                s_m, fa_m, ta_m = _mpf((fb - fa) / (tb - ta)), _mpf(fa), _mpf(ta)
                total += mpmath.quad(lambda t: t / (t + fa_m + s_m * (t - ta_m)),
                                     [_mpf(a), _mpf(b)])
        return total / _mpf(n_pos)


def partial_auc_pr_min(n_pos, n_neg, recall_low, recall_high):
    """The worst ranking's (every negative first) interpolated area over recall in
    [recall_low, recall_high]: the integral of r P / (r P + N), by mpmath quadrature."""
    p, n = _mpf(n_pos), _mpf(n_neg)
    with mpmath.workdps(DPS):
        return mpmath.quad(lambda r: r * p / (r * p + n), [_mpf(recall_low), _mpf(recall_high)])


# ---------------------------------------------------------------------------------------------
# Top k (docs/math/top_k.rst)


def _orders(rows):
    """Every order of the rows by descending score, each tie group in every order of its rows."""
    groups = [[row for row in rows if row[1] == t] for t in distinct_scores([r[1] for r in rows])]
    for parts in itertools.product(*(itertools.permutations(g) for g in groups)):
        yield [row for part in parts for row in part]


def top_k_by_orders(y, s, k, w=None):
    """(E[TP], E[FP], E[TP / k]) over every order of the tie groups, each order as likely, of
    the first k rows (all of them when k exceeds the rows), in ``Fraction``; E[TP / k] is the
    mean precision without weights (rows beyond the ranking count as non-relevant)."""
    rows = _rows(y, s, w)
    tp_sum = fp_sum = precision_sum = Fraction(0)
    n_orders = 0
    for order in _orders(rows):
        taken = order[:k]
        tp = sum((wt for pos, _, wt in taken if pos), Fraction(0))
        fp = sum((wt for pos, _, wt in taken if not pos), Fraction(0))
        tp_sum, fp_sum, precision_sum = tp_sum + tp, fp_sum + fp, precision_sum + tp / k
        n_orders += 1
    return tp_sum / n_orders, fp_sum / n_orders, precision_sum / n_orders


def trec_eval_p_at_k(relevant, scores, k):
    """trec_eval's P_k for one query of an untied run: relevant documents among the k highest
    scored, over k; documents beyond the run count as non-relevant (the denominator stays k)."""
    ranked = [r for _, r in sorted(zip(scores, relevant), key=lambda pair: -pair[0])]
    return Fraction(sum(bool(r) for r in ranked[:k]), k)


def trec_eval_rprec(relevant, scores):
    """trec_eval's Rprec for one query of an untied run: precision after R documents, R the
    number of relevant documents (here: those in the run); None where R is 0."""
    n_relevant = sum(bool(r) for r in relevant)
    return trec_eval_p_at_k(relevant, scores, n_relevant) if n_relevant else None


# Operating points under a constraint (docs/math/operating.rst). A rate is the double nearest
# its exact value, as the curves give it; kinds by name.
OPERATING_KINDS = ("recall_at_precision", "precision_at_recall", "tpr_at_fpr", "tnr_at_tpr")


def _operating_rates(tp, fp, n_pos, n_neg):
    """{rate: double or None where undefined} of exact counts."""
    def ratio(a, b):
        return float(Fraction(a) / Fraction(b)) if b else None
    return {"precision": ratio(tp, tp + fp), "recall": ratio(tp, n_pos),
            "fpr": ratio(fp, n_neg), "tnr": ratio(n_neg - fp, n_neg)}


def _judged(kind, rates, level):
    """(meets the constraint, value, the other rate as a tie-break: higher is better)."""
    precision, recall, fpr, tnr = (rates[k] for k in ("precision", "recall", "fpr", "tnr"))
    if kind == "recall_at_precision":
        return precision is not None and precision >= level, recall, precision
    if kind == "precision_at_recall":
        return precision is not None and recall >= level, precision, recall
    if kind == "tpr_at_fpr":
        return fpr <= level, recall, None if fpr is None else -fpr
    return recall >= level, tnr, recall


def best_single_threshold(points, n_pos, n_neg, kind, level):
    """(value, threshold) over every threshold (every point of ``points``, (threshold, TP, FP)
    with exact counts): the best value whose constraint is met; among equal values the best
    other rate of the pair, then the highest threshold. (NaN, NaN) where none meets it, or the
    value is undefined (no positives; no negatives for the ROC kinds)."""
    if n_pos == 0 or (kind in ("tpr_at_fpr", "tnr_at_tpr") and n_neg == 0):
        return math.nan, math.nan
    best = None
    for threshold, tp, fp in points:
        meets, value, other = _judged(kind, _operating_rates(tp, fp, n_pos, n_neg), level)
        if meets and (best is None or (value, other, threshold) > best):
            best = (value, other, threshold)
    return (math.nan, math.nan) if best is None else (best[0], best[2])


def best_mixture(points, n_pos, n_neg, kind, level):
    """The best value over every chord between two operating points (a randomised choice
    between their thresholds), exact: along a chord the counts are linear in the mixing
    probability, so each constraint holds on an interval of it and the value (linear, or for
    precision a ratio of linear functions) is best at an end of that interval. NaN where no
    mixture meets the constraint or the value is undefined.

    A chord's end at a point is that point's single threshold, whose constraint the functions
    check on the rates as doubles (``tp / (tp + fp)`` rounded, against the level as given): where
    that admits a point that exact arithmetic puts a hair below the level (precision 2/10
    against the double 0.2, which is above 1/5), the point's value counts too."""
    if n_pos == 0 or (kind in ("tpr_at_fpr", "tnr_at_tpr") and n_neg == 0):
        return math.nan
    single, _ = best_single_threshold(points, n_pos, n_neg, kind, level)
    level = Fraction(level)
    n_pos, n_neg = Fraction(n_pos), Fraction(n_neg)

    def slack(tp, fp):  # >= 0 where the constraint holds; linear in the counts
        if kind == "recall_at_precision":
            return (1 - level) * tp - level * fp
        if kind == "tpr_at_fpr":
            return level * n_neg - fp
        return tp - level * n_pos

    def value(tp, fp):
        if kind == "precision_at_recall":
            return tp / (tp + fp) if tp + fp else None
        if kind == "tnr_at_tpr":
            return (n_neg - fp) / n_neg
        return tp / n_pos

    best = None
    counts_ = [(Fraction(tp), Fraction(fp)) for _, tp, fp in points]
    for tp_a, fp_a in counts_:
        for tp_b, fp_b in counts_:
            s_a, s_b = slack(tp_a, fp_a), slack(tp_b, fp_b)
            if s_a < 0 and s_b < 0:
                continue
            # The interval of lambda in [0, 1] where slack((1 - l) A + l B) >= 0.
            low, high = Fraction(0), Fraction(1)
            if s_a < 0:
                low = s_a / (s_a - s_b)
            elif s_b < 0:
                high = s_a / (s_a - s_b)
            for lam in (low, high):
                tp, fp = tp_a + lam * (tp_b - tp_a), fp_a + lam * (fp_b - fp_a)
                if kind == "recall_at_precision" and tp + fp == 0:
                    continue  # precision undefined at the origin
                v = value(tp, fp)
                if v is None:  # the origin: along a chord from it precision is B's
                    v = value(tp_b, fp_b) if lam == 0 and tp_b + fp_b else None
                if v is not None and (best is None or v > best):
                    best = v
    if best is None:
        return single
    return float(best) if math.isnan(single) else max(float(best), single)
