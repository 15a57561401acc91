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


class Stream:
    """A stream of small chunks, then its evaluation: 10^6 rows in chunks of ``chunk`` rows
    (the cost that a per-chunk merge into the whole state made quadratic in the chunks)."""

    params = ([100, 10_000], list(SCORES))
    param_names = ["chunk", "scores"]
    timeout = 300

    def setup(self, chunk, scores):
        y, s = make_ranking(1_000_000, scores=scores, seed=1)
        self.chunks = [(y[k:k + chunk], s[k:k + chunk]) for k in range(0, y.size, chunk)]
        fastpr.Accumulator().update(*self.chunks[0]).update(*self.chunks[1]).evaluate()

    def time_stream(self, chunk, scores):
        accumulator = fastpr.Accumulator()
        for y, s in self.chunks:
            accumulator.update(y, s)
        accumulator.evaluate()
