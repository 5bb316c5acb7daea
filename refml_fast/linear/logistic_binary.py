"""Kernels for K = 2 (the benchmark's case): refml's operations, eight samples at a time.

The general kernels (refml_fast/linear/logistic_kernels.py) follow refml row by row.  For two
classes these do the same arithmetic faster, without changing a single float:

- the eight scores z_i = theta'x~_i of a block are independent sums, so they are computed
  interleaved, each still summed left to right from 0.0 (refml's ``linalg.dot``);
- an accumulator (a gradient entry, a Hessian entry) receives the eight samples' terms one
  after the other, (((g + t_0) + t_1) + ...) + t_7: the same additions in the same order as
  the row-by-row loop, without storing g in between;
- the probability is ``probabilities_from_scores`` written out for one score:
  m = max(0, z), e_0 = exp(-m), e_1 = exp(z - m), P_1 = e_1 / ((0 + e_0) + e_1),
  log(1 + e^z) = m + log((0 + e_0) + e_1), skipping the exponential that is exp(0) = 1;
- the objective sums blocks of BINARY_SUM_BLOCK samples as refml does, so that the blocks
  can go to separate threads (``objective``), each summing its own from 0.0;
- the objective also returns the Hessian's sample weights P_i1 (1 - P_i1), which the
  Newton step at the same theta reuses instead of scoring the data again (the Hessian
  itself: refml_fast/linear/logistic_hessian.py).
The n mod 8 samples at the end go one at a time.
"""

import math

import numpy as np
from numba import prange

from refml.core import summation
from refml_fast.linear.logistic_kernels import add_blocks
from refml_fast.runtime.options import kernel
from refml_fast.runtime.threads import run_parallel

BLOCK = 8
LOG_TWO = math.log(2.0)


@kernel(inline=True, refcounts=False)
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


@kernel(inline=True, refcounts=False)
def row_score(X, i, theta, fit_intercept):
    d = X.shape[1]
    total = 0.0
    for j in range(d):
        total += theta[j] * X[i, j]
    if fit_intercept:
        total += theta[d] * 1.0
    return total


@kernel(inline=True, refcounts=False)
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
    infinite or NaN z takes refml's path as written.  z = 0 (every sample at theta = 0,
    where each fit starts) needs neither: e_0 = e_1 = 1, P = 1 / 2 and log 2, the same
    floats (``LOG_TWO`` is libm's log(2.0), as refml's math.log gives it).
    """
    if z == 0.0:
        return 0.5, 0.0 + LOG_TWO
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


@kernel(inline=True, refcounts=False)
def sample_terms(z, block, u, logs):
    """The transcendental part of ``probability_and_log_normaliser`` for the ``block``
    scores z[0..block-1], each function over the whole block before the next:
    u[b] = exp(-|z_b|) and logs[b] = log(1 + u[b]).

    For a finite z this is refml's pair: one of e_0 = exp(-m) and e_1 = exp(z - m) is
    exp(0) = 1 and the other exp(-|z|), and (0 + e_0) + e_1 = 1 + exp(-|z|).  Calling exp
    eight times and then log eight times, with no branch between, lets the calls overlap:
    libm's log takes a separate path for arguments near 1, so one sample at a time it
    mispredicted that branch whenever |z| crossed about 2.7 (12 -> 6 ns a sample,
    measured).  z = 0 (every sample at theta = 0) calls neither: u = 1, log 2."""
    for b in range(block):
        u[b] = 1.0 if z[b] == 0.0 else math.exp(-abs(z[b]))
    for b in range(block):
        logs[b] = LOG_TWO if z[b] == 0.0 else math.log(1.0 + u[b])


@kernel(refcounts=False)
def block_objective(X, codes, theta, fit_intercept, first, stop, gradient, weights, scratch):
    """refml's ``block_sums`` for K = 2 over samples first..stop-1 (``first`` a multiple of
    eight): returns the loss sum and writes the gradient sums into ``gradient``, both from
    0.0 in sample order; also writes the Hessian's sample weights, weights[i] =
    P_i1 (1 - P_i1), so that the Newton step that follows an accepted trial point need not
    score the data again.

    P and log(1 + e^z) come from ``sample_terms``: with u = exp(-|z|), P = 1 / (1 + u) for
    z > 0 and u / (1 + u) otherwise, log(1 + e^z) = max(z, 0) + log(1 + u), the floats of
    ``probability_and_log_normaliser`` for every finite z (an infinite or NaN z takes that
    function itself).

    ``scratch`` (4 x BLOCK, the caller's) holds the block's scores, exp(-|z|), logs and
    residuals: with no array of its own the kernel compiles without reference counts,
    which its inlined helpers otherwise took atomically for every eight samples (one core,
    10,000 x 40: 0.187 -> 0.169 ms)."""
    d = X.shape[1]
    p = d + (1 if fit_intercept else 0)
    z, u, logs, r = scratch[0], scratch[1], scratch[2], scratch[3]
    for j in range(p):
        gradient[j] = 0.0
    data_loss = 0.0
    i = first
    while i < stop:
        block = BLOCK if i + BLOCK <= stop else 1
        fill_scores(X, i, block, theta, fit_intercept, z)
        sample_terms(z, block, u, logs)
        for b in range(block):
            score = z[b]
            if score - score == 0.0:
                positive = score > 0.0
                probability = (1.0 if positive else u[b]) / (1.0 + u[b])
                log_normaliser = (score if positive else 0.0) + logs[b]
            else:
                probability, log_normaliser = probability_and_log_normaliser(score)
            weights[i + b] = probability * (1.0 - probability)
            y = codes[i + b]
            z_y = score if y > 0 else 0.0
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
    return data_loss


@kernel
def blocks_serial(X, codes, theta, fit_intercept, losses, gradients, weights):
    """``block_objective`` for every block of BINARY_SUM_BLOCK samples, one after the other."""
    n = X.shape[0]
    scratch = np.empty((4, BLOCK))
    for b in range(losses.shape[0]):
        losses[b] = block_objective(X, codes, theta, fit_intercept, b * BINARY_SUM_BLOCK,
                                    min(n, (b + 1) * BINARY_SUM_BLOCK), gradients[b], weights,
                                    scratch)


# The twins are two functions, not one compiled twice: Numba's cache keys a kernel by its
# function and signature, not by its options, so a serial twin of the same function could
# load the parallel code (and launch it while another thread's launch runs).
@kernel(parallel=True)
def blocks_parallel(X, codes, theta, fit_intercept, losses, gradients, weights):
    """``blocks_serial`` with the blocks shared among threads (each block's sums by one
    thread, from 0.0 in sample order: the same floats)."""
    n = X.shape[0]
    for b in prange(losses.shape[0]):
        losses[b] = block_objective(X, codes, theta, fit_intercept, b * BINARY_SUM_BLOCK,
                                    min(n, (b + 1) * BINARY_SUM_BLOCK), gradients[b], weights,
                                    np.empty((4, BLOCK)))


@kernel
def objective_binary(X, codes, theta, fit_intercept, alpha, gradient, weights):
    """``logistic_kernels.objective`` for K = 2 (same floats) on the calling thread, with
    the Hessian weights (``block_objective``)."""
    n_blocks = (X.shape[0] + BINARY_SUM_BLOCK - 1) // BINARY_SUM_BLOCK
    losses = np.empty(n_blocks)
    gradients = np.empty((n_blocks, gradient.shape[0]))
    blocks_serial(X, codes, theta, fit_intercept, losses, gradients, weights)
    return add_blocks(losses, gradients, theta, 1, X.shape[1], fit_intercept, alpha,
                      X.shape[0], gradient)


def objective(X, codes, theta, fit_intercept, alpha, gradient, weights):
    """``objective_binary``'s floats, the blocks on every core from PARALLEL_ENTRIES
    entries of X on (and two blocks).  Each thread sums its own blocks, so only the blocks'
    sums (p floats each) move between cores, and with Numba's static schedule each thread
    takes the same run of blocks at every evaluation: its samples stay in its core's cache
    when X fits in the caches of all the cores."""
    n = X.shape[0]
    work = n * (X.shape[1] + SAMPLE_ENTRIES)
    if work < PARALLEL_ENTRIES or n <= BINARY_SUM_BLOCK:
        return objective_binary(X, codes, theta, fit_intercept, alpha, gradient, weights)
    n_blocks = (n + BINARY_SUM_BLOCK - 1) // BINARY_SUM_BLOCK
    losses = np.empty(n_blocks)
    gradients = np.empty((n_blocks, gradient.shape[0]))
    run_parallel(blocks_parallel, blocks_serial, work / PARALLEL_ENTRIES, X, codes,
                 theta, fit_intercept, losses, gradients, weights, unit_seconds=PARALLEL_SECONDS)
    return add_blocks(losses, gradients, theta, 1, X.shape[1], fit_intercept, alpha, n,
                      gradient)


BINARY_SUM_BLOCK = summation.BINARY_SUM_BLOCK   # a multiple of BLOCK
# From this many entries of X (about PARALLEL_SECONDS on one core) the blocks go to the
# threads; ``run_parallel`` keeps them on one while the cores are busy.  A sample's exp and
# log cost about SAMPLE_ENTRIES entries besides its own d: with d = 2, 29,872 samples took
# 0.32 ms an objective on one core (10.7 ns a sample), and had stayed there, being 60,000
# entries.
PARALLEL_ENTRIES, PARALLEL_SECONDS, SAMPLE_ENTRIES = 200_000, 0.00005, 40


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
