"""One pass over the sorted scores: operating points, AUC-ROC, every PR area and the hull.

Preconditions (checked by the API, not here): ``pos`` and ``neg`` hold the scores of each class
sorted ascending with no NaN; ``pos_w`` / ``neg_w`` are the matching finite non-negative weights,
or empty arrays for unit weights. ``points`` is a (3, m) float64 output whose rows receive the
thresholds, tp and fp: m = 0 stores nothing, otherwise m must exceed the number of distinct
scores.

Weights are counted in units of ``SCALE``, a power of two near the geometric mean of the two
classes' largest weights (1 for unit weights): tp, fp and their products then stay far from
overflow and underflow whatever the weights' magnitude, and multiplying by a power of two is
exact, so every area is what it would be in the caller's units (the Davis-Goadrich estimator
steps by one caller's unit, which is ``SCALE``). Class totals, points and hull come out in the
caller's units.

A weight too small to move the running total in floating point (tp + dtp == tp) still makes its
threshold a point, a new recall for the trapezoid estimators (whose recall groups it separates)
and a term of AUC-ROC (a negative that light can still outrank every positive that counts);
only the segment it spans has zero width in doubles, and adds no area, as its exact area is
below rounding.
"""
import math

import numpy as np

from ..jit import helper, jit
from . import layout
from .area import davis_goadrich_segment, interpolated_segment
from .hull import HULL_COLUMNS, grown, hull_areas, push, upper_hull
from .walk import DOWN, tie_step
from .walk import ties_helper as ties

# Indices into the state vector that sweep() returns: the results first, each in the column of
# the row (``layout``) that it becomes, then the running values and the cursor.
N_POS, N_NEG, N_POINTS = layout.POS_WEIGHT, layout.NEG_WEIGHT, layout.N_THRESHOLDS
ROC2, HULL_ROC2, INTERPOLATED = layout.AUC_ROC, layout.AUC_ROC_HULL, layout.AUC_PR
DAVIS_GOADRICH, AVERAGE_PRECISION = layout.AUC_PR_DG, layout.AVERAGE_PRECISION
LOWER2, UPPER2, HULL_INTERPOLATED = layout.AUC_PR_LOWER, layout.AUC_PR_UPPER, layout.AUC_PR_HULL
# The running totals in units of SCALE (at the end the class totals, which N_POS and N_NEG hold
# in the caller's units): the sums above are normalised by these.
(TP, FP, SCALE, _I, _J, _N_HULL, _GROUP_MAX_PRECISION, _ROSE, _CORNER_THRESHOLD, _LAST_THRESHOLD,
 _RUN_TP, _DONE, N_STATE) = range(layout.N_COLUMNS, layout.N_COLUMNS + 13)
# Limits on SCALE, as powers of two. The largest weight goes to at most 2**_HEAVIEST (sums of up
# to 2**62 of them stay finite) and the product of the classes' largest weights to at most
# 2**_PRODUCT (P N, tp fp and the hull's cross products, with the counts' factor n**2 for up to
# 2**60 rows); within those, the smallest weight goes to at least 2**_LIGHTEST, a normal double.
# SCALE itself stays a normal number, as does its reciprocal.
_HEAVIEST, _PRODUCT, _LIGHTEST, _MAX_SHIFT = 960, 900, -1022, 1022
_SMALLEST = 5e-324


@helper
def weight_scale(max_pos, max_neg, smallest):
    """SCALE for classes whose largest weights are ``max_pos`` and ``max_neg`` (0: no weight)
    and whose smallest nonzero weight is ``smallest``; 1 for unit weights.

    The power of two at the geometric mean of the two largest weights, so that the class totals
    lie within the square root of their ratio of 1, raised where the smallest weight would
    otherwise not be a normal double, as far as overflow allows (a weight of a threshold can
    carry a whole estimator, such as the precision at tp = 0 carries the lower trapezoid).
    The areas' own limit on the ratio of the classes is ``summary.MAX_CLASS_RATIO``.
    """
    if max_pos == 0.0:
        max_pos = max_neg
    if max_neg == 0.0:
        max_neg = max_pos
    if max_pos == 0.0:
        return 1.0
    e_pos = math.frexp(max_pos)[1] - 1  # floor(log2)
    e_neg = math.frexp(max_neg)[1] - 1
    # (np.maximum and np.minimum, where numba compiles a function for each use of max and min
    # at the first call; no NaN here, so the two agree. Likewise np.int64 for int below.)
    shift = np.maximum(-((e_pos + e_neg) // 2), _LIGHTEST - (math.frexp(smallest)[1] - 1))
    shift = np.minimum(np.minimum(shift, _HEAVIEST - np.maximum(e_pos, e_neg)),
                       (_PRODUCT - e_pos - e_neg) // 2)
    return math.ldexp(1.0, np.minimum(np.maximum(shift, -_MAX_SHIFT), _MAX_SHIFT))


@jit(inline="always")
def _weight_range(weights, scores):
    """(largest weight, smallest nonzero weight) of a class: (1, 1) for unit weights, (0, inf)
    without any weight."""
    if weights.size == 0:
        return (1.0, 1.0) if scores.size else (0.0, np.inf)
    largest = 0.0
    smallest = np.inf
    for w in weights:
        # max and min written out (see weight_scale), as selects, not branches: bootstrap
        # counts are 0 at random about a third of the time.
        largest = w if w > largest else largest
        nonzero = w if w > 0.0 else np.inf
        smallest = nonzero if nonzero < smallest else smallest
    return largest, smallest


@jit(inline="always")
def scale_of(pos, pos_w, neg, neg_w):
    """SCALE of a ranking (given as the sweep takes it): 1 for unit weights."""
    if pos_w.size == 0 and neg_w.size == 0:
        return 1.0
    max_pos, min_pos = _weight_range(pos_w, pos)
    max_neg, min_neg = _weight_range(neg_w, neg)
    return weight_scale(max_pos, max_neg, np.minimum(min_pos, min_neg))


@jit(inline="always")
def in_units(taken, scale):
    """A threshold's weight ``taken`` (``walk.ties``) in units of ``scale``.

    Ties are summed in the caller's units (their sum is finite, as the class total is) and scaled
    once per threshold. A weight too small for a double in those units counts as the smallest
    one: the estimators that look only at whether a threshold has weight (which points exist,
    whether precision at tp = 0 is 0) must still see it.
    """
    scaled = taken * scale
    return scaled if scaled > 0.0 or taken == 0.0 else _SMALLEST


@helper
def _precision(tp, fp):
    """Precision of an operating point, with (0, 1) standing in for the origin."""
    return 1.0 if tp + fp == 0.0 else tp / (tp + fp)


@helper
def _rise_areas(tp, fp, tp_b, fp_b, precision_a, group_max_precision, step):
    """Davis-Goadrich, average-precision, lower and upper (doubled) areas of a rise A -> B.

    Also returns B's precision. ``precision_a`` is ``_precision(tp, fp)``, passed in because a
    run of rises already has it; ``step`` is one caller's unit (Davis-Goadrich's step).
    """
    dtp = tp_b - tp
    precision_b = tp_b / (tp_b + fp_b)
    if dtp <= step:
        # One (possibly partial) trapezoid; leaving the origin, precision is constant.
        start = precision_b if tp + fp == 0.0 else precision_a
        davis_goadrich = 0.5 * dtp * (start + precision_b)
    else:
        davis_goadrich = davis_goadrich_segment(tp, fp, tp_b, fp_b, step)
    return (
        davis_goadrich,
        dtp * precision_b,
        dtp * (precision_a + precision_b),
        dtp * (group_max_precision + precision_b),
        precision_b,
    )


@helper
def _end_rise(hull, n_hull, fp, tp, corner_threshold, run_tp):
    """A run to the right starts after a rise; returns (n_hull, area to add).

    Only such a point can be a hull vertex (the others sit inside a vertical or horizontal run),
    so it goes onto the stack. The vertical run that ends here is one straight ROC segment, so one
    interpolated integral covers all its points.
    """
    n_hull = push(hull, n_hull, fp, tp, corner_threshold)
    area = interpolated_segment(run_tp, fp, tp, fp) if tp > run_tp else 0.0
    return n_hull, area


@helper
def _sweep_until_hull_full(pos, pos_w, neg, neg_w, points, hull, state):
    """The sweep proper, from the cursor in ``state`` until the end or a full hull stack.

    All running values live in locals and go back to ``state`` on return, so the caller can grow
    the stack and resume (reallocating inside this loop would slow every iteration).
    """
    i = np.int64(state[_I])
    j = np.int64(state[_J])
    tp = state[TP]
    fp = state[FP]
    scale = state[SCALE]
    n_points = np.int64(state[N_POINTS])
    n_hull = np.int64(state[_N_HULL])
    roc2 = state[ROC2]
    interpolated = state[INTERPOLATED]
    davis_goadrich = state[DAVIS_GOADRICH]
    average_precision = state[AVERAGE_PRECISION]
    lower2 = state[LOWER2]
    upper2 = state[UPPER2]
    group_max_precision = state[_GROUP_MAX_PRECISION]
    rose = state[_ROSE] != 0.0
    corner_threshold = state[_CORNER_THRESHOLD]
    last_threshold = state[_LAST_THRESHOLD]
    run_tp = state[_RUN_TP]  # tp where the current vertical run (fp constant) started
    store = points.shape[1] > 0
    neg_unit = neg_w.size == 0
    # Without stored points, a stretch of one class above every remaining example of the other
    # needs no merging, no hull work and (for positives) no logarithm: tight loops do it. A
    # stretch of negatives only moves fp and counts thresholds. Thresholds whose examples all
    # weigh 0 make no point.
    fast = not store
    done = True
    while i >= 0 or j >= 0:
        top_negative = neg[j] if j >= 0 else -np.inf
        if fast and i >= 0 and pos[i] > top_negative:
            precision = _precision(tp, fp)
            point_threshold = np.nan
            while i >= 0 and pos[i] > top_negative:
                threshold = pos[i]
                taken, i = ties(pos, pos_w, i, threshold, DOWN)
                dtp = in_units(taken, scale)
                if dtp == 0.0:
                    continue
                tp_b = tp + dtp  # summed as in the merging branch, so both agree to the bit
                dg, ap, lo2, up2, precision = _rise_areas(tp, fp, tp_b, fp, precision,
                                                          group_max_precision, scale)
                group_max_precision = precision
                davis_goadrich += dg
                average_precision += ap
                lower2 += lo2
                upper2 += up2
                tp = tp_b
                n_points += 1
                point_threshold = threshold
            if point_threshold == point_threshold:  # some threshold in the stretch had weight
                rose = True
                corner_threshold = last_threshold = point_threshold
            continue
        bound = pos[i] if i >= 0 else -np.inf
        if fast and j >= 0 and neg[j] > bound:
            if not neg_unit:
                while j >= 0 and neg[j] > bound and neg_w[j] == 0.0:
                    j -= 1  # examples of weight 0 make no point, so they must not end a rise
                if j < 0 or neg[j] <= bound:
                    continue
            if rose:
                if n_hull == hull.shape[0]:
                    done = False
                    break
                n_hull, area = _end_rise(hull, n_hull, fp, tp, corner_threshold, run_tp)
                interpolated += area
                rose = False
                run_tp = tp
            if neg_unit:
                j_start = j
                while j >= 0 and neg[j] > bound:
                    n_points += neg[j] != last_threshold
                    last_threshold = neg[j]
                    j -= 1
                dfp = float(j_start - j) * scale
                roc2 += dfp * (tp + tp)
                fp += dfp
            else:
                # Threshold by threshold, summed as in the merging branch. A threshold of weight
                # 0 adds exactly nothing; selects instead of a branch avoid mispredictions.
                while j >= 0 and neg[j] > bound:
                    threshold = neg[j]
                    taken, j = ties(neg, neg_w, j, threshold, DOWN)
                    dfp = in_units(taken, scale)
                    weighty = dfp > 0.0
                    n_points += weighty
                    last_threshold = threshold if weighty else last_threshold
                    roc2 += dfp * (tp + tp)
                    fp += dfp
            continue
        i_before, j_before = i, j
        # (walk.tie_step's threshold, with the tie steps of the one-class branches above: one
        # compiled step for the whole sweep, where tie_step's own copy compiled for 0.3 s more)
        threshold = pos[i] if j < 0 or (i >= 0 and pos[i] >= neg[j]) else neg[j]
        taken_pos, i = ties(pos, pos_w, i, threshold, DOWN)
        taken_neg, j = ties(neg, neg_w, j, threshold, DOWN)
        dtp = in_units(taken_pos, scale)
        dfp = in_units(taken_neg, scale)
        if dtp == 0.0 and dfp == 0.0:
            continue
        if dfp > 0.0 and rose:
            if n_hull == hull.shape[0]:
                i, j = i_before, j_before
                done = False
                break
            n_hull, area = _end_rise(hull, n_hull, fp, tp, corner_threshold, run_tp)
            interpolated += area
        tp_b = tp + dtp
        fp_b = fp + dfp
        roc2 += dfp * (tp + tp_b)
        rose = dtp > 0.0
        if dfp > 0.0:
            if tp_b > tp:  # not when the rise is lost in rounding: zero width, no area
                interpolated += interpolated_segment(tp, fp, tp_b, fp_b)
            run_tp = tp_b
        if rose:
            dg, ap, lo2, up2, group_max_precision = _rise_areas(
                tp, fp, tp_b, fp_b, _precision(tp, fp), group_max_precision, scale)
            davis_goadrich += dg
            average_precision += ap
            lower2 += lo2
            upper2 += up2
            corner_threshold = threshold
        tp = tp_b
        fp = fp_b
        last_threshold = threshold
        if store:
            points[0, n_points] = threshold
            points[1, n_points] = tp
            points[2, n_points] = fp
        n_points += 1
    state[_I] = i
    state[_J] = j
    state[TP] = tp
    state[FP] = fp
    state[N_POINTS] = n_points
    state[_N_HULL] = n_hull
    state[ROC2] = roc2
    state[INTERPOLATED] = interpolated
    state[DAVIS_GOADRICH] = davis_goadrich
    state[AVERAGE_PRECISION] = average_precision
    state[LOWER2] = lower2
    state[UPPER2] = upper2
    state[_GROUP_MAX_PRECISION] = group_max_precision
    state[_ROSE] = rose
    state[_CORNER_THRESHOLD] = corner_threshold
    state[_LAST_THRESHOLD] = last_threshold
    state[_RUN_TP] = run_tp
    state[_DONE] = done


# The summary of a compacted score range (see ``range_summary``): its class totals, the range of
# its weights, its lowest score and whether that score has positives, the fp (from the range's
# top) and the score of its last rise, and the tp down to its last score with negatives.
_R_N_POS, _R_N_NEG, _R_MAX_POS, _R_MAX_NEG, _R_MIN_WEIGHT, _R_LOWEST, _R_ROSE = range(7)
_R_RISE_FP, _R_RISE_THRESHOLD, _R_RUN_TP, _N_RANGE_SUMMARY = range(7, 11)
RANGE_N_POS, RANGE_N_NEG = _R_N_POS, _R_N_NEG


@jit
def range_summary(scores, pos_w, neg_w):
    """What the sweep of one compacted score range passes on to the ranges below it.

    A compacted range holds distinct scores ascending, each with its positive and negative weight
    (``fastpr.accumulator.CompactedSegment``), so every entry is one point: the
    ``classes_summary`` of the range seen as two classes that share the scores.
    """
    return classes_summary(scores, pos_w, scores, neg_w)


@jit
def classes_summary(pos, pos_w, neg, neg_w):
    """What the sweep of one score range passes on to the ranges below it.

    The range is given as the sweep takes a ranking: each class's scores sorted ascending with
    their weights (empty: unit weights). The vector returned is relative to the range's own top,
    in the caller's units, summed from the top down threshold by threshold as the sweep sums;
    ``carried_states`` chains the summaries of consecutive ranges. The largest and smallest
    weights are per example, as the sweep of a whole ranking scales them. An empty range, or one
    whose examples all weigh 0, passes on nothing: its class totals are 0.
    """
    summary = np.zeros(_N_RANGE_SUMMARY)
    max_pos, min_pos = _weight_range(pos_w, pos)
    max_neg, min_neg = _weight_range(neg_w, neg)
    summary[_R_MAX_POS] = max_pos
    summary[_R_MAX_NEG] = max_neg
    summary[_R_MIN_WEIGHT] = np.minimum(min_pos, min_neg)
    if pos_w.size == 0 and neg_w.size == 0:
        # Unit weights: every example counts, so the walk's values are counts that binary
        # searches find (ties go to the positives' side first, as in the walk).
        summary[_R_N_POS] = pos.size
        summary[_R_N_NEG] = neg.size
        if pos.size:
            summary[_R_RISE_FP] = neg.size - np.searchsorted(neg, pos[0])
            summary[_R_RISE_THRESHOLD] = pos[0]
        if neg.size:
            summary[_R_RUN_TP] = pos.size - np.searchsorted(pos, neg[0])
        if pos.size and (neg.size == 0 or pos[0] <= neg[0]):
            summary[_R_LOWEST] = pos[0]
            summary[_R_ROSE] = 1.0
        elif neg.size:
            summary[_R_LOWEST] = neg[0]
        return summary
    tp = fp = 0.0
    i, j = np.int64(pos.size - 1), np.int64(neg.size - 1)
    lowest = np.nan
    while i >= 0 or j >= 0:
        threshold, taken_pos, i, taken_neg, j = tie_step(pos, pos_w, neg, neg_w, i, j, DOWN)
        tp += taken_pos
        fp += taken_neg
        if taken_pos > 0.0:
            summary[_R_RISE_FP] = fp
            summary[_R_RISE_THRESHOLD] = threshold
        if taken_neg > 0.0:
            summary[_R_RUN_TP] = tp
        if taken_pos > 0.0 or taken_neg > 0.0:
            lowest = threshold
            summary[_R_ROSE] = taken_pos > 0.0
    summary[_R_N_POS] = tp
    summary[_R_N_NEG] = fp
    if lowest == lowest:
        summary[_R_LOWEST] = lowest
    else:
        summary[_R_ROSE] = 0.0
    return summary


@jit
def carried_states(summaries):
    """The state that the sweep of each score range starts from, for ``resume_range``.

    ``summaries`` holds the ``range_summary`` of consecutive ranges, one row each, highest
    scores first. Range r starts at the point (tp, fp) of all the ranges above it, with the
    running values that their sweep leaves: the highest precision at the current recall and the
    threshold of the last rise (the upper trapezoid and a pending ROC-hull corner), whether the
    last point rose, the tp where the current vertical run began, and the last threshold. A
    range of one class, or none, passes some of them through unchanged, so a value may come
    from several ranges up. Every range counts in the units (SCALE) of the whole sweep.
    """
    max_pos = max_neg = 0.0
    smallest = np.inf
    for summary in summaries:
        max_pos = max(max_pos, summary[_R_MAX_POS])
        max_neg = max(max_neg, summary[_R_MAX_NEG])
        smallest = min(smallest, summary[_R_MIN_WEIGHT])
    scale = weight_scale(max_pos, max_neg, smallest)
    states = np.zeros((summaries.shape[0], N_STATE))
    tp = fp = run_tp = corner_threshold = 0.0
    group_max_precision = 1.0  # as at the origin
    rose = 0.0
    last_threshold = np.inf  # the origin's
    for r in range(summaries.shape[0]):
        state = states[r]
        state[TP] = tp * scale
        state[FP] = fp * scale
        state[SCALE] = scale
        state[_GROUP_MAX_PRECISION] = group_max_precision
        state[_ROSE] = rose
        state[_CORNER_THRESHOLD] = corner_threshold
        state[_RUN_TP] = run_tp * scale
        state[_LAST_THRESHOLD] = last_threshold
        summary = summaries[r]
        n_pos, n_neg = summary[_R_N_POS], summary[_R_N_NEG]
        if n_pos > 0.0:
            tp_rise, fp_rise = tp + n_pos, fp + summary[_R_RISE_FP]
            group_max_precision = tp_rise / (tp_rise + fp_rise)
            corner_threshold = summary[_R_RISE_THRESHOLD]
        if n_neg > 0.0:
            run_tp = tp + summary[_R_RUN_TP]
        if n_pos > 0.0 or n_neg > 0.0:
            rose = summary[_R_ROSE]
            last_threshold = summary[_R_LOWEST]
        tp += n_pos
        fp += n_neg
    return states


@jit
def resume_range(scores, pos_w, neg_w, start):
    """(final state, hull vertices) of one compacted score range swept from ``start``: the
    ``resume_classes`` of the range seen as two classes that share the scores."""
    return resume_classes(scores, pos_w, scores, neg_w, start)


@jit
def resume_classes(pos, pos_w, neg, neg_w, start):
    """(final state, hull vertices) of one score range, given as each class's sorted scores and
    weights (as ``classes_summary`` takes it), swept from ``start``.

    ``start`` is the range's row of ``carried_states``; the hull stack begins with the range's
    starting point. Feed the results of every range with weight to ``join_ranges``.
    """
    state = start.copy()
    state[_I] = pos.size - 1
    state[_J] = neg.size - 1
    hull = np.empty((64, HULL_COLUMNS))
    state[_N_HULL] = push(hull, 0, state[FP], state[TP], state[_LAST_THRESHOLD])
    if state[TP] == 0.0 and state[FP] == 0.0:
        # At the origin, as sweep_into begins: no threshold yet, unequal to every score (the
        # count of unit-weight negatives compares each with the last one; +inf is a score).
        state[_LAST_THRESHOLD] = np.nan
    no_points = np.empty((3, 0))
    _sweep_until_hull_full(pos, pos_w, neg, neg_w, no_points, hull, state)
    while state[_DONE] == 0.0:
        hull = grown(hull)
        _sweep_until_hull_full(pos, pos_w, neg, neg_w, no_points, hull, state)
    return state, hull[: int(state[_N_HULL])].copy()


@helper
def _close_into(state, hull):
    """Finish a sweep that reached the last point: the last vertical run's area and the hull.

    ``hull`` needs room for one more vertex. Sets the hull areas in ``state`` and returns the
    number of hull vertices, (fp, tp, threshold) rows from the top of ``hull``; the class totals
    and the vertices are in the caller's units.
    """
    tp, fp, scale = state[TP], state[FP], state[SCALE]
    if tp > state[_RUN_TP]:
        state[INTERPOLATED] += interpolated_segment(state[_RUN_TP], fp, tp, fp)
    # The last point always closes the hull.
    n_hull = push(hull, np.int64(state[_N_HULL]), fp, tp, state[_LAST_THRESHOLD])
    state[HULL_ROC2], state[HULL_INTERPOLATED] = hull_areas(hull[:n_hull])
    state[N_POS] = tp / scale
    state[N_NEG] = fp / scale
    if scale != 1.0:
        # Loops, here and in sweep_into: an operation on a slice compiles numba's shape checks
        # and the formatting of their messages, 4 of 10 CPU seconds of the first evaluate once.
        for k in range(n_hull):
            hull[k, 0] /= scale
            hull[k, 1] /= scale
    return n_hull


@jit(inline="always")
def close(state, hull):
    """:func:`_close_into`, growing ``hull`` if it is full; returns the hull vertices."""
    if int(state[_N_HULL]) == hull.shape[0]:
        hull = grown(hull)
    return hull[: _close_into(state, hull)]


# The sums that consecutive ranges of one sweep add up.
_ADDITIVE = (N_POINTS, ROC2, INTERPOLATED, DAVIS_GOADRICH, AVERAGE_PRECISION, LOWER2, UPPER2)


@jit
def join_ranges(range_states, hull_rows):
    """(stats, hull) of a whole sweep from consecutive score ranges, highest scores first.

    ``range_states`` holds, one row each, the final states of ``resume_range`` (empty ranges
    left out); ``hull_rows`` are their hull vertices concatenated in the same order. The last
    range ends at the last point, so its state carries the totals and the values that ``close``
    needs; the hull of the union of the ranges' hulls is the hull of all points.
    """
    state = range_states[-1].copy()
    for k in _ADDITIVE:
        state[k] = range_states[:, k].sum()
    state[N_POINTS] += 1.0  # the origin
    hull, n_hull = upper_hull(hull_rows)
    state[_N_HULL] = n_hull
    return state, close(state, hull)


@jit
def sweep_into(pos, pos_w, neg, neg_w, points, hull, state):
    """``sweep`` into buffers, for callers from Python (one that allocates makes numba import its
    array module when loading it from the cache, a tenth of a warm start).

    Begins on a zeroed ``state`` (``N_STATE`` long) with ``hull`` empty, (m, ``HULL_COLUMNS``)
    for some m >= 2. Returns the number of hull vertices at the top of ``hull``, or -1 when
    ``hull`` is full: then call again with the same ``state`` and a copy of ``hull`` with more
    rows, until the count comes back.
    """
    if state[_N_HULL] == 0.0:  # not begun (a begun sweep has the origin on its hull): begin
        state[_I] = pos.size - 1
        state[_J] = neg.size - 1
        state[N_POINTS] = 1
        state[_LAST_THRESHOLD] = np.nan  # unequal to every score
        # The highest precision at the current recall: (0, 1) starts.
        state[_GROUP_MAX_PRECISION] = 1.0
        state[SCALE] = scale_of(pos, pos_w, neg, neg_w)
        if points.shape[1] > 0:
            points[0, 0] = np.inf
            points[1, 0] = 0.0
            points[2, 0] = 0.0
        state[_N_HULL] = push(hull, 0, 0.0, 0.0, np.inf)
    _sweep_until_hull_full(pos, pos_w, neg, neg_w, points, hull, state)
    if state[_DONE] == 0.0 or np.int64(state[_N_HULL]) == hull.shape[0]:
        return -1
    scale = state[SCALE]
    if scale != 1.0 and points.shape[1] > 0:
        for k in range(np.int64(state[N_POINTS])):
            points[1, k] /= scale
            points[2, k] /= scale
    return _close_into(state, hull)


# Inlined: as a kernel of its own between its callers and sweep_into, it would compile the
# sweep's code into one more layer (a second at each caller's first use).
@jit(inline="always")
def sweep(pos, pos_w, neg, neg_w, points):
    """Walk both classes from the highest score down, one operating point per distinct score.

    Returns (stats, hull): ``stats`` is indexed by the module constants (areas unnormalised, in
    units of SCALE: ROC and trapezoid sums doubled, PR areas in units of TP; ``rows.write_row``
    normalises them); ``hull`` holds the ROC-hull vertices as (fp, tp, threshold) rows, origin
    first. A threshold that moves neither tp nor fp (its examples weigh 0, or too little to
    change the running totals) makes no point.
    """
    state = np.empty(N_STATE)
    for k in range(N_STATE):  # (np.zeros would compile one more allocation at its callers)
        state[k] = 0.0
    hull = np.empty((64, HULL_COLUMNS))
    n_hull = sweep_into(pos, pos_w, neg, neg_w, points, hull, state)
    while n_hull < 0:
        hull = grown(hull)
        n_hull = sweep_into(pos, pos_w, neg, neg_w, points, hull, state)
    return state, hull[:n_hull]
