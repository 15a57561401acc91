"""Hypothesis strategies for small rankings: many ties, special floats, integer and float weights."""
import math
import os

import numpy as np
from hypothesis import settings
from hypothesis import strategies as st

# FASTPR_HYPOTHESIS_SCALE=20 (say) multiplies every example count, for a deeper run.
_SCALE = float(os.environ.get("FASTPR_HYPOTHESIS_SCALE", "1"))
SETTINGS = settings(max_examples=int(150 * _SCALE), deadline=None)
FEW = settings(max_examples=int(40 * _SCALE), deadline=None)

SPECIAL_SCORES = [0.0, -0.0, math.inf, -math.inf, 1.0, -1.0, 0.5, 1e-300, 5e-324, -5e-324,
                  1.7976931348623157e308, -1.7976931348623157e308, 2.0**53, 2.0**53 + 2]
# Exactly representable in float32 (float(np.finfo(np.float32).max), smallest subnormal, 2**24).
SPECIAL_SCORES_32 = [0.0, -0.0, math.inf, -math.inf, 1.0, -1.0, 0.5, 2.0**-149, -(2.0**-149),
                     3.4028234663852886e38, -3.4028234663852886e38, 2.0**24, 2.0**24 + 2]
POSITIVE_FLOAT_WEIGHTS = st.floats(0.01, 4.0)


def score_pools(width=64):
    """A small set of distinct-ish float values (rows draw from it, so ties are common)."""
    special = SPECIAL_SCORES if width == 64 else SPECIAL_SCORES_32
    element = st.one_of(st.sampled_from(special),
                        st.floats(allow_nan=False, width=width))
    return st.lists(element, min_size=1, max_size=8)


@st.composite
def rankings(draw, *, min_n=2, max_n=40, scores=("int", "float"), weights=("none", "int", "float"),
             defined=True, float_width=64, max_int_weight=3):
    """(y, s, w): bool labels, float scores, weights (None or float64 array).

    ``defined``: at least one positive and one negative with nonzero weight.
    """
    n = draw(st.integers(min_n, max_n))
    kind = draw(st.sampled_from(scores))
    if kind == "int":
        s = [float(v) for v in draw(st.lists(st.integers(-3, 3), min_size=n, max_size=n))]
    else:
        pool = draw(score_pools(float_width))
        s = draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n))
    y = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    weight_kind = draw(st.sampled_from(weights))
    if weight_kind == "none":
        w = None
        positive_weight = st.just(1.0)
    elif weight_kind == "int":
        w = [float(v) for v in draw(st.lists(st.integers(0, max_int_weight),
                                             min_size=n, max_size=n))]
        positive_weight = st.integers(1, max_int_weight).map(float)
    else:
        w = draw(st.lists(st.one_of(st.just(0.0), POSITIVE_FLOAT_WEIGHTS),
                          min_size=n, max_size=n))
        positive_weight = POSITIVE_FLOAT_WEIGHTS
    if defined:
        assert n >= 2
        i = draw(st.integers(0, n - 1))
        j = draw(st.integers(0, n - 2))
        j = j + 1 if j >= i else j
        y[i], y[j] = True, False
        if w is not None:
            for k in (i, j):
                if w[k] == 0:
                    w[k] = draw(positive_weight)
    elif w is not None and not any(w):
        w[0] = draw(positive_weight)
    dtype = np.float64 if float_width == 64 else np.float32
    return (np.array(y, dtype=bool), np.array(s, dtype=dtype),
            None if w is None else np.array(w, dtype=np.float64))


def unweighted_rankings():
    """Rankings without weights, float32 or float64 scores, one class possibly missing: what
    the engine's lean walks take."""
    return st.one_of(*(rankings(weights=("none",), defined=False, min_n=1, float_width=width)
                       for width in (32, 64)))


def integer_weighted(w):
    """True when every weight is a whole number (or there are none): float sums are then exact."""
    return w is None or bool(np.all(w == np.round(w)))


# Ends of partial ranges (recall, FPR), the awkward ones included: 0, 1, thirds, tiny.
RANGE_ENDS = [0.0, 1e-3, 0.1, 0.25, 1 / 3, 0.5, 0.7, 0.999, 1.0]


def recall_ranges():
    """(low, high) with 0 <= low < high <= 1."""
    return st.tuples(st.sampled_from(RANGE_ENDS), st.sampled_from(RANGE_ENDS)).filter(
        lambda pair: pair[0] != pair[1]).map(lambda pair: tuple(sorted(pair)))


def max_fprs():
    """An end of a range of FPR from 0, in (0, 1]."""
    return st.sampled_from([end for end in RANGE_ENDS if end > 0])


def wide_rankings():
    """(y, s, None): unweighted rankings of both classes with mostly distinct integer scores, so
    that runs of negatives lie between positives (what a bootstrap replicate's gap bins merge)
    and ties are rare."""
    n = st.integers(2, 40)
    return n.flatmap(lambda size: st.tuples(
        st.lists(st.booleans(), min_size=size, max_size=size),
        st.lists(st.integers(-30, 30), min_size=size, max_size=size))).map(
            lambda pair: (np.array(pair[0], bool), np.array(pair[1], float), None)).filter(
                lambda case: 0 < case[0].sum() < case[0].size)


def cutoffs(max_k=12):
    """``k`` of ``fastpr.top_k``: an int, a list of ints (>= 1) or "positives"."""
    return st.one_of(st.integers(1, max_k), st.lists(st.integers(1, max_k), min_size=1,
                                                     max_size=4), st.just("positives"))


# Pieces of metric strings (fastpr._validation.Metric): names good and bad, levels good, out of
# range and no numbers at all.
METRIC_NAMES = ["auc_pr", "auc_roc", "max_f1", "r_precision", "recall_at_precision",
                "precision_at_recall", "tpr_at_fpr", "tnr_at_tpr", "precision_at_k",
                "recall_at_k", "auc_roc_mcclish", "auc_npr", "auc", "", "Auc_pr", "f1"]
METRIC_LEVELS = ["0.9", "1", "0", "1.0", ".5", "1e-1", "1000", "-0.1", "1.5", "nan", "inf",
                 "0x1", " 0.9", "0.9 ", "", "0.2:0.8", "0.8:0.2", "0:1", "0.5:0.5", ":", "a"]


def metric_strings():
    """A name alone, or name@level, or name@level@level, of the pieces above or any text."""
    piece = st.sampled_from(METRIC_LEVELS) | st.text(max_size=6)
    return st.one_of(st.sampled_from(METRIC_NAMES) | st.text(max_size=8),
                     st.tuples(st.sampled_from(METRIC_NAMES), piece).map("@".join),
                     st.tuples(st.sampled_from(METRIC_NAMES), piece, piece).map("@".join))


def levels():
    """A level of an operating point (fastpr.recall_at_precision & co.): the ends of [0, 1],
    values that the rates of small rankings hit exactly, anything between, or a list of them."""
    one = st.one_of(st.sampled_from([0.0, 1.0, 0.5, 1 / 3, 2 / 3, 0.25, 0.75]), st.floats(0, 1))
    return st.one_of(one, st.lists(one, min_size=1, max_size=4))
