"""The detection error tradeoff display, in scikit-learn's manner (``DetCurveDisplay``)."""
from statistics import NormalDist

import numpy as np

from .curves import det_curve
from .displays import Display, axis_label

# Where the DET axes put their ticks, as error rates: scikit-learn's, then fewer for Axes too
# small to hold all their labels apart.
_DET_TICKS = (0.001, 0.01, 0.05, 0.2, 0.5, 0.8, 0.95, 0.99, 0.999)
_FEWER_TICKS = ((0.01, 0.1, 0.5, 0.9, 0.99), (0.01, 0.5, 0.99))
_LIMIT = 3.0  # both axes span normal deviates -3 to 3


def _probit(rates):
    """Normal deviates of the rates, -inf at 0 and inf at 1 (drawn off the Axes)."""
    normal = NormalDist()
    return np.array([-np.inf if rate <= 0 else np.inf if rate >= 1 else normal.inv_cdf(rate)
                     for rate in np.asarray(rates, dtype=np.float64)])


def _set_ticks(axis, rates):
    axis.set_ticks(_probit(rates), [f"{rate:.1%}" if rate < 0.01 or rate > 0.99 else
                                    f"{rate:.0%}" for rate in rates])


def _labels_apart(axis, length, size):
    """Whether the axis's tick labels within the limits stand apart, a gap of at least a quarter
    of a label between two, along an axis ``length`` pixels long (``size``: a label's length)."""
    drawn = [(loc, size(label.get_window_extent())) for loc, label in
             zip(axis.get_majorticklocs(), axis.get_ticklabels()) if abs(loc) <= _LIMIT]
    per_unit = length / (2 * _LIMIT)
    return all((b - a) * per_unit >= 0.625 * (first + second)
               for (a, first), (b, second) in zip(drawn, drawn[1:]))


class DetCurveDisplay(Display):
    """The detection error tradeoff: false negative rate against false positive rate, both on
    normal-deviate scales, where binormal scores give straight lines.

    Parameters
    ----------
    fpr, fnr : ndarray
        The operating points, as :func:`fastpr.sklearn.det_curve` gives them.
    name : str, optional
        The name in the legend.
    pos_label : label, optional
        The positive class, shown in the axis labels when given.

    Attributes
    ----------
    line_ : matplotlib Line2D
        The curve.
    ax_, figure_ : matplotlib Axes and Figure
        Where it was drawn.
    estimator_name : str or None
        ``name``.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from fastpr.sklearn import DetCurveDisplay
    >>> d = DetCurveDisplay.from_predictions([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], name="model")
    >>> d.fpr, d.fnr, d.ax_.get_legend().get_texts()[0].get_text()
    (array([0.5, 0.5, 0. ]), array([0. , 0.5, 0.5]), 'model')
    """

    swept = None

    def __init__(self, *, fpr, fnr, name=None, pos_label=None):
        self.fpr, self.fnr = fpr, fnr
        self.name, self.pos_label = name, pos_label

    @classmethod
    def from_predictions(cls, y_true, y_score, *, sample_weight=None, pos_label=None,
                         drop_intermediate=True, name=None, ax=None, **plot_options):
        """Draw the DET curve of one ranking.

        Parameters
        ----------
        y_true, y_score, sample_weight, pos_label
            As in :func:`fastpr.sklearn.det_curve`.
        drop_intermediate : bool, default=True
            Keep only the first and last point of each false negative rate.
        name : str, optional
            The name in the legend.
        ax : matplotlib Axes, optional
            Where to draw; a new figure's Axes by default.
        **plot_options
            As in :meth:`plot`.

        Returns
        -------
        DetCurveDisplay
        """

        fpr, fnr, _ = det_curve(y_true, y_score, pos_label=pos_label,
                                sample_weight=sample_weight, drop_intermediate=drop_intermediate)
        return cls(fpr=fpr, fnr=fnr, name=name, pos_label=pos_label).plot(ax, **plot_options)

    def plot(self, ax=None, *, name=None, curve_kwargs=None, despine=False):
        """Draw the curve on normal-deviate axes ticked in error rates.

        Parameters
        ----------
        ax : matplotlib Axes, optional
            Where to draw; a new figure's Axes by default.
        name : str, optional
            The name in the legend; ``self.name`` by default.
        curve_kwargs : dict, optional
            Passed to matplotlib's ``plot`` for the curve.
        despine : bool, default=False
            Hide the top and right spines.

        Returns
        -------
        DetCurveDisplay
            ``self``.
        """
        name = self._axes(ax, name)
        ax = self.ax_
        (self.line_,) = ax.plot(_probit(self.fpr), _probit(self.fnr),
                                **{"label": name or "", **(curve_kwargs or {})})
        for axis in (ax.xaxis, ax.yaxis):
            _set_ticks(axis, _DET_TICKS)
        ax.set_xlim(-_LIMIT, _LIMIT)
        ax.set_ylim(-_LIMIT, _LIMIT)
        ax.set_xlabel(axis_label("false positive rate", self.pos_label))
        ax.set_ylabel(axis_label("false negative rate", self.pos_label))
        self._finish(despine)  # (lays out a figure that has a layout engine)
        box = ax.get_window_extent()
        for axis, length, size in ((ax.xaxis, box.width, lambda extent: extent.width),
                                   (ax.yaxis, box.height, lambda extent: extent.height)):
            for fewer in _FEWER_TICKS:
                if _labels_apart(axis, length, size):
                    break
                _set_ticks(axis, fewer)
        return self
