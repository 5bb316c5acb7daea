"""The binary Hessian of LogisticRegression, X~'WX~ summed as refml's ``hessian`` (blocks of
SUM_BLOCK samples, each from 0.0 in sample order, then the blocks in order), given the
sample weights w_i = P_i1 (1 - P_i1) that ``logistic_binary``'s objective leaves.

The sums of a block are kept in registers, a tile of four rows by 8, 16 or 24 columns at a
time (``tile_24`` and its two narrower twins, over ``lanes``): for sample after sample,
entry [r, c] of the tile adds a_ir x~_ic, a_ir = w_i x~_ir, the same product and the same
sum as refml's, in refml's order.  The samples come in runs (48 KB, at least 64 samples),
copied first with their intercept and their weighted copy (``pack``) so that a run stays
in the core's first cache, or close to it, while every tile of the triangle reads it.  On
threads either the blocks of
samples (few features: each block's partial matrix is small) or the rows (many features)
are shared out; each entry is still summed by one thread in refml's order, so every path
gives the same floats.

Tiles rather than two rows of the matrix loaded and stored again per eight samples (one
core, best of 100): 50,000 x 5 0.34 -> 0.27 ms, 20,000 x 12 0.28 -> 0.18, 10,000 x 40
0.54 -> 0.31, 3,000 x 100 0.65 -> 0.41, 10,000 x 200 7.0 -> 4.4, 2,000 x 500 7.2 -> 6.0.
A tile of 4 x 24 reaches about 48 GMAC/s here (65 on data in the first cache); what it
computes above the diagonal is a quarter of its work at p = 41.
"""

import numba
import numpy as np
from numba import prange

from refml.core.summation import SUM_BLOCK
from refml_fast.runtime.lanes import LANES, line_aligned_zeros, load, splat, store
from refml_fast.runtime.options import kernel
from refml_fast.runtime.threads import run_parallel

ROWS = 4                # rows of H per tile
# Floats of x~ per run of samples (with the weighted copy, 48 KB: the first cache), but
# at least 64 samples: shorter runs spent more on loading and storing the tiles than the
# cache saved (2,000 x 500: 10.1 ms with runs of 6 samples, 5.9 with 64).
RUN_FLOATS, RUN_SAMPLES = 3072, 64


@kernel(refcounts=False)
def tile_24(A, Xt, P, r, c, first, stop):
    """P[r:r+4, c:c+24] += A[i, r:r+4]' Xt[i, c:c+24], i = first..stop-1 one after the other
    (each entry: the product rounded, then the sum, as refml's ``row[jj] += a * x[jj]``)."""
    s00, s01, s02 = load(P, r, c), load(P, r, c + 8), load(P, r, c + 16)
    s10, s11, s12 = load(P, r + 1, c), load(P, r + 1, c + 8), load(P, r + 1, c + 16)
    s20, s21, s22 = load(P, r + 2, c), load(P, r + 2, c + 8), load(P, r + 2, c + 16)
    s30, s31, s32 = load(P, r + 3, c), load(P, r + 3, c + 8), load(P, r + 3, c + 16)
    for i in range(first, stop):
        x0, x1, x2 = load(Xt, i, c), load(Xt, i, c + 8), load(Xt, i, c + 16)
        a = splat(A[i, r])
        s00, s01, s02 = s00 + a * x0, s01 + a * x1, s02 + a * x2
        a = splat(A[i, r + 1])
        s10, s11, s12 = s10 + a * x0, s11 + a * x1, s12 + a * x2
        a = splat(A[i, r + 2])
        s20, s21, s22 = s20 + a * x0, s21 + a * x1, s22 + a * x2
        a = splat(A[i, r + 3])
        s30, s31, s32 = s30 + a * x0, s31 + a * x1, s32 + a * x2
    store(P, r, c, s00), store(P, r, c + 8, s01), store(P, r, c + 16, s02)
    store(P, r + 1, c, s10), store(P, r + 1, c + 8, s11), store(P, r + 1, c + 16, s12)
    store(P, r + 2, c, s20), store(P, r + 2, c + 8, s21), store(P, r + 2, c + 16, s22)
    store(P, r + 3, c, s30), store(P, r + 3, c + 8, s31), store(P, r + 3, c + 16, s32)


@kernel(refcounts=False)
def tile_16(A, Xt, P, r, c, first, stop):
    """``tile_24`` for 16 columns."""
    s00, s01 = load(P, r, c), load(P, r, c + 8)
    s10, s11 = load(P, r + 1, c), load(P, r + 1, c + 8)
    s20, s21 = load(P, r + 2, c), load(P, r + 2, c + 8)
    s30, s31 = load(P, r + 3, c), load(P, r + 3, c + 8)
    for i in range(first, stop):
        x0, x1 = load(Xt, i, c), load(Xt, i, c + 8)
        a = splat(A[i, r])
        s00, s01 = s00 + a * x0, s01 + a * x1
        a = splat(A[i, r + 1])
        s10, s11 = s10 + a * x0, s11 + a * x1
        a = splat(A[i, r + 2])
        s20, s21 = s20 + a * x0, s21 + a * x1
        a = splat(A[i, r + 3])
        s30, s31 = s30 + a * x0, s31 + a * x1
    store(P, r, c, s00), store(P, r, c + 8, s01)
    store(P, r + 1, c, s10), store(P, r + 1, c + 8, s11)
    store(P, r + 2, c, s20), store(P, r + 2, c + 8, s21)
    store(P, r + 3, c, s30), store(P, r + 3, c + 8, s31)


@kernel(refcounts=False)
def tile_8(A, Xt, P, r, c, first, stop):
    """``tile_24`` for 8 columns."""
    s0, s1, s2, s3 = load(P, r, c), load(P, r + 1, c), load(P, r + 2, c), load(P, r + 3, c)
    for i in range(first, stop):
        x = load(Xt, i, c)
        s0 = s0 + splat(A[i, r]) * x
        s1 = s1 + splat(A[i, r + 1]) * x
        s2 = s2 + splat(A[i, r + 2]) * x
        s3 = s3 + splat(A[i, r + 3]) * x
    store(P, r, c, s0), store(P, r + 1, c, s1), store(P, r + 2, c, s2), store(P, r + 3, c, s3)


@kernel
def scratch(width, d, fit_intercept):
    """A and Xt for ``pack``: runs of RUN_FLOATS // width samples (at least RUN_SAMPLES),
    ``width`` columns, already holding what ``pack`` never writes (columns d.. of Xt: 1.0
    for the intercept, then zeros; of A: zeros, bar the intercept's w)."""
    run = max(RUN_SAMPLES, RUN_FLOATS // width)
    A, Xt = line_aligned_zeros(run, width), line_aligned_zeros(run, width)
    if fit_intercept:
        for i in range(run):
            Xt[i, d] = 1.0
    return A, Xt


@kernel(refcounts=False)
def pack(X, weights, fit_intercept, start, stop, A, Xt):
    """Rows 0..stop-start-1 of Xt and A: x~ and w x~ of samples start.. (from ``scratch``,
    whose columns from d on hold the intercept's 1.0 and zeros: only w is written there)."""
    d = X.shape[1]
    whole = d // LANES * LANES
    for i in range(stop - start):
        sample = start + i
        w = weights[sample]
        w_lanes = splat(w)
        for j in range(0, whole, LANES):
            x = load(X, sample, j)
            store(Xt, i, j, x)
            store(A, i, j, w_lanes * x)
        for j in range(whole, d):
            x = X[sample, j]
            Xt[i, j] = x
            A[i, j] = w * x
        if fit_intercept:
            A[i, d] = w


@kernel(refcounts=False)
def run_tiles(A, Xt, P, first_row, stop_row, p, n_run):
    """Rows first_row..stop_row-1 of P (first_row a multiple of ROWS) += the run's terms,
    on columns 0..min(r + ROWS, p) rounded up to eight for the tile of rows r..r+3; the
    entries above the diagonal this touches, and the rows from p on, are scratch."""
    for r in range(first_row, stop_row, ROWS):
        chunks = (min(r + ROWS, p) + LANES - 1) // LANES
        c = 0
        while chunks >= 3:
            tile_24(A, Xt, P, r, c, 0, n_run)
            c += 3 * LANES
            chunks -= 3
        if chunks == 2:
            tile_16(A, Xt, P, r, c, 0, n_run)
        elif chunks == 1:
            tile_8(A, Xt, P, r, c, 0, n_run)


@kernel
def block_rows(X, weights, fit_intercept, S, first_row, stop_row, P):
    """Rows first_row..stop_row-1 of S += each block's sums (tiles from 0.0 in P), the blocks
    of SUM_BLOCK samples in order: refml's ``hessian``."""
    n = X.shape[0]
    A, Xt = scratch(P.shape[1], X.shape[1], fit_intercept)
    for start in range(0, n, SUM_BLOCK):
        block_partial(X, weights, fit_intercept, start, min(n, start + SUM_BLOCK),
                      first_row, stop_row, P, A, Xt)
        for r in range(first_row, stop_row):
            for c in range(r + 1):
                S[r, c] += P[r, c]


@kernel
def block_partial(X, weights, fit_intercept, start, stop, first_row, stop_row, P, A, Xt):
    """Rows first_row..stop_row-1 of P = the sums of samples start..stop-1 (from 0.0), in
    runs of A.shape[0] samples."""
    p = X.shape[1] + 1 if fit_intercept else X.shape[1]
    for r in range(first_row, min(P.shape[0], (stop_row + ROWS - 1) // ROWS * ROWS)):
        for c in range(P.shape[1]):
            P[r, c] = 0.0
    for begin in range(start, stop, A.shape[0]):
        end = min(stop, begin + A.shape[0])
        pack(X, weights, fit_intercept, begin, end, A, Xt)
        run_tiles(A, Xt, P, first_row, stop_row, p, end - begin)


@kernel
def hessian_serial(X, weights, fit_intercept, S, partials, bounds):
    """Every row on the calling thread, partials[0] as its scratch (bounds[-1] = p)."""
    block_rows(X, weights, fit_intercept, S, 0, bounds[-1], partials[0])


@kernel(parallel=True)
def hessian_by_rows(X, weights, fit_intercept, S, partials, bounds):
    """The row ranges bounds[t]..bounds[t+1] on the threads, each with its own partial sums
    (each entry summed by one thread, in refml's order: the same floats)."""
    for t in prange(bounds.shape[0] - 1):
        block_rows(X, weights, fit_intercept, S, bounds[t], bounds[t + 1], partials[t])


@kernel(parallel=True)
def hessian_by_blocks(X, weights, fit_intercept, S, partials, bounds):
    """The blocks of samples on the threads, every row of block b into partials[b], then the
    blocks added in order on this thread: for few features, where the rows are too few to
    share out evenly."""
    n = X.shape[0]
    p = bounds[-1]
    for b in prange(partials.shape[0]):
        A, Xt = scratch(S.shape[1], X.shape[1], fit_intercept)
        block_partial(X, weights, fit_intercept, b * SUM_BLOCK, min(n, (b + 1) * SUM_BLOCK),
                      0, p, partials[b], A, Xt)
    for b in range(partials.shape[0]):
        for r in range(p):
            for c in range(r + 1):
                S[r, c] += partials[b, r, c]


@kernel
def finish_hessian(S, n, d, alpha, H):
    """H = lower triangle of S / n, plus alpha on the diagonal of the w-part."""
    p = H.shape[0]
    for r in range(p):
        for c in range(r + 1):
            H[r, c] = S[r, c] / n
        if r < d:
            H[r, r] = H[r, r] + alpha


# Serial seconds of the tiles, about n (SAMPLE_SECONDS + p^2 ENTRY_SECONDS) (one core,
# fitted to the shapes in the module's docstring), what ``run_parallel`` weighs against a
# wait for a busy core.
SAMPLE_SECONDS, ENTRY_SECONDS = 5e-9, 1.4e-11
# n (p^2 + SAMPLE_SECONDS / ENTRY_SECONDS) from which threads share H: about 0.04 ms on
# one core.  It was n p^2 >= 1,000,000, which kept few features' Hessians on one core
# whatever n (30,000 x 2: 0.165 ms a Hessian; 50,000 x 5 reached it, 0.33 ms: its Newton
# fit 6.9-7.1 -> 5.3-5.4 ms on the threads, measured before the tiles).  At 7,000,000
# (0.1 ms) 2,000 x 47 stayed on one core, 1.96-1.99 -> 2.16-2.18 ms a fit.
PARALLEL_WORK = 3_000_000
BLOCK_PARTIALS = 4_000_000  # floats of one partial Hessian per block, at most (32 MB)


def row_bounds(p, parts):
    """Row boundaries 0 = b_0 <= ... <= b_parts = p, multiples of ROWS but the last, that
    split the work into near-equal parts: the tile of rows r..r+3 costs about
    min(r + ROWS, p) columns rounded up to eight."""
    group_cost = [(min(r + ROWS, p) + LANES - 1) // LANES for r in range(0, p, ROWS)]
    total = sum(group_cost)
    bounds, done, group = [0], 0, 0
    for part in range(1, parts):
        while group < len(group_cost) and done + group_cost[group] / 2 <= total * part / parts:
            done += group_cost[group]
            group += 1
        bounds.append(min(ROWS * group, p))
    bounds.append(p)
    return np.array(bounds, dtype=np.int64)


def hessian_binary(X, weights, fit_intercept, alpha, H):
    """``logistic_kernels.hessian`` for K = 2 (same floats) into H (p x p, lower triangle;
    the caller zeroes it), given the sample weights w_i = P_i1 (1 - P_i1).  On threads,
    the blocks of samples are shared out when their partial sums fit in BLOCK_PARTIALS
    floats and there are more blocks than tiles of rows, else the rows.  The scratch
    matrices are p + 1 wide, rounded up to eight: room for a tile's last columns and rows."""
    n, d = X.shape
    p = H.shape[0]
    width = (p + 1 + LANES - 1) // LANES * LANES
    S = np.zeros((width, width))
    threads = numba.get_num_threads()
    size = (threads > 1) * n * (p * p + SAMPLE_SECONDS / ENTRY_SECONDS) / PARALLEL_WORK
    unit_seconds = n * (SAMPLE_SECONDS + p * p * ENTRY_SECONDS) / max(size, 1.0)
    n_blocks = (n + SUM_BLOCK - 1) // SUM_BLOCK
    by_blocks = n_blocks * width * width <= BLOCK_PARTIALS and n_blocks > (p + ROWS - 1) // ROWS
    if size >= 1 and by_blocks:
        run_parallel(hessian_by_blocks, hessian_serial, size, X, weights, fit_intercept, S,
                     np.empty((n_blocks, width, width)), row_bounds(p, 1),
                     unit_seconds=unit_seconds)
    else:
        run_parallel(hessian_by_rows, hessian_serial, size, X, weights, fit_intercept, S,
                     np.empty((threads, width, width)), row_bounds(p, threads),
                     unit_seconds=unit_seconds)
    finish_hessian(S, n, d, float(alpha), H)
