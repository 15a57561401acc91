"""Operating points under a constraint: the best single threshold and the best randomised mixture
of two (docs/math/operating.rst), read from one swept ranking.

:func:`fastpr.recall_at_precision`, :func:`fastpr.precision_at_recall`, :func:`fastpr.tpr_at_fpr`
and :func:`fastpr.tnr_at_tpr` sweep a ranking as :func:`fastpr.evaluate` does and walk it once
more for the best point at each level (:func:`query_once`), keeping none of its points; the
methods of the same names of :class:`fastpr.SweptRanking` prepare its points once
(:class:`Prepared`: O(n), cached on the SweptRanking) and answer each level by binary search.
"""
import dataclasses
import math
from dataclasses import dataclass

import numpy as np

from ._engine.kernels import operating as kernels
from ._engine.kernels.layout import N_THRESHOLDS, NEG_WEIGHT, POS_WEIGHT
from ._engine.ranking import sweep_ranking
from ._undefined import warn_undefined
from ._validation import Levels
from .results import Result, Table, number_text

# The constraint on every level, wherever it is taken.
LEVELS = Levels()
# Each kind: its kernel code, the rate it optimises and the one it constrains (as words), and
# the comparison of the constraint.
KINDS = {
    "recall_at_precision": (kernels.RECALL_AT_PRECISION, "recall", "precision", ">="),
    "precision_at_recall": (kernels.PRECISION_AT_RECALL, "precision", "recall", ">="),
    "tpr_at_fpr": (kernels.TPR_AT_FPR, "TPR", "FPR", "<="),
    "tnr_at_tpr": (kernels.TNR_AT_TPR, "TNR", "TPR", ">="),
}
# A mixture is reported only where it beats the best single threshold by more than this (in
# the rate's units): below it the two are the same point up to rounding.
GAIN_FLOOR = 1e-12


@dataclass(frozen=True, repr=False, eq=False)
class OperatingPoints(Result):
    """The best operating point under a constraint, at each level: at a single threshold and
    mixing two thresholds at random (the achievable point).

    Every field after ``n_neg`` is a float for one level, an array of one entry per level for
    several. NaN where no threshold meets the level (or the rates are undefined: no positives;
    no negatives for ``tpr_at_fpr`` and ``tnr_at_tpr``).

    Attributes
    ----------
    kind : str
        "recall_at_precision", "precision_at_recall", "tpr_at_fpr" or "tnr_at_tpr".
    n_pos, n_neg : float
        Total weight of the positives and of the negatives.
    level : float or ndarray
        The minimum precision, minimum recall, maximum FPR or minimum TPR.
    value : float or ndarray
        The best rate at a single threshold: recall, precision, TPR or TNR.
    threshold : float or ndarray
        That threshold: predict positive iff ``score >= threshold`` (``inf``: nothing).
    tp, fp, tn, fn : float or ndarray
        Confusion counts (weights) there.
    precision, recall, fpr, tnr : float or ndarray
        Its rates (recall is the TPR); precision is NaN where nothing is called positive.
    achievable : float or ndarray
        The best rate of a classifier that mixes two thresholds at random: predict positive iff
        ``score >= high_threshold``, and with probability ``mixing_probability`` where
        ``low_threshold <= score < high_threshold``. At least ``value``; equal to it, with the
        single threshold as both thresholds and probability 0, where mixing gains nothing.
    high_threshold, low_threshold, mixing_probability : float or ndarray
        That mixture.
    achievable_tp, achievable_fp, achievable_tn, achievable_fn : float or ndarray
        Its expected confusion counts.
    """

    kind: str
    n_pos: float
    n_neg: float
    level: object
    value: object
    threshold: object
    tp: object
    fp: object
    tn: object
    fn: object
    precision: object
    recall: object
    fpr: object
    tnr: object
    achievable: object
    high_threshold: object
    low_threshold: object
    mixing_probability: object
    achievable_tp: object
    achievable_fp: object
    achievable_tn: object
    achievable_fn: object

    def _tables(self):
        # One row per level, under a title of the kind and the class totals, for one level
        # as for several.
        columns = {f.name: np.atleast_1d(getattr(self, f.name)) for f in _LEVEL_FIELDS}
        title = (f"OperatingPoints(kind={self.kind!r}, n_pos={number_text(self.n_pos)}, "
                 f"n_neg={number_text(self.n_neg)})")
        return [Table(title, columns)]

    @property
    def constraint(self):
        """The constraint in words, as "precision >= level"."""
        _, _, rate, sign = KINDS[self.kind]
        return f"{rate} {sign} level"


_LEVEL_FIELDS = dataclasses.fields(OperatingPoints)[3:]


class Prepared:
    """A swept ranking ready for operating-point queries: its points as the kernels take them,
    the precision suffix of the points (built at the first query that needs it) and its ROC
    hull.

    Built in O(n) once; each level then costs O(log n)."""

    def __init__(self, thresholds, tp, fp, hull_thresholds, hull_tp, hull_fp, n_pos, n_neg):
        self.points = _stacked(thresholds, tp, fp)
        self.hull = _Hull(hull_thresholds, hull_tp, hull_fp, n_pos, n_neg)
        self._suffix = None

    def suffix(self):
        """The kernels' precision suffix of the points (``kernels.precision_suffix``)."""
        if self._suffix is None:
            suffix = np.empty(self.points.shape[1], dtype=np.int64)
            kernels.precision_suffix(self.points, self.points.shape[1], suffix)
            self._suffix = suffix
        return self._suffix

    def query(self, kind, level):
        """The :class:`OperatingPoints` of ``kind`` at ``level`` (a checked float or array)."""
        code = KINDS[kind][0]
        levels = np.atleast_1d(np.asarray(level, dtype=np.float64))
        n = self.points.shape[1]
        found = np.empty(levels.size, dtype=np.int64)
        suffix = self.suffix() if code <= kernels.PRECISION_AT_RECALL else _NO_SUFFIX
        kernels.best_indices(self.points, n, self.hull.n_pos, self.hull.n_neg, code, levels,
                             suffix, found)
        chosen = self.points[:, found]
        chosen[:, found < 0] = np.nan
        return self.hull.answer(kind, level, levels, chosen, n)


def query_once(ranking, kind, level):
    """The :class:`OperatingPoints` of ``kind`` at ``level`` (a checked float or array) of a
    sorted ranking, as :meth:`Prepared.query` gives them, for one query: the sweep of
    :func:`fastpr.evaluate` (the class totals and the hull) and one more walk that keeps only
    each level's best point (``kernels.best_points_in_one_walk``), instead of a sweep that
    stores every point (an O(n) buffer that costs more than the walk)."""
    swept = sweep_ranking(ranking)
    hull_fp, hull_tp, hull_thresholds = swept.hull.T.copy()
    hull = _Hull(hull_thresholds, hull_tp, hull_fp, swept.row[POS_WEIGHT],
                 swept.row[NEG_WEIGHT])
    levels = np.atleast_1d(np.asarray(level, dtype=np.float64))
    chosen = np.empty((3, levels.size))
    kernels.best_points_in_one_walk(ranking.pos, ranking.pos_weight, ranking.neg,
                                    ranking.neg_weight, hull.n_pos, hull.n_neg,
                                    KINDS[kind][0], levels, chosen)
    return hull.answer(kind, level, levels, chosen, int(swept.row[N_THRESHOLDS]) + 1)


class _Hull:
    """A ranking's ROC hull and class totals: the best mixture of two thresholds at each level,
    and the :class:`OperatingPoints` of the best single points found otherwise."""

    def __init__(self, thresholds, tp, fp, n_pos, n_neg):
        self.thresholds, self.tp, self.fp = thresholds, tp, fp
        self.n_pos, self.n_neg = float(n_pos), float(n_neg)
        self._rates = None

    def rates(self):
        """(FPR, TPR, precision) at the hull's vertices, precision from the first vertex after
        the origin (the origin's is the limit along the first segment: that vertex's) and made
        non-increasing (it is, up to rounding)."""
        if self._rates is None:
            tp, fp = self.tp, self.fp
            with np.errstate(invalid="ignore", divide="ignore"):  # (a class missing)
                precision = tp[1:] / (tp[1:] + fp[1:])
                self._rates = (fp / self.n_neg, tp / self.n_pos, np.minimum.accumulate(
                    np.concatenate([precision[:1], precision])))
        return self._rates

    def answer(self, kind, level, levels, chosen, n_points):
        """The :class:`OperatingPoints` of ``kind`` at ``level`` (``levels`` as an array) whose
        best single points are ``chosen`` (rows threshold, tp, fp; NaN where none meets the
        level), of a ranking of ``n_points`` operating points."""
        threshold, tp, fp = chosen
        met = ~np.isnan(tp)
        single = _Counts(tp, fp, self.n_pos, self.n_neg)
        value = single.rate(kind)
        high, low, mix, mixed = threshold, threshold, np.where(met, 0.0, np.nan), single
        if met.any() and n_points > 1:
            m_high, m_low, m_mix, m_tp, m_fp = self._mixture(kind, levels)
            gains = met & (_rate(kind, m_tp, m_fp, self.n_pos, self.n_neg) > value + GAIN_FLOOR)
            if gains.any():
                high, low, mix = (np.where(gains, new, old) for new, old in
                                  ((m_high, high), (m_low, low), (m_mix, mix)))
                mixed = _Counts(np.where(gains, m_tp, tp), np.where(gains, m_fp, fp),
                                self.n_pos, self.n_neg)
        columns = {"level": levels, "value": value, "threshold": threshold, "tp": tp, "fp": fp,
                   "tn": single.tn, "fn": single.fn, "precision": single.precision,
                   "recall": single.recall, "fpr": single.fpr, "tnr": single.tnr,
                   "achievable": mixed.rate(kind), "high_threshold": high, "low_threshold": low,
                   "mixing_probability": mix, "achievable_tp": mixed.tp,
                   "achievable_fp": mixed.fp, "achievable_tn": mixed.tn,
                   "achievable_fn": mixed.fn}
        if np.ndim(level) == 0:
            columns = {name: float(values[0]) for name, values in columns.items()}
        return OperatingPoints(kind, self.n_pos, self.n_neg, **columns)

    def _mixture(self, kind, levels):
        """(high threshold, low threshold, mixing probability, expected tp, expected fp) of the
        best mixture on the ROC hull at each level (read only where a single threshold meets
        the level, hence the rates are defined). Along the hull TPR and FPR rise and precision
        falls, so each level falls on one segment (from vertex ``a`` to vertex ``b = a + 1``),
        found by binary search, and the mixing probability solves the constraint along it."""
        thresholds, tp, fp = self.thresholds, self.tp, self.fp
        fpr, tpr, precision = self.rates()
        last = tp.size - 1
        with np.errstate(invalid="ignore", divide="ignore"):
            if kind == "tpr_at_fpr":
                # The last vertex within the FPR, then towards the next up to the level.
                a = np.minimum(np.searchsorted(fpr, levels, side="right") - 1, last)
                b = np.minimum(a + 1, last)
                mix = (levels * self.n_neg - fp[a]) / (fp[b] - fp[a])
            elif kind == "recall_at_precision":
                # The last vertex with precision >= level, then towards the next where the
                # precision reaches the level: (1 - level) tp = level fp.
                a = np.clip(np.searchsorted(-precision, -levels, side="right") - 1, 0, last)
                b = np.minimum(a + 1, last)
                mix = (((1 - levels) * tp[a] - levels * fp[a])
                       / (levels * (fp[b] - fp[a]) - (1 - levels) * (tp[b] - tp[a])))
            else:  # a TPR (recall) to reach: the first vertex that reaches it, from the one before
                b = np.clip(np.searchsorted(tpr, levels, side="left"), 1, last)
                a = b - 1
                mix = (levels * self.n_pos - tp[a]) / (tp[b] - tp[a])
                if kind == "precision_at_recall":
                    # At recall 0 precision along the first segment is its end's, from any
                    # probability above 0: that vertex alone.
                    mix = np.where(levels > 0, mix, 1.0)
        mix = np.clip(np.where((a == b) | np.isnan(mix), 0.0, mix), 0.0, 1.0)
        return (thresholds[a], thresholds[b], mix, tp[a] + mix * (tp[b] - tp[a]),
                fp[a] + mix * (fp[b] - fp[a]))


_NO_SUFFIX = np.empty(0, dtype=np.int64)


def _stacked(thresholds, tp, fp):
    """The points as one (3, n) array: the array that ``thresholds``, ``tp`` and ``fp`` are the
    rows of where they are (a SweptRanking's are), else a new one."""
    base = tp.base
    if (isinstance(base, np.ndarray) and base.shape == (3, tp.size) and base.dtype == np.float64
            and base.flags.c_contiguous and all(
                row.__array_interface__["data"][0] == base[k].__array_interface__["data"][0]
                for k, row in enumerate((thresholds, tp, fp)))):
        return base
    return np.ascontiguousarray(np.vstack([thresholds, tp, fp]), dtype=np.float64)


def _rate(kind, tp, fp, n_pos, n_neg):
    """The rate that ``kind`` optimises, of counts (arrays; the rates defined)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        if kind == "precision_at_recall":
            return tp / (tp + fp)
        return (n_neg - fp) / n_neg if kind == "tnr_at_tpr" else tp / n_pos


class _Counts:
    """Confusion counts (arrays of one entry per level, NaN where unmet) and their rates."""

    def __init__(self, tp, fp, n_pos, n_neg):
        self.tp, self.fp = tp, fp
        self.tn, self.fn = n_neg - fp, n_pos - tp
        with np.errstate(invalid="ignore", divide="ignore"):  # 0 / 0: undefined, NaN
            self.precision = tp / (tp + fp)
            self.recall = tp / n_pos if n_pos else np.full_like(tp, np.nan)
            self.fpr = fp / n_neg if n_neg else np.full_like(fp, np.nan)
            self.tnr = self.tn / n_neg if n_neg else np.full_like(fp, np.nan)

    def rate(self, kind):
        """The rate that ``kind`` optimises."""
        return {"recall_at_precision": self.recall, "precision_at_recall": self.precision,
                "tpr_at_fpr": self.recall, "tnr_at_tpr": self.tnr}[kind]


def warn_unmet(results, index=None, unit=None):
    """One ``UndefinedMetricWarning`` for the levels where ``results`` (OperatingPoints, one
    per ranking) are NaN, naming the levels and, for many rankings (``index`` labels them,
    ``unit`` names them in the plural), which rankings."""
    if not results:
        return
    kind = results[0].kind
    _, value_name, rate, sign = KINDS[kind]
    missing = {}
    undefined = []
    for position, result in enumerate(results):
        label = position if index is None else index[position]
        if result.n_pos == 0 or (kind in ("tpr_at_fpr", "tnr_at_tpr") and result.n_neg == 0):
            undefined.append(label)
            continue
        for level, value in zip(np.atleast_1d(result.level).tolist(),
                                np.atleast_1d(result.value).tolist()):
            if math.isnan(value):
                missing.setdefault(level, []).append(label)
    if index is None:
        if undefined:
            lacking = "positives" if results[0].n_pos == 0 else "negatives"
            warn_undefined(f"{kind} is undefined because y_true has no {lacking} (or they all "
                           "weigh 0); returning NaN.")
        elif missing:
            levels = ", ".join(number_text(level) for level in missing)
            warn_undefined(f"No threshold reaches {rate} {sign} {levels}: {kind} is NaN "
                           "there.")
        return
    parts = []
    if undefined:
        lacking = "positives" + (" or negatives" if kind in ("tpr_at_fpr", "tnr_at_tpr") else "")
        parts.append(f"{len(undefined)} of {len(results)} {unit} have no {lacking} "
                     f"({_named(undefined)})")
    for level, labels in missing.items():
        parts.append(f"no threshold reaches {rate} {sign} {number_text(level)} in "
                     f"{len(labels)} of {len(results)} {unit} ({_named(labels)})")
    if parts:
        warn_undefined(f"{kind} is NaN where " + "; ".join(parts) + ".")


def _named(labels, most=5):
    """The first few labels of rankings, as a warning names them."""
    shown = ", ".join(repr(label) if isinstance(label, str) else number_text(label)
                      for label in labels[:most])
    return shown + (f" and {len(labels) - most} more" if len(labels) > most else "")
