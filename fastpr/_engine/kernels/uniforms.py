"""Counter-based uniform random numbers: the k-th number of a stream is a hash of its key and k.

Any number of any stream can be produced alone, on any thread, in any order, so whatever draws
from these streams depends on the seed only. The hash is SplitMix64's finaliser.

They are helpers, not inlined by numba: LLVM inlines them all the same (the samplers' machine
code is unchanged), while numba's own inlining typed the hash again at every call site, about a
second of CPU at the bootstrap's first call.
"""
import numpy as np

from ..jit import helper

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX_1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX_2 = np.uint64(0x94D049BB133111EB)
_TO_UNIT = 2.0 ** -53


@helper
def _mix(z):
    """SplitMix64's finaliser: a bijective hash of 64-bit integers with full avalanche."""
    z = (z ^ (z >> np.uint64(30))) * _MIX_1
    z = (z ^ (z >> np.uint64(27))) * _MIX_2
    return z ^ (z >> np.uint64(31))


@helper
def stream_key(seed, replicate, stream):
    """The key of one replicate's stream of one kind (see fastpr._engine.kernels.draws)."""
    return _mix(_mix(np.uint64(seed) ^ _mix(np.uint64(replicate) + _GOLDEN))
                + np.uint64(stream) * _GOLDEN)


@helper
def substream_key(key, index):
    """The key of sub-stream ``index`` of a stream: one per block or bin, so that each can be
    drawn alone."""
    return _mix(_mix(np.uint64(key) ^ np.uint64(index)) + _GOLDEN)


@helper
def uniform(key, counter):
    """The counter-th number of a stream, uniform on [0, 1) with 53 random bits."""
    return float(_mix(np.uint64(key) + np.uint64(counter) * _GOLDEN) >> np.uint64(11)) * _TO_UNIT
