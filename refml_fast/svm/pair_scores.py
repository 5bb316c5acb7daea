"""The scores of every one-vs-one pair at once, each kernel value computed once.  Beyond the
lectures (refml.svm.one_vs_one).

refml scores a row pair by pair: f_ij(x) - beta_0 = sum_s a_s K(x_s, x) over pair (i, j)'s
support vectors, so a support vector of class c, which can serve in all K - 1 pairs of c,
has K(x_s, x) computed once for each of them (20,000 x 50, ten classes, rbf: 4,516
kernel values a row for 2,298 support vectors).  LIBSVM computes K(x_s, x) once for every
support vector of the model and sums each pair's terms from those; so does this kernel.
The sums are refml's: from 0.0, the pair's support vectors in the pair's own order, each
term a_s K(x_s, x) with K's value as ``gram.raw_scores`` computes it, so every f_ij(x) is
bit for bit the pair model's own score.

``positions`` holds, pair after pair (pair p at ``starts[p]:starts[p + 1]``), the row of
``SV`` (the model's support vectors) of each of the pair's support vectors; ``coefficients``
their a_s = alpha_s y_s.
"""

from numba import prange

from refml_fast.core.exponential import exp_lanes
from refml_fast.runtime.lanes import LANES, lane, line_aligned_zeros, load, splat, store
from refml_fast.runtime.options import kernel
from refml_fast.svm.gram import SCORE_BLOCK, rows_into_lanes, sums1, sums4


@kernel(inline=True, refcounts=False)
def store_values(sums, code, gamma, degree, coef0, values, row):
    """values[row] = K's value lane by lane from the lanes of its sums: exp(-gamma s)
    (``exp_lanes``) for rbf (code 1), (gamma s + coef0)^degree by products from 1.0 for
    poly (``gram.add_values``' floats)."""
    if code == 1:
        store(values, row, 0, exp_lanes(splat(-gamma) * sums))
    else:
        base = splat(gamma) * sums + splat(coef0)
        power = splat(1.0)
        for _ in range(degree):
            power = power * base
        store(values, row, 0, power)


@kernel(refcounts=False)
def pair_scores_rows(X, first, end, code, SV, gamma, degree, coef0, starts, positions,
                     coefficients, XB, values, out):
    """out[p, r] = f_p(x_r) - beta_0 for rows first..end-1, eight rows at a time in the
    lanes of a vector: K(x_s, x) for every support vector s into ``values`` (n_SV x 8),
    then each pair's sum of a_s K(x_s, x) from those."""
    d, n_sv = X.shape[1], SV.shape[0]
    for r0 in range(first, end, LANES):
        count = rows_into_lanes(X, r0, end, XB)
        s = 0
        while s < n_sv:
            if s + 4 <= n_sv:
                a0, a1, a2, a3 = sums4(code, XB, SV, s, d)
                store_values(a0, code, gamma, degree, coef0, values, s)
                store_values(a1, code, gamma, degree, coef0, values, s + 1)
                store_values(a2, code, gamma, degree, coef0, values, s + 2)
                store_values(a3, code, gamma, degree, coef0, values, s + 3)
                s += 4
            else:
                store_values(sums1(code, XB, SV, s, d), code, gamma, degree, coef0, values, s)
                s += 1
        for p in range(starts.shape[0] - 1):
            total = splat(0.0)
            for q in range(starts[p], starts[p + 1]):
                total = total + splat(coefficients[q]) * load(values, positions[q], 0)
            for lane_index in range(count):
                out[p, r0 + lane_index] = lane(total, lane_index)


@kernel
def pair_scores(X, code, SV, gamma, degree, coef0, starts, positions, coefficients, out):
    """``pair_scores_rows`` for every row of X."""
    pair_scores_rows(X, 0, X.shape[0], code, SV, gamma, degree, coef0, starts, positions,
                     coefficients, line_aligned_zeros(X.shape[1], LANES),
                     line_aligned_zeros(SV.shape[0], LANES), out)


@kernel(parallel=True)
def pair_scores_parallel(X, code, SV, gamma, degree, coef0, starts, positions, coefficients,
                         out):
    """``pair_scores`` with blocks of SCORE_BLOCK rows on Numba's threads (each row by one
    thread)."""
    n = X.shape[0]
    for block in prange((n + SCORE_BLOCK - 1) // SCORE_BLOCK):
        pair_scores_rows(X, SCORE_BLOCK * block, min(n, SCORE_BLOCK * block + SCORE_BLOCK),
                         code, SV, gamma, degree, coef0, starts, positions, coefficients,
                         line_aligned_zeros(X.shape[1], LANES),
                         line_aligned_zeros(SV.shape[0], LANES), out)
