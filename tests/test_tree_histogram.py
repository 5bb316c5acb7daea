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


def binned_grower_calls(monkeypatch):
    """Count the calls of refml_fast's grower from bin counts (``grow_binned``)."""
    from refml_fast.tree import grow_binned

    calls = []
    kernel = grow_binned.grow_binned_tree

    def counted(*args):
        calls.append(args[0].shape)
        return kernel(*args)

    monkeypatch.setattr(grow_binned, "grow_binned_tree", counted)
    return calls


@pytest.mark.fast
@pytest.mark.parametrize("params", [
    {"max_bins": 256, "max_features": "sqrt"},
    {"max_bins": 32, "max_features": None, "min_samples_leaf": 7},
    {"max_bins": 3, "max_features": 2, "max_depth": 5},
    {"max_bins": 200, "max_features": 3, "min_samples_split": 40},
])
def test_counting_bins_grows_the_tree_that_ordering_rows_grows(params, monkeypatch):
    """refml_fast grows a Gini histogram tree with whole weights from its bins' class
    counts; with that grower switched off (MOST_BINS 0) it orders the rows by code as exact
    CART does.  The trees are equal float for float: lone trees with unit and integer
    weights, forests (bootstrap counts), four classes, ties, a constant feature."""
    import numpy as np

    import refml_fast
    from refml_fast.tree import grow_binned

    rng = np.random.default_rng(11)
    X = rng.normal(size=(3000, 9))
    X[:, 3] = np.round(X[:, 3])                    # a few distinct values, many ties
    X[:, 5] = 2.0                                  # constant
    X[:, 7] = np.round(rng.exponential(size=3000), 2)
    y = (X[:, 0] + X[:, 1] + X[:, 3] + rng.normal(size=3000) > 0).astype(int) + 2 * (X[:, 2] > 0.5)
    weights = rng.integers(0, 5, size=3000).astype(float)

    def fitted(make, sample_weight):
        return make().fit(X, y, sample_weight=sample_weight)

    cases = [(lambda: refml_fast.DecisionTreeClassifier(random_state=2, **params), None),
             (lambda: refml_fast.DecisionTreeClassifier(random_state=3, **params), weights),
             (lambda: refml_fast.RandomForestClassifier(n_estimators=4, random_state=4,
                                                        n_jobs=2, **params), None)]
    for make, sample_weight in cases:
        calls = binned_grower_calls(monkeypatch)
        counted = fitted(make, sample_weight)
        assert calls, "the bins' grower was not used"
        monkeypatch.setattr(grow_binned, "MOST_BINS", 0)
        ordered = fitted(make, sample_weight)
        monkeypatch.undo()
        members = getattr(counted, "estimators_", [counted])
        assert len(calls) == len(members)
        for a, b in zip(members, getattr(ordered, "estimators_", [ordered])):
            assert tree_lists(a) == tree_lists(b)
        assert members[0].tree_.node_count > 15
        np.testing.assert_array_equal(counted.predict_proba(X), ordered.predict_proba(X))


@pytest.mark.fast
def test_trees_counted_from_bins_equal_refml(monkeypatch):
    """refml_fast's histogram tree from bin counts (nodes of 256 rows and more) equals
    refml's, which orders the rows at every node."""
    import numpy as np

    import refml
    import refml_fast

    rng = np.random.default_rng(12)
    X = np.round(rng.normal(size=(1500, 5)), 2)
    y = (X[:, 0] - X[:, 1] + rng.normal(size=1500) > 0).astype(int) + (X[:, 4] > 1)
    calls = binned_grower_calls(monkeypatch)
    params = {"max_bins": 40, "max_features": 2, "random_state": 7}
    fast = refml_fast.DecisionTreeClassifier(**params).fit(X, y)
    assert calls
    reference = refml.DecisionTreeClassifier(**params).fit(X.tolist(), y.tolist())
    assert tree_lists(fast) == tree_lists(reference)


@pytest.mark.fast
@pytest.mark.parametrize("params, weights", [({"criterion": "entropy"}, None),
                                             ({}, "fractional"), ({"max_bins": 257}, None)])
def test_trees_the_bins_grower_does_not_give_the_same_floats_keep_ordering_rows(
        params, weights, monkeypatch):
    """Entropy, weights that are not whole numbers (their sums depend on the rows' order)
    and more than 256 codes go to the grower that orders rows."""
    import numpy as np

    import refml_fast

    rng = np.random.default_rng(13)
    X = rng.normal(size=(600, 3))
    y = (X[:, 0] > 0).astype(int)
    w = None if weights is None else rng.uniform(0.5, 2.0, size=600)
    calls = binned_grower_calls(monkeypatch)
    settings = {"max_bins": 64, **params}
    refml_fast.DecisionTreeClassifier(**settings).fit(X, y, sample_weight=w)
    refml_fast.RandomForestClassifier(n_estimators=2, **settings).fit(X, y, sample_weight=w)
    assert calls == []


@pytest.mark.fast
def test_a_node_split_from_bin_counts_is_the_split_from_ordered_rows():
    """``grow_binned.find_binned_split`` against ``grow.find_split`` (rows ordered by code)
    on 400 random nodes: codes with gaps, 2-4 classes, unit and whole weights, minimum
    leaves from 1 to 12, nodes from 2 rows to 700 (both sides of HIST_FROM), equal costs
    (the first boundary and the first feature win), a best split at exactly min_leaf rows:
    the same feature, rows on the left, threshold, boundary and class totals of the two
    sides."""
    import numpy as np

    from refml_fast.tree import grow, grow_binned
    from refml_fast.tree.kernels import midpoint
    from refml_fast.tree.word_sort import MAX_BUCKETS

    rng = np.random.default_rng(14)
    for case in range(400):
        n, d, k = int(rng.integers(2, 700)), int(rng.integers(1, 4)), int(rng.integers(2, 5))
        used = np.sort(rng.choice(256, size=int(rng.integers(1, 40)), replace=False))
        bins = used[rng.integers(0, used.size, size=(d, n))].astype(np.uint8)
        labels = rng.integers(0, k, size=n)
        labels = np.where(rng.random(n) < 0.6, (bins[0] > np.median(bins[0])) % k, labels)
        min_leaf = int(rng.integers(1, 13))
        if case % 4 == 1:    # equal costs: mirrored class pattern, and a copied feature
            reps = int(rng.integers(1, 60))
            n, d, k = reps * used.size, 2, 2
            bins = np.tile(np.repeat(used, reps).astype(np.uint8), (2, 1))
            labels = np.repeat(np.arange(used.size) % 2, reps)
        elif case % 4 == 3:  # the best split isolates a lowest bin of min_leaf rows
            labels = np.zeros(n, dtype=np.int64)
            low = bins[0] == bins[0].min()
            bins[0, low] = bins[0].min() + 1 if bins[0].min() < 255 else 255
            few = rng.choice(n, size=min_leaf, replace=False)
            bins[0, few] = 0
            labels[few] = 1
        unit = case % 2 == 0 or case % 4 == 1
        weights = np.ones(n) if unit else rng.integers(1, 4, size=n).astype(float)
        rows = np.arange(n, dtype=np.int32)
        node_counts = np.bincount(labels, weights, minlength=k).astype(float)
        selected = np.ones(d, dtype=np.bool_)
        ordered_counts, binned_counts = np.empty((2, k)), np.empty((2, k))
        feature, n_left, below, above, boundary = grow.find_split(
            True, np.empty((d, 0), np.int32), np.empty((d, 0), np.int32),
            bins.astype(np.int32), rows, np.empty((2, n), np.int64),
            np.empty(MAX_BUCKETS + 2, np.int64), labels, weights, 0, n, 0, 2 if unit else 1,
            node_counts, selected, np.empty((4, k)), ordered_counts, min_leaf)
        threshold = 0.0 if feature < 0 else midpoint(float(bins[feature, below]),
                                                     float(bins[feature, above]))
        expected = (feature, n_left, threshold, boundary)
        found = grow_binned.find_binned_split(
            bins, np.tile(np.arange(256.0), (d, 1)), rows, labels, weights, unit, 0, n,
            node_counts, selected,
            np.zeros((256, k)), np.zeros(256, np.int64), np.empty((2, k)),
            np.empty((2, n), np.int64), np.empty(MAX_BUCKETS + 2, np.int64), binned_counts,
            min_leaf)
        assert tuple(found) == tuple(expected), case
        if expected[0] >= 0:
            np.testing.assert_array_equal(binned_counts, ordered_counts)


@pytest.mark.fast
def test_exact_trees_on_features_of_few_values_grow_from_bin_counts(monkeypatch):
    """A tree that sorts at its nodes (a forest's members; a tree searching few features),
    Gini, whole weights, on features of at most 256 distinct values each (pixel-like
    integers, a one-hot column, a signed zero): refml_fast counts its rows into the values'
    ranks, and the trees are exact CART's, thresholds (midpoints of adjacent values)
    included: equal to the grower that orders rows, and a lone tree equal to refml's."""
    import numpy as np

    import refml
    import refml_fast
    from refml_fast.tree import grow_binned

    rng = np.random.default_rng(15)
    X = rng.integers(0, 17, size=(2500, 12)).astype(float) * 0.75
    X[:, 4] = rng.integers(0, 256, size=2500) / 255.0        # 256 distinct values
    X[:, 6] = rng.integers(0, 2, size=2500)                  # one-hot like
    X[:300, 7] = -0.0
    y = ((X[:, 0] + X[:, 1] - X[:, 2] > 6.0).astype(int) + (X[:, 4] > 0.7)
         + (rng.random(2500) < 0.1))
    cases = [lambda: refml_fast.DecisionTreeClassifier(max_features=3, random_state=1),
             lambda: refml_fast.RandomForestClassifier(n_estimators=5, random_state=2,
                                                       n_jobs=2),
             lambda: refml_fast.RandomForestClassifier(n_estimators=3, max_features=None,
                                                       random_state=3)]
    for make in cases:
        calls = binned_grower_calls(monkeypatch)
        counted = make().fit(X, y)
        members = getattr(counted, "estimators_", [counted])
        assert len(calls) == len(members)
        monkeypatch.setattr(grow_binned, "MOST_BINS", 0)
        ordered = make().fit(X, y)
        monkeypatch.undo()
        for a, b in zip(members, getattr(ordered, "estimators_", [ordered])):
            assert tree_lists(a) == tree_lists(b)
        np.testing.assert_array_equal(counted.predict_proba(X), ordered.predict_proba(X))
    fast = refml_fast.DecisionTreeClassifier(max_features=3, random_state=1).fit(X[:800],
                                                                                 y[:800])
    reference = refml.DecisionTreeClassifier(max_features=3, random_state=1).fit(
        X[:800].tolist(), y[:800].tolist())
    assert tree_lists(fast) == tree_lists(reference)
    thresholds = [t for t, j in zip(fast.tree_.threshold, fast.tree_.feature) if j == 0]
    assert thresholds and all(t % 0.375 == 0.0 for t in thresholds)   # values' midpoints


@pytest.mark.fast
def test_features_of_more_than_256_values_keep_the_exact_grower(monkeypatch):
    import numpy as np

    import refml_fast

    rng = np.random.default_rng(16)
    X = rng.integers(0, 17, size=(1500, 4)).astype(float)
    X[:, 2] = np.arange(1500) % 257                          # 257 distinct values
    y = (X[:, 0] + X[:, 2] / 16 > 16).astype(int)
    calls = binned_grower_calls(monkeypatch)
    refml_fast.RandomForestClassifier(n_estimators=3, random_state=0).fit(X, y)
    refml_fast.RandomForestClassifier(n_estimators=2, criterion="entropy").fit(X[:, [0, 1]], y)
    assert calls == []
