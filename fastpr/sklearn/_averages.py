"""Averages of a binary metric over the labels of a multilabel (or binarised multiclass) target,
and Hand & Till's one-vs-one average, over rankings laid out as the engine takes them (one per
row)."""
from itertools import combinations

import numpy as np

from . import _rankings

# Bytes of a matrix's rows transposed at a time: the block and its transpose stay in cache.
_TRANSPOSE_BLOCK_BYTES = 1 << 17


def label_rows(matrix):
    """The columns of a (n_samples, n_labels) matrix as the rows of a C-contiguous array (the
    engine's layout of many rankings): ``matrix`` itself where it is the transpose of one.

    Copied in blocks of samples: NumPy's copy of a transposed view reads every column in full
    with a stride, fetching each cache line once per column (1.6 times slower for 5 columns of
    a million rows, 2.7 times for 20).
    """
    if matrix.T.flags.c_contiguous:
        return matrix.T
    rows = np.empty(matrix.shape[::-1], dtype=matrix.dtype)
    block = max(1, _TRANSPOSE_BLOCK_BYTES // (matrix.shape[1] * matrix.itemsize))
    for start in range(0, matrix.shape[0], block):
        rows[:, start:start + block] = matrix[start:start + block].T
    return rows


def over_labels(per_ranking, is_positive, scores, average, weights, indicator=None):
    """``per_ranking`` (labels, scores, weights) -> one value per row, averaged as scikit-learn's
    ``average`` says over an indicator matrix (n_samples, n_labels) and its scores.

    "macro": the mean over labels; "weighted": weighted by each label's (weighted) sum of
    ``indicator``, the matrix as given (default ``is_positive``): its positives where it holds
    {0, 1}, but as scikit-learn sums it for other values ({-1, 1}: positives less negatives),
    0 where the sum is 1e-8 or less (scikit-learn's ``np.isclose``); "samples": one ranking per
    sample, weighted by ``weights``; "micro": one ranking of every (sample, label) pair; None:
    one value per label.
    """
    n_labels = scores.shape[1]
    average_weights = None
    if average == "micro":
        rows = (is_positive.reshape(1, -1), scores.reshape(1, -1),
                None if weights is None else np.repeat(weights, n_labels))
    elif average == "samples":
        rows = (is_positive, scores, None)
        average_weights = weights
    else:
        rows = (label_rows(is_positive), label_rows(scores), weights)
        if average == "weighted":
            indicator = is_positive if indicator is None else indicator
            average_weights = (indicator.sum(axis=0, dtype=np.float64) if weights is None
                               else weights @ indicator)
            # scikit-learn's test, np.isclose(total, 0): also 0 where the positives weigh
            # 1e-8 or less in all, not only where there are none.
            if abs(average_weights.sum()) <= 1e-8:
                return 0
    values = per_ranking(*rows)
    if average is None:
        return values
    if average_weights is None:
        return float(values.mean())
    values[average_weights == 0] = 0.0  # a NaN of no weight must not spoil the mean
    total = average_weights.sum()
    if total == 0:
        raise ZeroDivisionError("the weights of the average add up to zero.")
    return float((values * average_weights).sum() / total)


def one_vs_one(codes, scores, average):
    """Hand & Till's (2001) multiclass AUC-ROC: for each pair of classes present, the mean of
    the two AUC-ROCs of one class against the other on their samples, averaged over pairs
    (weighted by the pair's share of the samples for "weighted").

    ``codes`` holds each sample's class as a column number of ``scores``. Each class's samples
    are gathered once with every column, and each column sorted: class a against class b on
    column a is then the engine's lean sweep of two sorted rows. This sorts every score once,
    where a ranking per pair would sort it 2 (k - 1) times for k classes.
    """
    columns = label_rows(scores)

    def sorted_class(c):  # column j's scores of the samples of class c, ascending, in row j
        block = columns[:, np.flatnonzero(codes == c)]
        block.sort(axis=1)
        return block

    def pair_auc(pair):
        a, b = pair
        return (_rankings.sorted_areas(by_class[a][a], by_class[b][a])[0]
                + _rankings.sorted_areas(by_class[b][b], by_class[a][b])[0]) / 2

    by_class = _rankings.each(sorted_class, range(scores.shape[1]), scores.size)
    pairs = [(a, b) for a, b in combinations(range(scores.shape[1]), 2)
             if by_class[a].shape[1] and by_class[b].shape[1]]
    if not pairs:  # one class present: the mean of nothing, as in scikit-learn
        return np.average(np.empty(0), weights=[] if average == "weighted" else None)
    aucs = _rankings.each(pair_auc, pairs, scores.size)
    shares = None
    if average == "weighted":
        shares = [(by_class[a].shape[1] + by_class[b].shape[1]) / codes.size for a, b in pairs]
    return np.average(aucs, weights=shares)
