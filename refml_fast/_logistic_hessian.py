"""The binary Hessian of LogisticRegression, X~'WX~ summed as refml's ``hessian`` (blocks of
SUM_BLOCK samples, each from 0.0 in sample order, then the blocks in order), given the
sample weights w_i = P_i1 (1 - P_i1) that ``_logistic_binary``'s objective leaves.

Eight samples per pass over the matrix, two rows at a time, whole vectors of eight columns
(``accumulate_hessian_rows``).  On threads either the blocks of samples (few features: each
block's partial matrix is small) or the rows (many features) are shared out; each entry
is still summed by one thread in refml's order, so every path gives the same floats.
"""

import numba
import numpy as np
from numba import prange

from ._config import kernel, run_parallel
from ._logistic_binary import BLOCK, SUM_BLOCK


@kernel
def eight_terms(total, a0, a1, a2, a3, a4, a5, a6, a7, x0, x1, x2, x3, x4, x5, x6, x7):
    """(((total + a0 x0) + a1 x1) + ...) + a7 x7: eight samples' terms, one after the other."""
    total = total + a0 * x0
    total = total + a1 * x1
    total = total + a2 * x2
    total = total + a3 * x3
    total = total + a4 * x4
    total = total + a5 * x5
    total = total + a6 * x6
    return total + a7 * x7


@kernel
def accumulate_hessian_rows(X, weights, fit_intercept, S, first, stop, start, end):
    """Rows first..stop-1 of S += sum_i a_i x~_i' with a_ij = w_i x~_ij, i = start..end-1
    in order (one block's Hessian before its division by n), w_i = P_i1 (1 - P_i1) given.

    Eight samples per pass over S, two rows of S at a time (``first`` even): entry S[j, jj]
    receives the eight samples' terms one after the other, as in refml.  Row j is updated
    on columns 0..j+1 rounded up to a multiple of eight, whole vectors without a scalar
    remainder; the entries above the diagonal that this touches are scratch, never read
    (S has room for them, and for row p when p is odd; the rows of x are zero beyond p).
    """
    d = X.shape[1]
    width = S.shape[1]
    x = np.zeros((BLOCK, width))
    i = start
    while i + BLOCK <= end:
        for b in range(BLOCK):
            for j in range(d):
                x[b, j] = X[i + b, j]
            if fit_intercept:
                x[b, d] = 1.0
        w0, w1, w2, w3 = weights[i], weights[i + 1], weights[i + 2], weights[i + 3]
        w4, w5, w6, w7 = weights[i + 4], weights[i + 5], weights[i + 6], weights[i + 7]
        for j in range(first, stop, 2):
            a0, b0 = w0 * x[0, j], w0 * x[0, j + 1]
            a1, b1 = w1 * x[1, j], w1 * x[1, j + 1]
            a2, b2 = w2 * x[2, j], w2 * x[2, j + 1]
            a3, b3 = w3 * x[3, j], w3 * x[3, j + 1]
            a4, b4 = w4 * x[4, j], w4 * x[4, j + 1]
            a5, b5 = w5 * x[5, j], w5 * x[5, j + 1]
            a6, b6 = w6 * x[6, j], w6 * x[6, j + 1]
            a7, b7 = w7 * x[7, j], w7 * x[7, j + 1]
            for jj in range((j + 2 + BLOCK - 1) // BLOCK * BLOCK):
                x0, x1, x2, x3 = x[0, jj], x[1, jj], x[2, jj], x[3, jj]
                x4, x5, x6, x7 = x[4, jj], x[5, jj], x[6, jj], x[7, jj]
                S[j, jj] = eight_terms(S[j, jj], a0, a1, a2, a3, a4, a5, a6, a7,
                                       x0, x1, x2, x3, x4, x5, x6, x7)
                S[j + 1, jj] = eight_terms(S[j + 1, jj], b0, b1, b2, b3, b4, b5, b6, b7,
                                           x0, x1, x2, x3, x4, x5, x6, x7)
        i += BLOCK
    while i < end:                                # the last (end - start) mod 8, one at a time
        for j in range(d):
            x[0, j] = X[i, j]
        if fit_intercept:
            x[0, d] = 1.0
        for j in range(first, stop):
            a = weights[i] * x[0, j]
            for jj in range(j + 1):
                S[j, jj] += a * x[0, jj]
        i += 1


@kernel
def block_rows(X, weights, fit_intercept, S, first, stop, partial):
    """Rows first..stop-1 of S += each block's sums (``accumulate_hessian_rows`` from 0.0
    into ``partial``), the blocks of SUM_BLOCK samples in order: refml's ``hessian``."""
    n = X.shape[0]
    for start in range(0, n, SUM_BLOCK):
        for r in range(first, min(stop + 1, S.shape[0])):   # + the scratch row p, p odd
            for c in range(S.shape[1]):
                partial[r, c] = 0.0
        accumulate_hessian_rows(X, weights, fit_intercept, partial, first, stop, start,
                                min(n, start + SUM_BLOCK))
        for r in range(first, stop):
            for c in range(r + 1):
                S[r, c] += partial[r, c]


@kernel
def hessian_serial(X, weights, fit_intercept, S, partials, bounds):
    """Every row on the calling thread, partials[0] as its scratch (bounds[-1] = p)."""
    block_rows(X, weights, fit_intercept, S, 0, bounds[-1], partials[0])


@kernel(parallel=True)
def hessian_by_rows(X, weights, fit_intercept, S, partials, bounds):
    """The row ranges bounds[t]..bounds[t+1] on the threads, each with its own partial sums
    (each entry summed by one thread, in refml's order: the same floats)."""
    for t in prange(bounds.shape[0] - 1):
        block_rows(X, weights, fit_intercept, S, bounds[t], bounds[t + 1], partials[t])


@kernel(parallel=True)
def hessian_by_blocks(X, weights, fit_intercept, S, partials, bounds):
    """The blocks of samples on the threads, every row of block b into partials[b], then the
    blocks added in order on this thread: for few features, where the rows are too few to
    share out evenly."""
    n = X.shape[0]
    p = bounds[-1]
    for b in prange(partials.shape[0]):
        for r in range(S.shape[0]):
            for c in range(S.shape[1]):
                partials[b, r, c] = 0.0
        accumulate_hessian_rows(X, weights, fit_intercept, partials[b], 0, p, b * SUM_BLOCK,
                                min(n, (b + 1) * SUM_BLOCK))
    for b in range(partials.shape[0]):
        for r in range(p):
            for c in range(r + 1):
                S[r, c] += partials[b, r, c]


@kernel
def finish_hessian(S, n, d, alpha, H):
    """H = lower triangle of S / n, plus alpha on the diagonal of the w-part."""
    p = H.shape[0]
    for r in range(p):
        for c in range(r + 1):
            H[r, c] = S[r, c] / n
        if r < d:
            H[r, r] = H[r, r] + alpha


# n p^2 (about PARALLEL_SECONDS on one core) from which threads share H.  At 1,000,000
# rather than 2,000,000, 50,000 x 5 (0.33 ms serial) goes to the threads: its Newton fit
# 6.9-7.1 -> 5.3-5.4 ms, 100,000 x 3 11.1-11.6 -> 8.8 ms on idle cores.
PARALLEL_WORK = 1_000_000
PARALLEL_SECONDS = 0.00018
BLOCK_PARTIALS = 4_000_000  # floats of one partial Hessian per block, at most (32 MB)


def row_bounds(p, parts):
    """Even row boundaries 0 = b_0 <= ... <= b_parts = p that split the work into near-equal
    parts: rows go in pairs (j, j + 1), and a pair costs about j + 2 columns, rounded up to
    eight, per row."""
    pair_cost = [2 * ((j + 2 + BLOCK - 1) // BLOCK * BLOCK) for j in range(0, p, 2)]
    total = sum(pair_cost)
    bounds, done, pair = [0], 0, 0
    for part in range(1, parts):
        while pair < len(pair_cost) and done + pair_cost[pair] / 2 <= total * part / parts:
            done += pair_cost[pair]
            pair += 1
        bounds.append(min(2 * pair, p))
    bounds.append(p)
    return np.array(bounds, dtype=np.int64)


def hessian_binary(X, weights, fit_intercept, alpha, H):
    """``_logistic_kernels.hessian`` for K = 2 (same floats) into H (p x p, lower triangle;
    the caller zeroes it), given the sample weights w_i = P_i1 (1 - P_i1).  On threads,
    the blocks of samples are shared out when their partial sums fit in BLOCK_PARTIALS
    floats and there are more blocks than rows pairs, else the rows."""
    n, d = X.shape
    p = H.shape[0]
    width = (p + 1 + BLOCK - 1) // BLOCK * BLOCK
    S = np.zeros((width, width))
    threads = numba.get_num_threads()
    size = (threads > 1) * n * p * p / PARALLEL_WORK
    n_blocks = (n + SUM_BLOCK - 1) // SUM_BLOCK
    by_blocks = n_blocks * width * width <= BLOCK_PARTIALS and n_blocks > (p + 1) // 2
    if size >= 1 and by_blocks:
        run_parallel(hessian_by_blocks, hessian_serial, size, X, weights, fit_intercept, S,
                     np.empty((n_blocks, width, width)), row_bounds(p, 1),
                     unit_seconds=PARALLEL_SECONDS)
    else:
        run_parallel(hessian_by_rows, hessian_serial, size, X, weights, fit_intercept, S,
                     np.empty((threads, width, width)), row_bounds(p, threads),
                     unit_seconds=PARALLEL_SECONDS)
    finish_hessian(S, n, d, float(alpha), H)
