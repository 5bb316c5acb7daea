"""The multi-class perceptron's passes as Numba kernels (see refml.perceptron.multiclass).

theta is a K x p array, p = d + fit_intercept.  Every score theta_k'x~ is summed from 0.0
left to right as refml's ``linalg.dot`` sums it, the rival is refml's (the first class
k != c of largest score, by a strict >), a mistake is not (theta_c'x~ - theta_r'x~ > 0),
and each order's loop is refml's ``refml.perceptron.orders`` step for step, so theta, the
mistakes and the random draws are identical to refml's.
"""

import numpy as np

from refml_fast.core import random as _random
from refml_fast.perceptron.passes import no_improvement, step_size
from refml_fast.runtime.options import kernel


@kernel(inline=True)
def score(theta, k, X, i, fit_intercept):
    total = 0.0
    offset = 0
    if fit_intercept:
        total += theta[k, 0] * 1.0
        offset = 1
    for j in range(X.shape[1]):
        total += theta[k, offset + j] * X[i, j]
    return total


@kernel(inline=True)
def rival(theta, X, i, c, fit_intercept):
    """(r, theta_c'x~_i - theta_r'x~_i), r the first class != c of largest score."""
    r = -1
    best = 0.0
    for k in range(theta.shape[0]):
        if k == c:
            continue
        s = score(theta, k, X, i, fit_intercept)
        if r < 0 or s > best:
            r = k
            best = s
    return r, score(theta, c, X, i, fit_intercept) - best


@kernel(inline=True)
def correct(theta, X, i, c, r, gamma, fit_intercept, n_mistakes, trajectory):
    """theta_c += gamma x~_i, theta_r -= gamma x~_i; row n_mistakes of the trajectory."""
    offset = 0
    if fit_intercept:
        theta[c, 0] += gamma * 1.0
        theta[r, 0] -= gamma * 1.0
        offset = 1
    for j in range(X.shape[1]):
        theta[c, offset + j] += gamma * X[i, j]
        theta[r, offset + j] -= gamma * X[i, j]
    if n_mistakes < trajectory.shape[0]:
        trajectory[n_mistakes] = theta



@kernel
def cyclic_passes(X, codes, theta, fit_intercept, learning_rate, decreasing, examined, max_iter,
                  state, trajectory, patience):
    """Passes over i = 1..n, correcting every mistake met."""
    n = X.shape[0]
    n_mistakes = 0
    t = examined
    for n_pass in range(1, max_iter + 1):
        mistakes_in_pass = 0
        loss = 0.0
        for i in range(n):
            t += 1
            r, m = rival(theta, X, i, codes[i], fit_intercept)
            if not m > 0.0:
                loss += -m
                n_mistakes += 1
                correct(theta, X, i, codes[i], r,
                        step_size(learning_rate, decreasing, t), fit_intercept,
                        n_mistakes, trajectory)
                mistakes_in_pass += 1
        if mistakes_in_pass == 0:
            return n_mistakes, n_pass, True
        if no_improvement(loss, patience):
            return n_mistakes, n_pass, False
    return n_mistakes, max_iter, False


@kernel
def batch_passes(X, codes, theta, fit_intercept, learning_rate, decreasing, examined, max_iter,
                 state, trajectory, patience):
    """Correct the first mistake of a scan from i = 1, then scan again."""
    n = X.shape[0]
    n_mistakes = 0
    seen = 0
    cap = max_iter * n
    loss = 0.0
    while True:
        first_mistake = -1
        r = -1
        for i in range(n):
            if seen == cap:
                return n_mistakes, max_iter, False
            if seen > 0 and seen % n == 0:
                if no_improvement(loss, patience):
                    return n_mistakes, seen // n, False
                loss = 0.0
            seen += 1
            r, m = rival(theta, X, i, codes[i], fit_intercept)
            if not m > 0.0:
                loss += -m
                first_mistake = i
                break
        if first_mistake < 0:
            return n_mistakes, (seen + n - 1) // n, True
        n_mistakes += 1
        correct(theta, X, first_mistake, codes[first_mistake], r,
                step_size(learning_rate, decreasing, examined + seen), fit_intercept,
                n_mistakes, trajectory)


@kernel
def random_passes(X, codes, theta, fit_intercept, learning_rate, decreasing, examined, max_iter,
                  state, trajectory, patience):
    """Draws uniform among the current mistakes, listed by index."""
    n = X.shape[0]
    n_mistakes = 0
    mistakes = np.empty(n, dtype=np.int64)
    loss = 0.0
    for t in range(1, max_iter * n + 1):
        count = 0
        for i in range(n):
            if not rival(theta, X, i, codes[i], fit_intercept)[1] > 0.0:
                mistakes[count] = i
                count += 1
        if count == 0:
            return n_mistakes, (t - 1) // n + 1, True
        if t > 1 and (t - 1) % n == 0:
            if no_improvement(loss, patience):
                return n_mistakes, (t - 1) // n, False
            loss = 0.0
        i = mistakes[_random.randbelow(state, count)]
        r, m = rival(theta, X, i, codes[i], fit_intercept)
        loss += 0.0 if m > 0.0 else -m
        n_mistakes += 1
        correct(theta, X, i, codes[i], r, step_size(learning_rate, decreasing, examined + t),
                fit_intercept, n_mistakes, trajectory)
    return n_mistakes, max_iter, False


@kernel
def uniform_passes(X, codes, theta, fit_intercept, learning_rate, decreasing, examined, max_iter,
                   state, trajectory, patience):
    """Draws uniform among all n points, an update on a mistake."""
    n = X.shape[0]
    n_mistakes = 0
    t = examined
    for n_pass in range(1, max_iter + 1):
        loss = 0.0
        for _ in range(n):
            t += 1
            i = _random.randbelow(state, n)
            r, m = rival(theta, X, i, codes[i], fit_intercept)
            if not m > 0.0:
                loss += -m
                n_mistakes += 1
                correct(theta, X, i, codes[i], r, step_size(learning_rate, decreasing, t),
                        fit_intercept, n_mistakes, trajectory)
        clean = True
        for i in range(n):
            if not rival(theta, X, i, codes[i], fit_intercept)[1] > 0.0:
                clean = False
                break
        if clean:
            return n_mistakes, n_pass, True
        if no_improvement(loss, patience):
            return n_mistakes, n_pass, False
    return n_mistakes, max_iter, False


MULTICLASS_PASSES = {"cyclic": cyclic_passes, "batch": batch_passes, "random": random_passes,
                     "uniform": uniform_passes}
