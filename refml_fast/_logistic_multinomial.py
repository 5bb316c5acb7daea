"""The multinomial objective and gradient of LogisticRegression on Numba's threads.

refml's ``_logistic_solvers.objective`` walks the samples in order and, for each, adds
residual_ik x~_ij to every gradient entry.  Here the same floats come in two parallel
phases: first each sample's loss term and residuals P_ik - 1{y_i = k} (independent per
sample, so any thread may compute any sample, with refml's operations for that sample);
then each gradient entry (k, j) sums residual_ik x~_ij over i = 1..n in order, the classes
shared between the threads.  Only the loss total, a sum over samples, stays serial.  The
one-thread twins compute the same values.
"""

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
def gradient_of_class(X, residuals, fit_intercept, k, gradient):
    """gradient[k p + j] = sum_i residual_ik x~_ij, i = 1..n in order (refml's sums)."""
    d = X.shape[1]
    p = d + (1 if fit_intercept else 0)
    for j in range(p):
        gradient[k * p + j] = 0.0
    for i in range(X.shape[0]):
        residual = residuals[i, k]
        for j in range(d):
            gradient[k * p + j] += residual * X[i, j]
        if fit_intercept:
            gradient[k * p + d] += residual * 1.0


@kernel
def gradient_serial(X, residuals, fit_intercept, gradient):
    for k in range(residuals.shape[1]):
        gradient_of_class(X, residuals, fit_intercept, k, gradient)


@kernel(parallel=True)
def gradient_parallel(X, residuals, fit_intercept, gradient):
    for k in prange(residuals.shape[1]):
        gradient_of_class(X, residuals, fit_intercept, k, gradient)


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
    run_parallel(gradient_parallel, gradient_serial, large and n_free > 1, X, residuals,
                 fit_intercept, gradient)
    return finish(losses, theta, n_free, X.shape[1], fit_intercept, alpha, gradient)
