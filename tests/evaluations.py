"""Comparing two fastpr.Evaluation results field by field, to a relative tolerance; and a
ranking's negatives as bootstrap replicates sweep them (gap bins)."""
import math

import numpy as np

from fastpr._engine.kernels.gap_bins import gap_bin_starts

TOL = 1e-12


def assert_evaluations_close(actual, expected, tol=TOL):
    """Every field equal to ``tol`` relative (1e-14 absolute); counts exact; NaN where NaN."""
    a, b = actual.to_dict(), expected.to_dict()
    assert a.keys() == b.keys()
    for key in a:
        x, y = a[key], b[key]
        if isinstance(y, int):
            assert x == y, (key, x, y)
        elif math.isnan(y):
            assert math.isnan(x), (key, x, y)
        else:
            assert math.isclose(x, y, rel_tol=tol, abs_tol=1e-14), (key, x, y)


def gap_binned(y, s, counts):
    """The ranking with each gap bin of its negatives as one negative of the bin's total
    weight, at the bin's highest score (as bootstrap replicates without weights arrive):
    (is_positive, scores, weights), the positives first."""
    pos_order, neg_order = np.argsort(s[y], kind="stable"), np.argsort(s[~y], kind="stable")
    pos, pos_counts = s[y][pos_order], counts[y][pos_order]
    neg, neg_counts = s[~y][neg_order], counts[~y][neg_order]
    starts = gap_bin_starts(pos, neg)
    bin_scores = neg[starts[1:] - 1]
    bin_totals = np.add.reduceat(neg_counts, starts[:-1]) if neg.size else neg_counts
    return (np.r_[np.ones(pos.size, bool), np.zeros(bin_scores.size, bool)],
            np.r_[pos, bin_scores], np.r_[pos_counts, bin_totals])
