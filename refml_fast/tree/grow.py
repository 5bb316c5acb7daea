"""Growing a classification tree: the node loop, and the two ways a tree gives a node's
searched features its rows in order.

Either way a searched feature sees the node's rows ordered by (rank, row id), the order
refml's split search visits them in, so the scans (``kernels``), the thresholds and
the tree are the same whichever way the tree took (tested both ways on the same data).

- Presorted segments.  ``sorted_rows[j]`` / ``sorted_ranks[j]`` hold the tree's rows in
  feature j's order; a node owns the segment [start, end) of every feature, and a split
  partitions all d segments stably (left rows first): no sorting after the presort, but
  O(d n_node) per split whatever the number m of searched features.  Best when m = d (a
  single tree searches every feature).
- Sorting at every node.  A node's rows sit in ``rows[start:end]`` in ascending row ids
  (the root's kept rows are ascending and partitions are stable); each searched feature
  orders them by rank with a stable linear sort (``word_sort``), and a split
  partitions ``rows`` only: O(m n_node) per split.  Best when m is a fraction of d (a
  random forest searches sqrt(d) features, and scikit-learn's splitter too sorts at every
  node, with a comparison sort), and for any m < d where bucket bounds search the large
  nodes.

The caller picks the way per tree (``settings[3]``; ``refml_fast.tree.sorts_at_nodes``).
A tree that sorts at its nodes searches its nodes of ``bounded.bounded_from(K)`` rows or
more through bucket bounds (``bounded``: the same split, ordering only the rows near
thresholds that could win) when the Gini costs are functions of the class weights alone.
A histogram tree with Gini impurity and whole-number weights takes a third way, counting a
node's rows into their bins (``grow_binned``).  A tree on a single feature with those
costs keeps its one presorted order whole (every node is a run of it) and scans a node
from class prefix sums (``one_feature``).
"""

import numpy as np

from refml_fast.core.random import randbelow
from refml_fast.runtime.options import kernel
from refml_fast.tree.bounded import (
    bounded_from,
    buckets_apply,
    find_split_bounded,
    most_buckets,
)
from refml_fast.tree.compact import (
    open_space,
    space_of,
    space_row_bytes,
    subtree_spaces,
    wants_space,
)
from refml_fast.tree.kernels import (
    FEATURE,
    LEAF,
    LEFT,
    N_ROWS,
    RIGHT,
    ROW_BITS,
    ROW_MASK,
    midpoint,
    pack_words,
    scan_feature,
    scan_whole_gini,
)
from refml_fast.tree.one_feature import CHUNK, class_prefix, find_split_one_feature
from refml_fast.tree.word_sort import MAX_BUCKETS, order_by_rank

# Columns of the stack of pending nodes.
START, END, DEPTH, PARENT, SIDE = 0, 1, 2, 3, 4


@kernel(refcounts=False)
def not_constant(sorted_ranks, ranks, rows, j, start, end, sorting):
    """Whether feature j takes two values or more on the node's rows."""
    if not sorting:
        return sorted_ranks[j, start] < sorted_ranks[j, end - 1]
    first = ranks[j, rows[start]]
    for p in range(start + 1, end):
        if ranks[j, rows[p]] != first:
            return True
    return False


@kernel(refcounts=False)
def select_features(sorted_ranks, ranks, rows, start, end, sorting, n_candidates, state,
                    order, selected):
    """Mark in ``selected`` the features searched at a node (refml's candidate_features).

    All non-constant features when n_candidates >= d; otherwise a partial Fisher-Yates draw
    of 0..d-1 until n_candidates non-constant features are found or all d are drawn.
    """
    n_features = selected.shape[0]
    for j in range(n_features):
        selected[j] = False
    if n_candidates >= n_features:
        for j in range(n_features):
            selected[j] = not_constant(sorted_ranks, ranks, rows, j, start, end, sorting)
        return
    for j in range(n_features):
        order[j] = j
    n_chosen = 0
    i = 0
    while i < n_features and n_chosen < n_candidates:
        j = i + randbelow(state, n_features - i)
        order[i], order[j] = order[j], order[i]
        f = order[i]
        if not_constant(sorted_ranks, ranks, rows, f, start, end, sorting):
            selected[f] = True
            n_chosen += 1
        i += 1


@kernel(refcounts=False)
def scan(words, codes, weights, criterion, whole_gini, node_counts, best_cost, scratch,
         best_counts, min_leaf):
    """``scan_whole_gini`` when it applies (the same costs, faster; ``whole_gini`` 2: every
    weight is 1), else ``scan_feature``: (best cost, rows on the left or -1)."""
    if whole_gini:
        return scan_whole_gini(words, codes, weights, whole_gini == 2, node_counts,
                               best_cost, scratch, best_counts, min_leaf)
    return scan_feature(words, codes, weights, criterion, best_cost, scratch,
                        best_counts, min_leaf)


@kernel(refcounts=False)
def find_split(sorting, sorted_rows, sorted_ranks, ranks, rows, buffers, counts, codes,
               weights, start, end, criterion, whole_gini, node_counts, selected, scratch,
               best_counts, min_leaf):
    """(feature, rows on the left, the rows below and above the threshold, highest rank on
    the left) of the best split of the node [start, end), feature -1 if none; features in
    increasing j, strict improvement only.  Each searched feature's rows in (rank, row id)
    order, as words in one row of ``buffers`` (2 rows of n_kept int64), are its presorted
    segment packed, or, when the tree sorts at its nodes, ``rows[start:end]`` (ascending row
    ids) ordered by ``order_by_rank``.  ``node_counts``: the node's class totals.
    ``grow_tree`` takes the threshold, the midpoint of the feature's values on the rows
    below and above, from X (through the rows' ids in the tree when the node is in a
    space of its own, ``compact``)."""
    n_node = end - start
    best_cost = np.inf
    best_feature = LEAF
    best_n_left = 0
    boundary = 0
    below = above = 0
    for j in range(selected.shape[0]):
        if not selected[j]:
            continue
        if sorting:
            words = buffers[order_by_rank(ranks[j], rows[start:end], buffers, counts), :n_node]
        else:
            words = buffers[0, :n_node]
            pack_words(sorted_rows[j, start:end], sorted_ranks[j, start:end], words)
        cost, n_left = scan(words, codes, weights, criterion, whole_gini, node_counts,
                            best_cost, scratch, best_counts, min_leaf)
        if n_left >= 0:
            best_cost = cost
            best_feature = j
            best_n_left = n_left
            below, above = words[n_left - 1] & ROW_MASK, words[n_left] & ROW_MASK
            boundary = words[n_left - 1] >> ROW_BITS
    return best_feature, best_n_left, below, above, boundary


@kernel(refcounts=False)
def partition_node(sorted_rows, sorted_ranks, start, end, feature, n_left, goes_left,
                   row_buffer, rank_buffer):
    """Stable partition of every feature's segment: the first n_left rows of ``feature``."""
    if sorted_rows.shape[0] == 1:
        return              # the one feature's segment is partitioned already
    for p in range(start, end):
        goes_left[sorted_rows[feature, p]] = p < start + n_left
    for j in range(sorted_rows.shape[0]):
        if j == feature:
            continue
        write = start
        n_right = 0
        for p in range(start, end):
            row = sorted_rows[j, p]
            rank = sorted_ranks[j, p]
            left = goes_left[row]
            sorted_rows[j, write] = row        # both sides written, one count moved:
            sorted_ranks[j, write] = rank      # no branch on the side (write <= p)
            row_buffer[n_right] = row
            rank_buffer[n_right] = rank
            write += left
            n_right += 1 - left
        for r in range(n_right):
            sorted_rows[j, write + r] = row_buffer[r]
            sorted_ranks[j, write + r] = rank_buffer[r]


@kernel(refcounts=False)
def partition_rows(ranks, rows, start, end, feature, boundary, row_buffer):
    """Stable partition of ``rows[start:end]``: rank <= boundary on ``feature`` first."""
    write = start
    n_right = 0
    for p in range(start, end):
        row = rows[p]
        left = ranks[feature, row] <= boundary
        rows[write] = row                      # both sides written, one count moved
        row_buffer[n_right] = row
        write += left
        n_right += 1 - left
    for r in range(n_right):
        rows[write + r] = row_buffer[r]


@kernel(refcounts=False)
def push(stack, stack_counts, top, start, end, depth, parent, side, counts):
    """Put a pending node on the stack at position ``top``."""
    stack[top, START] = start
    stack[top, END] = end
    stack[top, DEPTH] = depth
    stack[top, PARENT] = parent
    stack[top, SIDE] = side
    for k in range(counts.shape[0]):
        stack_counts[top, k] = counts[k]


@kernel
def pending_nodes(kept_rows, max_depth, codes, weights, n_classes):
    """(stack, stack_counts) of pending nodes, the root on it: rows [0, n_rows), its class
    totals summed over the rows of positive weight (``kept_rows``, ascending) in index
    order.  One pops, two push, so at most one right sibling per level of the current
    path plus the current pair wait: depth + 2 entries, never more than n + 1.  Only the
    root's entry is written here (``push`` writes every field of the others): a deep
    tree's room is not cleared."""
    n_rows = kept_rows.shape[0]
    room = n_rows + 1 if max_depth < 0 else min(n_rows + 1, max_depth + 2)
    stack = np.empty((room, 5), dtype=np.int64)
    stack_counts = np.empty((room, n_classes))
    stack[0] = 0
    stack_counts[0] = 0.0
    for row in kept_rows:
        stack_counts[0, codes[row]] += weights[row]
    stack[0, END] = n_rows
    stack[0, PARENT] = LEAF
    return stack, stack_counts


@kernel(refcounts=False)
def open_node(stack, stack_counts, top, node, nodes, thresholds, values, counts):
    """Make the pending node at ``top`` node number ``node`` (preorder): a leaf until it is
    split, its class totals in values[node] and in ``counts`` (a copy the node's search
    reads: a view of values[node] made per node is counted twice, atomically, by Numba's
    references: 7% of a one-feature tree), linked from its parent; (start, end, depth)."""
    start, end, depth = stack[top, START], stack[top, END], stack[top, DEPTH]
    parent, side = stack[top, PARENT], stack[top, SIDE]
    for k in range(values.shape[1]):
        values[node, k] = counts[k] = stack_counts[top, k]
    nodes[node, LEFT] = LEAF
    nodes[node, RIGHT] = LEAF
    nodes[node, FEATURE] = LEAF
    nodes[node, N_ROWS] = end - start
    thresholds[node] = 0.0
    if parent != LEAF:
        nodes[parent, side] = node
    return start, end, depth


@kernel(refcounts=False)
def push_children(stack, stack_counts, top, start, middle, end, depth, node, best_counts):
    """Push the split node's right child [middle, end), then its left [start, middle),
    which is popped first (preorder, left child first)."""
    push(stack, stack_counts, top, middle, end, depth + 1, node, RIGHT, best_counts[1])
    push(stack, stack_counts, top + 1, start, middle, depth + 1, node, LEFT, best_counts[0])


@kernel(refcounts=False)
def is_leaf(counts, n_rows, depth, max_depth, min_samples_split):
    """refml's stopping rules: depth limit (-1: none), fewer than n0 rows, purity."""
    if max_depth >= 0 and depth >= max_depth:
        return True
    if n_rows < min_samples_split:
        return True
    n_positive = 0
    for k in range(counts.shape[0]):
        if counts[k] > 0.0:
            n_positive += 1
    return n_positive <= 1


@kernel
def grow_tree(X, ranks, kept_rows, sorted_rows, sorted_ranks, codes, weights, settings,
              min_samples_split, state, nodes, thresholds, values):
    """Grow the tree depth first, left child first; returns the number of nodes.

    ``X`` (n, d); ``kept_rows``: the rows of positive weight, ascending.  Sorting at nodes:
    ``ranks`` (d, n), the dense ranks of every column.  Otherwise ``sorted_rows`` and
    ``sorted_ranks`` (d, n_kept): the kept rows sorted by (rank, index) per feature, and
    their ranks (``sort_by_rank``).  The arrays a tree does not use may be (d, 0).
    ``codes``, ``weights``: per row of X.

    ``settings``: int64 [criterion, max_depth (-1: none), n_candidates, sorting (1: sort at
    every node), whole_gini (1 when the Gini scans may use ``scan_whole_gini``, 2 when
    moreover every kept row's weight is 1), min_samples_leaf (in rows)].  Outputs
    (allocated by the caller with room for every node): ``nodes`` int64 (capacity, 4) with
    columns LEFT, RIGHT, FEATURE, N_ROWS; ``thresholds`` float64 (capacity,); ``values``
    float64 (capacity, K), the weighted class totals.  ``state``: the SplitMix64 state,
    advanced.
    """
    criterion, max_depth, n_candidates = settings[0], settings[1], settings[2]
    sorting, whole_gini, min_leaf = settings[3] != 0, settings[4], settings[5]
    n_features, n_rows = X.shape[1], kept_rows.shape[0]
    n_classes = values.shape[1]
    stack, stack_counts = pending_nodes(kept_rows, max_depth, codes, weights, n_classes)
    n_pending = 1
    order = np.empty(n_features, dtype=np.int64)
    selected = np.empty(n_features, dtype=np.bool_)
    scratch = np.empty((4, n_classes))
    best_counts = np.empty((2, n_classes))
    # Scratch only where the tree's way reads it (a one-feature tree's prefix scan and
    # partition need none): every allocation past 128 KiB is a mapping of its own.
    one_prefix = n_features == 1 and not sorting and whole_gini != 0
    segments = 0 if sorting or n_features == 1 else n_rows  # partition_node's
    goes_left = np.empty(X.shape[0] if segments else 0, dtype=np.bool_)
    row_buffer = np.empty(n_rows if sorting else segments, dtype=kept_rows.dtype)
    rank_buffer = np.empty(segments, dtype=kept_rows.dtype)
    rows = kept_rows.copy() if sorting else np.empty(0, dtype=kept_rows.dtype)  # its nodes' rows
    buffers = np.empty((2, 0 if one_prefix else n_rows), dtype=np.int64)  # a feature's words
    buckets = np.empty(MAX_BUCKETS + 2 if sorting else 0, dtype=np.int64)
    # Large nodes' splits through bucket bounds (``bounded``), where they apply.
    most = most_buckets(n_rows)
    slots = min(n_candidates, n_features)
    bounded = sorting and buckets_apply(whole_gini, min_leaf, n_classes, n_rows, slots)
    slots = slots if bounded else 0
    cum = np.empty((slots, most + 1, n_classes))
    cum_rows = np.empty((slots, most + 1), dtype=np.int64)
    edge_cost = np.empty((slots, most + 1))
    keep = np.empty(most if bounded else 0, dtype=np.bool_)
    layout = np.empty((slots, 4), dtype=np.int64)
    large = bounded_from(n_classes) if bounded else 0
    slot_words = np.empty((slots, n_rows if bounded else 0), dtype=np.int64)
    # One feature, presorted, Gini in whole numbers: every node a run of one order.
    prefix = np.empty((n_classes, 0))
    if one_prefix:
        prefix = class_prefix(sorted_rows[0], codes, weights, whole_gini == 2, n_classes)
    prefix_sums = np.empty((3, CHUNK if prefix.shape[1] > 0 else 0))
    prefix_costs = np.empty(prefix_sums.shape[1])
    one_rows, one_ranks = sorted_rows[0], sorted_ranks[0]   # views made once, not per node
    counts = np.empty(n_classes)                            # the open node's class weights
    # Sorting: subtrees' rows copied close together (``compact``), spaces 1.. nested in
    # the tree's own, space 0 (bounds[level]: the positions of the node that opened it).
    row_bytes = space_row_bytes(n_features, n_candidates, ranks.itemsize) if sorting else 0
    space_ranks, space_rows, space_ids, space_codes, space_weights, bounds = subtree_spaces(
        row_bytes, n_features, n_rows, ranks, codes)
    bounds[0, 1] = n_rows
    no_ids = np.empty(0, dtype=np.int32)
    level = 0
    node_count = 0
    while n_pending > 0:
        n_pending -= 1
        node = node_count
        node_count += 1
        start, end, depth = open_node(stack, stack_counts, n_pending, node, nodes, thresholds,
                                      values, counts)
        if is_leaf(counts, end - start, depth, max_depth, min_samples_split):
            continue
        if prefix.shape[1] > 0:  # one feature: searched wherever a threshold exists
            feature, n_left, threshold, boundary = find_split_one_feature(
                X, one_rows, one_ranks, prefix, start, end, counts, best_counts, min_leaf,
                prefix_sums, prefix_costs)
            if feature == LEAF:
                continue
            partition_node(sorted_rows, sorted_ranks, start, end, feature, n_left, goes_left,
                           row_buffer, rank_buffer)
        elif not sorting:
            select_features(sorted_ranks, ranks, rows, start, end, sorting, n_candidates,
                            state, order, selected)
            feature, n_left, below, above, boundary = find_split(
                sorting, sorted_rows, sorted_ranks, ranks, rows, buffers, buckets, codes,
                weights, start, end, criterion, whole_gini, counts, selected, scratch,
                best_counts, min_leaf)
            if feature == LEAF:
                continue
            threshold = midpoint(X[below, feature], X[above, feature])
            partition_node(sorted_rows, sorted_ranks, start, end, feature, n_left, goes_left,
                           row_buffer, rank_buffer)
        else:  # sorting at the node, in the deepest space that holds it (``compact``)
            level = space_of(bounds, level, start, end)
            if wants_space(bounds, level, start, end, row_bytes):  # space `level` + 1
                if level == 0:
                    open_space(ranks, rows, no_ids, codes, weights, start, end - start,
                               space_ranks[0], space_rows[0], space_ids[0], space_codes[0],
                               space_weights[0])
                else:
                    open_space(space_ranks[level - 1], space_rows[level - 1],
                               space_ids[level - 1], space_codes[level - 1],
                               space_weights[level - 1], start - bounds[level, 0],
                               end - start, space_ranks[level], space_rows[level],
                               space_ids[level], space_codes[level], space_weights[level])
                level += 1
                bounds[level, 0], bounds[level, 1] = start, end
            if level == 0:
                s_ranks, s_rows, s_codes, s_weights = ranks, rows, codes, weights
            else:
                s_ranks, s_rows = space_ranks[level - 1], space_rows[level - 1]
                s_codes, s_weights = space_codes[level - 1], space_weights[level - 1]
            s_start, s_end = start - bounds[level, 0], end - bounds[level, 0]
            select_features(sorted_ranks, s_ranks, s_rows, s_start, s_end, sorting,
                            n_candidates, state, order, selected)
            if bounded and end - start >= large:
                feature, n_left, below, above, boundary = find_split_bounded(
                    s_ranks, s_rows, buffers, buckets, s_codes, s_weights, whole_gini == 2,
                    s_start, s_end, counts, selected, best_counts, cum, cum_rows, edge_cost,
                    keep, layout, scratch, slot_words)
            else:
                feature, n_left, below, above, boundary = find_split(
                    sorting, sorted_rows, sorted_ranks, s_ranks, s_rows, buffers, buckets,
                    s_codes, s_weights, s_start, s_end, criterion, whole_gini, counts,
                    selected, scratch, best_counts, min_leaf)
            if feature == LEAF:
                continue
            if level > 0:  # the rows' ids in the tree, for X
                below, above = space_ids[level - 1, below], space_ids[level - 1, above]
            threshold = midpoint(X[below, feature], X[above, feature])
            partition_rows(s_ranks, s_rows, s_start, s_end, feature, boundary, row_buffer)
        nodes[node, FEATURE] = feature
        thresholds[node] = threshold
        push_children(stack, stack_counts, n_pending, start, start + n_left, end, depth, node,
                      best_counts)
        n_pending += 2
    return node_count
