"""Timings of the curves and the ROC convex hull against n, continuous scores and heavy ties."""
import fastpr

from ._data import SCORES, make_ranking


class Curves:
    params = ([1_000, 100_000, 1_000_000], list(SCORES))
    param_names = ["n", "scores"]

    def setup(self, n, scores):
        self.y, self.s = make_ranking(n, "float64", 0.01, scores)
        small = (self.y[:1000], self.s[:1000])
        for func in (fastpr.roc_points, fastpr.pr_curve, fastpr.roc_convex_hull,
                     fastpr.achievable_pr_curve):
            func(*small)

    def time_roc_curve(self, n, scores):
        fastpr.roc_points(self.y, self.s)

    def time_pr_curve(self, n, scores):
        fastpr.pr_curve(self.y, self.s)

    def time_roc_convex_hull(self, n, scores):
        fastpr.roc_convex_hull(self.y, self.s)

    def time_achievable_pr_curve(self, n, scores):
        fastpr.achievable_pr_curve(self.y, self.s)


class Curves10M:
    """The curves at n = 10M (continuous scores: one point per example)."""

    number = 1
    repeat = (2, 5, 30.0)
    warmup_time = 0.0
    timeout = 600

    def setup(self):
        self.y, self.s = make_ranking(10_000_000, "float64", 0.01)
        fastpr.roc_points(self.y[:1000], self.s[:1000])
        fastpr.roc_convex_hull(self.y[:1000], self.s[:1000])

    def time_roc_curve(self):
        fastpr.roc_points(self.y, self.s)

    def time_roc_convex_hull(self):
        fastpr.roc_convex_hull(self.y, self.s)
