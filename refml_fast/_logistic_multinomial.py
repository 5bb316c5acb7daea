"""The multinomial objective and gradient of LogisticRegression on Numba's threads.

refml's ``_logistic_solvers.objective`` sums blocks of SUM_BLOCK samples (``block_sums``):
in each, sample by sample, the loss term and residual_ik x~_ij added to every gradient
entry, from 0.0; then the blocks' sums in order.  Here each block is one task for a thread,
in two steps with refml's floats: each sample's loss term and residuals P_ik - 1{y_i = k}
(``sample_terms``, scores of SUB samples at a time), then every gradient entry (k, j)
summed over the block's samples in order, in one pass over the block of X for every class
at once.  The blocks' sums are added in order on one thread (``add_blocks``).  The
one-thread twin computes the same values.
"""

import numpy as np
from numba import prange

from refml import _logistic_solvers as solvers

from ._config import kernel, run_parallel
from ._logistic_kernels import add_blocks, probabilities_from_scores

SUM_BLOCK = solvers.SUM_BLOCK
SUB = 64


@kernel
def sample_terms(X, codes, theta_t, n_free, fit_intercept, first, end, residuals):
    """For samples first..end-1: the residuals (row i - first of ``residuals``); returns
    the sum of their loss terms log(1 + sum_k e^{z_k}) - z_y, in sample order from 0.0.

    The scores come SUB samples at a time: the block of X is copied transposed (x~_j of
    every sample in a row), so that z_k of all SUB samples grow together feature by feature
    in one loop over the samples, which vectorises at full width.  ``theta_t`` is theta as a
    p x (K-1) table.  Each z_k still adds its terms j = 0, 1, ... from 0.0, as
    ``theta_scores`` does, so the floats are refml's."""
    d = X.shape[1]
    p = d + (1 if fit_intercept else 0)
    block = np.empty((p, SUB))
    Z = np.empty((n_free, SUB))
    z = np.empty(n_free)
    probabilities = np.empty(n_free + 1)
    data_loss = 0.0
    for start in range(first, end, SUB):
        m = min(SUB, end - start)
        for s in range(m):
            for j in range(d):
                block[j, s] = X[start + s, j]
            if fit_intercept:
                block[d, s] = 1.0
        for k in range(n_free):
            for s in range(m):
                Z[k, s] = 0.0
        for j in range(p):
            for k in range(n_free):
                weight = theta_t[j, k]
                for s in range(m):
                    Z[k, s] += weight * block[j, s]
        for s in range(m):
            i = start + s
            for k in range(n_free):
                z[k] = Z[k, s]
            log_normaliser = probabilities_from_scores(z, n_free, probabilities)
            y = codes[i]
            z_y = z[y - 1] if y > 0 else 0.0
            data_loss += log_normaliser - z_y
            for k in range(n_free):
                residuals[i - first, k] = probabilities[k + 1] - (1.0 if y == k + 1 else 0.0)
    return data_loss


@kernel
def block_sums(X, codes, theta_t, n_free, fit_intercept, first, end, gradient):
    """refml's ``block_sums`` over samples first..end-1: returns the loss sum and writes
    gradient[k p + j] = sum_i residual_ik x~_ij (i in order, from 0.0), every class k at
    once in one pass over the block's rows."""
    d = X.shape[1]
    p = d + (1 if fit_intercept else 0)
    residuals = np.empty((end - first, n_free))
    data_loss = sample_terms(X, codes, theta_t, n_free, fit_intercept, first, end, residuals)
    sums = np.zeros((n_free, p))
    for i in range(first, end):
        for k in range(n_free):
            residual = residuals[i - first, k]
            for j in range(d):
                sums[k, j] += residual * X[i, j]
            if fit_intercept:
                sums[k, d] += residual * 1.0
    for k in range(n_free):
        for j in range(p):
            gradient[k * p + j] = sums[k, j]
    return data_loss


@kernel
def blocks_serial(X, codes, theta_t, n_free, fit_intercept, losses, gradients):
    n = X.shape[0]
    for b in range(losses.shape[0]):
        losses[b] = block_sums(X, codes, theta_t, n_free, fit_intercept, b * SUM_BLOCK,
                               min(n, (b + 1) * SUM_BLOCK), gradients[b])


@kernel(parallel=True)
def blocks_parallel(X, codes, theta_t, n_free, fit_intercept, losses, gradients):
    n = X.shape[0]
    for b in prange(losses.shape[0]):
        losses[b] = block_sums(X, codes, theta_t, n_free, fit_intercept, b * SUM_BLOCK,
                               min(n, (b + 1) * SUM_BLOCK), gradients[b])


EXP_COST = 16
# Units of work (below) from which the blocks go to the threads: about 0.3 ms on one core
# (0.8 ns a unit measured), where two threads already save more than a launch costs
# (20,000 x 2 with three classes: 0.61 -> 0.33 ms).  The launch guard (``run_parallel``)
# keeps them on one thread while the cores are busy.
PARALLEL_UNITS, PARALLEL_SECONDS = 400_000, 0.0003


def objective(X, codes, theta, n_free, fit_intercept, alpha, gradient):
    """L(theta) and grad L(theta) (into ``gradient``): ``_logistic_kernels.objective``'s
    values, on Numba's threads when the data are large."""
    n = X.shape[0]
    n_blocks = (n + SUM_BLOCK - 1) // SUM_BLOCK
    losses = np.empty(n_blocks)
    gradients = np.empty((n_blocks, gradient.shape[0]))
    # A score costs d + 1 multiply-adds and its exponential about EXP_COST more.
    size = (n_blocks > 1) * n * n_free * (X.shape[1] + 1 + EXP_COST) / PARALLEL_UNITS
    theta_t = np.ascontiguousarray(theta.reshape(n_free, -1).T)
    run_parallel(blocks_parallel, blocks_serial, size, X, codes, theta_t, n_free,
                 fit_intercept, losses, gradients, unit_seconds=PARALLEL_SECONDS)
    return add_blocks(losses, gradients, theta, n_free, X.shape[1], fit_intercept, alpha, n,
                      gradient)
