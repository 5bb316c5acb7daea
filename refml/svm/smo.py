"""Sequential minimal optimisation (SMO) for the SVM dual, and the kernels it reads.

The dual of [Yan] ("Dual problem: non-separable data"), written as a minimisation:

    minimise  f(alpha) = 1/2 sum_i sum_j alpha_i alpha_j Q_ij - sum_i alpha_i,
              Q_ij = y_i y_j K(x_i, x_j)
    s.t.      sum_i alpha_i y_i = 0,   0 <= alpha_i <= C        (C = inf: the hard margin)

with K(x, z) = x'z in the lecture; "rbf" exp(-gamma ||x - z||^2) and "poly"
(gamma x'z + coef0)^degree go beyond it (the dual only needs inner products).  rbf's
exponential is refml.core.exponential's, within a unit in the last place of libm's, so that
refml_fast reproduces every kernel value while computing several at once.

SMO (Platt, 1998) moves two multipliers at a time, which is the smallest move that keeps
sum alpha_i y_i = 0.  The gradient G = Q alpha - 1 is kept up to date (G = -1 at alpha = 0).
Write v_t = -y_t G_t; since (Q alpha)_t = y_t f0(x_t) with f0(x) = sum_s alpha_s y_s K(x_s, x),
v_t = y_t - f0(x_t): the bias that would put x_t exactly on its margin.  Let

    I_up  = {t : alpha_t < C and y_t = +1, or alpha_t > 0 and y_t = -1},
    I_low = {t : alpha_t < C and y_t = -1, or alpha_t > 0 and y_t = +1}.

The KKT conditions of [Yan] ("Checking KKT conditions", with the soft-margin box) say
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

Shrinking (``smo``, ``shrink``, ``rebuild_gradient``; LIBSVM's, beyond the lectures) lets a
step touch only the points that may still move.  A Newton step on the free multipliers
after each shrinking (``newton_step``, beyond the lectures and beyond LIBSVM) cuts short the
phases where pair steps zig-zag among the points on the margin.  refml_fast/svm/smo.py runs
the same loop as Numba kernels with the same float operations in the same order, so both
packages choose the same pairs, shrink the same points and return the same alphas.
"""

import math

from refml.core import linalg
from refml.core.exponential import exp_nonpositive
from refml.svm.smo_newton import NEWTON_WORK, newton_direction, newton_length

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
        # exp(-gamma ||u - v||^2), e^x by a fixed recipe (refml.core.exponential)
        return exp_nonpositive(-gamma * linalg.squared_distance(u, v))
    base = gamma * linalg.dot(u, v) + coef0                      # (gamma u'v + coef0)^degree
    value = 1.0
    for _ in range(degree):                                      # degree products, in order
        value *= base
    return value


def scale_gamma(X):
    """gamma="scale" (scikit-learn's): 1 / (d Var(X)), Var over all n d entries of X, each
    sum from 0.0 in row order (1.0 when Var = 0)."""
    n, d = len(X), len(X[0])
    total = 0.0
    for x in X:
        for value in x:
            total += value
    mean = total / (n * d)
    squares = 0.0
    for x in X:
        for value in x:
            squares += (value - mean) * (value - mean)
    variance = squares / (n * d)
    return 1.0 / (d * variance) if variance > 0.0 else 1.0


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
    """(alpha, n_iter, status, gradient): SMO on the dual above, from alpha = 0.

    ``row(i)`` gives row i of K, ``diagonal`` the K_ii, y the signs -1.0 / +1.0.  ``status`` is
    CONVERGED (m - M <= tol), MAX_ITER (``max_iter`` pair steps made) or UNBOUNDED.
    ``gradient`` is the final G = Q alpha - 1: the training scores follow from it,
    f(x_t) - beta_0 = y_t (G_t + 1), without another kernel sum (as LIBSVM does).

    Shrinking (LIBSVM's, Fan, Chen and Lin 2005, section 4; beyond the lectures): every
    ``shrink_period(n)`` steps the points that sit at a bound and are far from violating
    leave the *active* set (``shrink``); pairs are chosen, and G updated, over the active
    points only.  When the active points meet the stopping rule, the others' G is rebuilt
    (``rebuild_gradient``) and the rule is checked on all points.  To rebuild cheaply,
    G_bar = sum over alpha_s = C of C Q_s is kept for every point (LIBSVM's G_bar).

    Each shrinking is followed by ``newton_step``.
    """
    n = len(y)
    alpha = [0.0] * n
    gradient = [-1.0] * n                      # G = Q alpha - 1 at alpha = 0
    at_bound = [0.0] * n                       # G_bar
    active, unshrunk = list(range(n)), False
    n_iter = 0
    while True:
        if n_iter > 0 and n_iter % shrink_period(n) == 0:
            active, unshrunk = shrink(active, unshrunk, row, alpha, gradient, at_bound, y,
                                      C, tol)
            newton_step(active, row, alpha, gradient, at_bound, y, C,   # the free set at once
                        NEWTON_WORK * shrink_period(n) * len(active))
        i, m, M = maximal_violation(active, alpha, gradient, y, C)
        if m - M <= tol and len(active) < n:   # converged on the active set: check all
            active = rebuild_gradient(active, row, alpha, gradient, at_bound, y, C)
            i, m, M = maximal_violation(active, alpha, gradient, y, C)
        if m - M <= tol:
            return alpha, n_iter, CONVERGED, gradient
        if n_iter == max_iter:
            rebuild_gradient(active, row, alpha, gradient, at_bound, y, C)
            return alpha, n_iter, MAX_ITER, gradient
        row_i = row(i)
        j = second_index(active, i, m, row_i, diagonal, alpha, gradient, y, C)
        row_j = row(j)
        step, room_i, room_j = pair_step(i, j, m, row_i, diagonal, alpha, gradient, y, C)
        if step == math.inf:
            rebuild_gradient(active, row, alpha, gradient, at_bound, y, C)
            return alpha, n_iter, UNBOUNDED, gradient
        # alpha_i += y_i s, alpha_j -= y_j s; a multiplier that reaches the box sits on it.
        was_i, was_j = alpha[i] == C, alpha[j] == C
        alpha[i] = (C if y[i] > 0 else 0.0) if step == room_i else alpha[i] + y[i] * step
        alpha[j] = (0.0 if y[j] > 0 else C) if step == room_j else alpha[j] - y[j] * step
        for t in active:                       # G_t += y_t s (K_it - K_jt)
            gradient[t] += y[t] * step * (row_i[t] - row_j[t])
        for s, row_s, was in ((i, row_i, was_i), (j, row_j, was_j)):
            if (alpha[s] == C) != was:         # alpha_s reached C or left it: G_bar moves
                for t in range(n):
                    term = C * (y[s] * y[t] * row_s[t])
                    at_bound[t] = at_bound[t] + term if not was else at_bound[t] - term
        n_iter += 1


def shrink_period(n):
    """Steps between two shrinkings: min(n, 1000), as LIBSVM."""
    return min(n, 1000)


def shrink(active, unshrunk, row, alpha, gradient, at_bound, y, C, tol):
    """(active, unshrunk): the active points without those at a bound that cannot be chosen
    now and are unlikely to be soon: only in I_up with v_t < M, or only in I_low with
    v_t > m (m, M over the active points).  The first time m - M <= 10 tol, every point is
    made active again first (G rebuilt), as LIBSVM does before the final steps."""
    i, m, M = maximal_violation(active, alpha, gradient, y, C)
    if not unshrunk and m - M <= 10.0 * tol:
        unshrunk = True
        active = rebuild_gradient(active, row, alpha, gradient, at_bound, y, C)
        i, m, M = maximal_violation(active, alpha, gradient, y, C)
    kept = []
    for t in active:
        v = -y[t] * gradient[t]
        up, low = in_up(alpha[t], y[t], C), in_low(alpha[t], y[t], C)
        if not ((up and not low and v < M) or (low and not up and v > m)):
            kept.append(t)
    return kept, unshrunk


def newton_step(active, row, alpha, gradient, at_bound, y, C, work):
    """Move the free multipliers (0 < alpha_s < C, s in F) together by the Newton step of f
    on F (``smo_newton``), cut where the box requires; nothing when |F| < 2,
    |F|^3 > ``work``, or no descent is found.  The multiplier that meets its bound is set
    to it, the others are clamped to [0, C]; G and G_bar then follow the changes as after
    a pair step (s ascending, then t ascending over the active points)."""
    free = [t for t in active if 0.0 < alpha[t] < C]
    if len(free) < 2 or len(free) ** 3 > work:
        return
    Q = [[y[s] * y[t] * row(s)[t] for t in free] for s in free]
    G_F = [gradient[s] for s in free]
    delta = newton_direction(Q, [y[s] for s in free], G_F)
    if delta is None:
        return
    tau, hit = newton_length(free, G_F, delta, alpha, C)
    if not tau > 0.0:
        return
    changes = []
    for a, s in enumerate(free):
        if a == hit:
            new = C if delta[a] > 0.0 else 0.0
        else:
            new = min(max(alpha[s] + tau * delta[a], 0.0), C)
        changes.append(y[s] * (new - alpha[s]))
        alpha[s] = new
    n = len(y)
    for a, s in enumerate(free):               # G_t += y_t (y_s change_s) K_st
        if changes[a] == 0.0:
            continue
        row_s = row(s)
        for t in active:
            gradient[t] += y[t] * (changes[a] * row_s[t])
        if alpha[s] == C:                      # reached C (it was below): G_bar moves
            for t in range(n):
                at_bound[t] = at_bound[t] + C * (y[s] * y[t] * row_s[t])


def rebuild_gradient(active, row, alpha, gradient, at_bound, y, C):
    """G_t = G_bar_t - 1 + sum_s alpha_s Q_st (s ascending over the free 0 < alpha_s < C)
    for every point out of ``active`` (the multipliers at C enter through G_bar); returns
    the full index list (every point active again)."""
    n = len(y)
    if len(active) == n:
        return active
    inside = [False] * n
    for t in active:
        inside[t] = True
    out = [t for t in range(n) if not inside[t]]
    for t in out:
        gradient[t] = at_bound[t] - 1.0
    for s in range(n):
        if 0.0 < alpha[s] < C:
            row_s = row(s)
            for t in out:
                gradient[t] += alpha[s] * (y[s] * y[t] * row_s[t])
    return list(range(n))


def in_up(alpha_t, y_t, C):
    """t in I_up: alpha_t may move so that y_t alpha_t grows."""
    return alpha_t < C if y_t > 0 else alpha_t > 0.0


def in_low(alpha_t, y_t, C):
    """t in I_low: alpha_t may move so that y_t alpha_t shrinks."""
    return alpha_t > 0.0 if y_t > 0 else alpha_t < C


def maximal_violation(active, alpha, gradient, y, C):
    """(i, m, M) over the ``active`` points (ascending): i = argmax_{I_up} v_t (lowest index
    on ties), m = v_i, M = min_{I_low} v_t."""
    i, m, M = -1, -math.inf, math.inf
    for t in active:
        v = -y[t] * gradient[t]
        if in_up(alpha[t], y[t], C) and v > m:
            i, m = t, v
        if in_low(alpha[t], y[t], C) and v < M:
            M = v
    return i, m, M


def second_index(active, i, m, row_i, diagonal, alpha, gradient, y, C):
    """j = argmin over active t in I_low with v_t < m of -b_it^2 / a_it (WSS 2)."""
    j, best = -1, math.inf
    for t in active:
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


# ----------------------------------------------------------------------------------------
# The hard margin made exact (C = inf).

HARD_MARGIN_PIVOT = 1e-12
HARD_MARGIN_SLACK = 1e-9
HARD_MARGIN_MAX_SUPPORT = 300


def exact_hard_margin(rows, y, alpha, kernel, gamma, degree, coef0):
    """Candidate multipliers of the exact maximum-margin hyperplane, from SMO's support set,
    or None.

    SMO stops within tol of the optimum, so functional margins of 1 - tol/2 remain.  With S
    the support set (alpha_s > 0), the hard margin's KKT conditions hold with equality on S:

        sum_t Q_st alpha_t + y_s b = 1  (s in S),   sum_s y_s alpha_s = 0,   Q_st = y_s y_t K_st,

    a square system in (alpha_S, b), solved by Gaussian elimination with partial pivoting.
    When it is singular (a degenerate support set, such as more points on the margin than
    d + 1 with a linear kernel), the support vector with the smallest alpha is dropped and
    the system solved again.  None when some alpha_s < 0, or when S has more than
    HARD_MARGIN_MAX_SUPPORT points (the solve is cubic in |S|).  The caller keeps the
    candidate only if every training point then has y_i f(x_i) >= 1 - 1e-9: a KKT point to
    rounding, so the optimum.  Beyond the lectures: the lecture's hard margin says
    y_i f(x_i) >= 1 for all i, which SMO alone meets only to its tolerance.
    """
    support = [t for t in range(len(y)) if alpha[t] > 0.0]
    if not support or len(support) > HARD_MARGIN_MAX_SUPPORT:
        return None
    while len(support) >= 2:
        vectors = [[float(v) for v in rows[s]] for s in support]
        system = [[y[s] * y[t] * kernel_value(kernel, a, c, gamma, degree, coef0)
                   for t, c in zip(support, vectors)] + [y[s]]
                  for s, a in zip(support, vectors)]
        system.append([y[s] for s in support] + [0.0])
        solution = linalg.solve_pivoted(system, [1.0] * len(support) + [0.0],
                                          HARD_MARGIN_PIVOT)
        if solution is not None:
            break
        # Degenerate: more margin points than the hyperplane needs.  The one SMO weighted
        # least is dropped and the smaller set tried; the caller's margin test decides.
        support.remove(min(support, key=lambda t: (alpha[t], t)))
    else:
        return None
    if any(value < 0.0 for value in solution[:-1]):
        return None
    new_alpha = [0.0] * len(y)
    for s, value in zip(support, solution):
        new_alpha[s] = value
    return new_alpha if any(value > 0.0 for value in new_alpha) else None


def scores_from_gradient(gradient, y):
    """f(x_t) - beta_0 = sum_s alpha_s y_s K_st = y_t (G_t + 1) for every training row."""
    return [y_t * (g + 1.0) for g, y_t in zip(gradient, y)]


def is_hard_margin_kkt(alpha, y, scores, b):
    """Whether alpha is already a KKT point of the hard margin to 1e-9: every functional
    margin >= 1 - 1e-9, and within 1e-9 of 1 wherever alpha > 0."""
    for a, sign, score in zip(alpha, y, scores):
        margin = sign * (score + b)
        if margin < 1.0 - HARD_MARGIN_SLACK or (a > 0.0 and margin > 1.0 + HARD_MARGIN_SLACK):
            return False
    return True


def exact_max_margin(rows, signs, support, z=None):
    """theta solving min ||theta||^2 s.t. z_i'theta >= 1 exactly, from its support set S, or
    None: solve G alpha = 1 with G_st = z_s'z_t over S, theta = sum alpha_s z_s, in rationals,
    and accept only if alpha >= 0 and every z_i'theta >= 1 (then all four KKT conditions hold
    exactly, so theta is the optimum).  ``z``: the z_i = y_i r_i as Fractions, if made
    already."""
    from fractions import Fraction

    if z is None:
        z = [[Fraction(s) * Fraction(v) for v in r] for r, s in zip(rows, signs)]
    gram = [[sum((a * b for a, b in zip(z[s], z[t])), Fraction(0)) for t in support]
            for s in support]
    alpha = linalg.solve_exact(gram, [Fraction(1)] * len(support))
    if alpha is None or any(a < 0 for a in alpha):
        return None
    theta = [sum((a * z[s][j] for a, s in zip(alpha, support)), Fraction(0))
             for j in range(len(rows[0]))]
    if any(sum((t * v for t, v in zip(theta, zi)), Fraction(0)) < 1 for zi in z):
        return None
    return [float(t) for t in theta]
