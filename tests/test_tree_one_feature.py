"""refml_fast's scan of one-feature trees from class prefix sums
(refml_fast/tree/one_feature.py) against the row scan it stands in for
(``kernels.scan_whole_gini``), node by node, and whole trees and forest members on one
feature against refml's."""

import pytest

from tests.helpers import assert_forest_members_are_refmls_trees
from tests.test_tree import tree_lists

pytestmark = pytest.mark.fast


def a_segment(rng, case):
    """(ranks, rows, codes, weights, unit) of a presorted one-feature order of n rows:
    continuous ranks, few distinct values (long ties), or runs of classes along the ranks
    with equal costs (a mirrored pattern)."""
    import numpy as np

    n, k = int(rng.integers(2, 3000)), int(rng.integers(2, 6))
    kind = case % 3
    if kind == 0:
        ranks = np.arange(n)
    elif kind == 1:
        ranks = np.sort(rng.integers(0, int(rng.integers(1, 40)), size=n))
    else:
        ranks = np.arange(n) // 3
    rows = rng.permutation(n + 5)[:n].astype(np.int32)   # row ids far apart, as in a tree
    codes = rng.integers(0, k, size=n + 5)
    if kind == 2:
        codes[rows] = (np.arange(n) // max(1, n // 4)) % 2
    unit = case % 2 == 0
    weights = np.ones(n + 5) if unit else rng.integers(1, 6, size=n + 5).astype(float)
    return ranks.astype(np.int32), rows, codes.astype(np.int64), weights, unit, k


@pytest.mark.parametrize("seed", range(3))
def test_the_prefix_scan_finds_the_row_scans_threshold(seed):
    """On 80 random runs of 1-3,000 rows inside an order, 2-5 classes, unit and whole
    weights, min_samples_leaf 1-3, from no best or from a best already reached (equal costs
    must not win): the same cost, rows on the left and class weights of the two sides."""
    import numpy as np

    from refml_fast.tree import one_feature
    from refml_fast.tree.kernels import ROW_BITS, scan_whole_gini

    rng = np.random.default_rng(300 + seed)
    for case in range(80):
        ranks, rows, codes, weights, unit, k = a_segment(rng, case)
        n = rows.size
        start = int(rng.integers(0, max(1, n // 3)))
        end = int(rng.integers(start + 1, n + 1))
        node = rows[start:end]
        totals = np.bincount(codes[node], weights[node], minlength=k).astype(float)
        words = (ranks[start:end].astype(np.int64) << ROW_BITS) | node
        min_leaf = int(rng.integers(1, 4))
        prefix = one_feature.class_prefix(rows, codes, weights, unit, k)
        assert prefix.shape == (k, n + 1)
        for best in (np.inf, None):
            if best is None:   # the least cost itself: no threshold may beat it
                best = scan_whole_gini(words, codes, weights, unit, totals, np.inf,
                                       np.empty((4, k)), np.empty((2, k)), min_leaf)[0]
            row_counts, prefix_counts = np.zeros((2, k)), np.zeros((2, k))
            expected = scan_whole_gini(words, codes, weights, unit, totals, best,
                                       np.empty((4, k)), row_counts, min_leaf)
            found = one_feature.scan_prefix(
                prefix, ranks, start, end, totals, best, prefix_counts, min_leaf,
                np.empty((3, one_feature.CHUNK)), np.empty(one_feature.CHUNK))
            assert tuple(found) == tuple(expected), case
            np.testing.assert_array_equal(prefix_counts, row_counts)


@pytest.mark.parametrize("k", [2, 3, 5])
def test_one_feature_trees_are_refmls(k):
    """Trees on one continuous feature (2,000 rows: more values than a histogram tree
    takes, so the exact tree grows), with tied values, unit and whole sample weights,
    min_samples_leaf 1 and 4 and a depth limit: refml's tree, node by node."""
    import numpy as np

    import refml
    import refml_fast

    rng = np.random.default_rng(k)
    y = rng.integers(0, k, size=2000)
    X = (y + rng.normal(scale=1.5, size=2000)).round(2)[:, None]   # ties from rounding
    for weights in (None, rng.integers(1, 4, size=2000).astype(float)):
        for settings in ({}, {"min_samples_leaf": 4}, {"max_depth": 6}):
            fast = refml_fast.DecisionTreeClassifier(**settings).fit(X, y, sample_weight=weights)
            reference = refml.DecisionTreeClassifier(**settings).fit(
                X.tolist(), y.tolist(), sample_weight=None if weights is None
                else weights.tolist())
            assert tree_lists(fast) == tree_lists(reference)
            assert fast.tree_.node_count > 20


def test_a_one_feature_forest_grows_refmls_trees():
    """A forest on one feature (its members' bootstrap weights are whole numbers): each
    member is refml's tree, thresholds included."""
    import numpy as np

    rng = np.random.default_rng(21)
    y = rng.integers(0, 3, size=1200)
    X = (y + rng.normal(scale=0.8, size=1200))[:, None]
    assert_forest_members_are_refmls_trees(X, y, n_estimators=3, random_state=2)
