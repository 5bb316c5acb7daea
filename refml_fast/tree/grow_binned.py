"""Growing a tree from its bins' class counts (beyond the lectures).

``grow.grow_tree`` grows a histogram tree (``max_bins``) as it grows exact CART: each
searched feature orders the node's rows by code and walks past them.  This kernel grows the
same tree without ordering anything: for each searched feature it counts the node's rows
into their bins (``count_bins``: a pass over the rows, one bin per row), then walks past
the bins (``scan_bins``: at most 256 of them), so that a node's search costs a pass over its
rows and a walk over the bins per feature, where ordering took several passes and the walk
a step per row.

It is used when the two give the same tree bit for bit: Gini impurity and whole-number
weights (no sample weights, or a bootstrap's counts; ``classifier.whole_weights``).  Then
every class total, every W and every sum of squares ``scan_whole_gini`` keeps is an exact
integer in a float, the same integer whether it was summed row by row or bin by bin, and
the cost at a boundary, one division of each side's numerator by its W and one sum, is the
same float.  The boundaries are the same (between two consecutive bins holding rows of the
node, after all of the lower one's rows), the minimum leaf counts rows as the row scan does,
a boundary replaces the best only when its cost is strictly lower, the features are searched
in increasing j after the same draws (``grow.select_features``), and the threshold is the
midpoint of the values the two bins stand for (``cut_values``), as the row scan reads them
from X.  Entropy, or weights that are not whole numbers, sum floats in the rows' order;
those trees keep ``grow.grow_tree``.  Tested against it on the same data
(tests/test_tree_histogram.py).

Two kinds of tree have at most 256 codes a feature: histogram trees (``max_bins`` <= 256,
codes 0..B-1 standing for themselves), and exact trees whose features each take at most 256
distinct values (pixel intensities, counts, one-hot columns), whose dense ranks are codes
standing for the distinct values: the tree is exact CART's, thresholds included (midpoints
of the node's two adjacent values).  ``bins`` is (d, n) uint8, feature-major, so that a
feature's codes of a node's rows are read from n bytes that stay in the cache.

Histogram subtraction (a child's counts as its parent's minus its sibling's) is not done:
a random forest draws the searched features afresh at every node, so a child rarely
searches the features its parent counted.
"""

import numpy as np

from refml_fast.runtime.options import kernel
from refml_fast.tree.grow import (
    is_leaf,
    open_node,
    partition_rows,
    pending_nodes,
    push_children,
    select_features,
)
from refml_fast.tree.kernels import (
    FEATURE,
    LEAF,
    ROW_BITS,
    midpoint,
    scan_whole_gini,
)
from refml_fast.tree.word_sort import MAX_BUCKETS, order_by_rank

MOST_BINS = 256   # codes 0..255: one byte
HIST_FROM = 256   # rows of a node from which it counts them into bins


@kernel(refcounts=False)
def count_bins(bins_j, rows, codes, weights, unit, class_counts, row_counts):
    """Add the rows' weights into ``class_counts[code, class]`` and their number into
    ``row_counts[code]``; returns the lowest and highest code met."""
    lo = np.int64(bins_j[rows[0]])
    hi = lo
    for p in range(rows.shape[0]):
        row = rows[p]
        b = np.int64(bins_j[row])
        class_counts[b, codes[row]] += 1.0 if unit else weights[row]
        row_counts[b] += 1
        lo = min(lo, b)
        hi = max(hi, b)
    return lo, hi


@kernel(refcounts=False)
def scan_bins(class_counts, row_counts, lo, hi, totals, best_cost, left, min_leaf):
    """``kernels.scan_whole_gini`` over bins lo..hi instead of rows: (best cost, rows on the
    left or -1, the last bin on the left).  Each bin's class weights move to the left
    together: (c + w)^2 - c^2 = w (2c + w) on integers, as row by row."""
    n_classes = totals.shape[0]
    n_rows = 0
    for b in range(lo, hi + 1):
        n_rows += row_counts[b]
    for k in range(n_classes):
        left[k] = 0.0
    total = 0.0
    squares_right = 0.0
    for k in range(n_classes):
        total += totals[k]
        squares_right += totals[k] * totals[k]
    squares_left = 0.0
    w_left = 0.0
    rows_left = 0
    n_left = -1
    best_bin = -1
    for b in range(lo, hi):  # the highest bin has no boundary above it
        if row_counts[b] == 0:
            continue
        rows_left += row_counts[b]
        for k in range(n_classes):
            w = class_counts[b, k]
            if w == 0.0:
                continue
            c = left[k]
            squares_left += w * (2.0 * c + w)
            c = totals[k] - c
            squares_right -= w * (2.0 * c - w)
            left[k] += w
            w_left += w
        if rows_left < min_leaf or n_rows - rows_left < min_leaf:
            continue
        w_right = total - w_left
        if w_left <= 0.0 or w_right <= 0.0:
            continue
        cost = ((w_left * w_left - squares_left) / w_left
                + (w_right * w_right - squares_right) / w_right)
        if cost < best_cost:
            best_cost = cost
            n_left = rows_left
            best_bin = b
    return best_cost, n_left, best_bin


@kernel(refcounts=False)
def find_binned_split(bins, cut_values, rows, codes, weights, unit, start, end, node_counts,
                      selected, class_counts, row_counts, left, buffers, buckets, best_counts,
                      min_leaf):
    """(feature, rows on the left, threshold, last code on the left) of the node's best
    split, feature -1 if none: ``grow.find_split`` on the codes, the threshold the
    midpoint of the two codes' ``cut_values``.  A node of HIST_FROM rows
    or more counts them into bins (``class_counts`` / ``row_counts``: zero on entry and left
    so); a smaller one orders them by code and scans them as grow_tree does, where walking
    and clearing up to 256 bins would cost more than the rows."""
    n_classes = node_counts.shape[0]
    n_node = end - start
    best_cost = np.inf
    best_feature = LEAF
    best_n_left = 0
    best_threshold = 0.0
    boundary = 0
    node_rows = rows[start:end]
    for j in range(selected.shape[0]):
        if not selected[j]:
            continue
        if n_node < HIST_FROM:
            words = buffers[order_by_rank(bins[j], node_rows, buffers, buckets), :n_node]
            cost, n_left = scan_whole_gini(words, codes, weights, unit, node_counts,
                                           best_cost, left, best_counts, min_leaf)
            if n_left >= 0:
                best_cost = cost
                best_feature = j
                best_n_left = n_left
                boundary = words[n_left - 1] >> ROW_BITS
                best_threshold = midpoint(cut_values[j, boundary],
                                          cut_values[j, words[n_left] >> ROW_BITS])
            continue
        lo, hi = count_bins(bins[j], node_rows, codes, weights, unit, class_counts,
                            row_counts)
        cost, n_left, last = scan_bins(class_counts, row_counts, lo, hi, node_counts,
                                       best_cost, left[0], min_leaf)
        if n_left >= 0:
            best_cost = cost
            best_feature = j
            best_n_left = n_left
            boundary = last
            above = last + 1
            while row_counts[above] == 0:
                above += 1
            best_threshold = midpoint(cut_values[j, last], cut_values[j, above])
            for k in range(n_classes):
                best_counts[0, k] = 0.0
            for b in range(lo, last + 1):
                for k in range(n_classes):
                    best_counts[0, k] += class_counts[b, k]
            for k in range(n_classes):
                best_counts[1, k] = node_counts[k] - best_counts[0, k]
        for b in range(lo, hi + 1):
            row_counts[b] = 0
            for k in range(n_classes):
                class_counts[b, k] = 0.0
    return best_feature, best_n_left, best_threshold, boundary


@kernel
def grow_binned_tree(bins, cut_values, kept_rows, codes, weights, settings, min_samples_split,
                     state, nodes, thresholds, values):
    """``grow.grow_tree`` with Gini impurity and whole-number weights on codes of at most
    256 values: the same arguments but ``bins`` (d, n) uint8 for X and the ranks, and
    no presorted segments; ``cut_values`` (d, 256): the value each code stands for, whose
    midpoints are the thresholds (a histogram tree's codes themselves, or an exact tree's
    distinct values); the same nodes, thresholds, class totals and random draws.
    ``settings``: as grow_tree's (its criterion, sorting and whole_gini columns read only
    as "Gini", "rows in one segment" and "unit weights" when whole_gini is 2)."""
    max_depth, n_candidates = settings[1], settings[2]
    unit, min_leaf = settings[4] == 2, settings[5]
    n_features, n_rows = bins.shape[0], kept_rows.shape[0]
    n_classes = values.shape[1]
    stack, stack_counts = pending_nodes(kept_rows, max_depth, codes, weights, n_classes)
    n_pending = 1
    order = np.empty(n_features, dtype=np.int64)
    selected = np.empty(n_features, dtype=np.bool_)
    left = np.empty((2, n_classes))  # scan_whole_gini's scratch; row 0 for scan_bins
    buffers = np.empty((2, n_rows), dtype=np.int64)  # words (word_sort.order_by_rank)
    buckets = np.empty(MAX_BUCKETS + 2, dtype=np.int64)
    best_counts = np.empty((2, n_classes))
    class_counts = np.zeros((MOST_BINS, n_classes))
    row_counts = np.zeros(MOST_BINS, dtype=np.int64)
    row_buffer = np.empty(n_rows, dtype=kept_rows.dtype)
    rows = kept_rows.copy()
    no_segments = np.empty((n_features, 0), dtype=bins.dtype)
    counts = np.empty(n_classes)     # the open node's class weights (``grow.open_node``)
    node_count = 0
    while n_pending > 0:
        n_pending -= 1
        node = node_count
        node_count += 1
        start, end, depth = open_node(stack, stack_counts, n_pending, node, nodes, thresholds,
                                      values, counts)
        if is_leaf(counts, end - start, depth, max_depth, min_samples_split):
            continue
        select_features(no_segments, bins, rows, start, end, True, n_candidates, state,
                        order, selected)
        feature, n_left, threshold, boundary = find_binned_split(
            bins, cut_values, rows, codes, weights, unit, start, end, counts, selected,
            class_counts, row_counts, left, buffers, buckets, best_counts, min_leaf)
        if feature == LEAF:
            continue
        partition_rows(bins, rows, start, end, feature, boundary, row_buffer)
        nodes[node, FEATURE] = feature
        thresholds[node] = threshold
        push_children(stack, stack_counts, n_pending, start, start + n_left, end, depth, node,
                      best_counts)
        n_pending += 2
    return node_count
