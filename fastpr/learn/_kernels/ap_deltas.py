"""The change in average precision when a ranking swaps two examples or moves one, in O(1).

A ranking here is a list of positions 0 .. n-1 (its examples by descending score, ties in row
order: ``order.py``). At rank r = position + 1, y_r is 1 for a positive, c_r counts the
positives at ranks <= r, m_r = r - c_r the negatives, R = c_n, and

    AP = (1/R) sum_r y_r c_r / r.

Swapping a positive at rank p with a negative at rank q > p takes one from the count of every
positive between them and moves the positive's own term from c_p/p to c_q/q, so
R dAP = c_q/q - c_p/p - (A_{q-1} - A_p) with A_r = sum_{t<=r} y_t / t; a negative at p and a
positive at q > p give R dAP = (c_p + 1)/p - c_q/q + A_{q-1} - A_p.

Moving one example from rank p to rank q shifts the examples between by one rank. A positive
moved up (q < p) adds one to the count of every positive it passes, each of which also drops a
rank: (c_t + 1)/(t + 1) - c_t/t = m_t / (t (t + 1)). Moved down, each positive it passes rises a
rank and loses one of its count: (c_t - 1)/(t - 1) - c_t/t = -m_t / (t (t - 1)). A negative
passing a positive changes only its rank: -c_t / (t (t + 1)) up, c_t / (t (t - 1)) down. The
table holds the prefix sums of these terms, so that every delta is a few differences of rows;
every term is >= 0, so the sums lose nothing to cancellation.

Table of a ranking of n examples: float64 (n + 1, N_COLUMNS), row r the sums over ranks 1..r
(row 0 all zero).
"""
import numpy as np

from ..._engine.jit import helper, jit

COUNT, RECIPROCALS, POSITIVE_UP, POSITIVE_DOWN, NEGATIVE_UP, NEGATIVE_DOWN = range(6)
N_COLUMNS = 6


@jit
def fill_table(ranked_true, table):
    """Fill the table of the ranking whose labels by position are ``ranked_true``; returns its
    average precision (NaN without positives)."""
    if table.shape[0] < ranked_true.size + 1 or table.shape[1] < N_COLUMNS:
        raise ValueError("table must have a row per position and one more, and N_COLUMNS "
                         "columns")
    c = reciprocals = positive_up = positive_down = negative_up = negative_down = 0.0
    total = 0.0
    for column in range(N_COLUMNS):
        table[0, column] = 0.0
    for position in range(ranked_true.size):
        t = position + 1.0
        if ranked_true[position]:
            c += 1.0
            m = t - c
            reciprocals += 1.0 / t
            positive_up += m / (t * (t + 1.0))
            negative_up += c / (t * (t + 1.0))
            if t > 1.0:  # rank 1 is never passed by a move down
                positive_down += m / (t * (t - 1.0))
                negative_down += c / (t * (t - 1.0))
            total += c / t
        row = table[position + 1]
        row[COUNT] = c
        row[RECIPROCALS] = reciprocals
        row[POSITIVE_UP] = positive_up
        row[POSITIVE_DOWN] = positive_down
        row[NEGATIVE_UP] = negative_up
        row[NEGATIVE_DOWN] = negative_down
    return total / c


@jit(inline="always")
def _outside(table, p, q):
    """Whether position p or q lies outside the table's ranking."""
    return min(p, q) < 0 or max(p, q) >= table.shape[0] - 1


@helper
def _is_positive_at(table, rank):
    return table[rank, COUNT] > table[rank - 1, COUNT]


@jit
def swap_delta_at(table, p, q):
    """AP after swapping the examples at positions ``p`` and ``q``, minus AP before."""
    if _outside(table, p, q):
        return np.nan
    upper = min(p, q) + 1
    lower = max(p, q) + 1
    positive_upper = _is_positive_at(table, upper)
    if positive_upper == _is_positive_at(table, lower):
        return 0.0
    c_upper = table[upper, COUNT]
    c_lower = table[lower, COUNT]
    a_upper = table[upper, RECIPROCALS]
    a_lower = table[lower - 1, RECIPROCALS]  # A_{q-1}: the same as A_q below a negative
    if positive_upper:
        change = c_lower / lower - c_upper / upper - (a_lower - a_upper)
    else:
        change = (c_upper + 1.0) / upper - c_lower / lower + (a_lower - a_upper)
    return change / table[table.shape[0] - 1, COUNT]


@jit
def move_delta_at(table, p, q):
    """AP after moving the example at position ``p`` to position ``q`` (the examples between
    shift by one), minus AP before."""
    if _outside(table, p, q):
        return np.nan
    if p == q:
        return 0.0
    a = p + 1  # ranks
    b = q + 1
    if _is_positive_at(table, a):
        if b < a:
            change = ((table[b - 1, COUNT] + 1.0) / b - table[a, COUNT] / a
                      + table[a - 1, POSITIVE_UP] - table[b - 1, POSITIVE_UP])
        else:
            change = (table[b, COUNT] / b - table[a, COUNT] / a
                      - (table[b, POSITIVE_DOWN] - table[a, POSITIVE_DOWN]))
    elif b < a:
        change = -(table[a - 1, NEGATIVE_UP] - table[b - 1, NEGATIVE_UP])
    else:
        change = table[b, NEGATIVE_DOWN] - table[a, NEGATIVE_DOWN]
    return change / table[table.shape[0] - 1, COUNT]


@jit
def swap_deltas(table, p, q, out):
    """``swap_delta_at`` of every pair ``(p[k], q[k])`` into ``out[k]``."""
    for k in range(out.size):
        out[k] = swap_delta_at(table, p[k], q[k])


@jit
def move_deltas(table, p, q, out):
    """``move_delta_at`` of every pair ``(p[k], q[k])`` into ``out[k]``."""
    for k in range(out.size):
        out[k] = move_delta_at(table, p[k], q[k])
