"""Kernels for K = 2 (the benchmark's case): refml's operations, eight samples at a time.

The general kernels (refml_fast/_logistic_kernels.py) follow refml row by row.  For two
classes these do the same arithmetic faster, without changing a single float:

- the eight scores z_i = theta'x~_i of a block are independent sums, so they are computed
  interleaved, each still summed left to right from 0.0 (refml's ``_linalg.dot``);
- an accumulator (a gradient entry, a Hessian entry) receives the eight samples' terms one
  after the other, (((g + t_0) + t_1) + ...) + t_7: the same additions in the same order as
  the row-by-row loop, without storing g in between;
- the probability is ``probabilities_from_scores`` written out for one score:
  m = max(0, z), e_0 = exp(-m), e_1 = exp(z - m), P_1 = e_1 / ((0 + e_0) + e_1),
  log(1 + e^z) = m + log((0 + e_0) + e_1).
n mod 8 samples at the end go one at a time.
"""

import math

import numpy as np

from ._config import kernel

BLOCK = 8


@kernel
def block_scores(X, i, theta, fit_intercept, z):
    """z[b] = theta'x~_{i+b} for b = 0..7, interleaved, each summed left to right."""
    d = X.shape[1]
    z0 = z1 = z2 = z3 = z4 = z5 = z6 = z7 = 0.0
    for j in range(d):
        t = theta[j]
        z0 += t * X[i, j]
        z1 += t * X[i + 1, j]
        z2 += t * X[i + 2, j]
        z3 += t * X[i + 3, j]
        z4 += t * X[i + 4, j]
        z5 += t * X[i + 5, j]
        z6 += t * X[i + 6, j]
        z7 += t * X[i + 7, j]
    if fit_intercept:
        t = theta[d] * 1.0
        z0 += t
        z1 += t
        z2 += t
        z3 += t
        z4 += t
        z5 += t
        z6 += t
        z7 += t
    z[0], z[1], z[2], z[3] = z0, z1, z2, z3
    z[4], z[5], z[6], z[7] = z4, z5, z6, z7


@kernel
def row_score(X, i, theta, fit_intercept):
    d = X.shape[1]
    total = 0.0
    for j in range(d):
        total += theta[j] * X[i, j]
    if fit_intercept:
        total += theta[d] * 1.0
    return total


@kernel
def fill_scores(X, i, block, theta, fit_intercept, z):
    if block == BLOCK:
        block_scores(X, i, theta, fit_intercept, z)
    else:
        z[0] = row_score(X, i, theta, fit_intercept)


@kernel
def probability_and_log_normaliser(z):
    """(P(Y = 1 | x), log(1 + e^z)) for one score z."""
    m = z if z > 0.0 else 0.0
    e0 = math.exp(-m)
    e1 = math.exp(z - m)
    total = 0.0
    total += e0
    total += e1
    return e1 / total, m + math.log(total)


@kernel
def objective_binary(X, codes, theta, fit_intercept, alpha, gradient):
    """``_logistic_kernels.objective`` for K = 2 (same floats)."""
    n, d = X.shape
    p = d + (1 if fit_intercept else 0)
    z = np.empty(BLOCK)
    r = np.empty(BLOCK)
    for j in range(p):
        gradient[j] = 0.0
    data_loss = 0.0
    i = 0
    while i < n:
        block = BLOCK if i + BLOCK <= n else 1
        fill_scores(X, i, block, theta, fit_intercept, z)
        for b in range(block):
            probability, log_normaliser = probability_and_log_normaliser(z[b])
            y = codes[i + b]
            z_y = z[b] if y > 0 else 0.0
            data_loss += log_normaliser - z_y
            r[b] = probability - (1.0 if y == 1 else 0.0)
        if block == BLOCK:
            for j in range(d):
                g = gradient[j] + r[0] * X[i, j]
                g = g + r[1] * X[i + 1, j]
                g = g + r[2] * X[i + 2, j]
                g = g + r[3] * X[i + 3, j]
                g = g + r[4] * X[i + 4, j]
                g = g + r[5] * X[i + 5, j]
                g = g + r[6] * X[i + 6, j]
                gradient[j] = g + r[7] * X[i + 7, j]
            if fit_intercept:
                g = gradient[d]
                for b in range(BLOCK):
                    g = g + r[b] * 1.0
                gradient[d] = g
        else:
            for j in range(d):
                gradient[j] += r[0] * X[i, j]
            if fit_intercept:
                gradient[d] += r[0] * 1.0
        i += block
    penalty = 0.0
    for j in range(d):
        penalty += theta[j] * theta[j]
    for j in range(p):
        ridge = alpha * theta[j] if j < d else 0.0
        gradient[j] = gradient[j] / n + ridge
    return data_loss / n + 0.5 * alpha * penalty


@kernel
def hessian_binary(X, theta, fit_intercept, alpha, H):
    """``_logistic_kernels.hessian`` for K = 2 (same floats): H[j, jj] += a_i x~_ijj with
    a_i = w_i x~_ij, w_i = P_i1 (1 - P_i1), eight samples per pass over H."""
    n, d = X.shape
    p = d + (1 if fit_intercept else 0)
    x = np.empty((BLOCK, p))
    z = np.empty(BLOCK)
    w = np.empty(BLOCK)
    i = 0
    while i < n:
        block = BLOCK if i + BLOCK <= n else 1
        fill_scores(X, i, block, theta, fit_intercept, z)
        for b in range(block):
            probability, _ = probability_and_log_normaliser(z[b])
            w[b] = probability * (1.0 - probability)
            for j in range(d):
                x[b, j] = X[i + b, j]
            if fit_intercept:
                x[b, d] = 1.0
        if block == BLOCK:
            for j in range(p):
                a0 = w[0] * x[0, j]
                a1 = w[1] * x[1, j]
                a2 = w[2] * x[2, j]
                a3 = w[3] * x[3, j]
                a4 = w[4] * x[4, j]
                a5 = w[5] * x[5, j]
                a6 = w[6] * x[6, j]
                a7 = w[7] * x[7, j]
                for jj in range(j + 1):
                    total = H[j, jj] + a0 * x[0, jj]
                    total = total + a1 * x[1, jj]
                    total = total + a2 * x[2, jj]
                    total = total + a3 * x[3, jj]
                    total = total + a4 * x[4, jj]
                    total = total + a5 * x[5, jj]
                    total = total + a6 * x[6, jj]
                    H[j, jj] = total + a7 * x[7, jj]
        else:
            for j in range(p):
                a = w[0] * x[0, j]
                for jj in range(j + 1):
                    H[j, jj] += a * x[0, jj]
        i += block
    for r in range(p):
        for c in range(r + 1):
            H[r, c] = H[r, c] / n
        if r < d:
            H[r, r] = H[r, r] + alpha
