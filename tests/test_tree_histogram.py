"""Histogram trees (``max_bins``, refml.tree.histogram): the bins' edges at quantiles, the
codes, the thresholds at the edges, a forest's edges computed once, and both packages'
histogram trees equal."""

import pytest

from refml.core.random import Generator
from refml.tree import histogram
from tests.helpers import as_list
from tests.test_tree import tree_lists


def test_few_distinct_values_are_a_bin_each_cut_halfway():
    assert histogram.quantile_edges([3.0, 1.0, 2.0, 1.0, 3.0], 3) == [1.5, 2.5]
    assert histogram.quantile_edges([3.0, 1.0, 2.0, 1.0, 3.0], 8) == [1.5, 2.5]
    assert histogram.quantile_edges([5.0, 5.0], 4) == []          # one value: one bin


def test_many_values_are_cut_at_quantiles_with_about_n_over_b_rows_a_bin():
    values = [float(v) for v in range(100)]                       # 0..99
    edges = histogram.quantile_edges(values, 4)
    assert edges == [24.5, 49.5, 74.5]                            # 25 rows a bin
    codes = [histogram.bin_code(edges, v) for v in values]
    assert [codes.count(b) for b in range(4)] == [25, 25, 25, 25]


def test_a_value_repeated_past_several_quantiles_ends_one_bin_only():
    values = [0.0] * 60 + [float(v) for v in range(1, 41)]
    edges = histogram.quantile_edges(values, 10)
    assert edges[0] == 0.5 and edges == sorted(set(edges)) and len(edges) == 4
    assert all(histogram.bin_code(edges, v) == 0 for v in values[:60])


def test_a_value_goes_left_of_an_edge_exactly_when_its_bin_does():
    rng = Generator(5)
    values = [round(rng.normal(), 1) for _ in range(300)]
    for max_bins in (2, 3, 7, 16, 1000):
        edges = histogram.quantile_edges(values, max_bins)
        assert len(edges) + 1 <= max_bins
        for x in values + [rng.normal() for _ in range(50)]:
            code = histogram.bin_code(edges, x)
            for b, edge in enumerate(edges):
                assert (x <= edge) == (code <= b)


@pytest.mark.fast
def test_refml_fast_cuts_the_same_edges_and_codes():
    import numpy as np

    from refml_fast.tree import histogram as fast_histogram

    rng = np.random.default_rng(3)
    X = rng.normal(size=(500, 4)) * [1.0, 1e-300, 1e300, 1.0]
    X[:, 3] = np.round(X[:, 3], 0)
    X[:40, 0] = -0.0
    X[40:80, 0] = 0.0
    for max_bins in (2, 5, 17, 256, 10_000):
        edges = histogram.bin_edges(X.tolist(), max_bins)
        fast_edges = fast_histogram.bin_edges(X, max_bins)
        assert [e.tolist() for e in fast_edges] == edges
        assert fast_histogram.binned(X, fast_edges).tolist() == histogram.binned(X.tolist(),
                                                                                   edges)


def test_max_bins_is_checked(lib):
    for bad in (1, 0, 2.5, "256"):
        with pytest.raises((ValueError, TypeError)):
            lib.DecisionTreeClassifier(max_bins=bad).fit([[0.0], [1.0]], [0, 1])
        with pytest.raises((ValueError, TypeError)):
            lib.RandomForestClassifier(max_bins=bad).fit([[0.0], [1.0]], [0, 1])


def test_thresholds_are_edges_and_the_training_rows_split_as_their_codes(lib):
    rng = Generator(8)
    X = [[rng.normal(), rng.normal()] for _ in range(200)]
    y = [int(a + b + 0.5 * rng.normal() > 0) for a, b in X]
    tree = lib.DecisionTreeClassifier(max_bins=8).fit(X, y).tree_
    edges = histogram.bin_edges(X, 8)
    features, thresholds = as_list(tree.feature), as_list(tree.threshold)
    splits = [(j, t) for j, t in zip(features, thresholds) if j >= 0]
    assert splits and all(t in edges[j] for j, t in splits)


def test_a_forest_cuts_its_edges_once_from_all_its_rows(lib):
    """Every tree's thresholds are edges of the whole training set, not of its bootstrap
    sample (whose quantiles differ)."""
    rng = Generator(9)
    X = [[rng.normal(), rng.normal(), rng.normal()] for _ in range(300)]
    y = [int(a - c + 0.3 * rng.normal() > 0) for a, _, c in X]
    forest = lib.RandomForestClassifier(n_estimators=6, max_bins=16, random_state=2).fit(X, y)
    edges = histogram.bin_edges(X, 16)
    for member in forest.estimators_:
        tree = member.tree_
        for j, t in zip(as_list(tree.feature), as_list(tree.threshold)):
            assert j < 0 or t in edges[j]
    assert not hasattr(forest, "_member_edges")
    assert all(not hasattr(member, "_given_edges") for member in forest.estimators_)


@pytest.mark.fast
@pytest.mark.parametrize("params", [{"max_features": "sqrt", "random_state": 1, "max_bins": 64},
                                    {"max_features": 2, "random_state": 5, "max_bins": 12},
                                    {"max_features": "sqrt", "random_state": 3,
                                     "min_samples_leaf": 4, "max_bins": 256}])
def test_histogram_trees_of_both_packages_are_equal_with_ties_and_weights(params):
    """Histogram trees searching a fraction of the features (sorting each node's rows by
    bin): rounded data with many ties, unit and integer weights; refml's tree_ float for
    float."""
    import numpy as np

    import refml
    import refml_fast

    rng = np.random.default_rng(4)
    X = np.round(rng.normal(size=(400, 10)), 1)
    y = (X[:, 0] + X[:, 1] + rng.normal(size=400) > 0).astype(int) + (X[:, 2] > 1)
    for weights in (None, rng.integers(0, 4, size=400).astype(float)):
        fast = refml_fast.DecisionTreeClassifier(**params).fit(X, y, sample_weight=weights)
        reference = refml.DecisionTreeClassifier(**params).fit(
            X.tolist(), y.tolist(), sample_weight=None if weights is None else weights.tolist())
        assert tree_lists(fast) == tree_lists(reference)
        assert fast.tree_.node_count > 20
