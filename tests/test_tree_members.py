"""Tree members grown from their seeds in one kernel call (refml_fast/ensemble/tree_members.py)
against the same members fitted step by step (the ensemble's ``_fit_one``), and against
refml's."""

import pytest

pytestmark = pytest.mark.fast

TREE_FIELDS = ("children_left", "children_right", "feature", "threshold", "value",
               "impurity", "n_node_samples", "weighted_n_node_samples")


def step_by_step(monkeypatch):
    """Within the block, no ensemble plans its tree members (``TreeMembers.plan`` None)."""
    from refml_fast.ensemble.tree_members import TreeMembers

    monkeypatch.setattr(TreeMembers, "plan", classmethod(lambda *args: None))


def assert_same_members(left, right):
    import numpy as np

    assert len(left.estimators_) == len(right.estimators_)
    for a, b in zip(left.estimators_, right.estimators_):
        assert type(a) is type(b)
        assert sorted(a.__dict__) == sorted(b.__dict__)
        assert a.get_params() == b.get_params()
        assert (a.classes_, a.n_features_in_, a.n_classes_, a.max_features_) == (
            b.classes_, b.n_features_in_, b.n_classes_, b.max_features_)
        for name in TREE_FIELDS:
            np.testing.assert_array_equal(getattr(a.tree_, name), getattr(b.tree_, name))


def data(seed, n, d, k, whole_values=False):
    import numpy as np

    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    if whole_values:
        X = np.round(X * 2.0)
    y = (X[:, 0] + 0.7 * rng.normal(size=n) > 0).astype(int) + (
        rng.random(n) < 0.3 * (k - 2)) * 2
    return X, np.minimum(y, k - 1)


CASES = [
    # (estimator, its arguments: a forest's, or a bagged tree's), data, sample weights)
    ("RandomForestClassifier", {}, (1, 400, 12, 2), None),
    ("RandomForestClassifier", {"criterion": "entropy", "max_depth": 5}, (2, 300, 9, 3), None),
    ("RandomForestClassifier", {"min_samples_leaf": 3, "max_features": 0.6}, (3, 500, 6, 3),
     "whole"),
    ("RandomForestClassifier", {"min_samples_leaf": 0.02}, (4, 350, 10, 2), "fractions"),
    ("RandomForestClassifier", {"min_samples_split": 9, "max_features": None},
     (5, 260, 4, 4), None),
    ("RandomForestClassifier", {"criterion": "entropy"}, (6, 200, 5, 3, True), None),
    ("BaggingClassifier", {"random_state": 0}, (7, 420, 7, 2), "whole"),
    ("BaggingClassifier", {"ccp_alpha": 0.004, "max_features": "sqrt", "random_state": 5},
     (8, 300, 9, 3), "fractions"),
]


@pytest.mark.parametrize("name, arguments, shape, weighting", CASES)
@pytest.mark.parametrize("n_jobs, batch", [(1, 6), (2, 1), (2, 4)])
def test_tree_members_from_one_kernel_are_the_members_fitted_step_by_step(
        monkeypatch, name, arguments, shape, weighting, n_jobs, batch):
    """The same trees, seeds, parameters and attributes, and the same predictions: forests
    and bagged trees, Gini and entropy, depth and leaf limits in rows and fractions,
    pruning, presorted segments (every feature searched) and sorts at nodes, whole and
    fractional sample weights, on one and two threads, members grown one, four (the last
    batch two) or all six in a kernel call."""
    import numpy as np

    import refml_fast
    from refml_fast.ensemble import tree_members

    monkeypatch.setattr(tree_members.TreeMembers, "batches",
                        lambda self, seeds, *_: [seeds[i:i + batch]
                                                 for i in range(0, len(seeds), batch)])

    X, y = data(*shape)
    weights = None
    rng = np.random.default_rng(shape[0])
    if weighting == "whole":
        weights = rng.integers(0, 4, size=len(y)).astype(float)
    elif weighting == "fractions":
        weights = rng.random(len(y)) * 3.0 + 0.01

    def fitted():
        if name == "BaggingClassifier":
            arguments_ = {"estimator": refml_fast.DecisionTreeClassifier(**arguments)}
        else:
            arguments_ = arguments
        model = getattr(refml_fast, name)(n_estimators=6, random_state=11, n_jobs=n_jobs,
                                          **arguments_)
        return model.fit(X, y, sample_weight=weights)

    from refml_fast.ensemble.tree_members import TreeMembers

    grown = []
    grow = TreeMembers.grow
    with monkeypatch.context() as patch:
        patch.setattr(TreeMembers, "grow",
                      lambda plan, seeds: grown.append(len(seeds)) or grow(plan, seeds))
        planned = fitted()
    assert sorted(grown) == sorted([batch] * (6 // batch) + [6 % batch] * (6 % batch > 0))
    with monkeypatch.context() as patch:
        step_by_step(patch)
        stepwise = fitted()
    assert_same_members(planned, stepwise)
    np.testing.assert_array_equal(planned.predict(X), stepwise.predict(X))
    np.testing.assert_array_equal(planned.predict_proba(X), stepwise.predict_proba(X))


@pytest.mark.parametrize("n_seeds, n_threads, n_rows, max_depth, work, sizes", [
    (100, 1, 1_000, -1, 30_000, {14}),        # BATCH_WORK / work
    (100, 2, 1_000, -1, 3_000, {13}),         # four batches a thread
    (50, 2, 10_031, -1, 133_000, {1}),        # room for one tree of 20,061 nodes
    (50, 2, 10_031, 6, 133_000, {4}),         # a tree of at most 127 nodes
    (3, 2, 100, -1, 1_000, {1}),
])
def test_member_batches(n_seeds, n_threads, n_rows, max_depth, work, sizes):
    """Consecutive batches of the seeds, every seed once, in order; their sizes from
    the work, the threads and the room for nodes (the last batch may be smaller)."""
    import types

    from refml_fast.ensemble.tree_members import TreeMembers
    from refml_fast.tree.kernels import node_capacity

    members = types.SimpleNamespace(capacity=node_capacity(n_rows, max_depth))
    seeds = list(range(7, 7 + n_seeds))
    batches = TreeMembers.batches(members, seeds, n_threads, work)
    assert [s for batch in batches for s in batch] == seeds
    assert {len(batch) for batch in batches[:-1]} <= sizes
    assert len(batches[-1]) <= max(sizes)


def test_the_plan_steps_aside_where_its_kernel_does_not_apply():
    """None for a histogram forest, a member that is not this package's tree, and Gini
    trees on features of few values (grown from bin counts); a plan otherwise."""
    import numpy as np

    import refml_fast
    from refml_fast.ensemble import tree_members

    plans = []
    original = tree_members.TreeMembers.plan.__func__

    def recording(cls, *args):
        plan = original(cls, *args)
        plans.append(plan is not None)
        return plan

    X, y = data(9, 300, 6, 2)
    few = np.round(X)
    patch = pytest.MonkeyPatch()
    patch.setattr(tree_members.TreeMembers, "plan", classmethod(recording))
    try:
        refml_fast.RandomForestClassifier(n_estimators=2, random_state=0).fit(X, y)
        refml_fast.RandomForestClassifier(n_estimators=2, max_bins=32, random_state=0).fit(X, y)
        refml_fast.BaggingClassifier(refml_fast.GaussianNB(), n_estimators=2,
                                     random_state=0).fit(X, y)
        refml_fast.RandomForestClassifier(n_estimators=2, random_state=0).fit(few, y)
        refml_fast.RandomForestClassifier(n_estimators=2, criterion="entropy",
                                          random_state=0).fit(few, y)
    finally:
        patch.undo()
    assert plans == [True, False, False, False, True]


def test_a_forest_of_planned_members_is_refmls_forest():
    """refml's forest, member by member and vote by vote, on a small data set."""
    import refml
    import refml_fast

    X, y = data(12, 120, 5, 3)
    fast = refml_fast.RandomForestClassifier(n_estimators=5, random_state=3).fit(X, y)
    ref = refml.RandomForestClassifier(n_estimators=5, random_state=3).fit(X.tolist(),
                                                                         y.tolist())
    for a, b in zip(fast.estimators_, ref.estimators_):
        assert a.random_state == b.random_state
        assert a.tree_.feature.tolist() == list(b.tree_.feature)
        assert a.tree_.threshold.tolist() == list(b.tree_.threshold)
        assert a.tree_.value.tolist() == [list(v) for v in b.tree_.value]
    assert fast.predict(X).tolist() == ref.predict(X.tolist())
