"""The change in average precision for any swap or move of examples, in O(1) each."""
import numpy as np

from .. import _validation
from ._kernels import ap_deltas as _deltas
from ..exceptions import InputValueError
from ._rankings import Rankings
from ._weights import refuse_sample_weight


class SwapDelta:
    """One ranking prepared in O(n) to answer, in O(1) each, how much average precision changes
    when two examples swap places or one example moves to another position.

    Made by :func:`swap_delta`. The ranking orders examples by descending score, ties in row
    order (a stable sort); average precision is that of these positions. Changes are signed:
    AP after minus AP before.

    Attributes
    ----------
    order : ndarray of int64, shape (n_samples,)
        The example (row) at each position, best first.
    positions : ndarray of int64, shape (n_samples,)
        The position of each example: the inverse of ``order``.
    average_precision : float
        Average precision of the ranking as it stands.
    """

    def __init__(self, order, ranked_true):
        n = order.size
        self.order = order
        self.positions = np.empty(n, dtype=np.int64)
        self.positions[order] = np.arange(n)
        self._table = np.empty((n + 1, _deltas.N_COLUMNS))
        self.average_precision = float(_deltas.fill_table(ranked_true, self._table))

    def swap(self, i, j):
        """AP after examples ``i`` and ``j`` swap positions, minus AP before.

        Parameters
        ----------
        i, j : int or array-like of int
            Example (row) numbers in [0, n_samples), broadcast against each other.

        Returns
        -------
        float or ndarray of float64
            0 where both have the same label.
        """
        return self._answer(_deltas.swap_deltas, self._positions("i", i),
                            self._positions("j", j))

    def move(self, i, to):
        """AP after example ``i`` moves to position ``to`` (the examples between shift by one
        place to make room), minus AP before.

        Parameters
        ----------
        i : int or array-like of int
            Example (row) numbers in [0, n_samples).
        to : int or array-like of int
            Positions in [0, n_samples), 0 the best, broadcast against ``i``.

        Returns
        -------
        float or ndarray of float64
        """
        return self._answer(_deltas.move_deltas, self._positions("i", i),
                            _validation.indices("to", to, self.order.size))

    def _positions(self, name, examples):
        return self.positions[_validation.indices(name, examples, self.order.size)]

    def _answer(self, kernel, p, q):
        p, q = np.broadcast_arrays(p, q)
        out = np.empty(p.shape)
        kernel(self._table, np.ascontiguousarray(p).reshape(-1),
               np.ascontiguousarray(q).reshape(-1), out.reshape(-1))
        return float(out) if out.ndim == 0 else out


def swap_delta(y_true, y_score, *, pos_label=None, sample_weight=None):
    """Prepare one ranking to answer the change in average precision of any swap or move.

    Parameters
    ----------
    y_true, y_score, pos_label
        One ranking, as in :func:`fastpr.evaluate`; it must have positives.
    sample_weight : None
        Not defined here; anything else raises ValueError.

    Returns
    -------
    SwapDelta
        Its ``swap(i, j)`` and ``move(i, to)`` answer arrays of queries;
        ``fastpr.learn.kernels`` has the same answers for compiled code (``ap_delta_table``,
        ``swap_delta_at``, ``move_delta_at``).

    Notes
    -----
    O(n) after the sort: prefix sums over ranks of the positives' counts and of a few terms
    that a swap or a move adds or takes away from the positives it passes; each answer is then
    a few differences of them.

    Examples
    --------
    >>> from fastpr.learn import swap_delta
    >>> deltas = swap_delta([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.6])
    >>> round(deltas.average_precision, 6)
    0.833333
    >>> round(deltas.swap(1, 2), 6), round(deltas.move(2, 0), 6)
    (0.166667, 0.166667)
    """
    refuse_sample_weight(sample_weight, "swap_delta")
    rankings = Rankings(y_true, None, None, pos_label)
    if rankings.n_pos[0] == 0:
        raise InputValueError("{argument} has no positives, so average precision and its "
                              "changes are undefined.", argument="y_true")
    scores = rankings.checked_scores(y_score, find_nan=False).astype(np.float64, copy=False)
    return SwapDelta(*rankings.order(scores, np.empty(scores.size, dtype=np.uint64)))
