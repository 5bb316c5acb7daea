"""refml's squared distance Q(x, z) for the k-NN's exact pass: one row, four or eight rows at
once, each sum the float refml computes (from 0.0, feature by feature, left to right, each
difference squared and added in IEEE double), and ``lane_distance``, the same terms summed
in another order for the narrowing that comes before (``exact.refine``).

Several rows at once only overlap independent sums; no sum changes.  Four rows are four
scalar chains of additions.  Eight rows are the eight lanes of one vector: a block of eight
features of the eight rows is loaded as eight vectors (one a row) and transposed in
registers (``lanes.transpose``), so that lane l then adds row l's terms in feature order.
One core, 400 queries x 64 rows of a 200 x 400 matrix (in the cache): 0.26 ns a term for
four rows, 0.13 for eight; of 2,002 x 400 and 3,516 x 784 (rows from the last-level cache)
0.31 -> 0.23 and 0.32 -> 0.28, where reading the rows sets the pace.
"""

from refml_fast.runtime.lanes import LANES, lane, lane_sum, load, splat, transpose
from refml_fast.runtime.options import kernel

EUCLIDEAN, MAHALANOBIS = 0, 1


@kernel(refcounts=False)
def squared_distance(x, z, P, metric, diff):
    """refml's Q(x, z): sum_j (x_j - z_j)^2, or sum_j diff_j (sum_l P_jl diff_l)."""
    d = x.shape[0]
    total = 0.0
    if metric == EUCLIDEAN:
        for j in range(d):
            difference = x[j] - z[j]
            total += difference * difference
        return total
    for j in range(d):
        diff[j] = x[j] - z[j]
    for j in range(d):
        w = 0.0
        for l in range(d):
            w += P[j, l] * diff[l]
        total += diff[j] * w
    return total


@kernel(refcounts=False)
def four_distances(x, z0, z1, z2, z3):
    """refml's Euclidean Q(x, z) for four rows at once: four sums, each from 0.0 left to
    right as ``squared_distance`` adds it, kept apart, so that the processor overlaps their
    additions instead of waiting on one sum's (1,105 x 1,000, 200 queries: the exact pass
    0.58 -> 0.31 ns a term on one core)."""
    t0 = t1 = t2 = t3 = 0.0
    for j in range(x.shape[0]):
        difference = x[j] - z0[j]
        t0 += difference * difference
        difference = x[j] - z1[j]
        t1 += difference * difference
        difference = x[j] - z2[j]
        t2 += difference * difference
        difference = x[j] - z3[j]
        t3 += difference * difference
    return t0, t1, t2, t3


@kernel(refcounts=False)
def eight_distances(Xq, r, Z, rows, t, sums):
    """sums[l] = refml's Euclidean Q(Xq[r], Z[rows[t + l]]) for l = 0..7: lane l of one
    vector adds row l's terms from 0.0 in feature order; the features past the last whole
    block of eight are added lane by lane, in order, after it."""
    d = Xq.shape[1]
    i0, i1, i2, i3 = rows[t], rows[t + 1], rows[t + 2], rows[t + 3]
    i4, i5, i6, i7 = rows[t + 4], rows[t + 5], rows[t + 6], rows[t + 7]
    total = splat(0.0)
    whole = d // LANES * LANES
    for j in range(0, whole, LANES):
        columns = transpose((load(Z, i0, j), load(Z, i1, j), load(Z, i2, j), load(Z, i3, j),
                             load(Z, i4, j), load(Z, i5, j), load(Z, i6, j), load(Z, i7, j)))
        for f in range(LANES):
            difference = splat(Xq[r, j + f]) - columns[f]
            total = total + difference * difference
    for l in range(LANES):
        partial = lane(total, l)
        i = rows[t + l]
        for j in range(whole, d):
            difference = Xq[r, j] - Z[i, j]
            partial += difference * difference
        sums[l] = partial


@kernel(refcounts=False)
def lane_distance(Xq, r, Z, i):
    """sum_j (x_j - z_j)^2 for x = Xq[r], z = Z[i], in lanes: the terms are refml's floats
    (the same difference, the same square), summed in another order."""
    d = Xq.shape[1]
    whole = d // (2 * LANES) * (2 * LANES)
    even, odd = splat(0.0), splat(0.0)
    for j in range(0, whole, 2 * LANES):
        difference = load(Xq, r, j) - load(Z, i, j)
        even = even + difference * difference
        difference = load(Xq, r, j + LANES) - load(Z, i, j + LANES)
        odd = odd + difference * difference
    total = lane_sum(even + odd)
    for j in range(whole, d):
        difference = Xq[r, j] - Z[i, j]
        total += difference * difference
    return total
