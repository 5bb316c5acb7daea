"""refml_fast's split search through bucket bounds (refml_fast/tree/bounded.py) against the
row scan it stands in for (``grow.find_split``), node by node, and a forest grown with it
against refml's trees."""

import pytest

from tests.helpers import assert_forest_members_are_refmls_trees

pytestmark = pytest.mark.fast


def a_node(rng, case):
    """(ranks (d, n) int32, codes, weights, unit, selected) of a random node of n rows:
    continuous ranks, few distinct values (ties across bucket ends), ranks bunched with far
    outliers, or equal costs (a copied feature, a mirrored class pattern)."""
    import numpy as np

    n, d, k = int(rng.integers(128, 4000)), int(rng.integers(1, 6)), int(rng.integers(2, 7))
    kind = case % 4
    if kind == 0:
        ranks = np.argsort(np.argsort(rng.random((d, n)), axis=1), axis=1)
    elif kind == 1:
        ranks = rng.integers(0, int(rng.integers(2, 600)), size=(d, n))
    elif kind == 2:
        ranks = rng.integers(0, 40, size=(d, n))
        far = rng.random((d, n)) < 0.01
        ranks = np.where(far, rng.integers(10_000, 200_000, size=(d, n)), ranks)
    else:
        ranks = np.tile(rng.integers(0, 50, size=n), (d, 1))
    ranks = ranks.astype(np.int32)
    signal = ranks[0] > np.median(ranks[0])
    codes = np.where(rng.random(n) < 0.7, signal.astype(int) % k, rng.integers(0, k, n))
    if kind == 3 and k == 2:
        codes = ranks[0] % 2
    unit = case % 2 == 0
    weights = np.ones(n) if unit else rng.integers(1, 5, size=n).astype(float)
    selected = rng.random(d) < 0.8
    selected[int(rng.integers(0, d))] = True
    return ranks, codes.astype(np.int64), weights, unit, selected


@pytest.mark.parametrize("seed", range(4))
def test_the_bounded_search_finds_the_row_scans_split(seed):
    """On 60 random nodes of 128-4,000 rows (a sub-range of the tree's rows, in ascending
    ids), 2-6 classes, unit and whole weights: the same feature, rows on the left, rows
    below and above the threshold, highest rank on the left, and class weights of the two
    sides; the first feature and the first threshold win equal costs."""
    import numpy as np

    from refml_fast.tree import bounded, grow
    from refml_fast.tree.word_sort import MAX_BUCKETS

    rng = np.random.default_rng(100 + seed)
    for case in range(60):
        ranks, codes, weights, unit, selected = a_node(rng, case)
        d, n = ranks.shape
        kept = np.sort(rng.choice(n, size=int(n * 0.9), replace=False)).astype(np.int32)
        start, end = int(rng.integers(0, 5)), kept.size - int(rng.integers(0, 5))
        node = kept[start:end]
        k = int(codes.max()) + 1
        node_counts = np.bincount(codes[node], weights[node], minlength=k).astype(float)
        scan_counts, bounded_counts = np.empty((2, k)), np.empty((2, k))
        expected = grow.find_split(
            True, np.empty((d, 0), np.int32), np.empty((d, 0), np.int32), ranks, kept,
            np.empty((2, n), np.int64), np.empty(MAX_BUCKETS + 2, np.int64), codes, weights,
            start, end, 0, 2 if unit else 1, node_counts, selected, np.empty((4, k)),
            scan_counts, 1)
        slots = d
        found = bounded.find_split_bounded(
            ranks, kept, np.empty((2, n), np.int64), np.empty(MAX_BUCKETS + 2, np.int64),
            codes, weights, unit, start, end, node_counts, selected, bounded_counts,
            np.empty((slots, bounded.MOST_BUCKETS + 1, k)),
            np.empty((slots, bounded.MOST_BUCKETS + 1), np.int64),
            np.empty((slots, bounded.MOST_BUCKETS + 1)),
            np.empty(bounded.MOST_BUCKETS, np.bool_), np.empty((slots, 4), np.int64),
            np.empty((2, k)), np.full((slots, n), -1, np.int64))
        assert tuple(found) == tuple(expected), case
        if expected[0] >= 0:
            np.testing.assert_array_equal(bounded_counts, scan_counts)


def test_the_quick_bound_is_below_every_point_of_the_box_and_tight_on_a_point():
    """G(low) + G(T - high) against the cost of every whole-number point of 300 small
    boxes (2-6 classes, sides of 0-3, totals of 2-30: impurities far from their limits),
    and equal to the one point's cost when low = high."""
    import itertools

    import numpy as np

    from refml_fast.tree import bounded

    rng = np.random.default_rng(11)
    for _ in range(300):
        k = int(rng.integers(2, 7))
        totals = rng.integers(2, 31, size=k).astype(float)
        low = np.floor(totals * rng.random(k))
        high = np.minimum(low + rng.integers(0, 4, size=k), totals)
        total = float(totals.sum())
        quick = bounded.quick_bound(low, high, totals, total)
        for point in itertools.product(*(range(int(a), int(b) + 1) for a, b in zip(low, high))):
            assert quick <= bounded.split_cost(np.array(point, float), totals, total) * (
                1.0 + 1e-12)
        assert bounded.quick_bound(low, low, totals, total) == pytest.approx(
            bounded.split_cost(low, totals, total), rel=1e-12, abs=1e-12)


def test_the_bound_is_below_every_threshold_inside_a_bucket():
    """The least corner cost of a bucket's box is at most the cost of every threshold
    inside it (the cost is concave in the left class weights), and the quick bound is at
    most the corners': every prefix of 40 random buckets of rows, 2-6 classes."""
    import numpy as np

    from refml_fast.tree import bounded

    rng = np.random.default_rng(7)
    for _ in range(40):
        k = int(rng.integers(2, 7))
        totals = rng.integers(5, 400, size=k).astype(float)
        low = np.floor(totals * rng.random(k) * 0.8)
        bucket = rng.permutation(np.repeat(np.arange(k), rng.integers(0, 6, size=k)))
        high = low + np.bincount(bucket, minlength=k)
        total = float(totals.sum())
        bound = bounded.bucket_bound(
            low, high, totals, total, np.empty(k),
            bounded.split_cost(low, totals, total), bounded.split_cost(high, totals, total))
        assert bounded.quick_bound(low, high, totals, total) <= bound
        left = low.copy()
        for code in bucket:
            left[code] += 1.0
            assert bound <= bounded.split_cost(left, totals, total)


@pytest.mark.parametrize("n, k", [(1_500, 3), (3_600, 6)])
def test_a_forest_of_large_nodes_grows_refmls_trees(n, k):
    """Members whose top nodes search through bucket bounds (1,500 rows and three classes;
    3,600 rows and six, searched through buckets from 2,048 rows; continuous and integer
    features): each member is refml's tree, thresholds included."""
    import numpy as np

    from refml_fast.tree import bounded

    assert bounded.bounded_from(k) < 0.6 * n       # the root's kept rows (about 0.63 n)
    rng = np.random.default_rng(11)
    y = rng.integers(0, k, size=n)
    X = np.column_stack([y + rng.normal(size=n), rng.integers(0, 30, size=n),
                         rng.normal(size=(n, 3))])
    assert_forest_members_are_refmls_trees(X, y, n_estimators=2, random_state=4)
