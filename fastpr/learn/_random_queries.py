"""The objective of a binary task (no query groups) in random queries: each round, the rows
are dealt into random stratified queries of about ``query_positives`` positives each,
LambdaMART gradients of average precision are taken per query, rescaled, and mixed with
logistic loss's.

Why: one long ranking gives top-k pairs to its first k rows only, and query normalisation
leaves its hessians summing to a few units whatever its length, so trees with XGBoost's
``min_child_weight=1`` hardly split. Queries of a few positives each spread the pairs over all
rows; rescaling each round so that the hessians sum to n p (1 - p), what logistic loss's sum
to at the prior, gives ``min_child_weight`` and ``reg_lambda`` the scale they have there; and
logistic loss's share halved the worst losses against logistic loss alone in
bench/learner_quality.py.
"""
import numpy as np

from ._rankings import Rankings
from .labels import rankings_gradients

_NO_SCALES = np.empty(0)


class RandomQueries:
    """The labels of one ranking, checked once, and what dealing them into queries needs.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        0/1 labels (as :func:`fastpr.evaluate` takes them).
    query_positives : int
        The positives of each query (about: ``round(n_pos / query_positives)`` queries, at
        least one, share the positives and the negatives as evenly as they divide).
    """

    def __init__(self, y_true, query_positives):
        self._rankings = Rankings(y_true, None, None, None)
        positive = self._rankings.is_positive
        self._positives = np.flatnonzero(positive)
        self._negatives = np.flatnonzero(~positive)
        n_pos, n_neg = self._positives.size, self._negatives.size
        self.n_queries = max(1, round(n_pos / query_positives)) if n_pos and n_neg else 1
        # Each class's query numbers, even runs: the i-th of m is floor(i Q / m).
        self._positive_query = np.arange(n_pos, dtype=np.int64) * self.n_queries // max(n_pos, 1)
        self._negative_query = np.arange(n_neg, dtype=np.int64) * self.n_queries // max(n_neg, 1)
        # n p (1 - p): the hessians of logistic loss at the prior, summed.
        self.hessian_sum = n_pos * n_neg / positive.size if positive.size else 0.0

    def deal(self, rng):
        """The query of each row (int64 codes from 0 to ``n_queries`` - 1): each class's
        ``n_queries`` even runs of query numbers shuffled by ``rng`` (positives first), the
        i-th number of a class to its i-th row: the partitions of permuting each class's rows
        and cutting them into even runs, written in row order rather than scattered."""
        codes = np.empty(self._rankings.is_positive.size, dtype=np.int64)
        for rows, runs in ((self._positives, self._positive_query),
                           (self._negatives, self._negative_query)):
            numbers = runs.copy()  # from the same start every round: a partition per draw
            rng.shuffle(numbers)
            codes[rows] = numbers
        return codes

    def gradients(self, y_score, rng, rescale, logistic_weight, pairs, k, ranknet,
                  score_normalization, query_normalization):
        """(grad, hess) of the queries of :meth:`deal` (drawn from ``rng``), each query a
        ranking of :func:`fastpr.learn.lambdamart_gradients` with these options; with
        ``rescale`` both multiplied by one factor so that the hessians sum to
        ``hessian_sum``; then, with ``logistic_weight`` w > 0, (1 - w) times these plus w times
        logistic loss's of the margins ``y_score``."""
        rankings = self._rankings.regrouped(self.deal(rng), self.n_queries)
        grad, hess = rankings_gradients(rankings, y_score, pairs, k, ranknet,
                                        score_normalization, query_normalization, _NO_SCALES)
        total = hess.sum()
        if rescale and total > 0.0:
            factor = self.hessian_sum / total
            grad *= factor
            hess *= factor
        if logistic_weight:
            with np.errstate(over="ignore"):  # exp(-margin) = inf: probability 0, exactly
                probability = 1.0 / (1.0 + np.exp(-np.asarray(y_score, dtype=np.float64)))
            grad *= 1.0 - logistic_weight
            grad += logistic_weight * (probability - self._rankings.is_positive)
            hess *= 1.0 - logistic_weight
            hess += logistic_weight * np.maximum(probability * (1.0 - probability), 1e-16)
        return grad, hess
