"""The Newton step of refml_fast's SMO: refml.svm.smo_newton's direction and step length as
Numba kernels, the same floats in the same order (the step itself, which moves alpha and v,
is ``smo.newton_step``)."""

import numpy as np

from refml.svm import smo_newton as reference
from refml_fast.core.linalg import cholesky, cholesky_solve
from refml_fast.runtime.options import kernel

NEWTON_RIDGE = reference.NEWTON_RIDGE
NEWTON_WORK = reference.NEWTON_WORK


@kernel
def newton_direction(Q, signs, gradient, delta):
    """refml's direction: delta = P z with (R + r I) z = -g~, R = P'Q_FF P, g~ = P'G_F and
    delta_0 = -y_0 sum_{a>0} y_a z_a; False when the Cholesky factorisation meets a pivot
    that is not positive."""
    size = Q.shape[0]
    y0 = signs[0]
    mean_diagonal = 0.0
    for a in range(size):
        mean_diagonal += Q[a, a]
    ridge = NEWTON_RIDGE * (mean_diagonal / size)
    R = np.empty((size - 1, size - 1))
    for a in range(1, size):
        for b in range(1, size):
            R[a - 1, b - 1] = (Q[a, b] - y0 * signs[b] * Q[a, 0] - y0 * signs[a] * Q[0, b]
                               + signs[a] * signs[b] * Q[0, 0] + (ridge if a == b else 0.0))
    L = np.zeros((size - 1, size - 1))
    if not cholesky(R, L):
        return False
    z = np.empty(size - 1)
    for a in range(1, size):
        z[a - 1] = -(gradient[a] - y0 * signs[a] * gradient[0])
    cholesky_solve(L, z)
    total = 0.0
    for a in range(1, size):
        total += signs[a] * z[a - 1]
    delta[0] = -y0 * total
    for a in range(1, size):
        delta[a] = z[a - 1]
    return True


# refml's step length, compiled as it is: the same loops over the same floats.
newton_length = kernel(refcounts=False)(reference.newton_length)
