"""k nearest neighbours ([IML-L5], section 5) in both packages.

Every expected value below is worked out by hand from the data, never by the code under test.
"""

import math

import pytest

from tests.helpers import as_list, compiled_and_plain

# Two points at distance 1 from the query on either side: a distance tie, which the lower
# training index wins (docs/design.md section 4) although its label is not the first class.
TIE_X, TIE_Y = [[1.0], [-1.0], [3.0]], ["b", "a", "a"]
# Exact duplicate rows with different labels: the lower index wins again.
DUP_X, DUP_Y = [[0.0], [0.0], [2.0]], ["b", "a", "a"]
# Squared distances 1 and 1 + 1.44e-16 (the next float after 1): distinct, but both square
# roots round to 1.0.  Ordering by the square root would tie them and pick index 0; the
# squared distance (and the true distance) puts index 1 first.
SQRT_X, SQRT_Y = [[1.0, 1.2e-8], [1.0, 0.0]], ["b", "a"]
# Scales 10 and 1 on the two axes: Euclidean and Mahalanobis disagree about the nearest
# point.  mu = 0, Sigma = diag(400/6, 22/6) with the 1/N estimate (worked by hand).
SCALE_X = [[-10.0, -1.0], [-10.0, 1.0], [10.0, -1.0], [10.0, 1.0], [0.0, -3.0], [0.0, 3.0]]
SCALE_Y = ["a", "a", "b", "b", "c", "c"]
# Three separated clusters for the majority vote.
VOTE_X = [[0.0], [0.2], [0.4], [5.0], [5.2], [9.0]]
VOTE_Y = [0, 0, 1, 1, 1, 2]


def test_one_nn_predicts_the_label_of_the_nearest_point(lib):
    knn = lib.KNeighborsClassifier().fit(VOTE_X, VOTE_Y)
    assert as_list(knn.predict([[0.05], [4.0], [8.0], [0.35]])) == [0, 1, 2, 1]


def test_k_nn_majority_vote_and_vote_fractions(lib):
    knn = lib.KNeighborsClassifier(n_neighbors=3).fit(VOTE_X, VOTE_Y)
    # query 0.1: neighbours 0.0, 0.2, 0.4 -> votes (2, 1, 0); query 6: 5.2, 5.0, 9.0 -> (0, 2, 1)
    assert as_list(knn.predict([[0.1], [6.0]])) == [0, 1]
    proba = as_list(knn.predict_proba([[0.1], [6.0]]))
    assert proba == [[2 / 3, 1 / 3, 0.0], [0.0, 2 / 3, 1 / 3]]


def test_predict_proba_columns_follow_classes_order_with_string_labels(lib):
    knn = lib.KNeighborsClassifier(n_neighbors=2).fit([[0.0], [1.0], [9.0]], ["z", "m", "a"])
    assert as_list(knn.classes_) == ["a", "m", "z"]
    assert as_list(knn.predict_proba([[0.4]])) == [[0.0, 0.5, 0.5]]


def test_distance_tie_goes_to_the_lower_training_index(lib):
    knn = lib.KNeighborsClassifier().fit(TIE_X, TIE_Y)
    assert as_list(knn.predict([[0.0]])) == ["b"]
    distances, indices = knn.kneighbors([[0.0]])
    assert as_list(indices) == [[0]]
    assert as_list(distances) == [[1.0]]


def test_duplicate_rows_with_different_labels_use_the_lower_index(lib):
    knn = lib.KNeighborsClassifier().fit(DUP_X, DUP_Y)
    assert as_list(knn.predict([[0.0], [0.4]])) == ["b", "b"]


def test_vote_tie_goes_to_the_first_class(lib):
    knn = lib.KNeighborsClassifier(n_neighbors=2).fit(TIE_X, TIE_Y)
    # neighbours of 0: index 0 ("b") and index 1 ("a"), one vote each -> "a" comes first
    assert as_list(knn.predict([[0.0]])) == ["a"]
    assert as_list(knn.predict_proba([[0.0]])) == [[0.5, 0.5]]


def test_neighbours_are_ordered_by_squared_distance_not_its_square_root(lib):
    assert 1.0 + 1.2e-8 ** 2 > 1.0 and math.sqrt(1.0 + 1.2e-8 ** 2) == 1.0  # the premise
    knn = lib.KNeighborsClassifier().fit(SQRT_X, SQRT_Y)
    assert as_list(knn.predict([[0.0, 0.0]])) == ["a"]
    _, indices = knn.kneighbors([[0.0, 0.0]])
    assert as_list(indices) == [[1]]


def test_kneighbors_sorted_distances_and_indices(lib):
    knn = lib.KNeighborsClassifier(n_neighbors=4).fit(VOTE_X, VOTE_Y)
    distances, indices = knn.kneighbors([[0.3], [5.1]])
    # 0.3 - 0.2 rounds below 0.4 - 0.3, and 5.1 - 5.0 below 5.2 - 5.1: no tie here
    assert as_list(indices) == [[1, 2, 0, 3], [3, 4, 5, 2]]
    expected = [[0.1, 0.1, 0.3, 4.7], [0.1, 0.1, 3.9, 4.7]]
    for row, want in zip(as_list(distances), expected):
        assert all(math.isclose(a, b, rel_tol=1e-12) for a, b in zip(row, want))


def test_n_neighbors_equal_to_n_uses_every_point(lib):
    knn = lib.KNeighborsClassifier(n_neighbors=6).fit(VOTE_X, VOTE_Y)
    assert as_list(knn.predict_proba([[100.0]])) == [[2 / 6, 3 / 6, 1 / 6]]
    assert as_list(knn.predict([[100.0]])) == [1]


def test_mahalanobis_covariance_is_the_one_over_n_estimate(lib):
    knn = lib.KNeighborsClassifier(metric="mahalanobis").fit(SCALE_X, SCALE_Y)
    want_sigma = [[400 / 6, 0.0], [0.0, 22 / 6]]
    want_precision = [[6 / 400, 0.0], [0.0, 6 / 22]]
    for got, want in ((knn.covariance_, want_sigma), (knn.precision_, want_precision)):
        for got_row, want_row in zip(as_list(got), want):
            assert all(math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-15)
                       for a, b in zip(got_row, want_row))


def test_mahalanobis_and_euclidean_disagree_on_scaled_data(lib):
    query = [[4.0, 0.0]]
    euclidean = lib.KNeighborsClassifier(n_neighbors=2).fit(SCALE_X, SCALE_Y)
    mahalanobis = lib.KNeighborsClassifier(n_neighbors=2, metric="mahalanobis").fit(
        SCALE_X, SCALE_Y)
    # Euclidean^2: 16 + 9 = 25 to (0, -+3), 36 + 1 = 37 to (10, -+1).
    # Mahalanobis^2: 16*6/400 + 9*6/22 = 2.69 to (0, -+3), 36*6/400 + 6/22 = 0.8127 to (10, -+1).
    assert as_list(euclidean.predict(query)) == ["c"]
    assert as_list(mahalanobis.predict(query)) == ["b"]
    distances, indices = mahalanobis.kneighbors(query)
    assert as_list(indices) == [[2, 3]]
    want = math.sqrt(36 * 6 / 400 + 6 / 22)
    assert all(math.isclose(d, want, rel_tol=1e-12) for d in as_list(distances)[0])
    assert euclidean.covariance_ is None and euclidean.precision_ is None


@pytest.mark.parametrize("X", [
    [[0.1, 1.0], [0.1, 2.0], [0.1, 4.0]],              # a constant feature (mean not exact)
    [[0.0, 1.0], [0.0, 2.0], [0.0, 4.0]],              # a constant feature (variance 0)
    [[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]],              # collinear features
    [[1.0, 2.0, 3.0], [4.0, 5.0, 7.0], [0.0, 1.0, 1.0]],  # 3 points span a plane in R^3
], ids=["constant", "constant-zero", "collinear", "n<=d"])
def test_singular_covariance_is_a_clear_error(lib, X):
    knn = lib.KNeighborsClassifier(metric="mahalanobis")
    with pytest.raises(ValueError, match="singular"):
        knn.fit(X, [0, 1, 0])
    assert not hasattr(knn, "classes_") and not hasattr(knn, "precision_")


@pytest.mark.parametrize("params, words", [
    ({"n_neighbors": 4}, "n_neighbors"),
    ({"n_neighbors": 0}, "n_neighbors"),
    ({"n_neighbors": 2.0}, "n_neighbors"),
    ({"n_neighbors": True}, "n_neighbors"),
    ({"metric": "manhattan"}, "metric"),
    ({"algorithm": "ball_tree"}, "algorithm"),
    ({"algorithm": "kd_tree", "metric": "mahalanobis"}, "kd_tree"),
])
def test_bad_hyper_parameters_fail_at_fit(lib, params, words):
    knn = lib.KNeighborsClassifier(**params)  # __init__ only stores
    with pytest.raises(ValueError, match=words):
        knn.fit(TIE_X, TIE_Y)
    assert not hasattr(knn, "classes_")


def test_refit_with_another_metric_drops_the_covariance(lib):
    knn = lib.KNeighborsClassifier(metric="mahalanobis").fit(SCALE_X, SCALE_Y)
    knn.set_params(metric="euclidean").fit(SCALE_X, SCALE_Y)
    assert knn.covariance_ is None and as_list(knn.predict([[4.0, 0.0]])) == ["c"]


@pytest.mark.parametrize("algorithm", ["brute", "kd_tree"])
def test_large_coordinates_still_order_exactly(lib, algorithm):
    # Squares near 1e34 (beyond refml_fast's float32 screening range: checked exhaustively).
    knn = lib.KNeighborsClassifier(algorithm=algorithm).fit([[1e17], [2e17], [4e17]],
                                                             [0, 1, 2])
    assert as_list(knn.predict([[2.9e17], [3.1e17]])) == [1, 2]


@pytest.mark.parametrize("algorithm", ["brute", "kd_tree"])
def test_overflowing_distances_tie_and_go_to_the_lowest_index(lib, algorithm):
    # (1e200)^2 overflows to infinity for every training row: all distances tie.
    knn = lib.KNeighborsClassifier(n_neighbors=2, algorithm=algorithm).fit(
        [[1e200], [-1e200], [3e200]], [2, 1, 0])
    _, indices = knn.kneighbors([[0.0]])
    assert as_list(indices) == [[0, 1]]
    assert as_list(knn.predict([[0.0]])) == [1]  # one vote each for 2 and 1: the first class


@pytest.mark.parametrize("algorithm", ["brute", "kd_tree"])
def test_thousands_of_exact_ties_keep_the_lowest_indices(lib, algorithm):
    # 2000 copies of one row: every copy is a candidate (refml_fast checks such a query
    # exhaustively); the k nearest are the first k copies.
    X = [[0.0, 0.0]] * 2000 + [[1.0, 1.0]] * 100
    y = [i % 3 for i in range(2100)]
    knn = lib.KNeighborsClassifier(n_neighbors=3, algorithm=algorithm).fit(X, y)
    _, indices = knn.kneighbors([[0.1, 0.0], [0.9, 1.0]])
    assert as_list(indices) == [[0, 1, 2], [2000, 2001, 2002]]


@pytest.mark.parametrize("algorithm", ["brute", "kd_tree"])
def test_k_equal_to_n_orders_every_row_by_distance_then_index(lib, algorithm):
    # 600 rows on 7 values: ties everywhere; in 1-D the distance to 3 is |x - 3|.
    X = [[float(i % 7)] for i in range(600)]
    y = [i % 2 for i in range(600)]
    knn = lib.KNeighborsClassifier(n_neighbors=600, algorithm=algorithm).fit(X, y)
    _, indices = knn.kneighbors([[3.0]])
    assert as_list(indices)[0] == sorted(range(600), key=lambda i: (abs(i % 7 - 3), i))


@pytest.mark.fast
@pytest.mark.parametrize("metric", ["euclidean", "mahalanobis"])
def test_fast_matches_reference_across_tiles_and_groups(metric):
    """More training rows than one tile (512) and a query count that is not a multiple of
    the group of four, on an integer grid full of exact distance ties."""
    import refml
    import refml_fast
    from refml.core.random import Generator

    rng = Generator(12345)
    X = [[float(rng.randbelow(5)), float(rng.randbelow(4)), float(rng.randbelow(3))]
         for _ in range(1300)]
    y = [rng.randbelow(3) for _ in range(1300)]
    queries = [[float(rng.randbelow(6)) - 0.5, float(rng.randbelow(4)), 1.0] for _ in range(9)]
    reference = refml.KNeighborsClassifier(n_neighbors=7, metric=metric).fit(X, y)
    fast = refml_fast.KNeighborsClassifier(n_neighbors=7, metric=metric).fit(X, y)
    expected_distances, expected_indices = reference.kneighbors(queries)
    distances, indices = fast.kneighbors(queries)
    assert indices.tolist() == expected_indices
    assert distances.tolist() == expected_distances
    assert fast.predict_proba(queries).tolist() == reference.predict_proba(queries)



@pytest.mark.fast
@pytest.mark.parametrize("metric", ["euclidean", "mahalanobis"])
def test_many_features_match_refml_across_feature_slices(metric):
    """d = 263 features: the products run over slices of KC = 64 features plus a remainder
    that is not a multiple of four, on 600 training rows (two tiles) and 37 queries (one
    block, or two on two threads), with near-duplicate rows making ties."""
    import numpy as np

    import refml
    import refml_fast

    rng = np.random.default_rng(31)
    X = np.round(rng.normal(size=(600, 263)), 1)
    X[300:320] = X[:20]                                  # exact duplicates, other labels
    y = rng.integers(0, 3, size=600)
    queries = np.vstack([X[:10] + 1e-9, np.round(rng.normal(size=(27, 263)), 1)])
    if metric == "mahalanobis":
        X = X[:, :40].copy()   # pure Python inverts the covariance: keep d moderate
        queries = queries[:, :40].copy()
    reference = refml.KNeighborsClassifier(n_neighbors=4, metric=metric).fit(
        X.tolist(), y.tolist())
    fast = refml_fast.KNeighborsClassifier(n_neighbors=4, metric=metric,
                                           algorithm="brute").fit(X, y)
    expected_distances, expected_indices = reference.kneighbors(queries.tolist())
    distances, indices = fast.kneighbors(queries)
    assert indices.tolist() == expected_indices
    assert distances.tolist() == expected_distances

def left_to_right_neighbours(X, queries, k):
    """refml's Euclidean neighbours by numpy: Q as a cumulative sum from the left (each
    partial sum rounded, as refml's loop does), then (Q, index) in increasing order."""
    import numpy as np

    distances, indices = [], []
    for x in queries:
        squared = np.cumsum((x - X) ** 2, axis=1)[:, -1]
        order = np.lexsort((np.arange(X.shape[0]), squared))[:k]
        distances.append(np.sqrt(squared[order]).tolist())
        indices.append(order.tolist())
    return distances, indices


@pytest.mark.fast
@pytest.mark.parametrize("kind", ["sphere", "offset", "scales", "near duplicates", "grid",
                                  "tiny", "huge"])
def test_the_euclidean_screen_keeps_refmls_neighbours_on_hard_data(kind):
    """The Euclidean screen's bound (4 gamma_{d+8}) and the float64 narrowing keep exactly
    refml's neighbours where distances crowd together: points on a sphere in up to 1,000
    dimensions (all distances within a few percent), a large common offset, column scales
    from 1e-8 to 1e8, near-duplicates, an integer grid (exact ties), coordinates near
    float32's underflow and of 1e12.  With the bound cut to 1/200 of its size, the
    near-duplicate case loses neighbours."""
    import numpy as np

    import refml_fast

    rng = np.random.default_rng(sum(map(ord, kind)))
    for d in (3, 40, 300, 1000):
        n, q = int(rng.integers(300, 1200)), 20
        X = rng.normal(size=(n + q, d))
        if kind == "sphere":
            X /= np.linalg.norm(X, axis=1, keepdims=True)
        elif kind == "offset":
            X = 1e6 + X * 1e-2
        elif kind == "scales":
            X *= 10.0 ** rng.uniform(-8, 8, size=d)
        elif kind == "near duplicates":
            X = X[rng.integers(0, 40, size=n + q)] + 1e-7 * rng.normal(size=(n + q, d))
        elif kind == "grid":
            X = rng.integers(0, 3, size=(n + q, d)).astype(float)
        else:
            X *= 1e-38 if kind == "tiny" else 1e12
        k = int(rng.integers(1, 12))
        fast = refml_fast.KNeighborsClassifier(n_neighbors=k, algorithm="brute").fit(
            X[:n], np.arange(n) % 3)
        distances, indices = fast.kneighbors(X[n:])
        expected_distances, expected_indices = left_to_right_neighbours(X[:n], X[n:], k)
        assert indices.tolist() == expected_indices
        assert distances.tolist() == expected_distances


@pytest.mark.fast
@pytest.mark.parametrize("d", [1, 2, 3, 6])
def test_the_kd_tree_finds_refmls_neighbours_exactly(d):
    """Random data with duplicates, grid ties, subnormal and huge coordinates, k up to n:
    the tree only prunes, so neighbours, distances and votes are refml's own."""
    import numpy as np

    import refml
    import refml_fast

    rng = np.random.default_rng(d)
    for trial in range(6):
        n = int(rng.integers(1, 400))
        X = rng.normal(size=(n, d)) * [1.0, 1e-310, 1e150, 0.5, 3.0, 1.0][trial]
        if trial % 2:
            X = np.round(X * 2.0) / 2.0
        X[rng.integers(0, n, size=n // 3)] = X[0]                 # duplicates of row 0
        y = rng.integers(0, 3, size=n)
        queries = np.vstack([X[:5], rng.normal(size=(20, d)) * np.abs(X).max()])
        k = int(rng.integers(1, n + 1))
        reference = refml.KNeighborsClassifier(n_neighbors=k).fit(X.tolist(), y.tolist())
        fast = refml_fast.KNeighborsClassifier(n_neighbors=k, algorithm="kd_tree").fit(X, y)
        expected_distances, expected_indices = reference.kneighbors(queries.tolist())
        distances, indices = fast.kneighbors(queries)
        assert indices.tolist() == expected_indices
        assert distances.tolist() == expected_distances
        assert fast.predict(queries).tolist() == reference.predict(queries.tolist())


@pytest.mark.fast
def test_auto_picks_the_kd_tree_in_few_dimensions_only():
    import numpy as np

    import refml_fast

    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, size=50)
    low = refml_fast.KNeighborsClassifier().fit(rng.normal(size=(50, 3)), y)
    high = refml_fast.KNeighborsClassifier().fit(rng.normal(size=(50, 30)), y)
    whitened = refml_fast.KNeighborsClassifier(metric="mahalanobis").fit(
        rng.normal(size=(50, 3)), y)
    assert (low._fit_method, high._fit_method, whitened._fit_method) == (
        "kd_tree", "brute", "brute")


@pytest.mark.fast
def test_auto_picks_the_kd_tree_from_7_to_11_features_when_the_rows_are_many():
    """From 7 to 11 features the tree's queries grow slower with n than the brute force's:
    "auto" takes the tree from TREE_FROM_ROWS[d] (1 + k / 10) rows on, never beyond 11
    features, never for the Mahalanobis metric or when the user chose."""
    import numpy as np

    import refml_fast
    from refml_fast.neighbors.kdtree import TREE_FROM_ROWS, search_method

    assert sorted(TREE_FROM_ROWS) == [7, 8, 9, 10, 11]
    for d, least in TREE_FROM_ROWS.items():
        for k in (1, 5, 50):
            rows = int(np.ceil(least * (1 + k / 10)))
            assert search_method("auto", "euclidean", rows, d, k) == "kd_tree"
            assert search_method("auto", "euclidean", rows - 1, d, k) == "brute"
            assert search_method("auto", "mahalanobis", rows, d, k) == "brute"
            assert search_method("brute", "euclidean", rows, d, k) == "brute"
    assert search_method("auto", "euclidean", 10 ** 9, 12, 1) == "brute"
    assert search_method("auto", "euclidean", 1, 6, 1) == "kd_tree"
    rng = np.random.default_rng(1)
    X = rng.normal(size=(int(np.ceil(TREE_FROM_ROWS[7] * 1.1)), 7))      # k = 1
    y = rng.integers(0, 2, size=X.shape[0])
    model = refml_fast.KNeighborsClassifier(n_neighbors=1).fit(X, y)
    assert model._fit_method == "kd_tree"
    assert model.kneighbors(X[:3])[1][:, 0].tolist() == [0, 1, 2]
    below = refml_fast.KNeighborsClassifier(n_neighbors=50).fit(X, y)    # below the trial
    assert below._fit_method == "brute" and not below._search.trial


@pytest.mark.fast
def test_auto_puts_the_kd_tree_on_trial_below_its_threshold():
    """From 7 to 11 features, "auto" between TREE_FROM_ROWS[d] (1 + k / 10) / TRIAL_FRACTION
    rows and the tree's own threshold builds the tree on trial (``on_trial``); never for
    another metric, another algorithm, or other dimensions."""
    import math

    from refml_fast.neighbors.kdtree import TREE_FROM_ROWS, TRIAL_FRACTION, on_trial

    for d, least in TREE_FROM_ROWS.items():
        for k in (1, 5, 50):
            top = least * (1 + k / 10)
            bottom = math.ceil(top / TRIAL_FRACTION)
            assert on_trial("auto", "euclidean", bottom, d, k)
            assert not on_trial("auto", "euclidean", bottom - 1, d, k)
            assert on_trial("auto", "euclidean", math.ceil(top) - 1, d, k)
            assert not on_trial("auto", "euclidean", math.ceil(top), d, k)
            assert not on_trial("auto", "mahalanobis", bottom, d, k)
            assert not on_trial("kd_tree", "euclidean", bottom, d, k)
            assert not on_trial("brute", "euclidean", bottom, d, k)
    for d in (2, 6, 12, 30):
        assert not on_trial("auto", "euclidean", 50_000, d, 5)


@pytest.mark.fast
def test_the_tree_on_trial_keeps_or_hands_over_with_the_same_neighbours(monkeypatch):
    """A search of at most TIMED_QUERIES leaves the trial open; a larger one decides it by
    the tree's timed queries against the brute force's estimate (``search_seconds``):
    the tree kept, or the rest and every later search handed to the brute force, its tree
    dropped.  Either way refml's neighbours, distances and votes."""
    import math

    import numpy as np

    import refml
    import refml_fast
    import refml_fast.neighbors.knn as fast_neighbors
    from refml_fast.neighbors.kdtree import TIMED_QUERIES, TREE_FROM_ROWS, TRIAL_FRACTION

    rng = np.random.default_rng(31)
    n = math.ceil(TREE_FROM_ROWS[7] * 1.5 / TRIAL_FRACTION)                # k = 5
    X = np.round(rng.normal(size=(n, 7)), 1)
    y = rng.integers(0, 3, size=n)
    Q = np.round(rng.normal(size=(2 * TIMED_QUERIES + 50, 7)), 1)
    reference = refml.KNeighborsClassifier(n_neighbors=5).fit(X.tolist(), y.tolist())
    expected = [list(a) for a in reference.kneighbors(Q.tolist())]
    votes = reference.predict(Q.tolist())
    for brute_seconds, method in ((0.0, "brute"), (1e9, "kd_tree")):
        monkeypatch.setattr(fast_neighbors, "search_seconds", lambda *shape, s=brute_seconds: s)
        model = refml_fast.KNeighborsClassifier(n_neighbors=5).fit(X, y)
        assert (model._fit_method, model._search.trial) == ("kd_tree", True)
        assert [a.tolist() for a in model.kneighbors(Q[:TIMED_QUERIES])] == [
            a[:TIMED_QUERIES] for a in expected]
        assert model._search.trial
        assert [a.tolist() for a in model.kneighbors(Q)] == expected
        assert (model._fit_method, model._search.trial) == (method, False)
        assert (model._search.kd_tree is None) == (method == "brute")
        assert model.predict(Q).tolist() == votes
        fresh = refml_fast.KNeighborsClassifier(n_neighbors=5).fit(X, y)
        assert fresh.predict(Q).tolist() == votes and fresh._fit_method == method


@pytest.mark.fast
def test_the_kd_tree_on_threads_gives_the_brute_force_neighbours():
    """Enough queries for the parallel search: the same neighbours and distances as the
    brute force (itself checked against refml above), ties included."""
    import numpy as np

    import refml_fast

    rng = np.random.default_rng(11)
    X = np.round(rng.normal(size=(3000, 2)), 1)
    y = rng.integers(0, 3, size=3000)
    queries = np.round(rng.normal(size=(1500, 2)), 1)     # >= 1,024: the parallel search
    tree = refml_fast.KNeighborsClassifier(n_neighbors=4, algorithm="kd_tree").fit(X, y)
    brute = refml_fast.KNeighborsClassifier(n_neighbors=4, algorithm="brute").fit(X, y)
    assert [a.tolist() for a in tree.kneighbors(queries)] == [
        b.tolist() for b in brute.kneighbors(queries)]


@pytest.mark.fast
@pytest.mark.parametrize("queries", [300, 1500])
def test_queries_in_the_order_of_their_leaves_give_the_same_neighbours(monkeypatch, queries):
    """A tree of ORDERED_FROM values or more runs its queries sorted by their leaves, on one
    thread (300 queries) and on the threads (1,500): each query's neighbours and distances,
    ties included, are still the brute force's, in the queries' own order."""
    import numpy as np

    import refml_fast
    from refml_fast.neighbors import kdtree as _kdtree

    rng = np.random.default_rng(queries)
    X = np.round(rng.normal(size=(2000, 5)), 1)
    y = rng.integers(0, 3, size=2000)
    Xq = np.round(rng.normal(size=(queries, 5)), 1)
    brute = refml_fast.KNeighborsClassifier(n_neighbors=6, algorithm="brute").fit(X, y)
    expected = [a.tolist() for a in brute.kneighbors(Xq)]
    for threshold in (10 ** 9, 1):       # never ordered, then always
        monkeypatch.setattr(_kdtree, "ORDERED_FROM", threshold)
        tree = refml_fast.KNeighborsClassifier(n_neighbors=6, algorithm="kd_tree").fit(X, y)
        assert [a.tolist() for a in tree.kneighbors(Xq)] == expected
    assert np.argsort([_kdtree.leaf_of(x, *tree._search.kd_tree[:3]) for x in Xq]).tolist() != list(
        range(queries))                  # the order did change


@pytest.mark.fast
@pytest.mark.parametrize("d", [1, 2, 3])
def test_a_tree_grown_on_threads_is_a_valid_tree_with_the_same_answers(monkeypatch, d):
    """The subtrees grown on the threads and packed after the top levels: every reachable
    leaf holds at most LEAF rows (or rows all alike), the leaves' segments cover each row
    once, every box holds its rows; and the neighbours (ties included: rounded coordinates,
    duplicates) are the brute force's, as for the tree grown on one thread."""
    import numpy as np

    import refml_fast
    from refml_fast.neighbors import kdtree as _kdtree
    from refml_fast.runtime import threads as _config

    monkeypatch.setattr(_kdtree, "PARALLEL_BUILD", 500)
    monkeypatch.setattr(_config, "SURE_SECONDS", 0.0)     # launch whatever the size
    rng = np.random.default_rng(40 + d)
    X = np.round(rng.normal(size=(5000, d)), 1)
    X[:300] = X[0]                                          # one heavy duplicate
    y = rng.integers(0, 3, size=5000)
    nodes, lower, upper, order, rows_in_order = _kdtree.build(X)
    assert rows_in_order[:, :5000].tolist() == X[order].T.tolist()
    assert not rows_in_order[:, 5000:].any() and rows_in_order.shape[1] == 5000 + _kdtree.LEAF
    seen, stack = np.zeros(5000, dtype=int), [0]
    while stack:
        node = stack.pop()
        start, end, left, right = nodes[node]
        rows = X[order[start:end]]
        assert np.all(rows >= lower[node]) and np.all(rows <= upper[node])
        if left < 0:
            assert end - start <= _kdtree.LEAF or np.all(rows == rows[0])
            seen[order[start:end]] += 1
        else:
            assert nodes[left][0] == start and nodes[right][1] == end
            assert nodes[left][1] == nodes[right][0]
            stack += [left, right]
    assert seen.tolist() == [1] * 5000
    queries = np.round(rng.normal(size=(700, d)), 1)
    tree = refml_fast.KNeighborsClassifier(n_neighbors=7, algorithm="kd_tree").fit(X, y)
    brute = refml_fast.KNeighborsClassifier(n_neighbors=7, algorithm="brute").fit(X, y)
    assert [a.tolist() for a in tree.kneighbors(queries)] == [
        b.tolist() for b in brute.kneighbors(queries)]
    monkeypatch.setattr(_kdtree, "PARALLEL_BUILD", 10 ** 9)
    serial = refml_fast.KNeighborsClassifier(n_neighbors=7, algorithm="kd_tree").fit(X, y)
    assert _kdtree.build(X)[3].tolist() == order.tolist()   # the same splits, one thread
    assert [a.tolist() for a in serial.kneighbors(queries)] == [
        b.tolist() for b in tree.kneighbors(queries)]


@pytest.mark.fast
def test_many_neighbours_screened_give_the_kd_trees_answer():
    """k = 200 of 20,000 rows: the screen keeps about k (1 + ln(n / k)) ~ 1,100 candidates
    per query (more than the base capacity of 1,024) and must still give exactly the
    neighbours of the k-d tree, an independent exact search."""
    import numpy as np


    rng = np.random.default_rng(17)
    X = rng.normal(size=(20_000, 4))
    y = rng.integers(0, 3, size=20_000)
    queries = rng.normal(size=(40, 4))
    assert_brute_force_finds_the_kd_trees_neighbours(X, y, queries, 200)


def assert_brute_force_finds_the_kd_trees_neighbours(X, y, queries, k):
    import refml_fast

    results = []
    for algorithm in ("brute", "kd_tree"):
        model = refml_fast.KNeighborsClassifier(n_neighbors=k, algorithm=algorithm)
        distances, indices = model.fit(X, y).kneighbors(queries)
        results.append((distances.tolist(), indices.tolist()))
    assert results[0] == results[1]


@pytest.mark.fast
@pytest.mark.parametrize("d", [1, 3])
def test_the_kd_tree_leaves_the_callers_array_alone(d):
    """The model keeps the caller's C-contiguous float64 X itself (as scikit-learn does);
    the tree reorders a copy of it, also at d = 1, where X.T is contiguous too."""
    import numpy as np

    import refml_fast

    rng = np.random.default_rng(d)
    for n in (500, 60_000):                       # grown on one thread, and on the threads
        X = rng.normal(size=(n, d))
        before = X.copy()
        model = refml_fast.KNeighborsClassifier(n_neighbors=3, algorithm="kd_tree")
        model.fit(X, rng.integers(0, 2, size=n)).predict(X[:50])
        assert np.array_equal(X, before)
        assert model.kneighbors(X[:5])[1][:, 0].tolist() == [0, 1, 2, 3, 4]


@pytest.mark.fast
def test_the_sorted_list_and_the_heap_keep_the_k_first_pairs():
    """``heap``: pairs offered in any order, with many equal keys (and equal keys at the
    boundary of the k kept), an infinity among them: the sorted list and the heap (sorted
    at the end) both hold the k first pairs by (key, index), in that order."""
    import numpy as np

    from refml_fast.runtime.heap import insert_sorted, offer, sort_heap

    rng = np.random.default_rng(23)
    for trial in range(400):
        count = int(rng.integers(1, 120))
        k = int(rng.integers(1, count + 1))
        keys = rng.integers(0, 5 if trial % 2 else 1000, size=count).astype(float)
        keys[rng.integers(0, count)] = np.inf if trial % 3 == 0 else keys[0]
        ids = rng.permutation(count * 3)[:count]
        expected = sorted(zip(keys.tolist(), ids.tolist()))[:k]
        for keep in (insert_sorted, offer):
            kept_keys, kept_ids = np.empty(k), np.empty(k, dtype=np.int64)
            kept = 0
            for key, index in zip(keys, ids):
                kept = keep(kept_keys, kept_ids, kept, key, index)
            if keep is offer:
                sort_heap(kept_keys, kept_ids, kept)
            assert list(zip(kept_keys.tolist(), kept_ids.tolist())) == expected


@pytest.mark.fast
def test_keep_smallest_selects_the_k_smallest_with_ties():
    """``keep_smallest``: the k-th smallest returned, the k smallest in front, nothing
    lost, by halving (many ties, one value apart from equal ones, scales 1e-300..1e300,
    subnormals) and by the quickselect it falls back on (an infinity)."""
    import numpy as np

    from refml_fast.neighbors.kth_smallest import keep_smallest, kth_by_halving

    rng = np.random.default_rng(5)
    halved = 0
    for trial in range(1200):
        count = int(rng.integers(1, 300))
        k = int(rng.integers(1, count + 1))
        kind = trial % 6
        if kind == 0:
            values = rng.normal(size=count)
        elif kind == 1:
            values = rng.integers(0, 6, size=count).astype(float)  # many ties
        elif kind == 2:
            values = rng.normal(size=count) * 10.0 ** rng.integers(-300, 300, size=count)
        elif kind == 3:
            values = np.full(count, 3.0)
            values[rng.integers(0, count)] = 2.0
        elif kind == 4:
            values = rng.normal(size=count)
            values[rng.integers(0, count)] = np.inf
        else:
            values = np.round(rng.normal(size=count), 2) * 1e-310        # subnormal
        expected = np.sort(values)
        if count > k and kind != 4:
            halved += kth_by_halving(values.copy(), count, k) == expected[k - 1]
        kept = values.copy()
        kth = keep_smallest(kept, count, k)
        assert kth == expected[k - 1]
        assert sorted(kept[:k]) == expected[:k].tolist()
        assert sorted(kept) == expected.tolist()
    assert halved > 750                          # the halving, not the fallback, decided
    assert np.isnan(kth_by_halving(np.array([1.0, np.nan, 0.0, 2.0]), 4, 2))


@pytest.mark.fast
def test_the_first_tiles_bound_holds_k_rows_at_or_below_it():
    """``first_tile_bound``: at least k of the tile's upper bounds lie at or below it, and
    it is inf when the tile holds fewer than k.  Halved toward the k-th smallest, it lets
    at most 1.5 k + 4 values through where they are distinct."""
    import numpy as np

    from refml_fast.neighbors.kth_smallest import first_tile_bound

    rng = np.random.default_rng(8)
    for trial in range(200):
        width = int(rng.integers(1, 600))
        k = int(rng.integers(1, 60))
        acc = rng.normal(size=(3, width)).astype(np.float32)
        upper = rng.integers(0, 5, size=width).astype(float) if trial % 2 else rng.normal(
            size=width)
        bound = first_tile_bound(acc, 1, upper, k, np.empty(width))
        values = upper - 2.0 * acc[1].astype(np.float64)
        if width < k:
            assert bound == np.inf
        else:
            assert np.sum(values <= bound) >= k
            assert bound >= np.sort(values)[k - 1]
            if trial % 2 == 0:
                assert np.sum(values <= bound) <= k + k // 2 + 4


@pytest.mark.fast
def test_more_neighbours_than_a_tile_holds_give_the_kd_trees_answer():
    """k = 600 > 512 rows of a tile: the first tile gives no bound, the screen still finds
    the exact neighbours (the k-d tree's, an independent search)."""
    import numpy as np


    rng = np.random.default_rng(19)
    X = np.round(rng.normal(size=(2_000, 3)), 1)           # many exact ties
    y = rng.integers(0, 2, size=2_000)
    queries = np.round(rng.normal(size=(37, 3)), 1)
    assert_brute_force_finds_the_kd_trees_neighbours(X, y, queries, 600)


@pytest.mark.fast
def test_the_brute_search_claimed_on_any_number_of_slots_gives_the_serial_answer(
        monkeypatch):
    """The brute-force search hands blocks of queries to whichever thread claims them
    next: 1, 2 or 7 slots (more than the blocks: 70 queries make six of 12 for seven
    slots), shared with helper threads or run alone, give refml's neighbours and
    distances, to the last bit."""
    import numpy as np

    import refml
    import refml_fast
    import refml_fast.neighbors.knn as fast_neighbors

    rng = np.random.default_rng(29)
    X = np.round(rng.normal(size=(1500, 30)), 1)
    y = rng.integers(0, 3, size=1500)
    queries = np.round(rng.normal(size=(70, 30)), 1)
    model = refml_fast.KNeighborsClassifier(n_neighbors=6, algorithm="brute").fit(X, y)
    answers = []
    shared = fast_neighbors.run_claimed
    for slots, alone in ((1, True), (2, True), (7, True), (2, False), (7, False)):
        def run(work, _, *args, slots=slots, alone=alone):
            args = args[:12] + (slots,) + args[13:]            # args[12]: the slots
            return work(*args) if alone else shared(work, slots, *args)
        monkeypatch.setattr(fast_neighbors, "run_claimed", run)
        answers.append([a.tolist() for a in model.kneighbors(queries)])
    assert answers[1:] == [answers[0]] * 4
    reference = refml.KNeighborsClassifier(n_neighbors=6).fit(X.tolist(), y.tolist())
    assert answers[0] == [list(a) for a in reference.kneighbors(queries.tolist())]


@pytest.mark.fast
def test_search_kernels_run_as_plain_python_with_the_same_result():
    """NUMBA_DISABLE_JIT=1 runs the search kernels as Python (docs/style.md rule 8), the
    brute-force search's claimed blocks included: the same neighbours as compiled."""
    code = ("import numpy as np, refml_fast\n"
            "rng = np.random.default_rng(3)\n"
            "X = rng.normal(size=(120, 2)); y = (X[:, 0] > 0).astype(int)\n"
            "for algorithm in ('brute', 'kd_tree'):\n"
            "    m = refml_fast.KNeighborsClassifier(3, algorithm=algorithm).fit(X, y)\n"
            "    print(m.predict(X[:40]).tolist(), m.kneighbors(X[:3])[1].tolist())\n"
            "X = rng.normal(size=(150, 21)); y = (X[:, 0] > 0).astype(int)\n"
            "m = refml_fast.KNeighborsClassifier(6, algorithm='brute').fit(X, y)\n"
            "print(m.predict(X[:30]).tolist(), m.kneighbors(X[:3])[0].tolist())\n")
    compiled, plain = compiled_and_plain(code)
    assert plain == compiled and compiled.count("\n") == 3


@pytest.mark.fast
def test_the_search_time_model_grows_with_every_part_of_the_work():
    """``search_seconds`` (which decides when a search may use the threads): linear in the
    queries, growing with the training rows, the features and k, and the Mahalanobis
    metric's exact sums cost d^2 more a candidate; a k = 50 search of 233 queries over
    2,333 rows at d = 32 (2.4 ms measured on one core) is worth a launch, a k = 1 search of
    50 queries over 500 rows at d = 2 is not."""
    from refml_fast.neighbors.knn import PAIRS_SECONDS, search_seconds

    base = search_seconds(100, 1_000, 10, 5, False)
    assert search_seconds(300, 1_000, 10, 5, False) == pytest.approx(3 * base)
    assert search_seconds(100, 2_000, 10, 5, False) > base
    assert search_seconds(100, 1_000, 40, 5, False) > base
    assert search_seconds(100, 1_000, 10, 50, False) > base
    assert search_seconds(100, 1_000, 10, 5, True) > base
    assert search_seconds(233, 2_333, 32, 50, False) > PAIRS_SECONDS
    assert search_seconds(50, 500, 2, 1, False) < 0.1 * PAIRS_SECONDS


@pytest.mark.fast
@pytest.mark.parametrize("metric", ["euclidean", "mahalanobis"])
def test_the_votes_take_the_sure_neighbours_without_their_distances(metric):
    """predict and predict_proba ask the search for the k nearest as a set: the rows whose
    brackets put them surely among the k keep NaN distances, and the set is the full
    search's (refml's), with ties on rounded data and duplicated rows, large k and small."""
    import numpy as np

    import refml
    import refml_fast

    rng = np.random.default_rng(31)
    for n, d, k, twice in ((2000, 300, 41, True), (1200, 12, 15, True), (600, 5, 1, False)):
        if metric == "mahalanobis":     # at d = 300 its general bound lets every row through
            d = min(d, 40)
        X = np.round(rng.normal(size=(n, d)), 1)
        if twice:                                       # every row twice: ties at each k
            X[n // 2:] = X[:n - n // 2]
        y = rng.integers(0, 3, size=n)
        queries = np.concatenate([X[:20], np.round(rng.normal(size=(40, d)), 1)])
        model = refml_fast.KNeighborsClassifier(n_neighbors=k, metric=metric,
                                                algorithm="brute").fit(X, y)
        squared, indices = model._kneighbors_squared(queries)
        sure_squared, sure_indices = model._kneighbors_squared(queries, votes_only=True)
        sure = np.isnan(sure_squared).mean()
        assert 0.5 < sure <= 1.0 and (sure < 1.0 or not twice)   # odd k splits a pair
        assert [sorted(row) for row in sure_indices.tolist()] == \
            [sorted(row) for row in indices.tolist()]
        reference = refml.KNeighborsClassifier(n_neighbors=k, metric=metric).fit(
            X.tolist(), y.tolist())
        assert model.predict(queries).tolist() == reference.predict(queries.tolist())
        assert model.predict_proba(queries).tolist() == \
            reference.predict_proba(queries.tolist())


@pytest.mark.fast
def test_aligned_rows_keep_refmls_neighbours_under_the_blocked_bound():
    """Rows along one direction (every product of the cross sums has the same sign, the
    case where rounding errors add up instead of cancelling) at d = 700, eleven slices of
    KC features, scaled far from 1 and moved far from 0: the float32 screen's bound still
    holds, and neighbours, distances and votes are refml's."""
    import numpy as np

    import refml
    import refml_fast

    rng = np.random.default_rng(37)
    for scale, shift, step in ((1e4, 0.0, 1e-6), (1e-3, 5e2, 1e-3), (1.0, -1e3, 1e-9)):
        v = rng.normal(size=700) * scale
        X = (1 + step * rng.integers(0, 40, size=300))[:, None] * v[None, :]
        X = X + shift + 1e-7 * np.abs(v).mean() * rng.normal(size=X.shape)
        queries = X[rng.integers(0, 300, size=12)] * (1 + 1e-9 * rng.normal(size=(12, 1)))
        y = rng.integers(0, 3, size=300)
        fast = refml_fast.KNeighborsClassifier(n_neighbors=9, algorithm="brute").fit(X, y)
        slow = refml.KNeighborsClassifier(n_neighbors=9).fit(X.tolist(), y.tolist())
        distances, indices = fast.kneighbors(queries)
        expected_distances, expected_indices = slow.kneighbors(queries.tolist())
        assert indices.tolist() == [list(row) for row in expected_indices]
        assert distances.tolist() == [list(row) for row in expected_distances]
        assert fast.predict_proba(queries).tolist() == slow.predict_proba(queries.tolist())
