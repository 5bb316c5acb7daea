"""Classification trees (refml.tree / refml_fast.tree): splits worked by hand, the tie rules,
optimality of every split against a brute-force search, stopping rules, the text rendering,
bad parameters, and exact refml/refml_fast agreement.  Sample weights, random feature
subsets and pruning are in test_tree_options.py."""

import copy
import math
from fractions import Fraction

import pytest

from refml.core.random import Generator
from refml.tree.split import Tree
from tests.helpers import as_list, compiled_and_plain

# One feature, two classes: the only boundary worth taking is between 1 and 2 (t = 1.5).
STEPS_X = [[0.0], [1.0], [2.0], [3.0]]
STEPS_Y = ["a", "a", "b", "b"]
# XOR: every first split gains nothing (each half stays 50/50), the next ones everything.
XOR_X = [[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]]
XOR_Y = [0, 1, 1, 0]
# Two identical, equally perfect features: column order must pick feature 0.
TWIN_X = [[0.0, 0.0], [1.0, 1.0], [2.0, 2.0], [3.0, 3.0]]
TWIN_Y = [0, 0, 1, 1]
# Labels 0 1 1 0 on one feature: t = 0.5 and t = 2.5 cost exactly the same (4/3 by hand);
# the ascending threshold order must keep t = 0.5.
ENDS_X = [[0.0], [1.0], [2.0], [3.0]]
ENDS_Y = [0, 1, 1, 0]
# Feature 0 is constant, feature 1 separates: feature 0 must never be split on.
CONST_X = [[5.0, 0.0], [5.0, 1.0], [5.0, 2.0], [5.0, 3.0]]
# Every feature constant and labels 2:2: one leaf, the vote tie goes to classes_[0] = "a".
FLAT_X = [[1.0, 2.0]] * 4
FLAT_Y = ["b", "a", "b", "a"]
# Conflicting duplicates: the same point with both labels cannot be fitted.
CLASH_X = [[0.0], [0.0], [1.0]]
CLASH_Y = [0, 1, 1]


def tree_lists(model):
    """The fitted tree_ of either package as plain lists."""
    return {name: as_list(getattr(model.tree_, name)) for name in Tree.FIELDS}


def random_data(rng, n, d, k, grid=True):
    """Small random data: integer grid values (many ties) or normals; every class present."""
    X = [[float(rng.randbelow(4)) if grid else rng.normal() for _ in range(d)] for _ in range(n)]
    y = [i % k for i in range(n)]
    return X, [y[i] for i in rng.permutation(n)]


# --- splits by hand and the tie rules ----------------------------------------------------

def test_a_step_is_split_at_the_midpoint(lib):
    model = lib.DecisionTreeClassifier().fit(STEPS_X, STEPS_Y)
    tree = tree_lists(model)
    assert tree["feature"] == [0, -1, -1] and tree["threshold"] == [1.5, 0.0, 0.0]
    assert tree["value"] == [[2.0, 2.0], [2.0, 0.0], [0.0, 2.0]]
    assert tree["impurity"] == [0.5, 0.0, 0.0]  # Gini 1/2 (1/2) + 1/2 (1/2) at the root
    assert as_list(model.predict([[1.5], [1.50001], [-9.0], [9.0]])) == ["a", "b", "a", "b"]


def test_xor_takes_a_zero_gain_split_and_fits_exactly(lib):
    model = lib.DecisionTreeClassifier().fit(XOR_X, XOR_Y)
    assert as_list(model.predict(XOR_X)) == XOR_Y
    assert model.get_depth() == 2 and model.get_n_leaves() == 4
    assert tree_lists(model)["feature"][:2] == [0, 1]  # column order on the 0-gain tie


def test_features_are_tried_in_column_order(lib):
    model = lib.DecisionTreeClassifier().fit(TWIN_X, TWIN_Y)
    assert tree_lists(model)["feature"][0] == 0
    reversed_columns = [[b, a + 10.0] for a, b in TWIN_X]
    assert tree_lists(lib.DecisionTreeClassifier().fit(reversed_columns, TWIN_Y))["feature"][0] == 0


def test_equal_costs_keep_the_smallest_threshold(lib):
    model = lib.DecisionTreeClassifier(max_depth=1).fit(ENDS_X, ENDS_Y)
    assert tree_lists(model)["threshold"][0] == 0.5


def test_a_constant_feature_is_never_split_on(lib):
    model = lib.DecisionTreeClassifier().fit(CONST_X, TWIN_Y)
    assert [f for f in tree_lists(model)["feature"] if f != -1] == [1]


def test_all_constant_features_give_one_leaf_voting_the_first_class_on_ties(lib):
    model = lib.DecisionTreeClassifier().fit(FLAT_X, FLAT_Y)
    assert model.tree_.node_count == 1 and model.get_depth() == 0
    assert as_list(model.predict([[0.0, 0.0]])) == ["a"]
    assert as_list(model.predict_proba([[9.0, 9.0]])) == [[0.5, 0.5]]


def test_conflicting_duplicates_end_in_an_impure_leaf(lib):
    model = lib.DecisionTreeClassifier().fit(CLASH_X, CLASH_Y)
    assert as_list(model.predict_proba([[0.0], [1.0]])) == [[0.5, 0.5], [0.0, 1.0]]
    assert as_list(model.predict(CLASH_X)) == [0, 0, 1]


def test_entropy_uses_natural_logs(lib):
    model = lib.DecisionTreeClassifier(criterion="entropy").fit(STEPS_X, STEPS_Y)
    assert math.isclose(tree_lists(model)["impurity"][0], math.log(2.0), rel_tol=1e-15)


def test_adjacent_floats_and_huge_values_still_split(lib):
    low = 1.0
    high = math.nextafter(1.0, 2.0)
    model = lib.DecisionTreeClassifier().fit([[low], [high]], [0, 1])
    assert tree_lists(model)["threshold"][0] == low  # the midpoint rounds onto a bound
    assert as_list(model.predict([[low], [high]])) == [0, 1]
    X = [[-1e308], [1e308], [1e300], [-1e300]]
    model = lib.DecisionTreeClassifier().fit(X, [0, 1, 1, 0])
    assert tree_lists(model)["threshold"][0] == 0.0  # (-1e300)/2 + 1e300/2, no overflow
    assert as_list(model.predict(X)) == [0, 1, 1, 0]


# --- every split is the best one (a brute-force search with exact fractions) ------------

def exact_cost(X, y, weights, rows, j, t, criterion):
    """|R1|/|R| gamma(R1) + |R2|/|R| gamma(R2) of the split X_j <= t, straight from the lecture."""
    sides = [[i for i in rows if X[i][j] <= t], [i for i in rows if X[i][j] > t]]
    total = sum(weights[i] for i in rows)
    cost = 0
    for side in sides:
        size = sum(weights[i] for i in side)
        p = [sum(weights[i] for i in side if y[i] == k) / size for k in sorted(set(y))]
        if criterion == "gini":
            gamma = sum(pk * (1 - pk) for pk in p)
        else:
            gamma = -sum(float(pk) * math.log(pk) for pk in p if pk > 0)
        cost += size / total * gamma
    return cost


@pytest.mark.parametrize("criterion", ["gini", "entropy"])
def test_every_split_minimises_the_impurity_over_all_candidates(lib, criterion):
    rng = Generator(17)
    for _ in range(15):
        X, y = random_data(rng, 12, 3, 3, grid=rng.random() < 0.7)
        weights = [Fraction(1 + rng.randbelow(3)) for _ in y]
        model = lib.DecisionTreeClassifier(criterion=criterion)
        model.fit(X, y, sample_weight=[float(w) for w in weights])
        tree = tree_lists(model)
        for node, rows in enumerate(node_rows(X, tree)):
            if tree["feature"][node] == -1:
                continue
            j, t = tree["feature"][node], tree["threshold"][node]
            chosen = exact_cost(X, y, weights, rows, j, t, criterion)
            best = min(exact_cost(X, y, weights, rows, f, value, criterion)
                       for f in range(3) for value in {X[i][f] for i in rows}
                       if any(X[i][f] > value for i in rows))
            assert chosen <= best + (0 if criterion == "gini" else 1e-12)


def node_rows(X, tree):
    """The training rows reaching each node, by descending the tree."""
    rows = [[] for _ in tree["feature"]]
    for i, x in enumerate(X):
        node = 0
        rows[0].append(i)
        while tree["children_left"][node] != -1:
            left = x[tree["feature"][node]] <= tree["threshold"][node]
            node = tree["children_left" if left else "children_right"][node]
            rows[node].append(i)
    return rows


# --- stopping rules ----------------------------------------------------------------------

def test_max_depth_one_is_a_stump(lib):
    X, y = random_data(Generator(3), 30, 3, 3)
    model = lib.DecisionTreeClassifier(max_depth=1).fit(X, y)
    assert model.get_depth() == 1 and model.get_n_leaves() == 2


def test_min_samples_split_counts_rows_whatever_their_weights(lib):
    # Three rows of weight 0.5 are three points (scikit-learn's reading): 3 >= 2, a split.
    model = lib.DecisionTreeClassifier().fit(STEPS_X[:3], [0, 0, 1], sample_weight=[0.5] * 3)
    assert model.tree_.node_count == 3
    model = lib.DecisionTreeClassifier(min_samples_split=5).fit(STEPS_X, STEPS_Y)
    assert model.tree_.node_count == 1  # 4 points < n0 = 5
    model = lib.DecisionTreeClassifier(min_samples_split=5).fit(
        STEPS_X, STEPS_Y, sample_weight=[1.0, 1.0, 1.0, 2.0])
    assert model.tree_.node_count == 1  # still 4 rows: a weight of 2 is not two rows
    model = lib.DecisionTreeClassifier(min_samples_split=4).fit(
        STEPS_X, STEPS_Y, sample_weight=[1.0, 0.0, 1.0, 2.0])
    assert model.tree_.node_count == 1  # a row of weight 0 is no row: 3 < 4


def test_uniform_weights_of_any_scale_grow_the_unweighted_tree(lib):
    from refml.core.random import Generator

    X, y = random_data(Generator(11), 40, 3, 2)
    plain = lib.DecisionTreeClassifier().fit(X, y)
    for scale in (1e-5, 1.0 / 40, 0.5, 3.0, 1e6):
        weighted = lib.DecisionTreeClassifier().fit(X, y, sample_weight=[scale] * 40)
        assert weighted.get_depth() == plain.get_depth()
        assert list(weighted.tree_.feature) == list(plain.tree_.feature)
        assert list(weighted.tree_.threshold) == list(plain.tree_.threshold)


def test_fully_grown_tree_fits_data_without_conflicting_duplicates(lib):
    rng = Generator(5)
    for _ in range(10):
        X, y = random_data(rng, 25, 2, 3, grid=False)
        assert as_list(lib.DecisionTreeClassifier().fit(X, y).predict(X)) == y


def test_predict_proba_gives_the_weighted_leaf_frequencies(lib):
    model = lib.DecisionTreeClassifier(max_depth=1).fit(
        [[0.0], [0.0], [0.0], [1.0]], ["x", "y", "z", "z"], sample_weight=[1.0, 3.0, 4.0, 2.0])
    # The root split x <= 0.5 leaves {x: 1, y: 3, z: 4} on the left, {z: 2} on the right.
    assert as_list(model.predict_proba([[0.0], [1.0]])) == [[0.125, 0.375, 0.5], [0.0, 0.0, 1.0]]
    assert as_list(model.predict([[0.0]])) == ["z"]


# --- text rendering and inspection ---------------------------------------------------------

XOR_TEXT = """\
|--- x0 <= 0.50
|   |--- x1 <= 0.50
|   |   |--- class: 0
|   |--- x1 >  0.50
|   |   |--- class: 1
|--- x0 >  0.50
|   |--- x1 <= 0.50
|   |   |--- class: 1
|   |--- x1 >  0.50
|   |   |--- class: 0"""


def test_text_rendering(lib):
    model = lib.DecisionTreeClassifier().fit(XOR_X, XOR_Y)
    assert model.to_text() == XOR_TEXT
    assert model.to_text(feature_names=["u", "v"], decimals=1, max_depth=0).splitlines() == [
        "|--- u <= 0.5", "|   |--- truncated branch of depth 1",
        "|--- u >  0.5", "|   |--- truncated branch of depth 1"]
    weighted = lib.DecisionTreeClassifier().fit(STEPS_X, STEPS_Y, sample_weight=[1, 2, 3, 4])
    assert weighted.to_text(show_weights=True, decimals=0).splitlines() == [
        "|--- x0 <= 2", "|   |--- weights: [3, 0] class: a",
        "|--- x0 >  2", "|   |--- weights: [0, 7] class: b"]
    with pytest.raises(ValueError, match="feature_names"):
        model.to_text(feature_names=["only one"])


def test_apply_returns_the_leaves(lib):
    model = lib.DecisionTreeClassifier().fit(XOR_X, XOR_Y)
    leaves = as_list(model.apply(XOR_X))
    assert leaves == [2, 3, 5, 6]  # preorder ids: root 0, left 1 (2, 3), right 4 (5, 6)
    assert all(as_list(model.tree_.children_left)[leaf] == -1 for leaf in leaves)


def test_inspection_before_fit_raises(lib):
    import refml

    with pytest.raises(refml.NotFittedError):
        lib.DecisionTreeClassifier().to_text()
    with pytest.raises(refml.NotFittedError):
        lib.DecisionTreeClassifier().get_depth()


# --- hyper-parameters ------------------------------------------------------------------------

@pytest.mark.parametrize("params, name", [
    ({"criterion": "mse"}, "criterion"), ({"max_depth": 0}, "max_depth"),
    ({"max_depth": 2.5}, "max_depth"), ({"min_samples_split": 1}, "min_samples_split"),
    ({"max_features": 0}, "max_features"), ({"max_features": 3}, "max_features"),
    ({"max_features": 0.0}, "max_features"), ({"max_features": 1.5}, "max_features"),
    ({"max_features": "auto"}, "max_features"), ({"max_features": True}, "max_features"),
    ({"ccp_alpha": -0.1}, "ccp_alpha"), ({"ccp_alpha": float("nan")}, "ccp_alpha"),
    ({"random_state": -1}, "random_state"), ({"random_state": "seed"}, "random_state")])
def test_bad_hyper_parameters_raise_at_fit_naming_the_parameter(lib, params, name):
    model = lib.DecisionTreeClassifier(**params)
    with pytest.raises(ValueError, match=name):
        model.fit(XOR_X, XOR_Y)
    assert not hasattr(model, "tree_")


# --- refml and refml_fast build the same tree ----------------------------------------------

PARITY_CASES = [
    {"criterion": "gini"}, {"criterion": "entropy", "min_samples_split": 3},
    {"max_features": "sqrt", "random_state": 3}, {"max_depth": 3, "ccp_alpha": 0.02},
    {"criterion": "entropy", "max_features": 2, "random_state": 5, "ccp_alpha": 0.01}]


@pytest.mark.fast
@pytest.mark.parametrize("params", PARITY_CASES)
def test_both_packages_build_identical_trees(params):
    import refml
    import refml_fast

    rng = Generator(31)
    for _ in range(8):
        X, y = random_data(rng, 30, 4, 3, grid=rng.random() < 0.5)
        weights = [rng.random() * 3 if rng.random() < 0.8 else 0.0 for _ in y]
        weights[0] = 1.0
        trees = [package.DecisionTreeClassifier(**params).fit(X, y, sample_weight=weights)
                 for package in (refml, refml_fast)]
        assert tree_lists(trees[0]) == tree_lists(trees[1])
        assert as_list(trees[0].predict_proba(X)) == as_list(trees[1].predict_proba(X))
        assert trees[0].to_text(show_weights=True) == trees[1].to_text(show_weights=True)


@pytest.mark.fast
def test_kernels_run_as_plain_python_with_the_same_result():
    """NUMBA_DISABLE_JIT=1 runs the kernel bodies as Python (coverage, docs/style.md rule 8)."""
    code = ("import refml_fast\n"
            "from refml.core.random import Generator\n"
            "from tests.test_tree import random_data, tree_lists\n"
            "X, y = random_data(Generator(4), 40, 3, 3)\n"
            "for criterion in ('gini', 'entropy'):\n"
            "    m = refml_fast.DecisionTreeClassifier(criterion=criterion, max_features=2,\n"
            "                                          random_state=1).fit(X, y)\n"
            "    print(tree_lists(m), list(m.predict(X)))\n")
    compiled, plain = compiled_and_plain(code)
    assert plain == compiled and compiled.count("children_left") == 2


def test_fit_leaves_inputs_alone_and_refits_cleanly(lib):
    X, y = copy.deepcopy(XOR_X), list(XOR_Y)
    model = lib.DecisionTreeClassifier(max_depth=1).fit(X, y)
    assert X == XOR_X and y == XOR_Y
    model.set_params(max_depth=None).fit(X, y)
    assert model.get_n_leaves() == 4


@pytest.mark.fast
def test_the_presort_orders_kept_rows_by_value_then_index():
    """refml_fast grows on dense ranks and a counting sort: each feature's kept rows in
    (value, index) order, equal values (-0.0 == 0.0 included) sharing a rank."""
    import numpy as np

    from refml_fast.tree.classifier import presort

    rng = np.random.default_rng(8)
    X = rng.integers(-3, 4, size=(500, 3)).astype(float)
    X[::7, 1] = -0.0
    X[:, 2] = rng.normal(size=500)
    kept = np.flatnonzero(rng.random(500) < 0.6).astype(np.int32)
    sorted_rows, sorted_ranks = presort(X, kept)
    for j in range(3):
        expected = kept[np.lexsort((kept, X[kept, j]))]
        assert sorted_rows[j].tolist() == expected.tolist()
        distinct = np.unique(X[:, j])  # np.unique counts -0.0 and 0.0 once
        assert sorted_ranks[j].tolist() == np.searchsorted(distinct, X[expected, j]).tolist()


@pytest.mark.fast
def test_ranks_split_runs_that_share_a_high_half():
    """The ranking sorts words holding a value's high 32 bits over its row id: values equal
    in those bits (1 + k 2^-40, -(1 + k 2^-40), tiny negatives) are told apart by their low
    halves, equal values share a rank, and the presort keeps only the kept rows."""
    import numpy as np

    from refml_fast.tree.classifier import all_ranks, presort

    rng = np.random.default_rng(3)
    n = 3_000
    X = np.empty((n, 4))
    X[:, 0] = 1.0 + rng.integers(0, 40, size=n) * 2.0 ** -40      # one high half, 40 values
    X[:, 1] = -X[:, 0]
    X[:, 2] = rng.choice([-1e-300, -0.0, 0.0, 5e-324, -5e-324, 2.5, -2.5], size=n)
    X[:, 3] = rng.normal(size=n) * 10.0 ** rng.integers(-5, 5, size=n)
    ranks = all_ranks(X)
    kept = np.flatnonzero(rng.random(n) < 0.7).astype(np.int32)
    sorted_rows, sorted_ranks = presort(X, kept)
    for j in range(4):
        distinct = np.unique(X[:, j])
        assert ranks[j].tolist() == np.searchsorted(distinct, X[:, j]).tolist()
        expected = kept[np.lexsort((kept, X[kept, j]))]
        assert sorted_rows[j].tolist() == expected.tolist()
        assert sorted_ranks[j].tolist() == ranks[j][expected].tolist()


@pytest.mark.fast
def test_radix_passes_over_high_halves_sort_the_words_as_numpy_does():
    """``sort_key_words`` skips the passes whose digit is one value for all words, and
    an odd number of moving passes ends in the scratch and is copied back: columns whose
    keys differ in no digit, in the lowest digit only, in the two lowest, in all three."""
    import numpy as np

    from refml_fast.tree import kernels, word_sort

    rng = np.random.default_rng(12)
    n = 2_000
    X = np.empty((n, 6))
    X[:, 0] = 1.0 + rng.integers(0, 40, size=n) * 2.0 ** -40    # one high half
    X[:, 1] = 1.0 + rng.integers(0, 300, size=n) * 2.0 ** -28   # the lowest digit differs
    X[:, 2] = 1.0 + rng.integers(0, 3_000, size=n) * 2.0 ** -12  # the two lowest
    X[:, 3] = rng.normal(size=n) * 10.0 ** rng.integers(-5, 5, size=n)  # all three
    X[:, 4] = 7.0                                                # one value
    X[:, 5] = rng.choice([-1e-300, -0.0, 0.0, 5e-324, -2.5, 2.5], size=n)
    bits = X.view(np.uint64)
    keys = np.empty((6, n), dtype=np.uint64)
    packed = np.empty((6, n), dtype=np.uint64)
    kernels.column_keys(bits, 0, keys, packed)
    expected = np.sort(packed, axis=1)
    assert not np.array_equal(packed, expected)
    word_sort.sort_key_words(packed.view(np.int64), np.empty(n, dtype=np.int64),
                             np.empty((1 << word_sort.KEY_DIGIT) + 1, dtype=np.int64))
    assert np.array_equal(packed, expected)


@pytest.mark.fast
@pytest.mark.parametrize("n_threads", [2, 3])
def test_ranks_on_threads_are_the_ranks_of_one_thread(n_threads):
    """``all_ranks`` on several threads ranks blocks of columns apart: the same ranks as
    on one, for columns of ties, of one high half and of spread values, on 1-7 columns."""
    import numpy as np

    from refml_fast.tree import classifier

    rng = np.random.default_rng(n_threads)
    n = classifier.RANKS_FOR_THREADS // 4 + 11
    for d in (1, 4, 7):
        X = rng.normal(size=(n, d)) * 10.0 ** rng.integers(-3, 3, size=(n, d))
        X[:, 0] = rng.integers(0, 30, size=n)
        if d > 1:
            X[:, 1] = 1.0 + rng.integers(0, 40, size=n) * 2.0 ** -40
        threaded = classifier.all_ranks(X, n_threads)
        for j in range(d):
            distinct = np.unique(X[:, j])
            assert threaded[j].tolist() == np.searchsorted(distinct, X[:, j]).tolist()


@pytest.mark.fast
def test_a_forest_member_grows_the_tree_its_own_presort_gives():
    """Members read one ranking of the whole training set; the tree fitted alone on the
    same weights ranks again and must come out identical."""
    import numpy as np

    import refml_fast

    rng = np.random.default_rng(2)
    X = np.round(rng.normal(size=(300, 5)), 1)
    y = (X[:, 0] + X[:, 1] > 0).astype(int) + (X[:, 2] > 1)
    forest = refml_fast.RandomForestClassifier(n_estimators=3, max_features=2,
                                               random_state=4).fit(X, y)
    for member, seed_weights in zip(forest.estimators_, member_weights(forest, len(y))):
        alone = refml_fast.DecisionTreeClassifier(max_features=2,
                                                  random_state=member.random_state)
        alone.fit(X, y, sample_weight=seed_weights)
        assert tree_lists(alone) == tree_lists(member)


def member_weights(forest, n_rows):
    """The bootstrap counts of each member, drawn again as refml's bagging draws them."""
    from refml.ensemble import RandomForestClassifier as Reference

    master = Generator(forest.random_state)
    for seed in [master.next_u64() for _ in range(forest.n_estimators)]:
        drawn = Reference._bootstrap(Generator(seed), list(range(n_rows)))
        yield [float(c) for c in Reference._counts(drawn, n_rows)]
