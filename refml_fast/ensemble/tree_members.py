"""Bagged tree members fitted from their seeds in one kernel call: refml's member fit
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
makes the member estimators around the trees' arrays, and small members come in batches
of one kernel call (``grow_members``, ``TreeMembers.batches``): 100 trees on 1,000 x 10
on two threads, fit + predict, medians of 21 after a first call, 12.3-13.3 -> 9.8-13.1 ms
(one call a member: the threads' Python steps made two threads no faster than one).

Used (``TreeMembers.plan``) for a member template that is exactly this package's
``DecisionTreeClassifier`` without ``max_bins``, in an ensemble whose matrix is not bin
codes, when its trees would not grow from bin counts (a Gini tree on features of at most
256 distinct values does: ``refml_fast.tree.grow_binned``); otherwise, and on a joblib
backend the user chose, each member goes through the ensemble's ``_fit_one``.  The same
members either way (tests/test_tree_members.py).
"""

import copy
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

BATCH_WORK = 400_000    # a batch of members' work (``TreeMembers.batches``)
BATCHES_A_THREAD = 4
BATCH_NODES = 2 ** 15   # room for nodes in a batch's arrays


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
                min_samples_split, nodes, thresholds, values):
    """Steps 1-4 for the member of seed ``seed``: (tree seed, node count), the tree's
    arrays of ``grow_tree`` in the first rows of ``nodes``, ``thresholds`` and ``values``
    (room for ``node_capacity(len(population), max_depth)`` nodes).

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
    state = np.empty(1, dtype=np.uint64)
    state[0] = tree_seed
    count = grow_tree(X, ranks, kept_rows, sorted_rows, sorted_ranks, codes, member,
                      settings, min_samples_split, state, nodes, thresholds, values)
    return tree_seed, count


@kernel
def grow_members(seeds, population, weights, X, ranks, codes, plan, leaf_fraction,
                 min_samples_split, nodes, thresholds, values):
    """``grow_member`` for each seed in turn, in one call: (tree seeds, ends), member b's
    arrays in rows ends[b]:ends[b + 1] of ``nodes``, ``thresholds`` and ``values``, each
    member grown right after the last (room for len(seeds) x ``node_capacity`` rows).  A
    batch of small members pays one call's Python instead of one per member, and its
    thread holds the GIL only between batches."""
    n_members = seeds.shape[0]
    capacity = tree_kernels.node_capacity(population.shape[0], plan[1])
    tree_seeds = np.empty(n_members, dtype=np.uint64)
    ends = np.zeros(n_members + 1, dtype=np.int64)
    for b in range(n_members):
        used = ends[b]
        tree_seeds[b], count = grow_member(
            seeds[b], population, weights, X, ranks, codes, plan, leaf_fraction,
            min_samples_split, nodes[used:used + capacity], thresholds[used:used + capacity],
            values[used:used + capacity])
        ends[b + 1] = used + count
    return tree_seeds, ends


class TreeMembers:
    """The members of one ensemble's fit from their seeds (``batches``, ``grow``,
    ``members``), when ``plan`` finds that they can be grown by ``grow_member``."""

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
        self.unfitted = committee._new_member(template, 0)
        self.capacity = tree_kernels.node_capacity(population.shape[0], max_depth)  # a tree

    def batches(self, seeds, n_threads, work):
        """The seeds in consecutive batches, each grown in one kernel call: about
        BATCH_WORK of ``member_work`` a batch, at least BATCHES_A_THREAD batches a thread
        (a thread that finishes first takes the next batch), and room for at most
        BATCH_NODES nodes (``node_capacity`` a member) in its arrays."""
        size = max(1, min(math.ceil(BATCH_WORK / max(work, 1.0)),
                          math.ceil(len(seeds) / (BATCHES_A_THREAD * n_threads)),
                          BATCH_NODES // self.capacity))
        return [seeds[i:i + size] for i in range(0, len(seeds), size)]

    def grow(self, seeds):
        """The trees of seeds s_b (a list), grown in one kernel call that holds no GIL:
        (tree seeds, ends, nodes, thresholds, values) of ``grow_members``, for ``members``
        (which copies each tree's rows out)."""
        rows = len(seeds) * self.capacity
        buffers = (np.empty((rows, 4), dtype=np.int64), np.empty(rows),
                   np.empty((rows, len(self.committee.classes_))))
        tree_seeds, ends = grow_members(np.array(seeds, dtype=np.uint64), *self.arrays,
                                        self.plan, self.leaf_fraction,
                                        self.min_samples_split, *buffers)
        return (tree_seeds, ends, *buffers)

    def members(self, grown):
        """The member estimators of ``grow``'s trees: the fitted trees refml's ``_fit_one``
        gives for their seeds."""
        tree_seeds, ends, nodes, thresholds, values = grown
        return [self._member(tree_seeds[b], nodes[ends[b]:ends[b + 1]],
                             thresholds[ends[b]:ends[b + 1]], values[ends[b]:ends[b + 1]])
                for b in range(tree_seeds.shape[0])]

    def _member(self, tree_seed, nodes, thresholds, values):
        """The member estimator around one grown tree's arrays (copied)."""
        committee = self.committee
        member = copy.copy(self.unfitted)  # _new_member's, without its clone (14 us each)
        member.random_state = int(tree_seed)
        member.classes_ = list(committee.classes_)
        member.n_features_in_ = committee.n_features_in_
        member.n_classes_ = len(member.classes_)
        member.max_features_ = self.n_candidates
        member.tree_ = member._prune(member._tree_from_arrays(nodes, thresholds, values,
                                                              self.criterion))
        return member
