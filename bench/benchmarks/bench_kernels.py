"""Per-call cost of fastpr.kernels.summary called from a user's own @numba.njit loop."""
import numba
import numpy as np

from fastpr import kernels

from ._data import make_ranking

RANKINGS = 1000


@numba.njit
def _interpolated_areas(y_true, score_rows, no_weights):
    out = np.empty(score_rows.shape[0])
    for k in range(score_rows.shape[0]):
        out[k] = kernels.summary(y_true, score_rows[k], no_weights)[kernels.INTERPOLATED]
    return out


class KernelsInNjit:
    """One timing = 1000 calls; divide by 1000 for the cost of one call."""

    params = ([100, 1000], [0.01, 0.1])
    param_names = ["n", "prevalence"]

    def setup(self, n, prevalence):
        self.y, s = make_ranking(n, "float64", prevalence)
        self.rows = np.stack([np.roll(s, k) for k in range(RANKINGS)])
        self.no_weights = np.empty(0)
        _interpolated_areas(self.y, self.rows[:2], self.no_weights)  # compile outside timings

    def time_1000_calls(self, n, prevalence):
        _interpolated_areas(self.y, self.rows, self.no_weights)
