"""Numba kernels: plain arrays in, plain arrays and scalars out; no validation, no raising."""
