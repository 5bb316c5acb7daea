"""Classification trees (CART), as in [Yan] (Yan), "Classification tree" to "Insights".

The feature space is partitioned recursively into rectangles by binary splits X_j <= t,
each chosen to minimise the impurity |R1|/|R| gamma(R1) + |R2|/|R| gamma(R2) (Gini or
cross-entropy); a new point gets the majority label of its rectangle R_j,

    f(x) = argmax_k sum_{X_i in R_j} w_i 1{Y_i = k}.

The growing rules live in ``_tree_split`` (impurities, candidate features, best split,
stopping rules) and the cost-complexity pruning in ``_tree_prune``; this module holds the
estimator, prediction and the text rendering.
"""

import math
import numbers

from . import _validation as validation
from ._linalg import argmax
from ._random import check_random_state
from ._tree_prune import prune
from ._tree_split import CRITERIA, LEAF, grow
from .base import WeightedClassifier


class DecisionTreeClassifier(WeightedClassifier):
    """A classification tree grown greedily by minimising the weighted impurity.

    Parameters
    ----------
    criterion : "gini" or "entropy"
        gamma(R) = sum_k p_k (1 - p_k) or -sum_k p_k log p_k ([Yan], "Impurity function").
    max_depth : int >= 1 or None
        A node at this depth (the root has depth 0) is a leaf.  None: no limit.
    min_samples_split : int >= 2
        The lecture's n0: a node holding fewer than n0 points is a leaf.  Points are counted
        by weight (the node's total sample weight W), so that a row of integer weight m is
        exactly m repeated rows; with unit weights this is the number of rows.  Weights that
        sum to 1 (e.g. AdaBoost's 1/n) therefore stop at the root: pass them scaled to a
        mean of 1 (n w_i / sum w).
    max_features : None, int, float in (0, 1], "sqrt" or "log2"
        How many features are searched at each split (random forests: m = sqrt(d)).  None:
        all d.  A float is a fraction of d, rounded down (at least 1).  Below d, a fresh
        random subset is drawn at every node from ``random_state``; drawn features that are
        constant on the node do not count (see ``_tree_split.candidate_features``).
    ccp_alpha : float >= 0
        Minimal cost-complexity pruning: the smallest subtree minimising
        R(T) + ccp_alpha |T| (``_tree_prune``).  0.0: no pruning.
    random_state : int, None or ``refml._random.Generator``
        The seed of the feature draws (used only when max_features < d).  A Generator is
        used, and advanced, in place: an ensemble hands each tree its own substream.

    Attributes
    ----------
    classes_, n_classes_, n_features_in_ : the labels, their number, d.
    max_features_ : int, the number m of features searched per split.
    tree_ : ``_tree_split.Tree``, the fitted tree as parallel arrays indexed by node id
        (root 0, preorder): children_left, children_right (-1 at a leaf), feature (-1 at a
        leaf), threshold (X_feature <= threshold goes left), value (weighted class totals),
        impurity (gamma), n_node_samples (rows), weighted_n_node_samples (W).

    Notes
    -----
    Stopping rules, in this order (``_tree_split.is_leaf``): depth == max_depth; W <
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
    probability 0 everywhere.

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

    def __init__(self, *, criterion="gini", max_depth=None, min_samples_split=2,
                 max_features=None, ccp_alpha=0.0, random_state=None):
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.max_features = max_features
        self.ccp_alpha = ccp_alpha
        self.random_state = random_state

    def _check_params(self, X):
        validation.check_option(self.criterion, "criterion", tuple(CRITERIA))
        if self.max_depth is not None:
            validation.check_scalar(self.max_depth, "max_depth", "int", low=1)
        validation.check_scalar(self.min_samples_split, "min_samples_split", "int", low=2)
        validation.check_scalar(self.ccp_alpha, "ccp_alpha", "real", low=0.0)
        self._n_candidates(self._n_rows_cols(X)[1])

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
                    "n_candidates": self.max_features_}
        grown = self._grow(X, codes, weights, settings, rng)
        self.tree_ = self._prune(grown)

    def _grow(self, X, codes, weights, settings, rng):
        """The unpruned tree on the rows of positive weight."""
        kept = [i for i, w in enumerate(weights) if w > 0.0]
        return grow([X[i] for i in kept], [codes[i] for i in kept], [weights[i] for i in kept],
                    self.n_classes_, settings, rng)

    def _prune(self, tree):
        return prune(tree, CRITERIA[self.criterion], float(self.ccp_alpha))

    # --- prediction ----------------------------------------------------------------------
    def apply(self, X):
        """The id of the leaf each row of X falls into."""
        return self._apply(self._validate_predict(X))

    def _apply(self, X):
        tree = self.tree_
        leaves = []
        for row in X:
            node = 0
            while tree.children_left[node] != LEAF:
                if row[tree.feature[node]] <= tree.threshold[node]:
                    node = tree.children_left[node]
                else:
                    node = tree.children_right[node]
            leaves.append(node)
        return leaves

    def _predict_codes(self, X):
        return self._leaf_codes(self._apply(X))

    def _leaf_codes(self, leaves):
        """The majority class of each leaf (ties: the first class in classes_ order)."""
        return [argmax(self.tree_.value[leaf]) for leaf in leaves]

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
        return max(_node_depths(self.tree_))

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
        tree = self.tree_
        depths = _node_depths(tree)
        lines = []
        pending = [(0, 0)]
        while pending:
            item = pending.pop()
            if isinstance(item, str):
                lines.append(item)
                continue
            node, depth = item
            indent = "|   " * depth + "|--- "
            if tree.children_left[node] == LEAF:
                lines.append(indent + self._leaf_text(node, decimals, show_weights))
            elif max_depth is not None and depth > max_depth:
                height = _subtree_depth(tree, node, depths)
                lines.append(indent + f"truncated branch of depth {height}")
            else:
                name = names[int(tree.feature[node])]
                threshold = f"{float(tree.threshold[node]):.{decimals}f}"
                pending.append((int(tree.children_right[node]), depth + 1))
                pending.append(f"{indent}{name} >  {threshold}")
                pending.append((int(tree.children_left[node]), depth + 1))
                pending.append(f"{indent}{name} <= {threshold}")
        return "\n".join(lines)

    def _feature_names(self, feature_names):
        if feature_names is None:
            return [f"x{j}" for j in range(self.n_features_in_)]
        names = [str(name) for name in feature_names]
        if len(names) != self.n_features_in_:
            raise ValueError(f"feature_names has {len(names)} names, but the tree has "
                             f"{self.n_features_in_} features")
        return names

    def _leaf_text(self, node, decimals, show_weights):
        counts = [float(c) for c in self.tree_.value[node]]
        text = f"class: {self.classes_[argmax(counts)]}"
        if show_weights:
            shown = ", ".join(f"{c:.{decimals}f}" for c in counts)
            text = f"weights: [{shown}] {text}"
        return text


def _node_depths(tree):
    """The depth of every node (root 0); preorder ids put children after their parent."""
    depths = [0] * tree.node_count
    for node in range(tree.node_count):
        left, right = int(tree.children_left[node]), int(tree.children_right[node])
        if left != LEAF:
            depths[left] = depths[right] = depths[node] + 1
    return depths


def _subtree_depth(tree, node, depths):
    """The height of the subtree below ``node``: preorder ids of a subtree are contiguous."""
    end = node + 1
    while end < tree.node_count and depths[end] > depths[node]:
        end += 1
    return max(depths[node:end]) - depths[node]
