"""refml_fast's subtree spaces (refml_fast/tree/compact.py): a node's rows copied into
arrays of their own change no split.  Trees large enough to open nested spaces grow the
same whether they sort at their nodes (spaces) or partition presorted segments (none), and
a forest's members whose nodes open spaces are refml's trees."""

import pytest

from tests.helpers import assert_forest_members_are_refmls_trees
from tests.test_tree_growth import grown

pytestmark = pytest.mark.fast


def wide_data(n, d, k, seed):
    """n rows of d features, k classes: Gaussian classes that overlap, a quarter of the
    features rounded to few values (ties of rank inside the spaces)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, size=n)
    X = rng.normal(size=(k, d))[y] * 0.4 + rng.normal(size=(n, d))
    X[:, : d // 4] = np.round(X[:, : d // 4])
    return X, y


def test_spaces_open_where_the_rule_says():
    """The rule on ranks of 1,600 bytes a row (400 features, 40 or more searched): a space
    below the tree's (12,000 rows) for a node of a quarter of its rows, one below that for a
    sixteenth, none for a node of more than a quarter, none once a space's ranks fit in
    SPACE_BYTES, and never deeper than MOST_SPACES."""
    import numpy as np

    from refml_fast.tree import compact

    bounds = np.zeros((compact.MOST_SPACES + 1, 2), dtype=np.int64)
    bounds[0] = 0, 12_000
    assert compact.wants_space(bounds, 0, 100, 3_100, 1_600)
    assert not compact.wants_space(bounds, 0, 100, 3_101, 1_600)
    bounds[1] = 100, 3_100
    assert compact.space_of(bounds, 1, 200, 950) == 1
    assert compact.space_of(bounds, 1, 3_100, 3_200) == 0     # the growth left space 1
    assert compact.wants_space(bounds, 1, 200, 950, 1_600)
    assert not compact.wants_space(bounds, 1, 200, 950, 300)  # 3,000 x 300 bytes fit
    bounds[1:] = 0, 12_000
    assert not compact.wants_space(bounds, compact.MOST_SPACES, 0, 10, 1_600)
    # int32 ranks of 400 features: a row's 1,600 bytes when a node searches 40 or more
    assert compact.space_row_bytes(400, 40, 4) == 1_600
    assert compact.space_row_bytes(400, 39, 4) == 0
    assert not compact.wants_space(bounds, 0, 100, 3_100, 0)


def test_a_space_holds_its_nodes_rows_in_their_order():
    """open_space from the tree's rows and from a space: each copied row's ranks, code,
    weight and id in the tree, rows 0..m-1 in the node's order."""
    import numpy as np

    from refml_fast.tree import compact

    rng = np.random.default_rng(3)
    n, d = 500, 6
    ranks = rng.integers(0, 90, size=(d, n)).astype(np.int32)
    codes, weights = rng.integers(0, 3, size=n), rng.integers(1, 4, size=n).astype(float)
    rows = np.sort(rng.choice(n, size=200, replace=False)).astype(np.int32)
    first = (np.empty((d, 200), np.int32), np.empty(200, np.int32), np.empty(200, np.int32),
             np.empty(200, np.int64), np.empty(200))
    compact.open_space(ranks, rows, np.empty(0, np.int32), codes, weights, 40, 120, *first)
    node = rows[40:160]
    np.testing.assert_array_equal(first[0][:, :120], ranks[:, node])
    np.testing.assert_array_equal(first[1][:120], np.arange(120))
    np.testing.assert_array_equal(first[2][:120], node)
    np.testing.assert_array_equal(first[3][:120], codes[node])
    np.testing.assert_array_equal(first[4][:120], weights[node])
    inner = np.sort(rng.choice(120, size=50, replace=False)).astype(np.int32)
    second = (np.empty((d, 60), np.int32), np.empty(60, np.int32), np.empty(60, np.int32),
              np.empty(60, np.int64), np.empty(60))
    compact.open_space(first[0], inner, first[2], first[3], first[4], 10, 30, *second)
    rows_in_tree = node[inner[10:40]]
    np.testing.assert_array_equal(second[0][:, :30], ranks[:, rows_in_tree])
    np.testing.assert_array_equal(second[2][:30], rows_in_tree)
    np.testing.assert_array_equal(second[3][:30], codes[rows_in_tree])


@pytest.mark.parametrize("k, criterion, weighted", [(3, "gini", False), (3, "gini", True),
                                                    (6, "gini", False),
                                                    (2, "entropy", True)])
def test_trees_in_nested_spaces_grow_as_presorted_segments(monkeypatch, k, criterion,
                                                            weighted):
    """12,000 x 400 searching 40 features a node (ranks of 1,600 bytes a row: spaces two
    deep), sorting at the nodes
    against presorted segments: the same tree, thresholds included.  Three classes search
    their large nodes through bucket bounds, six do not; whole and fractional weights (a
    third of the rows weighing 0: one space deep)."""
    import numpy as np

    import refml_fast
    import refml_fast.tree.classifier as fast_tree
    from refml_fast.tree import compact

    X, y = wide_data(12_000, 400, k, seed=k)
    bounds = np.array([[0, 12_000], [0, 3_000], [0, 0], [0, 0]])
    assert compact.wants_space(bounds, 0, 0, 3_000, 1_600)
    assert compact.wants_space(bounds, 1, 0, 750, 1_600)
    rng = np.random.default_rng(k)
    weights = None
    if weighted:
        weights = (rng.integers(0, 3, len(y)).astype(float) if criterion == "gini"
                   else rng.random(len(y)))
    trees = []
    for sorting in (True, False):
        monkeypatch.setattr(fast_tree, "sorts_at_nodes", lambda *args, sorting=sorting: sorting)
        model = refml_fast.DecisionTreeClassifier(criterion=criterion, max_features=0.1,
                                                  random_state=5)
        trees.append(grown(model.fit(X, y, sample_weight=weights)))
    assert trees[0] == trees[1]
    assert len(trees[0][0]) > 500


def test_forest_members_that_open_spaces_are_refmls_trees():
    """Two members on 2,500 x 400 searching 40 features a node (1,580 kept rows of 1,600
    bytes of ranks: a space for each node of at most 395 rows), three classes: refml's
    trees."""
    X, y = wide_data(2_500, 400, 3, seed=9)
    assert_forest_members_are_refmls_trees(X, y, n_estimators=2, max_features=0.1,
                                           random_state=4)
