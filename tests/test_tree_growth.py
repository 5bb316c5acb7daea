"""refml_fast's two ways of growing a tree (refml_fast/tree/grow.py) and its O(1) Gini scan:
each must give the tree refml gives.  Sorting at every node and partitioning presorted
segments are forced in turn on the same data; the linear sort is checked against numpy's
lexsort; the whole-number Gini scan against the general one; extreme weights against
refml (issue 12)."""

import pytest

from tests.helpers import assert_forest_members_are_refmls_trees

pytestmark = pytest.mark.fast


def grown(model):
    tree = model.tree_
    return (tree.feature.tolist(), tree.threshold.tolist(), tree.value.tolist(),
            tree.children_left.tolist(), tree.n_node_samples.tolist())


def data_sets():
    import numpy as np

    rng = np.random.default_rng(5)
    centres = rng.normal(size=(6, 40)) * 0.5
    y = rng.integers(0, 6, size=700)
    continuous = centres[y] + rng.normal(size=(700, 40))
    discrete = rng.integers(0, 5, size=(400, 30)).astype(float)  # many ties, few ranks
    labels = (discrete[:, 0] + discrete[:, 3] + rng.integers(0, 3, 400) > 5).astype(int)
    return [(continuous, y), (discrete, labels)]


@pytest.mark.parametrize("criterion", ["gini", "entropy"])
def test_sorting_at_nodes_grows_the_tree_presorted_segments_grow(monkeypatch, criterion):
    import numpy as np

    import refml_fast
    import refml_fast.tree.classifier as fast_tree

    rng = np.random.default_rng(0)
    for X, y in data_sets():
        for weights in (None, rng.integers(0, 3, len(y)).astype(float), rng.random(len(y))):
            for max_features in (1, "sqrt", 0.5, None):
                trees = []
                for sorting in (True, False):
                    monkeypatch.setattr(fast_tree, "sorts_at_nodes",
                                        lambda *args, sorting=sorting: sorting)
                    model = refml_fast.DecisionTreeClassifier(
                        criterion=criterion, max_features=max_features, random_state=3)
                    trees.append(grown(model.fit(X, y, sample_weight=weights)))
                assert trees[0] == trees[1]
                assert len(trees[0][0]) > 10


def test_the_forest_sorts_at_nodes_and_its_members_are_refmls_trees():
    from refml_fast.tree.bounded import buckets_apply
    from refml_fast.tree.classifier import sorts_at_nodes

    assert sorts_at_nodes(40, 6) and not sorts_at_nodes(40, 40)
    # with buckets for the large nodes, every share of the features short of all
    assert sorts_at_nodes(40, 39, True) and not sorts_at_nodes(40, 39)
    assert not sorts_at_nodes(40, 40, True)
    assert buckets_apply(1, 1, 4, 1_000, 6) and buckets_apply(2, 1, 2, 1_000, 6)
    assert not buckets_apply(0, 1, 2, 1_000, 6)            # entropy, or weights not whole
    assert not buckets_apply(1, 2, 2, 1_000, 6)            # min_samples_leaf 2
    assert buckets_apply(1, 1, 6, 1_000, 6)                # six classes
    assert not buckets_apply(1, 1, 7, 1_000, 6)            # seven classes
    assert not buckets_apply(1, 1, 2, 2_000_000, 10)       # tables beyond MOST_BOUND_WORDS
    X, y = data_sets()[0]
    assert_forest_members_are_refmls_trees(X[:160, :12], y[:160], n_estimators=4,
                                           random_state=1)


def assert_ordered_by_rank(rng, ranks, m):
    """order_by_rank on m of the rows (ascending ids, drawn by ``rng``) gives their words
    rank << 32 | row in (rank, row id) order."""
    import numpy as np

    from refml_fast.tree.word_sort import MAX_BUCKETS, order_by_rank

    rows = np.sort(rng.choice(ranks.shape[0], size=m, replace=False)).astype(np.int32)
    buffers = np.full((2, m), -1, dtype=np.int64)
    out = buffers[order_by_rank(ranks, rows, buffers, np.empty(MAX_BUCKETS + 2, np.int64))]
    expected = rows[np.lexsort((rows, ranks[rows]))]
    assert (out & (2 ** 32 - 1)).tolist() == expected.tolist()
    assert (out >> 32).tolist() == ranks[expected].tolist()


@pytest.mark.parametrize("m, span", [(1, 1), (7, 1000), (12, 5), (13, 1000), (24, 3),
                                     (25, 10), (48, 90000), (56, 3), (57, 90000),
                                     (49, 3), (49, 90000), (60, 2 ** 30), (300, 40),
                                     (300, 5000), (300, 70000), (3000, 50),
                                     (3000, 3_000_000), (5000, 2 ** 30)])
def test_order_by_rank_is_a_stable_sort_by_rank(m, span):
    """The node's rows as words rank << 32 | row, in (rank, row id) order: by insertion,
    by counting the words below each, one counting pass, or radix passes of small and
    large digits, even and odd in number."""
    import numpy as np

    rng = np.random.default_rng(m + span)
    n = 2 * m + 5
    ranks = rng.integers(0, span, size=n).astype(np.int32)
    assert_ordered_by_rank(rng, ranks, m)


@pytest.mark.parametrize("m, band, outliers", [(3000, 50, 100), (300, 2 ** 20, 0),
                                               (1000, 5000, 3), (200, 2 ** 30, 0)])
def test_order_by_rank_with_ranks_bunched_or_repeated(m, band, outliers):
    """Ranks drawn from few distinct values spread over a wide range (rows sharing a
    rank, in every digit's bucket), or bunched in a narrow band with a few far outliers
    (most rows in one bucket of the high digit): still the (rank, row id) order."""
    import numpy as np

    rng = np.random.default_rng(m + band)
    n = 2 * m + 5
    values = rng.integers(0, band, size=max(2, m // 3))
    ranks = rng.choice(values, size=n).astype(np.int32)
    ranks[rng.choice(n, size=outliers, replace=False)] = rng.integers(2 ** 20, 2 ** 30,
                                                                      size=outliers)
    assert_ordered_by_rank(rng, ranks, m)


def test_the_whole_number_gini_scan_gives_the_general_scans_costs_bit_for_bit():
    """The same (best cost, rows on the left, class weights) as scan_feature: ties,
    min_samples_leaf, and a best cost handed in by an earlier feature (equal to this one's
    best, or just above it: strict improvement only)."""
    import numpy as np

    from refml_fast.tree.kernels import GINI, scan_feature, scan_whole_gini

    rng = np.random.default_rng(11)
    improved = kept = 0
    for trial in range(120):     # a third with two classes (their own arithmetic)
        n = int(rng.integers(2, 400 if trial % 4 else 1000))
        k = 2 if trial % 3 == 0 else int(rng.integers(3, 12))
        ranks = np.sort(rng.integers(0, max(2, n // int(rng.choice([1, 3, 20]))), size=n))
        rows = rng.permutation(n)
        words = ranks << 32 | rows
        codes = rng.integers(0, k, size=n)
        unit = trial % 2 == 1      # every weight 1: the scan that does not read them
        weights = np.ones(n) if unit else rng.integers(1, 6, size=n).astype(float)
        min_leaf = int(rng.choice([1, 1, 2, 7]))
        totals = np.bincount(codes, weights=weights, minlength=k)  # whole numbers
        best = np.inf
        if trial % 5 == 4:       # an earlier feature's best: this one's, or just above it
            first = scan_feature(words, codes, weights, GINI, np.inf, np.empty((4, k)),
                                 np.zeros((2, k)), min_leaf)[0]
            best = first if trial % 10 == 4 else np.nextafter(first, np.inf)
        results = []
        for scan in ("general", "whole"):
            best_counts = np.zeros((2, k))
            args = (words, codes, weights)
            if scan == "general":
                out = scan_feature(*args, GINI, best, np.empty((4, k)), best_counts, min_leaf)
            else:
                out = scan_whole_gini(*args, unit, totals, best, np.empty((4, k)),
                                      best_counts, min_leaf)
            results.append((out, best_counts.tolist()))
        assert results[0] == results[1]
        improved += results[0][0][1] >= 0
        kept += results[0][0][1] < 0
    assert improved > 60 and kept > 5


@pytest.mark.parametrize("scale", [1e200, 1e-200, 3.0])
def test_extreme_weights_give_refmls_tree_with_finite_impurities(scale):
    import numpy as np

    import refml
    import refml_fast

    rng = np.random.default_rng(4)
    X = rng.normal(size=(60, 3))
    y = rng.integers(0, 3, size=60)
    weights = rng.random(60) * scale
    fast = refml_fast.DecisionTreeClassifier().fit(X, y, sample_weight=weights)
    reference = refml.DecisionTreeClassifier().fit(X.tolist(), y.tolist(),
                                                   sample_weight=weights.tolist())
    assert fast.tree_.threshold.tolist() == reference.tree_.threshold
    assert fast.tree_.impurity.tolist() == reference.tree_.impurity
    assert np.all(np.isfinite(fast.tree_.impurity)) and fast.tree_.impurity[0] > 0.0


def test_a_tree_refuses_more_rows_than_its_words_hold(monkeypatch):
    """A rank and a row id share one int64 word (int32 each): refml_fast's trees refuse
    2^31 rows or more with a clear error (the bound lowered here to 10 rows)."""
    import numpy as np

    import refml_fast
    from refml_fast.tree import classifier

    monkeypatch.setattr(classifier, "MOST_ROWS", 10)
    X, y = np.arange(20.0).reshape(10, 2), np.arange(10) % 2
    with pytest.raises(ValueError, match="fewer than 2\\^31 rows, got 10"):
        refml_fast.DecisionTreeClassifier().fit(X, y)
    with pytest.raises(ValueError, match="fewer than 2\\^31 rows"):
        refml_fast.RandomForestClassifier(n_estimators=2, random_state=0).fit(X, y)
    assert refml_fast.DecisionTreeClassifier().fit(X[:9], y[:9]).tree_.node_count > 1
