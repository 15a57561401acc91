"""Averages of a binary metric over the labels of a multilabel (or binarised multiclass) target
(one-vs-rest, shared with :mod:`fastpr.multiclass`), and Hand & Till's one-vs-one average, over
rankings laid out as the engine takes them (one per row)."""
from itertools import combinations

import numpy as np

# over_labels: the drop-ins' one-vs-rest is fastpr.multiclass's, reached from here.
from ..multiclass import label_rows, over_labels  # noqa: F401
from .._engine.batch import each
from . import _rankings


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

    by_class = each(sorted_class, range(scores.shape[1]), scores.size)
    pairs = [(a, b) for a, b in combinations(range(scores.shape[1]), 2)
             if by_class[a].shape[1] and by_class[b].shape[1]]
    if not pairs:  # one class present: the mean of nothing, as in scikit-learn
        return np.average(np.empty(0), weights=[] if average == "weighted" else None)
    aucs = each(pair_auc, pairs, scores.size)
    shares = None
    if average == "weighted":
        shares = [(by_class[a].shape[1] + by_class[b].shape[1]) / codes.size for a, b in pairs]
    return np.average(aucs, weights=shares)
