"""The Gini scan of a tree on one feature: every node a run of one presorted order, its
left class weights differences of prefix sums (beyond the lectures; refml walks each
node's rows, ``refml.tree.split``).

With a single feature every split cuts a node's presorted segment in two at a position,
so each node is a run [start, end) of the tree's one order, the order ``grow`` presorts
its rows in (rank, row id), and no split moves a row.  The class weights of the rows
before position q are prefix sums P[q] computed once per tree (``class_prefix``), and a
threshold after the node's first n rows has left class weights P[start + n] - P[start].

When the weights are whole numbers of total <= 2^26 (``kernels.scan_whole_gini``'s
condition) every prefix sum, difference, sum of squares and numerator below is an exact
integer, so each threshold's cost is that scan's float bit for bit; the first threshold
of least cost, when it is below the best so far, is the one strict improvement in
ascending order picks.  What changes is the work per threshold.  The row scan carries
each class weight from one row to the next (left[k] += w, through memory) and looks up
each row's class and weight far away (``codes[row]``): a chain of dependent steps.  Here
no threshold depends on another: a chunk of thresholds has its sums, its costs (the two
divisions included) and their least computed in vector lanes, with no branch.
"""

import numpy as np

from refml_fast.runtime.float_bits import float_bits, float_of_bits
from refml_fast.runtime.options import kernel
from refml_fast.tree.kernels import LEAF, midpoint

CHUNK = 128       # thresholds whose sums and costs are computed together, in vector lanes


@kernel
def class_prefix(sorted_rows, codes, weights, unit, n_classes):
    """P (K, n + 1): P[k, q] the weight of class k among the first q rows of
    ``sorted_rows`` (the tree's one presorted order); ``unit``: every weight is 1."""
    n = sorted_rows.shape[0]
    prefix = np.zeros((n_classes, n + 1))
    for q in range(n):
        row = sorted_rows[q]
        prefix[codes[row], q + 1] = 1.0 if unit else weights[row]
    for k in range(n_classes):
        for q in range(n):
            prefix[k, q + 1] += prefix[k, q]
    return prefix


@kernel(refcounts=False, inline=True)
def chunk_sums(prefix, start, first, count, totals, sums):
    """For the thresholds at positions first, ..., first + count - 1 of the node starting at
    ``start``: sums[0] W_l, sums[1] sum_k c_k^2 on the left, sums[2] on the right."""
    for i in range(count):
        sums[0, i] = 0.0
        sums[1, i] = 0.0
        sums[2, i] = 0.0
    for k in range(prefix.shape[0]):
        base = prefix[k, start]
        total_k = totals[k]
        run = prefix[k, first:first + count]   # indices from 0: loads, not gathers
        for i in range(count):
            c = run[i] - base
            sums[0, i] += c
            sums[1, i] += c * c
            r = total_k - c
            sums[2, i] += r * r


@kernel(refcounts=False, inline=True)
def chunk_costs(sums, ranks, first, count, total, costs):
    """costs[i]: the cost of the threshold at position first + i, +inf where there is
    none (tied ranks, or a side without weight); returns the least cost's bits as an
    int64 (the costs are >= 0, so their bits are in the costs' order).  No branch: the
    loop runs in vector lanes, divisions included (a divisor that would be 0 is 1,
    its cost discarded)."""
    lowest = float_bits(np.inf)
    below, above = ranks[first - 1:first - 1 + count], ranks[first:first + count]
    for i in range(count):
        w_left = sums[0, i]
        w_right = total - w_left
        real = (below[i] < above[i]) & (w_left > 0.0) & (w_right > 0.0)
        left = w_left if w_left > 0.0 else 1.0
        right = w_right if w_right > 0.0 else 1.0
        cost = (left * left - sums[1, i]) / left + (right * right - sums[2, i]) / right
        cost = cost if real else np.inf
        costs[i] = cost
        lowest = min(lowest, float_bits(cost))
    return lowest


@kernel(refcounts=False)
def scan_prefix(prefix, ranks, start, end, totals, best_cost, best_counts, min_leaf, sums,
                costs):
    """``kernels.scan_whole_gini`` of the node [start, end) of a one-feature tree: (best
    cost, rows on the left or -1), the best threshold's class weights in ``best_counts``
    (written only on an improvement).  ``prefix``: ``class_prefix`` of the tree's order,
    ``ranks``: the ranks in that order, ``totals``: the node's class weights; scratch
    ``sums`` (3, CHUNK), ``costs`` (CHUNK,).  Thresholds in chunks, their sums and costs
    in vector lanes; a chunk whose least cost beats the best so far gives its first
    threshold of that cost: strict improvement in ascending order, as the row scan."""
    n_classes = totals.shape[0]
    total = 0.0
    for k in range(n_classes):
        total += totals[k]
    lowest = max(min_leaf, 1)
    n_left = -1
    last = end - lowest + 1
    for first in range(start + lowest, last, CHUNK):
        count = min(CHUNK, last - first)
        chunk_sums(prefix, start, first, count, totals, sums)
        least = chunk_costs(sums, ranks, first, count, total, costs)
        if least < float_bits(best_cost):
            best_cost = float_of_bits(least)
            for i in range(count):       # the first threshold of the chunk's least cost
                if costs[i] == best_cost:
                    n_left = first + i - start
                    break
    if n_left > 0:
        for k in range(n_classes):
            best_counts[0, k] = prefix[k, start + n_left] - prefix[k, start]
            best_counts[1, k] = totals[k] - best_counts[0, k]
    return best_cost, n_left


@kernel(refcounts=False)
def find_split_one_feature(X, rows, ranks, prefix, start, end, totals, best_counts,
                           min_leaf, sums, costs):
    """``grow.find_split`` of the node [start, end) of a one-feature tree: (feature 0 or -1
    if no threshold, rows on the left, threshold, highest rank on the left).  ``rows`` and
    ``ranks``: the tree's presorted order; no feature is drawn (the one feature is
    searched wherever it takes two values, as ``grow.select_features`` finds)."""
    cost, n_left = scan_prefix(prefix, ranks, start, end, totals, np.inf, best_counts,
                               min_leaf, sums, costs)
    if n_left < 0:
        return LEAF, 0, 0.0, 0
    below, above = rows[start + n_left - 1], rows[start + n_left]
    return 0, n_left, midpoint(X[below, 0], X[above, 0]), ranks[start + n_left - 1]
