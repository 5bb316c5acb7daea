"""Kernel values k(u, v), rows of the Gram matrix, scores and gamma as Numba kernels.

The float operations of refml's SVM in refml's order (see ``smo``): K(x_i, x_t)
accumulates feature by feature from 0.0; rbf is exp(-gamma * s) (refml.core.exponential's
e^x, ``exponential.exp_nonpositive`` here, which loops vectorise); poly is
(gamma * s + coef0) multiplied ``degree`` times from 1.0.  Kernels are chosen by the integer
codes of ``KERNEL_CODES``.
"""

import numpy as np
from numba import prange

from refml_fast.core.exponential import exp_lanes, exp_nonpositive
from refml_fast.runtime.lanes import LANES, lane, line_aligned_zeros, load, splat
from refml_fast.runtime.options import kernel

KERNEL_CODES = {"linear": 0, "rbf": 1, "poly": 2}


@kernel(refcounts=False)
def kernel_pair(u, v, code, gamma, degree, coef0):
    """K(u, v) for one pair of rows, as refml's ``kernel_value``."""
    total = 0.0
    if code == 1:
        for k in range(u.shape[0]):
            difference = u[k] - v[k]
            total += difference * difference
        return exp_nonpositive(-gamma * total)
    for k in range(u.shape[0]):
        total += u[k] * v[k]
    if code == 0:
        return total
    base = gamma * total + coef0
    value = 1.0
    for _ in range(degree):
        value *= base
    return value


@kernel(inline=True, refcounts=False)
def one_term(code, xk, ZT, k, t, s):
    """s plus feature k's term: (x_k - z_tk)^2 for rbf (code 1), x_k z_tk otherwise."""
    if code == 1:
        e = xk - ZT[k, t]
        return s + e * e
    return s + xk * ZT[k, t]


@kernel(inline=True, refcounts=False)
def four_terms(code, x0, x1, x2, x3, ZT, k, t, s):
    """s plus the terms of features k..k+3 (x0..x3 = x_k..x_k+3), added one after another
    (the callers load x's four values before their loop over t)."""
    s = one_term(code, x0, ZT, k, t, s)
    s = one_term(code, x1, ZT, k + 1, t, s)
    s = one_term(code, x2, ZT, k + 2, t, s)
    return one_term(code, x3, ZT, k + 3, t, s)


@kernel(inline=True, refcounts=False)
def kernel_value(code, s, gamma, degree, coef0):
    """K from the sum s: exp(-gamma s) for rbf, s for linear, poly's power for poly."""
    if code == 1:
        return exp_nonpositive(-gamma * s)
    if code == 2:
        return poly_value(s, gamma, degree, coef0)
    return s


@kernel(inline=True, refcounts=False)
def poly_value(s, gamma, degree, coef0):
    """(gamma s + coef0)^degree, multiplied ``degree`` times from 1.0 (refml's)."""
    base = gamma * s + coef0
    value = 1.0
    for _ in range(degree):
        value *= base
    return value


@kernel
def diagonal_and_norms(X, code, gamma, degree, coef0):
    """K_tt and r_t = sqrt(K_tt) = ||phi(x_t)|| for every t."""
    n = X.shape[0]
    diagonal = np.empty(n)
    r = np.empty(n)
    diagonal_into(X, code, gamma, degree, coef0, diagonal, r)
    return diagonal, r


@kernel(refcounts=False)
def diagonal_into(X, code, gamma, degree, coef0, diagonal, r):
    """``diagonal_and_norms`` into the given arrays (the row views X[t] made here, without
    Numba's reference counts)."""
    for t in range(X.shape[0]):
        diagonal[t] = kernel_pair(X[t], X[t], code, gamma, degree, coef0)
        r[t] = np.sqrt(max(diagonal[t], 0.0))


@kernel
def primal_coef(dual_coef, support_vectors, beta):
    """beta_j = sum_s (alpha_s y_s) x_sj, support vectors in order (refml's loop)."""
    for j in range(beta.shape[0]):
        beta[j] = 0.0
    for s in range(dual_coef.shape[0]):
        for j in range(beta.shape[0]):
            beta[j] += dual_coef[s] * support_vectors[s, j]


@kernel(refcounts=False)
def raw_scores_rows(X, first, end, code, coef, dual_coef, SV, gamma, degree, coef0, XB, out):
    """Rows first..end-1 of ``raw_scores``: beta'x for the linear kernel, each sum feature by
    feature; for the others, eight rows at a time in the lanes of a vector (``lanes``).
    XB (d x 8, ``lanes.line_aligned_zeros``) holds the eight rows transposed, so that lane l
    adds row l's terms of K(x_s, x) feature by feature from 0.0 (refml's ``kernel_value``:
    (x_sk - x_k)^2 for rbf, x_sk x_k for poly), four support vectors at once; then the
    kernel's value lane by lane, and each row's total adds a_s K(x_s, x) in the support
    vectors' order from 0.0.  The same floats as refml's ``_raw_scores``, a row in each lane
    (lanes past the last row hold zeros and are not written)."""
    if code == 0:
        for r in range(first, end):
            total = 0.0
            for k in range(X.shape[1]):
                total += coef[k] * X[r, k]
            out[r] = total
        return
    d, n_sv = X.shape[1], dual_coef.shape[0]
    for r0 in range(first, end, LANES):
        count = rows_into_lanes(X, r0, end, XB)
        total = splat(0.0)
        s = 0
        while s < n_sv:
            if s + 4 <= n_sv:
                a0, a1, a2, a3 = sums4(code, XB, SV, s, d)
                total = add_values(total, a0, dual_coef[s], code, gamma, degree, coef0)
                total = add_values(total, a1, dual_coef[s + 1], code, gamma, degree, coef0)
                total = add_values(total, a2, dual_coef[s + 2], code, gamma, degree, coef0)
                total = add_values(total, a3, dual_coef[s + 3], code, gamma, degree, coef0)
                s += 4
            else:
                a0 = sums1(code, XB, SV, s, d)
                total = add_values(total, a0, dual_coef[s], code, gamma, degree, coef0)
                s += 1
        for lane_index in range(count):
            out[r0 + lane_index] = lane(total, lane_index)


@kernel(inline=True, refcounts=False)
def rows_into_lanes(X, r0, end, XB):
    """XB[k, l] = X[r0 + l, k] for the rows r0.. of X before ``end``, at most eight, and
    0.0 in the lanes past them; returns how many rows were taken."""
    count = min(LANES, end - r0)
    for k in range(X.shape[1]):
        for lane_index in range(count):
            XB[k, lane_index] = X[r0 + lane_index, k]
        for lane_index in range(count, LANES):
            XB[k, lane_index] = 0.0
    return count


@kernel(inline=True, refcounts=False)
def lane_term(code, z, xk):
    """Feature k's term of K(x_s, x) in lanes, z = x_sk in every lane, xk = x_k of eight
    rows: (x_sk - x_k)^2 for rbf (code 1), x_sk x_k otherwise (refml's ``kernel_value``)."""
    if code == 1:
        e = splat(z) - xk
        return e * e
    return splat(z) * xk


@kernel(inline=True, refcounts=False)
def sums4(code, XB, SV, s, d):
    """Lanes of K's sums for support vectors s..s+3, each from 0.0 feature by feature."""
    a0, a1, a2, a3 = splat(0.0), splat(0.0), splat(0.0), splat(0.0)
    for k in range(d):
        xk = load(XB, k, 0)
        a0 = a0 + lane_term(code, SV[s, k], xk)
        a1 = a1 + lane_term(code, SV[s + 1, k], xk)
        a2 = a2 + lane_term(code, SV[s + 2, k], xk)
        a3 = a3 + lane_term(code, SV[s + 3, k], xk)
    return a0, a1, a2, a3


@kernel(inline=True, refcounts=False)
def sums1(code, XB, SV, s, d):
    """``sums4`` for support vector s alone."""
    a = splat(0.0)
    for k in range(d):
        a = a + lane_term(code, SV[s, k], load(XB, k, 0))
    return a


@kernel(inline=True, refcounts=False)
def add_values(total, sums, coefficient, code, gamma, degree, coef0):
    """total + a_s K lane by lane, K from the sums: exp(-gamma s) (``exp_lanes``) for rbf,
    (gamma s + coef0)^degree (``poly_value``'s products) otherwise."""
    if code == 1:
        kernel_values = exp_lanes(splat(-gamma) * sums)
    else:
        base = splat(gamma) * sums + splat(coef0)
        kernel_values = splat(1.0)
        for _ in range(degree):
            kernel_values = kernel_values * base
    return total + splat(coefficient) * kernel_values


@kernel
def raw_scores(X, code, coef, dual_coef, SV, gamma, degree, coef0, out):
    """f(x) - beta_0 for every row: beta'x (linear) or sum_s a_s K(x_s, x), s in order
    (``SV``: the support vectors, n_SV x d)."""
    raw_scores_rows(X, 0, X.shape[0], code, coef, dual_coef, SV, gamma, degree, coef0,
                    line_aligned_zeros(X.shape[1], LANES), out)


SCORE_BLOCK = 64      # rows a block on the threads (a multiple of LANES)


@kernel(parallel=True)
def raw_scores_parallel(X, code, coef, dual_coef, SV, gamma, degree, coef0, out):
    """``raw_scores`` with blocks of SCORE_BLOCK rows on Numba's threads (each row by one
    thread)."""
    n_blocks = (X.shape[0] + SCORE_BLOCK - 1) // SCORE_BLOCK
    for block in prange(n_blocks):
        raw_scores_rows(X, SCORE_BLOCK * block, min(X.shape[0], SCORE_BLOCK * block
                                                    + SCORE_BLOCK),
                        code, coef, dual_coef, SV, gamma, degree, coef0,
                        line_aligned_zeros(X.shape[1], LANES), out)


@kernel
def scale_gamma(X):
    """refml.svm.smo.scale_gamma: 1 / (d Var(X)), the same sums in the same order."""
    n, d = X.shape
    total = 0.0
    for r in range(n):
        for k in range(d):
            total += X[r, k]
    mean = total / (n * d)
    squares = 0.0
    for r in range(n):
        for k in range(d):
            squares += (X[r, k] - mean) * (X[r, k] - mean)
    variance = squares / (n * d)
    return 1.0 / (d * variance) if variance > 0.0 else 1.0
