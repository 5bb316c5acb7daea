"""Histogram trees over numpy arrays: refml.tree.histogram's edges, codes and thresholds,
the same floats (beyond the lectures).

- ``bin_edges``: per feature, the sorted values and their distinct ones (the first of each run),
  the same quantile positions floor(q n / B) - 1 as refml, and refml's midpoint
  (0.5 a + 0.5 b, moved down to a when rounding put it on b), elementwise.
- ``binned``: ``np.searchsorted(edges, x, side="left")``, the number of edges below x,
  which is refml's ``bisect_left``; the codes are kept as floats, so that the tree's
  kernels take them as they take X.
- ``edge_thresholds``: the edges padded into one (d, longest) array and read at
  [feature, floor(threshold)] for every split node at once.

The tree itself is grown by ``grow_binned`` from each node's counts of rows per bin when its
impurity is Gini and its weights whole numbers (the same floats; its docstring says why),
otherwise by the tree's kernels on the codes (their ranks are the bins).  That grower is a
kernel of its own, so an exact tree's first fit does not compile it.
"""

import numpy as np


def quantile_edges(values, max_bins):
    """refml's ``quantile_edges`` of one column."""
    ordered = np.sort(values)
    starts = np.empty(ordered.shape[0], dtype=np.bool_)  # np.unique's mask, without its sort
    starts[:1] = True
    np.not_equal(ordered[1:], ordered[:-1], out=starts[1:])
    distinct = ordered[starts]
    if distinct.shape[0] <= max_bins:
        ends = distinct[:-1]
    else:
        positions = (np.arange(1, max_bins, dtype=np.int64) * ordered.shape[0]) // max_bins - 1
        ends = np.unique(ordered[positions])
        ends = ends[ends < distinct[-1]]
    following = distinct[np.searchsorted(distinct, ends, side="left") + 1]
    middle = 0.5 * ends + 0.5 * following
    return np.where((middle < ends) | (middle >= following), ends, middle)


def bin_edges(X, max_bins):
    """The edges of every column of X (its rows the training rows)."""
    return [quantile_edges(X[:, j], max_bins) for j in range(X.shape[1])]


def binned(X, edges):
    """X's codes, as float64 (n, d), C-contiguous."""
    codes = np.empty(X.shape)
    for j, column_edges in enumerate(edges):
        codes[:, j] = np.searchsorted(column_edges, X[:, j], side="left")
    return codes


def edge_thresholds(tree, edges):
    """The thresholds of the tree grown on codes, moved to the edges (refml's rule)."""
    longest = max(1, max(len(e) for e in edges))
    table = np.zeros((len(edges), longest))
    for j, column_edges in enumerate(edges):
        table[j, :len(column_edges)] = column_edges
    split = tree.feature >= 0
    tree.threshold[split] = table[tree.feature[split],
                                  tree.threshold[split].astype(np.int64)]
    return tree
