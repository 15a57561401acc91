"""Precision and recall of the k highest scores, exact under ties (docs/math/top_k.rst): P@k and
R-precision, per ranking or per query."""
from dataclasses import dataclass

import numpy as np

from ._engine.kernels.layout import NEG_WEIGHT, POS_WEIGHT
from ._engine.kernels.top_k import at_k
from ._engine.ranking import SortedRanking, sweep_ranking
from ._engine.tables import read_each
from ._rankings import rankings_of
from ._undefined import PLURALS, warn_if_undefined
from ._validation import Cutoffs, options
from .results import Result, Table

_UNIT_WEIGHTS = np.empty(0)
# Each row of a TopK's table: its fields, as one number per (ranking, k).
_COLUMNS = ("k", "tp", "fp", "precision", "recall", "threshold", "n_tied", "n_taken", "n_pos",
            "n_rows")


@dataclass(frozen=True, repr=False, eq=False)
class TopK(Result):
    """The k highest-scored rows of one ranking or of many (:func:`fastpr.top_k`).

    Every field holds one entry per (ranking, k): a number for one ranking and one ``k``; an
    array over the ``k`` given for one ranking, over the rankings for one ``k`` (or
    ``k="positives"``), of shape (n_rankings, n_k) for both. ``index`` names the rankings
    (group ids, model names, row numbers; None for one ranking) and ``index_name`` says which.

    Attributes
    ----------
    k : int
        Rows taken (for ``k="positives"``, the ranking's positive rows).
    tp, fp : float
        Expected positive and negative weight among them (counts without weights): the weight
        scored above the k-th row's tie group, plus ``n_taken / n_tied`` of the group's.
    precision : float
        ``tp / k`` without weights (rows beyond a short ranking count as negatives, as
        trec_eval counts them); ``tp / (tp + fp)`` with weights. NaN where nothing is taken.
    recall : float
        ``tp / n_pos``; NaN without positives.
    threshold : float
        The k-th highest score; NaN where ``k`` exceeds the rows.
    n_tied : int
        Rows scored at ``threshold`` (0 where ``k`` exceeds the rows).
    n_taken : int
        Of them, how many the k take: ``k`` minus the rows scored above.
    n_pos : float
        Total positive weight of the ranking.
    n_rows : int
        Rows of the ranking.
    """

    k: object
    tp: object
    fp: object
    precision: object
    recall: object
    threshold: object
    n_tied: object
    n_taken: object
    n_pos: object
    n_rows: object
    index: np.ndarray = None
    index_name: str = None

    def _tables(self):
        """One row per (ranking, k): the ranking's ``index`` label (repeated for each k), then
        the fields."""
        columns = {name: np.ravel(getattr(self, name)) for name in _COLUMNS}
        index = None
        n_k = columns["k"].size // (1 if self.index is None else self.index.size)
        if self.index is not None:
            index = np.repeat(self.index, n_k)
        title = "TopK" if self.index is None else f"TopK of {self.index.size} rankings"
        return [Table(title, columns, index, self.index_name)]


def _weight_points(ranking, points):
    """Weighted operating points over the thresholds of ``points`` (those of the ranking's
    rows, unit weights): at each, the weights of the rows scored at or above it."""
    thresholds = points[0, 1:]
    out = np.zeros_like(points)
    out[0] = points[0]
    for row, scores, weights in ((1, ranking.pos, ranking.pos_weight),
                                 (2, ranking.neg, ranking.neg_weight)):
        # Sums from the highest score down, so the weight at or above a threshold is a prefix.
        from_top = np.concatenate([[0.0], np.cumsum(weights[::-1])])
        at_or_above = scores.size - np.searchsorted(scores, thresholds, side="left")
        out[row, 1:] = from_top[at_or_above]
    return out


def _read(ks, weighted):
    """The reader of one sorted ranking: a (n_k, 10) array of the columns of a TopK."""

    def read(ranking):
        rows = SortedRanking(ranking.pos, _UNIT_WEIGHTS, ranking.neg, _UNIT_WEIGHTS)
        swept = sweep_ranking(rows, with_points=True)
        points = swept.points
        n_points = points.shape[1]
        n_rows = ranking.size
        if weighted:
            n_pos, n_neg = float(ranking.pos_weight.sum()), float(ranking.neg_weight.sum())
            weights = _weight_points(ranking, points)
        else:
            n_pos, n_neg = swept.row[POS_WEIGHT], swept.row[NEG_WEIGHT]
            weights = points
        cutoffs = np.atleast_1d(ranking.pos.size if isinstance(ks, str) else ks)
        out = np.empty((cutoffs.size, len(_COLUMNS)))
        for i, k in enumerate(cutoffs.tolist()):
            c, tp, fp = at_k(points, weights, n_points, k)
            if c == n_points:  # k beyond the rows: all of them
                tp, fp, threshold, n_tied, n_taken = n_pos, n_neg, np.nan, 0, 0
            elif c == 0:  # k = 0 ("positives" of a ranking without any): nothing taken
                threshold, n_tied, n_taken = np.nan, 0, 0
            else:
                above = points[1, c - 1] + points[2, c - 1]
                threshold, n_tied = points[0, c], points[1, c] + points[2, c] - above
                n_taken = k - above
            taken = tp + fp if weighted else k
            with np.errstate(invalid="ignore", divide="ignore"):  # NaN where nothing is taken
                precision = np.float64(tp) / taken
                recall = np.float64(tp) / n_pos
            out[i] = (k, tp, fp, precision, recall, threshold, n_tied, n_taken, n_pos, n_rows)
        return out

    return read


@options(k=Cutoffs())
def top_k(y_true, y_score, k, *, sample_weight=None, pos_label=None, groups=None, offsets=None):
    """Precision and recall of the k highest scores, exact when the k-th score is tied.

    Parameters
    ----------
    y_true, y_score, sample_weight, pos_label, groups, offsets
        As in :func:`fastpr.evaluate`: a 2-D ``y_score``, a table of models, ``groups`` (one
        ranking per query: P@k per query) or ``offsets`` give one result per ranking.
    k : int, sequence of int, or "positives"
        How many rows to take (rows, with or without weights), each >= 1; several at once cost
        one sort. ``"positives"``: as many as the ranking has positive rows, which makes the
        precision R-precision (equal to the recall there).

    Returns
    -------
    TopK
        ``k``, the expected ``tp`` and ``fp``, ``precision``, ``recall``, the k-th score
        (``threshold``), the rows tied with it (``n_tied``) and how many of them the k take
        (``n_taken``): numbers for one ranking and one ``k``, arrays otherwise (see
        :class:`fastpr.TopK`); ``to_frame()`` gives one row per (ranking, k).

    Notes
    -----
    Where the k-th score is tied, which of its tie group's rows the k hold is not determined by
    the scores. Every order of the group as likely, ``tp`` and ``fp`` are their expected values:
    the counts above the group plus ``n_taken / n_tied`` of the group's. That is the point at k
    rows on the interpolated curve between the operating points, and without weights the
    precision is the expected precision over the orders (k is fixed). Without ties it is the
    plain count: with ``groups=``, the precision is trec_eval's ``P_k`` (rows beyond a short
    ranking count as non-relevant: ``tp / k``) and, with ``k="positives"``, its ``Rprec``, R
    being the positive rows of the query (trec_eval takes R from its relevance judgments, which
    may hold relevant documents that the run did not retrieve, and breaks ties by document
    name).

    With ``sample_weight``, ``k`` still counts rows and the group is taken in proportion of its
    rows, while ``tp`` and ``fp`` are weights: ``precision = tp / (tp + fp)`` and
    ``recall = tp / n_pos``, the expected weights taken. Rows beyond a short ranking weigh
    nothing, so there the precision is that of the whole ranking. Integer weights are therefore
    not repeated rows (repeating a row adds rows that ``k`` counts), except for equal weights c
    (``k`` rows of weight c are the ``c k`` repeated rows) and where the k-th score is not tied
    (the ``k`` rows are the first ``sum of their weights`` repeated rows).

    Cost: one sort and one pass per ranking, then O(log n) per ``k``.

    Examples
    --------
    >>> import fastpr
    >>> y, s = [1, 0, 1, 1, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.6, 0.1]
    >>> fastpr.top_k(y, s, 4)
    TopK
    k   tp   fp  precision  recall  threshold  n_tied  n_taken  n_pos  n_rows
    4  2.5  1.5      0.625  0.8333        0.6       2        1      3       6

    P@2 and R-precision per query:

    >>> fastpr.top_k([1, 0, 1, 0, 0, 1], [0.9, 0.8, 0.7, 0.6, 0.5, 0.4], [2, 3],
    ...              groups=["a", "a", "a", "b", "b", "b"]).precision
    array([[0.5       , 0.66666667],
           [0.        , 0.33333333]])
    >>> fastpr.top_k([1, 0, 1, 0, 0, 1], [0.9, 0.8, 0.7, 0.6, 0.5, 0.4], "positives",
    ...              groups=["a", "a", "a", "b", "b", "b"]).precision
    array([0.5, 0. ])
    """
    rankings = rankings_of(y_true, y_score, sample_weight, pos_label, groups, offsets,
                           nan_in_sort=False)
    table = np.array(read_each(rankings, _read(k, rankings.weights is not None)))
    # (n_rankings, n_k) for every field, then the axes the input did not ask for dropped.
    fields = {name: table[..., j] for j, name in enumerate(_COLUMNS)}
    for name in ("k", "n_tied", "n_taken", "n_rows"):
        fields[name] = fields[name].astype(np.int64)
    n_pos, metric = fields["n_pos"][:, 0], "R-precision" if isinstance(k, str) else "Recall at k"
    if rankings.index is None:
        warn_if_undefined(n_pos[0], None, metric)
    else:
        warn_if_undefined(n_pos, None, metric, unit=PLURALS[rankings.index_name])
    squeeze = (0 if rankings.index is None else slice(None),
               0 if isinstance(k, (str, int)) else slice(None))
    fields = {name: _plain(value[squeeze]) for name, value in fields.items()}
    return TopK(**fields, index=rankings.index, index_name=None if rankings.index is None
                else rankings.index_name)


def _plain(value):
    """A NumPy scalar as a Python number; arrays as they are."""
    return value.item() if isinstance(value, np.generic) else value
