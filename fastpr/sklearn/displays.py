"""Displays in scikit-learn's manner: build with ``from_estimator`` or ``from_predictions``,
draw (again) with ``plot``; the curve, its area and the Artists stay as attributes.

They take scikit-learn's arguments and keep its attribute names; fastpr's extras (ROC hull,
achievable PR curve, unachievable region, iso-F1 lines) are options of ``plot``, off by default.
The legend stands inside the Axes where scikit-learn puts it (lower left for PR, lower right for
ROC and DET), in a smaller font and with long names wrapped where it would not fit them.
"""
import numpy as np

from .._engine.kernels import intermediate
from .._validation import Boolean
from ..curves import roc_curve_from_counts
from ..swept import interpolated_pr_curve
from ..plot.drawing import (
    draw_iso_f,
    draw_unachievable,
    fit,
    iso_f_levels,
    named,
    new_figure,
    ranking,
    set_caption,
    shared,
    unit_square,
)
from ._response import estimator_scores
from ..plot.figures import draw_achievable, draw_chance_roc, draw_roc_hull


def axis_label(text, pos_label):
    return text if pos_label is None else f"{text} (positive label: {pos_label})"


class Display:
    """What every display shares: building from an estimator, the name, the Axes."""

    _shown = ()
    _legend_loc = "lower right"  # scikit-learn's, inside the Axes

    @property
    def estimator_name(self):
        """``name``, under the attribute name of scikit-learn's older displays."""
        return self.name

    @classmethod
    def from_estimator(cls, estimator, X, y, *, sample_weight=None, response_method="auto",
                       pos_label=None, name=None, ax=None, **options):
        """Score ``X`` with a fitted binary classifier and draw its curve.

        Parameters
        ----------
        estimator : fitted classifier
            With two ``classes_`` and ``predict_proba`` or ``decision_function`` (a fitted
            scikit-learn classifier or Pipeline, for example).
        X : array-like of shape (n_samples, n_features)
            What the estimator scores.
        y : array-like of shape (n_samples,)
            The true labels.
        sample_weight : array-like of shape (n_samples,), optional
            Non-negative weights.
        response_method : {"auto", "predict_proba", "decision_function"}, default="auto"
            Where the scores come from; ``"auto"`` tries ``predict_proba`` first.
        pos_label : label, optional
            The positive class; ``estimator.classes_[1]`` by default. Its ``predict_proba``
            column is the score, or ``decision_function`` negated when it is ``classes_[0]``.
        name : str, optional
            The name in the legend; the estimator's class name by default.
        ax : matplotlib Axes, optional
            Where to draw; a new figure's Axes by default.
        **options
            As in ``from_predictions`` (``plot``'s options among them).

        Returns
        -------
        display
            Of the class this is called on.
        """
        y_score, pos_label = estimator_scores(estimator, X, response_method, pos_label)
        return cls.from_predictions(y, y_score, sample_weight=sample_weight, pos_label=pos_label,
                                    name=type(estimator).__name__ if name is None else name,
                                    ax=ax, **options)

    def _axes(self, ax, name):
        """Keep the Axes to draw on (a new figure's by default); the name to show."""
        self.ax_ = new_figure(grows=False)[1] if ax is None else ax
        self.figure_ = self.ax_.figure
        return self.name if name is None else name

    def _finish(self, despine):
        if self.swept is not None:
            set_caption(self.ax_, self.swept.evaluation)
        if despine:
            self.ax_.spines[["top", "right"]].set_visible(False)
        # Inside the Axes, as scikit-learn's displays keep it, on a new figure too: sized to
        # fit them (plot.drawing.fit's rules for a caller's figure).
        fit(self.ax_, self._legend_loc)

    def _needs_ranking(self, extra):
        if self.swept is None:
            raise ValueError(f"{extra} needs the ranking: build the display with "
                             "from_predictions or from_estimator, or pass swept=.")


class PrecisionRecallDisplay(Display):
    """The precision-recall curve, drawn correctly: between operating points precision follows
    the hyperbola of :func:`fastpr.interpolated_pr_curve`, not a step or a straight line.

    The legend shows the area under the drawn curve, fastpr's interpolated AUC-PR (``auc_pr``);
    scikit-learn's average precision (``average_precision``, its step-wise area) is kept as an
    attribute and shown only for a display made without ``auc_pr``.

    Parameters
    ----------
    precision, recall : ndarray
        The curve to draw, its points joined by straight lines. ``from_predictions`` gives the
        densely drawn interpolated curve (recall ascending), not the operating points of
        ``precision_recall_curve``, between which straight lines would be wrong.
    average_precision : float, optional
        scikit-learn's ``average_precision_score`` of the ranking.
    auc_pr : float, optional
        The area under ``precision`` over ``recall`` (fastpr's interpolated AUC-PR).
    name : str, optional
        The name in the legend.
    pos_label : label, optional
        The positive class, shown in the axis labels when given.
    prevalence_pos_label : float, optional
        The share of positives: the precision of a random ranking, for the chance level
        (weighted where the ranking is; scikit-learn counts the rows even then).
    swept : SweptRanking, optional
        The ranking the curve was drawn from; ``plot``'s extras and the caption read it.

    Attributes
    ----------
    line_ : matplotlib Line2D
        The curve.
    chance_level_ : matplotlib Line2D or None
        The chance level, when drawn.
    ax_, figure_ : matplotlib Axes and Figure
        Where it was drawn.
    evaluation : Evaluation or None
        Every summary of ``swept`` (:func:`fastpr.evaluate`).
    estimator_name : str or None
        ``name``.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from fastpr.sklearn import PrecisionRecallDisplay
    >>> d = PrecisionRecallDisplay.from_predictions([1, 0, 1, 1, 0, 0],
    ...                                             [0.9, 0.8, 0.7, 0.6, 0.6, 0.1],
    ...                                             name="model", plot_chance_level=True)
    >>> round(d.auc_pr, 4), round(d.average_precision, 4), d.prevalence_pos_label
    (0.7407, 0.7556, 0.5)
    >>> [text.get_text() for text in d.ax_.get_legend().get_texts()]
    ['model: AUC-PR 0.741', 'chance: AUC-PR 0.500']
    """

    _shown = ("AUC-PR",)
    _legend_loc = "lower left"

    def __init__(self, precision, recall, *, average_precision=None, auc_pr=None, name=None,
                 pos_label=None, prevalence_pos_label=None, swept=None):
        self.precision, self.recall = precision, recall
        self.average_precision, self.auc_pr = average_precision, auc_pr
        self.name, self.pos_label = name, pos_label
        self.prevalence_pos_label = prevalence_pos_label
        self.swept = swept
        self.evaluation = None if swept is None else swept.evaluation

    @classmethod
    def from_predictions(cls, y_true, y_score=None, *, sample_weight=None,
                         drop_intermediate=False, pos_label=None, name=None, ax=None,
                         max_recall_step=0.01, **plot_options):
        """Sort and sweep one ranking once, and draw its interpolated PR curve.

        Parameters
        ----------
        y_true, y_score, sample_weight, pos_label
            As in :func:`fastpr.evaluate`; or a :class:`fastpr.SweptRanking` alone.
        drop_intermediate : bool, default=False
            Taken for scikit-learn's signature: the curve is the same either way, since the
            points it drops (those between the first and last of one recall) lie on the
            vertical segment that joins those two.
        name : str, optional
            The name in the legend; none by default (scikit-learn writes "Classifier").
        ax : matplotlib Axes, optional
            Where to draw; a new figure's Axes by default.
        max_recall_step : float, default=0.01
            Largest recall gap between drawn points.
        **plot_options
            As in :meth:`plot`.

        Returns
        -------
        PrecisionRecallDisplay
        """
        Boolean().check("drop_intermediate", drop_intermediate)
        swept, _ = ranking(y_true, y_score, sample_weight, pos_label, cls._shown)
        curve = interpolated_pr_curve(swept, max_recall_step=max_recall_step)
        e = swept.evaluation
        display = cls(curve.precision, curve.recall, average_precision=e.average_precision,
                      auc_pr=e.auc_pr, name=name, pos_label=pos_label,
                      prevalence_pos_label=e.prevalence, swept=swept)
        return display.plot(ax, max_recall_step=max_recall_step, **plot_options)

    def plot(self, ax=None, *, name=None, curve_kwargs=None, plot_chance_level=False,
             chance_level_kw=None, achievable=False, unachievable=False, iso_f=(),
             max_recall_step=0.01, despine=False):
        """Draw the curve and the chosen extras.

        Parameters
        ----------
        ax : matplotlib Axes, optional
            Where to draw; a new figure's Axes by default.
        name : str, optional
            The name in the legend; ``self.name`` by default.
        curve_kwargs : dict, optional
            Passed to matplotlib's ``plot`` for the curve.
        plot_chance_level : bool, default=False
            Draw the precision of a random ranking, ``prevalence_pos_label`` (also its AUC-PR).
        chance_level_kw : dict, optional
            Passed to matplotlib's ``plot`` for the chance level.
        achievable : bool, default=False
            Also draw the achievable PR curve (the ROC hull in PR space), a wide pale band of
            the curve's colour behind it, sharing its legend entry.
        unachievable : bool, default=False
            Shade the region no ranking can enter at this prevalence (listed in the legend
            where it is thick enough to see); none where a class is missing.
        iso_f : sequence of float or bool, default=()
            Draw the lines of these constant F1 values, each in (0, 1); True for
            ``fastpr.plot.ISO_F1_LEVELS``, False or ``()`` for none.
        max_recall_step : float, default=0.01
            Largest recall gap between drawn points of the achievable curve.
        despine : bool, default=False
            Hide the top and right spines.

        Returns
        -------
        PrecisionRecallDisplay
            ``self``.
        """
        name = self._axes(ax, name)
        ax = self.ax_
        if achievable:
            self._needs_ranking("achievable")
        area = (f"AUC-PR {self.auc_pr:.3f}" if self.auc_pr is not None else
                f"AP {self.average_precision:.3f}" if self.average_precision is not None else "")
        if achievable:
            area += f", achievable {self.evaluation.auc_pr_hull:.3f}"
        (self.line_,) = ax.plot(self.recall, self.precision,
                                **{"label": named(name, area), **(curve_kwargs or {})})
        if achievable:
            draw_achievable(ax, self.swept, self.line_.get_label(), self.line_.get_color(),
                            max_recall_step)
        if unachievable:
            self._needs_ranking("unachievable")
            if 0 < self.evaluation.prevalence < 1:  # (one class: no region, as in plot_pr)
                draw_unachievable(ax, self.evaluation.prevalence, self.evaluation.auc_pr_min)
        draw_iso_f(ax, iso_f_levels(iso_f))
        self.chance_level_ = None
        if plot_chance_level:
            if self.prevalence_pos_label is None:
                raise ValueError("plot_chance_level needs prevalence_pos_label: pass it to "
                                 "PrecisionRecallDisplay, or build the display with "
                                 "from_predictions or from_estimator.")
            p = self.prevalence_pos_label
            (self.chance_level_,) = ax.plot(
                (0, 1), (p, p), **{"color": "k", "linestyle": "--", "linewidth": 1,
                                   "label": f"chance: AUC-PR {p:.3f}", **(chance_level_kw or {})})
            shared(self.chance_level_)
        unit_square(ax, axis_label("recall", self.pos_label),
                    axis_label("precision", self.pos_label))
        self._finish(despine)
        return self


class RocCurveDisplay(Display):
    """The ROC curve, with fastpr's convex hull as an option.

    The legend shows AUC-ROC (``roc_auc``), and the hull's area when the hull is drawn.

    Parameters
    ----------
    fpr, tpr : ndarray
        The operating points, from the origin.
    roc_auc : float, optional
        The area under the curve.
    name : str, optional
        The name in the legend.
    pos_label : label, optional
        The positive class, shown in the axis labels when given.
    swept : SweptRanking, optional
        The ranking the curve was drawn from; the hull and the caption read it.

    Attributes
    ----------
    line_ : matplotlib Line2D
        The curve.
    chance_level_ : matplotlib Line2D or None
        The diagonal of random rankings, when drawn.
    ax_, figure_ : matplotlib Axes and Figure
        Where it was drawn.
    evaluation : Evaluation or None
        Every summary of ``swept`` (:func:`fastpr.evaluate`).
    estimator_name : str or None
        ``name``.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from fastpr.sklearn import RocCurveDisplay
    >>> d = RocCurveDisplay.from_predictions([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], hull=True)
    >>> d.roc_auc, d.fpr, d.ax_.get_xlabel()
    (0.75, array([0. , 0. , 0.5, 0.5, 1. ]), 'false positive rate')
    >>> [text.get_text() for text in d.ax_.get_legend().get_texts()]
    ['AUC-ROC 0.750, hull 0.875']
    """

    _shown = ("AUC-ROC",)

    def __init__(self, fpr, tpr, *, roc_auc=None, name=None, pos_label=None, swept=None):
        self.fpr, self.tpr, self.roc_auc = fpr, tpr, roc_auc
        self.name, self.pos_label = name, pos_label
        self.swept = swept
        self.evaluation = None if swept is None else swept.evaluation

    @classmethod
    def from_predictions(cls, y_true, y_score=None, *, sample_weight=None, pos_label=None,
                         drop_intermediate=True, name=None, ax=None, **plot_options):
        """Sort and sweep one ranking once, and draw its ROC curve.

        Parameters
        ----------
        y_true, y_score, sample_weight, pos_label
            As in :func:`fastpr.evaluate`; or a :class:`fastpr.SweptRanking` alone.
        drop_intermediate : bool, default=True
            Leave out operating points collinear with their neighbours (the curve is the
            same), as scikit-learn's ``roc_curve`` does.
        name : str, optional
            The name in the legend.
        ax : matplotlib Axes, optional
            Where to draw; a new figure's Axes by default.
        **plot_options
            As in :meth:`plot`.

        Returns
        -------
        RocCurveDisplay
        """
        swept, _ = ranking(y_true, y_score, sample_weight, pos_label, cls._shown)
        thresholds, tp, fp = swept.thresholds, swept.tp, swept.fp
        if drop_intermediate:  # scikit-learn's, on copies (swept's arrays are shared)
            points = np.array([thresholds, tp, fp], dtype=np.float64)
            n = intermediate.drop_intermediate(*points, 1, intermediate.COLLINEAR)
            thresholds, tp, fp = points[:, :n]
        # NaN rates where a class is missing, which the evaluation has warned about already.
        curve = roc_curve_from_counts(thresholds, tp, fp)
        display = cls(curve.fpr, curve.tpr, roc_auc=swept.evaluation.auc_roc, name=name,
                      pos_label=pos_label, swept=swept)
        return display.plot(ax, **plot_options)

    def plot(self, ax=None, *, name=None, curve_kwargs=None, plot_chance_level=False,
             chance_level_kw=None, hull=False, despine=False):
        """Draw the curve and the chosen extras.

        Parameters
        ----------
        ax : matplotlib Axes, optional
            Where to draw; a new figure's Axes by default.
        name : str, optional
            The name in the legend; ``self.name`` by default.
        curve_kwargs : dict, optional
            Passed to matplotlib's ``plot`` for the curve.
        plot_chance_level : bool, default=False
            Draw the diagonal of random rankings (AUC-ROC 0.5).
        chance_level_kw : dict, optional
            Passed to matplotlib's ``plot`` for the diagonal.
        hull : bool, default=False
            Also draw the ROC convex hull, a wide pale band of the curve's colour behind it,
            sharing its legend entry.
        despine : bool, default=False
            Hide the top and right spines.

        Returns
        -------
        RocCurveDisplay
            ``self``.
        """
        name = self._axes(ax, name)
        ax = self.ax_
        if hull:
            self._needs_ranking("hull")
        area = "" if self.roc_auc is None else f"AUC-ROC {self.roc_auc:.3f}"
        if hull:
            area += f", hull {self.evaluation.auc_roc_hull:.3f}"
        (self.line_,) = ax.plot(self.fpr, self.tpr,
                                **{"label": named(name, area), **(curve_kwargs or {})})
        if hull:
            draw_roc_hull(ax, self.swept, self.line_.get_label(), self.line_.get_color())
        self.chance_level_ = None
        if plot_chance_level:
            self.chance_level_ = shared(draw_chance_roc(
                ax, **{"color": "k", "linestyle": "--", "linewidth": 1,
                       "label": "chance: AUC-ROC 0.500", **(chance_level_kw or {})}))
        unit_square(ax, axis_label("false positive rate", self.pos_label),
                    axis_label("true positive rate", self.pos_label))
        self._finish(despine)
        return self

