"""Histogram trees over numpy arrays: refml.tree.histogram's edges, codes and thresholds,
the same floats (beyond the lectures).

- ``bin_edges``: per feature, the sorted values and their distinct ones (``np.unique``),
  the same quantile positions floor(q n / B) - 1 as refml, and refml's midpoint
  (0.5 a + 0.5 b, moved down to a when rounding put it on b), elementwise.
- ``binned``: ``np.searchsorted(edges, x, side="left")``, the number of edges below x,
  which is refml's ``bisect_left``; the codes are kept as floats, so that the tree's
  kernels take them as they take X.
- ``edge_thresholds``: the edges padded into one (d, longest) array and read at
  [feature, floor(threshold)] for every split node at once.
"""

import numpy as np

from refml_fast.runtime.options import kernel
from refml_fast.tree.kernels import midpoint


def quantile_edges(values, max_bins):
    """refml's ``quantile_edges`` of one column."""
    ordered = np.sort(values)
    distinct = np.unique(ordered)
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


# ----------------------------------------------------------------------------------------
# The split search by histogram, for the Gini criterion with whole-number weights.

HISTOGRAM_BINS = 4096   # the widest range of ranks a node's histogram covers


@kernel(refcounts=False)
def scan_histogram(node_rows, ranks_j, top, X, feature, codes, weights, unit, best_cost,
                   scratch, best_counts, min_leaf, bins, bin_rows, bin_ends):
    """``kernels.scan_whole_gini`` without ordering the node's rows: their class weights are
    counted into one bin per rank 0..top (``top``: the feature's largest rank on the tree's
    rows, below max_bins in a histogram tree; ``bins``: (HISTOGRAM_BINS, K), ``bin_rows``:
    rows per bin, ``bin_ends``: (2, HISTOGRAM_BINS), the lowest and the highest row id of
    each bin, whose values give the threshold as the ordered rows' would), then the
    boundaries between non-empty bins are scanned in ascending rank, each bin's class
    weights moved left at once.  The node's rows come in ascending row ids.

    The same costs bit for bit: with whole-number weights (total W <= 2^26) every class
    weight, W and sum of squares is an integer below 2^53 at every boundary, whatever the
    order of the additions, and the boundaries are the same (between consecutive distinct
    ranks), met in the same order, with the same row counts for ``min_leaf``.  Returns
    (best cost, rows on the left or -1, threshold, the highest rank on the left), or
    (best cost, -2, 0.0, 0) when the node has fewer than twice as many rows as there are
    bins (then ordering its rows costs less: the caller does that instead).  Measured on
    forests of 300 trees, 20,000 x 50, two classes, two cores: exact trees 2.55 s ordering
    every node, 2.60-2.64 with a histogram of the node's own range of ranks wherever it
    spanned no more than its rows (a pass more to find the range); max_bins=256 2.28 s
    ordering every node, 1.76-1.79 with the histogram.
    """
    m = node_rows.shape[0]
    span = top + 1
    if 2 * span > m or span > HISTOGRAM_BINS:
        return best_cost, -2, 0.0, 0
    n_classes = bins.shape[1]
    totals, left = scratch[0], scratch[1]
    count_into_bins(node_rows, ranks_j, codes, weights, unit, span, bins, bin_rows, bin_ends,
                    totals)
    for k in range(n_classes):
        left[k] = 0.0
    total = 0.0
    squares_right = 0.0
    for k in range(n_classes):
        total += totals[k]
        squares_right += totals[k] * totals[k]
    squares_left = 0.0
    w_left = 0.0
    rows_left = 0
    n_left = -1
    best_bin = 0
    for b in range(span - 1):              # the last bin is never on the left alone
        if bin_rows[b] == 0:
            continue
        for k in range(n_classes):
            w = bins[b, k]
            if w > 0.0:
                c = left[k]
                squares_left += w * (2.0 * c + w)
                c = totals[k] - c
                squares_right -= w * (2.0 * c - w)
                left[k] += w
                w_left += w
        rows_left += bin_rows[b]
        if rows_left < min_leaf or m - rows_left < min_leaf:
            continue
        w_right = total - w_left
        if w_left <= 0.0 or w_right <= 0.0:
            continue
        cost = ((w_left * w_left - squares_left) / w_left
                + (w_right * w_right - squares_right) / w_right)
        if cost < best_cost:
            best_cost = cost
            n_left = rows_left
            best_bin = b
    if n_left < 0:
        return best_cost, -1, 0.0, 0
    for k in range(n_classes):
        best_counts[0, k] = 0.0
    for b in range(best_bin + 1):
        for k in range(n_classes):
            best_counts[0, k] += bins[b, k]
    for k in range(n_classes):
        best_counts[1, k] = totals[k] - best_counts[0, k]
    following = best_bin + 1
    while bin_rows[following] == 0:
        following += 1
    threshold = midpoint(X[bin_ends[1, best_bin], feature], X[bin_ends[0, following], feature])
    return best_cost, n_left, threshold, best_bin


@kernel(refcounts=False)
def count_into_bins(node_rows, ranks_j, codes, weights, unit, span, bins, bin_rows, bin_ends,
                    totals):
    """The node's histogram for ``scan_histogram``: class weights and rows of bins
    0..span-1, the lowest and highest row id of each, and the class totals."""
    for b in range(span):
        bin_rows[b] = 0
        for k in range(bins.shape[1]):
            bins[b, k] = 0.0
    for k in range(totals.shape[0]):
        totals[k] = 0.0
    for p in range(node_rows.shape[0]):
        row = node_rows[p]
        b = ranks_j[row]
        w = 1.0 if unit else weights[row]
        bins[b, codes[row]] += w
        totals[codes[row]] += w
        if bin_rows[b] == 0:
            bin_ends[0, b] = row
        bin_rows[b] += 1
        bin_ends[1, b] = row
