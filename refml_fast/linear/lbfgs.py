"""The vector arithmetic of refml's L-BFGS (refml.linear.logistic_solvers: ``lbfgs`` with
``ListSteps``) on numpy arrays, for refml_fast's LogisticRegression.

refml's loop runs as it is; only its steps change.  On lists, with (K - 1)(d + 1) unknowns
in the hundreds, the two-loop recursion (forty dot products per step) cost more than the
objective itself.  Here the recursion is one kernel and the steps work on arrays, with every
float operation refml's:

- dot products are summed left to right (``dot``), never by numpy's pairwise sum or BLAS;
- theta + t delta, new - old, q_j - a y_j, r_j + (a - b) s_j and gamma (P q)_j are the same
  single IEEE operations elementwise, in the same grouping;
- the class coupling sums the K - 1 blocks in order, feature by feature, as refml does;
- every test (Armijo, the rounding rule, the curvature check, the restart) is refml's own
  code.

So the iterates, ``n_iter_`` and the loss curve are refml's exactly (parity checks in
conformance/t18_parity_linear.py and tests/test_logistic*.py).
"""

import numpy as np

from refml_fast.runtime.options import kernel


@kernel
def dot(u, v):
    """sum_j u_j v_j, left to right (refml's ``linalg.dot``)."""
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
        denominator = rho[count - 1] * dot(Y[count - 1], coupled)
        if 0.0 < denominator < np.inf:                 # refml's ``initial_scale``
            gamma = 1.0 / denominator
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


class ArraySteps:
    """refml's ``ListSteps`` on float64 arrays: each entry the same single IEEE operation,
    dot products left to right (``dot``), the two-loop recursion as one kernel
    (``direction``).  refml's ``lbfgs`` runs its loop with these steps."""

    def __init__(self, p):
        self.p = p

    dot = staticmethod(dot)

    @staticmethod
    def largest(values):
        return largest_magnitude(values)

    @staticmethod
    def moved(theta, t, delta):
        return theta + t * delta

    @staticmethod
    def difference(u, v):
        return u - v

    def direction(self, gradient, pairs):
        n, count = gradient.shape[0], len(pairs)
        S, Y, rho = np.empty((max(count, 1), n)), np.empty((max(count, 1), n)), np.empty(
            max(count, 1))
        for c, (s, y, inverse_curvature) in enumerate(pairs):        # oldest first
            S[c], Y[c], rho[c] = s, y, inverse_curvature
        out = np.empty(n)
        direction(gradient, S, Y, rho, count, self.p, out)
        return out

    @staticmethod
    def as_list(theta):
        return theta.tolist()
