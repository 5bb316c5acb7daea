"""The k-NN's approximate rows (refml_fast.neighbors explains the screen and its bound):
each row centred, its squared norm, the row rounded to float32 and the rounded row's squared
norm, written as rows (the queries) or, for the training side, into tiles that hold each
feature's values of TILE rows side by side.

The tiles are filled sixteen rows at a time.  The rounded rows (float32 values, held in
float64) go into ``staging``, 16 x d; each block of eight features of the sixteen rows is
then turned into columns in registers (two 8 x 8 transposes, ``lanes.transpose``), and
each feature's sixteen values go into one cache line of the tile with two stores of eight.
It had been one store a value, read from a float32 staging block a column at a time.
The fit's preparation of 1,467 x 784 on one core: 1.45-1.64 -> 1.32 ms, and 1.03-1.10 ms
with the tiles no longer zeroed before they are written (``neighbors``) and the centre the
mean of 256 rows, not 1,024 (the reading of X alone takes about 0.4 ms).
"""

import numba
import numpy as np

from refml_fast.neighbors.search import TILE
from refml_fast.runtime.lanes import (
    LANES,
    LANES32,
    float32_values,
    lane_sum,
    load,
    put,
    splat,
    store_rounded,
    transpose,
)
from refml_fast.runtime.options import kernel
from refml_fast.runtime.threads import run_parallel

SCALE_LIMIT = 1e30              # float32 holds 3.4e38: products stay far below it
# Below this size the rows are prepared on one core: a parallel launch while another
# library's threads still spin on the cores waits for a time slice (``options``).
PARALLEL_ENTRIES = 2_000_000    # entries of X centred and rounded by ``centre_rows``


@kernel(refcounts=False)
def centre_rows(X, center, scale, tiles, rows, centred_norms, norms, block, staging):
    """The Euclidean approximate rows of one block of TILE rows: x' = x - m, ||x'||^2,
    x~ = float32(x') (zero where (1 + S)(1 + ||x'||^2) > SCALE_LIMIT, ``scale`` = 1 + S)
    and ||x~||^2 in float64, written into ``tiles`` (training side, transposed tile by
    tile) when it has tiles, else into ``rows``.  ``center`` is m as a 1 x d matrix.
    Any order of the sums keeps the bound's assumptions, so the norms are summed eight
    features at a time in lanes (``lanes``), and added up across the lanes at the end.
    Each row is rounded right after its norm, while it is in the first cache.  Compiled
    without reference counts: the inlined helpers' atomic counts took two thirds of the
    time (one core, 5,000 x 1,000: 16.2 -> 5.2 ms; the fit of that k-NN 11.6 -> 5.5 ms)."""
    n, d = X.shape
    first, stop = block * TILE, min(n, (block + 1) * TILE)
    into_tiles = tiles.shape[0] > 0
    for g0 in range(first, stop, LANES32):
        g1 = min(stop, g0 + LANES32)
        for i in range(g0, g1):
            if into_tiles:
                centre_row(X, center, scale, i, staging, i - g0, centred_norms, norms)
            else:
                centre_row(X, center, scale, i, rows, i, centred_norms, norms)
        if into_tiles:
            for r in range(g1 - g0, LANES32):     # after the last row: zeros, as before
                for j in range(d):
                    staging[r, j] = 0.0
            fill_tile(staging, tiles[block], g0 - first, d)


@kernel(inline=True, refcounts=False)
def fill_tile(staging, tile, column, d):
    """tile[j, column:column + 16] = staging[0:16, j] rounded to float32, for j < d."""
    for j in range(0, d, LANES):
        upper = transpose((load(staging, 0, j), load(staging, 1, j), load(staging, 2, j),
                           load(staging, 3, j), load(staging, 4, j), load(staging, 5, j),
                           load(staging, 6, j), load(staging, 7, j)))
        lower = transpose((load(staging, 8, j), load(staging, 9, j), load(staging, 10, j),
                           load(staging, 11, j), load(staging, 12, j), load(staging, 13, j),
                           load(staging, 14, j), load(staging, 15, j)))
        store_columns(tile, j, column, upper, lower, min(LANES, d - j))


@kernel(inline=True, refcounts=False)
def store_columns(tile, j, column, upper, lower, count):
    """The first ``count`` columns of the two transposed blocks into features j, j + 1, ...
    of the tile (written out: a loop over the columns compiled to a jump table)."""
    u0, u1, u2, u3, u4, u5, u6, u7 = upper
    w0, w1, w2, w3, w4, w5, w6, w7 = lower
    store_pair(tile, j, column, u0, w0)
    if count > 1:
        store_pair(tile, j + 1, column, u1, w1)
    if count > 2:
        store_pair(tile, j + 2, column, u2, w2)
    if count > 3:
        store_pair(tile, j + 3, column, u3, w3)
    if count > 4:
        store_pair(tile, j + 4, column, u4, w4)
    if count > 5:
        store_pair(tile, j + 5, column, u5, w5)
    if count > 6:
        store_pair(tile, j + 6, column, u6, w6)
    if count > 7:
        store_pair(tile, j + 7, column, u7, w7)


@kernel(inline=True, refcounts=False)
def store_pair(tile, j, column, upper, lower):
    store_rounded(tile, j, column, upper)
    store_rounded(tile, j, column + LANES, lower)


@kernel(inline=True, refcounts=False)
def centre_row(X, center, scale, i, out, row, centred_norms, norms):
    """Row i of X centred, its norm, then rounded into out[row] (``centre_rows``): float32
    values, stored as such into a float32 ``out``, widened into a float64 one."""
    d = X.shape[1]
    whole = d // LANES * LANES
    squares = splat(0.0)
    for j in range(0, whole, LANES):
        difference = load(X, i, j) - load(center, 0, j)
        squares = squares + difference * difference
    total = lane_sum(squares)
    for j in range(whole, d):
        difference = X[i, j] - center[0, j]
        total += difference * difference
    centred_norms[i] = total
    if not scale * (1.0 + total) <= SCALE_LIMIT:
        for j in range(d):
            out[row, j] = np.float32(0.0)
        norms[i] = 0.0
        return
    wide = splat(0.0)
    for j in range(0, whole, LANES):   # the row is in the first cache by now
        values = float32_values(load(X, i, j) - load(center, 0, j))
        wide = wide + values * values
        put(out, row, j, values)
    wide_total = lane_sum(wide)
    for j in range(whole, d):
        value = np.float64(np.float32(X[i, j] - center[0, j]))
        wide_total += value * value
        out[row, j] = np.float32(value)
    norms[i] = wide_total


@kernel(parallel=True)
def centre_rows_parallel(X, center, scale, tiles, rows, centred_norms, norms):
    """``centre_rows`` for every block, the blocks on the threads (two functions, not one
    compiled twice: Numba's cache tells kernels apart by function, not by options)."""
    for block in numba.prange((X.shape[0] + TILE - 1) // TILE):
        staging = new_staging(tiles, X.shape[1])
        centre_rows(X, center, scale, tiles, rows, centred_norms, norms, block, staging)


@kernel
def centre_rows_serial(X, center, scale, tiles, rows, centred_norms, norms):
    """``centre_rows`` for every block on the calling thread."""
    staging = new_staging(tiles, X.shape[1])
    for block in range((X.shape[0] + TILE - 1) // TILE):
        centre_rows(X, center, scale, tiles, rows, centred_norms, norms, block, staging)


@kernel(inline=True)
def new_staging(tiles, d):
    """Sixteen float64 rows of d features rounded up to eight (the transposes read whole
    blocks of eight; the features past d stay 0), or none when there are no tiles."""
    rows = LANES32 if tiles.shape[0] > 0 else 0
    return np.zeros((rows, (d + LANES - 1) // LANES * LANES))


def prepare_rows(X, center, scale, tiles, rows, centred_norms, norms):
    """``centre_rows`` on every core when X has at least PARALLEL_ENTRIES entries."""
    run_parallel(centre_rows_parallel, centre_rows_serial, X.size / PARALLEL_ENTRIES, X,
                 center.reshape(1, -1), scale, tiles, rows, centred_norms, norms)
