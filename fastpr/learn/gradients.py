"""``|dAP|`` summed over pairs, and LambdaMART gradients of average precision, in one call.

Each builds a :class:`fastpr.learn.FixedLabels` and calls its method; a loop over boosting rounds
should build one itself and call the method, so that labels and groups are checked once.
"""
from .._validation import options
from ._weights import refuse_sample_weight
from .labels import GRADIENT_OPTIONS, FixedLabels


def lambda_sums(y_true, y_score, *, groups=None, offsets=None, pos_label=None,
                sample_weight=None):
    """For every example, the sum of ``|dAP|`` over the swaps with each example of the other label
    in its ranking: the LambdaMART weight of average precision without the RankNet factor.

    Parameters
    ----------
    y_true, y_score, groups, offsets, pos_label
        As in :func:`fastpr.evaluate`: one ranking, or one per group.
    sample_weight : None
        Not defined here; anything else raises ValueError.

    Returns
    -------
    ndarray of float64, shape (n_samples,)
        In row order. 0 for every example of a ranking without positives or without
        negatives (``FixedLabels(...).n_single_class`` counts those rankings).

    Notes
    -----
    Examples are ranked by descending score, ties in row order (a stable sort), at ranks
    r = 1..n; with c_r the positives at ranks <= r, A_r = sum_{t<=r} y_t / t and R positives in
    all, swapping a positive at rank i with a negative at rank j changes average precision by
    (c_i/i - c_j/j + A_{j-1} - A_i) / R in absolute value when i < j, and by
    ((c_j + 1)/j - c_i/i + A_{i-1} - A_j) / R when j < i. Each is a term of the upper example
    plus a term of the lower one, so all the sums come from prefix sums of those terms in O(n)
    after the sort. Groups run in parallel on numba's thread count.

    Examples
    --------
    >>> from fastpr.learn import lambda_sums
    >>> lambda_sums([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.6]).round(4)
    array([0.6667, 0.4167, 0.25  , 0.5   ])
    """
    refuse_sample_weight(sample_weight, "lambda_sums")
    return FixedLabels(y_true, groups=groups, offsets=offsets,
                       pos_label=pos_label).lambda_sums(y_score)


@options(**GRADIENT_OPTIONS)
def lambdamart_gradients(y_true, y_score, *, groups=None, offsets=None, group_weight=None,
                         pos_label=None, sample_weight=None, pairs="topk", k=32, ranknet=None,
                         score_normalization=None, query_normalization=True):
    """Gradients and hessians of LambdaMART for average precision, as XGBoost's ``rank:map``
    computes them, in float64.

    Parameters
    ----------
    y_true, y_score, groups, offsets, pos_label
        As in :func:`fastpr.evaluate`: one ranking (binary classification), or one per query
        group (learning to rank).
    group_weight : array-like of shape (n_groups,), default=None
        A weight per ranking (groups in sorted id order, or segments of ``offsets``), scaled as
        XGBoost scales query weights: by the number of groups over their sum.
    sample_weight : None
        Not defined here; anything else raises ValueError.
    pairs : {"topk", "all"}, default="topk"
        ``"topk"``: XGBoost's pairs, every pair of opposite labels whose upper example is among
        the first ``k`` of its ranking. ``"all"``: every pair of opposite labels, in O(n) per
        ranking after the sort (from :func:`lambda_sums`), without the RankNet factor or score
        normalisation.
    k : int, default=32
        The truncation of ``"topk"`` (XGBoost's ``lambdarank_num_pair_per_sample``).
    ranknet : bool, default=None
        The RankNet factor sigma(s+ - s-) of each pair (on for ``"topk"`` unless False);
        without it sigma is 1/2, its value at equal scores, as in XGBoost's first round.
    score_normalization : bool, default=None
        Divide each pair's ``|dAP|`` by ``|s+ - s-| + 0.01`` (unless all the ranking's scores are
        equal), as ``lambdarank_score_normalization``; on for ``"topk"`` unless False.
    query_normalization : bool, default=True
        Multiply a ranking's gradients and hessians by log2(1 + S) / S, S being the sum of
        2 ``|lambda|`` over its pairs, as ``lambdarank_normalization``.

    Returns
    -------
    grad, hess : ndarray of float64, shape (n_samples,)
        In row order, for ``xgb.train(obj=...)`` and the like. 0 for a ranking without
        positives or without negatives (``FixedLabels(...).n_single_class`` counts them).

    Notes
    -----
    Ranks as in :func:`lambda_sums` (XGBoost's stable sort). For a pair of opposite labels,
    positive at score s+ and negative at s-: delta = ``|dAP|`` (after score normalisation),
    sigma = 1 / (1 + exp(-(s+ - s-))), lambda = (sigma - 1) delta is added to the positive's
    gradient and subtracted from the negative's, and max(sigma (1 - sigma), 1e-16) 2 delta is
    added to both hessians. XGBoost does this in float32 (its predictions); here every step is
    float64. Top-k costs O(k n) per ranking, all pairs O(n); groups run in parallel.

    Examples
    --------
    >>> from fastpr.learn import lambdamart_gradients
    >>> grad, hess = lambdamart_gradients([0, 1], [0.0, 0.1])
    >>> grad.round(6), hess.round(6)
    (array([ 1.205492, -1.205492]), array([1.265717, 1.265717]))
    """
    refuse_sample_weight(sample_weight, "lambdamart_gradients")
    return FixedLabels(y_true, groups=groups, offsets=offsets, pos_label=pos_label
                       ).lambdamart_gradients(y_score, pairs=pairs, k=k, ranknet=ranknet,
                                              score_normalization=score_normalization,
                                              query_normalization=query_normalization,
                                              group_weight=group_weight)
