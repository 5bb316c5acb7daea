"""A bagged tree member fitted from its seed in one kernel call: refml's member fit
(refml.ensemble.bagging ``_fit_one``, refml.tree's ``_fit`` and ``_grow``) with every step
between the seed and the grown tree in ``grow_member``.  Not a new method: the same draws,
weights, rows and tree, for the trees of this package.

Member b of a bagging ensemble or a forest is, in refml:

1. ``Generator(s_b)`` draws the bootstrap: len(population) indices into the rows of
   positive weight; the counts c_i of each row.
2. One more draw of that generator seeds the member tree's own ``random_state``.
3. The member's weights are c_i w_i (w: the ensemble's weights, divided by their lightest
   positive one), divided again by their own lightest positive one (or kept, when the
   heaviest over it overflows), as every tree's fit does.
4. The tree grows on its rows of positive weight (``refml_fast.tree.grow.grow_tree``),
   its feature draws from Generator(that seed), with the ensemble's shared ranks, the Gini
   scans in integers when the weights are whole numbers of total <= 2^26 (every kept weight
   1: the weights are not read), and presorted segments or a sort at every node as
   ``refml_fast.tree.classifier.growth_plan`` picks.

Each step in Python costs little, but a forest of small trees spends much of its fit in
them, and on several threads they wait for the GIL between their kernels: a 50-tree forest
on 10,031 x 1 (three classes) took 0.92 ms of kernel a tree, 0.26 ms of Python a member
on one thread, and 0.55-0.65 ms between a thread's two kernels on two.  Here Python only
makes the member estimator around the tree's arrays.

Used (``TreeMembers.plan``) for a member template that is exactly this package's
``DecisionTreeClassifier`` without ``max_bins``, in an ensemble whose matrix is not bin
codes, when its trees would not grow from bin counts (a Gini tree on features of at most
256 distinct values does: ``refml_fast.tree.grow_binned``); otherwise, and on a joblib
backend the user chose, each member goes through the ensemble's ``_fit_one``.  The same
members either way (tests/test_tree_members.py).
"""

import math
import numbers

import numpy as np

from refml.tree.classifier import CRITERIA
from refml_fast.core.random import next_u64
from refml_fast.ensemble.kernels import bootstrap
from refml_fast.runtime.options import kernel
from refml_fast.tree import kernels as tree_kernels
from refml_fast.tree.classifier import (
    MOST_ROWS,
    WHOLE_TOTAL,
    DecisionTreeClassifier,
    growth_plan,
)
from refml_fast.tree.grow import grow_tree


@kernel
def member_weights(seed, population, weights):
    """Steps 1-3: (the member's weights, the seed of its tree).  The counts as refml's
    ``draw_counts``, each weight c_i w_i as one product of c_i in float64 and w_i, then
    ``relative_weights``: divided by the lightest positive one, unless the heaviest
    divided by it overflows."""
    state = np.empty(1, dtype=np.uint64)
    state[0] = seed
    drawn = np.empty(population.shape[0], dtype=np.int64)
    bootstrap(state, population, drawn)
    counts = np.zeros(weights.shape[0], dtype=np.int64)
    for i in drawn:
        counts[i] += 1
    tree_seed = next_u64(state)
    member = np.empty(weights.shape[0])
    lightest = np.inf
    heaviest = -np.inf
    for i in range(weights.shape[0]):
        w = np.float64(counts[i]) * weights[i]
        member[i] = w
        heaviest = max(heaviest, w)
        if w > 0.0:
            lightest = min(lightest, w)
    if heaviest / lightest != np.inf:
        for i in range(member.shape[0]):
            member[i] = member[i] / lightest
    return member, tree_seed


@kernel
def whole_gini_of(weights, kept_rows, gini):
    """``settings[4]`` of ``grow_tree``: 2 when every kept weight is 1, 1 when the weights
    are whole numbers of total <= 2^26 (a sum of whole numbers is exact in any order below
    2^53 and stays above 2^26 past it, so its order cannot change the answer), else 0;
    0 for entropy."""
    if not gini:
        return 0
    total = 0.0
    for i in range(weights.shape[0]):
        if weights[i] != math.floor(weights[i]):
            return 0
        total += weights[i]
    if not total <= WHOLE_TOTAL:
        return 0
    for row in kept_rows:
        if weights[row] != 1.0:
            return 1
    return 2


@kernel
def grow_member(seed, population, weights, X, ranks, codes, plan, leaf_fraction,
                min_samples_split, n_classes):
    """Steps 1-4 for the member of seed ``seed``: (tree seed, node count, nodes,
    thresholds, values), the tree's arrays of ``grow_tree`` trimmed to its nodes.

    ``plan``: int64 [criterion, max_depth (-1: none), n_candidates, sorting,
    min_samples_leaf in rows (when ``leaf_fraction`` <= 0)]; ``leaf_fraction`` > 0: the
    leaf's least rows are max(1, ceil(fraction x rows of positive weight)), as refml's
    ``_min_leaf``."""
    member, tree_seed = member_weights(seed, population, weights)
    n_kept = 0
    for i in range(member.shape[0]):
        n_kept += member[i] > 0.0
    kept_rows = np.empty(n_kept, dtype=np.int32)
    k = 0
    for i in range(member.shape[0]):
        if member[i] > 0.0:
            kept_rows[k] = i
            k += 1
    criterion, max_depth, n_candidates, sorting = plan[0], plan[1], plan[2], plan[3]
    min_leaf = plan[4]
    if leaf_fraction > 0.0:
        min_leaf = max(1, math.ceil(leaf_fraction * n_kept))
    settings = np.array([criterion, max_depth, n_candidates, sorting,
                         whole_gini_of(member, kept_rows, criterion == tree_kernels.GINI),
                         min_leaf], dtype=np.int64)
    n_features = X.shape[1]
    if sorting:
        sorted_rows = np.empty((n_features, 0), dtype=np.int32)
        sorted_ranks = np.empty((n_features, 0), dtype=np.int32)
    else:  # presorted segments from the shared ranks (``classifier.presort``)
        sorted_rows = np.empty((n_features, n_kept), dtype=np.int32)
        sorted_ranks = np.empty((n_features, n_kept), dtype=np.int32)
        tree_kernels.presort_by_ranks(ranks, kept_rows, sorted_rows, sorted_ranks)
    capacity = tree_kernels.node_capacity(n_kept, max_depth)
    nodes = np.empty((capacity, 4), dtype=np.int64)
    thresholds = np.empty(capacity)
    values = np.empty((capacity, n_classes))
    state = np.empty(1, dtype=np.uint64)
    state[0] = tree_seed
    count = grow_tree(X, ranks, kept_rows, sorted_rows, sorted_ranks, codes, member,
                      settings, min_samples_split, state, nodes, thresholds, values)
    return tree_seed, nodes[:count].copy(), thresholds[:count].copy(), values[:count].copy()


class TreeMembers:
    """The members of one ensemble's fit from their seeds (``fit``), when ``plan`` finds
    that they can be grown by ``grow_member``."""

    @classmethod
    def plan(cls, committee, X, codes, weights, template, population):
        """A TreeMembers for these members, or None when some step of theirs is not
        ``grow_member``'s (see the module docstring)."""
        if (type(template) is not DecisionTreeClassifier or not committee._native(template)
                or template.max_bins is not None or X.shape[0] >= MOST_ROWS
                or getattr(committee, "_member_edges", None) is not None
                or getattr(committee, "_ranks", None) is None):
            return None
        ranks = committee._ranks(X, True)
        criterion = CRITERIA[template.criterion]
        if criterion == tree_kernels.GINI and committee._ranks.few_values(X, ranks) is not None:
            return None
        return cls(committee, X, codes, weights, template, population, ranks, criterion)

    def __init__(self, committee, X, codes, weights, template, population, ranks, criterion):
        self.committee, self.template = committee, template
        n_features = X.shape[1]
        n_candidates = template._n_candidates(n_features)
        leaf = template.min_samples_leaf
        whole_leaf = isinstance(leaf, numbers.Integral)
        self.arrays = (population.astype(np.int64), np.ascontiguousarray(weights, np.float64),
                       X, ranks, np.ascontiguousarray(codes, np.int64))
        max_depth = -1 if template.max_depth is None else int(template.max_depth)
        sorting = growth_plan(criterion, weights, int(leaf) if whole_leaf else 0,
                              len(committee.classes_), population.shape[0], n_features,
                              n_candidates)[1]
        self.plan = np.array([criterion, max_depth, n_candidates, int(sorting),
                              int(leaf) if whole_leaf else 1], dtype=np.int64)
        self.leaf_fraction = 0.0 if whole_leaf else float(leaf)
        self.min_samples_split = float(template.min_samples_split)
        self.criterion, self.n_candidates = criterion, n_candidates

    def fit(self, seed):
        """Member of seed s_b: the fitted tree refml's ``_fit_one`` gives."""
        committee = self.committee
        tree_seed, nodes, thresholds, values = grow_member(
            np.uint64(seed), *self.arrays, self.plan, self.leaf_fraction,
            self.min_samples_split, len(committee.classes_))
        member = committee._new_member(self.template, int(tree_seed))
        member.classes_ = list(committee.classes_)
        member.n_features_in_ = committee.n_features_in_
        member.n_classes_ = len(member.classes_)
        member.max_features_ = self.n_candidates
        member.tree_ = member._prune(member._tree_from_arrays(nodes, thresholds, values,
                                                              self.criterion))
        return member
