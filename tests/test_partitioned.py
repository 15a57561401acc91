"""The engine-neutral core of distributed evaluation (fastpr._partitioned), run in this process.

Every engine (Dask, Spark) runs these functions as its tasks, in the order of ``evaluate_parts``
below; here they run without an engine, so Hypothesis can try many partitionings cheaply.
"""
import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import fastpr
from fastpr import _partitioned as core
from fastpr.accumulator import CompactedSegment
from evaluations import assert_evaluations_close
from strategies import SETTINGS, rankings


def evaluate_parts(parts, n_ranges, pos_label=None):
    """The sample sort of the core, one partition or range after the other."""
    prepared = [core.prepared(k, y, s, w, pos_label) for k, (y, s, w) in enumerate(parts)]
    for _, labels, _ in prepared:
        if isinstance(labels, core.Failure):
            raise labels.error
    core.check_labels([labels for _, labels, _ in prepared], pos_label)
    samples = [sample for _, _, sample in prepared]
    if not any(weight for _, weight in samples):
        core.raise_no_weight()
    boundaries = core.boundaries(samples, n_ranges)
    pieces = [core.routed(part, boundaries) for part, _, _ in prepared]
    ranges = [core.sorted_range(*[piece[r] for piece in pieces])
              for r in reversed(range(boundaries.size + 1))]
    starts = core.carried_states([summary for _, summary in ranges])
    return core.joined([core.sweep_sorted(ranking, start)
                        for (ranking, _), start in zip(ranges, starts)])


def cut(values, cuts):
    return None if values is None else [values[a:b] for a, b in zip(cuts, cuts[1:])]


@SETTINGS
@given(rankings(max_n=60), st.lists(st.integers(0, 60), max_size=6), st.integers(1, 9),
       st.sampled_from([0.0, core.COMPACT_BELOW, 1.01]))
# A negative at +inf, the origin's threshold, is still a threshold of its own.
@example((np.array([True, False]), np.array([0.0, np.inf]), None), [1], 1, 0.0)
def test_every_partitioning_and_route_matches_evaluate(case, cuts, n_ranges, compact_below):
    """Partitions of any size (empty ones included), any number of ranges, and each partition
    routed as rows (0.0), as the sample decides, or compacted first (1.01)."""
    y, s, w = case
    cuts = [0, *sorted(min(c, y.size) for c in cuts), y.size]
    parts = list(zip(cut(y, cuts), cut(s, cuts), cut(w, cuts) or [None] * (len(cuts) - 1)))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(core, "COMPACT_BELOW", compact_below)
        got = evaluate_parts(parts, n_ranges)
    assert_evaluations_close(got, fastpr.evaluate(y, s, sample_weight=w))


@SETTINGS
@given(st.lists(st.integers(-5, 5), min_size=1, max_size=80),
       st.lists(st.integers(-6, 6), max_size=5), st.booleans())
def test_routing_moves_every_row_once_and_never_splits_a_tie(scores, boundaries, weighted):
    scores = np.array(scores, dtype=np.float64)
    rng = np.random.default_rng(scores.size)
    rows = core.Rows(rng.random(scores.size) < 0.5, scores,
                     rng.random(scores.size) if weighted else None)
    boundaries = np.unique(np.array(boundaries, dtype=np.float64))
    pieces = core.routed(rows, boundaries)
    assert len(pieces) == boundaries.size + 1
    edges = [-np.inf, *boundaries, np.inf]
    moved = []
    for r, piece in enumerate(pieces):
        for is_positive, values, weights in ((True, piece.pos, piece.pos_weight),
                                             (False, piece.neg, piece.neg_weight)):
            assert np.all((edges[r] <= values) & (values < edges[r + 1]))
            assert (weights is None) is not weighted
            moved += zip(values, [is_positive] * values.size,
                         weights if weighted else [None] * values.size)
    # Every row once, with its class and weight.
    assert sorted(moved) == sorted(zip(scores, rows.is_positive,
                                       rows.weights if weighted else [None] * scores.size))


def test_heavy_ties_are_compacted_before_they_move():
    rng = np.random.default_rng(0)
    y = rng.random(50_000) < 0.1
    distinct = rng.random(50_000)
    one_score_a_fifth = np.where(rng.random(50_000) < 0.2, 0.5, distinct)
    rounded = distinct.round(3)
    for s, compacted in ((distinct, False), (one_score_a_fifth, True), (rounded, True)):
        part, labels, (sample, rows_each) = core.prepared(0, y, s, None, None)
        assert isinstance(part, CompactedSegment) is compacted
        assert isinstance(part, core.Rows) is not compacted
        assert set(labels) == {False, True} and sample.size <= core.SAMPLES_PER_PARTITION
        # The sample stands for what moves: rows, or compacted entries.
        assert rows_each * sample.size == pytest.approx(part.size, rel=0.01)


def test_ranges_of_rows_and_of_compacted_partitions_join_exactly():
    """Partitions of distinct scores (moved as rows) share their scores with each other and with
    partitions of heavy ties (compacted first), so every range gets both; two partitions hold
    one class (one of each route), another is empty."""
    rng = np.random.default_rng(1)
    pool = rng.random(3_000).round(6)
    parts = []
    for k in range(6):
        s = rng.permutation(pool) if k % 2 else rng.choice(pool[:40], 3_000)
        y = np.full(s.size, k == 3) if k in (3, 4) else rng.random(s.size) < 0.3
        parts.append((y, s, rng.integers(0, 3, s.size).astype(float)))
    parts.insert(2, (np.zeros(0, bool), np.zeros(0), np.zeros(0)))
    kinds = {type(core.prepared(k, *part, None)[0]) for k, part in enumerate(parts)}
    assert kinds == {core.Rows, CompactedSegment, type(None)}
    y, s, w = (np.concatenate(column) for column in zip(*parts))
    for weighted in (True, False):
        for n_ranges in (1, 2, 7):
            got = evaluate_parts([(a, b, c if weighted else None) for a, b, c in parts], n_ranges)
            assert_evaluations_close(got, fastpr.evaluate(y, s, sample_weight=w if weighted
                                                          else None))


def test_a_failing_partition_comes_back_as_a_failure():
    _, failure, (sample, rows_each) = core.prepared(
        3, np.array([0, 1, 2]), np.array([0.1, 0.2, 0.3]), None, None)
    assert isinstance(failure, core.Failure) and failure.number == 3
    assert failure.lengths == (3, 3, None, None) and isinstance(failure.error, ValueError)
    assert sample.size == 0 and rows_each == 0.0


@SETTINGS
@given(rankings(max_n=60), st.lists(st.integers(0, 60), max_size=6), st.integers(1, 9))
def test_compacted_partitions_cut_into_ranges_match_evaluate(case, cuts, n_ranges):
    """The path on CompactedSegments: compact every partition, cut, merge and sweep each range."""
    y, s, w = case
    cuts = [0, *sorted(min(c, y.size) for c in cuts), y.size]
    parts = [core.partition(k, a, b, c, None)[0] for k, (a, b, c) in enumerate(
        zip(cut(y, cuts), cut(s, cuts), cut(w, cuts) or [None] * (len(cuts) - 1)))]
    boundaries = core.boundaries([core.sample(part) for part in parts], n_ranges)
    pieces = [part.cut(boundaries) for part in parts]
    ranges = [core.summarised_range(*[piece[r] for piece in pieces])
              for r in reversed(range(boundaries.size + 1))]
    starts = core.carried_states([summary for _, summary in ranges])
    got = core.joined([core.sweep_range(segment, start)
                       for (segment, _), start in zip(ranges, starts)])
    assert_evaluations_close(got, fastpr.evaluate(y, s, sample_weight=w))


def test_tasks_keep_their_work_on_their_own_thread(monkeypatch):
    """An engine runs as many tasks side by side as it has cores: a task that sorted its range
    on fastpr's threads as well competed with the other tasks (3·10^7 rows on two Dask workers
    of one thread each: 1.46x the single process, against 1.20x inline; issue 38)."""
    from fastpr._engine import batch
    from fastpr._engine.ranking import sort_split

    def no_pool():
        raise AssertionError("fastpr's thread pool was started")

    rng = np.random.default_rng(3)
    y, s = rng.random(1 << 19) < 0.01, rng.random(1 << 19)
    expected = fastpr.evaluate(y, s)
    monkeypatch.setattr(batch, "thread_count", lambda: 2)
    monkeypatch.setattr(batch, "_pool", None)
    monkeypatch.setattr(batch, "_start_pool", no_pool)
    with pytest.raises(AssertionError, match="thread pool"):  # outside a task: two threads
        sort_split(s[y].copy(), None, s[~y].copy(), None)
    rows = core.prepared(0, y, s, None, None)[0]
    low, high = core.routed(rows, np.array([0.5]))
    ranked = [core.sorted_range(piece) for piece in (high, low)]  # highest scores first
    starts = core.carried_states([summary for _, summary in ranked])
    swept = [core.sweep_sorted(ranking, start) for (ranking, _), start in zip(ranked, starts)]
    assert_evaluations_close(core.joined(swept), expected)


def test_a_task_function_runs_inline_and_keeps_its_parameters():
    """Spark's task functions are generators (mapInArrow) or take (key, table) (applyInArrow),
    and PySpark counts their parameters without following ``__wrapped__``."""
    import inspect

    from fastpr._engine import batch
    seen = []

    @core.task
    def produce(key, table):
        seen.append(getattr(batch._inline, "value", False))
        yield key + table

    assert inspect.getfullargspec(produce).args == ["key", "table"]
    assert list(produce(1, 2)) == [3] and seen == [True]
    assert not getattr(batch._inline, "value", False)  # restored after the task
