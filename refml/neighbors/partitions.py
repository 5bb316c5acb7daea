"""Exact k-NN over a training set cut into partitions (beyond the lectures: the scale-out that
the 1-NN theorem of [IML-L5] needs when n outgrows one machine).

The k nearest of all rows are among the union of each partition's k nearest: a row that is
not among its own partition's k best has k rows nearer (or as near, with lower indices) in
that partition alone.  So each partition answers its k best, as (squared distance, global
row index, class code) with global index = the partition's first row + the local index,
and the merge keeps the k smallest by (squared distance, global index): the order of
``knn.nearest_neighbors`` on all rows at once, ties to the lower training index.  The
merge compares squared distances, not their square roots, which could round two different
distances to one; each squared distance is the float the whole-set search computes (a
distance depends on its two rows only).  Votes are then ``knn.votes`` of the merged codes.

The Euclidean metric only: the Mahalanobis metric's Sigma is a statistic of every row.
"""

from refml.neighbors.knn import nearest_neighbors


def partition_neighbors(x, X_part, codes_part, first, k):
    """A partition's k best for the query x (fewer when it has fewer rows):
    [(squared distance, global index, class code)], in (distance, index) order."""
    squared, local = nearest_neighbors(x, X_part, min(k, len(X_part)))
    return [(d, first + i, codes_part[i]) for d, i in zip(squared, local)]


def merge_neighbors(answers, k):
    """The k best of the partitions' answers for one query, by (squared distance, global
    index): the lower index first among equal distances, as one search over all rows."""
    return sorted((item for answer in answers for item in answer),
                  key=lambda item: (item[0], item[1]))[:k]


def partitioned_kneighbors(parts, X_query, k):
    """(squared distances, global indices, codes) of the k nearest rows of every query,
    the training rows given as ``parts``: [(X_part, codes_part)] in row order."""
    firsts, start = [], 0
    for X_part, _ in parts:
        firsts.append(start)
        start += len(X_part)
    if not 1 <= k <= start:
        raise ValueError(f"n_neighbors={k} must be between 1 and the {start} training rows")
    merged = [merge_neighbors([partition_neighbors(x, X_part, codes_part, first, k)
                               for (X_part, codes_part), first in zip(parts, firsts)], k)
              for x in X_query]
    return ([[item[0] for item in best] for best in merged],
            [[item[1] for item in best] for best in merged],
            [[item[2] for item in best] for best in merged])
