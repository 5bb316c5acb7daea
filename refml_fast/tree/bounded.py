"""Exact CART's best split of a large node without ordering all its rows: bucket bounds
(beyond the lectures; refml orders every searched feature's rows, ``refml.tree.split``).

A tree that sorts at its nodes (a forest's members) spends most of its time ordering each
searched feature's rows at a node and walking past them.  Near the top of the tree a
node's rows are many, and most of its thresholds are far from the best: this search
orders only the rows around thresholds that could still win, and returns the same split,
bit for bit, as ``grow.find_split`` (tested against it on the same nodes).

1. For each searched feature, the node's rows are counted into buckets of consecutive
   ranks (2^shift ranks a bucket, about ROWS_PER_BUCKET rows a bucket): one pass over
   the rows, no ordering; the rows' words are kept, so that step 3 reads them again in
   order instead of each row's rank far apart in memory (20,000 x 50, a tree's kernel
   10.3 -> 9.8 ms).  The class weights left of each bucket's end are prefix sums.
   A threshold between two non-empty buckets is a threshold of the row scan (the ranks
   differ), and its cost follows from its left class weights alone.
2. Every threshold inside a bucket has left class weights c in the box
   L_b <= c <= L_{b+1} (class by class) between the bucket's two ends.  The cost of a
   split, G(c) + G(T - c) with G(c) = W(c) - sum_k c_k^2 / W(c) the weighted Gini sum of a
   side (0 for a side without weight), is concave in c: W - ||c||^2 / W is a sum of W and
   the negated perspective of the convex ||c||^2.  A concave function's least value on a
   box is at one of its 2^K corners, so the least corner cost bounds every threshold in
   the bucket from below.  A cheaper bound comes first (``quick_bound``): G(low) +
   G(T - high), as a side only gains impurity as rows join it; a bucket it already puts
   beyond the best cost needs no corners (30,000 x 30, three classes, 20 trees on one
   thread: 0.234-0.238 -> 0.198-0.205 s; the quick bound alone, sorting every bucket it
   keeps: 0.205, and slower elsewhere).
3. The least boundary cost over all searched features is a cost some threshold reaches.
   A bucket whose bound exceeds it, even after a relative margin of 1e-12 (the costs are
   floats: each side's numerator is an exact integer here, one division rounds, so a
   computed cost is within 3 units in the last place of the real one), holds no threshold
   that could be the node's best.  The rows of the other buckets, a few near the best
   thresholds, are ordered by (rank, row id) (``word_sort``) and walked as the row scan
   walks them.
4. The best split is the first threshold, features in increasing j and thresholds
   ascending, of least cost: the thresholds visited (every boundary, every threshold in
   a bucket kept) hold every threshold of least cost, in their order, so strict
   improvement over them finds the row scan's split.

Used where the row scan's Gini costs are functions of the class weights alone
(``kernels.scan_whole_gini``: Gini, whole-number weights, W <= 2^26), with
``min_samples_leaf`` = 1 (any non-empty side is allowed, as a boundary's rows count
nothing else), up to MOST_CLASSES classes (2^K corners a bucket), on nodes of
``bounded_from(K)`` rows or more, in trees whose bucket tables (a searched feature's
buckets' class weights, rows and end costs, and its rows' words) take at most
MOST_BOUND_WORDS words; everywhere else ``grow.find_split``.
"""

import numpy as np

from refml_fast.runtime.options import kernel
from refml_fast.tree.kernels import LEAF, ROW_BITS, ROW_MASK
from refml_fast.tree.word_sort import gather_words, sort_gathered

# Rows of a node from which its split is searched through buckets: 128 with two classes,
# 256 with three, 512 with four, 1,024 with five, 2,048 with six (a bucket's corners
# double with each class).  Measured on the nodes of captured forest members, ns a
# searched feature's row, row scan against buckets: two classes at 128-255 rows 18.1
# against 13.4; three classes at 128-255 13.4 against 15.3, at 256-511 11.5 against 9.8;
# four classes at 256-511 11.1 against 12.9, at 512-1,023 10.3 against 10.3.  Five and
# six classes follow the doubling, measured on whole forests only (one thread, fits, the
# row scan against buckets: 30,000 x 30 with six classes 0.177 -> 0.144 s, 50,000 x 20
# with six 0.252 -> 0.233, 200,000 x 10 with five 0.478 -> 0.417; with eight classes
# the buckets lost, 0.242 -> 0.255).
BOUNDED_FROM_TWO_CLASSES = 128
ROWS_PER_BUCKET = 16   # a bucket's rows, about, when a node's ranks are spread
MOST_BUCKETS = 2048    # of one feature at one node
MOST_CLASSES = 6       # 2^K corners a bucket
MARGIN = 1e-12         # relative, below a bound before its bucket is skipped
MOST_BOUND_WORDS = 2 ** 24  # of a tree's bucket tables (128 MiB; more: the row scan)


@kernel(refcounts=False, inline=True)
def split_cost(left, totals, total):
    """((W_l^2 - S_l) / W_l + (W_r^2 - S_r) / W_r) for left class weights ``left`` (S: a
    side's sum of squared class weights, the right side's weights totals - left), a side
    without weight counting 0: ``scan_whole_gini``'s cost, the same float when the weights
    are exact integers."""
    w_left = 0.0
    squares_left = 0.0
    squares_right = 0.0
    for k in range(left.shape[0]):
        c = left[k]
        w_left += c
        squares_left += c * c
        r = totals[k] - c
        squares_right += r * r
    return side_cost(w_left, squares_left) + side_cost(total - w_left, squares_right)


@kernel(refcounts=False, inline=True)
def side_cost(weight, squares):
    """A side's Gini sum (W^2 - S) / W from its weight W and sum of squared class weights
    S, 0 for a side without weight."""
    return (weight * weight - squares) / weight if weight > 0.0 else 0.0


@kernel(refcounts=False)
def bucket_bound(low, high, totals, total, corner, low_cost, high_cost):
    """The least cost over the corners of the box low <= c <= high (class by class): a
    lower bound of every threshold's cost inside the bucket (the cost is concave).  The
    two ends' costs are given."""
    n_classes = low.shape[0]
    bound = min(low_cost, high_cost)
    for mask in range(1, (1 << n_classes) - 1):
        for k in range(n_classes):
            corner[k] = high[k] if mask >> k & 1 else low[k]
        bound = min(bound, split_cost(corner, totals, total))
    return bound


@kernel(refcounts=False, inline=True)
def quick_bound(low, high, totals, total):
    """A lower bound of every threshold's cost in the box low <= c <= high, at most
    ``bucket_bound``'s and cheaper (two divisions, not two a corner): G(low) + G(T - high).
    A side's Gini sum G(c) = W - ||c||^2 / W is concave and grows in proportion to c
    (G(t c) = t G(c)), so G(a + b) = 2 G((a + b) / 2) >= G(a) + G(b) >= G(a): a side only
    gains impurity as rows join it, and inside the box the left side holds low's rows and
    more, the right T - high's and more.  Each numerator an exact integer with whole
    weights, one division rounding: within bucket_bound's margin."""
    w_left = 0.0
    w_right = 0.0
    squares_left = 0.0
    squares_right = 0.0
    for k in range(low.shape[0]):
        w_left += low[k]
        squares_left += low[k] * low[k]
        r = totals[k] - high[k]
        w_right += r
        squares_right += r * r
    return side_cost(w_left, squares_left) + side_cost(w_right, squares_right)


@kernel(refcounts=False, inline=True)
def bounded_from(n_classes):
    """The rows of a node from which its split is searched through buckets (K classes,
    2 <= K <= MOST_CLASSES)."""
    return BOUNDED_FROM_TWO_CLASSES << (min(max(n_classes, 2), MOST_CLASSES) - 2)


@kernel(refcounts=False, inline=True)
def most_buckets(m):
    """The most buckets of a feature at a node of m rows (about ROWS_PER_BUCKET rows a
    bucket), and so of any node of a tree of m rows."""
    return min(MOST_BUCKETS, max(2, m // ROWS_PER_BUCKET))


@kernel(refcounts=False)
def buckets_apply(whole_gini, min_leaf, n_classes, n_rows, slots):
    """Whether a tree that sorts at its nodes searches its large nodes through buckets:
    Gini costs of the class weights alone (``whole_gini`` != 0), min_samples_leaf 1, at most
    MOST_CLASSES classes, and bucket tables of at most MOST_BOUND_WORDS words for ``slots``
    searched features of a tree of ``n_rows`` rows."""
    most = most_buckets(n_rows)
    return (whole_gini != 0 and min_leaf == 1 and n_classes <= MOST_CLASSES
            and slots * ((most + 1) * (n_classes + 2) + n_rows) <= MOST_BOUND_WORDS)


@kernel(refcounts=False)
def count_buckets(ranks_j, node_rows, words, node_codes, node_weights, slot, cum, cum_rows):
    """Count the node's rows of one feature into buckets of 2^shift consecutive ranks from
    the lowest: cum[slot, b] the class weights, cum_rows[slot, b] the rows, of buckets
    before b (b = 0..nb).  ``words``: of m, filled with the feature's words;
    ``node_codes``, ``node_weights``: the rows' class codes and whole weights in the
    node's row order.  Returns (lowest rank, shift, nb)."""
    m = node_rows.shape[0]
    lo, hi = gather_words(ranks_j, node_rows, words)
    most = most_buckets(m)
    shift = 0
    while ((hi - lo) >> shift) + 1 > most:
        shift += 1
    nb = ((hi - lo) >> shift) + 1
    n_classes = cum.shape[2]
    for b in range(nb + 1):
        cum_rows[slot, b] = 0
        for k in range(n_classes):
            cum[slot, b, k] = 0.0
    for p in range(m):
        b = ((words[p] >> ROW_BITS) - lo) >> shift
        cum[slot, b + 1, node_codes[p]] += node_weights[p]
        cum_rows[slot, b + 1] += 1
    for b in range(nb):
        cum_rows[slot, b + 1] += cum_rows[slot, b]
        for k in range(n_classes):
            cum[slot, b + 1, k] += cum[slot, b, k]
    return lo, shift, nb


@kernel(refcounts=False)
def count_features(ranks, node_rows, words, codes, weights, unit, selected, totals, total,
                   cum, cum_rows, edge_cost, layout, buffers):
    """Step 1 for every searched feature, in increasing j, slot by slot: its buckets
    (``count_buckets``; layout[slot] = j, lowest rank, shift, buckets) and the cost at
    each bucket's end (edge_cost[slot, b], at the end of bucket b - 1); the feature's
    words (``kernels.word_of``, in the node's row order) stay in words[slot] for step 3.
    The rows' class codes and whole weights are read once for all features, into
    ``buffers`` (free until step 3): 100,000 x 50, a tree's bucket searches 63 -> 55 ms.
    Returns (slots, the least cost of a boundary: both sides hold rows)."""
    m = node_rows.shape[0]
    bound = np.inf
    n_slots = 0
    node_codes, node_weights = buffers[0, :m], buffers[1, :m]
    for p in range(m):
        row = node_rows[p]
        node_codes[p] = codes[row]
        node_weights[p] = 1 if unit else np.int64(weights[row])
    for j in range(selected.shape[0]):
        if not selected[j]:
            continue
        s = n_slots
        n_slots += 1
        lo, shift, nb = count_buckets(ranks[j], node_rows, words[s, :m], node_codes,
                                      node_weights, s, cum, cum_rows)
        layout[s, 0], layout[s, 1], layout[s, 2], layout[s, 3] = j, lo, shift, nb
        for b in range(nb + 1):
            edge_cost[s, b] = split_cost(cum[s, b], totals, total)
            if 0 < cum_rows[s, b] < m and cum_rows[s, b] > cum_rows[s, b - 1]:
                bound = min(bound, edge_cost[s, b])
    return n_slots, bound


@kernel(refcounts=False)
def order_kept_rows(slot_words, s, lo, shift, nb, cum, cum_rows, edge_cost, totals,
                    total, corner, keep, limit, buffers, counts):
    """Steps 2 and 3 for one feature (slot s): keep[b] marks the buckets of two rows or
    more whose bound is within the margin of ``limit`` (a cost reached), and their rows
    are put in (rank, row id) order in buffers[i, :n]; returns (i, n)."""
    n_buckets = 0
    for b in range(nb):
        keep[b] = False
        if shift > 0 and cum_rows[s, b + 1] - cum_rows[s, b] >= 2:
            if quick_bound(cum[s, b], cum[s, b + 1], totals, total) * (1.0 - MARGIN) > limit:
                continue                     # below bucket_bound's: it would skip it too
            low_bound = bucket_bound(cum[s, b], cum[s, b + 1], totals, total, corner,
                                     edge_cost[s, b], edge_cost[s, b + 1])
            if low_bound * (1.0 - MARGIN) <= limit:
                keep[b] = True
                n_buckets += 1
    if n_buckets == 0:
        return 0, 0
    words = buffers[1]
    n_kept = 0
    first = last = np.int64(-1)
    for p in range(slot_words.shape[0]):
        word = slot_words[p]
        r = word >> ROW_BITS
        if keep[(r - lo) >> shift]:
            words[n_kept] = word
            n_kept += 1
            first = r if first < 0 else min(first, r)
            last = max(last, r)
    return sort_gathered(buffers, n_kept, first, last, counts), n_kept


@kernel(refcounts=False)
def find_split_bounded(ranks, rows, buffers, counts, codes, weights, unit, start, end,
                       node_counts, selected, best_counts, cum, cum_rows, edge_cost, keep,
                       layout, scratch, slot_words):
    """``grow.find_split`` of a node that sorts at its nodes, for the Gini criterion with
    whole-number weights and min_samples_leaf 1: (feature, rows on the left, the rows below
    and above the threshold, highest rank on the left), feature -1 if none; best_counts the
    two sides' class weights.  Scratch: ``cum`` (slots, B + 1, K), ``cum_rows`` and
    ``edge_cost`` (slots, B + 1), ``keep`` (B,) bool, ``layout`` (slots, 4) int64,
    ``scratch`` (2, K), ``slot_words`` (slots, >= m) int64; slots: the most features a node
    searches, B: ``most_buckets`` of the node's rows or more."""
    node_rows = rows[start:end]
    m = end - start
    totals = node_counts
    n_classes = totals.shape[0]
    total = 0.0
    for k in range(n_classes):
        total += totals[k]
    n_slots, bound = count_features(ranks, node_rows, slot_words, codes, weights, unit,
                                    selected, totals, total, cum, cum_rows, edge_cost, layout,
                                    buffers)
    corner, left = scratch[0], scratch[1]
    best_cost = np.inf
    best_feature = LEAF
    best_n_left = 0
    best_slot = best_bucket = -1             # a boundary won: after this bucket
    below = above = 0                        # a threshold inside a bucket won: its rows
    boundary = 0
    for s in range(n_slots):                 # step 4: features in increasing j
        j, lo, shift, nb = layout[s, 0], layout[s, 1], layout[s, 2], layout[s, 3]
        i, n_kept = order_kept_rows(slot_words[s, :m], s, lo, shift, nb, cum, cum_rows,
                                    edge_cost, totals, total, corner, keep,
                                    min(bound, best_cost), buffers, counts)
        kept_words = buffers[i, :n_kept]
        q = 0
        for b in range(nb):
            n_b = cum_rows[s, b + 1] - cum_rows[s, b]
            if n_b == 0:
                continue
            if keep[b]:
                for k in range(n_classes):
                    left[k] = cum[s, b, k]
                for t in range(q, q + n_b - 1):
                    row = kept_words[t] & ROW_MASK
                    left[codes[row]] += 1.0 if unit else weights[row]
                    if not kept_words[t] >> ROW_BITS < kept_words[t + 1] >> ROW_BITS:
                        continue             # tied values: no threshold between them
                    cost = split_cost(left, totals, total)
                    if cost < best_cost:
                        best_cost = cost
                        best_feature = j
                        best_n_left = cum_rows[s, b] + t - q + 1
                        best_slot = -1
                        below = kept_words[t] & ROW_MASK
                        above = kept_words[t + 1] & ROW_MASK
                        boundary = kept_words[t] >> ROW_BITS
                        for k in range(n_classes):
                            best_counts[0, k] = left[k]
                            best_counts[1, k] = totals[k] - left[k]
                q += n_b
            if cum_rows[s, b + 1] < m and edge_cost[s, b + 1] < best_cost:
                best_cost = edge_cost[s, b + 1]
                best_feature = j
                best_n_left = cum_rows[s, b + 1]
                best_slot, best_bucket = s, b
                for k in range(n_classes):
                    best_counts[0, k] = cum[s, b + 1, k]
                    best_counts[1, k] = totals[k] - cum[s, b + 1, k]
    if best_feature == LEAF:
        return LEAF, 0, 0, 0, 0
    if best_slot >= 0:  # the rows either side of a boundary between buckets
        lo, shift = layout[best_slot, 1], layout[best_slot, 2]
        below, above, boundary = rows_beside(ranks[best_feature], node_rows,
                                             lo + ((best_bucket + 1) << shift) - 1)
    return best_feature, best_n_left, below, above, boundary


@kernel(refcounts=False)
def rows_beside(ranks_j, node_rows, limit):
    """(below, above, highest rank <= limit): the row the row scan reads below a threshold
    after rank ``limit`` (the highest rank up to it, the last of its rows in row ids) and
    the row above (the lowest rank beyond, the first of its rows)."""
    highest, lowest = np.int64(-1), np.int64(-1)
    below = above = np.int64(0)
    for p in range(node_rows.shape[0]):
        row = np.int64(node_rows[p])
        r = np.int64(ranks_j[row])
        if r <= limit:
            if r >= highest:
                highest, below = r, row
        elif lowest < 0 or r < lowest:
            lowest, above = r, row
    return below, above, highest
