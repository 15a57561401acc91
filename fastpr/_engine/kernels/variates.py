"""Exact binomial and Poisson variates from a counter-based stream.

A sampler takes a stream's key and the counter of its next unused number and returns the variate
and the counter past the numbers it used, so a chain of draws is a function of the key alone.
Small means go by inversion (one number). Larger ones go by Hörmann's transformed rejection
with squeeze: BTRS for the binomial and PTRS for the Poisson (W. Hörmann, "The generation of
binomial random variates", J. Statist. Comput. Simul. 46, 1993; "The transformed rejection
method for generating Poisson random variables", Insurance Math. Econom. 12, 1993). Both are
exact: a candidate that the squeeze does not settle is compared with its log-probability,
written with Stirling's series so that nothing large cancels.
"""
import math

import numpy as np

from ..jit import helper
from .uniforms import uniform

# Below this mean inversion takes fewer steps than rejection needs numbers; the rejection
# methods' constants hold from 10 up.
_REJECTION_FROM = 10.0
_HALF_LOG_TWO_PI = 0.5 * math.log(2.0 * math.pi)
# Stirling's remainder log k! - ((k + 1/2) log(k + 1) - (k + 1) + log(2 pi) / 2) below 16, where
# three terms of its series are not yet within 2e-12 of it.
_STIRLING_REMAINDERS = np.array([
    math.lgamma(k + 1.0) - ((k + 0.5) * math.log(k + 1.0) - (k + 1.0) + _HALF_LOG_TWO_PI)
    for k in range(16)])


@helper
def stirling_remainder(k):
    """Stirling's remainder of log k! for a whole number k >= 0 (see _STIRLING_REMAINDERS)."""
    if k < _STIRLING_REMAINDERS.size:
        return _STIRLING_REMAINDERS[np.int64(k)]
    x = k + 1.0
    inverse_square = 1.0 / (x * x)
    return (1.0 / 12.0 - inverse_square * (1.0 / 360.0 - inverse_square / 1260.0)) / x


@helper
def poisson_by_inversion(mean, u):
    """The smallest k with P(K <= k) >= u for K ~ Poisson(mean), summing the probabilities
    upwards; it stops where they no longer move the sum."""
    term = math.exp(-mean)
    cumulative = term
    k = 0
    while u > cumulative:
        k += 1
        term *= mean / k
        total = cumulative + term
        if total == cumulative:
            break
        cumulative = total
    return k


@helper
def log_poisson_probability(mean, k):
    """log P(K = k) for K ~ Poisson(mean), with log k! by Stirling's series, so that the terms
    of size k log k cancel before rounding."""
    return ((k + 1.0 - mean) + k * math.log1p((mean - k - 1.0) / (k + 1.0))
            - 0.5 * math.log(k + 1.0) - _HALF_LOG_TWO_PI - stirling_remainder(k))


@helper
def _poisson_rejection(mean, key, counter):
    """PTRS, for mean >= 10."""
    b = 0.931 + 2.53 * math.sqrt(mean)
    a = -0.059 + 0.02483 * b
    inverse_alpha = 1.1239 + 1.1328 / (b - 3.4)
    squeeze = 0.9277 - 3.6224 / (b - 2.0)
    while True:
        u = uniform(key, counter) - 0.5
        v = uniform(key, counter + 1)
        counter += 2
        us = 0.5 - abs(u)
        k = np.floor((2.0 * a / us + b) * u + mean + 0.43)
        if k < 0.0 or (us < 0.013 and v > us):
            continue
        if us >= 0.07 and v <= squeeze:
            return np.int64(k), counter
        if math.log(v * inverse_alpha / (a / (us * us) + b)) <= log_poisson_probability(mean, k):
            return np.int64(k), counter


@helper
def poisson(mean, key, counter):
    """Poisson(mean) for mean >= 0: (variate, next counter)."""
    if mean < _REJECTION_FROM:
        return poisson_by_inversion(mean, uniform(key, counter)), counter + 1
    return _poisson_rejection(mean, key, counter)


@helper
def _binomial_by_inversion(n, p, u):
    """The smallest k with P(K <= k) >= u for K ~ Binomial(n, p), p <= 1/2, summing the
    probabilities upwards by their ratio; it stops at n or where they no longer move the sum."""
    ratio = p / (1.0 - p)
    term = math.exp(n * math.log1p(-p))
    cumulative = term
    k = 0
    while u > cumulative and k < n:
        k += 1
        term *= ratio * (n - k + 1) / k
        total = cumulative + term
        if total == cumulative:
            break
        cumulative = total
    return k


@helper
def log_binomial_ratio(n, m, k, log_odds, remainders_m):
    """log(P(K = k) / P(K = m)) for K ~ Binomial(n, p), log_odds = log(p / (1 - p)) and
    remainders_m the Stirling remainders of m! and (n - m)!: the log-factorials' leading terms
    are combined into logarithms of ratios near 1."""
    return ((m + 0.5) * math.log1p((m - k) / (k + 1.0))
            + (n - m + 0.5) * math.log1p((k - m) / (n - k + 1.0))
            + (k - m) * (math.log((n - k + 1.0) / (k + 1.0)) + log_odds)
            + remainders_m - stirling_remainder(k) - stirling_remainder(n - k))


@helper
def _binomial_rejection(n, p, key, counter):
    """BTRS, for p <= 1/2 and n p >= 10. Most candidates pass the squeeze, so what only the
    exact test needs is set up at its first use."""
    q = 1.0 - p
    spq = math.sqrt(n * p * q)
    b = 1.15 + 2.53 * spq
    a = -0.0873 + 0.0248 * b + 0.01 * p
    c = n * p + 0.5
    squeeze = 0.92 - 4.2 / b
    alpha = log_odds = m = remainders_m = 0.0
    while True:
        u = uniform(key, counter) - 0.5
        v = uniform(key, counter + 1)
        counter += 2
        us = 0.5 - abs(u)
        k = np.floor((2.0 * a / us + b) * u + c)
        if k < 0.0 or k > n:
            continue
        if us >= 0.07 and v <= squeeze:
            return np.int64(k), counter
        if alpha == 0.0:
            alpha = (2.83 + 5.1 / b) * spq
            log_odds = math.log(p / q)
            m = np.floor((n + 1.0) * p)
            remainders_m = stirling_remainder(m) + stirling_remainder(n - m)
        if (math.log(v * alpha / (a / (us * us) + b))
                <= log_binomial_ratio(n, m, k, log_odds, remainders_m)):
            return np.int64(k), counter


@helper
def binomial(n, p, key, counter):
    """Binomial(n, p) for a whole number n >= 0 and p in [0, 1]: (variate, next counter)."""
    if n <= 0 or not p > 0.0:
        return 0, counter
    if p >= 1.0:
        return n, counter
    flip = p > 0.5  # sample the rarer outcome: 1 - p is exact here
    low = 1.0 - p if flip else p
    if n * low < _REJECTION_FROM:
        k, counter = _binomial_by_inversion(n, low, uniform(key, counter)), counter + 1
    else:
        k, counter = _binomial_rejection(n, low, key, counter)
    return (n - k if flip else k), counter
