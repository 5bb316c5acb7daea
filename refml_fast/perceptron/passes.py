"""The perceptron's passes as Numba kernels, one for each order (refml_fast.perceptron
states what they reproduce of refml, float for float).

A mistake is refml's not (y_i theta'x~_i > 0) with theta'x~ summed from 0.0 left to right.
From LANES_FROM features on it is decided from a sum in lanes whenever that sum's sign
provably is refml's (``sure_sign``), and from refml's sum otherwise; with fewer
features, the cyclic order runs refml's sums two rows at a time (``paired_passes``).
"""

import numpy as np

from refml_fast.core import random as _random
from refml_fast.runtime.lanes import LANES, load, splat, store
from refml_fast.runtime.options import kernel
from refml_fast.runtime.prefetch import prefetch_row
from refml_fast.runtime.sure_sign import lane_dot, sign_bound, sure

# theta has length d + fit_intercept; theta[0] is the bias when fit_intercept.


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
def signed_margin(weights, theta, X, i, fit_intercept, y_i, bound, exact, lanes):
    """y_i theta'x~_i as refml sums it, or a stand-in on the same side of refml's test
    ``not signed > 0`` (a mistake) when ``lanes`` and the lanes' sum has a sure sign
    (``sure_sign``): 1.0 when it surely is positive, 0.0 when it surely is not and
    ``exact`` is off (the early stop, which adds up the mistakes' values, is then off)."""
    if lanes:
        m, s = lane_dot(weights, X, i, 1 if fit_intercept else 0)
        if sure(m, s, bound):
            if y_i * m > 0.0:
                return 1.0
            if not exact:
                return 0.0
    return y_i * margin(theta, X, i, fit_intercept)


@kernel(inline=True)
def pass_constants(X, fit_intercept, patience):
    """(the sure-sign factor for d + fit_intercept terms, whether the early stop needs the
    mistakes' exact margins, whether mistakes are decided in lanes at this d)."""
    bound = sign_bound(X.shape[1] + (1 if fit_intercept else 0))
    return bound, patience[0] != 0.0, X.shape[1] >= LANES_FROM


@kernel(inline=True)
def update(weights, X, i, step, fit_intercept, n_mistakes, trajectory):
    """theta <- theta + step x~_i (step = gamma_t y_i), theta_j + step x_ij for each j as
    refml adds it, eight weights at a time; row n_mistakes of the trajectory.  ``weights``
    is theta as a 1 x (offset + d) matrix (stored in lanes, the weights are loaded as
    lanes by the next ``lane_dot`` straight from the store)."""
    offset = 0
    if fit_intercept:
        weights[0, 0] += step * 1.0
        offset = 1
    d = X.shape[1]
    whole = d // LANES * LANES
    steps = splat(step)
    for j in range(0, whole, LANES):
        store(weights, 0, offset + j, load(weights, 0, offset + j) + steps * load(X, i, j))
    for j in range(whole, d):
        weights[0, offset + j] += step * X[i, j]
    if n_mistakes < trajectory.shape[0]:
        for j in range(weights.shape[1]):
            trajectory[n_mistakes, j] = weights[0, j]


@kernel(inline=True)
def scalar_update(theta, X, i, step, fit_intercept, n_mistakes, trajectory):
    """``update`` a weight at a time (the same floats), for ``paired_passes``, whose sums
    then read each weight straight from its store."""
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


# Rows this far ahead are asked for (``prefetch_row``) once X has this many entries (8 MB):
# 40 MB of rows 20.1 -> 17.4 ns a row; rows in the cache pay ~1 ns for the hints.
PREFETCH_AHEAD, PREFETCH_FROM = 8, 1 << 20
# Mistakes are decided in lanes from this many features on; with fewer, the lanes' extra
# work (the magnitudes, the sums of the lanes) costs about what refml's short sum saves
# (20,000 rows, ten passes, one core, 0-10% of the labels flipped: d = 12, 5.7-9.3 ->
# 7.5-13.8 ns a row; d = 16, 6.5-10.6 -> 6.4-11.2; d = 24, 9.3-14.9 -> 8.0-12.6; d = 32,
# 12.1-17.4 -> 10.2-14.3; 2,000 x 20, 5% flipped: 0.13 -> 0.17 ms).
LANES_FROM = 24
# Below LANES_FROM, rows go in pairs (``margins_of_pair``) while mistakes are frequent:
# worth it from a mistake in about every PAIRED_FROM rows (the previous pass's rate
# decides).  With fewer, the processor's own speculation past the rarely failing sign test
# already overlaps consecutive rows.
PAIRED_FROM = 16


@kernel
def cyclic_passes(X, y, theta, fit_intercept, learning_rate, decreasing, examined, max_iter, state,
                  trajectory, patience):
    """Passes over i = 1..n (``state`` unused: the orders share one signature), each
    row's mistake decided in lanes (``lane_passes``) or, with few features, by refml's sum
    (``paired_passes``)."""
    if X.shape[1] >= LANES_FROM:
        return lane_passes(X, y, theta, fit_intercept, learning_rate, decreasing, examined,
                           max_iter, trajectory, patience)
    return paired_passes(X, y, theta, fit_intercept, learning_rate, decreasing, examined, max_iter,
                         trajectory, patience, np.empty(3))


@kernel(refcounts=False)
def lane_passes(X, y, theta, fit_intercept, learning_rate, decreasing, examined, max_iter,
                trajectory, patience):
    """Each row's mistake is refml's (``signed_margin``), the updates and the early stop's
    loss are refml's floats in refml's order.  SPEC's perceptron (100,000 x 50, ten
    passes, a mistake in about every fourth row): 26.2 -> 17.7 ns a row on one core,
    against a chain of three sums a pair of rows (``paired_passes``).  Compiled without
    reference counts: Numba counted the inlined helpers' arrays in the loop, atomically
    (32.1 ns a row)."""
    n = X.shape[0]
    n_mistakes = 0
    t = 0
    weights = theta.reshape((1, theta.shape[0]))
    bound, exact, _ = pass_constants(X, fit_intercept, patience)
    ahead = PREFETCH_AHEAD if X.size >= PREFETCH_FROM else n
    for n_pass in range(1, max_iter + 1):
        mistakes_in_pass = 0
        loss = 0.0
        for i in range(n):
            t += 1
            if i + ahead < n:
                prefetch_row(X, i + ahead)
            signed = signed_margin(weights, theta, X, i, fit_intercept, y[i], bound, exact,
                                   True)
            if not signed > 0.0:
                loss += -signed
                n_mistakes += 1
                update(weights, X, i, step_size(learning_rate, decreasing, examined + t) * y[i],
                       fit_intercept, n_mistakes, trajectory)
                mistakes_in_pass += 1
        if mistakes_in_pass == 0:
            return n_mistakes, n_pass, True
        if no_improvement(loss, patience):
            return n_mistakes, n_pass, False
    return n_mistakes, max_iter, False


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


@kernel(refcounts=False)
def paired_passes(X, y, theta, fit_intercept, learning_rate, decreasing, examined, max_iter,
                  trajectory, patience, ahead):
    """Rows in pairs while mistakes are frequent (in the first pass, and after a pass with
    a mistake in every PAIRED_FROM rows or more), else one by one.  Row i+1's margin
    depends on whether row i is a mistake, so both candidates are computed with row i's
    (``margins_of_pair``): a pair then costs about one margin's chain of additions, where a
    row-by-row scan waits for row i's sign before it can start row i+1's sum after a
    mistake.  The margins, updates and loss are the same floats in the same order as the
    row-by-row scan."""
    n = X.shape[0]
    n_mistakes = 0
    t = 0
    paired = True
    for n_pass in range(1, max_iter + 1):
        mistakes_in_pass = 0
        loss = 0.0
        i = 0
        while i < n:
            t += 1
            step = step_size(learning_rate, decreasing, examined + t) * y[i]
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
                scalar_update(theta, X, i, step, fit_intercept, n_mistakes, trajectory)
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
                scalar_update(theta, X, i,
                              step_size(learning_rate, decreasing, examined + t) * y[i],
                              fit_intercept, n_mistakes, trajectory)
                mistakes_in_pass += 1
            i += 1
        if mistakes_in_pass == 0:
            return n_mistakes, n_pass, True
        if no_improvement(loss, patience):
            return n_mistakes, n_pass, False
        paired = mistakes_in_pass * PAIRED_FROM >= n
    return n_mistakes, max_iter, False


@kernel(refcounts=False)
def batch_passes(X, y, theta, fit_intercept, learning_rate, decreasing, examined, max_iter, state,
                 trajectory, patience):
    """Algorithm 5: the first mistake of a scan from i = 1 (``state`` unused)."""
    n = X.shape[0]
    n_mistakes = 0
    seen = 0
    cap = max_iter * n
    loss = 0.0
    weights = theta.reshape((1, theta.shape[0]))
    bound, exact, lanes = pass_constants(X, fit_intercept, patience)
    while True:
        first_mistake = -1
        for i in range(n):
            if seen == cap:
                return n_mistakes, max_iter, False
            if seen > 0 and seen % n == 0:
                if no_improvement(loss, patience):
                    return n_mistakes, seen // n, False
                loss = 0.0
            seen += 1
            signed = signed_margin(weights, theta, X, i, fit_intercept, y[i], bound, exact,
                                   lanes)
            if not signed > 0.0:
                loss += -signed
                first_mistake = i
                break
        if first_mistake < 0:
            return n_mistakes, (seen + n - 1) // n, True
        i = first_mistake
        n_mistakes += 1
        update(weights, X, i, step_size(learning_rate, decreasing, examined + seen) * y[i],
               fit_intercept, n_mistakes, trajectory)


@kernel
def random_passes(X, y, theta, fit_intercept, learning_rate, decreasing, examined, max_iter, state,
                  trajectory, patience):
    """Draws uniform among the current mistakes, listed by index (SplitMix64 ``state``)."""
    return random_draws(X, y, theta, fit_intercept, learning_rate, decreasing, examined, max_iter,
                        state, trajectory, patience, np.empty(X.shape[0], dtype=np.int64))


@kernel(refcounts=False)
def random_draws(X, y, theta, fit_intercept, learning_rate, decreasing, examined, max_iter, state,
                 trajectory, patience, mistakes):
    """``random_passes`` with the list of mistakes given (compiled without reference
    counts, which an inlined helper's arrays would pay in the scan: see ``options``)."""
    n = X.shape[0]
    n_mistakes = 0
    loss = 0.0
    weights = theta.reshape((1, theta.shape[0]))
    bound, _, lanes = pass_constants(X, fit_intercept, patience)
    for t in range(1, max_iter * n + 1):
        count = 0
        if lanes:
            for i in range(n):
                if not signed_margin(weights, theta, X, i, fit_intercept, y[i], bound, False,
                                     True) > 0.0:
                    mistakes[count] = i
                    count += 1
        else:
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
        update(weights, X, i, step_size(learning_rate, decreasing, examined + t) * y[i],
               fit_intercept,
               n_mistakes, trajectory)
    return n_mistakes, max_iter, False


@kernel(refcounts=False)
def uniform_passes(X, y, theta, fit_intercept, learning_rate, decreasing, examined, max_iter, state,
                   trajectory, patience):
    """Draws uniform among all n points, an update on a mistake; a pass is n draws."""
    n = X.shape[0]
    n_mistakes = 0
    t = 0
    weights = theta.reshape((1, theta.shape[0]))
    bound, exact, lanes = pass_constants(X, fit_intercept, patience)
    for n_pass in range(1, max_iter + 1):
        loss = 0.0
        for _ in range(n):
            t += 1
            i = _random.randbelow(state, n)
            signed = signed_margin(weights, theta, X, i, fit_intercept, y[i], bound, exact,
                                   lanes)
            if not signed > 0.0:
                loss += -signed
                n_mistakes += 1
                update(weights, X, i, step_size(learning_rate, decreasing, examined + t) * y[i],
                       fit_intercept, n_mistakes, trajectory)
        clean = True
        for i in range(n):
            if not signed_margin(weights, theta, X, i, fit_intercept, y[i], bound, False,
                                 lanes) > 0.0:
                clean = False
                break
        if clean:
            return n_mistakes, n_pass, True
        if no_improvement(loss, patience):
            return n_mistakes, n_pass, False
    return n_mistakes, max_iter, False


PASSES = {"cyclic": cyclic_passes, "batch": batch_passes, "random": random_passes,
          "uniform": uniform_passes}
