"""Classification trees over numpy arrays: refml.tree with the growth and the descent as
Numba kernels (``_tree_kernels``).  Identical trees to refml's: same thresholds, same
class totals, same node ids, same random feature draws (conformance/t18_parity_tree.py).

Only the hot methods are overridden: growing, the leaf lookup,
and the vectorised leaf votes and frequencies.  Pruning is refml's code run on the arrays'
contents (it is linear in the number of nodes).
"""

import numpy as np

import refml.tree
from refml._tree_split import Tree

from . import _tree_grow as grow
from . import _tree_kernels as kernels
from ._random import state_array, store_state
from .base import FastMixin

INT_FIELDS = ("children_left", "children_right", "feature", "n_node_samples")


def row_id_dtype(n_rows):
    """int32 row ids while they fit, int64 beyond."""
    return np.int32 if n_rows < 2 ** 31 else np.int64


def feature_ranks(X, j):
    """The dense ranks of column j of X: ranks[i] = the number of distinct values below
    X[i, j] (int32 while row ids fit)."""
    column = np.ascontiguousarray(X[:, j])  # one column at a time: no transposed copy of X
    ranks = np.empty(X.shape[0], dtype=row_id_dtype(X.shape[0]))
    kernels.rank_column(column, np.argsort(column), ranks)
    return ranks


def sorts_at_nodes(n_features, n_candidates, n_rows):
    """Whether a tree orders each node's rows per searched feature (``_tree_grow``) rather
    than partitioning presorted segments of all d features: when it searches at most 2/5 of
    the features (measured: sorting was 2x faster at 15% of d, equal at 50%), and row ids
    fit in 32 bits."""
    return 5 * n_candidates <= 2 * n_features and n_rows < 2 ** 31


def whole_weights(weights):
    """Whether every weight is a whole number and their total W is at most 2^26, so that
    the Gini sums of a node (at most 2 W^2) are exact integers in floats
    (``_tree_kernels.scan_whole_gini``)."""
    return bool(np.all(weights == np.floor(weights)) and weights.sum() <= 2.0 ** 26)


def presort(n_features, ranks_of, kept_rows):
    """(sorted_rows, sorted_ranks) of the ``kept_rows``, feature j's ranks from
    ``ranks_of(j)``, by counting sort."""
    n_kept = kept_rows.shape[0]
    sorted_rows = np.empty((n_features, n_kept), dtype=kept_rows.dtype)
    sorted_ranks = np.empty((n_features, n_kept), dtype=kept_rows.dtype)
    for j in range(n_features):
        ranks = ranks_of(j)
        starts = np.empty(ranks.shape[0] + 1, dtype=np.int64)
        kernels.sort_by_rank(ranks, kept_rows, starts, sorted_rows[j], sorted_ranks[j])
    return sorted_rows, sorted_ranks


class DecisionTreeClassifier(FastMixin, refml.tree.DecisionTreeClassifier):
    __doc__ = refml.tree.DecisionTreeClassifier.__doc__

    def _grow(self, X, codes, weights, settings, rng):
        kept_rows = np.flatnonzero(weights > 0.0).astype(row_id_dtype(X.shape[0]))
        n_rows, n_features = kept_rows.shape[0], X.shape[1]
        sorting = sorts_at_nodes(n_features, settings["n_candidates"], n_rows)
        ranks = self._ranks(X, sorting)
        ranks_of = ranks.__getitem__ if ranks is not None else lambda j: feature_ranks(X, j)
        if ranks is None:
            ranks = np.empty((n_features, 0), dtype=kept_rows.dtype)
        if sorting:  # no presorted segments
            sorted_rows = sorted_ranks = np.empty((n_features, 0), dtype=kept_rows.dtype)
        else:
            sorted_rows, sorted_ranks = presort(n_features, ranks_of, kept_rows)
        capacity = 2 * n_rows - 1
        if settings["max_depth"] is not None and settings["max_depth"] < 40:
            capacity = min(capacity, 2 ** (settings["max_depth"] + 1) - 1)
        nodes = np.empty((capacity, 4), dtype=np.int64)
        thresholds = np.empty(capacity)
        values = np.empty((capacity, self.n_classes_))
        max_depth = -1 if settings["max_depth"] is None else settings["max_depth"]
        whole_gini = settings["criterion"] == kernels.GINI and whole_weights(weights)
        int_settings = np.array([settings["criterion"], max_depth, settings["n_candidates"],
                                 sorting, whole_gini], dtype=np.int64)
        state = state_array(rng)
        node_count = grow.grow_tree(X, ranks, kept_rows, sorted_rows, sorted_ranks,
                                    np.ascontiguousarray(codes), weights, int_settings,
                                    float(settings["min_samples_split"]), state, nodes,
                                    thresholds, values)
        store_state(rng, state)
        return self._tree_from_arrays(nodes[:node_count], thresholds[:node_count],
                                      values[:node_count], settings["criterion"])

    def _ranks(self, X, needed):
        """The (d, n) dense ranks of X's columns when ``needed`` (nodes that sort read
        them), else None (the presort ranks one column at a time).  An ensemble shadows
        this per member with the ranks of one ranking of the whole training set
        (refml_fast.ensemble)."""
        if not needed:
            return None
        ranks = np.empty((X.shape[1], X.shape[0]), dtype=row_id_dtype(X.shape[0]))
        for j in range(X.shape[1]):
            ranks[j] = feature_ranks(X, j)
        return ranks

    def _tree_from_arrays(self, nodes, thresholds, values, criterion):
        tree = Tree(self.n_classes_)
        tree.children_left = nodes[:, kernels.LEFT].copy()
        tree.children_right = nodes[:, kernels.RIGHT].copy()
        tree.feature = nodes[:, kernels.FEATURE].copy()
        tree.n_node_samples = nodes[:, kernels.N_ROWS].copy()
        tree.threshold = thresholds.copy()
        tree.value = values.copy()
        tree.impurity = np.empty(len(thresholds))
        tree.weighted_n_node_samples = np.empty(len(thresholds))
        kernels.node_summaries(tree.value, criterion, tree.impurity,
                               tree.weighted_n_node_samples)
        return tree

    def _prune(self, tree):
        if float(self.ccp_alpha) == 0.0:
            return tree
        as_lists = Tree(tree.n_classes)
        for name in Tree.FIELDS:
            setattr(as_lists, name, getattr(tree, name).tolist())
        pruned = super()._prune(as_lists)
        for name in Tree.FIELDS:
            dtype = np.int64 if name in INT_FIELDS else np.float64
            setattr(pruned, name, np.array(getattr(pruned, name), dtype=dtype))
        pruned.value = pruned.value.reshape(-1, tree.n_classes)
        return pruned

    def _apply(self, X):
        tree = self.tree_
        leaves = np.empty(X.shape[0], dtype=np.int64)
        kernels.apply_tree(X, tree.children_left, tree.children_right, tree.feature,
                           tree.threshold, leaves)
        return leaves

    def _leaf_codes(self, leaves):
        return np.argmax(self.tree_.value[leaves], axis=1)  # the first maximum on ties

    def _leaf_proba(self, leaves):
        tree = self.tree_
        return tree.value[leaves] / tree.weighted_n_node_samples[leaves][:, None]
