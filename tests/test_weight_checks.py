"""Every entry point that takes weights rejects a negative, infinite or NaN one, naming it.

A check of ``w < -0.5`` instead of ``w < 0`` once passed the whole suite: the tiny and the
fractional negative weights below are what tell them apart.
"""
import numpy as np
import pytest

import fastpr
import fastpr.multiclass

Y = np.array([1, 0, 1, 1, 0, 0])
S = np.array([0.9, 0.8, 0.7, 0.6, 0.6, 0.1])
CLASSES = np.array([0, 1, 2, 1, 0, 2])
PROBABILITIES = np.array([[0.7, 0.2, 0.1], [0.1, 0.8, 0.1], [0.3, 0.3, 0.4],
                          [0.2, 0.5, 0.3], [0.6, 0.3, 0.1], [0.2, 0.2, 0.6]])


def _dask_evaluate(w):
    da = pytest.importorskip("dask.array")
    import fastpr.distributed
    import dask

    with dask.config.set(scheduler="synchronous"):
        return fastpr.distributed.evaluate(da.from_array(Y, 3), da.from_array(S, 3),
                                           sample_weight=da.from_array(w, 3))


def _plot(function, w):
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    import fastpr.plot

    return getattr(fastpr.plot, function)(Y, S, sample_weight=w, ax=Figure().subplots())


ENTRY_POINTS = {
    "evaluate": lambda w: fastpr.evaluate(Y, S, sample_weight=w),
    "evaluate 2-D": lambda w: fastpr.evaluate(Y, [S, S[::-1]], sample_weight=[w, w]),
    "evaluate groups": lambda w: fastpr.evaluate(Y, S, sample_weight=w, groups=[0, 0, 0, 1, 1, 1]),
    "evaluate offsets": lambda w: fastpr.evaluate(Y, S, sample_weight=w, offsets=[0, 3, 6]),
    "auc_pr": lambda w: fastpr.auc_pr(Y, S, sample_weight=w),
    "auc_roc": lambda w: fastpr.auc_roc(Y, S, sample_weight=w),
    "auc_npr": lambda w: fastpr.auc_npr(Y, S, sample_weight=w),
    "roc_points": lambda w: fastpr.roc_points(Y, S, sample_weight=w),
    "pr_curve": lambda w: fastpr.pr_curve(Y, S, sample_weight=w),
    "roc_convex_hull": lambda w: fastpr.roc_convex_hull(Y, S, sample_weight=w),
    "achievable_pr_curve": lambda w: fastpr.achievable_pr_curve(Y, S, sample_weight=w),
    "interpolated_pr_curve": lambda w: fastpr.interpolated_pr_curve(Y, S, sample_weight=w),
    "bootstrap": lambda w: fastpr.bootstrap(Y, S, sample_weight=w, n_boot=10, seed=0),
    "bootstrap_sample": lambda w: fastpr.bootstrap_sample(Y, S, 0, seed=0, sample_weight=w),
    "compare": lambda w: fastpr.compare(Y, [S, S[::-1]], sample_weight=w, n_boot=10, seed=0),
    "Accumulator.update": lambda w: fastpr.Accumulator().update(Y, S, sample_weight=w),
    "Accumulator.from_arrays": lambda w: fastpr.Accumulator.from_arrays(S, w, w),
    "multiclass.evaluate": lambda w: fastpr.multiclass.evaluate(CLASSES, PROBABILITIES,
                                                                sample_weight=w),
    "multiclass.auc_pr": lambda w: fastpr.multiclass.auc_pr(CLASSES, PROBABILITIES,
                                                            sample_weight=w),
    "multiclass.auc_roc": lambda w: fastpr.multiclass.auc_roc(CLASSES, PROBABILITIES,
                                                              sample_weight=w),
    "f_beta_curve": lambda w: fastpr.f_beta_curve(Y, S, sample_weight=w),
    "max_f_beta": lambda w: fastpr.max_f_beta(Y, S, sample_weight=w),
    "prg_curve": lambda w: fastpr.prg_curve(Y, S, sample_weight=w),
    "auc_prg": lambda w: fastpr.auc_prg(Y, S, sample_weight=w),
    "hull_thresholds": lambda w: fastpr.hull_thresholds(Y, S, sample_weight=w),
    "evaluate_at_thresholds": lambda w: fastpr.evaluate_at_thresholds(Y, S, [0.5],
                                                                      sample_weight=w),
    "at_prevalence": lambda w: fastpr.at_prevalence(Y, S, 0.1, sample_weight=w),
    "aggregate": lambda w: fastpr.aggregate([(Y, S, w), (Y, S)]),
    "distributed.evaluate": _dask_evaluate,
    "plot_roc": lambda w: _plot("plot_roc", w),
    "plot_pr": lambda w: _plot("plot_pr", w),
}
BAD = {"tiny negative": -1e-300, "fractional negative": -0.25, "+inf": np.inf, "NaN": np.nan}


@pytest.mark.parametrize("bad", BAD.values(), ids=BAD.keys())
@pytest.mark.parametrize("name", ENTRY_POINTS)
def test_bad_weight_is_rejected_by_name(name, bad):
    w = np.ones(S.size)
    w[2] = bad
    argument = "pos_weight" if name == "Accumulator.from_arrays" else "sample_weight"
    with pytest.raises(ValueError, match=argument):
        ENTRY_POINTS[name](w)


def test_the_good_weights_pass_every_entry_point():
    """The same calls with valid weights succeed, so the errors above come from the weights."""
    for name, call in ENTRY_POINTS.items():
        call(np.r_[1.0, 2.0, 0.5, 1.0, 3.0, 1.0])
