"""NumPy's sort of a ranking's two classes, from Python and from compiled code (``radix``):
NumPy's SIMD sort on each class's scores (values only; a large class in two halves on two threads,
then merged), and a stable permutation only where weights must ride along with their scores.
"""
import numpy as np

from ..batch import run_all, threaded
from .merge_sort import merge_halves

_NO_WEIGHTS = np.empty(0)
# Below this many scores in the smaller class, sorting on a second thread costs more than it saves.
_THREADED_SORT_MIN = 1 << 16
# From this many scores on, an unweighted class at least twice the size of the other and with
# few ties sorts as two halves on two threads, merged by two threads after: at 10^7 rows with 1%
# positives on the 2-core EPYC, evaluate took 1.11x np.sort of all the scores so, 1.28x in one
# sort (bench/compare.py at 1250911 and 3b763da).
_HALVES_SORT_MIN = 1 << 17


def stable_argsort(values):
    """``np.argsort(values, kind="stable")`` of a 1-D array without NaN, several times faster
    when few values tie.

    NumPy's default argsort is a SIMD quicksort that leaves equal values in any order; putting
    each run of equal values back in index order gives exactly the stable permutation. Where
    more than one value in 16 ties, that repair costs more than it saves and the stable sort
    runs instead.
    """
    n = values.size
    order = np.argsort(values)
    ranked = values[order]
    tie = ranked[1:] == ranked[:-1]
    n_tied = np.count_nonzero(tie)
    if n_tied == 0:
        return order
    if n_tied > n // 16 or n >= 1 << 31:  # (run, index) keys below must fit in int64
        return np.argsort(values, kind="stable")
    in_run = np.zeros(n, dtype=bool)
    in_run[1:] = tie
    in_run[:-1] |= tie
    positions = np.flatnonzero(in_run)
    run = np.cumsum(np.r_[True, ~tie])[positions]
    keys = run * n + order[positions]
    keys.sort()
    order[positions] = keys % n
    return order


def _sorted_class(scores, weights):
    """Sort one class's private copy in place, carrying weights along when there are any."""
    if weights is None:
        scores.sort()
        return scores, _NO_WEIGHTS
    order = stable_argsort(scores)
    return scores[order], weights[order]


def sorted_classes(pos, pos_weight, neg, neg_weight):
    """Sort both classes. NumPy's sort releases the GIL, so on several threads large classes
    sort side by side, and an unweighted class at least twice the size of the other and with
    few ties sorts as two halves side by side (the other class after one of them)."""
    large, small = max(pos.size, neg.size), min(pos.size, neg.size)
    if pos_weight is None and large >= _HALVES_SORT_MIN and 2 * small <= large and threaded():
        if neg.size >= pos.size and _mostly_distinct(neg):
            neg = _sorted_in_halves(neg, pos)  # pos in place
            return (pos, _NO_WEIGHTS), (neg, _NO_WEIGHTS)
        if pos.size > neg.size and _mostly_distinct(pos):
            pos = _sorted_in_halves(pos, neg)  # neg in place
            return (pos, _NO_WEIGHTS), (neg, _NO_WEIGHTS)
    if small < _THREADED_SORT_MIN:
        if pos_weight is None:  # in place, without a call per class
            pos.sort()
            neg.sort()
            return (pos, _NO_WEIGHTS), (neg, _NO_WEIGHTS)
        return _sorted_class(pos, pos_weight), _sorted_class(neg, neg_weight)
    return run_all([lambda: _sorted_class(pos, pos_weight), lambda: _sorted_class(neg, neg_weight)])


def _mostly_distinct(scores):
    """Whether at most 1% of a strided sample of about 1,024 scores tie: NumPy sorts scores with
    few distinct values about three times faster (10^7 rounded to 2 decimals: 61 ms, distinct
    ones 178 ms on the 2-core EPYC), and there merging two sorted halves costs more than
    sorting them side by side saves (evaluate/np.sort 1.63x against 1.46x)."""
    sample = np.sort(scores[:: max(1, scores.size // 1024)])
    return np.count_nonzero(sample[1:] == sample[:-1]) <= sample.size // 100


def _sorted_in_halves(large, small):
    """``large`` sorted (a new array), and ``small`` sorted in place: the two parts of
    ``large`` sort in place on two threads, the second of which then sorts ``small``, and two
    threads merge the parts, each writing one half of the result."""
    n = large.size
    # The first part takes as many scores as the second and ``small`` together: at 10^6 rows on
    # the EPYC, even halves took 12.65 and 11.90 ms with 30% and 10% positives, these 10.52 and
    # 11.33 ms (medians of 15 interleaved; no change at 1%).
    middle = (n + small.size) // 2

    def second_half_then_small():
        large[middle:].sort()
        small.sort()

    run_all([large[:middle].sort, second_half_then_small])
    if np.isnan(large[middle - 1]) or np.isnan(large[-1]):
        # NaN sorts last in each half, and would land inside the merge: callers that have not
        # rejected NaN yet look for it at the end, where a whole sort puts it.
        large.sort()
        return large
    merged = np.empty_like(large)
    run_all([lambda: merge_halves(large, middle, merged, 0, n // 2),
             lambda: merge_halves(large, middle, merged, n // 2, n)])
    return merged
