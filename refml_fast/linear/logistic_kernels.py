"""Numba kernels of LogisticRegression: refml/linear/logistic_solvers.py, operation for operation.

Conventions shared with the reference (so that the floats are identical):

- theta is flat, block k (class k + 1) = [w_k, b_k] of length p = d + fit_intercept; a row
  is copied into ``x_tilde`` = [x, 1] and every score is summed left to right from 0.0 over
  its p entries (refml's ``linalg.dot``);
- probabilities: m = max(0, z_1..z_{K-1}); e_0 = exp(-m), e_k = exp(z_k - m) summed from
  0.0 in the order e_0, e_1, ...; P_k = e_k / total; log-normaliser m + log(total);
- every sum over samples runs i = 0..n-1 in order, accumulating into the output entry,
  except the objective's: blocks of ``summation.objective_block(K)`` samples summed from
  0.0, the blocks' sums then added in order (refml's ``objective`` and ``block_sums``);
- SGD draws i with the shared SplitMix64 ``randbelow`` and steps C k^(-power_t).
No BLAS, no fastmath: their summation orders differ from refml's.
"""

import math

import numpy as np

from refml.core import summation
from refml_fast.core import random as _random
from refml_fast.core.linalg import sigmoid  # refml.core.linalg.sigmoid, one kernel for both
from refml_fast.runtime.options import kernel

SUM_BLOCK = summation.SUM_BLOCK
BINARY_SUM_BLOCK = summation.BINARY_SUM_BLOCK


@kernel
def load_row(X, i, fit_intercept, x_tilde):
    """x_tilde = [x_i, 1] (or x_i)."""
    d = X.shape[1]
    for j in range(d):
        x_tilde[j] = X[i, j]
    if fit_intercept:
        x_tilde[d] = 1.0


@kernel
def theta_scores(theta, x_tilde, n_free, z):
    """z_k = beta_k'x~ for k = 1..K-1 (stored at z[k - 1])."""
    p = x_tilde.shape[0]
    for k in range(n_free):
        total = 0.0
        for j in range(p):
            total += theta[k * p + j] * x_tilde[j]
        z[k] = total


@kernel(inline=True)
def probabilities_from_scores(z, n_free, probabilities):
    """P(Y = k | x) for k = 0..K-1 into ``probabilities``; returns log(1 + sum_k e^{z_k}).

    refml's ``class_probabilities``: e^{-m} and e^{z_k - m} with m = max(0, z_1, ...).  The
    exponent of the largest score is exactly 0 and exp(0) = 1 exactly, so that call is
    skipped (a zero exponent gives 1.0 either way; NaN and infinite exponents still go to
    exp): one exponential fewer per sample, 8-12% of the sample terms with 3-6 classes."""
    m = 0.0
    for k in range(n_free):
        if z[k] > m:
            m = z[k]
    probabilities[0] = 1.0 if m == 0.0 else math.exp(-m)
    for k in range(n_free):
        exponent = z[k] - m
        probabilities[k + 1] = 1.0 if exponent == 0.0 else math.exp(exponent)
    total = 0.0
    for k in range(n_free + 1):
        total += probabilities[k]
    for k in range(n_free + 1):
        probabilities[k] = probabilities[k] / total
    return m + math.log(total)


@kernel
def objective(X, codes, theta, n_free, fit_intercept, alpha, gradient):
    """Returns L(theta); writes grad L(theta) into ``gradient``."""
    n, d = X.shape
    partial = np.empty(gradient.shape[0])
    for r in range(gradient.shape[0]):
        gradient[r] = 0.0
    data_loss = 0.0
    size = BINARY_SUM_BLOCK if n_free == 1 else SUM_BLOCK     # summation.objective_block
    for first in range(0, n, size):
        data_loss += block_sums(X, codes, theta, n_free, fit_intercept, first,
                                min(n, first + size), partial)
        for r in range(gradient.shape[0]):
            gradient[r] += partial[r]
    return data_loss / n + regularise(theta, n_free, d, fit_intercept, alpha, n, gradient)


@kernel
def block_sums(X, codes, theta, n_free, fit_intercept, first, stop, gradient):
    """refml's ``block_sums`` over samples first..stop-1: returns the loss sum, writes the
    gradient sums into ``gradient``."""
    p = X.shape[1] + (1 if fit_intercept else 0)
    x_tilde = np.empty(p)
    z = np.empty(n_free)
    probabilities = np.empty(n_free + 1)
    for r in range(gradient.shape[0]):
        gradient[r] = 0.0
    data_loss = 0.0
    for i in range(first, stop):
        load_row(X, i, fit_intercept, x_tilde)
        theta_scores(theta, x_tilde, n_free, z)
        log_normaliser = probabilities_from_scores(z, n_free, probabilities)
        y = codes[i]
        z_y = z[y - 1] if y > 0 else 0.0
        data_loss += log_normaliser - z_y
        for k in range(n_free):
            residual = probabilities[k + 1] - (1.0 if y == k + 1 else 0.0)
            for j in range(p):
                gradient[k * p + j] += residual * x_tilde[j]
    return data_loss


@kernel
def add_blocks(losses, gradients, theta, n_free, d, fit_intercept, alpha, n, gradient):
    """The blocks' sums added in order from 0.0, then L = sum / n + (alpha/2) sum ||w_k||^2
    and gradient / n + alpha [w_k, 0] (refml's ``objective``)."""
    for r in range(gradient.shape[0]):
        gradient[r] = 0.0
    data_loss = 0.0
    for b in range(losses.shape[0]):
        data_loss += losses[b]
        for r in range(gradient.shape[0]):
            gradient[r] += gradients[b, r]
    return data_loss / n + regularise(theta, n_free, d, fit_intercept, alpha, n, gradient)


@kernel
def slope_mean(theta, n_free, p, d, mean):
    """mean <- m = s sum_k w_k (refml's ``slope_mean``; s = 1/K for K > 2, else 0)."""
    share = 1.0 / (n_free + 1) if n_free > 1 else 0.0
    for j in range(d):
        mean[j] = 0.0
    for k in range(n_free):
        for j in range(d):
            mean[j] += theta[k * p + j]
    for j in range(d):
        mean[j] = share * mean[j]


@kernel
def regularise(theta, n_free, d, fit_intercept, alpha, n, gradient):
    """gradient <- gradient / n + alpha [w_k - m, 0]; returns (alpha/2) R(w) (refml's
    ``objective`` and ``penalty``)."""
    p = d + (1 if fit_intercept else 0)
    mean = np.empty(d)
    slope_mean(theta, n_free, p, d, mean)
    for k in range(n_free):
        for j in range(p):
            ridge = alpha * (theta[k * p + j] - mean[j]) if j < d else 0.0
            gradient[k * p + j] = gradient[k * p + j] / n + ridge
    penalty = 0.0
    for k in range(n_free):
        for j in range(d):
            penalty += (theta[k * p + j] - mean[j]) * (theta[k * p + j] - mean[j])
    for j in range(d):
        penalty += mean[j] * mean[j]
    return 0.5 * alpha * penalty


@kernel
def hessian(X, theta, n_free, fit_intercept, alpha, H):
    """The lower triangle of the Hessian into H (size x size, zeroed by the caller): refml's
    ``block_hessian`` over blocks of SUM_BLOCK samples, added in order."""
    n, d = X.shape
    p = d + (1 if fit_intercept else 0)
    size = H.shape[0]
    block = np.empty((size, size))
    for first in range(0, n, SUM_BLOCK):
        block_hessian(X, theta, n_free, fit_intercept, first, min(n, first + SUM_BLOCK), block)
        for r in range(size):
            for c in range(r + 1):
                H[r, c] += block[r, c]
    share = 1.0 / (n_free + 1) if n_free > 1 else 0.0
    for r in range(size):
        for c in range(r + 1):
            H[r, c] = H[r, c] / n
            if c % p == r % p and r % p < d:
                H[r, c] = H[r, c] + alpha * ((1.0 if c == r else 0.0) - share)


@kernel
def block_hessian(X, theta, n_free, fit_intercept, first, stop, H):
    """refml's ``block_hessian`` over samples first..stop-1 into H's lower triangle."""
    p = X.shape[1] + (1 if fit_intercept else 0)
    x_tilde = np.empty(p)
    z = np.empty(n_free)
    probabilities = np.empty(n_free + 1)
    for r in range(H.shape[0]):
        for c in range(r + 1):
            H[r, c] = 0.0
    for i in range(first, stop):
        load_row(X, i, fit_intercept, x_tilde)
        theta_scores(theta, x_tilde, n_free, z)
        probabilities_from_scores(z, n_free, probabilities)
        for k in range(n_free):
            for l in range(k + 1):
                weight = probabilities[k + 1] * ((1.0 if k == l else 0.0)
                                                 - probabilities[l + 1])
                for j in range(p):
                    a = weight * x_tilde[j]
                    r = k * p + j
                    last = j + 1 if l == k else p
                    for jj in range(last):
                        H[r, l * p + jj] += a * x_tilde[jj]


@kernel
def sgd_epoch(X, codes, theta, total, k, learning_rate, power_t, n_free, fit_intercept,
              alpha, state):
    """n steps of [MATH412]'s Algorithm 1 without projection; returns the new k."""
    n, d = X.shape
    p = d + (1 if fit_intercept else 0)
    x_tilde = np.empty(p)
    z = np.empty(n_free)
    probabilities = np.empty(n_free + 1)
    G = np.empty(theta.shape[0])
    mean = np.zeros(d)             # m = 0 stays 0 unless a penalty couples K > 2 classes
    couple = alpha != 0.0 and n_free > 1
    for _ in range(n):
        k += 1
        gamma = learning_rate * np.float64(k) ** (-power_t)
        i = _random.randbelow(state, n)
        load_row(X, i, fit_intercept, x_tilde)
        theta_scores(theta, x_tilde, n_free, z)
        probabilities_from_scores(z, n_free, probabilities)
        if couple:
            slope_mean(theta, n_free, p, d, mean)
        y = codes[i]
        for c in range(n_free):
            residual = probabilities[c + 1] - (1.0 if y == c + 1 else 0.0)
            for j in range(p):
                ridge = alpha * (theta[c * p + j] - mean[j]) if j < d else 0.0
                G[c * p + j] = residual * x_tilde[j] + ridge
        for r in range(theta.shape[0]):
            theta[r] = theta[r] - gamma * G[r]
        for r in range(theta.shape[0]):
            total[r] = total[r] + theta[r]
    return k


@kernel
def separates(X, codes, theta, n_free, fit_intercept):
    """True when each row's own class has the strictly largest score (z_0 = 0)."""
    n, d = X.shape
    x_tilde = np.empty(d + (1 if fit_intercept else 0))
    z = np.empty(n_free)
    for i in range(n):
        load_row(X, i, fit_intercept, x_tilde)
        theta_scores(theta, x_tilde, n_free, z)
        y = codes[i]
        z_y = z[y - 1] if y > 0 else 0.0
        if y != 0 and not z_y > 0.0:
            return False
        for k in range(n_free):
            if k + 1 != y and not z_y > z[k]:
                return False
    return True


@kernel
def augmented_gram(X, fit_intercept, G):
    """G = X~'X~ (both triangles), G zeroed by the caller."""
    n, d = X.shape
    p = G.shape[0]
    x_tilde = np.empty(p)
    for i in range(n):
        load_row(X, i, fit_intercept, x_tilde)
        for j in range(p):
            for k in range(j + 1):
                G[j, k] += x_tilde[j] * x_tilde[k]
    for j in range(p):
        for k in range(j + 1, p):
            G[j, k] = G[k, j]


@kernel
def largest_squared_norm(X, fit_intercept):
    """max_i ||x~_i||^2."""
    n, d = X.shape
    x_tilde = np.empty(d + (1 if fit_intercept else 0))
    largest = 0.0
    for i in range(n):
        load_row(X, i, fit_intercept, x_tilde)
        total = 0.0
        for j in range(x_tilde.shape[0]):
            total += x_tilde[j] * x_tilde[j]
        if total > largest:
            largest = total
    return largest


# ----------------------------------------------------------------------------------------
# Predictions from coef_ ((K-1) x d) and intercept_ (K-1).


@kernel
def scores(X, coef, intercept, out):
    """out[i, k] = (sum_j w_kj x_ij, left to right from 0) + b_k.

    Eight rows at a time: their eight sums are independent, so they are interleaved (each
    still summed left to right) instead of waiting on one another.
    """
    n, d = X.shape
    i = 0
    while i + 8 <= n:
        for k in range(coef.shape[0]):
            z0 = z1 = z2 = z3 = z4 = z5 = z6 = z7 = 0.0
            for j in range(d):
                w = coef[k, j]
                z0 += w * X[i, j]
                z1 += w * X[i + 1, j]
                z2 += w * X[i + 2, j]
                z3 += w * X[i + 3, j]
                z4 += w * X[i + 4, j]
                z5 += w * X[i + 5, j]
                z6 += w * X[i + 6, j]
                z7 += w * X[i + 7, j]
            b = intercept[k]
            out[i, k] = z0 + b
            out[i + 1, k] = z1 + b
            out[i + 2, k] = z2 + b
            out[i + 3, k] = z3 + b
            out[i + 4, k] = z4 + b
            out[i + 5, k] = z5 + b
            out[i + 6, k] = z6 + b
            out[i + 7, k] = z7 + b
        i += 8
    while i < n:
        for k in range(coef.shape[0]):
            total = 0.0
            for j in range(d):
                total += coef[k, j] * X[i, j]
            out[i, k] = total + intercept[k]
        i += 1


@kernel
def probabilities(Z, out):
    """Row-wise class probabilities from the scores Z (n x (K-1)) into out (n x K)."""
    n_free = Z.shape[1]
    row = np.empty(n_free + 1)
    for i in range(Z.shape[0]):
        probabilities_from_scores(Z[i], n_free, row)
        for k in range(n_free + 1):
            out[i, k] = row[k]


@kernel
def argmax_codes(Z, codes):
    """argmax_k z_k with z_0 = 0; the first (lowest) code wins a tie."""
    for i in range(Z.shape[0]):
        best = 0
        best_score = 0.0
        for k in range(Z.shape[1]):
            if Z[i, k] > best_score:
                best = k + 1
                best_score = Z[i, k]
        codes[i] = best


# ----------------------------------------------------------------------------------------
# The public functions of [MATH412] (sum form, no intercept).


@kernel
def softplus(z):
    """max(z, 0) + log1p(exp(-|z|)); max keeps z unless 0 > z, as Python's max does."""
    larger = 0.0 if 0.0 > z else z
    return larger + math.log1p(math.exp(-abs(z)))


@kernel
def sigmoid_array(z, out):
    for i in range(z.shape[0]):
        out[i] = sigmoid(z[i])


@kernel
def log_likelihood(w, X, y, zero_one):
    total = 0.0
    for i in range(X.shape[0]):
        z = 0.0
        for j in range(X.shape[1]):
            z += w[j] * X[i, j]
        if zero_one:
            total += y[i] * z - softplus(z)
        else:
            total -= softplus(-y[i] * z)
    return total


@kernel
def log_likelihood_gradient(w, X, y, zero_one, gradient):
    for i in range(X.shape[0]):
        z = 0.0
        for j in range(X.shape[1]):
            z += w[j] * X[i, j]
        if zero_one:
            weight = y[i] - sigmoid(z)
        else:
            weight = y[i] * sigmoid(-y[i] * z)
        for j in range(X.shape[1]):
            gradient[j] += weight * X[i, j]
