"""Classification trees over numpy arrays: refml.tree with the growth and the descent as
Numba kernels (``kernels``).  Identical trees to refml's: same thresholds, same
class totals, same node ids, same random feature draws (conformance/t18_parity_tree.py).

Only the hot methods are overridden: growing, the leaf lookup,
and the vectorised leaf votes and frequencies.  Pruning is refml's code run on the arrays'
contents (it is linear in the number of nodes).
"""

import numpy as np

from refml.tree import classifier as reference
from refml.tree.split import Tree
from refml_fast.core.base import FastMixin
from refml_fast.core.random import state_array, store_state
from refml_fast.runtime import spec_first
from refml_fast.tree import grow, grow_binned, histogram, kernels, word_sort
from refml_fast.tree.bounded import buckets_apply

INT_FIELDS = ("children_left", "children_right", "feature", "n_node_samples")


MOST_ROWS = 2 ** 31   # rows of a tree: a rank and a row id share a word (kernels.pack_words),
                      # and both are int32
RANK_BLOCK = 2 ** 19  # entries of X ranked per call of numpy's sort (8 MiB of keys and words)
WHOLE_TOTAL = 2.0 ** 26  # the most total of whole-number weights for the Gini in integers
RANKS_FOR_THREADS = 2 ** 18  # entries of X from which ``all_ranks`` may use threads
RADIX_ROWS = 512  # rows from which a column's keys are sorted by radix passes, not numpy
                  # (10 columns: 1,000 rows 0.12 -> 0.08 ms, 100,000 rows 44 -> 16 ms;
                  # 512 rows 0.05 both, 100 rows 0.002 against 0.03)


def sorted_key_blocks(X, width=None):
    """(first, packed, keys) for blocks of X's columns, column first + c sorted in
    packed[c]: each value as a 64-bit key whose unsigned order is the values' order
    (``keys``), its high half packed over the row id (``kernels.column_keys``).  Those
    plain integers sort faster than floats argsort (by radix passes over the high halves,
    ``word_sort.sort_key_words``, from RADIX_ROWS rows; numpy's sort below); the runs
    that share a high half are put in order by their low halves afterwards
    (``ranks_from_keys``).  Rows < MOST_ROWS.  ``width``: columns a block (default: as
    many as RANK_BLOCK entries hold)."""
    n, d = X.shape
    width = width or max(1, min(d, RANK_BLOCK // max(1, n)))
    bits = np.ascontiguousarray(X, dtype=np.float64).view(np.uint64)
    for first in range(0, d, width):
        yield (first, *sorted_keys(bits, first, min(width, d - first)))


def sorted_keys(bits, first, count):
    """(packed, keys) of ``sorted_key_blocks`` for the columns first .. first + count - 1
    of X's bits."""
    keys = np.empty((count, bits.shape[0]), dtype=np.uint64)
    packed = np.empty((count, bits.shape[0]), dtype=np.uint64)
    kernels.column_keys(bits, first, keys, packed)
    if bits.shape[0] < RADIX_ROWS:
        packed.sort(axis=1)
    else:
        word_sort.sort_key_words(packed.view(np.int64), np.empty(bits.shape[0], np.int64),
                                 np.empty((1 << word_sort.KEY_DIGIT) + 1, dtype=np.int64))
    return packed, keys


def all_ranks(X, n_threads=1):
    """The (d, n) dense ranks of X's columns: ranks[j, i] = the number of distinct values
    below X[i, j] (int32), from ``sorted_key_blocks``.  With ``n_threads`` > 1 and at
    least RANKS_FOR_THREADS entries, blocks of columns are ranked on that many threads
    (numpy's sort and the kernels release the GIL): the same ranks."""
    n, d = X.shape
    ranks = np.empty((d, n), dtype=np.int32)
    group, none = np.empty(n, dtype=np.uint64), np.empty((0, 0), dtype=ranks.dtype)
    if n_threads <= 1 or d < 2 or n * d < RANKS_FOR_THREADS:
        for first, packed, keys in sorted_key_blocks(X):
            kernels.ranks_from_keys(packed, keys, np.empty(0, dtype=np.bool_),
                                    ranks[first:first + packed.shape[0]], none, none, group)
        return ranks
    n_threads = min(n_threads, d)
    width = min(-(-d // n_threads), max(1, RANK_BLOCK // max(1, n)))
    bits = np.ascontiguousarray(X, dtype=np.float64).view(np.uint64)

    def rank_block(first):
        packed, keys = sorted_keys(bits, first, min(width, d - first))
        kernels.ranks_from_keys(packed, keys, np.empty(0, dtype=np.bool_),
                                ranks[first:first + packed.shape[0]], none, none,
                                np.empty(n, dtype=np.uint64))

    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=n_threads) as pool:
        list(pool.map(rank_block, range(0, d, width)))
    return ranks


def sorts_at_nodes(n_features, n_candidates, buckets=False):
    """Whether a tree orders each node's rows per searched feature (``grow``) rather
    than partitioning presorted segments of all d features: when it searches at most 2/5 of
    the features (measured: sorting was 2x faster at 15% of d, equal at 50%), or fewer than
    all of them where its large nodes are searched through buckets (``buckets``:
    ``bounded.buckets_apply``; 30-tree forests, fit s, presorted against sorting: 50,000 x
    20, three classes, half the features 1.08 -> 0.82, 4/5 1.54 -> 1.31; 20,000 x 50, two
    classes, half 0.96 -> 0.46, 4/5 1.18 -> 0.72; all: 1.54 and 1.56 on 50,000 x 20, but
    five classes, before they had buckets, 4/5 1.35 -> 1.69)."""
    if buckets:
        return n_candidates < n_features
    return 5 * n_candidates <= 2 * n_features


def whole_weights(weights):
    """Whether every weight is a whole number and their total W is at most 2^26, so that
    the Gini sums of a node (at most 2 W^2) are exact integers in floats
    (``kernels.scan_whole_gini``)."""
    return bool(np.all(weights == np.floor(weights)) and weights.sum() <= WHOLE_TOTAL)


def growth_plan(criterion, weights, min_leaf, n_classes, n_rows, n_features, n_candidates):
    """(whole_gini, sorting) of an exact tree: 1 when its Gini scans may count in whole
    numbers (``whole_weights``; 0 otherwise, and for entropy), and whether it sorts at its
    nodes (``sorts_at_nodes``, with the bucket bounds where ``bounded.buckets_apply`` finds
    they apply).  One rule for a tree's fit and a forest's members
    (``refml_fast.ensemble.tree_members``)."""
    whole_gini = int(criterion == kernels.GINI and whole_weights(weights))
    buckets = buckets_apply(whole_gini, min_leaf, n_classes, n_rows,
                            min(n_candidates, n_features))
    return whole_gini, sorts_at_nodes(n_features, n_candidates, buckets)


def code_values(n_features):
    """The cut values of a histogram tree's codes: each code stands for itself."""
    return np.tile(np.arange(float(grow_binned.MOST_BINS)), (n_features, 1))


def few_values(X, ranks):
    """(bins, cut_values) when every feature of X takes at most 256 distinct values: the
    dense ranks (d, n) as bytes, and per feature the value of each rank (the value of one
    of its rows: values of a rank are equal, at most -0.0 beside 0.0, whose midpoints with
    any other value are the same float); else None."""
    if ranks.shape[1] == 0 or int(ranks.max()) >= grow_binned.MOST_BINS:
        return None
    cut_values = np.zeros((X.shape[1], grow_binned.MOST_BINS))
    for j in range(X.shape[1]):
        cut_values[j, ranks[j]] = X[:, j]
    return ranks.astype(np.uint8), cut_values


def presort(X, kept_rows, ranks=None):
    """(sorted_rows, sorted_ranks): for every feature j, the ``kept_rows`` (ascending) in
    (rank, row id) order and their ranks.  From ``ranks`` (d, n) when given (an
    ensemble's), by counting sort; else straight from the sorted keys
    (``sorted_key_blocks``)."""
    n_features, n_kept = X.shape[1], kept_rows.shape[0]
    sorted_rows = np.empty((n_features, n_kept), dtype=kept_rows.dtype)
    sorted_ranks = np.empty((n_features, n_kept), dtype=kept_rows.dtype)
    n = X.shape[0]
    if ranks is None:
        kept = np.zeros(n, dtype=np.bool_)
        kept[kept_rows] = True
        group, none = np.empty(n, dtype=np.uint64), np.empty((0, 0), dtype=kept_rows.dtype)
        for first, packed, keys in sorted_key_blocks(X):
            stop = first + packed.shape[0]
            kernels.ranks_from_keys(packed, keys, kept, none, sorted_rows[first:stop],
                                    sorted_ranks[first:stop], group)
        return sorted_rows, sorted_ranks
    kernels.presort_by_ranks(ranks, kept_rows, sorted_rows, sorted_ranks)
    return sorted_rows, sorted_ranks


@spec_first.tiered
class DecisionTreeClassifier(FastMixin, reference.DecisionTreeClassifier):
    __doc__ = reference.DecisionTreeClassifier.__doc__

    def _fit(self, X, codes, weights):
        given = self.__dict__.get("_given_edges")   # a forest's edges: X holds their codes
        if given is not None:
            self._n_codes = 1 + max((len(edges) for edges in given), default=0)
        elif self.max_bins is not None:
            self._n_codes = int(self.max_bins)
        try:
            super()._fit(X, codes, weights)
        finally:
            self.__dict__.pop("_n_codes", None)

    def _grow(self, X, codes, weights, settings, rng):
        if X.shape[0] >= MOST_ROWS:
            raise ValueError(f"refml_fast's trees take fewer than 2^31 rows, got {X.shape[0]}: "
                             "the scans pack a rank and a row id into one 64-bit word")
        kept_rows = np.flatnonzero(weights > 0.0).astype(np.int32)
        n_rows, n_features = kept_rows.shape[0], X.shape[1]
        n_candidates = settings["n_candidates"]
        whole_gini, sorting = growth_plan(settings["criterion"], weights,
                                          settings["min_samples_leaf"], self.n_classes_,
                                          n_rows, n_features, n_candidates)
        if whole_gini and np.all(weights[kept_rows] == 1.0):
            whole_gini = 2  # every kept row's weight is 1: the scans need not read them
        coded = None  # (bins, cut_values): the tree from its bins' counts (grow_binned)
        if whole_gini and self.__dict__.get("_n_codes", np.inf) <= grow_binned.MOST_BINS:
            coded = self._bins_matrix(X), code_values(n_features)   # a histogram tree
        ranks = self._ranks(X, sorting) if coded is None else None
        if whole_gini and ranks is not None:  # (ranks are read only when no codes were given)
            coded = self._few_values(X, ranks)   # exact, each feature of <= 256 values
        if coded is not None:
            return self._run_grower(grow_binned.grow_binned_tree, (*coded, kept_rows), n_rows,
                                    codes, weights, settings, 1, whole_gini, rng)
        if sorting:  # no presorted segments
            sorted_rows = sorted_ranks = np.empty((n_features, 0), dtype=kept_rows.dtype)
        else:
            sorted_rows, sorted_ranks = presort(X, kept_rows, ranks)
        if ranks is None:
            ranks = np.empty((n_features, 0), dtype=kept_rows.dtype)
        return self._run_grower(grow.grow_tree, (X, ranks, kept_rows, sorted_rows, sorted_ranks),
                                n_rows, codes, weights, settings, sorting, whole_gini, rng)

    def _run_grower(self, grower, data, n_rows, codes, weights, settings, sorting, whole_gini,
                    rng):
        """``grower(*data, codes, weights, settings, ..., outputs)`` with room for every node
        of a tree on ``n_rows`` rows, and the tree from what it filled."""
        max_depth = -1 if settings["max_depth"] is None else settings["max_depth"]
        capacity = kernels.node_capacity(n_rows, max_depth)
        nodes = np.empty((capacity, 4), dtype=np.int64)
        thresholds = np.empty(capacity)
        values = np.empty((capacity, self.n_classes_))
        int_settings = np.array([settings["criterion"], max_depth, settings["n_candidates"],
                                 sorting, whole_gini, settings["min_samples_leaf"]],
                                dtype=np.int64)
        state = state_array(rng)
        node_count = grower(*data, np.ascontiguousarray(codes), weights, int_settings,
                            float(settings["min_samples_split"]), state, nodes, thresholds,
                            values)
        store_state(rng, state)
        return self._tree_from_arrays(nodes[:node_count], thresholds[:node_count],
                                      values[:node_count], settings["criterion"])

    @staticmethod
    def _few_values(X, ranks):
        """``few_values(X, ranks)``; an ensemble shadows it with one for all its trees."""
        return few_values(X, ranks)

    @staticmethod
    def _bins_matrix(X):
        """X's codes (at most 256 of them) as (d, n) bytes, a feature's side by side.  An
        ensemble shadows this per member with one conversion for all its trees."""
        return X.T.astype(np.uint8, order="C")

    _bins = histogram

    @staticmethod
    def _positive_rows(X, weights):
        return X[weights > 0.0]

    def _ranks(self, X, needed):
        """The (d, n) dense ranks of X's columns when ``needed`` (nodes that sort read
        them), else None (the presort ranks one column at a time).  An ensemble shadows
        this per member with the ranks of one ranking of the whole training set
        (refml_fast.ensemble)."""
        return all_ranks(X) if needed else None

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
