"""Numba kernels of the ensembles: bootstrap draws, AdaBoost's sums in refml's order
(numpy's pairwise ``sum`` would round differently), and the votes of a forest's trees.

The fitting kernels are serial and release the GIL (``options.kernel``), so a forest fits
its members on several threads.  The votes come from all trees at once, from one table
where each split's two children sit side by side: a step down a tree is then
child = left + (X_feature > threshold), without a branch to mispredict, and WALKERS rows
walk a tree together so that their memory reads overlap, each row handing its slot to the
next when it reaches a leaf (100 full trees on 50,000 x 20, one core: 0.42 s four rows in
lockstep, 0.23 s eight slots refilled).  A large X under small trees is walked in chunks
of rows, every tree reading a chunk while it is in cache (``chunk_rows``).  The path of a
row is the tree's own (X_feature <= threshold goes left), so every member's vote is the
one its ``predict`` gives.
"""

import numba
import numpy as np

from refml_fast.core.random import GOLDEN_GAMMA, below, mix, unit_interval
from refml_fast.runtime.options import kernel
from refml_fast.tree.kernels import WALKERS, take_row

LOW = 0xFFFFFFFF   # the low half of a link: a feature or a leaf's class code
X_IN_CACHE = 2 ** 24       # bytes of X beyond which the votes come in chunks of rows,
FOREST_IN_CACHE = 2 ** 24  # when the trees' table takes at most these bytes
X_PER_FOREST = 8           # and at most 1 / X_PER_FOREST of X's
CHUNK_BYTES = 2 ** 18      # of X, about, a chunk


@kernel
def bootstrap(state, population, drawn):
    """drawn[i] = population[randbelow(len(population))], i in order: refml's
    ``BaggingClassifier._bootstrap`` on the same SplitMix64 stream (``state`` advanced).
    Draw i is ``randbelow``'s from the i + 1-th state after the first, computed from the
    first (``random.mix``) rather than chained through ``state``: a forest member's
    weights from 10,031 rows 135 -> 45 us."""
    size = population.shape[0]
    first = state[0]
    for i in range(drawn.shape[0]):
        u = unit_interval(mix(first + np.uint64(i + 1) * GOLDEN_GAMMA))
        drawn[i] = population[below(u, size)]
    state[0] = first + np.uint64(drawn.shape[0]) * GOLDEN_GAMMA


@kernel
def sequential_sum(w):
    """sum_i w_i, left to right."""
    total = 0.0
    for i in range(w.shape[0]):
        total += w[i]
    return total


@kernel
def weighted_error(w, missed):
    """sum_i w_i 1{missed_i} / sum_i w_i, both sums left to right."""
    total = 0.0
    missed_total = 0.0
    for i in range(w.shape[0]):
        total += w[i]
        if missed[i]:
            missed_total += w[i]
    return missed_total / total



@kernel
def pack_tree(children_left, children_right, feature, threshold, values, links,
              split_threshold):
    """One tree as rows 0.. of a votes' table, renumbered breadth first so that
    the two children of every split sit side by side.  A row's link is one int64 word,
    first child << 32 | feature: row r splits on feature links[r] & LOW at
    split_threshold[r], its children are rows links[r] >> 32 (left) and that + 1 of the
    tree's own numbering (in a forest's table, after the tree's root row); a leaf's
    first child is -1 and its low half holds its class code, the first class of the most
    weight in its row of ``values`` (the tree's own ``_leaf_codes``).  A step reads the word
    and the threshold: two loads, not three (votes 1.0-1.3x faster than from three arrays).
    """
    order = np.empty(children_left.shape[0], dtype=np.int64)  # old node ids, new order
    order[0] = 0
    filled = 1
    for row in range(children_left.shape[0]):
        old = order[row]
        if children_left[old] < 0:
            code = 0
            for c in range(1, values.shape[1]):
                if values[old, c] > values[old, code]:
                    code = c
            links[row] = (np.int64(-1) << 32) | np.int64(code)
            split_threshold[row] = 0.0
        else:
            links[row] = (np.int64(filled) << 32) | np.int64(feature[old])
            split_threshold[row] = threshold[old]
            order[filled] = children_left[old]
            order[filled + 1] = children_right[old]
            filled += 2


@kernel
def rows_votes(X, links, split_threshold, roots, first, last, votes):
    """votes[i, code of i's leaf] += 1 for every tree (roots: its root row), rows
    first..last - 1: all of them tree by tree, or in chunks of ``chunk_rows`` rows, every
    tree walking a chunk before the next (the counts do not depend on the order)."""
    size = chunk_rows(X.shape[0], X.shape[1], links.shape[0])
    for start in range(first, last, size):
        chunk_votes(X, links, split_threshold, roots, start, min(start + size, last), votes)


@kernel(inline=True)
def chunk_rows(n, d, n_links):
    """The rows of a chunk of the votes.  Where X is larger than a cache (n d 8 bytes beyond
    X_IN_CACHE) and the trees' table (16 bytes a row) at most 1 / X_PER_FOREST of it and
    at most FOREST_IN_CACHE, chunks of about CHUNK_BYTES of X (64-4,096 rows) stay in
    cache while every tree reads them; otherwise the trees come one at a time and every
    row walks each (chunks read every tree again for each chunk).  Votes on two threads,
    medians of five, whole blocks against chunks: 100,000 x 100, 20 trees (X 80 MB, trees
    1.2 MB), 295-326 -> 70-102 ms; 100,000 x 50, 50 trees (40 MB, 4.9 MB), 235-258 ->
    128-147 ms; 50,000 x 200, 20 trees, 193-198 -> 47-51 ms; where they do not apply:
    300,000 x 20, 20 trees (48 MB, 8.4 MB), 162-178 -> 237-283 ms; 1,000,000 x 10, 10
    trees (80 MB, 20.7 MB), 391 -> 1,167 ms; 20,000 x 50, 300 trees (8 MB of X), 128 ->
    146 ms."""
    x_bytes, forest_bytes = n * d * 8, n_links * 16
    if (x_bytes <= X_IN_CACHE or forest_bytes > FOREST_IN_CACHE
            or forest_bytes * X_PER_FOREST > x_bytes):
        return max(n, 1)
    return min(4096, max(64, CHUNK_BYTES // (8 * max(d, 1))))


@kernel
def chunk_votes(X, links, split_threshold, roots, first, last, votes):
    """``rows_votes`` of rows first..last - 1, tree by tree.  WALKERS rows walk a tree at a
    time, each in its own slot: a row that reaches its leaf casts its vote and hands its
    slot to the next row, so the slots stay busy however the depths of the rows' leaves
    differ (slots that waited for the group's deepest row: 1.8-2.4x slower).  A step picks
    the child without a branch (right = left + (X_feature > threshold), the tree's own rule
    X_feature <= threshold -> left)."""
    node = np.empty(WALKERS, dtype=np.int64)
    row = np.empty(WALKERS, dtype=np.int64)
    for t in range(roots.shape[0]):
        root = roots[t]
        # A slot without a row rests on a leaf: the tree's last row (numbered breadth
        # first, its last node is a leaf).
        resting = (roots[t + 1] if t + 1 < roots.shape[0] else links.shape[0]) - 1
        following = first   # the next row to take a slot
        for g in range(WALKERS):
            node[g] = resting
            following = take_row(node, row, g, root, following, last)
        walking = min(WALKERS, last - first)
        while walking > 0:
            for g in range(WALKERS):
                k = node[g]
                link = links[k]
                child = link >> 32
                if child >= 0:
                    node[g] = root + child + (X[row[g], link & LOW] > split_threshold[k])
                elif row[g] >= 0:       # a leaf: the vote, and the slot's next row
                    votes[row[g], link & LOW] += 1
                    following = take_row(node, row, g, root, following, last)
                    walking -= row[g] < 0


@kernel
def forest_votes(X, links, split_threshold, roots, n_blocks, votes):
    rows_votes(X, links, split_threshold, roots, 0, X.shape[0], votes)


@kernel(parallel=True)
def forest_votes_parallel(X, links, split_threshold, roots, n_blocks, votes):
    """``forest_votes`` with the rows cut into ``n_blocks`` blocks (one per thread; each
    row's votes counted by one thread)."""
    n = X.shape[0]
    for b in numba.prange(n_blocks):
        rows_votes(X, links, split_threshold, roots, b * n // n_blocks,
                   (b + 1) * n // n_blocks, votes)
