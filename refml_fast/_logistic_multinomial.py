"""The multinomial objective and gradient of LogisticRegression on Numba's threads.

refml's ``_logistic_solvers.objective`` walks the samples in order and, for each, adds
residual_ik x~_ij to every gradient entry.  Here the same floats come in two parallel
phases: first each sample's loss term and residuals P_ik - 1{y_i = k} (independent per
sample, so any thread may compute any sample, with refml's operations for that sample);
then each gradient entry (k, j) sums residual_ik x~_ij over i = 1..n in order, in one
pass over X for every class at once.  Only the loss total, a sum over samples, stays serial.  The
one-thread twins compute the same values.
"""

import numpy as np
from numba import prange

from ._config import kernel, run_parallel
from ._logistic_kernels import probabilities_from_scores, regularise

BLOCK = 256
SUB = 64


@kernel
def sample_terms(X, codes, theta_t, n_free, fit_intercept, first, end, losses, residuals):
    """For samples first..end-1: loss log(1 + sum_k e^{z_k}) - z_y and the residuals.

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
            losses[i] = log_normaliser - z_y
            for k in range(n_free):
                residuals[i, k] = probabilities[k + 1] - (1.0 if y == k + 1 else 0.0)


@kernel
def sample_terms_serial(X, codes, theta_t, n_free, fit_intercept, losses, residuals):
    sample_terms(X, codes, theta_t, n_free, fit_intercept, 0, X.shape[0], losses, residuals)


@kernel(parallel=True)
def sample_terms_parallel(X, codes, theta_t, n_free, fit_intercept, losses, residuals):
    for block in prange((X.shape[0] + BLOCK - 1) // BLOCK):
        sample_terms(X, codes, theta_t, n_free, fit_intercept, block * BLOCK,
                     min(X.shape[0], block * BLOCK + BLOCK), losses, residuals)


@kernel
def gradient_one_pass(X, residuals, fit_intercept, gradient):
    """gradient[k p + j] = sum_i residual_ik x~_ij, i = 1..n in order (refml's sums), every
    class k at once: one pass over X instead of one per class, on one thread (splitting the
    columns between two threads measured 3-5x slower: 7 ms against 1.3 ms at 30,000 x 50,
    K = 10)."""
    d = X.shape[1]
    p = d + (1 if fit_intercept else 0)
    n_free = residuals.shape[1]
    sums = np.zeros((n_free, p))
    for i in range(X.shape[0]):
        for k in range(n_free):
            residual = residuals[i, k]
            for j in range(d):
                sums[k, j] += residual * X[i, j]
            if fit_intercept:
                sums[k, d] += residual * 1.0
    for k in range(n_free):
        for j in range(p):
            gradient[k * p + j] = sums[k, j]


@kernel
def finish(losses, theta, n_free, d, fit_intercept, alpha, gradient):
    """L = sum_i loss_i / n + (alpha/2) sum ||w_k||^2; gradient / n + alpha [w_k, 0]."""
    n = losses.shape[0]
    data_loss = 0.0
    for i in range(n):
        data_loss += losses[i]
    return data_loss / n + regularise(theta, n_free, d, fit_intercept, alpha, n, gradient)


EXP_COST = 16
# Units of work (below) from which the sample terms go to the threads: about 0.3 ms on one
# core (0.8 ns a unit measured), where two threads already save more than a launch costs
# (20,000 x 2 with three classes: 0.61 -> 0.33 ms).  As the binary objective's
# TWO_PASS_SAMPLES; the launch guard (``run_parallel``) keeps them serial while the cores
# are busy.
PARALLEL_UNITS = 400_000


def objective(X, codes, theta, n_free, fit_intercept, alpha, gradient):
    """L(theta) and grad L(theta) (into ``gradient``): ``_logistic_kernels.objective``'s
    values, on Numba's threads when the data are large."""
    n = X.shape[0]
    losses = np.empty(n)
    residuals = np.empty((n, n_free))
    # A score costs d + 1 multiply-adds and its exponential about EXP_COST more.
    size = n * n_free * (X.shape[1] + 1 + EXP_COST) / PARALLEL_UNITS
    theta_t = np.ascontiguousarray(theta.reshape(n_free, -1).T)
    run_parallel(sample_terms_parallel, sample_terms_serial, size, X, codes, theta_t, n_free,
                 fit_intercept, losses, residuals)
    gradient_one_pass(X, residuals, fit_intercept, gradient)
    return finish(losses, theta, n_free, X.shape[1], fit_intercept, alpha, gradient)
