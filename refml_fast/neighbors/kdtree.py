"""An exact k-d tree for k-NN in few dimensions (Friedman, Bentley & Finkel 1977).

refml_fast's ``KNeighborsClassifier(algorithm="kd_tree")``, and its choice for
``algorithm="auto"`` in low dimension with the Euclidean metric.  refml itself keeps the
lecture's brute force; the answers are the same, because the tree only decides which rows
are *looked at*, never how a distance is computed or how ties are broken:

- every visited row gets refml's squared distance Q(x, z) = sum_j (x_j - z_j)^2 (left to
  right, strict IEEE: ``leaf_sums``), and the k best are kept by
  (Q, training index), the tie rule of docs/design.md section 4 (``heap``: a sorted list
  up to SORTED_UP_TO neighbours, a heap beyond);
- a node is skipped only when no row inside its box can have a computed Q at or below the
  current k-th best.  With b the computed squared distance from x to the node's box
  (a sum of d squares of differences, each rounded, added in any order: ``box_bound``
  adds them on lanes), the computed Q of any row z in the box
  satisfies Q >= b (1 - gamma) / (1 + gamma) - t with gamma = (d + 3) u / (1 - (d + 3) u),
  u = 2^-53, t = d 2^-1060 covering underflow (Higham, "Accuracy and Stability of
  Numerical Algorithms", ch. 3: each square and each sum errs by a relative u at most).
  The test uses the smaller factor 1 - 4 (d + 4) u, and strict inequality, so a row that
  ties the k-th best (and might win on a smaller index) is always visited.  Rows whose Q
  overflows to inf are never skipped while the k-th best is inf.

Layout.  ``order`` holds the training row ids, permuted so that every node owns a contiguous
segment [start, end); ``columns`` holds X's values in that order, transposed, so that a
node's values of a feature lie side by side: the splits and the queries read them there.
A node is split at the median of its widest coordinate (quickselect); leaves hold at most
LEAF rows.  Each node keeps its tight bounding box.  A query descends nearer child first,
with an explicit stack.  When the tree is larger than the caches hold, the queries run in
the order of the leaves they fall in, so that neighbouring queries share the nodes and rows
they read (``leaf_of``).
"""

import time

import numba
import numpy as np

from refml_fast.runtime.claims import claim
from refml_fast.runtime.heap import insert_sorted, offer, sort_heap
from refml_fast.runtime.helpers import run_claimed
from refml_fast.runtime.lanes import LANES, at_most_bits, lane_sum, larger, load, splat, store
from refml_fast.runtime.options import kernel
from refml_fast.runtime.threads import run_parallel

LEAF = 4 * LANES         # rows a leaf holds: four sets of lanes (``leaf_sums``)
AUTO_DIMENSIONS = 6   # algorithm="auto" builds the tree up to this many features, and
TREE_FROM_ROWS = {7: 12_000, 8: 25_000, 9: 40_000, 10: 80_000, 11: 150_000}  # from 7 to
                      # 11 from these many rows on (times 1 + k / 10): ``search_method``
TRIAL_FRACTION = 4   # "auto" tries the tree from TREE_FROM_ROWS[d] (1 + k / 10) / 4 rows
                     # on (``on_trial``)
ROUNDOFF = 2.0 ** -53
TIMED_QUERIES = 128      # queries answered first on the calling thread, timed: the rest's
                         # serial seconds are estimated from them (``query``)
LAUNCH_SECONDS = 0.001   # the rest's serial seconds from which helpers share them
                         # (``query``)
QUERY_RUN = 64           # queries a thread takes at a time
SORTED_UP_TO = 256      # the k best as a sorted list up to this k, beyond it as a heap
                        # (17,211 x 4, 1,000 queries, one core, the heap and X read through
                        # ``order`` against the list: k = 256 51 -> 41 ms, k = 400 76 -> 78)
PARALLEL_BUILD = 50_000  # rows from which the tree's subtrees grow on the threads
TOP_LEVELS = 2           # levels split before the subtrees go to the threads (four)
ORDERED_FROM = 500_000  # training values (n x d, 4 MB) from which the queries run in the order of
                        # their leaves (``leaf_of``): 4 x 300,000 with k = 10, 20,000 queries,
                        # two cores: 121 -> 81 ms; 7 x 200,000, 50,000 queries: 409 -> 286;
                        # but 2 x 100,000: 16.9 -> 21.7 and 4 x 50,000: 15.1 -> 17.8, where
                        # the tree stays in the cache and the ordering only costs
START, END, LEFT, RIGHT = 0, 1, 2, 3


def search_method(algorithm, metric, n_rows, n_features, k):
    """"kd_tree" or "brute": the search ``KNeighborsClassifier`` uses.

    For "auto", with the Euclidean metric, the tree up to AUTO_DIMENSIONS features; from 7
    to 11 features when the rows are many (TREE_FROM_ROWS, times 1 + k / 10); else the
    brute force.  A brute-force query costs about n / 5,000 us on two cores whatever d (up
    to 16); a tree's grows with d, only as a small power of n, and more with k.  Fit and
    predict of 5,000 queries on two cores, Gaussian blobs (spread 1 and 2), the tree's time
    over the brute force's: at 7 features 1.0-1.3 at n = 5,000, 0.63-1.05 at 20,000 (k = 1
    to 20), 0.36-0.75 at 50,000; at 8 features 0.86-1.50 at 20,000, 0.51-1.04 at 50,000,
    0.31-0.61 at 200,000; at 9, 0.71-0.77 (k = 1) and 1.01-1.45 (k = 5, 20) at 50,000,
    0.41-0.90 at 200,000; at 10, 0.91-1.06 (k = 1) at 50,000, 0.53-0.94 (k = 1, 5) and
    1.07-1.47 (k = 20) at 200,000; at 11 features and 200,000 rows 0.70-0.85 for k = 1,
    1.04-1.84 for k = 5 and 20; at 12, 0.94-2.31.  At 6 features and 1,000 or 5,000 rows
    the tree takes 0.81-1.06 of the brute force's time, 1.19-1.28 only at k = 20 and
    n = 1,000 (11 ms against 9)."""
    if algorithm != "auto":
        return algorithm
    if metric != "euclidean":
        return "brute"
    if n_features <= AUTO_DIMENSIONS:
        return "kd_tree"
    least = TREE_FROM_ROWS.get(n_features)
    return "kd_tree" if least is not None and n_rows >= least * (1 + k / 10) else "brute"


def on_trial(algorithm, metric, n_rows, n_features, k):
    """Whether "auto" builds the tree and then lets it prove itself: from 7 to 11 features
    and from 1 / TRIAL_FRACTION of the rows where ``search_method`` takes the tree on.
    There the faster search depends on the data more than on the shape: clustered rows
    favour the tree far below TREE_FROM_ROWS, spread rows the brute force above it.  Fit
    and predict of n / 5 queries on two cores, the tree's time against the brute
    force's: 15,000 x 8, k = 1, Gaussian blobs of spread 1: 11.1 against 22.3 ms;
    10,000 x 7, k = 5, spread 0.3: 10.2 against 17.8; 36,696 x 8, k = 20: spread 0.3
    96.0 against 92.0, spread 1 106.3 against 93.2, uniform in the unit cube 68.4
    against 98.1; 60,000 x 10, k = 5, spread 0.5: 145 against 211.  So the fit builds the
    tree, the first search times its first queries (``query``), and when the brute
    force's estimated seconds (``knn.search_seconds``) for the rest are fewer, the
    search and every later one go to the brute force."""
    if algorithm != "auto" or metric != "euclidean" or n_features not in TREE_FROM_ROWS:
        return False
    least = TREE_FROM_ROWS[n_features] * (1 + k / 10)
    return least / TRIAL_FRACTION <= n_rows < least


def build(X):
    """(nodes, lower, upper, order, columns) of the tree over the rows of X: ``columns`` is
    X's rows in the order of ``order``, one feature a row (d x (n + LEAF)), so that a
    node's values of a feature lie side by side.  The splits move the values along with
    the row ids (``select``) and read them contiguously, and the queries read them instead
    of X (``leaf_sums``).  A second copy of X, cheaper than the gathers through ``order`` that it
    replaced: builds of 1,000,000 x 3 375 -> 218 ms on one core (228 -> 135 on two), and
    queries on one core of 17,211 x 4 with k = 50 31.2 -> 27.7 ms (3,442 queries), of
    100,000 x 2 with k = 5 17.5 -> 12.7 ms (20,000), both with the sorted lists.

    From PARALLEL_BUILD rows on, with threads, the top two levels are split here and the
    four subtrees below them grown on the threads (``grow_subtrees``), each in its own range
    of node slots; the ranges are then packed one after the other.  The tree is the same
    whichever path grows it (the same splits of the same segments of ``order``), only its
    nodes are numbered differently, and a query's answer never depends on the numbering."""
    n, d = X.shape
    order = np.arange(n, dtype=np.int64)
    # A copy (the splits reorder it), LEAF zeros wider than X: a leaf's sums read LEAF
    # values of a feature from its first row on, past the last row of the last leaf.
    columns = np.zeros((d, n + LEAF))
    columns[:, :n] = X.T
    threads = numba.get_num_threads()
    if n < PARALLEL_BUILD or threads < 2:
        nodes, lower, upper = node_arrays(n, d)
        n_nodes, _ = grow(columns, order, nodes, lower, upper, 0, n, -1,
                          np.empty(0, np.int64))
        return (nodes[:n_nodes].copy(), lower[:n_nodes].copy(), upper[:n_nodes].copy(),
                order, columns)
    top, top_lower, top_upper = node_arrays(n, d)
    frontier = np.empty(2 ** TOP_LEVELS, dtype=np.int64)
    n_top, n_frontier = grow(columns, order, top, top_lower, top_upper, 0, n, TOP_LEVELS,
                             frontier)
    frontier = frontier[:n_frontier]
    sizes = top[frontier, END] - top[frontier, START]
    capacities = np.array([node_capacity(size) for size in sizes], dtype=np.int64)
    offsets = np.concatenate(([0], np.cumsum(capacities)))
    nodes, lower, upper = (np.empty((offsets[-1], 4), dtype=np.int64),
                           np.empty((offsets[-1], d)), np.empty((offsets[-1], d)))
    counts = np.empty(n_frontier, dtype=np.int64)
    run_parallel(grow_subtrees_parallel, grow_subtrees_serial, n / PARALLEL_BUILD, columns,
                 order, top, frontier, offsets, nodes, lower, upper, counts, threads)
    return pack_subtrees(top[:n_top], top_lower[:n_top], top_upper[:n_top], frontier,
                         offsets, counts, nodes, lower, upper) + (order, columns)


def node_capacity(n):
    return 2 * max(1, -(-n // (LEAF // 2))) + 1


def node_arrays(n, d):
    capacity = node_capacity(n)
    return (np.empty((capacity, 4), dtype=np.int64), np.empty((capacity, d)),
            np.empty((capacity, d)))


def pack_subtrees(top, top_lower, top_upper, frontier, offsets, counts, nodes, lower, upper):
    """One node array: the top levels, then each subtree's nodes (its root's slot left in
    place, unreachable: the frontier node of the top takes the root's children)."""
    parts, lowers, uppers = [top.copy()], [top_lower], [top_upper]
    position = top.shape[0]
    for f in range(frontier.shape[0]):
        first, count = offsets[f], counts[f]
        block = nodes[first:first + count].copy()
        children = block[:, LEFT:RIGHT + 1]
        block[:, LEFT:RIGHT + 1] = np.where(children >= 0, children + position, -1)
        parts[0][frontier[f], LEFT:RIGHT + 1] = block[0, LEFT:RIGHT + 1]
        parts.append(block)
        lowers.append(lower[first:first + count])
        uppers.append(upper[first:first + count])
        position += count
    return np.concatenate(parts), np.concatenate(lowers), np.concatenate(uppers)


@kernel(parallel=True)
def grow_subtrees_parallel(columns, order, top, frontier, offsets, nodes, lower, upper, counts,
                           n_slots):
    """Subtree f below frontier node f, in node slots offsets[f]..offsets[f+1] (numbered
    from 0 there), on the threads, each claiming the next subtree until none is left."""
    counter = np.zeros(1, dtype=np.int64)
    for _ in numba.prange(n_slots):
        while True:
            f = claim(counter)
            if f >= frontier.shape[0]:
                break
            grow_subtree(columns, order, top, frontier, offsets, nodes, lower, upper, counts,
                         f)


@kernel
def grow_subtrees_serial(columns, order, top, frontier, offsets, nodes, lower, upper, counts,
                         n_slots):
    """``grow_subtrees_parallel`` on the calling thread (``n_slots`` unused)."""
    for f in range(frontier.shape[0]):
        grow_subtree(columns, order, top, frontier, offsets, nodes, lower, upper, counts, f)


@kernel
def grow_subtree(columns, order, top, frontier, offsets, nodes, lower, upper, counts, f):
    first, stop = offsets[f], offsets[f + 1]
    counts[f], _ = grow(columns, order, nodes[first:stop], lower[first:stop], upper[first:stop],
                        top[frontier[f], START], top[frontier[f], END], -1,
                        np.empty(0, np.int64))


@kernel
def grow(columns, order, nodes, lower, upper, start, end, levels, frontier):
    """Split nodes from the segment [start, end) of ``order`` (and of ``columns``, kept in
    step) until they hold LEAF rows or fewer; returns (the number of nodes, the number of
    frontier nodes).  With ``levels`` >= 0, nodes that many levels below the root are left
    unsplit and listed in ``frontier``."""
    d = columns.shape[0]
    stack = np.empty(128, dtype=np.int64)
    depth = np.empty(128, dtype=np.int64)
    nodes[0, START], nodes[0, END] = start, end
    stack[0], depth[0] = 0, 0
    n_nodes, top, n_frontier = 1, 1, 0
    while top > 0:
        top -= 1
        node, level = stack[top], depth[top]
        start, end = nodes[node, START], nodes[node, END]
        nodes[node, LEFT] = nodes[node, RIGHT] = -1
        widest, spread = 0, -1.0
        for j in range(d):
            low, high = np.inf, -np.inf
            for p in range(start, end):
                value = columns[j, p]
                low = min(low, value)
                high = max(high, value)
            lower[node, j], upper[node, j] = low, high
            if high - low > spread:
                widest, spread = j, high - low
        if end - start <= LEAF or not spread > 0.0:
            continue
        if level == levels:
            frontier[n_frontier] = node
            n_frontier += 1
            continue
        middle = (start + end) // 2
        select(columns, order, widest, start, end, middle)
        nodes[node, LEFT], nodes[node, RIGHT] = n_nodes, n_nodes + 1
        nodes[n_nodes, START], nodes[n_nodes, END] = start, middle
        nodes[n_nodes + 1, START], nodes[n_nodes + 1, END] = middle, end
        stack[top], stack[top + 1] = n_nodes, n_nodes + 1
        depth[top], depth[top + 1] = level + 1, level + 1
        top += 2
        n_nodes += 2
    return n_nodes, n_frontier


@kernel(refcounts=False)
def select(columns, order, j, start, end, middle):
    """Permute order[start:end], and the columns' entries with it, so that the row at
    ``middle`` has the median value of feature j: no row before it larger, none after it
    smaller (Hoare's quickselect)."""
    values = columns[j]
    lo, hi = start, end - 1
    while lo < hi:
        a, b, c = values[lo], values[(lo + hi) // 2], values[hi]
        pivot = max(min(a, b), min(max(a, b), c))           # median of three
        i, k = lo, hi
        while i <= k:
            while values[i] < pivot:
                i += 1
            while values[k] > pivot:
                k -= 1
            if i <= k:
                order[i], order[k] = order[k], order[i]
                for f in range(columns.shape[0]):
                    columns[f, i], columns[f, k] = columns[f, k], columns[f, i]
                i += 1
                k -= 1
        if middle <= k:
            hi = k
        elif middle >= i:
            lo = i
        else:
            return


@kernel(refcounts=False)
def box_distance(x, lower, upper):
    """The computed squared distance from x to the box [lower, upper]: per feature the
    larger of lower - x, x - upper and 0 (exactly the one that is positive, if any), without
    a branch (100,000 x 6, 20,000 queries with k = 5 on two cores: 125 -> 105 ms)."""
    total = 0.0
    for j in range(x.shape[0]):
        t = max(lower[j] - x[j], x[j] - upper[j], 0.0)
        total += t * t
    return total


@kernel(refcounts=False)
def box_bound(x_lanes, lower, upper, node):
    """``box_distance`` to box ``node`` on lanes: ``x_lanes`` (1 x w), ``lower`` and
    ``upper`` (n_nodes x w) padded with zeros from d to w, a multiple of LANES (a padded
    lane adds 0 exactly).  The squares are those of ``box_distance``; their sum runs in
    another order (``lane_sum``), which the pruning's error bound allows (the module's
    note: any order of the d additions errs by at most (d - 1) u of the sum).  One box
    of eight features in one pass instead of a chain of eight dependent additions."""
    total = splat(0.0)
    zero = splat(0.0)
    for c in range(0, x_lanes.shape[1], LANES):
        x = load(x_lanes, 0, c)
        t = larger(larger(load(lower, node, c) - x, x - load(upper, node, c)), zero)
        total = total + t * t
    return lane_sum(total)


def query(Xq, nodes, lower, upper, order, columns, out_squared, out_indices,
          other_seconds=None):
    """The k nearest training rows of every query by (refml's Q, training index): the
    first TIMED_QUERIES on the calling thread, timed, and the rest shared with helper
    threads (``helpers.run_claimed``) when their serial seconds, estimated from that
    time, reach LAUNCH_SECONDS.  A query's cost moves by orders of magnitude with d, k, n
    and the data's clustering, so a count of queries foretells little: 1,428 queries of
    k = 1 in 4 features take 1.7 ms on one core.  The helpers claim runs of QUERY_RUN
    queries and the calling thread never waits for one that has not started, so a late
    wake costs nothing: fit + predict after 0.25 s idle, nine calls each, the worst call
    against the median, on the 2-core machine of docs/performance.md: 13,712 x 3, k = 1,
    6,856 queries, 6.4 and 8.3 against 6.3 and 7.1 ms (19.5 and 13.8 with Numba's
    launch); 40,934 x 2, k = 10, 8,186 queries, 15.7 and 19.7 against 14.1 and 18.2 ms
    (23.1 and 35.4).
    In the order of the leaves they fall in (``leaf_of``) when the tree holds ORDERED_FROM
    values or more.  The boxes go to the queries padded to whole lanes (``box_bound``).
    Each query's answer is its own, whichever thread and order answer it.

    Returns the number of queries answered: all of them, or only the timed first ones when
    ``other_seconds`` (a function of a number of queries: another search's serial seconds
    for them) says that the rest would be answered faster another way (``on_trial``),
    twice: after the first TIMED_QUERIES, and after as many more, at the faster of the two
    rates."""
    ordered = columns.shape[0] * order.shape[0] >= ORDERED_FROM
    d = lower.shape[1]
    width = LANES * -(-d // LANES)
    lower_lanes, upper_lanes = np.zeros((lower.shape[0], width)), np.zeros((upper.shape[0], width))
    lower_lanes[:, :d], upper_lanes[:, :d] = lower, upper
    tree = (nodes, lower_lanes, upper_lanes, order, columns)
    n_slots = numba.get_num_threads()
    n_queries = Xq.shape[0]

    def answer(begin, stop, slots):  # the queries Xq[begin:stop]
        part = Xq[begin:stop]
        queue = np.arange(part.shape[0])
        if ordered:
            leaf = np.empty(part.shape[0], dtype=np.int64)
            run_claimed(leaves_claims, slots, part, nodes, lower_lanes, upper_lanes, leaf,
                        np.zeros(1, dtype=np.int64))
            queue = np.argsort(leaf, kind="mergesort")
        run_claimed(query_claims, slots, part, queue, *tree, out_squared[begin:stop],
                    out_indices[begin:stop], np.zeros(1, dtype=np.int64))

    def timed(begin, stop):  # serial seconds a query, over Xq[begin:stop]
        start = time.perf_counter()
        answer(begin, stop, 1)
        return (time.perf_counter() - start) / (stop - begin)

    first = min(n_queries, TIMED_QUERIES)
    if first == 0:
        return 0
    rate = timed(0, first)
    if other_seconds is not None and first < n_queries and \
            other_seconds(n_queries - first) < rate * (n_queries - first):
        # Confirmed on a second batch first: the first may have paid for cold caches or
        # the kernel's load from the cache (about 10 ms in a fresh process).
        second = min(n_queries, 2 * first)
        rate = min(rate, timed(first, second))
        first = second
        if first < n_queries and other_seconds(n_queries - first) < rate * (n_queries - first):
            return first
    if first < n_queries:
        answer(first, n_queries,
               n_slots if rate * (n_queries - first) >= LAUNCH_SECONDS else 1)
    return n_queries


@kernel
def query_claims(Xq, queue, nodes, lower, upper, order, columns, out_squared, out_indices,
                 counter):
    """The queries queue[...] in runs of QUERY_RUN, each claimed from ``counter`` until
    none is left (``helpers.run_claimed``)."""
    runs = (Xq.shape[0] + QUERY_RUN - 1) // QUERY_RUN
    while True:
        run = claim(counter)
        if run >= runs:
            break
        query_run(Xq, queue, nodes, lower, upper, order, columns, out_squared, out_indices,
                  run * QUERY_RUN, min(Xq.shape[0], (run + 1) * QUERY_RUN))


@kernel
def leaves_claims(Xq, nodes, lower, upper, leaf, counter):
    """leaf[q] = ``leaf_of`` query q, in runs of QUERY_RUN claimed from ``counter``."""
    runs = (Xq.shape[0] + QUERY_RUN - 1) // QUERY_RUN
    while True:
        run = claim(counter)
        if run >= runs:
            break
        for q in range(run * QUERY_RUN, min(Xq.shape[0], (run + 1) * QUERY_RUN)):
            leaf[q] = leaf_of(Xq[q], nodes, lower, upper)


@kernel(refcounts=False)
def leaf_of(x, nodes, lower, upper):
    """The first row (in ``order``) of the leaf x descends to, nearer box first.  The
    queries run sorted by it: queries near each other run one after the other and find the
    nodes and rows the previous one read still in the cache (ORDERED_FROM).  Each query's
    answer is its own whatever the order."""
    node = 0
    while nodes[node, LEFT] >= 0:
        left, right = nodes[node, LEFT], nodes[node, RIGHT]
        if box_distance(x, lower[right], upper[right]) < box_distance(x, lower[left],
                                                                        upper[left]):
            node = right
        else:
            node = left
    return nodes[node, START]


@kernel
def query_run(Xq, queue, nodes, lower, upper, order, columns, out_squared, out_indices,
              first, stop):
    """The queries queue[first:stop], with one stack for them all: a stack allocated per
    query (and the reference counts of the arrays it was handed) had cost about 170 ns of
    the query (68,693 x 2 with k = 1: 633 -> 451 ns on one core; k = 5: 954 -> 793)."""
    stack = np.empty(256, dtype=np.int64)
    bounds = np.empty(256)
    sums = np.empty((1, LEAF))
    x_lanes = np.zeros((1, lower.shape[1]))
    queries_in(Xq, queue, nodes, lower, upper, order, columns, out_squared, out_indices,
               first, stop, stack, bounds, sums, x_lanes)


@kernel(refcounts=False)
def queries_in(Xq, queue, nodes, lower, upper, order, columns, out_squared, out_indices,
               first, stop, stack, bounds, sums, x_lanes):
    """``query_run``'s loop over its queries, given its scratch: the views of a query's
    row and answers, made in a kernel with reference counts, had cost atomic counts each
    (50,000 x 2, k = 1, 50,000 queries: 16% of a thread's samples in the loop itself)."""
    d = columns.shape[0]
    shrink = 1.0 - 4.0 * (d + 4) * ROUNDOFF
    tiny = d * 2.0 ** -1060
    in_order = out_squared.shape[1] <= SORTED_UP_TO
    for position in range(first, stop):
        q = queue[position]
        x = Xq[q]
        for j in range(d):
            x_lanes[0, j] = x[j]
        query_one(x, x_lanes, nodes, lower, upper, order, columns, shrink, tiny,
                  out_squared[q], out_indices[q], stack, bounds, sums, in_order)


@kernel(refcounts=False)
def query_one(x, x_lanes, nodes, lower, upper, order, columns, shrink, tiny, keys, ids, stack,
              bounds, sums, in_order):
    """The k = len(keys) nearest rows to x, sorted by (Q, index), into keys and ids; the
    nearer child first, a box skipped when it cannot reach the k-th best (the module's
    note).  ``stack`` and ``bounds`` (256 each): the pending nodes and their boxes'
    squared distances; ``sums`` (1 x LEAF): a leaf's Q, LEAF rows at a time.  The k best
    are a sorted list when ``in_order`` (``heap.insert_sorted``: their worst at k - 1),
    else a heap (``heap.offer``: at 0)."""
    k = keys.shape[0]
    worst = k - 1 if in_order else 0
    stack[0], bounds[0] = 0, box_bound(x_lanes, lower, upper, 0)
    top, count = 1, 0
    while top > 0:
        top -= 1
        node = stack[top]
        if count == k and bounds[top] * shrink - tiny > keys[worst]:
            continue                      # no row of this box can reach the k best
        if nodes[node, LEFT] < 0:
            for first in range(nodes[node, START], nodes[node, END], LEAF):
                m = min(LEAF, nodes[node, END] - first)
                below = leaf_sums(x, columns, first, sums, keys[worst])
                if count == k and below & ((1 << m) - 1) == 0:
                    continue                  # none of these rows reaches the k best
                for p in range(m):
                    if count < k or sums[0, p] <= keys[worst]:
                        if in_order:
                            count = insert_sorted(keys, ids, count, sums[0, p],
                                                  order[first + p])
                        else:
                            count = offer(keys, ids, count, sums[0, p], order[first + p])
            continue
        left, right = nodes[node, LEFT], nodes[node, RIGHT]
        b_left = box_bound(x_lanes, lower, upper, left)
        b_right = box_bound(x_lanes, lower, upper, right)
        near, far, b_near, b_far = left, right, b_left, b_right
        if b_right < b_left:
            near, far, b_near, b_far = right, left, b_right, b_left
        stack[top], bounds[top] = far, b_far     # the nearer child is popped first
        stack[top + 1], bounds[top + 1] = near, b_near
        top += 2
    if not in_order:
        sort_heap(keys, ids, count)


@kernel(refcounts=False)
def leaf_sums(x, columns, first, sums, limit):
    """sums[0, p] = Q(x, the row at first + p of ``order``) for p < LEAF: refml's sum over
    the features left to right from 0.0, each row's own, in a lane of its own (``lanes``:
    each lane the IEEE difference, product and sum, as refml's).  The LEAF sums stay in
    four sets of lanes while the features run, feature j of the LEAF rows read at once
    from ``columns`` (rows past the leaf's last are summed too, and not read by the
    caller).  The loop over the rows, vectorised by Numba, had loaded and stored the sums
    at every feature: the sums of 10,000 queries at 94 leaves each (50,000 x 8) took
    160 -> 39 ms on one core.  Returns bit p set where sums[0, p] <= limit (never for
    NaN), so that a leaf none of whose rows can enter the k best is left at once."""
    s0 = s1 = s2 = s3 = splat(0.0)
    for j in range(x.shape[0]):
        xj = splat(x[j])
        d0 = xj - load(columns, j, first)
        d1 = xj - load(columns, j, first + LANES)
        d2 = xj - load(columns, j, first + 2 * LANES)
        d3 = xj - load(columns, j, first + 3 * LANES)
        s0, s1, s2, s3 = s0 + d0 * d0, s1 + d1 * d1, s2 + d2 * d2, s3 + d3 * d3
    store(sums, 0, 0, s0), store(sums, 0, LANES, s1)
    store(sums, 0, 2 * LANES, s2), store(sums, 0, 3 * LANES, s3)
    bound = splat(limit)
    return (at_most_bits(s0, bound) | at_most_bits(s1, bound) << LANES
            | at_most_bits(s2, bound) << 2 * LANES | at_most_bits(s3, bound) << 3 * LANES)
