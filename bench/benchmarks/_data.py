"""Synthetic rankings shared by the asv suites and ``bench/compare.py``.

Scores look like calibrated probabilities: ``sigmoid(z + 1.5 * y)`` with ``z`` standard normal
(AUC-ROC about 0.86). ``ties=True`` rounds them to 2 decimals, leaving at most 101 distinct
values. Labels are bool with the given prevalence; the first two rows are forced to one positive
and one negative so every metric is defined, whatever n.
"""
import numpy as np

DTYPES = ("float64", "float32")
PREVALENCES = (0.001, 0.01, 0.5)
SCORES = ("continuous", "ties")


def make_ranking(n, dtype="float64", prevalence=0.01, scores="continuous", seed=0):
    """(y_true bool, y_score of ``dtype``) with a fixed seed."""
    n = int(n)
    rng = np.random.default_rng(seed)
    y_true = rng.random(n) < prevalence
    y_true[:2] = (True, False)
    logit = rng.standard_normal(n)
    logit[y_true] += 1.5
    y_score = 1.0 / (1.0 + np.exp(-logit))
    del logit
    if scores == "ties":
        np.round(y_score, 2, out=y_score)
    elif scores != "continuous":
        raise ValueError(f"scores must be 'continuous' or 'ties', got {scores!r}")
    return y_true, y_score.astype(dtype, copy=False)


def make_batch(n_rankings, n, prevalence=0.1, seed=0):
    """(y_true bool (n,), y_score float64 (n_rankings, n)): rankings of the same labels, each
    row scored like ``make_ranking`` with its own noise (one model per row)."""
    rng = np.random.default_rng(seed)
    y_true = rng.random(n) < prevalence
    y_true[:2] = (True, False)
    logit = rng.standard_normal((n_rankings, n))
    logit[:, y_true] += 1.5
    return y_true, 1.0 / (1.0 + np.exp(-logit))


def make_groups(n_groups, mean_size=100, prevalence=0.1, seed=0):
    """(y_true, y_score, groups, offsets, shuffle) for ``n_groups`` queries of 50%..150% of
    ``mean_size`` rows. Rows are stored group by group: ``offsets`` marks the boundaries and
    ``groups`` holds each row's integer id; index the arrays with ``shuffle`` for the same
    queries in random row order."""
    rng = np.random.default_rng(seed)
    sizes = rng.integers(mean_size // 2, mean_size + mean_size // 2 + 1, n_groups)
    offsets = np.r_[0, np.cumsum(sizes)]
    y_true, y_score = make_ranking(offsets[-1], "float64", prevalence, seed=seed)
    groups = np.repeat(np.arange(n_groups), sizes)
    shuffle = rng.permutation(groups.size)
    return y_true, y_score, groups, offsets, shuffle


def fix_mmap_threshold(nbytes=65536):
    """Make glibc mmap every allocation of ``nbytes`` or more (fresh pages, unmapped when freed),
    so that the RSS high-water mark counts what a call allocates rather than reused heap.

    The same as running with ``MALLOC_MMAP_THRESHOLD_=65536``; a no-op off glibc.
    """
    import ctypes
    import ctypes.util

    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        return bool(libc.mallopt(-3, int(nbytes)))  # M_MMAP_THRESHOLD
    except (OSError, AttributeError):
        return False


def rss_high_water_mark(reset=False):
    """Peak resident set size in bytes (Linux VmHWM); ``reset`` first sets it to the current RSS.

    Returns None where /proc/self/clear_refs or /proc/self/status is unavailable.
    """
    import gc

    try:
        if reset:
            gc.collect()
            with open("/proc/self/clear_refs", "w") as f:
                f.write("5")
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None
