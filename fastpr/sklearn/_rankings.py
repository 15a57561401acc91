"""The drop-in metrics' one route into fastpr's engine: checked arrays in, points or areas out.

Each function is one sort and one pass per ranking, through fastpr's public functions on arrays
that scikit-learn's rules have already accepted (bool labels, finite float scores, finite
non-negative weights or None). Where the caller knows that a class is missing (``quiet``), it
raises scikit-learn's warning itself, so fastpr's own is silenced.
"""
import warnings

import fastpr


def _run(quiet, function, *args, **kwargs):
    if not quiet:
        return function(*args, **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", fastpr.UndefinedMetricWarning)
        return function(*args, **kwargs)


def summary(is_positive, scores, weights, *, quiet=False):
    """The :class:`fastpr.Evaluation` of one ranking (or the batch of a 2-D one, a ranking per
    row; 1-D weights are shared by the rows)."""
    return _run(quiet, fastpr.evaluate, is_positive, scores, sample_weight=weights)


def segment_summaries(is_positive, scores, offsets):
    """The :class:`fastpr.EvaluationBatch` of consecutive rankings: ``offsets`` bound them."""
    return fastpr.evaluate(is_positive, scores, offsets=offsets)


def points(is_positive, scores, weights, *, quiet=False):
    """(thresholds, tp, fp) of every distinct score with weight, descending, origin first (at
    threshold +inf); a list of them for a 2-D ranking."""
    curves = _run(quiet, fastpr.roc_curve, is_positive, scores, sample_weight=weights)
    if isinstance(curves, list):
        return [(c.thresholds, c.tp, c.fp) for c in curves]
    return curves.thresholds, curves.tp, curves.fp
