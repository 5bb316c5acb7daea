"""Classification trees, the options ensembles rely on: sample weights (AdaBoost; integer
weights are repeated rows when n0 = 2, for bagging), a fresh random subset of features at
every split drawn from the shared generator (random forests), and cost-complexity pruning
checked against an enumeration of every subtree."""

from fractions import Fraction

import pytest

from refml.core.random import Generator
from tests.helpers import as_list
from tests.test_tree import STEPS_X, STEPS_Y, TWIN_X, TWIN_Y, XOR_X, XOR_Y, random_data, tree_lists

# --- sample weights ------------------------------------------------------------------------

@pytest.mark.parametrize("params", [{}, {"criterion": "entropy", "max_depth": 3},
                                    {"max_features": 1, "random_state": 4}])
def test_integer_weights_give_exactly_the_tree_of_repeated_rows(lib, params):
    """With n0 = 2: a node splits only if it holds two distinct rows, weighted or repeated
    (n0 counts rows; a larger n0 tells a row of weight m from m rows, as scikit-learn's)."""
    rng = Generator(11)
    for _ in range(6):
        X, y = random_data(rng, 14, 2, 3, grid=rng.random() < 0.5)
        weights = [rng.randbelow(4) for _ in y]
        weights[0] = 1
        repeated = [i for i, w in enumerate(weights) for _ in range(w)]
        weighted = lib.DecisionTreeClassifier(**params).fit(X, y, sample_weight=weights)
        plain = lib.DecisionTreeClassifier(**params).fit([X[i] for i in repeated],
                                                         [y[i] for i in repeated])
        if list(plain.classes_) != list(weighted.classes_):
            continue  # a class whose rows all had weight 0 vanished from the repeated data
        mine, theirs = tree_lists(weighted), tree_lists(plain)
        del mine["n_node_samples"], theirs["n_node_samples"]  # rows differ, weights agree
        assert mine == theirs


def test_zero_weights_remove_rows_but_keep_their_class(lib):
    model = lib.DecisionTreeClassifier().fit(STEPS_X + [[1.2]], STEPS_Y + ["c"],
                                             sample_weight=[1, 1, 1, 1, 0])
    assert tree_lists(model)["threshold"][0] == 1.5  # 1.2 gives no threshold
    assert list(model.classes_) == ["a", "b", "c"]
    assert as_list(model.predict_proba([[1.2]])) == [[1.0, 0.0, 0.0]]


@pytest.mark.parametrize("weights, words", [
    ([0.0, 0.0, 0.0, 0.0], "all zero"), ([1.0, -1.0, 1.0, 1.0], "negative"),
    ([1.0, float("nan"), 1.0, 1.0], "NaN"), ([1.0, float("inf"), 1.0, 1.0], "infinity"),
    ([1.0, 1.0, 1.0], "inconsistent numbers of samples"), ([[1.0]] * 4, "1d"),
    (2.0, "1d"), (["a", 1.0, 1.0, 1.0], "real numbers"),
    ([1e308, 1e308, 1.0, 1.0], "infinity")])
def test_bad_sample_weights_are_refused_and_leave_nothing_fitted(lib, weights, words):
    model = lib.DecisionTreeClassifier()
    with pytest.raises(ValueError, match=words):
        model.fit(STEPS_X, STEPS_Y, sample_weight=weights)
    assert not hasattr(model, "tree_") and not hasattr(model, "classes_")


def test_fit_does_not_mutate_the_weights(lib):
    weights = [1.0, 0.0, 2.0, 3.0]
    lib.DecisionTreeClassifier().fit(STEPS_X, STEPS_Y, sample_weight=weights)
    assert weights == [1.0, 0.0, 2.0, 3.0]


@pytest.mark.fast
def test_numpy_weights_are_checked_and_not_mutated():
    import numpy as np

    import refml_fast

    weights = np.array([1.0, 0.0, 2.0, 3.0])
    model = refml_fast.DecisionTreeClassifier().fit(np.array(STEPS_X), STEPS_Y,
                                                     sample_weight=weights)
    assert weights.tolist() == [1.0, 0.0, 2.0, 3.0]
    assert model.tree_.threshold[0] == 1.0  # the row at 1.0 has weight 0: between 0 and 2
    for bad, words in [(np.array([1.0, -2.0, 1.0, 1.0]), "negative"),
                       (np.zeros(4, dtype=int), "all zero"), (np.ones(3), "inconsistent")]:
        with pytest.raises(ValueError, match=words):
            refml_fast.DecisionTreeClassifier().fit(STEPS_X, STEPS_Y, sample_weight=bad)


# --- random feature subsets (random forests) ----------------------------------------------

def test_max_features_resolves_to_a_count(lib):
    X, y = random_data(Generator(2), 20, 10, 2, grid=False)
    for max_features, expected in [(None, 10), ("sqrt", 3), ("log2", 3), (0.5, 5), (0.01, 1),
                                   (4, 4), (10, 10), (1.0, 10)]:
        model = lib.DecisionTreeClassifier(max_features=max_features, random_state=0).fit(X, y)
        assert model.max_features_ == expected


def test_sqrt_and_log2_count_differently_where_they_differ(lib):
    """At 10 features "sqrt" and "log2" both give 3; at 50, floor(sqrt 50) = 7 and
    floor(log2 50) = 5 (a fault that swapped them went unseen at 10)."""
    X, y = random_data(Generator(3), 20, 50, 2, grid=False)
    for max_features, expected in [("sqrt", 7), ("log2", 5)]:
        model = lib.DecisionTreeClassifier(max_features=max_features, random_state=0).fit(X, y)
        assert model.max_features_ == expected


def test_all_features_drawn_is_the_same_tree_as_no_draw(lib):
    X, y = random_data(Generator(8), 30, 3, 3)
    plain = tree_lists(lib.DecisionTreeClassifier().fit(X, y))
    for seed in range(5):
        assert tree_lists(lib.DecisionTreeClassifier(max_features=3, random_state=seed)
                          .fit(X, y)) == plain


def test_the_root_searches_the_first_feature_drawn(lib):
    # Three non-constant features, m = 1: the root's feature is position 0 after one
    # Fisher-Yates step, i.e. randbelow(3) of the seed's stream.
    X, y = random_data(Generator(9), 30, 3, 2, grid=False)
    seen = set()
    for seed in range(12):
        model = lib.DecisionTreeClassifier(max_features=1, random_state=seed).fit(X, y)
        assert tree_lists(model)["feature"][0] == Generator(seed).randbelow(3)
        seen.add(tree_lists(model)["feature"][0])
    assert seen == {0, 1, 2}


def test_a_fresh_subset_is_drawn_at_every_split(lib):
    X, y = random_data(Generator(10), 40, 2, 2, grid=False)
    mixed = [len({f for f in tree_lists(lib.DecisionTreeClassifier(
        max_features=1, random_state=seed).fit(X, y))["feature"] if f != -1})
        for seed in range(5)]
    assert max(mixed) == 2


def test_a_generator_is_used_in_place_and_matches_its_seed(lib):
    X, y = random_data(Generator(12), 30, 4, 3, grid=False)
    shared = Generator(7)
    first = tree_lists(lib.DecisionTreeClassifier(max_features=2, random_state=shared).fit(X, y))
    assert first == tree_lists(lib.DecisionTreeClassifier(max_features=2, random_state=7)
                               .fit(X, y))
    assert shared.state != Generator(7).state  # advanced by the draws
    twin = Generator(7)
    lib.DecisionTreeClassifier(max_features=2, random_state=twin).fit(X, y)
    assert twin.state == shared.state  # the same number of draws in both packages' runs


def test_drawn_constant_features_do_not_count(lib):
    X = [[7.0, x[0], 7.0] for x in STEPS_X * 3]
    y = STEPS_Y * 3
    for seed in range(6):
        model = lib.DecisionTreeClassifier(max_features=1, random_state=seed).fit(X, y)
        assert tree_lists(model)["feature"][0] == 1
        assert as_list(model.predict(X)) == y


# --- cost-complexity pruning --------------------------------------------------------------

def test_xor_is_pruned_to_a_leaf_beyond_its_weakest_link(lib):
    # R(root) = 4 (1/2) / 4 = 1/2, its leaves R = 0: g(root) = 1/2 / 3 = 1/6 and
    # g(each child) = 1/4 / 1 = 1/4, so T(alpha) is the full tree for alpha < 1/6.
    assert lib.DecisionTreeClassifier(ccp_alpha=0.16).fit(XOR_X, XOR_Y).get_n_leaves() == 4
    assert lib.DecisionTreeClassifier(ccp_alpha=0.17).fit(XOR_X, XOR_Y).get_n_leaves() == 1
    assert lib.DecisionTreeClassifier(ccp_alpha=0.0).fit(XOR_X, XOR_Y).get_n_leaves() == 4


def subtree_choices(tree, node):
    """Every pruning of the subtree at ``node``: (frozenset of kept internal nodes, leaves)."""
    if tree["children_left"][node] == -1:
        return [(frozenset(), 1)]
    choices = [(frozenset(), 1)]
    for left, n_left in subtree_choices(tree, tree["children_left"][node]):
        for right, n_right in subtree_choices(tree, tree["children_right"][node]):
            choices.append((left | right | {node}, n_left + n_right))
    return choices


def exact_risk(tree, kept):
    """R(T) = sum over the leaves of T of |R_t| gini(R_t) / |R_root|, exactly."""
    def weighted_gini(counts):
        counts = [Fraction(c) for c in counts]
        total = sum(counts)
        return sum(c * (total - c) / total for c in counts)

    root = Fraction(tree["weighted_n_node_samples"][0])
    leaves, pending = [], [0]
    while pending:
        node = pending.pop()
        if node in kept:
            pending += [tree["children_left"][node], tree["children_right"][node]]
        else:
            leaves.append(node)
    return sum(weighted_gini(tree["value"][t]) for t in leaves) / root, len(leaves)


def test_pruning_gives_the_smallest_subtree_minimising_the_cost_complexity(lib):
    rng = Generator(21)
    for _ in range(6):
        X, y = random_data(rng, 14, 2, 2)
        grown = tree_lists(lib.DecisionTreeClassifier().fit(X, y))
        choices = [(kept, *exact_risk(grown, kept)) for kept, _ in subtree_choices(grown, 0)]
        critical = sorted({(r1 - r2) / (n2 - n1) for _, r1, n1 in choices
                           for _, r2, n2 in choices if n2 > n1 and r1 > r2})
        for low, high in zip(critical, critical[1:]):
            alpha = (low + high) / 2  # away from every tie, so float rounding cannot matter
            best = min(choices, key=lambda c: (c[1] + alpha * c[2], c[2]))
            model = lib.DecisionTreeClassifier(ccp_alpha=float(alpha)).fit(X, y)
            assert model.get_n_leaves() == best[2]
            assert exact_risk(grown, best[0])[0] == exact_risk(
                tree_lists(model), {t for t, f in enumerate(tree_lists(model)["feature"])
                                    if f != -1})[0]


def test_a_huge_alpha_leaves_the_root_voting(lib):
    model = lib.DecisionTreeClassifier(ccp_alpha=1e9).fit(TWIN_X, TWIN_Y)
    assert model.tree_.node_count == 1 and as_list(model.predict([[3.0, 3.0]])) == [0]


# --- min_samples_leaf (beyond the lectures) ------------------------------------------------

@pytest.mark.parametrize("leaf", [2, 3, 5, 0.1])
def test_min_samples_leaf_leaves_at_least_that_many_rows_on_each_side(lib, leaf):
    rng = Generator(21)
    X, y = random_data(rng, 40, 3, 3, grid=False)
    model = lib.DecisionTreeClassifier(min_samples_leaf=leaf).fit(X, y)
    rows = 4 if leaf == 0.1 else leaf                      # ceil(0.1 * 40)
    lists = tree_lists(model)
    leaves = [i for i, left in enumerate(lists["children_left"]) if left == -1]
    assert min(lists["n_node_samples"][i] for i in leaves) >= rows
    assert model.get_depth() >= 1
    plain = lib.DecisionTreeClassifier().fit(X, y)
    assert tree_lists(lib.DecisionTreeClassifier(min_samples_leaf=1).fit(X, y)) == \
        tree_lists(plain)


def test_min_samples_leaf_is_the_best_split_among_the_allowed_ones(lib):
    """Four rows 0, 1, 2, 3 of classes a, b, b, b: the best split (x <= 0.5) leaves one row;
    with leaves of two rows, x <= 1.5 is the only one allowed."""
    X, y = [[0.0], [1.0], [2.0], [3.0]], ["a", "b", "b", "b"]
    assert tree_lists(lib.DecisionTreeClassifier(max_depth=1).fit(X, y))["threshold"][0] == 0.5
    model = lib.DecisionTreeClassifier(max_depth=1, min_samples_leaf=2).fit(X, y)
    assert tree_lists(model)["threshold"][0] == 1.5
    assert tree_lists(lib.DecisionTreeClassifier(min_samples_leaf=3).fit(X, y))[
        "children_left"] == [-1]


@pytest.mark.parametrize("bad", [0, -1, 1.0, 0.0, True, "2"])
def test_min_samples_leaf_refuses_what_is_no_count_or_fraction(lib, bad):
    with pytest.raises(ValueError, match="min_samples_leaf"):
        lib.DecisionTreeClassifier(min_samples_leaf=bad).fit([[0.0], [1.0]], [0, 1])


def test_forests_pass_min_samples_leaf_to_their_trees(lib):
    rng = Generator(22)
    X, y = random_data(rng, 30, 2, 2, grid=False)
    forest = lib.RandomForestClassifier(n_estimators=3, min_samples_leaf=4,
                                        random_state=0).fit(X, y)
    for tree in forest.estimators_:
        lists = tree_lists(tree)
        leaves = [i for i, left in enumerate(lists["children_left"]) if left == -1]
        assert all(lists["n_node_samples"][i] >= 4 for i in leaves)
