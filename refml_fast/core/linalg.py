"""Cholesky factorisations and solves as Numba kernels: refml's ``linalg`` functions of the
same names, with the same operations in the same order, on numpy arrays.
"""

import math

import numpy as np

from refml_fast.runtime.options import kernel


@kernel
def cholesky(A, L):
    """refml's ``linalg.cholesky`` into the zeroed L, column by column in its order;
    False where a pivot is not positive (L then holds the columns before it)."""
    n = A.shape[0]
    for j in range(n):
        pivot = A[j, j]
        for k in range(j):
            pivot -= L[j, k] * L[j, k]
        if not pivot > 0.0:
            return False
        L[j, j] = math.sqrt(pivot)
        for i in range(j + 1, n):
            total = A[i, j]
            for k in range(j):
                total -= L[i, k] * L[j, k]
            L[i, j] = total / L[j, j]
    return True


@kernel
def cholesky_solve(L, x):
    """In place, x <- (L L')^{-1} x: refml's ``linalg.solve_lower`` (zero entries of L
    skipped) then ``solve_upper_transposed``, the same operations in the same order."""
    n = x.shape[0]
    for i in range(n):
        total = x[i]
        for k in range(i):
            if L[i, k] != 0.0:
                total -= L[i, k] * x[k]
        x[i] = total / L[i, i]
    for i in range(n - 1, -1, -1):
        total = x[i]
        for k in range(i + 1, n):
            total -= L[k, i] * x[k]
        x[i] = total / L[i, i]


@kernel
def cholesky_dropping_dependent(A, tolerance, L, kept):
    """refml's ``linalg.cholesky_dropping_dependent``: the factor of A restricted to its
    independent columns into the top-left m x m of the zeroed L, their indices into
    kept[:m]; returns m.  Only the lower triangle of A is read."""
    n = A.shape[0]
    row = np.empty(n)
    m = 0
    for j in range(n):
        for c in range(m):
            total = A[j, kept[c]]
            for e in range(c):
                total -= row[e] * L[c, e]
            row[c] = total / L[c, c]
        pivot = A[j, j]
        for c in range(m):
            pivot -= row[c] * row[c]
        if A[j, j] > 0.0 and pivot > tolerance * A[j, j]:
            row[m] = math.sqrt(pivot)
            for c in range(m + 1):
                L[m, c] = row[c]
            kept[m] = j
            m += 1
    return m


@kernel
def solve_dropping_dependent(A, b, tolerance, x):
    """refml's ``linalg.solve_dropping_dependent`` (Cholesky of the independent columns,
    then forward and back substitution) with the same operations in the same order; x = 0
    on dropped columns.  Only the lower triangle of A is read."""
    n = A.shape[0]
    L = np.zeros((n, n))
    kept = np.empty(n, dtype=np.int64)
    m = cholesky_dropping_dependent(A, tolerance, L, kept)
    forward = np.empty(m)
    for i in range(m):                       # L u = b[kept]
        total = b[kept[i]]
        for e in range(i):
            total -= L[i, e] * forward[e]
        forward[i] = total / L[i, i]
    backward = np.empty(m)
    for i in range(m - 1, -1, -1):           # L' v = u
        total = forward[i]
        for e in range(i + 1, m):
            total -= L[e, i] * backward[e]
        backward[i] = total / L[i, i]
    for j in range(n):
        x[j] = 0.0
    for i in range(m):
        x[kept[i]] = backward[i]


@kernel
def softmax_posterior(scores, probabilities):
    """Each row of ``scores`` through refml's ``linalg.softmax``: exp(s_k - max) / sum_l
    exp(s_l - max), the sum in class order."""
    n_samples, n_classes = scores.shape
    for i in range(n_samples):
        top = scores[i, 0]
        for k in range(1, n_classes):
            if scores[i, k] > top:
                top = scores[i, k]
        total = 0.0
        for k in range(n_classes):
            probabilities[i, k] = math.exp(scores[i, k] - top)
            total += probabilities[i, k]
        for k in range(n_classes):
            probabilities[i, k] = probabilities[i, k] / total


@kernel
def logistic_posterior(s, probabilities):
    """(sigma(-s), sigma(s)) per row: refml's ``linalg.sigmoid`` (exp never overflows)."""
    for i in range(s.shape[0]):
        probabilities[i, 0] = sigmoid(-s[i])
        probabilities[i, 1] = sigmoid(s[i])


@kernel
def sigmoid(z):
    """refml's ``linalg.sigmoid``."""
    if z >= 0.0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)
