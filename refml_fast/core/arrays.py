"""numpy conversion with refml's validation rules and messages (docs/design.md section 5).

Numeric numpy arrays are checked with numpy; anything else (lists, object arrays, strings)
goes through ``refml.core.validation.as_matrix`` first, so both packages raise the same
exception for the same input.  The caller's array is never written to.
"""

import numpy as np

from refml.core import interop, validation
from refml_fast.runtime.options import kernel

EXPONENT = 0x7FF0000000000000   # all exponent bits set: an infinity or a NaN


# Up to this many entries numpy's two passes check X (a few microseconds); only larger
# arrays need the kernel, whose compile (0.7 s) a small first fit then does not wait for.
NUMPY_CHECK_UP_TO = 1 << 16


@kernel
def non_finite(X):
    """(holds a NaN, holds an infinity) for a 2-D float64 array (no allocation when it is
    C-contiguous, as every validated array is).

    A first pass only asks whether any entry has every exponent bit set (integer tests on
    the bits, a loop that vectorises); the slower pass that tells NaN from infinity runs
    only then."""
    bits = X.reshape(-1).view(np.int64) if X.flags.c_contiguous else X.copy().reshape(
        -1).view(np.int64)
    special = 0
    for p in range(bits.shape[0]):
        special |= (bits[p] & EXPONENT) == EXPONENT
    if not special:
        return False, False
    has_infinity = False
    for i in range(X.shape[0]):
        for j in range(X.shape[1]):
            value = X[i, j]
            if value != value:
                return True, has_infinity
            if value == np.inf or value == -np.inf:
                has_infinity = True
    return False, has_infinity


def writable(array):
    """``array``, or a copy of it when it is read-only (a dask block, a memory-mapped file):
    Numba compiles a separate specialisation of every kernel for read-only arrays (7.5 s
    for k-NN's first prediction on read-only queries, on each fresh dask worker), while a
    copy of the block costs what reading it once does."""
    return array if array.flags.writeable else array.copy()


def as_matrix(X, name="X"):
    """X as a C-contiguous float64 2-D array, validated (a DataFrame through its values)."""
    X = interop.dense(X, name)
    if isinstance(X, np.ndarray) and X.dtype.kind in "biuf":
        return _check_numeric_array(X, name)
    if isinstance(X, np.ndarray) and X.dtype.kind == "c":
        raise ValueError(validation.complex_message(name))
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
    is_float = X.dtype.kind == "f"
    X = writable(np.ascontiguousarray(X, dtype=np.float64))
    if is_float:
        has_nan, has_infinity = non_finite(X) if X.size > NUMPY_CHECK_UP_TO else (
            bool(np.isnan(X).any()), bool(np.isinf(X).any()))
        if has_nan:
            raise ValueError(validation.non_finite_message(name, "NaN"))
        if has_infinity:
            raise ValueError(validation.non_finite_message(name, "infinity"))
    return X


def as_sample_weight(sample_weight, n_samples):
    """Sample weights as a float64 array, with refml's checks and messages.

    Numeric 1-D arrays are checked with numpy, and only when something looks wrong are they
    handed to refml's checks, which decide and word the error (its running sum decides an
    overflow); anything else goes through ``refml.core.validation.as_sample_weight``.
    """
    if not (isinstance(sample_weight, np.ndarray) and sample_weight.ndim == 1
            and sample_weight.dtype.kind in "biuf"):
        return np.asarray(validation.as_sample_weight(sample_weight, n_samples),
                          dtype=np.float64)
    weights = sample_weight.astype(np.float64)  # a copy: the caller's array is untouched
    validation.check_consistent_length(n_samples, weights.shape[0])
    suspicious = (not np.isfinite(weights).all() or (weights < 0).any()
                  or not (weights > 0).any() or weights.max() > 1e290)
    if suspicious:
        validation.check_weight_values(weights.tolist())
    return weights


def relative_weights(weights):
    """refml's ``validation.relative_weights`` on an array (the same divisions)."""
    lightest = weights[weights > 0.0].min()
    with np.errstate(over="ignore"):  # an overflowing ratio is the case tested, not a fault
        if weights.max() / lightest == np.inf:
            return weights.copy()
    return weights / lightest


def encode_integer_labels(y):
    """refml's ``encode_labels`` for a 1-D integer or bool array (every entry a valid label):
    (the sorted distinct labels as Python values, each label's index among them as int64).

    Labels within a range of at most max(DENSE_LABELS, 4 n) values are counted and looked
    up, in O(n + range) by numpy alone: each label present marks its slot (a bincount), the
    marked slots are numbered in order (a running sum), and each label's code is its slot's
    number.  numpy's unique sorts instead: 0.57 ms for 20,000 labels of three classes against
    0.06 ms here, 10-23 ms for a million against about 3.  Other labels (and bools) go
    through np.unique.  No kernel: a first fit in a fresh process compiles nothing for it."""
    if y.dtype.kind in "iu" and y.size > 0:
        low, high = int(y.min()), int(y.max())
        if high - low < max(DENSE_LABELS, 4 * y.size) and high <= np.iinfo(np.int64).max:
            slots = y.astype(np.int64) - low
            present = np.bincount(slots, minlength=high - low + 1) > 0
            numbers = np.cumsum(present, dtype=np.int64) - 1
            return (np.flatnonzero(present) + low).tolist(), numbers[slots]
    classes, codes = np.unique(y, return_inverse=True)
    return classes.tolist(), codes.reshape(-1).astype(np.int64, copy=False)


DENSE_LABELS = 1 << 16


CACHE_LINE = 64


def aligned_zeros(shape, dtype):
    """np.zeros(shape, dtype) starting on a 64-byte boundary (numpy only promises 16).

    A kernel that loads sixteen float32 (or eight float64) lanes at once reads one cache
    line per load only when the array starts on a line and its rows are whole lines apart;
    from numpy's usual offset of 16 bytes each load spans two lines.  k-NN's cross products
    on one core: 73 -> 89 GMAC/s."""
    return aligned_empty(shape, dtype, np.zeros)


def aligned_empty(shape, dtype, allocate=np.empty):
    """``aligned_zeros`` without the zeros, for an array the caller fills: zeroing 6.6 MB
    of k-NN tiles (1,467 x 784) took 0.11 ms of a 1.27 ms fit."""
    size = int(np.prod(shape)) * np.dtype(dtype).itemsize
    buffer = allocate(size + CACHE_LINE, dtype=np.uint8)
    start = -buffer.ctypes.data % CACHE_LINE
    return buffer[start:start + size].view(dtype).reshape(shape)
