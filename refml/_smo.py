"""Sequential minimal optimisation (SMO) for the SVM dual, and the kernels it reads.

The dual of lecture 003 ("Dual problem: non-separable data"), written as a minimisation:

    minimise  f(alpha) = 1/2 sum_i sum_j alpha_i alpha_j Q_ij - sum_i alpha_i,
              Q_ij = y_i y_j K(x_i, x_j)
    s.t.      sum_i alpha_i y_i = 0,   0 <= alpha_i <= C        (C = inf: the hard margin)

with K(x, z) = x'z in the lecture; "rbf" exp(-gamma ||x - z||^2) and "poly"
(gamma x'z + coef0)^degree go beyond it (the dual only needs inner products).

SMO (Platt, 1998) moves two multipliers at a time, which is the smallest move that keeps
sum alpha_i y_i = 0.  The gradient G = Q alpha - 1 is kept up to date (G = -1 at alpha = 0).
Write v_t = -y_t G_t; since (Q alpha)_t = y_t f0(x_t) with f0(x) = sum_s alpha_s y_s K(x_s, x),
v_t = y_t - f0(x_t): the bias that would put x_t exactly on its margin.  Let

    I_up  = {t : alpha_t < C and y_t = +1, or alpha_t > 0 and y_t = -1},
    I_low = {t : alpha_t < C and y_t = -1, or alpha_t > 0 and y_t = +1}.

The KKT conditions of lecture 003 ("Checking KKT conditions", with the soft-margin box) say
that some bias b has b >= v_t on I_up and b <= v_t on I_low, that is

    m(alpha) = max_{t in I_up} v_t  <=  M(alpha) = min_{t in I_low} v_t.

Stopping rule: m - M <= ``tol`` (then every KKT condition holds to within ``tol``, measured on
the functional margins y_t f(x_t); LIBSVM's rule, with its default tol = 1e-3).

Working set (Fan, Chen and Lin, JMLR 2005, "WSS 2", the rule LIBSVM uses):

    i = argmax_{t in I_up} v_t,
    j = argmin_{t in I_low, v_t < v_i}  -b_it^2 / a_it,
        b_it = v_i - v_t > 0,   a_it = K_ii + K_tt - 2 K_it   (a_it <= 0 counts as 1e-12),

the pair with the largest guaranteed decrease of f among those containing i.  Ties go to the
lowest index (a candidate replaces the best only when strictly better).

The pair step.  Move alpha_i by y_i s and alpha_j by -y_j s (sum alpha y is unchanged).
Along that line f changes by -b_ij s + a_ij s^2 / 2, so the best step is s = b_ij / a_ij,
cut to the box: s <= C - alpha_i (y_i = +1) or alpha_i (y_i = -1), and s <= alpha_j (y_j = +1)
or C - alpha_j (y_j = -1); a multiplier that reaches its bound is set to the bound exactly.
Then G_t += y_t s (K_it - K_jt) for every t.  With a_ij <= 0 (x_i = x_j for the linear and
rbf kernels) f decreases linearly: the step goes to the box.  With C = inf that box can be
unbounded (y_i != y_j): the dual is unbounded, the primal infeasible (two equal points with
opposite labels cannot be separated) and SMO stops with status "unbounded".

refml_fast/_smo.py runs the same loop as Numba kernels with the same float operations in the
same order, so both packages choose the same pairs and return the same alphas.
"""

import math

from . import _linalg as linalg

KERNELS = ("linear", "rbf", "poly")
TAU = 1e-12                       # stands for a_it <= 0 when choosing j (LIBSVM's tau)
CONVERGED, MAX_ITER, UNBOUNDED = "converged", "max_iter", "unbounded"


# ----------------------------------------------------------------------------------------
# Kernels: the inner products the dual reads.


def kernel_value(kernel, u, v, gamma, degree, coef0):
    """K(u, v) for ``kernel`` in KERNELS."""
    if kernel == "linear":
        return linalg.dot(u, v)                                   # u'v
    if kernel == "rbf":
        return math.exp(-gamma * linalg.squared_distance(u, v))    # exp(-gamma ||u - v||^2)
    base = gamma * linalg.dot(u, v) + coef0                      # (gamma u'v + coef0)^degree
    value = 1.0
    for _ in range(degree):                                      # degree products, in order
        value *= base
    return value


class KernelRows:
    """Row i of the kernel matrix, [K(x_i, x_1), ..., K(x_i, x_n)], computed once and kept."""

    def __init__(self, X, kernel, gamma, degree, coef0):
        self.X = X
        self.parameters = (kernel, gamma, degree, coef0)
        self.rows = {}

    def __call__(self, i):
        if i not in self.rows:
            kernel, gamma, degree, coef0 = self.parameters
            self.rows[i] = [kernel_value(kernel, self.X[i], x, gamma, degree, coef0)
                            for x in self.X]
        return self.rows[i]

    def diagonal(self):
        kernel, gamma, degree, coef0 = self.parameters
        return [kernel_value(kernel, x, x, gamma, degree, coef0) for x in self.X]


# ----------------------------------------------------------------------------------------
# The solver.


def smo(row, diagonal, y, C, tol, max_iter):
    """(alpha, n_iter, status): SMO on the dual above, from alpha = 0.

    ``row(i)`` gives row i of K, ``diagonal`` the K_ii, y the signs -1.0 / +1.0.  ``status`` is
    CONVERGED (m - M <= tol), MAX_ITER (``max_iter`` pair steps made) or UNBOUNDED.
    """
    n = len(y)
    alpha = [0.0] * n
    gradient = [-1.0] * n                      # G = Q alpha - 1 at alpha = 0
    n_iter = 0
    while True:
        i, m, M = maximal_violation(alpha, gradient, y, C)
        if m - M <= tol:
            return alpha, n_iter, CONVERGED
        if n_iter == max_iter:
            return alpha, n_iter, MAX_ITER
        row_i = row(i)
        j = second_index(i, m, row_i, diagonal, alpha, gradient, y, C)
        row_j = row(j)
        step, room_i, room_j = pair_step(i, j, m, row_i, diagonal, alpha, gradient, y, C)
        if step == math.inf:
            return alpha, n_iter, UNBOUNDED
        # alpha_i += y_i s, alpha_j -= y_j s; a multiplier that reaches the box sits on it.
        alpha[i] = (C if y[i] > 0 else 0.0) if step == room_i else alpha[i] + y[i] * step
        alpha[j] = (0.0 if y[j] > 0 else C) if step == room_j else alpha[j] - y[j] * step
        for t in range(n):                     # G_t += y_t s (K_it - K_jt)
            gradient[t] += y[t] * step * (row_i[t] - row_j[t])
        n_iter += 1


def in_up(alpha_t, y_t, C):
    """t in I_up: alpha_t may move so that y_t alpha_t grows."""
    return alpha_t < C if y_t > 0 else alpha_t > 0.0


def in_low(alpha_t, y_t, C):
    """t in I_low: alpha_t may move so that y_t alpha_t shrinks."""
    return alpha_t > 0.0 if y_t > 0 else alpha_t < C


def maximal_violation(alpha, gradient, y, C):
    """(i, m, M): i = argmax_{I_up} v_t (lowest index on ties), m = v_i, M = min_{I_low} v_t."""
    i, m, M = -1, -math.inf, math.inf
    for t in range(len(y)):
        v = -y[t] * gradient[t]
        if in_up(alpha[t], y[t], C) and v > m:
            i, m = t, v
        if in_low(alpha[t], y[t], C) and v < M:
            M = v
    return i, m, M


def second_index(i, m, row_i, diagonal, alpha, gradient, y, C):
    """j = argmin over t in I_low with v_t < m of -b_it^2 / a_it (WSS 2)."""
    j, best = -1, math.inf
    for t in range(len(y)):
        if in_low(alpha[t], y[t], C):
            b = m + y[t] * gradient[t]                 # b_it = v_i - v_t
            if b > 0.0:
                a = diagonal[i] + diagonal[t] - 2.0 * row_i[t]
                if a <= 0.0:
                    a = TAU
                score = -(b * b) / a
                if score < best:
                    j, best = t, score
    return j


def pair_step(i, j, m, row_i, diagonal, alpha, gradient, y, C):
    """(s, room_i, room_j): the step b_ij / a_ij cut to the box (inf if nothing cuts it)."""
    b = m + y[j] * gradient[j]
    a = diagonal[i] + diagonal[j] - 2.0 * row_i[j]
    room_i = C - alpha[i] if y[i] > 0 else alpha[i]
    room_j = alpha[j] if y[j] > 0 else C - alpha[j]
    step = b / a if a > 0.0 else math.inf
    return min(step, room_i, room_j), room_i, room_j
