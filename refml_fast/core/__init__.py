"""Shared plumbing of refml_fast: the numpy base class, array validation with refml's
messages, the random stream and linear algebra as Numba kernels.
"""
