"""Walks of an unweighted ranking that compute one part of what ``sweep`` does: AUC-ROC, average
precision and the interpolated AUC-PR (what a learner's early stopping asks for, many times
over), or the operating points (scikit-learn's curves, with their precision and recall).

``sweep`` does much more per threshold (the hull, the points, the trapezoid and Davis-Goadrich
estimators), which at a thousand scores costs several times the sort. These walks repeat its
arithmetic operation for operation (unit weights are exact counts), so they agree with
``sweep`` to the bit.

Preconditions: ``pos`` and ``neg`` hold each class's scores sorted ascending, no NaN.
"""
import numpy as np

from ..jit import jit
from . import sweep as _sweep
from .area import interpolated_segment
from .intermediate import dropped
from .summary import summarise_into
from .walk import DOWN
from .walk import beyond_helper as beyond
from .walk import tie_step_helper as tie_step
from .walk import ties_helper as ties


@jit
def lean_summary_into(pos, neg, interpolate, stats, out):
    """Write AUC-ROC, average precision and (if ``interpolate``) the interpolated AUC-PR into
    their places of ``out`` (the layout of ``summary.summarise_into``, whose other entries are
    then meaningless), using ``stats`` (float64, at least ``sweep.SCALE + 1`` long) as scratch.

    The interpolated area costs a logarithm per run of positives, most of the time of this walk
    when the classes alternate often; without it, it is left out.
    """
    no_weights = stats[:0]
    i = pos.size - 1
    j = neg.size - 1
    tp = fp = roc2 = average_precision = interpolated = run_tp = 0.0
    rose = False
    while i >= 0 or j >= 0:
        top_negative = neg[j] if j >= 0 else -np.inf
        if i >= 0 and pos[i] > top_negative:  # positives above every negative left
            while i >= 0 and pos[i] > top_negative:
                dtp, i = ties(pos, no_weights, i, pos[i], DOWN)
                tp_b = tp + dtp
                average_precision += dtp * (tp_b / (tp_b + fp))
                tp = tp_b
            rose = True
            continue
        bound = pos[i] if i >= 0 else -np.inf
        if j >= 0 and neg[j] > bound:  # negatives above every positive left
            if rose:
                if interpolate and tp > run_tp:
                    interpolated += interpolated_segment(run_tp, fp, tp, fp)
                rose = False
                run_tp = tp
            j_start = j
            j = beyond(neg, j, bound, DOWN)
            dfp = float(j_start - j)
            roc2 += dfp * (tp + tp)
            fp += dfp
            continue
        _, dtp, i, dfp, j = tie_step(pos, no_weights, neg, no_weights, i, j, DOWN)
        if interpolate and dfp > 0.0 and rose and tp > run_tp:
            interpolated += interpolated_segment(run_tp, fp, tp, fp)
        tp_b = tp + dtp
        fp_b = fp + dfp
        roc2 += dfp * (tp + tp_b)
        if dfp > 0.0:
            if interpolate and tp_b > tp:
                interpolated += interpolated_segment(tp, fp, tp_b, fp_b)
            run_tp = tp_b
        rose = dtp > 0.0
        if rose:
            average_precision += dtp * (tp_b / (tp_b + fp_b))
        tp = tp_b
        fp = fp_b
    if interpolate and tp > run_tp:
        interpolated += interpolated_segment(run_tp, fp, tp, fp)
    stats[:] = 0.0
    stats[_sweep.TP] = tp
    stats[_sweep.FP] = fp
    stats[_sweep.ROC2] = roc2
    stats[_sweep.AVERAGE_PRECISION] = average_precision
    stats[_sweep.INTERPOLATED] = interpolated
    summarise_into(stats, out)


@jit
def unit_points_into(pos, neg, thresholds, tp, fp, first, rule):
    """Write the operating points into ``thresholds``, ``tp`` and ``fp`` (room for every score
    and the origin) as ``sweep`` writes them: the origin at threshold inf, then each distinct
    score descending with the counts at or above it. Then drop those that ``rule`` drops from
    point ``first`` on (see ``intermediate.dropped``); returns how many points remain."""
    thresholds[0] = np.inf
    tp[0] = fp[0] = 0.0
    no_weights = tp[:0]
    i = pos.size - 1
    j = neg.size - 1
    n_points = 1
    tp_at = fp_at = 0.0
    while i >= 0 or j >= 0:
        threshold, dtp, i, dfp, j = tie_step(pos, no_weights, neg, no_weights, i, j, DOWN)
        tp_at += dtp
        fp_at += dfp
        thresholds[n_points] = threshold
        tp[n_points] = tp_at
        fp[n_points] = fp_at
        n_points += 1
    return dropped(thresholds, tp, fp, n_points, first, rule)


@jit
def precision_recall_into(tp, fp, precision, recall):
    """Write the precision and recall of the points (``tp``, ``fp``; the origin left out) in
    reverse order, then scikit-learn's last point (recall 0, precision 1), into ``precision``
    and ``recall`` (one longer than ``tp``); recall is 1 everywhere without positives. The
    same operations as NumPy's ``tp / (tp + fp)`` and ``tp / tp[-1]``, in one call."""
    m = tp.size
    total = tp[m - 1]
    for k in range(m):
        hits = tp[m - 1 - k]
        precision[k] = hits / (hits + fp[m - 1 - k])
        recall[k] = hits / total if total > 0.0 else 1.0
    precision[m] = 1.0
    recall[m] = 0.0
