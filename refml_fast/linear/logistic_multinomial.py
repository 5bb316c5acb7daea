"""The multinomial objective and gradient of LogisticRegression on Numba's threads.

refml's ``logistic_solvers.objective`` sums blocks of SUM_BLOCK samples (``block_sums``):
in each, sample by sample, the loss term and residual_ik x~_ij added to every gradient
entry, from 0.0; then the blocks' sums in order.  Here each block is one task for a thread,
in runs of SUB samples with refml's floats: the scores (``run_scores``), each sample's loss
term and residuals P_ik - 1{y_i = k} (``run_terms``), then every gradient entry (k, j)
carried on over the run's samples in order (``run_gradient``), in lanes (``lanes``).
The blocks' sums are added in order on one thread (``add_blocks``).  With fewer blocks
than the threads can share evenly, every sample's residuals and loss term are computed
first, in even shares of runs, and each block's sums after (``runs_parallel``).  The
one-thread twin computes the same values.
"""

import math

import numba
import numpy as np
from numba import prange

from refml.core import summation
from refml_fast.linear.logistic_kernels import add_blocks
from refml_fast.runtime.lanes import LANES, load, splat, store
from refml_fast.runtime.options import kernel
from refml_fast.runtime.threads import run_parallel

SUM_BLOCK = summation.SUM_BLOCK
SUB = 64                # samples a run: eight sets of lanes (``run_scores``)


@kernel(refcounts=False)
def pack_run(X, fit_intercept, start, m, rows, columns):
    """Samples start..start+m-1 as ``rows`` (row s: x~ of sample start + s, then zeros up to
    the width, a multiple of eight) and as ``columns`` (its transpose: x~_j of the SUB
    samples in row j, zeros for s >= m)."""
    d, width = X.shape[1], rows.shape[1]
    for s in range(m):
        for j in range(d):
            rows[s, j] = X[start + s, j]
        for j in range(d, width):
            rows[s, j] = 0.0
        if fit_intercept:
            rows[s, d] = 1.0
    for s in range(m, SUB):
        for j in range(width):
            rows[s, j] = 0.0
    for j in range(width):
        for s in range(SUB):
            columns[j, s] = rows[s, j]


@kernel(refcounts=False)
def run_scores(columns, theta_t, n_free, p, Z):
    """Z[k, s] = sum_j theta_t[j, k] x~_sj, j = 0, 1, ... from 0.0, as ``theta_scores``
    adds them (the floats are refml's): the SUB = 64 samples in eight sets of lanes, eight
    independent sums whose additions overlap."""
    for k in range(n_free):
        z0, z1, z2, z3 = splat(0.0), splat(0.0), splat(0.0), splat(0.0)
        z4, z5, z6, z7 = splat(0.0), splat(0.0), splat(0.0), splat(0.0)
        for j in range(p):
            weight = splat(theta_t[j, k])
            z0 = z0 + weight * load(columns, j, 0)
            z1 = z1 + weight * load(columns, j, LANES)
            z2 = z2 + weight * load(columns, j, 2 * LANES)
            z3 = z3 + weight * load(columns, j, 3 * LANES)
            z4 = z4 + weight * load(columns, j, 4 * LANES)
            z5 = z5 + weight * load(columns, j, 5 * LANES)
            z6 = z6 + weight * load(columns, j, 6 * LANES)
            z7 = z7 + weight * load(columns, j, 7 * LANES)
        store(Z, k, 0, z0), store(Z, k, LANES, z1)
        store(Z, k, 2 * LANES, z2), store(Z, k, 3 * LANES, z3)
        store(Z, k, 4 * LANES, z4), store(Z, k, 5 * LANES, z5)
        store(Z, k, 6 * LANES, z6), store(Z, k, 7 * LANES, z7)


@kernel(refcounts=False)
def run_gradient(rows, residuals, base, m, sums):
    """sums[k, j] += residual_sk x~_sj for the run's samples s = 0..m-1 in order (their
    residuals in rows base..base+m-1 of ``residuals``): two classes by 32 columns of sums
    stay in lanes while the samples pass (eight columns at the end of a row)."""
    width = rows.shape[1]
    for k in range(0, sums.shape[0], 2):
        j = 0
        while j + 4 * LANES <= width:
            gradient_tile_32(rows, residuals, base, m, sums, k, j)
            j += 4 * LANES
        while j < width:
            a, b = load(sums, k, j), load(sums, k + 1, j)
            for s in range(m):
                x = load(rows, s, j)
                a = a + splat(residuals[base + s, k]) * x
                b = b + splat(residuals[base + s, k + 1]) * x
            store(sums, k, j, a), store(sums, k + 1, j, b)
            j += LANES


@kernel(inline=True, refcounts=False)
def gradient_tile_32(rows, residuals, base, m, sums, k, j):
    """``run_gradient`` on classes k, k+1 and columns j..j+31: eight sets of lanes."""
    a0, a1, a2, a3 = (load(sums, k, j), load(sums, k, j + LANES),
                      load(sums, k, j + 2 * LANES), load(sums, k, j + 3 * LANES))
    b0, b1, b2, b3 = (load(sums, k + 1, j), load(sums, k + 1, j + LANES),
                      load(sums, k + 1, j + 2 * LANES), load(sums, k + 1, j + 3 * LANES))
    for s in range(m):
        x0, x1 = load(rows, s, j), load(rows, s, j + LANES)
        x2, x3 = load(rows, s, j + 2 * LANES), load(rows, s, j + 3 * LANES)
        r, q = splat(residuals[base + s, k]), splat(residuals[base + s, k + 1])
        a0, a1, a2, a3 = a0 + r * x0, a1 + r * x1, a2 + r * x2, a3 + r * x3
        b0, b1, b2, b3 = b0 + q * x0, b1 + q * x1, b2 + q * x2, b3 + q * x3
    store(sums, k, j, a0), store(sums, k, j + LANES, a1)
    store(sums, k, j + 2 * LANES, a2), store(sums, k, j + 3 * LANES, a3)
    store(sums, k + 1, j, b0), store(sums, k + 1, j + LANES, b1)
    store(sums, k + 1, j + 2 * LANES, b2), store(sums, k + 1, j + 3 * LANES, b3)


@kernel(refcounts=False)
def run_terms(codes, start, m, n_free, Z, E, M, T, residuals, terms, base):
    """The run's residuals P_ik - 1{y_i = k} and loss terms log(1 + sum_k e^{z_k}) - z_y
    (row base + s of ``residuals``, entry base + s of ``terms``), for the caller to add up
    in sample order.

    ``probabilities_from_scores``'s steps for the whole run at once, each a loop over the
    samples that vectorises (the largest score M, the exponents, the totals T summed over
    the classes in order from 0.0, the divisions E / T), with the exponentials and
    logarithms called back to back: the same operations on the same floats, without a
    sample's short loops over the classes between the C library's calls (one core, an
    objective of 21,532 x 2 with five classes: 1.33 -> 1.23 ms)."""
    for s in range(m):
        M[s] = 0.0
    for k in range(n_free):
        for s in range(m):
            if Z[k, s] > M[s]:
                M[s] = Z[k, s]
    for s in range(m):
        E[0, s] = 1.0 if M[s] == 0.0 else math.exp(-M[s])
    for k in range(n_free):
        for s in range(m):
            exponent = Z[k, s] - M[s]
            E[k + 1, s] = 1.0 if exponent == 0.0 else math.exp(exponent)
    for s in range(m):
        T[s] = 0.0
    for k in range(n_free + 1):
        for s in range(m):
            T[s] += E[k, s]
    for k in range(n_free + 1):
        for s in range(m):
            E[k, s] = E[k, s] / T[s]
    for s in range(m):
        y = codes[start + s]
        z_y = Z[y - 1, s] if y > 0 else 0.0
        terms[base + s] = (M[s] + math.log(T[s])) - z_y
        for k in range(n_free):
            residuals[base + s, k] = E[k + 1, s] - (1.0 if y == k + 1 else 0.0)


@kernel
def run_scratch(X, n_free, fit_intercept):
    """(p, width, rows, columns, Z, E, M, T): the sizes and the scratch arrays of a run."""
    p = X.shape[1] + (1 if fit_intercept else 0)
    width = (p + LANES - 1) // LANES * LANES
    return (p, width, np.empty((SUB, width)), np.empty((width, SUB)),
            np.empty((n_free, SUB)), np.empty((n_free + 1, SUB)), np.empty(SUB),
            np.empty(SUB))


@kernel(inline=True)
def terms_of_run(X, codes, theta_t, n_free, fit_intercept, start, m, rows, columns, Z, E, M,
                 T, residuals, terms, base):
    """The residuals and loss terms of samples start..start+m-1 (rows base.. of
    ``residuals`` and ``terms``), with the run packed in ``rows`` and ``columns``."""
    pack_run(X, fit_intercept, start, m, rows, columns)
    run_scores(columns, theta_t, n_free, X.shape[1] + (1 if fit_intercept else 0), Z)
    run_terms(codes, start, m, n_free, Z, E, M, T, residuals, terms, base)


@kernel
def block_sums(X, codes, theta_t, n_free, fit_intercept, first, end, gradient):
    """refml's ``block_sums`` over samples first..end-1: returns the loss sum and writes
    gradient[k p + j] = sum_i residual_ik x~_ij (i in order, from 0.0).

    Runs of SUB samples: the run is copied as rows and as columns, padded with zeros to a
    width of eight (``pack_run``); the scores of 32 samples grow in lanes feature by
    feature, each z_k from 0.0 in feature order (``run_scores``); each sample's loss term
    and residuals follow (``run_terms``); and the sums of two classes by 32 columns stay
    in lanes while the run's samples pass (``run_gradient``), each entry still added in
    sample order.  The padding's products are never read.  Against scores and sums
    loaded and stored a sample at a time, one core, 2,499 x 85 with four classes: an
    objective and gradient 0.39 -> 0.27 ms."""
    p, width, rows, columns, Z, E, M, T = run_scratch(X, n_free, fit_intercept)
    pairs = (n_free + 1) // 2 * 2
    residuals = np.zeros((SUB, pairs))
    terms = np.empty(SUB)
    sums = np.zeros((pairs, width))
    data_loss = 0.0
    for start in range(first, end, SUB):
        m = min(SUB, end - start)
        terms_of_run(X, codes, theta_t, n_free, fit_intercept, start, m, rows, columns, Z, E,
                     M, T, residuals, terms, 0)
        for s in range(m):
            data_loss += terms[s]
        run_gradient(rows, residuals, 0, m, sums)
    for k in range(n_free):
        for j in range(p):
            gradient[k * p + j] = sums[k, j]
    return data_loss


@kernel
def blocks_serial(X, codes, theta_t, n_free, fit_intercept, losses, gradients):
    n = X.shape[0]
    for b in range(losses.shape[0]):
        losses[b] = block_sums(X, codes, theta_t, n_free, fit_intercept, b * SUM_BLOCK,
                               min(n, (b + 1) * SUM_BLOCK), gradients[b])


@kernel(parallel=True)
def blocks_parallel(X, codes, theta_t, n_free, fit_intercept, losses, gradients):
    n = X.shape[0]
    for b in prange(losses.shape[0]):
        losses[b] = block_sums(X, codes, theta_t, n_free, fit_intercept, b * SUM_BLOCK,
                               min(n, (b + 1) * SUM_BLOCK), gradients[b])


@kernel
def runs_terms(X, codes, theta_t, n_free, fit_intercept, first_run, stop_run, residuals,
               terms):
    """Phase one of ``runs_parallel``: the residuals and loss terms of the samples of runs
    first_run..stop_run-1 (SUB samples each), at their samples' rows; ``block_sums``'s
    floats."""
    n = X.shape[0]
    p, width, rows, columns, Z, E, M, T = run_scratch(X, n_free, fit_intercept)
    for run in range(first_run, stop_run):
        start = run * SUB
        terms_of_run(X, codes, theta_t, n_free, fit_intercept, start, min(SUB, n - start),
                     rows, columns, Z, E, M, T, residuals, terms, start)


@kernel
def block_totals(X, fit_intercept, residuals, terms, first, end, gradient):
    """Phase two: ``block_sums``'s loss sum and gradient over samples first..end-1 from the
    residuals and terms of phase one, added in sample order as ``block_sums`` adds them."""
    p = X.shape[1] + (1 if fit_intercept else 0)
    width = (p + LANES - 1) // LANES * LANES
    rows = np.empty((SUB, width))
    columns = np.empty((width, SUB))
    sums = np.zeros((residuals.shape[1], width))
    data_loss = 0.0
    for start in range(first, end, SUB):
        m = min(SUB, end - start)
        pack_run(X, fit_intercept, start, m, rows, columns)
        for s in range(m):
            data_loss += terms[start + s]
        run_gradient(rows, residuals, start, m, sums)
    for k in range(gradient.shape[0] // p):
        for j in range(p):
            gradient[k * p + j] = sums[k, j]
    return data_loss


@kernel(parallel=True)
def runs_parallel(X, codes, theta_t, n_free, fit_intercept, losses, gradients, residuals,
                  terms, n_tasks):
    """``blocks_serial``'s values when the blocks are fewer than the threads can share
    evenly (n = 4,620 makes blocks of 2,048, 2,048 and 524: one thread had 89% of the
    work).  First every sample's residuals and loss term, runs of SUB samples dealt out in
    ``n_tasks`` even shares (each sample's floats do not depend on who computes them);
    then each block's sums in sample order, a block a task (``block_totals``), where only
    the additions are left."""
    n = X.shape[0]
    n_runs = (n + SUB - 1) // SUB
    for task in prange(n_tasks):
        runs_terms(X, codes, theta_t, n_free, fit_intercept, task * n_runs // n_tasks,
                   (task + 1) * n_runs // n_tasks, residuals, terms)
    for b in prange(losses.shape[0]):
        losses[b] = block_totals(X, fit_intercept, residuals, terms, b * SUM_BLOCK,
                                 min(n, (b + 1) * SUM_BLOCK), gradients[b])


def runs_serial(X, codes, theta_t, n_free, fit_intercept, losses, gradients, residuals,
                terms, n_tasks):
    """``runs_parallel``'s twin on this thread: ``blocks_serial``, the same values."""
    blocks_serial(X, codes, theta_t, n_free, fit_intercept, losses, gradients)


EXP_COST = 16
# Units of work (below) from which the blocks go to the threads: about 0.16-0.19 ms on one
# core (0.8-0.94 ns a unit measured), where two threads already save more than a launch
# costs (20,000 x 2 with three classes: 0.61 -> 0.33 ms).  It was 400,000 units: 5,992 x 2
# with four classes (0.32 ms an objective) stayed on one core, its fit 3.7 -> 2.75 ms at
# 200,000, 3,278 x 4 with four 1.9-2.0 -> 1.5-1.6 ms.  The launch guard (``run_parallel``)
# keeps them on one thread while the cores are busy.
PARALLEL_UNITS, PARALLEL_SECONDS = 200_000, 0.00015
# From this many blocks a thread, the blocks themselves are shared (``blocks_parallel``);
# with fewer, every sample's terms first (``runs_parallel``).
EVEN_BLOCKS = 4


def objective(X, codes, theta, n_free, fit_intercept, alpha, gradient):
    """L(theta) and grad L(theta) (into ``gradient``): ``logistic_kernels.objective``'s
    values, on Numba's threads when the data are large."""
    n = X.shape[0]
    n_blocks = (n + SUM_BLOCK - 1) // SUM_BLOCK
    losses = np.empty(n_blocks)
    gradients = np.empty((n_blocks, gradient.shape[0]))
    # A score costs d + 1 multiply-adds and its exponential about EXP_COST more.
    size = n * n_free * (X.shape[1] + 1 + EXP_COST) / PARALLEL_UNITS
    theta_t = np.ascontiguousarray(theta.reshape(n_free, -1).T)
    threads = numba.get_num_threads()
    if n_blocks >= EVEN_BLOCKS * threads or size < 1:
        run_parallel(blocks_parallel, blocks_serial, size, X, codes, theta_t, n_free,
                     fit_intercept, losses, gradients, unit_seconds=PARALLEL_SECONDS)
    else:
        residuals = np.empty((n, (n_free + 1) // 2 * 2))
        residuals[:, n_free:] = 0.0          # the pair's padding column, never written
        run_parallel(runs_parallel, runs_serial, size, X, codes, theta_t, n_free,
                     fit_intercept, losses, gradients, residuals, np.empty(n), threads,
                     unit_seconds=PARALLEL_SECONDS)
    return add_blocks(losses, gradients, theta, n_free, X.shape[1], fit_intercept, alpha, n,
                      gradient)
