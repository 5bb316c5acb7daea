"""The search kernels of refml_fast's k-NN (refml_fast.neighbors explains the method, its
error bound and why the answers are refml's): the float32 cross products of a block of
queries with a tile of training rows, the screening by the bound, and the exact pass.
"""

import numba
import numpy as np

from ._claims import claim
from ._config import kernel
from ._distance_sums import (
    EUCLIDEAN,
    eight_distances,
    four_distances,
    lane_distance,
    squared_distance,
)
from ._heap import offer, sort_heap
from ._kth_smallest import first_tile_bound, keep_smallest
from ._lanes import (
    LANES,
    LANES32,
    at_most_bits,
    fused,
    load,
    splat,
    store,
    widened,
)

TILE = 512                      # training rows per tile (32 features: 64 KiB of float32)
TILE_PAD = 16                   # floats after each row of a tile: rows 2,048 bytes apart
                                # met in the first cache's same sets and evicted each other
                                # (2,000 x 2,000 at d = 400: 16.9 -> 13.7 ms of products)
GROUP = 4                       # queries sharing one pass over a tile
BLOCK = 64                      # queries screened while a tile stays in cache
KC = 64                         # features of a tile passed over by the block at a time
CAPACITY = 1024                 # candidates kept per query (16 k when larger) before it is
                                # checked exhaustively: the running threshold admits about
                                # k (1 + ln(n / k)) rows


@kernel(refcounts=False)
def cross_tile(T, rows, tile, acc, n_rows, width, first, stop):
    """acc[g, t] += sum_j T[rows[g], j] tile[j, t] over the features first <= j < stop,
    for g < n_rows (a multiple of four) and t < width rounded up to 64 (the last tile's
    padding is skipped: 1,105 rows take 1,152 columns, not 1,536), in float32, each term
    fused into the sum (any order and rounding keeps the bound gamma_d sum_j |x_j z_j|).
    The sums of four queries by 64 rows of the tile stay in registers while j runs
    (``_lanes``), so the tile is read once per four queries and the sums once per pass,
    not once per feature; the block's queries take turns on 64 rows of the tile while
    those stay in the first cache."""
    for t0 in range(0, width, 4 * LANES32):
        for a in range(0, n_rows, GROUP):
            cross_group(T, rows, tile, acc, a, t0, first, stop)


@kernel(inline=True)
def load_four(A, row, t):
    """A[row, t:t+64] as four sets of lanes."""
    return (load(A, row, t), load(A, row, t + LANES32), load(A, row, t + 2 * LANES32),
            load(A, row, t + 3 * LANES32))


@kernel(inline=True)
def store_four(A, row, t, sums):
    s0, s1, s2, s3 = sums
    store(A, row, t, s0), store(A, row, t + LANES32, s1)
    store(A, row, t + 2 * LANES32, s2), store(A, row, t + 3 * LANES32, s3)


@kernel(inline=True)
def add_terms(x, w, sums):
    """sums + x w, four sets of lanes, each term fused into its sum."""
    return (fused(x, w[0], sums[0]), fused(x, w[1], sums[1]), fused(x, w[2], sums[2]),
            fused(x, w[3], sums[3]))


@kernel(refcounts=False)
def cross_group(T, rows, tile, acc, a, t0, first, stop):
    """``cross_tile`` for the queries rows[a..a+3] and the tile's rows t0..t0+63: sixteen
    sets of lanes of sums in registers."""
    r0, r1, r2, r3 = rows[a], rows[a + 1], rows[a + 2], rows[a + 3]
    s0, s1 = load_four(acc, a, t0), load_four(acc, a + 1, t0)
    s2, s3 = load_four(acc, a + 2, t0), load_four(acc, a + 3, t0)
    for j in range(first, stop):
        w = load_four(tile, j, t0)
        s0 = add_terms(splat(T[r0, j]), w, s0)
        s1 = add_terms(splat(T[r1, j]), w, s1)
        s2 = add_terms(splat(T[r2, j]), w, s2)
        s3 = add_terms(splat(T[r3, j]), w, s3)
    store_four(acc, a, t0, s0), store_four(acc, a + 1, t0, s1)
    store_four(acc, a + 2, t0, s2), store_four(acc, a + 3, t0, s3)


@kernel(refcounts=False)
def screen_tile(acc, g, start, upper_tile, lower_rows, gap, state, b, best, candidates,
                candidate_lower, rows_below):
    """Query b of the block (row g of acc) against one tile: keep every row whose lower
    bound is below the running threshold, and the upper bounds that may be among the k
    smallest.  The threshold is the k-th smallest upper bound kept, plus the gap.

    state[b] = [count, n_candidates, threshold, overflow, kth], kth the k-th smallest upper
    bound kept, or before k are kept the first tile's bound on it.  ``best[b]`` (room for
    2k) collects the upper bounds below kth (at or below it, the first k); when full, a
    selection keeps its k smallest (``keep_smallest``): O(1) per row on average instead
    of a heap's O(log k), and only the k-th value matters (whichever rows tie at it).
    Past the candidates' capacity the query is flagged for an exhaustive check.  The rows
    below the threshold are first listed into ``rows_below``: eight rows' lower bounds at a
    time in lanes (``lower_rows`` is the training rows' lower parts as a 1 x n matrix), the
    rows below as the bits of a mask, and where a bit is set all eight positions written,
    the count moved by each bit (no branch a row).  Then only those rows are walked, with
    the threshold as it falls.  The whole tile had been walked, a branch a row, wherever
    one row was below (k-NN 3,571 x 32 with k = 15, 714 queries, one core: the search
    4.8 -> 4.0 ms, run for run)."""
    k, capacity, width = best.shape[1] // 2, candidates.shape[1], upper_tile.shape[0]
    count, n_candidates, threshold = int(state[b, 0]), int(state[b, 1]), state[b, 2]
    kth = state[b, 4]
    hits = 0
    whole = width // LANES * LANES
    limit = splat(threshold)
    for t0 in range(0, whole, LANES):
        bits = at_most_bits(load(lower_rows, 0, start + t0) - splat(2.0) * widened(acc, g, t0),
                            limit)
        if bits != 0:                   # each of the eight written, the count moved by its bit
            for lane in range(LANES):
                rows_below[hits] = t0 + lane
                hits += (bits >> lane) & 1
    for t in range(whole, width):
        rows_below[hits] = t
        hits += lower_rows[0, start + t] - 2.0 * acc[g, t] <= threshold
    for h in range(hits):
        t = rows_below[h]
        twice_cross = 2.0 * acc[g, t]
        lower = lower_rows[0, start + t] - twice_cross
        if lower <= threshold:
            if n_candidates == capacity:
                state[b, 3] = 1.0
                return
            candidates[b, n_candidates] = start + t
            candidate_lower[b, n_candidates] = lower
            n_candidates += 1
            upper = upper_tile[t] - twice_cross
            if (count < k and not upper > kth) or upper < kth:
                best[b, count] = upper
                count += 1
                if count == k or count == 2 * k:
                    kth = keep_smallest(best[b], count, k)
                    count = k
                    threshold = min(threshold, kth + gap)
    state[b, 0], state[b, 1], state[b, 2], state[b, 4] = count, n_candidates, threshold, kth


FLOAT64_ROUNDOFF = 2.0 ** -53


@kernel(refcounts=False)
def refine(Xq, r, Z, candidates, candidate_lower, n_candidates, threshold, k, scratch):
    """The Euclidean candidates below the final threshold, narrowed in float64.

    refml's Q and ``lane_distance``'s L add the same d nonnegative terms in two orders, so
    each is within gamma_d = d u / (1 - d u) (u = 2^-53) of their exact sum, relatively
    (Higham, Thm 4.2 on any order of summation): Q <= L (1 + delta) and
    Q >= L (1 - delta) with delta = 4 (d + 1) u, which also covers the rounding of these
    two products.  So the k smallest L (1 + delta) bound the k-th smallest Q by U, and a
    row with L (1 - delta) > U is neither among the k nearest nor tied with the k-th.
    Where float32 leaves many rows inside the screen's bound (high d, distances that differ
    by less than a percent), this keeps the strict left-to-right sums for about k rows:
    k-NN 1,105 x 1,000, 200 queries, k = 5: of the 83 rows a query that the general bound
    let through, 5 are left (numpy's sums standing in for the lanes').  The kept rows go
    to the front of ``candidates`` (their L, when narrowed, or screen bounds to the front
    of ``candidate_lower``); returns their count and whether they were narrowed.  With at most 2k rows below the
    threshold the narrowing could save little and would read every row twice: they all go
    to the strict sums (k-NN 3,516 x 784 with k = 50, 351 queries: 14.1 -> 12.3 ms)."""
    below = 0
    for t in range(n_candidates):
        below += candidate_lower[t] <= threshold
    if below <= 2 * k:
        kept = 0
        for t in range(n_candidates):
            if candidate_lower[t] <= threshold:
                candidates[kept] = candidates[t]
                candidate_lower[kept] = candidate_lower[t]
                kept += 1
        return kept, False
    kept = 0
    for t in range(n_candidates):
        if candidate_lower[t] <= threshold:
            distance = lane_distance(Xq, r, Z, candidates[t])
            candidates[kept], candidate_lower[kept] = candidates[t], distance
            scratch[kept] = distance
            kept += 1
    if kept <= k:
        return kept, True
    delta = 4.0 * (Xq.shape[1] + 1) * FLOAT64_ROUNDOFF
    limit = keep_smallest(scratch, kept, k) * (1.0 + delta)
    narrowed = 0
    for t in range(kept):
        if candidate_lower[t] * (1.0 - delta) <= limit:
            candidates[narrowed] = candidates[t]
            candidate_lower[narrowed] = candidate_lower[t]
            narrowed += 1
    return narrowed, True


@kernel(refcounts=False)
def exact_nearest(Xq, r, Z, P, metric, candidates, candidate_lower, n_candidates, threshold,
                  z_upper, z_lower, gap, votes_only, diff, scratch, out_squared, out_indices):
    """The k smallest exact Q(x, z_i), x = Xq[r], over the candidates below the final
    threshold (Euclidean: narrowed by ``refine`` first), or over every training row when
    n_candidates < 0.  With ``votes_only`` (predict and predict_proba count the k
    neighbours' classes; nothing else is asked of them) the rows that are surely among
    the k go straight to the answer (``set_aside_sure``), their Q never summed, and
    out_squared holds NaN for them."""
    x = Xq[r]
    if n_candidates < 0:
        count = 0
        for i in range(Z.shape[0]):
            count = offer(out_squared, out_indices, count,
                          squared_distance(x, Z[i], P, metric, diff), i)
        sort_heap(out_squared, out_indices, count)
        return
    k = out_squared.shape[0]
    if metric == EUCLIDEAN:
        kept, narrowed = refine(Xq, r, Z, candidates, candidate_lower, n_candidates,
                                threshold, k, scratch)
    else:
        kept, narrowed = 0, False
        for t in range(n_candidates):
            if candidate_lower[t] <= threshold:
                candidates[kept], candidate_lower[kept] = candidates[t], candidate_lower[t]
                kept += 1
    sure = 0
    if votes_only:
        sure = set_aside_sure(candidates, candidate_lower, kept, narrowed,
                              4.0 * (Xq.shape[1] + 1) * FLOAT64_ROUNDOFF, z_upper, z_lower,
                              gap, k, scratch, out_indices)
        out_squared[:sure] = np.nan
    strict_nearest(Xq, r, Z, P, metric, candidates, kept - sure, diff, scratch,
                   out_squared[sure:], out_indices[sure:])


@kernel(refcounts=False)
def set_aside_sure(candidates, candidate_lower, kept, narrowed, delta, z_upper, z_lower, gap,
                   k, scratch, out_indices):
    """Move the kept rows that are surely among the k nearest to out_indices' front, the
    others to candidates' front; returns how many are sure.

    Every kept row t has Q_t in a bracket [lo_t, hi_t]: after ``refine``'s narrowing
    [L_t (1 - delta), L_t (1 + delta)], else the screen's [lower_t, upper_t + gap] (shifted
    by the query's own lower part, the same for all rows).  Let N be the (k + 1)-th
    smallest lo_t.  A row with hi_t < N is among the k nearest: were it not, k rows would
    come before it, all kept (the kept rows hold the k nearest), each with lo_j <= Q_j <=
    Q_t <= hi_t < N, and with it k + 1 rows would lie below N.  The others, usually the
    one or two rows whose brackets meet the k-th's, are summed exactly and the best of
    them fill the remaining places: the same set as refml's k nearest (k-NN 5,101 x 1,000,
    k = 50, 510 queries: about 50 rows a query, 8 KB each, no longer read and summed)."""
    for t in range(kept):
        scratch[t] = candidate_lower[t] * (1.0 - delta) if narrowed else candidate_lower[t]
    next_lower = keep_smallest(scratch, kept, k + 1) if kept > k else np.inf
    sure, rest = 0, 0
    for t in range(kept):
        i = candidates[t]
        if narrowed:
            upper = candidate_lower[t] * (1.0 + delta)
        else:
            upper = candidate_lower[t] + (z_upper[i] - z_lower[i]) + gap
        if upper < next_lower:
            out_indices[sure] = i
            sure += 1
        else:
            candidates[rest] = i
            rest += 1
    return sure


@kernel(refcounts=False)
def strict_nearest(Xq, r, Z, P, metric, candidates, kept, diff, scratch, out_squared,
                   out_indices):
    """The len(out_squared) smallest (Q, index) of the rows candidates[:kept] by refml's
    sums, in increasing order: Euclidean rows eight or four at a time."""
    count = 0
    x = Xq[r]
    if metric == EUCLIDEAN:
        eights = kept // LANES * LANES
        for t in range(0, eights, LANES):
            eight_distances(Xq, r, Z, candidates, t, scratch)
            for l in range(LANES):
                count = offer(out_squared, out_indices, count, scratch[l], candidates[t + l])
        whole = eights + (kept - eights) // 4 * 4
        for t in range(eights, whole, 4):
            i0, i1, i2, i3 = candidates[t], candidates[t + 1], candidates[t + 2], candidates[t + 3]
            q0, q1, q2, q3 = four_distances(x, Z[i0], Z[i1], Z[i2], Z[i3])
            count = offer(out_squared, out_indices, count, q0, i0)
            count = offer(out_squared, out_indices, count, q1, i1)
            count = offer(out_squared, out_indices, count, q2, i2)
            count = offer(out_squared, out_indices, count, q3, i3)
        first = whole
    else:
        first = 0
    for t in range(first, kept):
        i = candidates[t]
        count = offer(out_squared, out_indices, count,
                      squared_distance(x, Z[i], P, metric, diff), i)
    sort_heap(out_squared, out_indices, count)


@kernel(parallel=True)
def nearest_kernel(T, tiles, z_upper, z_lower, gap, exhaustive, Xq, Z, P, metric, votes_only,
                   n_slots, out_squared, out_indices):
    """The k nearest training rows of every query by (exact Q, training index): one slot
    per thread, each claiming blocks of queries until none is left (``_claims``)."""
    counter = np.zeros(1, dtype=np.int64)
    for _ in numba.prange(n_slots):
        nearest_blocks(T, tiles, z_upper, z_lower, gap, exhaustive, Xq, Z, P, metric,
                       votes_only, counter, n_slots, out_squared, out_indices)


@kernel
def nearest_serial(T, tiles, z_upper, z_lower, gap, exhaustive, Xq, Z, P, metric, votes_only,
                   n_slots, out_squared, out_indices):
    """``nearest_kernel``'s twin on the calling thread (``n_slots`` unused)."""
    nearest_blocks(T, tiles, z_upper, z_lower, gap, exhaustive, Xq, Z, P, metric, votes_only,
                   np.zeros(1, dtype=np.int64), 1, out_squared, out_indices)


@kernel(inline=True)
def ceil_div(a, b):
    return -(-a // b)


@kernel
def nearest_blocks(T, tiles, z_upper, z_lower, gap, exhaustive, Xq, Z, P, metric, votes_only,
                   counter, n_slots, out_squared, out_indices):
    """Blocks of at most BLOCK queries, each claimed from ``counter`` until none is left:
    each training tile meets the whole block, KC features at a time (that slice of the tile
    stays in cache while GROUP queries after GROUP queries pass over it), and is then
    screened; at the end the exact pass.  The blocks come in a multiple of ``n_slots``,
    the threads, and of even sizes, so that no thread is left with the last block alone
    (200 queries: four blocks of 52 or 44, not three of 64 and one of 8)."""
    n_queries, n_train, k = Xq.shape[0], Z.shape[0], out_squared.shape[1]
    d = Xq.shape[1]
    n_blocks = ceil_div(ceil_div(max(1, n_queries), BLOCK), n_slots) * n_slots
    size = min(BLOCK, ceil_div(ceil_div(max(1, n_queries), n_blocks), GROUP) * GROUP)
    n_blocks = ceil_div(n_queries, size)
    acc = np.empty((BLOCK, TILE), dtype=np.float32)
    state = np.empty((BLOCK, 5))
    best = np.empty((BLOCK, 2 * k))
    capacity = min(n_train, max(CAPACITY, 16 * k))
    candidates = np.empty((BLOCK, capacity), dtype=np.int64)
    candidate_lower = np.empty((BLOCK, capacity))
    rows = np.empty(BLOCK, dtype=np.int64)
    diff = np.empty(Xq.shape[1])
    scratch = np.empty(capacity)
    values = np.empty(TILE)
    rows_below = np.empty(TILE, dtype=np.int64)
    lower_rows = z_lower.reshape((1, n_train))
    while True:
        block = claim(counter)
        if block >= n_blocks:
            break
        first = block * size
        for b in range(size):
            state[b, 0], state[b, 1], state[b, 2], state[b, 3] = 0.0, 0.0, np.inf, 0.0
            state[b, 4] = np.inf
        for start in range(0, n_train, TILE):
            stop = min(n_train, start + TILE)
            tile = tiles[start // TILE]
            upper_tile = z_upper[start:stop]
            n_block = min(size, n_queries - first)
            acc[:] = 0.0
            for b in range(size):
                rows[b] = min(first + b, n_queries - 1)
            for feature in range(0, d, KC):
                cross_tile(T, rows, tile, acc, (n_block + GROUP - 1) // GROUP * GROUP,
                           stop - start, feature, min(d, feature + KC))
            for b in range(n_block):
                if start == 0:          # a first threshold from the first tile's rows
                    state[b, 4] = first_tile_bound(acc, b, upper_tile, k, values)
                    state[b, 2] = state[b, 4] + gap[first + b]
                if not exhaustive[first + b] and state[b, 3] == 0.0:
                    screen_tile(acc, b, start, upper_tile, lower_rows, gap[first + b], state,
                                b, best, candidates, candidate_lower, rows_below)
        for b in range(min(size, n_queries - first)):
            r = first + b
            if state[b, 0] > k:  # the final threshold from the k smallest upper bounds kept
                state[b, 2] = keep_smallest(best[b], int(state[b, 0]), k) + gap[r]
            n_candidates = -1 if exhaustive[r] or state[b, 3] != 0.0 else int(state[b, 1])
            exact_nearest(Xq, r, Z, P, metric, candidates[b], candidate_lower[b],
                          n_candidates, state[b, 2], z_upper, z_lower, gap[r], votes_only,
                          diff, scratch, out_squared[r], out_indices[r])
