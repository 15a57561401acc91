"""Labels and groups checked once; each new set of scores then becomes a row order.

The learner's rankings: rows by descending score, ties in row order (XGBoost's stable sort), each
group on its own. ``Rankings.order`` returns ``order`` with group g at
``order[offsets[g]:offsets[g + 1]]`` and the labels in the same places, the layout of the
kernels in ``fastpr.learn._kernels.lambdas``, and ``Rankings.run`` runs such kernels over
ranges of groups on fastpr's thread pool.
"""
import math

import numpy as np

from .. import _validation
from .._engine.batch import PerThread, group_codes, segment_ranges, spread
from .._engine.jit import thread_count
from ._kernels import order as _order

# From this many rows two threads sort a half of the keys each. Measured on 2 cores: 10^7 keys
# took 87 ms so against 158 ms for one sort with the second core idle, and about 10% more than
# one sort (2^14 to 2^20 keys) with it busy; the bound itself is a guess between those ends.
_SPLIT_ROWS = 1 << 18


class Rankings:
    """Checked labels of one ranking or of groups, with each group's class counts.

    ``groups`` (ids in any order) and ``offsets`` (CSR boundaries of contiguous groups) as in
    :func:`fastpr.evaluate`; group g is the g-th id in sorted order, or the g-th segment.
    """

    def __init__(self, y_true, groups, offsets, pos_label):
        self.is_positive = _validation.positive_mask(y_true, pos_label)
        n = self.is_positive.size
        self.ids = self.codes = None
        if groups is not None or offsets is not None:
            _validation.check_grouping(groups, offsets, self.is_positive)
        if groups is not None:
            self.ids, self.codes = group_codes(_validation.group_ids(groups, n))
        elif offsets is not None:
            sizes = np.diff(_validation.offsets(offsets, n))
            self.ids = np.arange(sizes.size)
            self.codes = np.repeat(self.ids, sizes)
        if self.codes is None:
            self.offsets = np.array([0, n], dtype=np.int64)
            self.n_pos = np.array([np.count_nonzero(self.is_positive)])
        else:
            sizes = np.bincount(self.codes, minlength=self.ids.size)
            self.offsets = np.concatenate(([0], np.cumsum(sizes)))
            self.n_pos = np.bincount(self.codes[self.is_positive], minlength=self.ids.size)
        self.n_neg = np.diff(self.offsets) - self.n_pos
        self._scratch = _Scratch()

    def regrouped(self, codes, n_groups):
        """These labels in groups ``codes`` (int64, the group of each row, 0 to ``n_groups``
        - 1, made by the caller, who vouches for them): a new object sharing the labels and
        this one's scratch buffers, without checking the labels again."""
        rankings = object.__new__(Rankings)
        rankings.is_positive = self.is_positive
        rankings.ids = np.arange(n_groups)
        rankings.codes = codes
        sizes = np.bincount(codes, minlength=n_groups)
        rankings.offsets = np.concatenate(([0], np.cumsum(sizes)))
        rankings.n_pos = np.bincount(codes[self.is_positive], minlength=n_groups)
        rankings.n_neg = sizes - rankings.n_pos
        rankings._scratch = self._scratch
        return rankings

    @property
    def n_groups(self):
        return self.offsets.size - 1

    @property
    def n_single_class(self):
        """Groups without positives or without negatives."""
        return int(np.count_nonzero((self.n_pos == 0) | (self.n_neg == 0)))

    def checked_scores(self, y_score, *, find_nan=True):
        """``y_score`` checked against the labels: float32 or float64 (``find_nan`` as in
        ``fastpr._validation.real_scores``)."""
        scores = _validation.real_scores("y_score", _validation.as_1d("y_score", y_score),
                                         find_nan=find_nan)
        _validation.same_lengths(y_true=self.is_positive.size, y_score=scores.size)
        return scores

    def order(self, scores, keys, fields=0):
        """(order, ranked_true) of ``scores`` (checked but for NaN, which this finds; float64):
        rows by descending score, ties in row order, group by group, and their labels; arrays
        of this object's own in the calling thread, which that thread's next call overwrites.
        ``keys``: uint64 scratch as long as ``scores`` for the sort's keys, the memory of the
        caller's output (written only after the order is made), since fresh pages cost more
        than a pass over them at millions of rows. ``fields``: the rows of scratch that the next
        ``run`` takes, made here with the order's."""
        n = scores.size
        scratch = self._scratch
        if self.codes is not None and scratch.grouped is None:
            scratch.grouped = np.empty(n, dtype=np.int64), np.empty(n, dtype=bool)
        highest, lowest = scores.max(), scores.min()
        if math.isnan(lowest):  # min() propagates NaN: no pass of its own to find them
            _validation.reject_nan("y_score", scores)
        ranked = self._buffers(fields)[1:]
        _order.pack_keys(scores, self.is_positive, keys, highest, lowest)
        # NumPy's SIMD sort (the keys are distinct, so stability is not needed), which releases
        # the GIL: with threads, each half on its own, merged as they are unpacked. As float64,
        # which the keys are made to be and NumPy sorts faster.
        floats = keys.view(np.float64)
        if n >= _SPLIT_ROWS and thread_count() > 1:
            middle = n // 2
            spread(np.ndarray.sort, [floats[:middle], floats[middle:]], 2)
        else:
            middle = n
            floats.sort()
        _order.unpack_order(scores, keys[:middle], keys[middle:], *ranked)
        if self.codes is None:
            return ranked
        _order.regroup(*ranked, self.codes, self.offsets, *scratch.grouped)
        return scratch.grouped

    def _buffers(self, fields):
        """(scratch, order, ranked_true): at least ``fields`` rows of float64 scratch (flat),
        then the rows and labels of ``order``, views of one buffer of this object's own in the
        calling thread, made anew only when more rows are asked for, and ``run`` hands out the
        rows. One buffer kept from call to call, since fresh pages cost more than the work at
        millions of rows; and one rather than several, since glibc, measured, handed the freed
        buffer back to the next one-off call, where several fresh arrays a call came back as
        fresh pages."""
        n = self.is_positive.size
        scratch = self._scratch
        if scratch.fields < fields:
            scratch.buffer = np.empty((fields + 1) * 8 * n + n, dtype=np.uint8)
            scratch.fields = fields
        words = scratch.buffer[:(scratch.fields + 1) * 8 * n].view(np.int64)
        return (words[:scratch.fields * n].view(np.float64),
                words[scratch.fields * n:], scratch.buffer[words.nbytes:].view(bool))

    def run(self, kernel, fields):
        """Call ``kernel(first, last, work)`` on ranges of groups that together cover all of
        them, on as many threads as numba's thread count allows. ``work`` is float64 scratch of
        shape (``fields``, rows of the range), private to the range, from ``_buffers``
        (which ``order`` has made with at least ``fields`` rows)."""
        scratch = self._buffers(fields)[0][:fields * self.is_positive.size]
        if self.n_groups == 1:
            kernel(0, 1, scratch.reshape(fields, -1))
            return
        offsets, n_threads = self.offsets, thread_count()

        def run_range(chunk):
            first, last = chunk
            a, b = offsets[first], offsets[last]
            kernel(first, last, scratch[fields * a:fields * b].reshape(fields, b - a))

        spread(run_range, segment_ranges(offsets, n_threads), n_threads)


class _Scratch(PerThread):
    """A thread's buffers of :class:`Rankings` (see ``Rankings._buffers``)."""

    def __init__(self):
        self.buffer = np.empty(0, dtype=np.uint8)
        self.fields = -1  # no buffer yet, not even one without scratch
        self.grouped = None  # ``order``'s rows and labels group by group
