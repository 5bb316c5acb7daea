"""A classification tree's bookkeeping: the node arrays, candidate features, thresholds.

``refml.tree`` grows the tree (impurities, the best split, the recursion); this module holds
what it works with.

Exact arithmetic contract with refml_fast (``refml_fast/tree/kernels.py``).  A split
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
# Weights and thresholds.


def total_weight(counts):
    """W = sum_k c_k, summed over the classes in order."""
    total = 0.0
    for c in counts:
        total += c
    return total


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
# The class totals of a node.


def class_totals(rows, codes, weights, n_classes):
    """c_k = sum of the weights of the class-k rows, summed in the order of ``rows``."""
    counts = [0.0] * n_classes
    for i in rows:
        counts[codes[i]] += weights[i]
    return counts


