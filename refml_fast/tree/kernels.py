"""Numba kernels of a classification tree: the split scans, the ranks, the descent.

The twin of ``refml/tree/split.py``: the same impurity sums, the same order of every float
operation that decides a split, the same feature draws from the SplitMix64 stream, the same
preorder node ids (see that module's docstring for the arithmetic contract).

Ranks.  Each feature's values are replaced by their dense ranks (the number of distinct
values below; ``ranks_from_keys``, after numpy's sort of ``column_keys``).  A scan visits a
node's rows in (rank, index) order (``grow`` gives them so: presorted, straight from
that sort or by ``sort_by_rank``, or sorted at the node); ties are equal ranks, and the
threshold between two ranks is the midpoint of the two values, read from X once per
node, for its best split (X's rows are far apart in memory: two cache misses).  Ranks
and row ids are int32; an ensemble ranks X once for all its trees
(refml_fast.ensemble).

Words.  The scans read a node's rows of one feature as int64 words, rank << 32 | row id
(``pack_words``; ``word_sort.order_by_rank`` sorts them so), whose order is the (rank, index)
order: a sort moves one word per row instead of a row id and a rank, and a scan reads
one array.  Ranks and row ids are int32: a tree takes fewer than 2^31 rows
(``classifier.MOST_ROWS``).

Two scans: ``scan_feature`` recomputes each side's impurity sum class by class, as refml
does; ``scan_whole_gini`` gives the same Gini costs in O(1) per row when the weights are
whole numbers (every tree without sample weights, every bootstrap member).

Logarithms are ``math.log``: in a kernel it is the same libm call as Python's ``math.log``
(checked bit for bit on 2.2 million values), while numpy's vectorised ``np.log`` differed
from it on about 1 value in 2,000 and would flip ties between entropy costs.

The kernels are serial on purpose: a forest can fit trees on several threads (every kernel
releases the GIL) without nesting thread pools.
"""

import math

import numpy as np

from refml.tree import classifier as reference
from refml_fast.runtime.options import kernel

GINI = 0
# Outside [TINY_WEIGHT, HUGE_WEIGHT] the Gini sums divide class by class (refml.tree).
TINY_WEIGHT, HUGE_WEIGHT = reference.TINY_WEIGHT, reference.HUGE_WEIGHT
LEAF = -1
# Columns of the integer node table.
LEFT, RIGHT, FEATURE, N_ROWS = 0, 1, 2, 3
# Rows walking a tree at a time (``apply_tree``, a forest's votes).  Against 8, a forest's
# votes with 4 took 1.07-1.4x as long, with 16 1.0-1.35x (one core, three forests).
WALKERS = 8


@kernel(refcounts=False)
def total_weight(counts):
    """W = sum_k c_k, over the classes in order."""
    total = 0.0
    for k in range(counts.shape[0]):
        total += counts[k]
    return total


@kernel(refcounts=False)
def weighted_impurity(counts, total, criterion):
    """W gamma: (sum_k c_k (W - c_k)) / W (Gini; class by class for extreme W) or
    sum_k c_k (log W - log c_k) (entropy): refml.tree's weighted_gini and weighted_entropy."""
    s = 0.0
    if criterion == GINI:
        if not TINY_WEIGHT <= total <= HUGE_WEIGHT:
            for k in range(counts.shape[0]):
                c = counts[k]
                s += c * ((total - c) / total)
            return s
        for k in range(counts.shape[0]):
            c = counts[k]
            s += c * (total - c)
        return s / total
    log_total = math.log(total)
    for k in range(counts.shape[0]):
        c = counts[k]
        if c > 0.0:
            s += c * (log_total - math.log(c))
    return s


@kernel(refcounts=False)
def midpoint(a, b):
    """(a + b)/2 without overflow, moved down to a if rounding put it on b."""
    t = 0.5 * a + 0.5 * b
    if t < a or t >= b:
        t = a
    return t


ROW_BITS = 32
ROW_MASK = (1 << ROW_BITS) - 1


@kernel(refcounts=False)
def word_of(rank, row):
    """The word rank << 32 | row of one row."""
    return np.int64(rank) << ROW_BITS | row


@kernel(refcounts=False)
def pack_words(rows, ranks, words):
    """words[p] = ranks[p] << 32 | rows[p]: a presorted segment as the scans read it."""
    for p in range(rows.shape[0]):
        words[p] = word_of(ranks[p], rows[p])


@kernel(refcounts=False)
def scan_feature(words, codes, weights, criterion, best_cost, scratch,  # noqa: C901
                 best_counts, min_leaf):
    """Every threshold of one feature on one node, ascending; strict improvement only.

    ``words``: the node's rows of the feature in (rank, row id) order, as words. ``scratch``
    (4, K): class totals, left class weights, and (entropy) cached log c_k of the left and right
    sides, refreshed for the one class that changes per row: the same ``math.log`` of the same
    float as refml computes at every boundary. The impurity sums are ``weighted_impurity`` term
    for term, written out here because a kernel call per boundary made the whole fit about three
    times slower (measured; the call was not inlined). On improvement ``best_counts`` (2, K)
    receives the left and right class weights. Returns (best cost, rows on the left or -1);
    the caller reads the threshold from X for the best feature of the node only."""
    totals, left, log_left, log_right = scratch[0], scratch[1], scratch[2], scratch[3]
    n_classes = totals.shape[0]
    gini = criterion == GINI
    for k in range(n_classes):
        totals[k] = 0.0
        left[k] = 0.0
    m = words.shape[0]
    for p in range(m):
        row = words[p] & ROW_MASK
        totals[codes[row]] += weights[row]
    if not gini:
        for k in range(n_classes):
            if totals[k] > 0.0:
                log_right[k] = math.log(totals[k])
    n_left = -1
    for p in range(m - 1):
        row = words[p] & ROW_MASK
        k = codes[row]
        left[k] += weights[row]
        if not gini:
            log_left[k] = math.log(left[k])
            if totals[k] - left[k] > 0.0:
                log_right[k] = math.log(totals[k] - left[k])
        if not words[p] >> ROW_BITS < words[p + 1] >> ROW_BITS:
            continue                     # tied values: no threshold between them
        if p + 1 < min_leaf or m - p - 1 < min_leaf:
            continue                     # a side with fewer rows than min_samples_leaf
        w_left = 0.0
        w_right = 0.0
        for k in range(n_classes):
            w_left += left[k]
            w_right += totals[k] - left[k]
        if w_left <= 0.0 or w_right <= 0.0:
            continue
        sum_left = 0.0
        sum_right = 0.0
        if gini and not (TINY_WEIGHT <= w_left <= HUGE_WEIGHT
                         and TINY_WEIGHT <= w_right <= HUGE_WEIGHT):
            right = log_right  # unused by Gini: the right class weights
            for k in range(n_classes):
                right[k] = totals[k] - left[k]
            sum_left = weighted_impurity(left, w_left, criterion)
            sum_right = weighted_impurity(right, w_right, criterion)
        elif gini:  # (sum_k c_k (W - c_k)) / W on each side
            for k in range(n_classes):
                c = left[k]
                sum_left += c * (w_left - c)
                c = totals[k] - left[k]
                sum_right += c * (w_right - c)
            sum_left = sum_left / w_left
            sum_right = sum_right / w_right
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
    return best_cost, n_left


@kernel(refcounts=False)
def scan_whole_gini(words, codes, weights, unit, counts, best_cost, scratch, best_counts,
                    min_leaf):
    """``scan_feature`` for the Gini criterion when every weight is a whole number and the
    total W <= 2^26 (``whole_weights``), in O(1) per row instead of O(K).

    Then every class weight, every W and every sum of products below is an integer under
    2^53 (at most 2 W^2), so each float operation is exact and its order does not matter.
    The Gini numerator sum_k c_k (W - c_k) equals W^2 - sum_k c_k^2; the sums of squares are
    kept up to date as one class weight moves from right to left ((c + w)^2 - c^2 =
    w (2c + w)), W_left is a running sum, W_right = W - W_left.  With two classes the left
    weights c_0, c_1 stay in two variables and each side's sum of squares is formed at a
    threshold (the integer the running sums give): no class weight makes a round trip
    through memory per row (a tree's scans, 20,000 x 50: 5.6 -> 5.3 ns a row).  The
    numerators are the integers the term-by-term sums give, divided by the same W: the
    same costs, bit for bit.  An improving threshold's left class weights go to
    ``best_counts`` as they stand (exact integers: the same as summed again afterwards,
    which cost a second pass over the left rows).  ``unit``: every row's weight is 1, and
    the weights are not read.  ``counts``: the node's class totals, exact integers here,
    so the sums over the feature's order they replace (a pass over the node's rows per
    searched feature) would give the same floats.
    """
    totals, left = counts, scratch[1]
    n_classes = totals.shape[0]
    m = words.shape[0]
    total = 0.0
    squares_right = 0.0
    for k in range(n_classes):
        left[k] = 0.0
        total += totals[k]
        squares_right += totals[k] * totals[k]
    squares_left = 0.0
    w_left = 0.0
    n_left = -1
    two = n_classes == 2
    c0 = c1 = 0.0                        # two classes: the left class weights
    for p in range(m - 1):
        row = words[p] & ROW_MASK
        w = 1.0 if unit else weights[row]
        if two:                          # c_1 += w y, c_0 += w - w y: exact
            moved = w * codes[row]
            c1 += moved
            c0 += w - moved
        else:
            k = codes[row]
            c = left[k]
            squares_left += w * (2.0 * c + w)
            c = totals[k] - c            # the right weight of class k before the move
            squares_right -= w * (2.0 * c - w)
            left[k] += w
        w_left += w
        if not words[p] >> ROW_BITS < words[p + 1] >> ROW_BITS:
            continue                     # tied values: no threshold between them
        if p + 1 < min_leaf or m - p - 1 < min_leaf:
            continue
        w_right = total - w_left
        if w_left <= 0.0 or w_right <= 0.0:
            continue
        if two:
            r0, r1 = totals[0] - c0, totals[1] - c1
            squares_left = c0 * c0 + c1 * c1
            squares_right = r0 * r0 + r1 * r1
        cost = ((w_left * w_left - squares_left) / w_left
                + (w_right * w_right - squares_right) / w_right)
        if cost < best_cost:
            best_cost = cost
            n_left = p + 1
            if two:                      # the split's class weights, as they stand
                best_counts[0, 0], best_counts[0, 1] = c0, c1
            else:
                for k in range(n_classes):
                    best_counts[0, k] = left[k]
    if n_left > 0:
        for k in range(n_classes):
            best_counts[1, k] = totals[k] - best_counts[0, k]
    return best_cost, n_left


SIGN = np.uint64(1) << np.uint64(63)
HIGH, LOW = np.uint64(32), np.uint64(0xFFFFFFFF)


@kernel(refcounts=False)
def column_keys(bits, first, keys, packed):
    """For the columns first + c of X (``bits``: X viewed as uint64), c < keys.shape[0]:
    keys[c, i], X[i, first + c] as a 64-bit key whose unsigned order is the values' order
    (-0.0 made 0.0; negative values: every bit flipped; the others: the sign bit set), and
    packed[c, i], the key's high half over the row id i (rows < 2^32).  Row by row, so
    that X is read once, along its rows."""
    for i in range(bits.shape[0]):
        for c in range(keys.shape[0]):
            b = bits[i, first + c]
            if b == SIGN:  # -0.0
                b = np.uint64(0)
            key = ~b if b & SIGN else b | SIGN
            keys[c, i] = key
            packed[c, i] = (key >> HIGH) << HIGH | np.uint64(i)


@kernel
def ranks_from_keys(packed, keys, kept, ranks, rows_out, ranks_out, group):
    """Dense ranks (the number of distinct values below) from ``packed[c]`` sorted
    (``column_keys``): the keys' high halves ascending, the rows of one high half in
    ascending ids.  A run of rows sharing a high half is ordered by the low halves too (in
    ``group``, scratch of n; seldom for continuous values, and not needed when every low
    half of the run is equal, as for small integers).  The rows then come in (rank, row
    id) order.  Written: ranks[c, i], the rank of row i (when ``ranks`` has rows), and
    (when ``rows_out`` has rows) rows_out[c] / ranks_out[c], the rows with ``kept[i]`` in
    that order and their ranks: the presorted segments, without sorting again."""
    n = packed.shape[1]
    for c in range(packed.shape[0]):
        rank, out, p = -1, 0, 0
        while p < n:
            high = packed[c, p] >> HIGH
            q = p + 1
            while q < n and packed[c, q] >> HIGH == high:
                q += 1
            rank += 1
            if q > p + 1:
                first_low = keys[c, packed[c, p] & LOW] & LOW
                same = True
                for t in range(p, q):
                    row = packed[c, t] & LOW
                    low = keys[c, row] & LOW
                    same = same and low == first_low
                    group[t - p] = low << HIGH | row
                if not same:  # distinct values in the run: in order of their low halves
                    group[:q - p].sort()
            for t in range(p, q):
                word = packed[c, p] if q == p + 1 else group[t - p]
                if t > p:
                    rank += (word >> HIGH) != (group[t - p - 1] >> HIGH)
                row = np.int64(word & LOW)
                if ranks.shape[0] > 0:
                    ranks[c, row] = rank
                if rows_out.shape[0] > 0 and kept[row]:
                    rows_out[c, out] = row
                    ranks_out[c, out] = rank
                    out += 1
            p = q


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
def presort_by_ranks(ranks, kept_rows, sorted_rows, sorted_ranks):
    """Every feature's presorted segment from the ranks (d, n): ``sort_by_rank`` per row of
    ``sorted_rows`` / ``sorted_ranks`` (d, len(kept_rows))."""
    starts = np.empty(ranks.shape[1] + 1, dtype=np.int64)
    for j in range(ranks.shape[0]):
        sort_by_rank(ranks[j], kept_rows, starts, sorted_rows[j], sorted_ranks[j])


@kernel
def node_capacity(n_rows, max_depth):
    """Room for every node of a tree on n_rows rows (a binary tree of n leaves has 2n - 1
    nodes), at most 2^(max_depth + 1) - 1 under a depth limit (-1: none)."""
    capacity = 2 * n_rows - 1
    if 0 <= max_depth < 40:
        capacity = min(capacity, 2 ** (max_depth + 1) - 1)
    return capacity


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
    """The leaf of every row of X: from the root, X_feature <= threshold goes left.

    WALKERS rows walk the tree at a time, each in its own slot, so that their memory reads
    overlap; a row that reaches its leaf hands its slot to the next row (one row at a
    time, full trees, one core: 20,000 x 200 with 6,135 nodes 25.3 -> 9.5 ms; 100,000 x 10
    with 34,461 nodes 19.0 -> 15.7 ms).  Each row's path is the same."""
    node = np.empty(WALKERS, dtype=np.int64)
    row = np.empty(WALKERS, dtype=np.int64)
    resting = 0             # a slot without a row rests on a leaf: the leftmost
    while children_left[resting] != LEAF:
        resting = children_left[resting]
    following = 0           # the next row to take a slot
    for g in range(WALKERS):
        node[g] = resting
        following = take_row(node, row, g, 0, following, X.shape[0])
    walking = min(WALKERS, X.shape[0])
    while walking > 0:
        for g in range(WALKERS):
            k = node[g]
            left = children_left[k]
            if left != LEAF:
                node[g] = left if X[row[g], feature[k]] <= threshold[k] else children_right[k]
            elif row[g] >= 0:               # a leaf: the row's answer, the slot's next row
                leaves[row[g]] = k
                following = take_row(node, row, g, 0, following, X.shape[0])
                walking -= row[g] < 0


@kernel(refcounts=False, inline=True)
def take_row(node, row, g, root, following, last):
    """Slot g of rows walking a tree takes row ``following`` at the ``root`` when
    following < last, and returns following + 1; otherwise it keeps resting on its node
    without a row (row -1) and returns following.  (``apply_tree``, and a forest's votes:
    ``refml_fast.ensemble.kernels.rows_votes``.)"""
    row[g] = -1
    if following < last:
        node[g] = root
        row[g] = following
        return following + 1
    return following
