"""Exact k-NN over partitions of the training rows (refml.neighbors.partitions): the merged
k best of the partitions are the k nearest of all rows, ties to the lower global index."""

import random

import pytest

from refml import KNeighborsClassifier
from refml.neighbors.knn import majority, votes
from refml.neighbors.partitions import merge_neighbors, partitioned_kneighbors


def grid_data(n, d, seed):
    """Rows on a small integer grid: many exact distance ties, across partitions too."""
    rng = random.Random(seed)
    X = [[float(rng.randint(-2, 2)) for _ in range(d)] for _ in range(n)]
    y = [rng.randint(0, 2) for _ in range(n)]
    return X, y


@pytest.mark.parametrize("seed", range(6))
def test_partitions_give_the_neighbours_and_votes_of_all_rows(seed):
    rng = random.Random(100 + seed)
    X, y = grid_data(60, 1 + seed % 3, seed)
    queries, _ = grid_data(15, len(X[0]), seed + 50)
    cuts = sorted(rng.sample(range(1, 60), rng.randint(1, 6)))
    bounds = [0] + cuts + [60]
    parts = [(X[a:b], y[a:b]) for a, b in zip(bounds, bounds[1:])]
    for k in (1, 4, 9):
        model = KNeighborsClassifier(n_neighbors=k).fit(X, y)
        squared, indices = model._kneighbors_squared(queries)
        found_squared, found_indices, codes = partitioned_kneighbors(parts, queries, k)
        assert found_indices == indices and found_squared == squared
        assert [majority(votes(row, y, 3)) for row in found_indices] == model.predict(queries)
        assert codes == [[y[i] for i in row] for row in indices]


def test_the_merge_breaks_ties_by_the_lower_global_index():
    answers = [[(1.0, 7, 0), (4.0, 8, 1)], [(1.0, 2, 1), (1.0, 30, 0)]]
    assert merge_neighbors(answers, 3) == [(1.0, 2, 1), (1.0, 7, 0), (1.0, 30, 0)]


def test_k_larger_than_the_rows_is_refused():
    with pytest.raises(ValueError, match="n_neighbors=5"):
        partitioned_kneighbors([([[0.0]], [0]), ([[1.0]], [1])], [[0.5]], 5)
