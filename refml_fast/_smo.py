"""SMO as Numba kernels (see refml/_smo.py for the method; kernel values in ``_gram``).

The same float operations in the same order as refml, so that both packages choose the same
pairs, stop at the same step and return the same alphas:

- K(x_i, x_t) accumulates feature by feature from 0.0 (refml's ``dot`` / ``squared_distance``
  left to right); a row is computed for all t at once, feature k after feature k - 1, which
  keeps the order of every single sum and lets the loop over t vectorise.  rbf is
  exp(-gamma * s), poly is (gamma * s + coef0) multiplied ``degree`` times from 1.0.
- The gradient is kept as v_t = -y_t G_t (bit for bit refml's, see ``smo``); the choices
  of i, M and j make the same comparisons in the same index order as refml (ties to the
  lowest index).
- Speed without a change of result (refml's SMO has no shrinking): every v_t is updated at
  every step, but i, M and j are searched among an *active* list, while rigorous bounds
  (Cauchy-Schwarz in feature space, rounding included) prove that the other points cannot be
  chosen; when the proof fails, a full scan decides (see ``smo``).  Late in a fit most
  points are far from the margin and the scans shrink to a few hundred points.
- Rows of K are computed on first use and kept in a cache of at most ``CACHE_BYTES`` (rows
  beyond it are recomputed after first-in first-out eviction; values never change, so the
  cache cannot change a result).
"""

import mmap

import numpy as np

from ._config import kernel
from ._gram import diagonal_and_norms, kernel_row

STATUS = {0: "converged", 1: "max_iter", 2: "unbounded"}
TAU = 1e-12
PARTITION_SLACK = 0.25         # in units of v: points this far beyond m or M leave the scans
BACKOFF = 64                   # steps of full scans after a partition that did not last
CACHE_BYTES = 256 * 2 ** 20


def row_cache(n):
    """The cache of rows of K: an uninitialised (slots, n) float64 array holding all n rows
    when they fit in CACHE_BYTES (else as many as fit, at least 2).  Large caches are mapped
    on transparent huge pages where the system allows it: rows are written once each, and
    first writes to fresh 4 KB pages cost a page fault each."""
    slots = max(2, min(n, CACHE_BYTES // (8 * n)))
    size = slots * n * 8
    if size >= 4 * 2 ** 20 and hasattr(mmap, "MADV_HUGEPAGE"):
        try:
            buffer = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
            buffer.madvise(mmap.MADV_HUGEPAGE)
            return np.frombuffer(buffer, dtype=np.float64).reshape(slots, n)
        except (OSError, ValueError):
            pass
    return np.empty((slots, n))


@kernel
def fetch_row(i, protect, X, XT, code, gamma, degree, coef0, cache, slot_of, owner, clock):
    """The cache slot holding row i of K; a miss evicts first-in first-out, never ``protect``."""
    if slot_of[i] >= 0:
        return slot_of[i]
    slot = clock[0]
    if owner[slot] == protect:
        slot = (slot + 1) % cache.shape[0]
    clock[0] = (slot + 1) % cache.shape[0]
    if owner[slot] >= 0:
        slot_of[owner[slot]] = -1
    owner[slot] = i
    slot_of[i] = slot
    kernel_row(X[i], XT, code, gamma, degree, coef0, cache[slot])
    return slot


@kernel
def set_flags(t, alpha, y, C, up, low):
    """Membership of t in I_up and I_low (refml's ``in_up`` / ``in_low``)."""
    if y[t] > 0:
        up[t] = alpha[t] < C
        low[t] = alpha[t] > 0.0
    else:
        up[t] = alpha[t] > 0.0
        low[t] = alpha[t] < C


@kernel
def violation_scan(v, up, low):
    """(i, m, M): i = argmax_{I_up} v (first on ties), m = v_i, M = min_{I_low} v."""
    i = -1
    m = -np.inf
    M = np.inf
    for t in range(v.shape[0]):
        candidate = v[t] if up[t] else -np.inf
        if candidate > m:
            i = t
            m = candidate
        candidate = v[t] if low[t] else np.inf
        if candidate < M:
            M = candidate
    return i, m, M


@kernel
def active_scan(active, n_active, v, up, low):
    """(i, m, M) as ``violation_scan``, over the active indices only (ascending)."""
    i = -1
    m = -np.inf
    M = np.inf
    for k in range(n_active):
        t = active[k]
        candidate = v[t] if up[t] else -np.inf
        if candidate > m:
            i = t
            m = candidate
        candidate = v[t] if low[t] else np.inf
        if candidate < M:
            M = candidate
    return i, m, M


@kernel
def active_second_index(i, m, row_i, diagonal, v, low, active, n_active):
    """j by WSS 2 over the active indices (ascending), as refml's ``second_index``."""
    j = -1
    best = np.inf
    for k in range(n_active):
        t = active[k]
        if low[t]:
            b = m - v[t]
            if b > 0.0:
                a = diagonal[i] + diagonal[t] - 2.0 * row_i[t]
                if a <= 0.0:
                    a = TAU
                score = -(b * b) / a
                if score < best:
                    j = t
                    best = score
    return j


@kernel
def partition(v, up, low, r, m, M, slack, active, bounds):
    """Split the points after an exact full scan: a point only in I_up with v < m - slack,
    or only in I_low with v > max(m, M) + slack, goes out of the active list.  ``bounds``
    gets [U, R_up, L, R_low]: the largest v and r_t of those out on the I_up side, the
    smallest v and largest r_t of those out on the I_low side.  Returns the active count."""
    n_active = 0
    U, R_up, L, R_low = -np.inf, 0.0, np.inf, 0.0
    top = max(m, M)
    for t in range(v.shape[0]):
        if up[t] and not low[t] and v[t] < m - slack:
            U = max(U, v[t])
            R_up = max(R_up, r[t])
        elif low[t] and not up[t] and v[t] > top + slack:
            L = min(L, v[t])
            R_low = max(R_low, r[t])
        else:
            active[n_active] = t
            n_active += 1
    bounds[0], bounds[1], bounds[2], bounds[3], bounds[4] = U, R_up, L, R_low, 0.0
    return n_active


@kernel
def smo(X, XT, y, code, gamma, degree, coef0, C, tol, max_iter, alpha, cache, v):
    """SMO from alpha = 0 with the row cache ``cache`` (``row_cache``); fills alpha and v
    (v_t = -y_t G_t at the end), returns (n_iter, status code).

    The kernel keeps v_t = -y_t G_t instead of G: since y_t = +-1 and rounding is symmetric,
    v_t - s (K_it - K_jt) rounds to exactly -y_t times refml's G_t + y_t s (K_it - K_jt), so
    every v is bit for bit refml's -y_t G_t.

    Every v is updated at every step, but i, M and j are searched among the *active*
    points only, while the others are proved unable to be chosen: after a full scan, a
    point out of the list is only in I_up with v_t < m, or only in I_low with v_t > m and
    v_t > M, and it keeps its alpha (only the chosen i and j move).  A step changes v_t by
    s (K_it - K_jt), and |K_it - K_jt| = |<phi_i - phi_j, phi_t>| <= sqrt(a_ij) sqrt(K_tt)
    (Cauchy-Schwarz in feature space; the kernels are positive semi-definite, except poly
    with coef0 < 0, where every scan is full).  Bounds U >= v on the I_up side and L <= v on
    the I_low side are moved by that much (plus generous rounding terms) at each step;
    while U < m and L > max(m, M) over the active points, the active scan gives exactly the
    full scan's i, m, M and j.  When the proof fails, or every ``min(n, 1000)`` steps, a full
    scan recomputes everything and repartitions (after a partition that lasted under 16
    steps, the scans stay full for BACKOFF steps, doubling each time, up to min(n, 1000)).
    """
    n, d = X.shape
    diagonal, r = diagonal_and_norms(X, code, gamma, degree, coef0)
    bounded = code != 2 or coef0 >= 0.0
    eta = 16.0 * (d + degree + 8) * 2.0 ** -53
    slot_of = np.full(n, -1, dtype=np.int64)
    owner = np.full(cache.shape[0], -1, dtype=np.int64)
    clock = np.zeros(1, dtype=np.int64)
    up = np.empty(n, dtype=np.bool_)
    low = np.empty(n, dtype=np.bool_)
    active = np.arange(n)
    bounds = np.empty(5)
    shift = np.zeros(d)                  # linear kernel: D = sum of s (x_i - x_j) since the scan
    # [active count, step of the last partition, step of the next one, back-off, period]
    schedule = np.empty(5, dtype=np.int64)
    schedule[0], schedule[1], schedule[2], schedule[3] = n, 0, BACKOFF, BACKOFF
    schedule[4] = min(n, 1000)
    for t in range(n):
        alpha[t] = 0.0
        v[t] = -y[t] * -1.0                           # G = -1 at alpha = 0
        set_flags(t, alpha, y, C, up, low)
    i, m, M = violation_scan(v, up, low)
    n_iter = 0
    while True:
        if m - M <= tol:
            return n_iter, 0
        if n_iter == max_iter:
            return n_iter, 1
        if bounded and n_iter >= schedule[2]:
            repartition(n_iter, v, up, low, r, m, M, active, bounds, shift, schedule)
        row_i = cache[fetch_row(i, -1, X, XT, code, gamma, degree, coef0, cache, slot_of,
                                owner, clock)]
        j = active_second_index(i, m, row_i, diagonal, v, low, active, schedule[0])
        row_j = cache[fetch_row(j, i, X, XT, code, gamma, degree, coef0, cache, slot_of,
                                owner, clock)]
        step, a = pair_step(i, j, m, v, row_i, diagonal, alpha, y, C)
        if step == np.inf:
            return n_iter, 2
        set_flags(i, alpha, y, C, up, low)
        set_flags(j, alpha, y, C, up, low)
        for t in range(n):                            # refml: G_t += y_t s (K_it - K_jt)
            v[t] = v[t] - step * (row_i[t] - row_j[t])
        n_iter += 1
        if schedule[0] == n:
            i, m, M = violation_scan(v, up, low)
            continue
        drift = move_bounds(code, X, i, j, step, a, row_i[j], diagonal, r, eta, shift, bounds)
        i, m, M = active_scan(active, schedule[0], v, up, low)
        upper = bounds[0] + drift * bounds[1]         # every v_t out on the I_up side <= this
        lower = bounds[2] - drift * bounds[3]         # every v_t out on the I_low side >= this
        if not ((upper < m) and (bounds[2] == np.inf or (
                M < np.inf and lower > m and lower > M))):
            i, m, M = violation_scan(v, up, low)
            if n_iter - schedule[1] < 16:
                # Steps too large for the bounds to last: scan everything for a while.
                schedule[0] = n
                for t in range(n):
                    active[t] = t
                schedule[2] = n_iter + schedule[3]
                schedule[3] = min(2 * schedule[3], schedule[4])
            else:
                repartition(n_iter, v, up, low, r, m, M, active, bounds, shift, schedule)
                schedule[3] = BACKOFF


@kernel
def pair_step(i, j, m, v, row_i, diagonal, alpha, y, C):
    """(s, a_ij): refml's ``pair_step`` and its update of alpha_i, alpha_j (s = inf: none)."""
    b = m - v[j]
    a = diagonal[i] + diagonal[j] - 2.0 * row_i[j]
    room_i = C - alpha[i] if y[i] > 0 else alpha[i]
    room_j = alpha[j] if y[j] > 0 else C - alpha[j]
    step = b / a if a > 0.0 else np.inf
    step = min(step, room_i, room_j)
    if step == np.inf:
        return step, a
    if step == room_i:
        alpha[i] = C if y[i] > 0 else 0.0
    else:
        alpha[i] = alpha[i] + y[i] * step
    if step == room_j:
        alpha[j] = 0.0 if y[j] > 0 else C
    else:
        alpha[j] = alpha[j] - y[j] * step
    return step, a


@kernel
def repartition(n_iter, v, up, low, r, m, M, active, bounds, shift, schedule):
    """A new active list after an exact scan; the bounds start again from the current v."""
    schedule[0] = partition(v, up, low, r, m, M, PARTITION_SLACK, active, bounds)
    for k in range(shift.shape[0]):
        shift[k] = 0.0
    schedule[1] = n_iter
    schedule[2] = n_iter + schedule[4]


@kernel
def move_bounds(code, X, i, j, step, a, k_ij, diagonal, r, eta, shift, bounds):
    """Advance the bounds of the points out of the active list by one step; returns the
    factor ``drift`` such that |v_t - w_t| <= drift r_t, where [U, L] = bounds[0], bounds[2]
    bound the w_t (the v_t of the last scan, moved by rounding only) from either side.

    Linear kernel: v_t has moved by -D'x_t with D = sum of s (x_i - x_j) since the scan, so
    drift = ||D|| (steps back and forth cancel).  Other kernels: drift adds s sqrt(a_ij)
    per step, since |K_it - K_jt| <= ||phi_i - phi_j|| ||phi_t|| (Cauchy-Schwarz).  Rounding
    (of v, of the kernel values, of D and of these bounds) is charged to w generously, with
    eta >= 16 (d + 8) times the unit roundoff.
    """
    size = diagonal[i] + diagonal[j] + 2.0 * abs(k_ij)
    rho = (np.sqrt(max(a, 0.0) + eta * size) + eta * (r[i] + r[j])) * (1.0 + eta)
    if code == 0:
        previous = 0.0
        moved = 0.0
        for k in range(shift.shape[0]):
            previous += shift[k] * shift[k]
            difference = X[i, k] - X[j, k]
            moved += difference * difference
            shift[k] = shift[k] + step * difference
        previous = np.sqrt(previous)
        moved = step * np.sqrt(moved)
        norm = 0.0
        for k in range(shift.shape[0]):
            norm += shift[k] * shift[k]
        drift = np.sqrt(norm) * (1.0 + eta)
        charge = step * (eta * (r[i] + r[j]) + eta * rho) + eta * (previous + moved + drift)
    else:
        bounds[4] += step * rho * (1.0 + eta)
        drift = bounds[4]
        charge = step * eta * (r[i] + r[j] + rho)
    # w_t moves by at most 4u|v_t| + charge r_t, and |v_t| <= |w_t| + drift r_t.
    if bounds[0] > -np.inf:
        bounds[0] += eta * abs(bounds[0]) + (charge + eta * drift) * bounds[1] * (1.0 + eta)
    if bounds[2] < np.inf:
        bounds[2] -= eta * abs(bounds[2]) + (charge + eta * drift) * bounds[3] * (1.0 + eta)
    return drift
