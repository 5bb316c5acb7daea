"""Numba twins of the KDE sums (``refml.density.kernel_sum``, ``log_kernel_sum``), of the
cross-validation double sums (``refml/density/kernels.py``) and of the per-class loops of naive
Bayes.

Each kernel repeats the float operations of its refml twin in the same order: queries (or
rows i) in parallel with ``prange``, and inside each of them the training points in index
order, the features in column order, the same expressions (no ``fastmath``).  The refml
constants (c_d, the Epanechnikov r^2, the convolution constant) are computed once in Python
and passed in.  ``exp`` and ``log`` here are the C library's, as in Python's ``math``:
on the development machine they agree bit for bit (measured on 500,000 arguments), so the
sums are identical; conformance/t18_parity_density.py still compares densities with a
stated relative tolerance, and labels exactly.
"""

import math

import numpy as np
from numba import prange

from refml.density import kernels as reference
from refml_fast.runtime.options import kernel
from refml_fast.runtime.threads import run_parallel

GAUSSIAN, EPANECHNIKOV = 0, 1
CODES = {"gaussian": GAUSSIAN, "epanechnikov": EPANECHNIKOV}
SQRT5 = reference.SQRT5


@kernel(inline=True)
def whitened_squared_distance(x, y, L, diagonal, z):
    """q = |L^(-1)(x - y)|^2 by forward substitution into the scratch vector z."""
    q = 0.0
    for j in range(x.shape[0]):
        total = x[j] - y[j]
        if not diagonal:
            for k in range(j):
                if L[j, k] != 0.0:  # as refml: no 0 * inf = NaN for far queries
                    total -= L[j, k] * z[k]
        z[j] = total / L[j, j]
        q += z[j] * z[j]
    return q


@kernel(inline=True)
def profile(code, q, r2):
    """k(q): exp(-q/2), or (1 - q/r^2) for q < r^2 and 0 beyond."""
    if code == GAUSSIAN:
        return math.exp(-0.5 * q)
    return 1.0 - q / r2 if q < r2 else 0.0


@kernel(inline=True)
def convolution(code, q, conv_constant):
    """(K*K)(u) for |u|^2 = q (the Epanechnikov in one dimension)."""
    if code == GAUSSIAN:
        return conv_constant * math.exp(-0.25 * q)
    t = math.sqrt(q) / SQRT5
    if t >= 2.0:
        return 0.0
    s = 2.0 - t
    return 3.0 / 160.0 * (s * s * s) * (t * t + 6.0 * t + 4.0) / SQRT5


@kernel
def kde_sum_one(x, data, L, diagonal, code, r2, log):
    """sum_i k(q_i) for one query x, or its log (Gaussian: minimum q factored out)."""
    n, d = data.shape
    z = np.empty(d)
    q = np.empty(n)
    for i in range(n):
        q[i] = whitened_squared_distance(x, data[i], L, diagonal, z)
    total = 0.0
    if not log:
        for i in range(n):
            total += profile(code, q[i], r2)
        return total
    if code == GAUSSIAN:
        smallest = q[0]
        for i in range(1, n):
            if q[i] < smallest:
                smallest = q[i]
        if smallest == np.inf:  # every q_i overflowed: log S < -1e308 rounds to -inf
            return -np.inf
        for i in range(n):
            total += math.exp(-0.5 * (q[i] - smallest))
        return math.log(total) - 0.5 * smallest
    for i in range(n):
        total += profile(code, q[i], r2)
    return math.log(total) if total > 0.0 else -np.inf


@kernel
def cv_row_one(i, data, L, diagonal, code, r2, coefficient, constant, conv_constant):
    """sum_j [ (K*K)(z_ij) - coefficient K(z_ij) ]."""
    z = np.empty(data.shape[1])
    row = 0.0
    for j in range(data.shape[0]):
        q = whitened_squared_distance(data[i], data[j], L, diagonal, z)
        row += (convolution(code, q, conv_constant)
                - coefficient * (constant * profile(code, q, r2)))
    return row


@kernel
def loo_one(i, data, L, diagonal, code, r2, constant):
    """sum_{j != i} K(z_ij)."""
    z = np.empty(data.shape[1])
    total = 0.0
    for j in range(data.shape[0]):
        if j != i:
            total += constant * profile(code, whitened_squared_distance(
                data[i], data[j], L, diagonal, z), r2)
    return total


# Each loop twice: over prange for large work, over range for small work (a parallel
# launch costs more than a small loop, and much more on a busy machine); the values are
# the same, each query or row being computed on its own.

@kernel(parallel=True)
def kde_sums_parallel(queries, data, L, diagonal, code, r2, log, out):
    for a in prange(queries.shape[0]):
        out[a] = kde_sum_one(queries[a], data, L, diagonal, code, r2, log)


@kernel
def kde_sums_serial(queries, data, L, diagonal, code, r2, log, out):
    for a in range(queries.shape[0]):
        out[a] = kde_sum_one(queries[a], data, L, diagonal, code, r2, log)


@kernel(parallel=True)
def cv_rows_parallel(data, L, diagonal, code, r2, coefficient, constant, conv_constant,
                     rows):
    for i in prange(data.shape[0]):
        rows[i] = cv_row_one(i, data, L, diagonal, code, r2, coefficient, constant,
                             conv_constant)


@kernel
def cv_rows_serial(data, L, diagonal, code, r2, coefficient, constant, conv_constant, rows):
    for i in range(data.shape[0]):
        rows[i] = cv_row_one(i, data, L, diagonal, code, r2, coefficient, constant,
                             conv_constant)


@kernel(parallel=True)
def loo_parallel(data, L, diagonal, code, r2, constant, out):
    for i in prange(data.shape[0]):
        out[i] = loo_one(i, data, L, diagonal, code, r2, constant)


@kernel
def loo_serial(data, L, diagonal, code, r2, constant, out):
    for i in range(data.shape[0]):
        out[i] = loo_one(i, data, L, diagonal, code, r2, constant)


# Pairs x features above which the prange twin is used: about 5 ms of work on one core.
# A parallel launch while another library's threads still spin on the cores (OpenBLAS's
# do for ~0.1 s after each call) waits 4-8 ms for a time slice; below this size that
# costs more than the second core saves.
PARALLEL_WORK = 2_000_000


@kernel
def ordered_sum(values):
    """sum_i values[i], left to right."""
    total = 0.0
    for i in range(values.shape[0]):
        total += values[i]
    return total


@kernel
def feature_std_kernel(X, out):
    """sqrt(sum_i (x_ij - mean_j)^2 / (n - 1)) per column, in refml's order; 0 if n = 1."""
    n, d = X.shape
    means = np.zeros(d)
    for i in range(n):
        for j in range(d):
            means[j] += X[i, j]
    for j in range(d):
        means[j] = means[j] / n
    squares = np.zeros(d)
    for i in range(n):
        for j in range(d):
            deviation = X[i, j] - means[j]
            squares[j] += deviation * deviation
    for j in range(d):
        out[j] = math.sqrt(squares[j] / (n - 1)) if n >= 2 else 0.0


@kernel
def class_moments_kernel(X, codes, means, variances):
    """Per-class means and variances (divisor n_k), in refml's order (``class_moments``)."""
    n, d = X.shape
    n_classes = means.shape[0]
    counts = np.zeros(n_classes, dtype=np.int64)
    for i in range(n):
        counts[codes[i]] += 1
        for j in range(d):
            means[codes[i], j] += X[i, j]
    for k in range(n_classes):
        for j in range(d):
            means[k, j] = means[k, j] / counts[k]
    for i in range(n):
        for j in range(d):
            deviation = X[i, j] - means[codes[i], j]
            variances[codes[i], j] += deviation * deviation
    for k in range(n_classes):
        for j in range(d):
            variances[k, j] = variances[k, j] / counts[k]


@kernel
def factor_product_kernel(L, H):
    """H = L L' with H_ij = sum_k L_ik L_jk, k ascending (refml's ``factor_product``).

    L is lower-triangular, so the products with k > min(i, j) are exact zeros, which leave
    a sum unchanged: they are skipped; H_ji takes the same products as H_ij (L_jk L_ik is
    L_ik L_jk exactly)."""
    d = L.shape[0]
    for i in range(d):
        for j in range(i + 1):
            total = 0.0
            for k in range(j + 1):
                total += L[i, k] * L[j, k]
            H[i, j] = total
            H[j, i] = total


# ----------------------------------------------------------------------------------------
# Python wrappers with the signatures of refml's twins (numpy in, numpy out).


def diagonal_matrix(values):
    """diag(values) as a float64 array, written on zeroed memory (no second d x d array)."""
    values = np.asarray(values, dtype=np.float64)
    D = np.zeros((values.shape[0], values.shape[0]))
    D[np.arange(values.shape[0]), np.arange(values.shape[0])] = values
    return D


def factor_product(L):
    if is_diagonal(L):
        # Every sum is 0.0 plus exact zeros, but for H_jj = 0.0 + h_j^2: the same floats.
        return diagonal_matrix(np.diag(L) * np.diag(L))
    H = np.empty_like(L)
    factor_product_kernel(L, H)
    return H


def _cholesky_array(L):
    L = np.ascontiguousarray(np.asarray(L, dtype=np.float64))
    return L, is_diagonal(L)


@kernel
def is_diagonal(L):
    """True when every off-diagonal entry of the square L is 0 (no temporary arrays)."""
    d = L.shape[0]
    for i in range(d):
        for j in range(d):
            if i != j and L[i, j] != 0.0:
                return False
    return True


def kde_sums(queries, data, L, kernel_name, log):
    L, diagonal = _cholesky_array(L)
    out = np.empty(queries.shape[0])
    work = queries.shape[0] * data.shape[0] * L.shape[0]
    run_parallel(kde_sums_parallel, kde_sums_serial, work / PARALLEL_WORK, queries, data, L,
                 diagonal, CODES[kernel_name], reference.radius_squared(L.shape[0]), bool(log),
                 out)
    return out


def cv_sums(data, L, kernel_name, coefficient):
    L, diagonal = _cholesky_array(L)
    d = L.shape[0]
    constant = math.exp(reference.log_normaliser(kernel_name, d))
    conv_constant = math.exp(-0.5 * d * math.log(4.0 * math.pi))
    rows = np.empty(data.shape[0])
    run_parallel(cv_rows_parallel, cv_rows_serial, data.shape[0] ** 2 * d / PARALLEL_WORK,
                 data, L, diagonal, CODES[kernel_name], reference.radius_squared(d),
                 float(coefficient), constant, conv_constant, rows)
    return ordered_sum(rows)


def loo_sums(data, L, kernel_name):
    L, diagonal = _cholesky_array(L)
    d = L.shape[0]
    constant = math.exp(reference.log_normaliser(kernel_name, d))
    out = np.empty(data.shape[0])
    run_parallel(loo_parallel, loo_serial, data.shape[0] ** 2 * d / PARALLEL_WORK, data, L,
                 diagonal, CODES[kernel_name], reference.radius_squared(d), constant, out)
    return out


@kernel
def weighted_class_moments_kernel(X, codes, weights, means, variances, totals):
    """refml's ``weighted_class_moments``, in its order; the outputs start at 0."""
    n, d = X.shape
    n_classes = means.shape[0]
    for i in range(n):
        totals[codes[i]] += weights[i]
        for j in range(d):
            means[codes[i], j] += weights[i] * X[i, j]
    for k in range(n_classes):
        for j in range(d):
            means[k, j] = means[k, j] / totals[k]
    for i in range(n):
        for j in range(d):
            deviation = X[i, j] - means[codes[i], j]
            variances[codes[i], j] += weights[i] * (deviation * deviation)
    for k in range(n_classes):
        for j in range(d):
            variances[k, j] = variances[k, j] / totals[k]


def weighted_class_moments(X, codes, weights, n_classes):
    means = np.zeros((n_classes, X.shape[1]))
    variances = np.zeros((n_classes, X.shape[1]))
    totals = np.zeros(n_classes)
    weighted_class_moments_kernel(X, np.asarray(codes, dtype=np.int64),
                                  np.asarray(weights, dtype=np.float64), means, variances,
                                  totals)
    return means, variances, totals


def feature_std(X):
    out = np.empty(X.shape[1])
    feature_std_kernel(X, out)
    return out


def class_moments(X, codes, n_classes):
    means = np.zeros((n_classes, X.shape[1]))
    variances = np.zeros((n_classes, X.shape[1]))
    class_moments_kernel(X, np.asarray(codes, dtype=np.int64), means, variances)
    return means, variances


@kernel
def histogram_cells(X, low, high, m, cells, inside):
    """refml's ``bins.bin_index`` for every entry: floor((x - low) m / (high - low)), x =
    high in bin m - 1; ``inside[i]`` False when some feature of row i is out of range."""
    for i in range(X.shape[0]):
        inside[i] = True
        for j in range(X.shape[1]):
            x = X[i, j]
            if not (low[j] <= x <= high[j]):
                inside[i] = False
                cells[i, j] = 0
                continue
            index = math.floor((x - low[j]) * m / (high[j] - low[j]))
            cells[i, j] = min(index, m - 1)
