"""Growing a classification tree: impurities, candidate features, the best split, growth.

[Yan] (Yan, "Classification tree", "How to grow a classification tree?", "Impurity
function").  A node R is split into R1(j, t) = {X in R : X_j <= t} and R2(j, t) = {X_j > t}
by the (j, t) that minimises

    |R1|/|R| gamma(R1) + |R2|/|R| gamma(R2),

with the Gini index gamma(R) = sum_k p_k (1 - p_k) or the cross-entropy
gamma(R) = -sum_k p_k log p_k (natural log), p_k the (weighted) fraction of class k in R.
(The lecture file prints the Gini index as "sum_k p_k (1 p_k)": the minus sign was lost in
extraction; sum_k p_k (1 - p_k) = 1 - sum_k p_k^2 is the Gini index, checked in
tests/test_tree.py on a 50/50 node, where it is 1/2.)  |R| is the same
for every candidate of a node, so the search minimises the *weighted impurity sum*

    cost(j, t) = |R1| gamma(R1) + |R2| gamma(R2),

where |R| gamma(R) is computed term by term as (c_k = weight of class k in R, W = |R|)

    Gini:     sum_k c_k ((W - c_k) / W)          (= W sum_k p_k (1 - p_k))
    entropy:  sum_k c_k (log W - log c_k)        (= -W sum_k p_k log p_k)

Both forms never divide by a vanishing weight, never overflow for finite weights, give 0.0
exactly for a pure node, and every term is >= 0.

Exact arithmetic contract with refml_fast (``refml_fast/_tree_kernels.py``).  A split
replaces the best one only on *strict* improvement, so the costs must be the same floats in
both packages.  They are, because both perform the same IEEE operations in the same order:
- the rows of a node are visited per feature in the order (value, training index);
- per feature, the class totals are summed in that order, the left class weights are the
  running prefix sums in that order, the right ones are ``total_k - left_k`` (>= 0, since
  prefix sums of non-negative numbers never decrease);
- W of a side is sum_k c_k over classes in order 0..K-1; terms with c_k = 0 are skipped;
- the side sums are added left + right; ``math.log`` in Numba is the same libm call as in
  Python (numpy's vectorised ``np.log`` is not, and is never used for this).
With integer weights every sum is an exact integer, so a row of weight m and m repeated
rows give exactly the same floats and the same tree.

Tie rules (docs/design.md section 4): candidate features in column order, thresholds ascending, a
candidate replaces the best only if its cost is strictly smaller; the threshold is the
midpoint between consecutive distinct values.
"""

import math
import sys

GINI, ENTROPY = 0, 1  # criterion codes, shared with the refml_fast kernels
CRITERIA = {"gini": GINI, "entropy": ENTROPY}
LEAF = -1             # children and feature of a leaf


class Tree:
    """A fitted binary tree as parallel arrays indexed by node id (root = 0, ids in preorder).

    ``children_left[i]``, ``children_right[i]``: child ids, ``LEAF`` (-1) for a leaf.
    ``feature[i]``, ``threshold[i]``: the split X_feature <= threshold goes left (-1 and 0.0
    at a leaf).  ``value[i]``: the weighted class totals c_k of node i (classes_ order).
    ``impurity[i]``: gamma of node i.  ``n_node_samples[i]``: training rows in node i.
    ``weighted_n_node_samples[i]``: W = sum_k value[i][k].
    In refml these are lists; in refml_fast numpy arrays with the same contents.
    """

    FIELDS = ("children_left", "children_right", "feature", "threshold", "value",
              "impurity", "n_node_samples", "weighted_n_node_samples")

    def __init__(self, n_classes):
        self.n_classes = n_classes
        for name in self.FIELDS:
            setattr(self, name, [])

    @property
    def node_count(self):
        return len(self.feature)

    def add_node(self, counts, n_rows, impurity):
        """Append a leaf with class totals ``counts``; return its id."""
        self.children_left.append(LEAF)
        self.children_right.append(LEAF)
        self.feature.append(LEAF)
        self.threshold.append(0.0)
        self.value.append(list(counts))
        self.impurity.append(impurity)
        self.n_node_samples.append(n_rows)
        self.weighted_n_node_samples.append(total_weight(counts))
        return self.node_count - 1


# ---------------------------------------------------------------------------------------
# Impurities: |R| gamma(R) from the class weights c_k of R.


def total_weight(counts):
    """W = sum_k c_k, summed over the classes in order."""
    total = 0.0
    for c in counts:
        total += c
    return total


def weighted_gini(counts, total):
    """W sum_k p_k (1 - p_k), as sum_k c_k ((W - c_k) / W)."""
    s = 0.0
    for c in counts:
        if c > 0.0:
            s += c * ((total - c) / total)
    return s


def weighted_entropy(counts, total):
    """-W sum_k p_k log p_k, as sum_k c_k (log W - log c_k) (no p_k to underflow)."""
    s = 0.0
    log_total = math.log(total)
    for c in counts:
        if c > 0.0:
            s += c * (log_total - math.log(c))
    return s


WEIGHTED_IMPURITY = {GINI: weighted_gini, ENTROPY: weighted_entropy}


def node_impurity(counts, total, criterion):
    """gamma(R) itself: the weighted impurity sum divided by W (0.0 for W = 0)."""
    if total <= 0.0:
        return 0.0
    return WEIGHTED_IMPURITY[criterion](counts, total) / total


def midpoint(a, b):
    """The threshold between consecutive distinct values a < b: (a + b)/2 without overflow,
    moved down to a if rounding put it on b (then X_j <= t still separates a from b)."""
    t = 0.5 * a + 0.5 * b
    if t < a or t >= b:
        t = a
    return t


# ---------------------------------------------------------------------------------------
# The candidate features of a node (random forests: a fresh subset at every split).


def is_constant(X, rows, j):
    """True if feature j takes a single value on the rows of the node."""
    first = X[rows[0]][j]
    for i in rows:
        if X[i][j] != first:
            return False
    return True


def candidate_features(X, rows, n_features, n_candidates, rng):
    """The features searched at this node, in column order.

    With n_candidates >= d: every feature that is not constant on the node (no random
    draw).  Otherwise features are drawn without replacement by a partial Fisher-Yates
    shuffle of 0..d-1 (position i swaps with i + randbelow(d - i)) until ``n_candidates``
    non-constant ones are found or all d are drawn; a constant feature drawn does not count
    (as in scikit-learn), so a fully grown forest tree still reaches pure leaves.
    """
    if n_candidates >= n_features:
        return [j for j in range(n_features) if not is_constant(X, rows, j)]
    order = list(range(n_features))
    chosen = []
    i = 0
    while i < n_features and len(chosen) < n_candidates:
        j = i + rng.randbelow(n_features - i)
        order[i], order[j] = order[j], order[i]
        if not is_constant(X, rows, order[i]):
            chosen.append(order[i])
        i += 1
    return sorted(chosen)


# ---------------------------------------------------------------------------------------
# The best split of a node.


def best_split(X, codes, weights, rows, features, n_classes, criterion):
    """(feature, threshold, left rows, right rows, left counts, right counts), or None.

    For each feature in ``features`` (column order), rows are sorted by (value, index) and
    every boundary between consecutive distinct values is a candidate threshold
    (ascending); the cost |R1| gamma(R1) + |R2| gamma(R2) must be strictly smaller than the
    best so far to replace it.  A boundary leaving zero weight on one side is no split.
    """
    impurity = WEIGHTED_IMPURITY[criterion]
    best_cost = math.inf
    best = None
    for j in features:
        ordered = sorted(rows, key=lambda i: (X[i][j], i))
        totals = [0.0] * n_classes
        for i in ordered:
            totals[codes[i]] += weights[i]
        left = [0.0] * n_classes
        for position in range(len(ordered) - 1):
            i = ordered[position]
            left[codes[i]] += weights[i]
            a, b = X[i][j], X[ordered[position + 1]][j]
            if not a < b:
                continue  # no threshold between equal values
            right = [totals[k] - left[k] for k in range(n_classes)]
            w_left, w_right = total_weight(left), total_weight(right)
            if w_left <= 0.0 or w_right <= 0.0:
                continue
            cost = impurity(left, w_left) + impurity(right, w_right)
            if cost < best_cost:
                best_cost = cost
                best = (j, midpoint(a, b), ordered[:position + 1], ordered[position + 1:],
                        list(left), right)
    return best


# ---------------------------------------------------------------------------------------
# Growing the tree.


def class_totals(rows, codes, weights, n_classes):
    """c_k = sum of the weights of the class-k rows, summed in the order of ``rows``."""
    counts = [0.0] * n_classes
    for i in rows:
        counts[codes[i]] += weights[i]
    return counts


def is_leaf(counts, depth, settings):
    """The stopping rules, in order: depth limit, fewer than n0 (weighted) points, purity."""
    if settings["max_depth"] is not None and depth >= settings["max_depth"]:
        return True
    if total_weight(counts) < settings["min_samples_split"]:
        return True
    return sum(1 for c in counts if c > 0.0) <= 1


def grow(X, codes, weights, n_classes, settings, rng):
    """The fully grown (unpruned) tree, depth first, left child first (ids in preorder).

    ``settings``: criterion (code), max_depth (None = no limit), min_samples_split (n0,
    compared with the node's total weight), n_candidates (features searched per node).
    A node that passes the stopping rules but has no split (every candidate feature
    constant on it) is a leaf.  A split is made even if it lowers the impurity by nothing
    (XOR: the first split of a fully grown tree may gain nothing, the next ones everything).
    """
    tree = Tree(n_classes)
    rows = list(range(len(X)))
    limit = sys.getrecursionlimit()     # a chain of splits may be as deep as n - 1
    sys.setrecursionlimit(max(limit, len(X) + 200))
    try:
        grow_node(tree, X, codes, weights, rows, class_totals(rows, codes, weights, n_classes),
                  0, settings, rng)
    finally:
        sys.setrecursionlimit(limit)
    return tree


def grow_node(tree, X, codes, weights, rows, counts, depth, settings, rng):
    """CART at one node ([Yan], classification trees): a leaf if a stopping rule holds or no
    split exists; else the best split, then the left subtree, then the right.  Returns the
    node's id."""
    node = tree.add_node(counts, len(rows),
                         node_impurity(counts, total_weight(counts), settings["criterion"]))
    if is_leaf(counts, depth, settings):
        return node
    features = candidate_features(X, rows, len(X[0]), settings["n_candidates"], rng)
    split = best_split(X, codes, weights, rows, features, tree.n_classes, settings["criterion"])
    if split is None:
        return node
    feature, threshold, left_rows, right_rows, left_counts, right_counts = split
    tree.feature[node] = feature
    tree.threshold[node] = threshold
    tree.children_left[node] = grow_node(tree, X, codes, weights, left_rows, left_counts,
                                         depth + 1, settings, rng)
    tree.children_right[node] = grow_node(tree, X, codes, weights, right_rows, right_counts,
                                          depth + 1, settings, rng)
    return node
