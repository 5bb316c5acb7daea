"""The Newton step that ends SMO's last phase (refml._smo's ``newton_step``): its direction
and its length.  Beyond the lectures, and not in LIBSVM.

Why.  Near the end, SMO's pairs zig-zag among the points on the margin.  With the linear
kernel in d dimensions about d + 1 of them are free (0 < alpha_s < C), Q_FF is
ill-conditioned, and pair steps can take a hundred thousand steps to bring m - M from
3 tol down to tol (2,000 x 50, overlapping: 300-390 thousand pair steps, where LIBSVM took
110-130 thousand; with this step 26-85 thousand).  One Newton step on the free set solves
its equations at once.  It is tried at every shrinking once m - M <= 10 tol has been
reached, while |F|^3 <= NEWTON_WORK times the pair steps' work in between (period times
active points), so that it never costs more than those steps.

The direction.  The multipliers at 0 or C stay; over the free set F, minimise

    1/2 delta' H delta + G_F' delta   subject to   y_F' delta = 0,

with H = Q_FF + r I, r = NEWTON_RIDGE times the mean Q_ss.  Lagrange: H delta = -G_F - nu y_F,
so with L L' = H (Cholesky), u = H^{-1}(-G_F) and w = H^{-1} y_F, the constraint gives
nu = y_F'u / y_F'w and delta = u - nu w.  Without the ridge (and unconstrained by the box)
this is the exact minimiser of f over the free multipliers.  The ridge keeps H positive
definite when Q_FF is singular (more free points than the kernel has dimensions); along
such flat directions delta is long, and the box cuts it.

The length.  Along delta, f(alpha + tau delta) - f(alpha) = tau g + tau^2 c / 2 with the slope
g = G_F' delta < 0 and the curvature c = delta' Q_FF delta (the true Q, no ridge); it is
least at tau = -g / c (1 for the plain Newton step, and f falls for every tau in (0, -2g/c)).
tau is cut where the first multiplier meets its bound.  sum alpha_i y_i stays 0 up to
rounding, as after a pair step.
"""

import math

from . import _linalg as linalg

NEWTON_RIDGE = 1e-10              # the ridge, relative to the mean Q_ss
NEWTON_WORK = 4                   # tried while |F|^3 <= this * period * active points


def newton_direction(Q, signs, G_F):
    """delta = u - nu w with u = H^{-1}(-G_F), w = H^{-1} y_F, nu = y_F'u / y_F'w, where
    H = Q_FF + r I; None when the Cholesky factorisation of H fails."""
    size = len(Q)
    mean_diagonal = 0.0
    for a in range(size):
        mean_diagonal += Q[a][a]
    ridge = NEWTON_RIDGE * (mean_diagonal / size)
    H = [[Q[a][b] + ridge if a == b else Q[a][b] for b in range(size)] for a in range(size)]
    try:
        L = linalg.cholesky(H)
    except linalg.SingularMatrixError:
        return None
    u = linalg.cholesky_solve(L, [-g for g in G_F])
    w = linalg.cholesky_solve(L, signs)
    nu = linalg.dot(signs, u) / linalg.dot(signs, w)
    return [u[a] - nu * w[a] for a in range(size)]


def newton_length(free, Q, G_F, delta, alpha, C):
    """(tau, hit): tau = -slope / curvature, cut where the first multiplier meets its bound
    (hit: its position in F, -1 if none); tau = 0 when delta is no descent direction."""
    slope = linalg.dot(G_F, delta)
    if not slope < 0.0:
        return 0.0, -1
    curvature = linalg.dot(delta, linalg.matvec(Q, delta))
    tau = -slope / curvature if curvature > 0.0 else math.inf
    hit = -1
    for a, s in enumerate(free):
        if delta[a] > 0.0:
            room = (C - alpha[s]) / delta[a]
        elif delta[a] < 0.0:
            room = alpha[s] / -delta[a]
        else:
            continue
        if room < tau:
            tau, hit = room, a
    return tau, hit
