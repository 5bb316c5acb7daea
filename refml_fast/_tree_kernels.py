"""Numba kernels growing a classification tree over presorted features.

The twin of ``refml/_tree_split.py``: the same impurity sums, the same order of every float
operation that decides a split, the same feature draws from the SplitMix64 stream, the same
preorder node ids (see that module's docstring for the arithmetic contract).

Layout.  Each feature's values are replaced by their dense ranks (the number of distinct
values below; ``rank_column``, after numpy's argsort), and a tree orders its rows (those of
positive weight) by (rank, index) with one counting sort per feature (``sort_by_rank``,
linear).  ``sorted_rows[j]`` holds row ids and ``sorted_ranks[j]`` their ranks; a node owns
the same segment [start, end) of every feature's arrays.  Splitting a node partitions each
segment stably (left rows first), so every segment stays sorted and no node ever sorts
again: one split costs O(d n_node).  Ties are equal ranks; the threshold between two ranks
is the midpoint of the two values, read from X once per searched feature.  Both arrays are
int32 while row ids fit, so a tree keeps the size of X; an ensemble ranks X once for all its
trees (refml_fast.ensemble).

Logarithms are ``math.log``: in a kernel it is the same libm call as Python's ``math.log``
(checked bit for bit on 2.2 million values), while numpy's vectorised ``np.log`` differed
from it on about 1 value in 2,000 and would flip ties between entropy costs.

The kernels are serial on purpose: a forest can fit trees on several threads (every kernel
releases the GIL) without nesting thread pools.
"""

import math

import numpy as np

from ._config import kernel
from ._random import randbelow

GINI = 0
LEAF = -1
# Columns of the integer node table and of the stack of pending nodes.
LEFT, RIGHT, FEATURE, N_ROWS = 0, 1, 2, 3
START, END, DEPTH, PARENT, SIDE = 0, 1, 2, 3, 4


@kernel
def total_weight(counts):
    """W = sum_k c_k, over the classes in order."""
    total = 0.0
    for k in range(counts.shape[0]):
        total += counts[k]
    return total


@kernel
def weighted_impurity(counts, total, criterion):
    """W gamma: sum_k c_k ((W - c_k) / W) (Gini) or sum_k c_k (log W - log c_k) (entropy)."""
    s = 0.0
    if criterion == GINI:
        for k in range(counts.shape[0]):
            c = counts[k]
            if c > 0.0:
                s += c * ((total - c) / total)
    else:
        log_total = math.log(total)
        for k in range(counts.shape[0]):
            c = counts[k]
            if c > 0.0:
                s += c * (log_total - math.log(c))
    return s


@kernel
def midpoint(a, b):
    """(a + b)/2 without overflow, moved down to a if rounding put it on b."""
    t = 0.5 * a + 0.5 * b
    if t < a or t >= b:
        t = a
    return t


@kernel
def scan_feature(rows, ranks, X, feature, codes, weights, criterion, best_cost,  # noqa: C901
                 scratch, best_counts):
    """Every threshold of one feature on one node, ascending; strict improvement only.

    ``rows``/``ranks``: the node's segment of the feature's row ids and their ranks.  ``scratch`` (4, K): class
    totals, left class weights, and (entropy) cached log c_k of the left and right sides,
    refreshed for the one class that changes per row: the same ``math.log`` of the same
    float as refml computes at every boundary.  The impurity sums are ``weighted_impurity``
    term for term, written out here because a kernel call per boundary made the whole fit
    about three times slower (measured; the call was not inlined).  On improvement
    ``best_counts`` (2, K) receives the left and right class weights.
    Returns (best cost, rows on the left or -1, threshold).
    """
    totals, left, log_left, log_right = scratch[0], scratch[1], scratch[2], scratch[3]
    n_classes = totals.shape[0]
    gini = criterion == GINI
    for k in range(n_classes):
        totals[k] = 0.0
        left[k] = 0.0
    for p in range(rows.shape[0]):
        totals[codes[rows[p]]] += weights[rows[p]]
    if not gini:
        for k in range(n_classes):
            if totals[k] > 0.0:
                log_right[k] = math.log(totals[k])
    n_left = -1
    for p in range(rows.shape[0] - 1):
        k = codes[rows[p]]
        left[k] += weights[rows[p]]
        if not gini:
            log_left[k] = math.log(left[k])
            if totals[k] - left[k] > 0.0:
                log_right[k] = math.log(totals[k] - left[k])
        if not ranks[p] < ranks[p + 1]:  # tied values: no threshold between them
            continue
        w_left = 0.0
        w_right = 0.0
        for k in range(n_classes):
            w_left += left[k]
            w_right += totals[k] - left[k]
        if w_left <= 0.0 or w_right <= 0.0:
            continue
        sum_left = 0.0
        sum_right = 0.0
        if gini:  # sum_k c_k ((W - c_k) / W) on each side
            for k in range(n_classes):
                c = left[k]
                if c > 0.0:
                    sum_left += c * ((w_left - c) / w_left)
                c = totals[k] - left[k]
                if c > 0.0:
                    sum_right += c * ((w_right - c) / w_right)
        else:  # sum_k c_k (log W - log c_k) on each side
            log_w_left = math.log(w_left)
            log_w_right = math.log(w_right)
            for k in range(n_classes):
                c = left[k]
                if c > 0.0:
                    sum_left += c * (log_w_left - log_left[k])
                c = totals[k] - left[k]
                if c > 0.0:
                    sum_right += c * (log_w_right - log_right[k])
        cost = sum_left + sum_right
        if cost < best_cost:
            best_cost = cost
            n_left = p + 1
            for k in range(n_classes):
                best_counts[0, k] = left[k]
                best_counts[1, k] = totals[k] - left[k]
    threshold = 0.0
    if n_left > 0:  # read from X once, not at every improvement (rows of X are far apart)
        threshold = midpoint(X[rows[n_left - 1], feature], X[rows[n_left], feature])
    return best_cost, n_left, threshold


@kernel
def rank_column(column, order, ranks):
    """ranks[i]: the number of distinct values of ``column`` below column[i], given
    ``order``, an argsort of ``column`` (equal values share a rank, whatever their order)."""
    rank = 0
    for p in range(order.shape[0]):
        if p > 0 and column[order[p]] != column[order[p - 1]]:
            rank += 1
        ranks[order[p]] = rank


@kernel
def sort_by_rank(ranks, kept_rows, starts, rows_out, ranks_out):
    """rows_out: the ``kept_rows`` (ascending row ids) ordered by (ranks[row], row), and
    ranks_out their ranks: one stable counting sort, O(n).  ``starts``: scratch of n + 1."""
    for r in range(starts.shape[0]):
        starts[r] = 0
    for row in kept_rows:
        starts[ranks[row] + 1] += 1
    for r in range(starts.shape[0] - 1):
        starts[r + 1] += starts[r]
    for row in kept_rows:  # ascending rows: ties stay in index order
        r = ranks[row]
        rows_out[starts[r]] = row
        ranks_out[starts[r]] = r
        starts[r] += 1


@kernel
def not_constant(sorted_ranks, j, start, end):
    """Whether feature j takes two values or more on the segment [start, end)."""
    return sorted_ranks[j, start] < sorted_ranks[j, end - 1]


@kernel
def select_features(sorted_ranks, start, end, n_candidates, state, order, selected):
    """Mark in ``selected`` the features searched at a node (refml's candidate_features).

    All non-constant features when n_candidates >= d; otherwise a partial Fisher-Yates draw
    of 0..d-1 until n_candidates non-constant features are found or all d are drawn.
    """
    n_features = sorted_ranks.shape[0]
    for j in range(n_features):
        selected[j] = False
    if n_candidates >= n_features:
        for j in range(n_features):
            selected[j] = not_constant(sorted_ranks, j, start, end)
        return
    for j in range(n_features):
        order[j] = j
    n_chosen = 0
    i = 0
    while i < n_features and n_chosen < n_candidates:
        j = i + randbelow(state, n_features - i)
        order[i], order[j] = order[j], order[i]
        f = order[i]
        if not_constant(sorted_ranks, f, start, end):
            selected[f] = True
            n_chosen += 1
        i += 1


@kernel
def partition_node(sorted_rows, sorted_ranks, start, end, feature, n_left, goes_left,
                   row_buffer, rank_buffer):
    """Stable partition of every feature's segment: the first n_left rows of ``feature``."""
    for p in range(start, end):
        goes_left[sorted_rows[feature, p]] = p < start + n_left
    for j in range(sorted_rows.shape[0]):
        if j == feature:
            continue
        write = start
        n_right = 0
        for p in range(start, end):
            row = sorted_rows[j, p]
            if goes_left[row]:
                sorted_rows[j, write] = row
                sorted_ranks[j, write] = sorted_ranks[j, p]
                write += 1
            else:
                row_buffer[n_right] = row
                rank_buffer[n_right] = sorted_ranks[j, p]
                n_right += 1
        for r in range(n_right):
            sorted_rows[j, write + r] = row_buffer[r]
            sorted_ranks[j, write + r] = rank_buffer[r]


@kernel
def find_split(X, sorted_rows, sorted_ranks, codes, weights, start, end, criterion, selected,
               scratch, best_counts):
    """(feature, rows on the left, threshold) of the best split, feature -1 if none."""
    best_cost = np.inf
    best_feature = LEAF
    best_n_left = 0
    best_threshold = 0.0
    for j in range(sorted_rows.shape[0]):
        if not selected[j]:
            continue
        cost, n_left, threshold = scan_feature(
            sorted_rows[j, start:end], sorted_ranks[j, start:end], X, j, codes, weights,
            criterion, best_cost, scratch, best_counts)
        if n_left >= 0:
            best_cost = cost
            best_feature = j
            best_n_left = n_left
            best_threshold = threshold
    return best_feature, best_n_left, best_threshold


@kernel
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
def is_leaf(counts, depth, max_depth, min_samples_split):
    """refml's stopping rules: depth limit (-1: none), W < n0, purity."""
    if max_depth >= 0 and depth >= max_depth:
        return True
    if total_weight(counts) < min_samples_split:
        return True
    n_positive = 0
    for k in range(counts.shape[0]):
        if counts[k] > 0.0:
            n_positive += 1
    return n_positive <= 1


@kernel
def grow_tree(X, sorted_rows, sorted_ranks, codes, weights, settings, min_samples_split,
              state, nodes, thresholds, values):
    """Grow the tree depth first, left child first; returns the number of nodes.

    ``X`` (n, d); ``sorted_rows`` and ``sorted_ranks`` (d, n_kept): the rows of positive
    weight sorted by (rank, index) per feature, and their ranks (``sort_by_rank``).
    ``codes``, ``weights``: per row of X.

    ``settings``: int64 [criterion, max_depth (-1: none), n_candidates].  Outputs (allocated
    by the caller with room for every node): ``nodes`` int64 (capacity, 4) with columns
    LEFT, RIGHT, FEATURE, N_ROWS; ``thresholds`` float64 (capacity,); ``values`` float64
    (capacity, K), the weighted class totals.  ``state``: the SplitMix64 state, advanced.
    """
    criterion, max_depth, n_candidates = settings[0], settings[1], settings[2]
    n_features, n_rows = sorted_rows.shape[0], sorted_rows.shape[1]  # n_rows: kept rows
    n_classes = values.shape[1]
    # Pending nodes: one pops, two push, so at most one right sibling per level of the
    # current path plus the current pair wait: depth + 2 entries, never more than n + 1.
    room = n_rows + 1 if max_depth < 0 else min(n_rows + 1, max_depth + 2)
    stack = np.zeros((room, 5), dtype=np.int64)
    stack_counts = np.zeros((room, n_classes))
    for i in range(X.shape[0]):  # the root's class totals, in index order
        if weights[i] > 0.0:
            stack_counts[0, codes[i]] += weights[i]
    stack[0, END] = n_rows
    stack[0, PARENT] = LEAF
    n_pending = 1
    order = np.empty(n_features, dtype=np.int64)
    selected = np.empty(n_features, dtype=np.bool_)
    scratch = np.empty((4, n_classes))
    best_counts = np.empty((2, n_classes))
    goes_left = np.empty(X.shape[0], dtype=np.bool_)
    row_buffer = np.empty(n_rows, dtype=sorted_rows.dtype)
    rank_buffer = np.empty(n_rows, dtype=sorted_ranks.dtype)
    node_count = 0
    while n_pending > 0:
        n_pending -= 1
        start, end, depth = stack[n_pending, START], stack[n_pending, END], stack[n_pending, DEPTH]
        parent, side = stack[n_pending, PARENT], stack[n_pending, SIDE]
        node = node_count
        node_count += 1
        counts = values[node]
        for k in range(n_classes):
            counts[k] = stack_counts[n_pending, k]
        nodes[node, LEFT] = LEAF
        nodes[node, RIGHT] = LEAF
        nodes[node, FEATURE] = LEAF
        nodes[node, N_ROWS] = end - start
        thresholds[node] = 0.0
        if parent != LEAF:
            nodes[parent, side] = node
        if is_leaf(counts, depth, max_depth, min_samples_split):
            continue
        select_features(sorted_ranks, start, end, n_candidates, state, order, selected)
        feature, n_left, threshold = find_split(X, sorted_rows, sorted_ranks, codes, weights,
                                                start, end, criterion, selected, scratch,
                                                best_counts)
        if feature == LEAF:
            continue
        nodes[node, FEATURE] = feature
        thresholds[node] = threshold
        partition_node(sorted_rows, sorted_ranks, start, end, feature, n_left, goes_left,
                       row_buffer, rank_buffer)
        middle = start + n_left  # push the right child, then the left (popped first)
        push(stack, stack_counts, n_pending, middle, end, depth + 1, node, RIGHT, best_counts[1])
        push(stack, stack_counts, n_pending + 1, start, middle, depth + 1, node, LEFT,
             best_counts[0])
        n_pending += 2
    return node_count


@kernel
def node_summaries(values, criterion, impurity, weighted_n):
    """W = sum_k c_k and gamma = W gamma / W (0.0 when W = 0) of every node."""
    for node in range(values.shape[0]):
        total = total_weight(values[node])
        weighted_n[node] = total
        impurity[node] = 0.0
        if total > 0.0:
            impurity[node] = weighted_impurity(values[node], total, criterion) / total


@kernel
def apply_tree(X, children_left, children_right, feature, threshold, leaves):
    """The leaf of every row of X: from the root, X_feature <= threshold goes left."""
    for i in range(X.shape[0]):
        node = 0
        while children_left[node] != LEAF:
            if X[i, feature[node]] <= threshold[node]:
                node = children_left[node]
            else:
                node = children_right[node]
        leaves[i] = node
