"""Timings of fastpr.Accumulator: update with a chunk, merge two states, evaluate a state.

``setup`` builds the states and calls each operation once, so numba compilation (or loading its
on-disk cache) never falls inside a timing. Continuous scores give one state entry per row;
``ties`` (2 decimals) give at most 101 entries however many rows.
"""
import fastpr

from ._data import SCORES, make_ranking


class Accumulator:
    params = ([100_000, 1_000_000], list(SCORES))
    param_names = ["n", "scores"]

    def setup(self, n, scores):
        self.y, self.s = make_ranking(n, scores=scores, seed=1)
        y2, s2 = make_ranking(n, scores=scores, seed=2)
        self.state = fastpr.Accumulator().update(self.y, self.s)
        self.other = fastpr.Accumulator().update(y2, s2)
        self.state.merge(self.other).evaluate()

    def time_update(self, n, scores):
        fastpr.Accumulator().update(self.y, self.s)

    def time_update_into_state(self, n, scores):
        self.state.merge(self.other).update(self.y, self.s)

    def time_merge(self, n, scores):
        self.state.merge(self.other)

    def time_evaluate(self, n, scores):
        self.state.evaluate()
