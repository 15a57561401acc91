"""Small embedded examples: the papers' worked examples and a synthetic skewed ranking."""
import math

import numpy as np

from ._validation import Integer, Interval, options

# Prevalence as a probability of being positive (0 and 1 give one class, which is data too);
# the population area needs both classes.
_PROBABILITY = Interval(0, 1)


def table1_points():
    """Davis & Goadrich (2006) Table 1: P = 20, A = (TP 5, FP 5), B = (TP 10, FP 30).

    Returns ``(tp_a, fp_a, tp_b, fp_b, n_pos)`` for :func:`fastpr.interpolate_pr`.
    """
    return 5, 5, 10, 30, 20


def figure6_ranking():
    """Davis & Goadrich (2006) Figure 6: 433 positives, 56,164 negatives.

    Nine positives are ranked first; every other example shares one lower score.
    Returns ``(y_true, y_score)``.
    """
    n_pos, n_neg, n_top = 433, 56_164, 9
    y_true = np.concatenate([np.ones(n_pos, dtype=bool), np.zeros(n_neg, dtype=bool)])
    y_score = np.zeros(n_pos + n_neg)
    y_score[:n_top] = 1.0
    return y_true, y_score


@options(n_samples=Integer(minimum=1), prevalence=_PROBABILITY)
def skewed_ranking(n_samples=20_000, prevalence=0.01, seed=0):
    """A binormal ranking at low prevalence with heavy ties (scores rounded to 2 decimals).

    Positives score N(1.5, 1), negatives N(0, 1). Deterministic for a given ``seed``.
    Returns ``(y_true, y_score)``.
    """
    rng = np.random.default_rng(seed)
    y_true = rng.random(n_samples) < prevalence
    y_score = np.round(rng.normal(loc=1.5 * y_true, scale=1.0), 2)
    return y_true, y_score


def _ranking_from_negatives_above(negatives_above, n_neg):
    """Scores placing positive i below exactly ``negatives_above[i]`` of the n_neg negatives."""
    negatives_above = np.asarray(negatives_above)
    negative_scores = np.arange(n_neg, 0, -1, dtype=np.float64)  # n_neg, ..., 1
    positive_scores = n_neg - negatives_above + 0.5
    y_true = np.concatenate([np.ones(negatives_above.size, bool), np.zeros(n_neg, bool)])
    return y_true, np.concatenate([positive_scores, negative_scores])


def reversal_rankings():
    """Two rankings that AUC-ROC and AUC-PR order oppositely (Davis & Goadrich 2006, section 5).

    20 positives among 2,000 negatives. Ranking A puts ten positives first and spreads the other
    ten deep in the list (142 negatives apart, from 110 down); ranking B puts positive i below
    13 + 25 i negatives. A: AUC-ROC 0.813, AUC-PR 0.514. B: AUC-ROC 0.875, AUC-PR 0.038, the
    paper's figures. Returns ``(y_true, score_a, score_b)`` with one shared ``y_true``.
    """
    n_pos, n_neg = 20, 2000
    spread = np.arange(n_pos // 2)
    above_a = np.concatenate([np.zeros(n_pos // 2), 110 + 142 * spread])
    above_b = 13 + 25 * np.arange(n_pos)
    y_true, score_a = _ranking_from_negatives_above(above_a, n_neg)
    _, score_b = _ranking_from_negatives_above(above_b, n_neg)
    return y_true, score_a, score_b


@options(n_samples=Integer(minimum=1), prevalence=_PROBABILITY, separation=Interval())
def binormal(n_samples, prevalence, separation=1.0, seed=0):
    """Scores of the binormal model: negatives N(0, 1), positives N(separation, 1).

    Each row is positive with probability ``prevalence``. Returns ``(y_true, y_score)``.
    """
    rng = np.random.default_rng(seed)
    y_true = rng.random(n_samples) < prevalence
    return y_true, rng.normal(loc=separation * y_true, scale=1.0)


@options(prevalence=Interval(0, 1, closed="neither"), separation=Interval(),
         n_grid=Integer(minimum=2))
def binormal_auc_pr(prevalence, separation=1.0, n_grid=20_001):
    """The population AUC-PR of :func:`binormal`, by numerical integration.

    Along thresholds t, recall is ``Q(t - separation)`` and the false-positive rate ``Q(t)``
    (Q the normal upper tail), so the area is the integral of precision against
    ``d recall = phi(t - separation) dt``: trapezoids on a grid 12 standard deviations wide.
    """
    t = np.linspace(separation - 12.0, separation + 12.0, n_grid)
    upper_tail = np.vectorize(lambda x: 0.5 * math.erfc(x / math.sqrt(2.0)))
    recall, fpr = upper_tail(t - separation), upper_tail(t)
    precision = prevalence * recall / (prevalence * recall + (1.0 - prevalence) * fpr)
    density = np.exp(-0.5 * (t - separation) ** 2) / math.sqrt(2.0 * math.pi)
    return float(np.trapezoid(precision * density, t))
