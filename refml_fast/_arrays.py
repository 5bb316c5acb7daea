"""numpy conversion with refml's validation rules and messages (SPEC.md section 5).

Numeric numpy arrays are checked with numpy; anything else (lists, object arrays, strings)
goes through ``refml._validation.as_matrix`` first, so both packages raise the same
exception for the same input.  The caller's array is never written to.
"""

import numpy as np

from refml import _validation as validation


def as_matrix(X, name="X"):
    """X as a C-contiguous float64 2-D array, validated."""
    if isinstance(X, np.ndarray) and X.dtype.kind in "biuf":
        return _check_numeric_array(X, name)
    if isinstance(X, np.ndarray) and X.dtype.kind == "c":
        raise TypeError(validation.complex_message(name))
    return np.array(validation.as_matrix(X, name), dtype=np.float64)


def _check_numeric_array(X, name):
    if X.ndim == 0:
        raise ValueError(validation.not_2d_message("scalar"))
    if X.ndim == 1:
        if X.shape[0] == 0:
            raise ValueError(validation.empty_samples_message(0))
        raise ValueError(validation.not_2d_message("1D array"))
    if X.ndim > 2:
        raise ValueError(validation.not_2d_message("an array with more than 2 dimensions"))
    if X.shape[0] == 0:
        raise ValueError(validation.empty_samples_message(X.shape[1]))
    if X.shape[1] == 0:
        raise ValueError(validation.empty_features_message(X.shape[0]))
    X = np.ascontiguousarray(X, dtype=np.float64)
    if X.dtype.kind == "f":
        if np.isnan(X).any():
            raise ValueError(validation.non_finite_message(name, "NaN"))
        if np.isinf(X).any():
            raise ValueError(validation.non_finite_message(name, "infinity"))
    return X
