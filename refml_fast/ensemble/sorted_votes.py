"""The votes of a forest on one feature, from its queries in ascending order.

A tree on one feature x cuts the line into intervals, one per leaf: a query goes left at a
split exactly when x <= threshold, so among queries in ascending order the ones that go
left are a prefix of those that reach the split, and a split hands each child a range of
positions.  Walking a tree down with ranges instead of rows: at a split, the first
position of its range with x > threshold (a binary search) cuts the range in two; at a
leaf, every position of its range takes the leaf's vote.  A tree costs about its nodes
reached x log2(queries) + queries, where walking every query down costs queries x depth:
50 trees of 4,743 nodes on 10,031 queries, medians of 15: walked 23.9 ms on one thread
and 11.8 on two, by ranges 7.7 and 4.9 (the queries' sort, made once for all trees,
0.7 ms).  Most of it is the nodes' visits (237,000 for these trees, about 18 ns each with
their searches).  Each query's leaf is the one its own walk reaches (the same
comparisons), so the votes are the same.

Used by the forests and bagged trees (``committees``) whose matrix has one column; the
trees come as the votes' table (``kernels.pack_tree``).
"""

import numba
import numpy as np

from refml_fast.ensemble.kernels import LOW
from refml_fast.runtime.options import kernel


@kernel(refcounts=False, inline=True)
def first_above(x, lo, hi, threshold):
    """The first position p in [lo, hi) with x[p] > threshold (hi if none); x ascending.
    A binary search whose steps choose without a branch (the answer stays in
    [base, base + n]; with a branch per step the votes above took 9.0 ms, without 8.3)."""
    if lo >= hi:
        return lo
    base, n = lo, hi - lo
    while n > 1:
        half = n >> 1
        base += half * (x[base + half] <= threshold)
        n -= half
    return base + (x[base] <= threshold)


@kernel
def range_votes(x, links, split_threshold, roots, first, last, votes):
    """votes[p, code of p's leaf] += 1 for the positions p in [first, last) of the
    ascending queries ``x``, every tree; the ranges still to walk wait on a stack (a
    split's right range under its left, so at most one per level of the path, plus one)."""
    stack = np.empty((64, 3), dtype=np.int64)
    for t in range(roots.shape[0]):
        root = roots[t]
        stack[0, 0], stack[0, 1], stack[0, 2] = root, first, last
        pending = 1 if first < last else 0
        while pending > 0:
            pending -= 1
            node, lo, hi = stack[pending, 0], stack[pending, 1], stack[pending, 2]
            link = links[node]
            child = link >> 32
            if child < 0:
                code = link & LOW
                for p in range(lo, hi):
                    votes[p, code] += 1
                continue
            cut = first_above(x, lo, hi, split_threshold[node])
            if pending + 2 > stack.shape[0]:
                more = np.empty((2 * stack.shape[0], 3), dtype=np.int64)
                more[:pending] = stack[:pending]
                stack = more
            if cut < hi:                # the right child's range, walked second
                stack[pending, 0], stack[pending, 1], stack[pending, 2] = (
                    root + child + 1, cut, hi)
                pending += 1
            if lo < cut:
                stack[pending, 0], stack[pending, 1], stack[pending, 2] = root + child, lo, cut
                pending += 1


@kernel
def sorted_votes(x, links, split_threshold, roots, n_blocks, votes):
    range_votes(x, links, split_threshold, roots, 0, x.shape[0], votes)


@kernel(parallel=True)
def sorted_votes_parallel(x, links, split_threshold, roots, n_blocks, votes):
    """``sorted_votes`` with the positions cut into ``n_blocks`` blocks (one per thread;
    each position's votes counted by one thread)."""
    n = x.shape[0]
    for b in numba.prange(n_blocks):
        range_votes(x, links, split_threshold, roots, b * n // n_blocks,
                    (b + 1) * n // n_blocks, votes)
