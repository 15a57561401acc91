"""One ranking from validated input to its row: split by class, sort each class, sweep once.

Sorting: NumPy's SIMD ``np.sort`` on each class's scores (values only; a large class in two
halves on two threads, then merged) and a merge-walk in the kernel, which gets ties right by
construction. Only weighted input needs a permutation, to carry each weight along with its
score. A ranking sorted by class
(:class:`SortedRanking`) is what every path sweeps: a table's rankings (``fastpr._engine.tables``),
a curve's, an Accumulator's compacted state, a bootstrap replicate under new weights.
"""
from dataclasses import dataclass

import numpy as np

from .kernels import rows
from .kernels.merge_sort import merge_halves
from .kernels.split import split_into
from .kernels.hull import HULL_COLUMNS
from .kernels.sweep import N_STATE, sweep_into
from .batch import run_all, threaded

_NO_WEIGHTS = np.empty(0)
_NO_POINTS = np.empty((3, 0))
_FLOAT32 = np.dtype(np.float32)
# Below this many scores in the smaller class, sorting on a second thread costs more than it saves.
_THREADED_SORT_MIN = 1 << 16
# From this many scores on, an unweighted class at least twice the size of the other and with
# few ties sorts as two halves on two threads, merged by two threads after: at 10^7 rows with 1%
# positives on the 2-core EPYC, evaluate took 1.11x np.sort of all the scores so, 1.28x in one
# sort (bench/compare.py at 1250911 and 3b763da).
_HALVES_SORT_MIN = 1 << 17
# Sorted float32 scores of rankings shorter than this are swept as float64. From here on the
# copy costs a tenth of the call or more (15 ms of 118 at 10^7 rows on the 2-core EPYC, where the
# float32 ratio to np.sort went from 1.25x to 1.41x; more where NumPy sorts float32 faster), so
# long float32 rankings keep a float32 sweep, which compiles at their first use.
_FLOAT32_SWEEP_MIN = 1 << 20


@dataclass(slots=True)
class SortedRanking:
    """Each class's scores sorted ascending, with matching weights (empty = unit weights).

    Not frozen: a frozen dataclass takes 0.8 us more to make, a twentieth of a drop-in curve's
    call at a thousand scores."""

    pos: np.ndarray
    pos_weight: np.ndarray
    neg: np.ndarray
    neg_weight: np.ndarray

    @property
    def size(self):
        return self.pos.size + self.neg.size


@dataclass(frozen=True)
class Swept:
    """One swept ranking: everything that results, curves and plots read from it.

    ``row`` is its row in the layout of ``fastpr._engine.kernels.rows`` (every statistic),
    ``hull`` the ROC-hull vertices as (fp, tp, threshold) rows, origin first, and ``points`` the
    operating points as rows (thresholds, tp, fp), origin first: no columns unless asked for.
    """

    row: np.ndarray
    hull: np.ndarray
    points: np.ndarray


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
    """((pos, pos_weight), (neg, neg_weight)) sorted as :func:`sort_split` sorts them."""
    ranking = sort_split(pos, pos_weight, neg, neg_weight)
    return (ranking.pos, ranking.pos_weight), (ranking.neg, ranking.neg_weight)


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


def _split(values, is_positive, n_positive):
    pos = np.empty(n_positive + 1, dtype=values.dtype)
    neg = np.empty(values.size - n_positive + 1, dtype=values.dtype)
    split_into(values, is_positive, pos, neg)
    return pos[:n_positive], neg[: values.size - n_positive]


def sort_validated(is_positive, scores, weights):
    """Split one validated ranking by class and sort each class (weights may be None)."""
    n_positive = int(np.count_nonzero(is_positive))
    pos, neg = _split(scores, is_positive, n_positive)
    pos_weight = neg_weight = None
    if weights is not None:
        pos_weight, neg_weight = _split(weights, is_positive, n_positive)
    return sort_split(pos, pos_weight, neg, neg_weight)


def sort_split(pos, pos_weight, neg, neg_weight):
    """Sort a ranking split by class (private copies, sorted in place; weights may be None).

    NumPy's sort releases the GIL, so on several threads large classes sort side by side, and an
    unweighted class at least twice the size of the other and with few ties sorts as two halves
    side by side (the other class after one of them).
    """
    large, small = max(pos.size, neg.size), min(pos.size, neg.size)
    halves = (pos_weight is None and large >= _HALVES_SORT_MIN and 2 * small <= large
              and threaded())
    if halves and neg.size >= pos.size and _mostly_distinct(neg):
        neg = _sorted_in_halves(neg, pos)  # pos in place
    elif halves and pos.size > neg.size and _mostly_distinct(pos):
        pos = _sorted_in_halves(pos, neg)  # neg in place
    elif small >= _THREADED_SORT_MIN:
        (pos, pos_weight), (neg, neg_weight) = run_all([lambda: _sorted_class(pos, pos_weight),
                                                        lambda: _sorted_class(neg, neg_weight)])
    elif pos_weight is None:  # in place, without a call per class
        pos.sort()
        neg.sort()
    else:
        (pos, pos_weight), (neg, neg_weight) = (_sorted_class(pos, pos_weight),
                                                _sorted_class(neg, neg_weight))
    if pos_weight is None:
        pos_weight = neg_weight = _NO_WEIGHTS
    if pos.dtype == _FLOAT32 and pos.size + neg.size < _FLOAT32_SWEEP_MIN:
        # float32 sorts faster in its own type; then, exactly as float64, the sweep and every
        # path after it need no float32 copy of their kernels, seconds at first use.
        pos, neg = pos.astype(np.float64), neg.astype(np.float64)
    return SortedRanking(pos, pos_weight, neg, neg_weight)


def record_into(ranking, row, points=_NO_POINTS):
    """Sweep a sorted ranking, writing its row into ``row`` and, when ``points`` has columns
    (more than the ranking's scores), its operating points; returns the hull vertices.

    Every call from Python into the sweep comes here: the steps of the kernels' ``rows.record``,
    one by one (see there why), with the sweep's buffers allocated here (see ``sweep_into``).
    """
    state = np.zeros(N_STATE)
    hull = np.empty((64, HULL_COLUMNS))
    arrays = ranking.pos, ranking.pos_weight, ranking.neg, ranking.neg_weight, points
    while (n_hull := sweep_into(*arrays, hull, state)) < 0:
        hull = np.concatenate([hull, np.empty_like(hull)])
    rows.write_row(state, row)
    return hull[:n_hull]


def sweep_ranking(ranking, *, with_points=False):
    """The :class:`Swept` of a sorted ranking; its operating points only ``with_points``."""
    points = np.empty((3, ranking.size + 1)) if with_points else _NO_POINTS
    row = np.empty(rows.N_COLUMNS)
    hull = record_into(ranking, row, points)
    if with_points:
        points = points[:, : int(row[rows.N_THRESHOLDS]) + 1].copy()
    return Swept(row, hull, points)


def row_of_state(state):
    """The row of a sweep finished elsewhere (``kernels.sweep.join_ranges``), from its state."""
    row = np.empty(rows.N_COLUMNS)
    rows.write_row(state, row)
    return row
