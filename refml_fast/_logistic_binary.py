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
  log(1 + e^z) = m + log((0 + e_0) + e_1), skipping the exponential that is exp(0) = 1;
- the objective also returns the Hessian's sample weights P_i1 (1 - P_i1), which the
  Newton step at the same theta reuses instead of scoring the data again;
- the Hessian's rows are shared among threads, each entry summed by one thread.
n mod 8 samples at the end go one at a time.
"""

import math

import numba
import numpy as np
from numba import prange

from ._config import kernel, parallel_now, run_parallel

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
    """(P(Y = 1 | x), log(1 + e^z)) for one score z, with one call of exp.

    refml takes e_0 = exp(-m) and e_1 = exp(z - m), m = max(0, z): one of the two
    exponents is 0 for a finite z (exp(0) = 1 exactly), so only the other is computed.  An
    infinite or NaN z takes refml's path as written.
    """
    if z > 0.0:
        m = z
        e0 = math.exp(-z)
        e1 = 1.0 if z - z == 0.0 else math.exp(z - z)
    else:
        m = 0.0
        e0 = 1.0                 # exp(-0.0)
        e1 = math.exp(z)         # exp(z - 0.0), z - 0.0 == z for every z
    total = 0.0
    total += e0
    total += e1
    return e1 / total, m + math.log(total)


@kernel
def finish_objective(theta, d, alpha, n, data_loss, gradient):
    """The mean loss plus the ridge, (data_loss / n) + (alpha / 2) ||theta_1..d||^2, and
    the gradient's sums made means plus alpha theta_j (not for the intercept), in refml's
    order."""
    penalty = 0.0
    for j in range(d):
        penalty += theta[j] * theta[j]
    for j in range(gradient.shape[0]):
        ridge = alpha * theta[j] if j < d else 0.0
        gradient[j] = gradient[j] / n + ridge
    return data_loss / n + 0.5 * alpha * penalty


@kernel
def objective_binary(X, codes, theta, fit_intercept, alpha, gradient, weights):
    """``_logistic_kernels.objective`` for K = 2 (same floats).

    Also writes the Hessian's sample weights at theta, weights[i] = P_i1 (1 - P_i1), so that
    the Newton step that follows an accepted trial point need not score the data again.
    """
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
            weights[i + b] = probability * (1.0 - probability)
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
    return finish_objective(theta, d, alpha, n, data_loss, gradient)


@kernel
def sample_terms(X, codes, theta, fit_intercept, losses, residuals, weights, first_block,
                 end_block):
    """Pass one of ``objective_two_pass`` for the blocks of eight samples [first_block,
    end_block): for every sample, independently, the loss term log(1 + e^z) - z_y, the
    residual P_i1 - y_i and the Hessian weight P_i1 (1 - P_i1), as ``objective_binary``
    computes them (eight rows' scores interleaved, the last n mod 8 one at a time)."""
    n = X.shape[0]
    z = np.empty(BLOCK)
    for block in range(first_block, end_block):
        first = block * BLOCK
        count = min(BLOCK, n - first)
        if count == BLOCK:
            block_scores(X, first, theta, fit_intercept, z)
        else:
            for b in range(count):
                z[b] = row_score(X, first + b, theta, fit_intercept)
        for b in range(count):
            i = first + b
            probability, log_normaliser = probability_and_log_normaliser(z[b])
            weights[i] = probability * (1.0 - probability)
            z_y = z[b] if codes[i] > 0 else 0.0
            losses[i] = log_normaliser - z_y
            residuals[i] = probability - (1.0 if codes[i] == 1 else 0.0)


# The twins are two functions, not one compiled twice: Numba's cache keys a kernel by its
# function and signature, not by its options, so a serial twin of the same function could
# load the parallel code (and launch it while another thread's launch runs).
@kernel(parallel=True)
def sample_terms_parallel(X, codes, theta, fit_intercept, losses, residuals, weights,
                          n_chunks):
    """``sample_terms`` for all samples, chunks of whole blocks of eight on the threads."""
    n_blocks = (X.shape[0] + BLOCK - 1) // BLOCK
    for chunk in prange(n_chunks):
        sample_terms(X, codes, theta, fit_intercept, losses, residuals, weights,
                     chunk * n_blocks // n_chunks, (chunk + 1) * n_blocks // n_chunks)


@kernel
def sample_terms_serial(X, codes, theta, fit_intercept, losses, residuals, weights, n_chunks):
    """``sample_terms`` for all samples on the calling thread (``n_chunks`` unused)."""
    sample_terms(X, codes, theta, fit_intercept, losses, residuals, weights, 0,
                 (X.shape[0] + BLOCK - 1) // BLOCK)


@kernel
def sums_in_order(X, theta, fit_intercept, alpha, losses, residuals, gradient):
    """Pass two of ``objective_two_pass``: the loss and the gradient summed sample after
    sample, the additions of ``objective_binary`` in its order; returns the objective."""
    n, d = X.shape
    p = d + (1 if fit_intercept else 0)
    for j in range(p):
        gradient[j] = 0.0
    data_loss = 0.0
    for i in range(n):
        data_loss += losses[i]
        r = residuals[i]
        for j in range(d):
            gradient[j] += r * X[i, j]
        if fit_intercept:
            gradient[d] += r * 1.0
    return finish_objective(theta, d, alpha, n, data_loss, gradient)


def objective_two_pass(X, codes, theta, fit_intercept, alpha, gradient, weights):
    """``objective_binary``'s floats in two passes: the per-sample terms (an exponential and
    a logarithm each, most of the work when d is small) on every core, then the sums in
    sample order on one.  Measured against ``objective_binary`` on 2 cores: 2x faster at
    d <= 16, 1.2-1.6x at d = 24-50, even at d = 100-500, slower beyond (X is read twice),
    and no gain below a few thousand samples; hence ``TWO_PASS_FEATURES`` and
    ``TWO_PASS_SAMPLES``."""
    n = X.shape[0]
    if not parallel_now(n / TWO_PASS_SAMPLES):      # one core: one pass is faster
        return objective_binary(X, codes, theta, fit_intercept, alpha, gradient, weights)
    losses, residuals = np.empty(n), np.empty(n)
    run_parallel(sample_terms_parallel, sample_terms_serial, n / TWO_PASS_SAMPLES, X, codes,
                 theta, fit_intercept, losses, residuals, weights, 4 * numba.get_num_threads())
    return sums_in_order(X, theta, fit_intercept, alpha, losses, residuals, gradient)


TWO_PASS_FEATURES = 128   # at most this many features
TWO_PASS_SAMPLES = 16_384  # at least this many samples


@kernel
def sample_weights_binary(X, theta, fit_intercept, weights):
    """weights[i] = P_i1 (1 - P_i1) at theta (as ``objective_binary`` writes them)."""
    n = X.shape[0]
    z = np.empty(BLOCK)
    i = 0
    while i < n:
        block = BLOCK if i + BLOCK <= n else 1
        fill_scores(X, i, block, theta, fit_intercept, z)
        for b in range(block):
            probability, _ = probability_and_log_normaliser(z[b])
            weights[i + b] = probability * (1.0 - probability)
        i += block


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
def accumulate_hessian_rows(X, weights, fit_intercept, S, first, stop):
    """Rows first..stop-1 of S += sum_i a_i x~_i' with a_ij = w_i x~_ij, i = 0..n-1 in order
    (the Hessian before its division by n), w_i = P_i1 (1 - P_i1) given.

    Eight samples per pass over S, two rows of S at a time (``first`` even): entry S[j, jj]
    receives the eight samples' terms one after the other, as in refml.  Row j is updated
    on columns 0..j+1 rounded up to a multiple of eight, whole vectors without a scalar
    remainder; the entries above the diagonal that this touches are scratch, never read
    (S has room for them, and for row p when p is odd; the rows of x are zero beyond p).
    """
    n, d = X.shape
    width = S.shape[1]
    x = np.zeros((BLOCK, width))
    i = 0
    while i + BLOCK <= n:
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
    while i < n:                                  # the last n mod 8 samples, one at a time
        for j in range(d):
            x[0, j] = X[i, j]
        if fit_intercept:
            x[0, d] = 1.0
        for j in range(first, stop):
            a = weights[i] * x[0, j]
            for jj in range(j + 1):
                S[j, jj] += a * x[0, jj]
        i += 1


@kernel(parallel=True)
def accumulate_hessian_parallel(X, weights, fit_intercept, S, bounds):
    """``accumulate_hessian_rows`` on the row ranges bounds[t]..bounds[t+1], one per thread
    (each entry still summed by one thread in sample order: the same floats)."""
    for t in prange(bounds.shape[0] - 1):
        accumulate_hessian_rows(X, weights, fit_intercept, S, bounds[t], bounds[t + 1])


@kernel
def accumulate_hessian_serial(X, weights, fit_intercept, S, bounds):
    """``accumulate_hessian_parallel``'s twin on one thread: all the rows at once."""
    accumulate_hessian_rows(X, weights, fit_intercept, S, bounds[0], bounds[-1])


@kernel
def finish_hessian(S, n, d, alpha, H):
    """H = lower triangle of S / n, plus alpha on the diagonal of the w-part."""
    p = H.shape[0]
    for r in range(p):
        for c in range(r + 1):
            H[r, c] = S[r, c] / n
        if r < d:
            H[r, r] = H[r, r] + alpha


PARALLEL_WORK = 10_000_000  # n p^2 above which the rows of H are shared among threads


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
    the caller zeroes it), given the sample weights w_i = P_i1 (1 - P_i1)."""
    n, d = X.shape
    p = H.shape[0]
    width = (p + 1 + BLOCK - 1) // BLOCK * BLOCK
    S = np.zeros((width, width))
    threads = numba.get_num_threads()
    run_parallel(accumulate_hessian_parallel, accumulate_hessian_serial,
                 (threads > 1) * n * p * p / PARALLEL_WORK, X, weights, fit_intercept, S,
                 row_bounds(p, threads))
    finish_hessian(S, n, d, float(alpha), H)
