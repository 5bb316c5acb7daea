"""The votes of forests on one feature from the sorted queries
(refml_fast/ensemble/sorted_votes.py) against every query walking every tree
(``kernels.forest_votes``) and against refml's forest."""

import pytest

pytestmark = pytest.mark.fast


def walked_votes(X, packed, n_classes):
    import numpy as np

    from refml_fast.ensemble import kernels

    votes = np.zeros((X.shape[0], n_classes), dtype=np.int64)
    kernels.forest_votes(X, *packed, 1, votes)
    return votes


def queries_at_thresholds(X, thresholds, rng):
    """The training values, every threshold and its two neighbouring floats, far values,
    repeats, shuffled."""
    import numpy as np

    split = thresholds[np.isfinite(thresholds) & (thresholds != 0.0)]
    values = np.concatenate([X[:, 0], split, np.nextafter(split, np.inf),
                             np.nextafter(split, -np.inf), [-1e300, 1e300, 0.0],
                             X[:7, 0]])
    return rng.permutation(values)[:, None]


@pytest.mark.parametrize("seed, n, k, arguments", [
    (0, 300, 2, {}),
    (1, 500, 3, {"max_depth": 4}),
    (2, 120, 4, {"min_samples_leaf": 3, "criterion": "entropy"}),
    (3, 800, 3, {"n_jobs": 2}),
])
def test_sorted_votes_are_the_walked_votes(seed, n, k, arguments):
    """Queries at the thresholds, one float either side, repeated and far off: each takes
    the leaf its walk down the tree reaches, serial and on blocks of positions (more
    blocks than queries too)."""
    import numpy as np

    import refml_fast
    from refml_fast.ensemble import sorted_votes

    rng = np.random.default_rng(seed)
    X = np.round(rng.normal(size=(n, 1)), 2)      # repeated values
    y = (X[:, 0] + rng.normal(scale=0.8, size=n) > 0).astype(int) + rng.integers(0, k - 1,
                                                                                 size=n)
    y = np.minimum(y, k - 1)
    forest = refml_fast.RandomForestClassifier(n_estimators=7, random_state=seed,
                                               **arguments).fit(X, y)
    packed = forest._packed_trees()
    Q = queries_at_thresholds(X, packed[1], rng)
    expected = walked_votes(Q, packed, k)
    np.testing.assert_array_equal(forest._votes(Q), expected)
    order = np.argsort(Q[:, 0], kind="stable")
    x = np.ascontiguousarray(Q[order, 0])
    for kernel, blocks in ((sorted_votes.sorted_votes, 1),
                           (sorted_votes.sorted_votes_parallel, 3),
                           (sorted_votes.sorted_votes_parallel, Q.shape[0] + 5)):
        in_order = np.zeros((Q.shape[0], k), dtype=np.int64)
        kernel(x, *packed, blocks, in_order)
        np.testing.assert_array_equal(in_order, expected[order])
    assert expected.sum(axis=1).tolist() == [7] * Q.shape[0]


def test_a_deep_spine_outgrows_the_stack():
    """A tree of 100 splits down its left side, each right child a leaf: 100 ranges wait
    at once (the stack starts with room for 64)."""
    import numpy as np

    from refml_fast.ensemble import sorted_votes

    depth = 100
    rows = 2 * depth + 1
    links = np.empty(rows, dtype=np.int64)
    thresholds = np.zeros(rows)
    for s in range(depth):                 # split s: its children at rows 2s + 1, 2s + 2
        row = 0 if s == 0 else 2 * s - 1
        links[row] = (2 * s + 1) << 32
        thresholds[row] = float(depth - s)
        links[2 * s + 2] = (-1 << 32) | (s % 2)       # the right leaf
    links[2 * depth - 1] = (-1 << 32) | 2             # the last left leaf
    packed = (links, thresholds, np.array([0], dtype=np.int64))
    x = np.arange(-0.5, depth + 1.5, 0.5)             # at and between the thresholds
    expected = walked_votes(x[:, None], packed, 3)
    votes = np.zeros((x.shape[0], 3), dtype=np.int64)
    sorted_votes.sorted_votes(x, *packed, 1, votes)
    np.testing.assert_array_equal(votes, expected)
    # x > depth - s first at s = floor(depth - x) + 1 for x in (0, depth); x <= 1: last leaf
    codes = [2 if v <= 1.0 else int(np.floor(depth - v) + 1) % 2 if v <= depth else 0
             for v in x]
    assert votes.argmax(axis=1).tolist() == codes


def test_one_feature_forest_is_refmls_forest():
    """Votes, probabilities and classes of a one-feature forest and bagged trees: refml's."""
    import numpy as np

    import refml
    import refml_fast

    rng = np.random.default_rng(5)
    X = np.round(rng.normal(size=(150, 1)), 1)
    y = np.where(X[:, 0] + rng.normal(scale=0.5, size=150) > 0.3, "b", "a")
    y[::7] = "c"
    Q = np.concatenate([X[:40], [[-9.0], [9.0], [0.05]]])
    for name in ("RandomForestClassifier", "BaggingClassifier"):
        fast = getattr(refml_fast, name)(n_estimators=6, random_state=2).fit(X, y)
        ref = getattr(refml, name)(n_estimators=6, random_state=2).fit(X.tolist(), y.tolist())
        assert fast.predict(Q).tolist() == ref.predict(Q.tolist())
        assert fast.predict_proba(Q).tolist() == [list(p) for p in ref.predict_proba(Q.tolist())]
