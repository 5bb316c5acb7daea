"""Classification trees (CART): [Yan], "Classification tree" to "Insights".

The feature space is partitioned recursively into rectangles by binary splits: a node R is
split into R1(j, t) = {X in R : X_j <= t} and R2(j, t) = {X in R : X_j > t} by the (j, t)
that minimises

    |R1|/|R| gamma(R1) + |R2|/|R| gamma(R2),

with the Gini index gamma(R) = sum_k p_k (1 - p_k) or the cross-entropy
gamma(R) = -sum_k p_k log p_k (natural log), p_k the (weighted) fraction of class k in R.
A new point gets the majority label of its rectangle R_j,

    f(x) = argmax_k sum_{X_i in R_j} w_i 1{Y_i = k}.

The module reads: 1. the impurities, 2. the best split of a node, 3. the recursion that
grows the tree, 4. the prediction, 5. the estimator, which validates and stores.  The node
arrays, the candidate features of random forests and the float contract with refml_fast are
in ``split``; cost-complexity pruning is in ``prune``.

|R| is the same for every candidate of a node, so the search minimises the weighted
impurity sum cost(j, t) = |R1| gamma(R1) + |R2| gamma(R2), with |R| gamma(R) computed term by
term from the class weights c_k and W = |R|:

    Gini:     (sum_k c_k (W - c_k)) / W          (= W sum_k p_k (1 - p_k))
              sum_k c_k ((W - c_k) / W)          when W < 2^-200 or W > 2^500
    entropy:  sum_k c_k (log W - log c_k)        (= -W sum_k p_k log p_k)

They never divide by a vanishing weight, never overflow for finite weights, and give 0.0
exactly for a pure node.  The Gini sum has only non-negative terms (c_k <= W), so it
cancels nothing; it divides once per node, and for whole-number weights its numerator is
an exact integer, which lets refml_fast find it in O(1) per row instead of O(K).  Only for
extreme W, where c_k (W - c_k) could overflow or underflow, does it divide class by class.

On the print: the lecture file prints the Gini index as "sum_k p_k (1 p_k)", the minus
sign lost in extraction; sum_k p_k (1 - p_k) = 1 - sum_k p_k^2 is the Gini index
(tests/test_tree.py checks 1/2 on a 50/50 node).
"""

import math
import numbers
import sys

from refml.core import validation
from refml.core.base import WeightedClassifier
from refml.core.linalg import argmax
from refml.core.random import check_random_state
from refml.tree import histogram as _histogram
from refml.tree import text as _tree_text
from refml.tree.prune import prune
from refml.tree.split import (
    CRITERIA,
    ENTROPY,
    GINI,
    LEAF,
    Tree,
    candidate_features,
    class_totals,
    midpoint,
    total_weight,
)

# ----------------------------------------------------------------------------------------
# 1. The impurities: |R| gamma(R) from the class weights c_k of R.


TINY_WEIGHT, HUGE_WEIGHT = 2.0 ** -200, 2.0 ** 500  # outside, c (W - c) may under/overflow


def weighted_gini(counts, total):
    """W sum_k p_k (1 - p_k), as (sum_k c_k (W - c_k)) / W (class by class for extreme W)."""
    s = 0.0
    if not TINY_WEIGHT <= total <= HUGE_WEIGHT:
        for c in counts:
            s += c * ((total - c) / total)
        return s
    for c in counts:
        s += c * (total - c)
    return s / total


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

# ----------------------------------------------------------------------------------------
# 2. The best split of a node.


def best_split(X, codes, weights, rows, features, n_classes, criterion, min_leaf=1):
    """(feature, threshold, left rows, right rows, left counts, right counts), or None.

    For each feature in ``features`` (column order), rows are sorted by (value, index) and
    every boundary between consecutive distinct values is a candidate threshold
    (ascending); the cost |R1| gamma(R1) + |R2| gamma(R2) must be strictly smaller than the
    best so far to replace it.  A boundary leaving zero weight, or fewer than ``min_leaf``
    rows, on one side is no split.
    """
    impurity = WEIGHTED_IMPURITY[criterion]
    best_cost = math.inf
    best = None
    for j in features:
        pairs = sorted([(X[i][j], i) for i in rows])       # by value, then row index
        ordered, values = [i for _, i in pairs], [v for v, _ in pairs]
        n_node = len(ordered)
        totals = [0.0] * n_classes
        for i in ordered:
            totals[codes[i]] += weights[i]
        left, right = [0.0] * n_classes, list(totals)
        for position in range(n_node - 1):
            i = ordered[position]                   # row i moves to the left side:
            k = codes[i]
            left[k] += weights[i]
            right[k] = totals[k] - left[k]          # (the other classes' c_k stay)
            if not values[position] < values[position + 1]:
                continue  # no threshold between equal values
            if position + 1 < min_leaf or n_node - position - 1 < min_leaf:
                continue  # a side with fewer rows than min_samples_leaf
            w_left, w_right = total_weight(left), total_weight(right)
            if w_left <= 0.0 or w_right <= 0.0:
                continue
            cost = impurity(left, w_left) + impurity(right, w_right)
            if cost < best_cost:
                best_cost = cost
                best = (j, ordered, values, position, list(left), list(right))
    if best is None:
        return None
    j, ordered, values, position, left, right = best
    return (j, midpoint(values[position], values[position + 1]), ordered[:position + 1],
            ordered[position + 1:], left, right)

# ----------------------------------------------------------------------------------------
# 3. Growing the tree: the recursion.


def is_leaf(counts, n_rows, depth, settings):
    """The stopping rules, in order: depth limit, fewer than n0 rows, purity."""
    if settings["max_depth"] is not None and depth >= settings["max_depth"]:
        return True
    if n_rows < settings["min_samples_split"]:
        return True
    return sum(1 for c in counts if c > 0.0) <= 1


def grow(X, codes, weights, n_classes, settings, rng):
    """The fully grown (unpruned) tree, depth first, left child first (ids in preorder).

    ``settings``: criterion (code), max_depth (None = no limit), min_samples_split (n0,
    compared with the node's number of rows), min_samples_leaf (rows each side of a split
    keeps), n_candidates (features searched per node).
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
    if is_leaf(counts, len(rows), depth, settings):
        return node
    features = candidate_features(X, rows, len(X[0]), settings["n_candidates"], rng)
    split = best_split(X, codes, weights, rows, features, tree.n_classes, settings["criterion"],
                       settings["min_samples_leaf"])
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

# ----------------------------------------------------------------------------------------
# 4. The prediction: the leaf of x, and its majority class.


def leaf_of(x, tree):
    """Descend from the root: left when x_j <= t, right otherwise, down to a leaf."""
    node = 0
    while tree.children_left[node] != LEAF:
        if x[tree.feature[node]] <= tree.threshold[node]:
            node = tree.children_left[node]
        else:
            node = tree.children_right[node]
    return node


def majority_class(counts):
    """argmax_k c_k, the first class among ties."""
    return argmax(counts)


# ----------------------------------------------------------------------------------------
# 5. The estimator.


class DecisionTreeClassifier(WeightedClassifier):
    """A classification tree grown greedily by minimising the weighted impurity.

    Parameters
    ----------
    criterion : "gini" or "entropy"
        gamma(R) = sum_k p_k (1 - p_k) or -sum_k p_k log p_k ([Yan], "Impurity function").
    max_depth : int >= 1 or None
        A node at this depth (the root has depth 0) is a leaf.  None: no limit.
    min_samples_split : int >= 2
        The lecture's n0: a node holding fewer than n0 points is a leaf.  Points are rows
        (of positive weight), whatever their weights, as scikit-learn counts them: weights
        enter the impurity and the leaves' votes only, so uniform weights of any scale
        (AdaBoost's 1/n, 1e-5 everywhere) grow the unweighted tree, up to the rounding of
        near-ties between splits.  A row of integer weight m is therefore one point here,
        not m repeated rows (it weighs as m of them in the impurity).
    min_samples_leaf : int >= 1 or float in (0, 1), default 1
        A split must leave at least this many rows (of positive weight) on each side;
        a float is a fraction of the training rows, rounded up (scikit-learn's reading).
        Beyond the lectures, which grow until n0; 1 is the lecture's tree.
    max_features : None, int, float in (0, 1], "sqrt" or "log2"
        How many features are searched at each split (random forests: m = sqrt(d)).  None:
        all d.  A float is a fraction of d, rounded down (at least 1).  Below d, a fresh
        random subset is drawn at every node from ``random_state``; drawn features that are
        constant on the node do not count (see ``split.candidate_features``).
    ccp_alpha : float >= 0
        Minimal cost-complexity pruning: the smallest subtree minimising
        R(T) + ccp_alpha |T| (``prune``).  0.0: no pruning.
    random_state : int, None, ``refml.core.random.Generator``, numpy RandomState or Generator
        The seed of the feature draws (used only when max_features < d).  A Generator is
        used, and advanced, in place: an ensemble hands each tree its own substream.
    max_bins : int >= 2 or None, default None
        None: exact CART, every boundary between distinct values a candidate.  An integer
        B: a histogram tree (beyond the lectures, ``histogram``): each feature is cut once
        into at most B bins at quantiles of the training rows (of positive weight), and
        splits fall between bins only, at their edges.  With at most B distinct values in
        every feature it partitions the training rows as exact CART does.

    Attributes
    ----------
    classes_, n_classes_, n_features_in_ : the labels, their number, d.
    max_features_ : int, the number m of features searched per split.
    tree_ : ``split.Tree``, the fitted tree as parallel arrays indexed by node id
        (root 0, preorder): children_left, children_right (-1 at a leaf), feature (-1 at a
        leaf), threshold (X_feature <= threshold goes left), value (weighted class totals),
        impurity (gamma), n_node_samples (rows), weighted_n_node_samples (W).

    Notes
    -----
    Stopping rules, in this order (``is_leaf``): depth == max_depth; W <
    min_samples_split; the node is pure (one class of positive weight); no candidate
    feature takes two distinct values on the node (e.g. every feature constant there).
    Otherwise the node is split by the best candidate, even when the split lowers the
    impurity by nothing: on XOR data the first split gains nothing and the next ones
    everything, and the lecture's fully grown tree must fit its training data.

    Ties (docs/design.md section 4): features in column order, thresholds ascending,
    replacement only on strict improvement; thresholds are midpoints between consecutive
    distinct values.
    Leaf votes: the largest weighted class total, ties to the first class in ``classes_``.

    ``fit(X, y, sample_weight)``: rows of weight 0 are removed before growing (their values
    then yield no thresholds); negative, NaN or infinite weights, or all-zero weights, raise
    ``ValueError``.  A class whose rows all have weight 0 stays in ``classes_`` with
    probability 0 everywhere.  The weights are first divided by the smallest positive one
    (``validation.relative_weights``): only their ratios matter, and uniform weights of any
    scale become exactly the unweighted fit; ``tree_.value`` and
    ``weighted_n_node_samples`` are in units of that lightest row.

    Invariances (conformance item 20): the rows' order, the classes' names, the features'
    common scale, every row twice and uniform weights of any scale change no prediction.
    The features' order can: of splits that lower the impurity exactly equally (the
    impurity depends on class counts, so such ties are common on small data) the first
    feature wins.

    Examples
    --------
    >>> tree = DecisionTreeClassifier().fit([[0.0], [1.0], [2.0], [3.0]], ["a", "a", "b", "b"])
    >>> tree.predict([[0.4], [2.6]])
    ['a', 'b']
    >>> print(tree.to_text())
    |--- x0 <= 1.50
    |   |--- class: a
    |--- x0 >  1.50
    |   |--- class: b
    """

    _state_classes = (Tree,)           # what a model file may hold (core.model_files)

    def __init__(self, *, criterion="gini", max_depth=None, min_samples_split=2,
                 min_samples_leaf=1, max_features=None, ccp_alpha=0.0, random_state=None,
                 max_bins=None):
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.max_features = max_features
        self.ccp_alpha = ccp_alpha
        self.random_state = random_state
        self.max_bins = max_bins

    def _check_params(self, X):
        validation.check_option(self.criterion, "criterion", tuple(CRITERIA))
        if self.max_depth is not None:
            validation.check_scalar(self.max_depth, "max_depth", "int", low=1)
        validation.check_scalar(self.min_samples_split, "min_samples_split", "int", low=2)
        if isinstance(self.min_samples_leaf, numbers.Integral):
            validation.check_scalar(self.min_samples_leaf, "min_samples_leaf", "int", low=1)
        else:
            validation.check_scalar(self.min_samples_leaf, "min_samples_leaf", "real",
                                    low=0.0, high=1.0, low_open=True, high_open=True)
        validation.check_scalar(self.ccp_alpha, "ccp_alpha", "real", low=0.0)
        if self.max_bins is not None:
            validation.check_scalar(self.max_bins, "max_bins", "int", low=2)
        self._n_candidates(self._n_rows_cols(X)[1])

    def _min_leaf(self, weights):
        """min_samples_leaf in rows: a fraction of the rows of positive weight, rounded up."""
        if isinstance(self.min_samples_leaf, numbers.Integral):
            return int(self.min_samples_leaf)
        n_kept = sum(1 for w in weights if w > 0.0)
        return max(1, math.ceil(self.min_samples_leaf * n_kept))

    def _n_candidates(self, n_features):
        """m, the number of features searched per split, from ``max_features``."""
        m = self.max_features
        if m is None:
            return n_features
        if isinstance(m, str):
            validation.check_option(m, "max_features", ("sqrt", "log2"))
            root = math.isqrt(n_features) if m == "sqrt" else int(math.log2(n_features))
            return max(1, root)
        if isinstance(m, numbers.Integral):
            return validation.check_scalar(m, "max_features", "int", low=1, high=n_features)
        validation.check_scalar(m, "max_features", "real", low=0.0, high=1.0, low_open=True)
        return max(1, int(m * n_features))

    def _fit(self, X, codes, weights):
        self.n_classes_ = len(self.classes_)
        self.max_features_ = self._n_candidates(self.n_features_in_)
        rng = check_random_state(self.random_state)
        settings = {"criterion": CRITERIA[self.criterion], "max_depth": self.max_depth,
                    "min_samples_split": self.min_samples_split,
                    "min_samples_leaf": self._min_leaf(weights),
                    "n_candidates": self.max_features_}
        edges = self.__dict__.pop("_given_edges", None)   # a forest's: X holds its codes
        if edges is None and self.max_bins is not None:
            edges = self._bin_edges(X, weights, int(self.max_bins))
            X = self._bins.binned(X, edges)
        grown = self._grow(X, codes, self._relative_weights(weights), settings, rng)
        if edges is not None:
            grown = self._bins.edge_thresholds(grown, edges)
        self.tree_ = self._prune(grown)

    # --- histogram trees (max_bins) --------------------------------------------------------
    _bins = _histogram       # the module of bin_edges, binned, edge_thresholds (refml_fast's)

    @classmethod
    def _bin_edges(cls, X, weights, max_bins):
        """The bins' edges of every feature, from the rows of positive weight."""
        return cls._bins.bin_edges(cls._positive_rows(X, weights), max_bins)

    @staticmethod
    def _positive_rows(X, weights):
        return [x for x, w in zip(X, weights) if w > 0.0]

    def _grow(self, X, codes, weights, settings, rng):
        """The unpruned tree on the rows of positive weight."""
        kept = [i for i, w in enumerate(weights) if w > 0.0]
        return grow([X[i] for i in kept], [codes[i] for i in kept], [weights[i] for i in kept],
                    self.n_classes_, settings, rng)

    def _prune(self, tree):
        return prune(tree, WEIGHTED_IMPURITY[CRITERIA[self.criterion]], float(self.ccp_alpha))

    # --- prediction ----------------------------------------------------------------------
    def apply(self, X):
        """The id of the leaf each row of X falls into."""
        return self._apply(self._validate_predict(X))

    def _apply(self, X):
        return [leaf_of(x, self.tree_) for x in X]

    def _predict_codes(self, X):
        return self._leaf_codes(self._apply(X))

    def _leaf_codes(self, leaves):
        """The majority class of each leaf (ties: the first class in classes_ order)."""
        return [majority_class(self.tree_.value[leaf]) for leaf in leaves]

    def predict_proba(self, X):
        """p_k of the leaf each row falls into: its weighted class frequencies c_k / W."""
        X = self._validate_predict(X)
        return self._as_output(self._leaf_proba(self._apply(X)))

    def _leaf_proba(self, leaves):
        tree = self.tree_
        return [[c / tree.weighted_n_node_samples[leaf] for c in tree.value[leaf]]
                for leaf in leaves]

    # --- inspection ----------------------------------------------------------------------
    def get_depth(self):
        """The depth of the tree: the largest depth of a leaf (a single leaf has depth 0)."""
        self._check_is_fitted()
        return max(_tree_text.node_depths(self.tree_))

    def get_n_leaves(self):
        """The number of leaves (rectangles R_1, ..., R_M of the lecture)."""
        self._check_is_fitted()
        return sum(1 for left in self.tree_.children_left if left == LEAF)

    def to_text(self, feature_names=None, decimals=2, show_weights=False, max_depth=None):
        """The fitted tree as indented text, one line per branch and leaf.

        A split prints ``name <= t`` (left, taken when X_j <= t) then ``name >  t``; a leaf
        prints ``class: label`` (with ``show_weights``: its weighted class totals first).
        Feature names default to x0, x1, ...; branches deeper than ``max_depth`` print as
        "truncated branch of depth h".
        """
        self._check_is_fitted()
        names = self._feature_names(feature_names)
        return _tree_text.render(self.tree_, names, self.classes_, decimals, show_weights,
                                 max_depth)

    def _feature_names(self, feature_names):
        if feature_names is None:
            return [f"x{j}" for j in range(self.n_features_in_)]
        names = [str(name) for name in feature_names]
        if len(names) != self.n_features_in_:
            raise ValueError(f"feature_names has {len(names)} names, but the tree has "
                             f"{self.n_features_in_} features")
        return names
