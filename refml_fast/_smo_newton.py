"""The Newton step of refml_fast's SMO: refml._smo_newton's direction and step length as
Numba kernels, the same floats in the same order (the step itself, which moves alpha and v,
is ``_smo.newton_step``)."""

import numpy as np

from refml import _smo_newton as reference

from ._config import kernel
from ._linalg import cholesky, cholesky_solve

NEWTON_RIDGE = reference.NEWTON_RIDGE
NEWTON_WORK = reference.NEWTON_WORK


@kernel
def newton_direction(Q, signs, gradient, delta):
    """refml's direction: delta = u - nu w, u = H^{-1}(-G_F), w = H^{-1} y_F, H = Q_FF plus
    the ridge; False when the Cholesky factorisation meets a pivot that is not positive."""
    size = Q.shape[0]
    mean_diagonal = 0.0
    for a in range(size):
        mean_diagonal += Q[a, a]
    ridge = NEWTON_RIDGE * (mean_diagonal / size)
    H = Q.copy()
    for a in range(size):
        H[a, a] = Q[a, a] + ridge
    L = np.zeros((size, size))
    if not cholesky(H, L):
        return False
    u = np.empty(size)
    w = signs.copy()
    for a in range(size):
        u[a] = -gradient[a]
    cholesky_solve(L, u)
    cholesky_solve(L, w)
    yu = 0.0
    for a in range(size):
        yu += signs[a] * u[a]
    yw = 0.0
    for a in range(size):
        yw += signs[a] * w[a]
    nu = yu / yw
    for a in range(size):
        delta[a] = u[a] - nu * w[a]
    return True


@kernel(refcounts=False)
def newton_length(free, Q, gradient, delta, alpha, C):
    """(tau, hit): refml's step along delta, -slope / curvature cut at the first bound met
    (hit: its position in F, -1 if none); tau = 0 when delta is no descent direction."""
    size = Q.shape[0]
    slope = 0.0
    for a in range(size):
        slope += gradient[a] * delta[a]
    if not slope < 0.0:
        return 0.0, -1
    curvature = 0.0
    for a in range(size):
        row_total = 0.0
        for b in range(size):
            row_total += Q[a, b] * delta[b]
        curvature += delta[a] * row_total
    tau = -slope / curvature if curvature > 0.0 else np.inf
    hit = -1
    for a in range(size):
        s = free[a]
        if delta[a] > 0.0:
            room = (C - alpha[s]) / delta[a]
        elif delta[a] < 0.0:
            room = alpha[s] / -delta[a]
        else:
            continue
        if room < tau:
            tau, hit = room, a
    return tau, hit
