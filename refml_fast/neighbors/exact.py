"""The exact pass of refml_fast's k-NN search (refml_fast.neighbors explains the method):
the candidates that the float32 screen let through, narrowed in float64 where many are
left, and their distances summed as refml sums them; for the votes, the rows surely among
the k nearest taken without their sums.
"""

import numpy as np

from refml_fast.neighbors.distance_sums import (
    EUCLIDEAN,
    eight_distances,
    four_distances,
    lane_distance,
    squared_distance,
)
from refml_fast.neighbors.kth_smallest import keep_smallest
from refml_fast.runtime.heap import offer, sort_heap
from refml_fast.runtime.lanes import LANES
from refml_fast.runtime.options import kernel

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
    of ``candidate_lower``); returns their count and whether they were narrowed.  With at
    most 2k rows below the threshold the narrowing could save little and would read every
    row twice: they all go to the strict sums (k-NN 3,516 x 784 with k = 50, 351 queries:
    14.1 -> 12.3 ms)."""
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
                  z_upper, z_lower, gap, votes_only, diff, scratch, upper, out_squared,
                  out_indices):
    """The k smallest exact Q(x, z_i), x = Xq[r], over the candidates below the final
    threshold (Euclidean: narrowed by ``refine`` first), or over every training row when
    n_candidates < 0.  With ``votes_only`` (predict and predict_proba count the k
    neighbours' classes; nothing else is asked of them) the rows that are surely among
    the k go straight to the answer (``set_aside_sure``), their Q never summed, and
    out_squared holds NaN for them: first by the screen's brackets, then, for the rows
    those leave undecided (Euclidean), by ``lane_distance``'s, whose width is
    2 delta L, not of the order of the centred norms (k-NN 4,154 x 1,000 in 8 classes,
    k = 50: about 11 rows a query that the screen left undecided were summed left to
    right)."""
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
        delta = 4.0 * (Xq.shape[1] + 1) * FLOAT64_ROUNDOFF
        for t in range(kept):
            if narrowed:
                upper[t] = candidate_lower[t] * (1.0 + delta)
                candidate_lower[t] = candidate_lower[t] * (1.0 - delta)
            else:
                i = candidates[t]
                upper[t] = candidate_lower[t] + (z_upper[i] - z_lower[i]) + gap
        sure, kept = set_aside_sure(candidates, candidate_lower, upper, kept, k, scratch,
                                    out_indices, 0)
        if metric == EUCLIDEAN and not narrowed and kept > 1 and sure < k:
            for t in range(kept):
                distance = lane_distance(Xq, r, Z, candidates[t])
                candidate_lower[t], upper[t] = distance * (1.0 - delta), distance * (1.0 + delta)
            more, kept = set_aside_sure(candidates, candidate_lower, upper, kept, k - sure,
                                        scratch, out_indices, sure)
            sure += more
        out_squared[:sure] = np.nan
    strict_nearest(Xq, r, Z, P, metric, candidates, kept, diff, scratch, out_squared[sure:],
                   out_indices[sure:])


@kernel(refcounts=False)
def set_aside_sure(candidates, lower, upper, kept, places, scratch, out_indices, first):
    """Of the rows candidates[:kept], whose Q lie in [lower, upper] and among which are the
    ``places`` nearest of them: those surely among the ``places`` go to out_indices[first:],
    those surely not are dropped, the others (with their brackets) move to the front;
    returns (how many are sure, how many are left).

    Let N be the (places + 1)-th smallest lower bound.  A row with upper_t < N is among the
    ``places`` nearest: were it not, ``places`` rows would come before it, each with
    lower_j <= Q_j <= Q_t <= upper_t < N, and with it places + 1 rows would lie below N.
    Let M be the places-th smallest upper bound: ``places`` rows have Q <= M, so a row with
    lower_t > M is neither among them nor tied with the last.  The rows left are summed
    exactly (``strict_nearest``) and the best fill the remaining places: the same set as
    refml's k nearest (k-NN 5,101 x 1,000, k = 50, 510 queries: about 50 rows a query,
    8 KB each, no longer read and summed)."""
    if kept <= places:
        for t in range(kept):
            out_indices[first + t] = candidates[t]
        return kept, 0
    for t in range(kept):
        scratch[t] = lower[t]
    next_lower = keep_smallest(scratch, kept, places + 1)
    for t in range(kept):
        scratch[t] = upper[t]
    last_upper = keep_smallest(scratch, kept, places)
    sure, rest = 0, 0
    for t in range(kept):
        if upper[t] < next_lower:
            out_indices[first + sure] = candidates[t]
            sure += 1
        elif lower[t] <= last_upper:
            candidates[rest], lower[rest], upper[rest] = candidates[t], lower[t], upper[t]
            rest += 1
    return sure, rest


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
