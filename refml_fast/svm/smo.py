"""SMO as Numba kernels (see refml/svm/smo.py for the method; kernel values in ``gram``).

The same float operations in the same order as refml, so that both packages choose the same
pairs, shrink the same points, stop at the same step and return the same alphas:

- K(x_i, x_t) accumulates feature by feature from 0.0 (refml's ``dot`` / ``squared_distance``
  left to right); a row is computed for all t at once, feature k after feature k - 1, which
  keeps the order of every single sum and lets the loop over t vectorise.  rbf is
  exp(-gamma * s), poly is (gamma * s + coef0) multiplied ``degree`` times from 1.0.
- The gradient is kept as v_t = -y_t G_t (bit for bit refml's, see ``smo``); the choices
  of i, M and j make the same comparisons in the same index order as refml (ties to the
  lowest index), over the same active points (refml's shrinking, ``shrink``).
- Rows of K come from the row cache (``kernel_rows``), which cannot change a result, and
  are computed from X.T in ``panels`` (``kernel_rows.panels_of``: one panel per thread
  when the rows are long, each thread computing its panel's part of a row).  A
  step reads the two rows at the active points only; while points are shrunk away, from
  copies compacted to the points of the current phase (``compact_row``; a phase holds the
  active points and those shrunk away since it began, see ``smo``), so that its passes
  read contiguous values.  The passes that choose i, m, M and j run without a branch per point
  (``smo_scans``), with refml's answers (linear SVC, 20,000 x 10: 1.58 -> 1.15 s with the
  compacted rows and j's first branch-free pass); the pair step's update of v finds the
  extremes of the next choice of i in the same pass (``step_and_extremes``).
- The Newton step on the free multipliers (refml's ``newton_step``) is ``newton_step``
  here, its direction and length in ``smo_newton``.
"""

import numpy as np

from refml_fast.runtime.options import kernel
from refml_fast.svm.kernel_rows import complete_row, fetch_row, row_into, whole_row
from refml_fast.svm.smo_newton import NEWTON_WORK, newton_direction, newton_length
from refml_fast.svm.smo_scans import (
    COMPACT_SLOTS,
    HIGHEST,
    LOWEST,
    active_scan,
    active_second_index,
    compact_row,
    compacted,
    compacted_rows,
    scan_from,
    step_and_extremes,
)

STATUS = {0: "converged", 1: "max_iter", 2: "unbounded"}


@kernel(refcounts=False)
def set_flags(t, alpha, y, C, up, low):
    """Membership of t in I_up and I_low (refml's ``in_up`` / ``in_low``)."""
    if y[t] > 0:
        up[t] = alpha[t] < C
        low[t] = alpha[t] > 0.0
    else:
        up[t] = alpha[t] > 0.0
        low[t] = alpha[t] < C


@kernel
def smo(X, panels, y, code, gamma, degree, coef0, C, tol, max_iter, alpha, cache, v, diagonal,
        store):
    """SMO from alpha = 0 with the row cache ``cache`` (``row_cache``) and K_tt in
    ``diagonal``; fills alpha and v (v_t = -y_t G_t at the end), returns (n_iter, status
    code): refml's ``smo`` step by step.

    The kernel keeps v_t = -y_t G_t instead of G: since y_t = +-1 and rounding is symmetric,
    v_t - s (K_it - K_jt) rounds to exactly -y_t times refml's G_t + y_t s (K_it - K_jt), so
    every v is bit for bit refml's -y_t G_t.

    Layout: while points are shrunk away, the per-point values a step reads (v, the I_up /
    I_low flags, K_tt) are kept compacted, position k for the k-th point of the *phase*
    (ascending, so every scan meets the points in refml's order), as LIBSVM swaps its
    active points to the front; the full arrays are brought up to date when every point is
    made active again and at the end.  The two kernel rows are compacted too, each once per
    phase, into ``store`` (``compact_store(n)``; ``compact_row``).  A phase is the active
    list of its first shrinking: a point shrunk away later stays in it, its flags cleared
    (so no scan chooses it, and its v, updated along, is never read), until the active
    points are at most REPHASE_SHARE of the phase; then the compacted values move to the
    active points' positions and a new phase begins.  Compacting at every shrinking (every
    ``period`` steps) had made the compacted rows useless where most steps meet new i and
    j: rbf, C = 100, 20,000 x 5, 1.2 million steps, 84% of which copied both rows (2,494
    values from rows of 20,000 each), memory-bound.
    """
    n = X.shape[0]
    slot_of = np.full(n, -1, dtype=np.int64)
    owner = np.full(cache.shape[0], -1, dtype=np.int64)
    made = np.full(cache.shape[0], -1, dtype=np.int64)
    used = np.zeros(cache.shape[0], dtype=np.bool_)
    clock = np.zeros(1, dtype=np.int64)
    generation = 0
    up = np.empty(n, dtype=np.bool_)
    low = np.empty(n, dtype=np.bool_)
    active = np.arange(n)                             # refml's active points, ascending
    phase = np.arange(n)                              # the phase: a superset, ascending
    at_bound = np.zeros(n)                            # refml's G_bar
    n_active = n
    n_phase = n
    unshrunk = False
    period = min(n, 1000)
    for t in range(n):
        alpha[t] = 0.0
        v[t] = -y[t] * -1.0                           # G = -1 at alpha = 0
        set_flags(t, alpha, y, C, up, low)
    vc, dc, position = np.empty(n), np.empty(n), np.empty(n, dtype=np.int64)
    upc, lowc = np.empty(n, dtype=np.bool_), np.empty(n, dtype=np.bool_)
    bits = vc.view(np.int64)                          # vc's memory as int64 (``active_scan``)
    compact(active, n_active, v, up, low, diagonal, vc, upc, lowc, dc, position, phase)
    rows = compacted_rows(store, n)                   # compacted rows (``compact_row``)
    row_of = np.full(n, -1, dtype=np.int64)
    row_owner = np.full(COMPACT_SLOTS, -1, dtype=np.int64)   # rows.shape[0] at most
    row_epoch = np.full(COMPACT_SLOTS, -1, dtype=np.int64)
    row_clock = np.zeros(1, dtype=np.int64)
    scores = np.empty(n)                              # j's scores (``active_second_index``)
    score_bits = scores.view(np.int64)
    epoch = 0                                         # changes with the phase
    fresh = False                  # whether top, bottom are ``extremes`` of the current v
    top, bottom = LOWEST, HIGHEST
    n_iter = 0
    while True:
        if n_iter > 0 and n_iter % period == 0:
            fresh = False                             # shrinking and Newton change them
            i, m, M = active_scan(phase, n_phase, vc, bits, upc, lowc)
            if not unshrunk and m - M <= 10.0 * tol:
                unshrunk = True
                expand(active, n_active, vc, v, position)
                n_active = rebuild(X, panels, y, code, gamma, degree, coef0, C, alpha, v, at_bound,
                                   active, n_active, cache, slot_of, made)
                n_phase = compact(active, n_active, v, up, low, diagonal, vc, upc, lowc, dc,
                                  position, phase)
                generation += 1                       # rows made for fewer points are stale
                i, m, M = active_scan(phase, n_phase, vc, bits, upc, lowc)
            n_active = shrink(active, phase, n_phase, vc, upc, lowc, m, M)
            if n_active <= REPHASE_SHARE * n_phase:
                n_phase = rephase(active, n_active, phase, vc, upc, lowc, dc, position)
                epoch += 1
                rows = compacted_rows(store, n_phase)
                for t in range(n):
                    row_of[t] = -1
                for c in range(rows.shape[0]):
                    row_owner[c] = -1
                row_clock[0] = 0
            newton_step(X, panels, y, code, gamma, degree, coef0, C, alpha, vc, up, low, upc, lowc,
                        at_bound, active, n_active, phase, n_phase, position, cache, slot_of,
                        owner, clock, used, made, generation, NEWTON_WORK * period * n_active)
        if fresh:                                     # the last step's pass found them
            i, m, M = scan_from(phase, n_phase, vc, bits, upc, lowc, top, bottom)
        else:
            i, m, M = active_scan(phase, n_phase, vc, bits, upc, lowc)
        if m - M <= tol and n_active < n:             # converged on the active set: check all
            expand(active, n_active, vc, v, position)
            n_active = rebuild(X, panels, y, code, gamma, degree, coef0, C, alpha, v, at_bound,
                               active, n_active, cache, slot_of, made)
            n_phase = compact(active, n_active, v, up, low, diagonal, vc, upc, lowc, dc,
                              position, phase)
            generation += 1
            i, m, M = active_scan(phase, n_phase, vc, bits, upc, lowc)
        if m - M <= tol:
            expand(active, n_active, vc, v, position)
            return n_iter, 0
        if n_iter == max_iter:
            expand(active, n_active, vc, v, position)
            rebuild(X, panels, y, code, gamma, degree, coef0, C, alpha, v, at_bound, active,
                    n_active, cache, slot_of, made)
            return n_iter, 1
        # Rows i and j of K are read as cache[slot_i] and cache[slot_j], or compacted as
        # rows[r_i] and rows[r_j]: no views made.  A compacted row of this phase is used
        # as it is, the cache not asked (``compacted``): it holds more rows than the cache
        # where the phase is much shorter than n.
        slot_i, slot_j, r_i, r_j = -1, -1, -1, -1
        if n_phase < n:
            r_i = compacted(i, row_of, row_epoch, epoch)
            if r_i < 0:
                slot_i = fetch_row(i, -1, X, panels, code, gamma, degree, coef0, cache,
                                   slot_of, owner, clock, used, made, generation, active,
                                   n_active)
                r_i = compact_row(i, -1, slot_i, cache, phase, n_phase, rows, row_of,
                                  row_owner, row_epoch, epoch, row_clock)
            j = active_second_index(m, rows, r_i, diagonal[i], dc, vc, lowc, phase,
                                    n_phase, scores, score_bits)
            r_j = compacted(j, row_of, row_epoch, epoch)
            if r_j < 0:
                slot_j = fetch_row(j, i, X, panels, code, gamma, degree, coef0, cache,
                                   slot_of, owner, clock, used, made, generation, active,
                                   n_active)
                r_j = compact_row(j, r_i, slot_j, cache, phase, n_phase, rows, row_of,
                                  row_owner, row_epoch, epoch, row_clock)
            K_ij = rows[r_i, position[j]]
        else:                                         # position k is point k
            slot_i = fetch_row(i, -1, X, panels, code, gamma, degree, coef0, cache, slot_of,
                               owner, clock, used, made, generation, active, n_active)
            j = active_second_index(m, cache, slot_i, diagonal[i], dc, vc, lowc, phase,
                                    n_phase, scores, score_bits)
            slot_j = fetch_row(j, i, X, panels, code, gamma, degree, coef0, cache, slot_of,
                               owner, clock, used, made, generation, active, n_active)
            K_ij = cache[slot_i, j]
        was_i = alpha[i] == C
        was_j = alpha[j] == C
        v[j] = vc[position[j]]
        step, a = pair_step(i, j, m, v, K_ij, diagonal, alpha, y, C)
        if step == np.inf:
            expand(active, n_active, vc, v, position)
            rebuild(X, panels, y, code, gamma, degree, coef0, C, alpha, v, at_bound, active,
                    n_active, cache, slot_of, made)
            return n_iter, 2
        for s in (i, j):
            set_flags(s, alpha, y, C, up, low)
            upc[position[s]], lowc[position[s]] = up[s], low[s]
        if n_phase == n:                              # refml: G_t += y_t s (K_it - K_jt)
            top, bottom = step_and_extremes(vc, step, cache, slot_i, slot_j, n, upc, lowc)
        else:
            top, bottom = step_and_extremes(vc, step, rows, r_i, r_j, n_phase, upc, lowc)
        fresh = True
        for s, was in ((i, was_i), (j, was_j)):
            if (alpha[s] == C) != was:
                move_at_bound(at_bound, cache,
                              whole_row(s, X, panels, code, gamma, degree, coef0, cache,
                                        slot_of, owner, clock, used, made, generation, active,
                                        n_active), s, y, C, was)
        n_iter += 1


@kernel
def newton_step(X, panels, y, code, gamma, degree, coef0, C, alpha, vc, up, low, upc, lowc,
                at_bound, active, n_active, phase, n_phase, position, cache, slot_of, owner,
                clock, used, made, generation, work):
    """refml's ``newton_step`` on the compacted state (G_s = -y_s v_s, so -G_s = y_s v_s
    exactly, and G_t += y_t p is v_t -= p): the same floats in the same order.  Rows of K
    are fetched one at a time, so the cache may evict between them."""
    free = np.empty(n_active, dtype=np.int64)
    size = 0
    for k in range(n_active):
        t = active[k]
        if 0.0 < alpha[t] < C:
            free[size] = t
            size += 1
    if size < 2 or size ** 3 > work:
        return
    Q = np.empty((size, size))
    signs = np.empty(size)
    gradient = np.empty(size)
    for a in range(size):
        s = free[a]
        slot = fetch_row(s, -1, X, panels, code, gamma, degree, coef0, cache, slot_of, owner,
                         clock, used, made, generation, active, n_active)
        for b in range(size):
            t = free[b]
            Q[a, b] = y[s] * y[t] * cache[slot, t]
        signs[a] = y[s]
        gradient[a] = -y[s] * vc[position[s]]
    delta = np.empty(size)
    if not newton_direction(Q, signs, gradient, delta):
        return
    tau, hit = newton_length(free, gradient, delta, alpha, C)
    if not tau > 0.0:
        return
    changes = np.empty(size)
    for a in range(size):
        s = free[a]
        if a == hit:
            new = C if delta[a] > 0.0 else 0.0
        else:
            new = min(max(alpha[s] + tau * delta[a], 0.0), C)
        changes[a] = y[s] * (new - alpha[s])
        alpha[s] = new
        set_flags(s, alpha, y, C, up, low)
        upc[position[s]], lowc[position[s]] = up[s], low[s]
    for a in range(size):
        if changes[a] == 0.0:
            continue
        s = free[a]
        slot = fetch_row(s, -1, X, panels, code, gamma, degree, coef0, cache, slot_of, owner,
                         clock, used, made, generation, active, n_active)
        change = changes[a]
        for k in range(n_phase):
            vc[k] = vc[k] - change * cache[slot, phase[k]]
        if alpha[s] == C:                             # reached C (it was below): G_bar
            move_at_bound(at_bound, cache, complete_row(s, X, panels, code, gamma, degree, coef0,
                                                        cache, slot_of, made), s, y, C, False)


REPHASE_SHARE = 0.85   # a new phase when the active points are at most this share of it
                      # (rbf, C = 100, 20,000 x 5: 16.7 s with a phase per shrinking)


@kernel(refcounts=False)
def compact(active, n_active, v, up, low, diagonal, vc, upc, lowc, dc, position, phase):
    """A phase of the active points, compacted from the full arrays: position k holds point
    active[k].  Returns its size."""
    for k in range(n_active):
        t = active[k]
        vc[k], upc[k], lowc[k], dc[k] = v[t], up[t], low[t], diagonal[t]
        position[t] = k
        phase[k] = t
    return n_active


@kernel(refcounts=False)
def rephase(active, n_active, phase, vc, upc, lowc, dc, position):
    """A new phase of the active points, which are in the old one: their compacted values
    move to positions 0, 1, ... (each to a position at or before its own, in ascending
    order, so in place).  Returns its size."""
    for k in range(n_active):
        t = active[k]
        p = position[t]
        vc[k], upc[k], lowc[k], dc[k] = vc[p], upc[p], lowc[p], dc[p]
        position[t] = k
        phase[k] = t
    return n_active


@kernel(refcounts=False)
def expand(active, n_active, vc, v, position):
    """v at the active points from its compacted copy."""
    for k in range(n_active):
        t = active[k]
        v[t] = vc[position[t]]


@kernel(refcounts=False)
def move_at_bound(at_bound, cache, slot, s, y, C, was):
    """refml's G_bar update when alpha_s reaches C (+ C Q_s) or leaves it (- C Q_s);
    row s of K is in ``cache[slot]``."""
    for t in range(at_bound.shape[0]):
        term = C * (y[s] * y[t] * cache[slot, t])
        at_bound[t] = at_bound[t] - term if was else at_bound[t] + term


@kernel(refcounts=False)
def shrink(active, phase, n_phase, vc, upc, lowc, m, M):
    """refml's ``shrink`` after its check: keep the active points except those only in I_up
    with v_t < M or only in I_low with v_t > m (order kept).  The points of the phase not
    active are those with neither flag (every point is in I_up or I_low while C > 0); a
    point shrunk away has its compacted flags cleared.  Returns the new count."""
    kept = 0
    for k in range(n_phase):
        if not (upc[k] or lowc[k]):
            continue
        if (upc[k] and not lowc[k] and vc[k] < M) or (lowc[k] and not upc[k] and vc[k] > m):
            upc[k] = False
            lowc[k] = False
        else:
            active[kept] = phase[k]
            kept += 1
    return kept


@kernel
def rebuild(X, panels, y, code, gamma, degree, coef0, C, alpha, v, at_bound, active, n_active,
            cache, slot_of, made):
    """refml's ``rebuild_gradient``: for every point out of the active list,
    G_t = G_bar_t - 1 + sum_s alpha_s Q_st (s ascending over the free alpha_s), kept as
    v_t = -y_t G_t; then every point is active again.  Returns n."""
    n = X.shape[0]
    if n_active == n:
        return n
    inside = np.zeros(n, dtype=np.bool_)
    for k in range(n_active):
        inside[active[k]] = True
    out = np.empty(n - n_active, dtype=np.int64)
    count = 0
    for t in range(n):
        if not inside[t]:
            out[count] = t
            count += 1
    gradient = np.empty(n)
    for k in range(count):
        t = out[k]
        gradient[t] = at_bound[t] - 1.0
    scratch = np.empty(n)
    for s in range(n):
        if 0.0 < alpha[s] < C:
            if slot_of[s] >= 0 and made[slot_of[s]] == -1:
                row_s = cache[slot_of[s]]
            else:                                      # the row, without evicting any
                row_into(X[s], panels, n, active, n, code, gamma, degree, coef0, scratch)
                row_s = scratch
            for k in range(count):
                t = out[k]
                gradient[t] += alpha[s] * (y[s] * y[t] * row_s[t])
    for k in range(count):
        t = out[k]
        v[t] = -y[t] * gradient[t]
    for t in range(n):
        active[t] = t
    return n


@kernel(refcounts=False)
def pair_step(i, j, m, v, K_ij, diagonal, alpha, y, C):
    """(s, a_ij): refml's ``pair_step`` and its update of alpha_i, alpha_j (s = inf: none)."""
    b = m - v[j]
    a = diagonal[i] + diagonal[j] - 2.0 * K_ij
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
