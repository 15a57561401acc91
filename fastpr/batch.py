"""Results for many rankings at once: :class:`EvaluationBatch` and :class:`MacroAverage`."""
import dataclasses
import math
from dataclasses import dataclass

import numpy as np

from ._kernels import batch as _kernels
from ._normalised import normalised_area
from ._results import Result
from .metrics import AREA_COLUMNS, Evaluation, check_method, method_field


@dataclass(frozen=True, repr=False)
class MacroAverage(Result):
    """The mean of one metric over the rankings where it is defined, and what it left out."""

    metric: str
    value: float
    n_used: int
    n_excluded: int


@dataclass(frozen=True, repr=False)
class EvaluationBatch(Result):
    """:class:`fastpr.Evaluation` of many rankings: the same fields, as arrays of one entry each.

    ``index`` names each ranking: row numbers of a 2-D batch, group ids (sorted) for ``groups=``,
    segment numbers for ``offsets=``, class labels for :mod:`fastpr.multiclass`. ``index_name``
    says which ("ranking", "group" or "class"). Rankings without positives (or, for the ROC
    metrics and ``auc_npr``, without negatives) hold NaN; ``n_pos`` and ``n_neg`` show why and
    :meth:`macro` leaves them out of the mean. ``result[i]`` is the :class:`Evaluation` of
    ranking ``i``, equal to a single call on it.
    """

    index: np.ndarray
    index_name: str
    n_pos: np.ndarray
    n_neg: np.ndarray
    prevalence: np.ndarray
    n_thresholds: np.ndarray
    auc_roc: np.ndarray
    auc_roc_hull: np.ndarray
    auc_pr: np.ndarray
    auc_pr_dg: np.ndarray
    average_precision: np.ndarray
    auc_pr_lower: np.ndarray
    auc_pr_upper: np.ndarray
    auc_pr_linear: np.ndarray
    auc_pr_hull: np.ndarray
    auc_pr_min: np.ndarray
    auc_npr: np.ndarray

    def __len__(self):
        return self.n_pos.size

    def __getitem__(self, i):
        """The :class:`Evaluation` of ranking ``i`` (a position, not an ``index`` label)."""
        return Evaluation(**{f.name: getattr(self, f.name)[i].item()
                             for f in dataclasses.fields(Evaluation)})

    @property
    def n_undefined_pr(self):
        """How many rankings have no positives, so that every PR area is NaN."""
        return int(np.count_nonzero(self.n_pos == 0))

    @property
    def n_undefined_roc(self):
        """How many rankings lack positives or negatives, so that AUC-ROC is NaN."""
        return int(np.count_nonzero((self.n_pos == 0) | (self.n_neg == 0)))

    def area(self, method):
        """The AUC-PR of one estimator for every ranking, by its :func:`auc_pr` method name."""
        return getattr(self, method_field(check_method(method)))

    def macro(self, metric="auc_pr"):
        """Mean of ``metric`` (a field name) over the rankings where it is defined (not NaN).

        ``macro("average_precision")`` over queries is the mean average precision (MAP).
        """
        values = getattr(self, metric)
        defined = ~np.isnan(values)
        n_used = int(np.count_nonzero(defined))
        value = float(values[defined].mean()) if n_used else math.nan
        return MacroAverage(metric, value, n_used, values.size - n_used)

    def to_frame(self):
        """A pandas DataFrame, one row per ranking, indexed by ``index`` (needs pandas)."""
        import pandas as pd

        columns = {f.name: getattr(self, f.name) for f in dataclasses.fields(Evaluation)}
        return pd.DataFrame(columns, index=pd.Index(self.index, name=self.index_name))


def batch_from_table(table, index, index_name):
    """The EvaluationBatch of a table from ``fastpr._batch``, field for field as Evaluation."""
    n_pos = table[:, _kernels.POS_WEIGHT].copy()
    n_neg = table[:, _kernels.NEG_WEIGHT].copy()
    areas = {name: table[:, _kernels.FIRST_AREA + column].copy()
             for name, column in AREA_COLUMNS.items()}
    auc_pr_min = table[:, _kernels.AUC_PR_MIN].copy()
    with np.errstate(divide="ignore", invalid="ignore"):
        prevalence = n_pos / (n_pos + n_neg)
    return EvaluationBatch(
        index=np.asarray(index),
        index_name=index_name,
        n_pos=n_pos,
        n_neg=n_neg,
        prevalence=prevalence,
        n_thresholds=table[:, _kernels.N_POINTS].astype(np.int64) - 1,
        auc_pr_min=auc_pr_min,
        auc_npr=normalised_area(areas["auc_pr"], auc_pr_min),
        **areas,
    )
