"""The O(n d^2) statistics of LDA and QDA as Numba kernels (refml_fast.discriminant):
class counts and means, the per-class scatter matrices, and LDA's pooled scatter, each
float in refml's order (see refml_fast/discriminant/analysis.py's docstring)."""

import numpy as np

from refml_fast.runtime.options import kernel

BAND = 64   # rows of the lower triangle of W pooled at a time


@kernel
def class_statistics(X, codes, counts, means, scatters):
    """n_k, mu_k = (1/n_k) sum x_i, S_k = sum (x_i - mu_k)(x_i - mu_k)', in refml's order.

    Each entry S_k[j, l] receives the products of class k's rows one after the other in
    data order, as in refml; four rows at a time, so that the running sum stays in a
    register: ((((S + p_1) + p_2) + p_3) + p_4) rounds exactly as four separate updates.
    """
    n_features = X.shape[1]
    n_classes = means.shape[0]
    class_means(X, codes, counts, means)
    rows = _rows_by_class(codes, counts)
    centered = np.empty((4, n_features))
    start = 0
    for k in range(n_classes):
        stop = start + counts[k]
        S = scatters[k]
        position = start
        while position < stop:
            size = min(4, stop - position)
            center_rows(X, rows, position, size, means[k], n_features, centered)
            add_outer_products(S, centered, size, 0, n_features)
            position += size
        start = stop
        for j in range(n_features):
            for l in range(j):
                S[l, j] = S[j, l]


@kernel
def class_means(X, codes, counts, means):
    """n_k and mu_k = (1/n_k) sum_{i in class k} x_i, the rows in data order."""
    for i in range(X.shape[0]):
        k = codes[i]
        counts[k] += 1
        for j in range(X.shape[1]):
            means[k, j] += X[i, j]
    for k in range(means.shape[0]):
        for j in range(X.shape[1]):
            means[k, j] = means[k, j] / counts[k]


@kernel
def pooled_scatter(X, codes, counts, means, W):
    """LDA's W = 0 + S_0 + S_1 + ... without storing the S_k: ``class_statistics``'s floats
    for each S_k entry (class rows in data order, four at a time in a register), computed
    for a band of ``BAND`` rows of the lower triangle at a time into a small buffer, then
    added into W class after class (0.0 + S_0 = S_0 exactly: a sum from +0.0 is never
    -0.0).  Memory: W alone, instead of K + 1 matrices of d x d (800 MB each at d = 10,000)."""
    d = X.shape[1]
    rows = _rows_by_class(codes, counts)
    buffer = np.empty((BAND, d))
    centered = np.empty((4, d))
    for j0 in range(0, d, BAND):
        j1 = min(d, j0 + BAND)
        start = 0
        for k in range(counts.shape[0]):
            stop = start + counts[k]
            for j in range(j0, j1):
                for l in range(j + 1):
                    buffer[j - j0, l] = 0.0
            position = start
            while position < stop:
                size = min(4, stop - position)
                center_rows(X, rows, position, size, means[k], j1, centered)
                add_outer_products(buffer, centered, size, j0, j1)
                position += size
            for j in range(j0, j1):
                for l in range(j + 1):
                    W[j, l] = buffer[j - j0, l] if k == 0 else W[j, l] + buffer[j - j0, l]
            start = stop
    for j in range(d):
        for l in range(j):
            W[l, j] = W[j, l]


@kernel
def center_rows(X, rows, position, size, mean, width, centered):
    """centered[r, j] = x_ij - mu_kj for the ``size`` rows from ``position`` on, j < width."""
    for r in range(size):
        i = rows[position + r]
        for j in range(width):
            centered[r, j] = X[i, j] - mean[j]


@kernel
def _rows_by_class(codes, counts):
    """The row indices grouped by class, each group in data order (a stable counting sort)."""
    offsets = np.zeros(counts.shape[0], dtype=np.int64)
    for k in range(1, counts.shape[0]):
        offsets[k] = offsets[k - 1] + counts[k - 1]
    rows = np.empty(codes.shape[0], dtype=np.int64)
    for i in range(codes.shape[0]):
        rows[offsets[codes[i]]] = i
        offsets[codes[i]] += 1
    return rows


@kernel
def add_outer_products(S, centered, size, j0, j1):
    """Rows j0..j1-1 of the lower triangle (row j stored at S[j - j0]): S[j, l] += c_1j c_1l,
    then c_2j c_2l, ... for the ``size`` centred rows, in that order (l <= j).  Four rows at
    a time keep the running sum in a register, which rounds exactly as four updates."""
    for j in range(j0, j1):
        row = S[j - j0]
        if size == 4:
            c_1j, c_2j, c_3j, c_4j = (centered[0, j], centered[1, j], centered[2, j],
                                      centered[3, j])
            for l in range(j + 1):
                total = row[l] + c_1j * centered[0, l]
                total = total + c_2j * centered[1, l]
                total = total + c_3j * centered[2, l]
                row[l] = total + c_4j * centered[3, l]
        else:
            for r in range(size):
                c_j = centered[r, j]
                for l in range(j + 1):
                    row[l] += c_j * centered[r, l]
