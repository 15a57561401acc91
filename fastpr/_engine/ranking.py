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
from .kernels.class_sort import sorted_classes, stable_argsort  # noqa: F401 (the API's)
from .kernels.hull import HULL_COLUMNS
from .kernels.layout import N_COLUMNS, N_THRESHOLDS
from .kernels.split import split_into
from .kernels.sweep import N_STATE, sweep_into

_NO_POINTS = np.empty((3, 0))
_FLOAT32 = np.dtype(np.float32)
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

    def __sizeof__(self):
        # Dask's scheduler reads it (dask.sizeof) to sweep a range where it lies.
        return object.__sizeof__(self) + sum(
            array.nbytes for array in (self.pos, self.pos_weight, self.neg, self.neg_weight)
            if array is not None)

    @property
    def size(self):
        return self.pos.size + self.neg.size


@dataclass(frozen=True)
class Swept:
    """One swept ranking: everything that results, curves and plots read from it.

    ``row`` is its row in the layout of ``fastpr._engine.kernels.layout`` (every statistic),
    ``hull`` the ROC-hull vertices as (fp, tp, threshold) rows, origin first, and ``points`` the
    operating points as rows (thresholds, tp, fp), origin first: no columns unless asked for.
    """

    row: np.ndarray
    hull: np.ndarray
    points: np.ndarray


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
    """Sort a ranking split by class (private copies, sorted in place; weights may be None)."""
    (pos, pos_weight), (neg, neg_weight) = sorted_classes(pos, pos_weight, neg, neg_weight)
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
    row = np.empty(N_COLUMNS)
    hull = record_into(ranking, row, points)
    if with_points:
        n_points = int(row[N_THRESHOLDS]) + 1
        if n_points < points.shape[1]:  # (every score distinct: every column is a point)
            points = points[:, :n_points].copy()
    return Swept(row, hull, points)


def swept_points(ranking):
    """(row, points, n_points) of a sorted ranking: its row, and its operating points in the
    first ``n_points`` columns of ``points``, a buffer as wide as the ranking plus one, left
    untrimmed (trimming copies three doubles per distinct score, a tenth of a sweep or more)."""
    points = np.empty((3, ranking.size + 1))
    row = np.empty(N_COLUMNS)
    record_into(ranking, row, points)
    return row, points, int(row[N_THRESHOLDS]) + 1


def row_of_state(state):
    """The row of a sweep finished elsewhere (``kernels.sweep.join_ranges``), from its state."""
    row = np.empty(N_COLUMNS)
    rows.write_row(state, row)
    return row
