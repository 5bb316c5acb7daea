"""The multinomial objective and gradient of LogisticRegression on Numba's threads.

refml's ``_logistic_solvers.objective`` walks the samples in order and, for each, adds
residual_ik x~_ij to every gradient entry.  Here the same floats come in two parallel
phases: first each sample's loss term and residuals P_ik - 1{y_i = k} (independent per
sample, so any thread may compute any sample, with refml's operations for that sample);
then each gradient entry (k, j) sums residual_ik x~_ij over i = 1..n in order, the columns
of x~ shared between the threads.  Only the loss total, a sum over samples, stays serial.  The
one-thread twins compute the same values.
"""

import numba
import numpy as np
from numba import prange

from ._config import kernel, run_parallel
from ._kernels import PARALLEL_WORK
from ._logistic_kernels import load_row, probabilities_from_scores, regularise

BLOCK = 256


@kernel
def sample_terms(X, codes, theta_t, n_free, fit_intercept, first, end, losses, residuals):
    """For samples first..end-1: loss log(1 + sum_k e^{z_k}) - z_y and the residuals.

    ``theta_t`` is theta as a p x (K-1) table, so that the K-1 scores z_k = sum_j
    theta_kj x~_j grow together feature by feature (a loop over k that vectorises); each
    z_k still adds its terms j = 0, 1, ... from 0.0, as ``theta_scores`` does."""
    p = X.shape[1] + (1 if fit_intercept else 0)
    x_tilde = np.empty(p)
    z = np.empty(n_free)
    probabilities = np.empty(n_free + 1)
    for i in range(first, end):
        load_row(X, i, fit_intercept, x_tilde)
        for k in range(n_free):
            z[k] = 0.0
        for j in range(p):
            value = x_tilde[j]
            for k in range(n_free):
                z[k] += theta_t[j, k] * value
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
def gradient_of_columns(X, residuals, fit_intercept, first, end, gradient):
    """gradient[k p + j] = sum_i residual_ik x~_ij for the columns first <= j < end of x~,
    i = 1..n in order (refml's sums), every class k at once: one pass over those columns
    of X instead of one pass per class.  The sums grow in a local table (threads writing
    next to each other in ``gradient`` would share cache lines at every sample)."""
    d = X.shape[1]
    p = d + (1 if fit_intercept else 0)
    n_free = residuals.shape[1]
    last = min(end, d)
    width = end - first
    sums = np.zeros((n_free, width))
    for i in range(X.shape[0]):
        for k in range(n_free):
            residual = residuals[i, k]
            for j in range(first, last):
                sums[k, j - first] += residual * X[i, j]
            if fit_intercept and end > d:
                sums[k, d - first] += residual * 1.0
    for k in range(n_free):
        for j in range(first, end):
            gradient[k * p + j] = sums[k, j - first]


@kernel
def gradient_serial(X, residuals, fit_intercept, chunks, gradient):
    p = X.shape[1] + (1 if fit_intercept else 0)
    gradient_of_columns(X, residuals, fit_intercept, 0, p, gradient)


@kernel(parallel=True)
def gradient_parallel(X, residuals, fit_intercept, chunks, gradient):
    """The columns of x~ in ``chunks`` contiguous chunks (one per thread)."""
    p = X.shape[1] + (1 if fit_intercept else 0)
    chunks = min(p, chunks)
    for c in prange(chunks):
        gradient_of_columns(X, residuals, fit_intercept, c * p // chunks, (c + 1) * p // chunks,
                            gradient)


@kernel
def finish(losses, theta, n_free, d, fit_intercept, alpha, gradient):
    """L = sum_i loss_i / n + (alpha/2) sum ||w_k||^2; gradient / n + alpha [w_k, 0]."""
    n = losses.shape[0]
    data_loss = 0.0
    for i in range(n):
        data_loss += losses[i]
    return data_loss / n + regularise(theta, n_free, d, fit_intercept, alpha, n, gradient)


def objective(X, codes, theta, n_free, fit_intercept, alpha, gradient):
    """L(theta) and grad L(theta) (into ``gradient``): ``_logistic_kernels.objective``'s
    values, on Numba's threads when the data are large."""
    n = X.shape[0]
    losses = np.empty(n)
    residuals = np.empty((n, n_free))
    large = n * n_free * (X.shape[1] + 1) > PARALLEL_WORK
    theta_t = np.ascontiguousarray(theta.reshape(n_free, -1).T)
    run_parallel(sample_terms_parallel, sample_terms_serial, large, X, codes, theta_t, n_free,
                 fit_intercept, losses, residuals)
    run_parallel(gradient_parallel, gradient_serial, large, X, residuals, fit_intercept,
                 numba.get_num_threads(), gradient)
    return finish(losses, theta, n_free, X.shape[1], fit_intercept, alpha, gradient)
