"""L-BFGS of refml/_logistic_solvers.py (``lbfgs``, ``lbfgs_direction``, ``_backtrack``,
``class_coupling``) on numpy arrays, for refml_fast's LogisticRegression.

refml runs the loop on Python lists: with (K - 1)(d + 1) unknowns in the hundreds, its
two-loop recursion (forty dot products per step) cost more than the objective itself
(1,000 x 50 with 10 classes: 23 ms of a 29 ms fit).  Here the recursion is one kernel and
the loop works on arrays, with every float operation refml's:

- dot products are summed left to right (``dot``), never by numpy's pairwise sum or BLAS;
- theta + t delta, new - old, q_j - a y_j, r_j + (a - b) s_j and gamma (P q)_j are the same
  single IEEE operations elementwise, in the same grouping;
- the class coupling sums the K - 1 blocks in order, feature by feature, as refml does;
- every test (Armijo, the rounding rule, the curvature check, the restart) is refml's.

So the iterates, ``n_iter_`` and the loss curve are refml's exactly (parity checks in
conformance/t18_parity_linear.py and tests/test_logistic*.py).
"""

import numpy as np

from refml import _logistic_solvers as solvers

from ._config import kernel


@kernel
def dot(u, v):
    """sum_j u_j v_j, left to right (refml's ``_linalg.dot``)."""
    total = 0.0
    for j in range(u.shape[0]):
        total += u[j] * v[j]
    return total


@kernel
def couple(q, p, out):
    """out = P q, refml's ``class_coupling(p)``: (P q)_k = q_k + sum_l q_l over blocks."""
    total = np.zeros(p)
    n_blocks = q.shape[0] // p
    for k in range(n_blocks):
        for j in range(p):
            total[j] += q[k * p + j]
    for k in range(n_blocks):
        for j in range(p):
            out[k * p + j] = q[k * p + j] + total[j]


@kernel
def direction(gradient, S, Y, rho, count, p, out):
    """-H grad by the two-loop recursion over the ``count`` pairs (S[c], Y[c], rho[c]),
    oldest first: refml's ``lbfgs_direction`` with H_0 = gamma P."""
    n = gradient.shape[0]
    q = gradient.copy()
    alphas = np.empty(max(count, 1))
    for c in range(count - 1, -1, -1):                 # newest to oldest
        a = rho[c] * dot(S[c], q)
        for j in range(n):
            q[j] = q[j] - a * Y[c, j]
        alphas[c] = a
    gamma = 0.5
    if count > 0:
        coupled = np.empty(n)
        couple(Y[count - 1], p, coupled)
        gamma = 1.0 / (rho[count - 1] * dot(Y[count - 1], coupled))
    r = np.empty(n)
    couple(q, p, r)
    for j in range(n):
        r[j] = gamma * r[j]
    for c in range(count):                             # oldest to newest
        b = rho[c] * dot(Y[c], r)
        a = alphas[c]
        for j in range(n):
            r[j] = r[j] + (a - b) * S[c, j]
    for j in range(n):
        out[j] = -r[j]


def largest_magnitude(values):
    return float(np.max(np.abs(values)))


def backtrack(objective, theta, loss, gradient, delta, slope):
    """refml's ``_backtrack`` on arrays: (theta, loss, gradient) accepted, or None."""
    rounding = 16.0 * solvers.EPSILON * abs(loss)
    t = 1.0
    for _ in range(solvers.MAX_HALVINGS):
        trial = theta + t * delta
        trial_loss, trial_gradient = objective(trial)
        if trial_loss <= loss + solvers.ARMIJO_FRACTION * t * slope:
            return trial, trial_loss, trial_gradient
        if (trial_loss - loss <= rounding
                and largest_magnitude(trial_gradient) < largest_magnitude(gradient)):
            return trial, trial_loss, trial_gradient
        t = t / 2.0
    return None


def lbfgs(objective, theta, n_free, max_iter, tol, memory=10):
    """refml's ``lbfgs`` on arrays; ``objective(theta) -> (L, grad L as an array)``.
    Returns (theta as a list, n_iter, converged, loss curve), as refml's."""
    theta = np.asarray(theta, dtype=np.float64)
    n = theta.shape[0]
    p = n // n_free
    S, Y, rho = np.empty((memory, n)), np.empty((memory, n)), np.empty(memory)
    count = 0                                          # pairs kept, oldest in row 0
    loss, gradient = objective(theta)
    curve = [loss]
    n_iter = 0
    delta = np.empty(n)
    while largest_magnitude(gradient) > tol:
        if n_iter == max_iter:
            return theta.tolist(), n_iter, False, curve
        direction(gradient, S, Y, rho, count, p, delta)
        slope = dot(gradient, delta)
        accepted = None
        if slope < 0.0:
            accepted = backtrack(objective, theta, loss, gradient, delta, slope)
        if accepted is None and count:                 # the memory misled the step: restart
            count = 0
            continue
        if accepted is None:
            return theta.tolist(), n_iter, False, curve
        new_theta, new_loss, new_gradient = accepted
        s = new_theta - theta
        y = new_gradient - gradient
        curvature = dot(y, s)
        if curvature > 0.0:
            if count == memory:                        # forget the oldest pair
                S[:-1], Y[:-1], rho[:-1] = S[1:].copy(), Y[1:].copy(), rho[1:].copy()
                count -= 1
            S[count], Y[count], rho[count] = s, y, 1.0 / curvature
            count += 1
        theta, loss, gradient = new_theta, new_loss, new_gradient
        n_iter += 1
        curve.append(loss)
    return theta.tolist(), n_iter, True, curve
