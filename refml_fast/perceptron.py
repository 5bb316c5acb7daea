"""The perceptron's passes and decision values as Numba kernels (see refml.perceptron).

The kernels repeat refml's float operations in refml's order, so ``coef_``, ``intercept_``,
the mistakes and the predictions are identical, not merely close:

- the margin theta'x~ is summed left to right from 0.0: the bias term theta_0 * 1 first,
  then theta_j x_j for j = 1..d (refml's ``_linalg.dot`` over the augmented row);
- a mistake is not (y_i theta'x~_i > 0), refml's ``is_mistake`` (a NaN margin is one);
- the update is theta_j += (gamma_t y_i) x_ij, with gamma_t = learning_rate / t for the
  decreasing schedule (the integer t converted to float64, as Python does);
- order="random" lists the mistakes by index and draws one with the shared SplitMix64
  ``randbelow`` (refml_fast._random), the same stream as refml's Generator;
- the early stop sums -(y_i theta'x~_i) over a pass's mistakes in refml's order and
  compares it with best - tol * n (``no_improvement``, refml's ``Patience``).

No BLAS dot anywhere a sign decides: its summation order differs from refml's.
"""

import numpy as np

from refml import _mistake_bound as bound
from refml import perceptron as reference

from . import _random
from ._config import kernel
from .base import FastMixin


class Perceptron(FastMixin, reference.Perceptron):
    __doc__ = reference.Perceptron.__doc__

    def _run_passes(self, X, codes, generator):
        y = np.where(codes == 1, 1.0, -1.0)
        n_weights = X.shape[1] + (1 if self.fit_intercept else 0)
        start = _random.state_array(generator)
        state = start.copy()
        # Row k of ``trajectory`` receives theta~ after update k, while rows remain; a first
        # run counts the updates, a second one (same random stream) records them all.
        trajectory = np.zeros((1, n_weights))
        theta, n_mistakes, n_iter, converged = self._passes(X, y, state, trajectory)
        if self.store_trajectory:
            trajectory = np.zeros((n_mistakes + 1, n_weights))
            state = start.copy()
            theta, n_mistakes, n_iter, converged = self._passes(X, y, state, trajectory)
        _random.store_state(generator, state)
        return theta, n_mistakes, n_iter, converged, trajectory

    def _passes(self, X, y, state, trajectory):
        theta = np.zeros(trajectory.shape[1])
        # [on, tol * n, best pass loss, passes without improvement, n_iter_no_change]
        on = self.tol is not None
        patience = np.array([float(on), float(self.tol) * X.shape[0] if on else 0.0, np.inf,
                             0.0, float(self.n_iter_no_change)])
        passes = PASSES[self.order]  # only the kernel of the order used gets compiled
        n_mistakes, n_iter, converged = passes(
            X, y, theta, self.fit_intercept, float(self.learning_rate),
            self.schedule == "decreasing", self.max_iter, state, trajectory, patience)
        return theta, int(n_mistakes), int(n_iter), bool(converged)

    def _decision_values(self, X):
        scores = np.empty(X.shape[0])
        decision_values(X, np.asarray(self.coef_, dtype=np.float64), float(self.intercept_),
                        scores)
        return scores

    def _predict_codes(self, X):
        scores = self._decision_values(X)
        return (scores >= 0.0).astype(np.int64)  # sign(0) = +1 -> classes_[1]


perceptron_criterion = reference.perceptron_criterion   # small: refml's own, floats out


def mistake_bound(X, y, theta=None, fit_intercept=True):
    return bound.mistake_bound(Perceptron, X, y, theta, fit_intercept)


mistake_bound.__doc__ = reference.mistake_bound.__doc__


# ----------------------------------------------------------------------------------------
# Kernels.  theta has length d + fit_intercept; theta[0] is the bias when fit_intercept.


@kernel(inline=True)
def margin(theta, X, i, fit_intercept):
    """theta'x~_i summed from 0.0 left to right (refml's dot over [1, x_i])."""
    total = 0.0
    offset = 0
    if fit_intercept:
        total += theta[0] * 1.0
        offset = 1
    for j in range(X.shape[1]):
        total += theta[offset + j] * X[i, j]
    return total


@kernel(inline=True)
def update(theta, X, i, step, fit_intercept, n_mistakes, trajectory):
    """theta <- theta + step x~_i (step = gamma_t y_i); row n_mistakes of the trajectory."""
    offset = 0
    if fit_intercept:
        theta[0] += step * 1.0
        offset = 1
    for j in range(X.shape[1]):
        theta[offset + j] += step * X[i, j]
    if n_mistakes < trajectory.shape[0]:
        for j in range(theta.shape[0]):
            trajectory[n_mistakes, j] = theta[j]


@kernel(inline=True)
def step_size(learning_rate, decreasing, t):
    if decreasing:
        return learning_rate / np.float64(t)
    return learning_rate


@kernel
def no_improvement(loss, patience):
    """refml's Patience.no_improvement on patience = [on, tol * n, best, count, limit]."""
    if patience[0] == 0.0:
        return False
    if loss > patience[2] - patience[1]:
        patience[3] += 1.0
    else:
        patience[3] = 0.0
    if loss < patience[2]:
        patience[2] = loss
    return patience[3] >= patience[4]


# Pairs pay a third sum per two rows; worth it from a mistake in about every 16 rows (the
# previous pass's rate decides).  With fewer, the processor's own speculation past the
# rarely failing sign test already overlaps consecutive rows.
PAIRED_FROM = 16


@kernel(inline=True)
def margins_of_pair(theta, X, i, fit_intercept, step, out):
    """Row i's margin, and row i+1's under both outcomes of row i, as three sums at once.

    out[0] = theta'x~_i, out[1] = theta'x~_(i+1), and out[2] = theta^'x~_(i+1) with
    theta^_j = theta_j + step x~_ij, the float that ``update`` stores if row i is a mistake.
    Each is summed as ``margin`` sums it (from 0.0, left to right), so whichever is used
    is the float a row-by-row pass computes.  The three chains are independent, so the
    processor overlaps their additions.
    """
    now = 0.0
    kept = 0.0
    moved = 0.0
    offset = 0
    if fit_intercept:
        now += theta[0] * 1.0
        kept += theta[0] * 1.0
        moved += (theta[0] + step * 1.0) * 1.0
        offset = 1
    for j in range(X.shape[1]):
        w = theta[offset + j]
        x = X[i, j]
        x_next = X[i + 1, j]
        now += w * x
        kept += w * x_next
        moved += (w + step * x) * x_next
    out[0] = now
    out[1] = kept
    out[2] = moved


@kernel
def cyclic_passes(X, y, theta, fit_intercept, learning_rate, decreasing, max_iter, state,
                  trajectory, patience):
    """Passes over i = 1..n (``state`` unused: the orders share one signature).

    Rows go in pairs while mistakes are frequent (in the first pass, and after a pass with
    a mistake in every PAIRED_FROM rows or more), else one by one.  Row i+1's margin
    depends on whether row i is a mistake, so both candidates are computed with row i's
    (``margins_of_pair``): a pair then costs about one margin's chain of additions, where a
    row-by-row scan waits for row i's sign before it can start row i+1's sum after a
    mistake.  The margins, updates and loss are the same
    floats in the same order as the row-by-row scan.
    """
    n = X.shape[0]
    n_mistakes = 0
    t = 0
    ahead = np.empty(3)
    paired = True
    for n_pass in range(1, max_iter + 1):
        mistakes_in_pass = 0
        loss = 0.0
        i = 0
        while i < n:
            t += 1
            step = step_size(learning_rate, decreasing, t) * y[i]
            if paired and i + 1 < n:
                margins_of_pair(theta, X, i, fit_intercept, step, ahead)
                signed = y[i] * ahead[0]
                next_margin = ahead[1]
            else:
                signed = y[i] * margin(theta, X, i, fit_intercept)
                next_margin = 0.0
            if not signed > 0.0:
                loss += -signed
                n_mistakes += 1
                update(theta, X, i, step, fit_intercept, n_mistakes, trajectory)
                mistakes_in_pass += 1
                next_margin = ahead[2]          # (read only when paired)
            i += 1
            if not paired or i == n:
                continue
            t += 1
            signed = y[i] * next_margin
            if not signed > 0.0:
                loss += -signed
                n_mistakes += 1
                update(theta, X, i, step_size(learning_rate, decreasing, t) * y[i],
                       fit_intercept, n_mistakes, trajectory)
                mistakes_in_pass += 1
            i += 1
        if mistakes_in_pass == 0:
            return n_mistakes, n_pass, True
        if no_improvement(loss, patience):
            return n_mistakes, n_pass, False
        paired = mistakes_in_pass * PAIRED_FROM >= n
    return n_mistakes, max_iter, False


@kernel
def batch_passes(X, y, theta, fit_intercept, learning_rate, decreasing, max_iter, state,
                 trajectory, patience):
    """Algorithm 5: the first mistake of a scan from i = 1 (``state`` unused)."""
    n = X.shape[0]
    n_mistakes = 0
    examined = 0
    cap = max_iter * n
    loss = 0.0
    while True:
        first_mistake = -1
        for i in range(n):
            if examined == cap:
                return n_mistakes, max_iter, False
            if examined > 0 and examined % n == 0:
                if no_improvement(loss, patience):
                    return n_mistakes, examined // n, False
                loss = 0.0
            examined += 1
            signed = y[i] * margin(theta, X, i, fit_intercept)
            if not signed > 0.0:
                loss += -signed
                first_mistake = i
                break
        if first_mistake < 0:
            return n_mistakes, (examined + n - 1) // n, True
        i = first_mistake
        n_mistakes += 1
        update(theta, X, i, step_size(learning_rate, decreasing, examined) * y[i],
               fit_intercept, n_mistakes, trajectory)


@kernel
def random_passes(X, y, theta, fit_intercept, learning_rate, decreasing, max_iter, state,
                  trajectory, patience):
    """Draws uniform among the current mistakes, listed by index (SplitMix64 ``state``)."""
    n = X.shape[0]
    mistakes = np.empty(n, dtype=np.int64)
    n_mistakes = 0
    loss = 0.0
    for t in range(1, max_iter * n + 1):
        count = 0
        for i in range(n):
            if not y[i] * margin(theta, X, i, fit_intercept) > 0.0:
                mistakes[count] = i
                count += 1
        if count == 0:
            return n_mistakes, (t - 1) // n + 1, True
        if t > 1 and (t - 1) % n == 0:
            if no_improvement(loss, patience):
                return n_mistakes, (t - 1) // n, False
            loss = 0.0
        i = mistakes[_random.randbelow(state, count)]
        loss += -(y[i] * margin(theta, X, i, fit_intercept))
        n_mistakes += 1
        update(theta, X, i, step_size(learning_rate, decreasing, t) * y[i], fit_intercept,
               n_mistakes, trajectory)
    return n_mistakes, max_iter, False


@kernel
def uniform_passes(X, y, theta, fit_intercept, learning_rate, decreasing, max_iter, state,
                   trajectory, patience):
    """Draws uniform among all n points, an update on a mistake; a pass is n draws."""
    n = X.shape[0]
    n_mistakes = 0
    t = 0
    for n_pass in range(1, max_iter + 1):
        loss = 0.0
        for _ in range(n):
            t += 1
            i = _random.randbelow(state, n)
            signed = y[i] * margin(theta, X, i, fit_intercept)
            if not signed > 0.0:
                loss += -signed
                n_mistakes += 1
                update(theta, X, i, step_size(learning_rate, decreasing, t) * y[i],
                       fit_intercept, n_mistakes, trajectory)
        clean = True
        for i in range(n):
            if not y[i] * margin(theta, X, i, fit_intercept) > 0.0:
                clean = False
                break
        if clean:
            return n_mistakes, n_pass, True
        if no_improvement(loss, patience):
            return n_mistakes, n_pass, False
    return n_mistakes, max_iter, False


PASSES = {"cyclic": cyclic_passes, "batch": batch_passes, "random": random_passes,
          "uniform": uniform_passes}


@kernel
def decision_values(X, coef, intercept, out):
    """out_i = (0.0 + theta_0) + sum_j theta_j x_ij, left to right, as in refml."""
    for i in range(X.shape[0]):
        total = 0.0 + intercept
        for j in range(X.shape[1]):
            total += coef[j] * X[i, j]
        out[i] = total
