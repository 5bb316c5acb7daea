"""The search kernels of refml_fast's k-NN (refml_fast.neighbors explains the method, its
error bound and why the answers are refml's): the float32 cross products of a block of
queries with a tile of training rows, the screening by the bound, and the blocks of
queries on the threads; the exact pass is ``exact``'s.
"""

import numpy as np

from refml_fast.neighbors.exact import exact_nearest
from refml_fast.neighbors.kth_smallest import first_tile_bound, keep_smallest
from refml_fast.runtime.claims import claim
from refml_fast.runtime.lanes import (
    LANES,
    LANES32,
    at_most_bits,
    fused,
    load,
    splat,
    store,
    widened,
)
from refml_fast.runtime.options import kernel
from refml_fast.runtime.prefetch import prefetch

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
    fused into a sum started from zero, which is added to acc at the end: over the slices
    of KC features a blocked sum, whose error bound gamma_m sum_j |x_j z_j| has
    m = min(d, KC) + ceil(d / KC), not d (``neighbors``'s bound).  The sums of four
    queries by 64 rows of the tile stay in registers while j runs (``lanes``), so the tile
    is read once per four queries and the sums once per pass, not once per feature; the
    block's queries take turns on 64 rows of the tile while those stay in the first cache.
    The first four groups ask for the next 64 rows' slice of the tile, a cache line a
    feature each (``prefetch``): it comes from the shared cache while the groups work, not
    when the next first group waits for it (5,101 x 1,000 by 510 queries, one core:
    84.9 -> 88.5 GMAC/s)."""
    for t0 in range(0, width, 4 * LANES32):
        ahead = t0 + 4 * LANES32 if t0 + 4 * LANES32 < width else t0
        for a in range(0, n_rows, GROUP):
            line = ahead + a // GROUP * LANES32 if a < 4 * GROUP else t0
            cross_group(T, rows, tile, acc, a, t0, first, stop, line)


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
def cross_group(T, rows, tile, acc, a, t0, first, stop, line):
    """``cross_tile`` for the queries rows[a..a+3] and the tile's rows t0..t0+63: sixteen
    sets of lanes of sums in registers; tile[j, line:line + 16] prefetched."""
    r0, r1, r2, r3 = rows[a], rows[a + 1], rows[a + 2], rows[a + 3]
    zero = splat(np.float32(0.0))
    s0 = s1 = s2 = s3 = (zero, zero, zero, zero)
    for j in range(first, stop):
        prefetch(tile, j, line)
        w = load_four(tile, j, t0)
        s0 = add_terms(splat(T[r0, j]), w, s0)
        s1 = add_terms(splat(T[r1, j]), w, s1)
        s2 = add_terms(splat(T[r2, j]), w, s2)
        s3 = add_terms(splat(T[r3, j]), w, s3)
    add_four(acc, a, t0, s0), add_four(acc, a + 1, t0, s1)
    add_four(acc, a + 2, t0, s2), add_four(acc, a + 3, t0, s3)


@kernel(inline=True)
def add_four(A, row, t, sums):
    """A[row, t:t+64] += sums (four sets of lanes)."""
    a0, a1, a2, a3 = load_four(A, row, t)
    s0, s1, s2, s3 = sums
    store_four(A, row, t, (a0 + s0, a1 + s1, a2 + s2, a3 + s3))


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


@kernel(inline=True)
def ceil_div(a, b):
    return -(-a // b)


@kernel
def nearest_blocks(T, tiles, z_upper, z_lower, gap, exhaustive, Xq, Z, P, metric, votes_only,
                   counter, n_slots, out_squared, out_indices):
    """The k nearest training rows of every query by (exact Q, training index), on every
    thread that runs it at once (``helpers.run_claimed``): blocks of at most BLOCK
    queries, each claimed from ``counter`` until none is left:
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
    upper = np.empty(capacity)
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
                          diff, scratch, upper, out_squared[r], out_indices[r])
