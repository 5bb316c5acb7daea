"""The passes of refml_fast's SMO over the points of its phase (refml_fast.svm.smo: the active
points, and those shrunk away since the phase began, with their I_up / I_low flags
cleared so that no pass chooses them): the choice of i, m and M (``active_scan``), of j
(``active_second_index``), and the rows of K compacted to the phase's points that they read
(``compact_row``).

Each gives refml's answer, ties to the lowest index included, while running without a
branch per point where it can: on points in no particular order the flags I_up / I_low
and the sign of b change from point to point, and a branch on them was mispredicted about
half of the time (a scan of 3,246 points with random flags: 20.5 us written as refml's
loop, 0.9 us with ``active_scan`` below).
"""

import numpy as np

from refml_fast.runtime.float_bits import float_bits
from refml_fast.runtime.options import kernel

TAU = 1e-12
COMPACT_SLOTS = 4096             # rows kept compacted at the phase's points, at most
COMPACT_BYTES = 64 * 2 ** 20     # and in at most this memory (at least two rows)
MAGNITUDE = np.int64(0x7FFFFFFFFFFFFFFF)
LOWEST, HIGHEST = np.iinfo(np.int64).min, np.iinfo(np.int64).max


@kernel(inline=True, refcounts=False)
def ordered_key(bits):
    """An int64 with the order of the float64 whose bits are ``bits`` (NaN aside; -0.0
    just below +0.0): the magnitude bits flipped for negative numbers."""
    return bits ^ ((bits >> 63) & MAGNITUDE)


SEARCH_BLOCK = 64     # points a long search counts its matches in, in vector lanes
BLOCKS_FROM = 512     # points from which a search goes block by block


@kernel(refcounts=False, inline=True)
def first_with_key(bits, flags, count, key):
    """The first k < count with flags[k] whose ``ordered_key`` is ``key`` (one exists).
    A short search goes point by point; a long one block by block (``blocked_search``)."""
    if count >= BLOCKS_FROM:
        return blocked_search(bits, flags, count, key)
    return first_in(bits, flags, 0, count, key)


@kernel(refcounts=False, inline=True)
def first_in(bits, flags, start, stop, key):
    """The first k in [start, stop) with flags[k] whose ``ordered_key`` is ``key``, or -1;
    point by point."""
    for k in range(start, stop):
        if ordered_key(bits[k]) == key:   # rarely true: the branch is predicted
            if flags[k]:
                return k
    return -1


@kernel(refcounts=False)
def blocked_search(bits, flags, count, key):
    """``first_with_key`` block by block: the matches of a block are counted without a
    branch (a loop that stops at its first match runs one point at a time), and only the
    block that holds one is searched point by point.  rbf, C = 100, 15,000 x 8 (402,676
    steps, 3,536 points a phase on average): these searches had taken about a quarter of
    the SMO's time; the fit 4.7 -> 3.6 s."""
    for start in range(0, count, SEARCH_BLOCK):
        stop = min(start + SEARCH_BLOCK, count)
        block_bits, block_flags = bits[start:stop], flags[start:stop]
        hits = 0
        for k in range(stop - start):
            hits += (ordered_key(block_bits[k]) == key) & block_flags[k]
        if hits > 0:
            return first_in(bits, flags, start, stop, key)
    return -1


@kernel(refcounts=False)
def first_zero(vc, flags, count):
    """The first k < count with flags[k] and vc[k] == 0.0 (either sign; one exists)."""
    for k in range(count):
        if vc[k] == 0.0:
            if flags[k]:
                return k
    return -1


@kernel(refcounts=False)
def extremes(count, bits, upc, lowc):
    """(top, bottom): the largest ``ordered_key`` of v over I_up (LOWEST if none) and the
    smallest over I_low (HIGHEST if none), the first half of ``active_scan``."""
    top, bottom = LOWEST, HIGHEST
    for k in range(count):
        key = ordered_key(bits[k])
        top = max(top, key if upc[k] else LOWEST)
        bottom = min(bottom, key if lowc[k] else HIGHEST)
    return top, bottom


@kernel(refcounts=False)
def step_and_extremes(vc, step, rows, r_i, r_j, count, upc, lowc):
    """The pair step's update of v at the first ``count`` positions, v_k -= s (K_ik -
    K_jk) (refml's G_t += y_t s (K_it - K_jt), ``smo``), with row i and j of K in
    ``rows[r_i]`` and ``rows[r_j]``; returns ``extremes`` of the new v, found in the same
    pass, so that the next step's ``active_scan`` needs no pass of its own
    (``scan_from``)."""
    top, bottom = LOWEST, HIGHEST
    for k in range(count):
        value = vc[k] - step * (rows[r_i, k] - rows[r_j, k])
        vc[k] = value
        key = ordered_key(float_bits(value))
        top = max(top, key if upc[k] else LOWEST)
        bottom = min(bottom, key if lowc[k] else HIGHEST)
    return top, bottom


@kernel(refcounts=False)
def active_scan(points, count, vc, bits, upc, lowc):
    """``scan_from`` the ``extremes`` of v."""
    top, bottom = extremes(count, bits, upc, lowc)
    return scan_from(points, count, vc, bits, upc, lowc, top, bottom)


@kernel(refcounts=False)
def scan_from(points, count, vc, bits, upc, lowc, top, bottom):
    """``scan_in_order``'s (i, m, M), found without a branch per point; ``bits`` is vc's
    memory read as int64.

    m = max of v over I_up and M = min over I_low are integer maxima and minima of
    ``ordered_key``, which vectorise (a float maximum under strict IEEE does not).  i is
    the first point of I_up at the maximum, as refml's strict ``>`` keeps the first of
    equal values; for a maximum of zero, the first zero of either sign (``ordered_key``
    ranks -0.0 below +0.0, ``>`` does not), and m is its v.  M = 0.0 likewise takes the
    first zero's sign.  No point of I_up, or a largest v of -inf (which refml's ``>``
    never takes), gives i = -1 and m = -inf.  Should a v at an extreme be NaN (refml's
    comparisons skip NaN), ``scan_in_order`` decides.  ``top`` and ``bottom`` are the
    ``extremes`` of v (from ``extremes`` or ``step_and_extremes``)."""
    best, m, M = -1, -np.inf, np.inf
    if top != LOWEST:
        best = first_with_key(bits, upc, count, top)
        m = vc[best]
        if m != m:
            return scan_in_order(points, count, vc, upc, lowc)
        if m == 0.0:
            best = first_zero(vc, upc, count)
            m = vc[best]
        elif m == -np.inf:
            best = -1
    if bottom != HIGHEST:
        M = vc[first_with_key(bits, lowc, count, bottom)]
        if M != M:
            return scan_in_order(points, count, vc, upc, lowc)
        if M == 0.0:
            M = vc[first_zero(vc, lowc, count)]
    return (points[best] if best >= 0 else -1), m, M


@kernel(refcounts=False)
def scan_in_order(points, count, vc, upc, lowc):
    """(i, m, M) as refml's ``maximal_violation``, over the phase's points in ascending
    order, from their compacted values (i returned as the point's index): refml's
    comparisons, one point after the other."""
    best = -1
    m = -np.inf
    M = np.inf
    for k in range(count):
        candidate = vc[k] if upc[k] else -np.inf
        if candidate > m:
            best = k
            m = candidate
        candidate = vc[k] if lowc[k] else np.inf
        if candidate < M:
            M = candidate
    return (points[best] if best >= 0 else -1), m, M


@kernel(refcounts=False)
def active_second_index(m, rows, r, diagonal_i, dc, vc, lowc, points, count, scores,
                        score_bits):
    """j by WSS 2 over the phase's points (ascending), as refml's ``second_index``; row i
    of K is ``rows[r]`` at the phase's points, position k for the k-th (with every point
    in the phase, a row of the cache as it is); ``score_bits`` is ``scores``' memory as
    int64.

    Passes without a branch per point instead of refml's one loop: every phase point's
    score -(b^2)/a (+inf where refml skips the point) into ``scores``, and in the same pass
    the smallest as an integer minimum of ``ordered_key``; then the first point with that
    score.  A skipped
    point's +inf never passes refml's test score < best (best starts at +inf), and the
    scores compared are refml's floats: the same j.  A smallest score of zero (whose
    sign ``ordered_key`` ranks) or NaN (which refml's test skips) is left to refml's
    loop.  (refml's loop branched on each point, and on data in no order the branches
    were mispredicted half of the time: 17 us against 3 for 3,246 points.)"""
    lowest = HIGHEST
    for k in range(count):
        b = m - vc[k]
        a = diagonal_i + dc[k] - 2.0 * rows[r, k]
        a = TAU if a <= 0.0 else a
        score = -(b * b) / a
        score = score if lowc[k] & (b > 0.0) else np.inf
        scores[k] = score
        lowest = min(lowest, ordered_key(float_bits(score)))
    best_k = first_with_key(score_bits, lowc, count, lowest)     # -1: no point
    if best_k < 0 or scores[best_k] == np.inf:
        return -1
    if scores[best_k] == 0.0 or scores[best_k] != scores[best_k]:
        best_k = -1
        best = np.inf
        for k in range(count):
            if scores[k] < best:
                best_k = k
                best = scores[k]
    return points[best_k] if best_k >= 0 else -1


def compact_store(n):
    """The memory of the compacted rows of an n-point fit (``compacted_rows``): COMPACT_BYTES,
    less for small n (n rows of n values), room for two rows at least."""
    return np.empty(max(2 * n, min(COMPACT_BYTES // 8, n * n)))


@kernel
def compacted_rows(store, n_phase):
    """``store`` as rows of n_phase values: as many as it holds, at most COMPACT_SLOTS (a
    phase of 2,494 points in 64 MB: 3,363 rows; 20,000 points: 419)."""
    width = max(n_phase, 1)
    slots = min(COMPACT_SLOTS, store.shape[0] // width)
    return store[:slots * width].reshape((slots, width))


@kernel(refcounts=False)
def compacted(i, slot_of, epochs, epoch):
    """The slot of ``rows`` (``compact_row``) holding row i of K compacted in this phase
    (``epoch``), -1 if none."""
    c = slot_of[i]
    return c if c >= 0 and epochs[c] == epoch else -1


@kernel(refcounts=False)
def compact_row(i, protect, slot, cache, phase, n_phase, rows, slot_of, owner, epochs,
                epoch, clock):
    """The slot of ``rows`` holding row i of K (``cache[slot]``) at the phase's points,
    position k for the k-th: copied once per phase (``epoch``), so that the passes of every
    step read contiguous values, as LIBSVM's swapped rows are.  Slots are reused first in,
    first out, never ``protect``.  A point shrunk away during the phase gets whatever the
    cache row holds there (rows are computed at the active points only): no pass reads it
    for a decision (``smo``)."""
    c = slot_of[i]
    if c < 0:
        c = clock[0]
        if c == protect:
            c = (c + 1) % rows.shape[0]
        clock[0] = (c + 1) % rows.shape[0]
        if owner[c] >= 0:
            slot_of[owner[c]] = -1
        owner[c], slot_of[i], epochs[c] = i, c, -1
    if epochs[c] != epoch:
        for k in range(n_phase):
            rows[c, k] = cache[slot, phase[k]]
        epochs[c] = epoch
    return c
