"""Histogram trees: every feature cut once into at most B bins (beyond the lectures).

Exact CART ([Yan], "Classification tree") tries, at every node and for every searched
feature, each boundary between two consecutive distinct values of the node's rows.  With
many distinct values most of a tree's work is ordering rows and walking past boundaries
that are never chosen.  A histogram tree (LightGBM, scikit-learn's HistGradientBoosting,
oneDAL's forests) first cuts each feature into at most B = ``max_bins`` bins at quantiles
of the training rows, replaces each value by the number of its bin, and grows the lecture's
tree on those numbers:

1. **Edges** (``quantile_edges``).  With v_(1) <= ... <= v_(n) a feature's training values
   in order: when it takes at most B distinct values, each distinct value is a bin of its
   own; otherwise bin q (q = 1, ..., B - 1) ends after the value c_q = v_(floor(q n / B)),
   the q/B quantile, so that each bin holds about n / B rows (a value repeated past
   several quantiles ends one bin only).  The edge between two bins is the midpoint
   between the last value of the one and the first of the next (``split.midpoint``).
2. **Codes** (``bin_code``): a value's bin is the number of edges below it, so x <= e_b
   exactly when x is in bin b or below.
3. **The tree**: exact CART on the codes.  A split "code <= b" sends every row of a bin the
   same way, so a node's search only needs the class totals of each bin, its histogram;
   refml reads them off the node's rows ordered by code, as exact CART does (refml_fast
   counts the rows into their bins, with the same sums).  The split's threshold is the
   edge e_b (``edge_thresholds``), so that a new point, compared with it, goes where its
   bin would.

When no feature takes more than B distinct values the codes are the values' ranks: the
search sees the same boundaries with the same class totals and costs, makes the same random
feature draws, and the histogram tree partitions the training set exactly as exact CART
does (conformance item 17 checks it).  The thresholds still differ: exact CART cuts halfway
between the node's two adjacent values, the histogram tree at the edge between their bins,
halfway between the adjacent values of the whole training set (of a forest, of all its
rows), which lies between the node's two; a new point between them may go the other way.
A forest computes the edges once, from all its training rows, and grows every tree on the
same codes.
"""

from bisect import bisect_left

from refml.tree.split import midpoint


def quantile_edges(values, max_bins):
    """The ascending edges between the bins of one feature's training ``values``."""
    ordered = sorted(values)
    distinct = sorted(set(ordered))
    if len(distinct) <= max_bins:
        ends = distinct[:-1]                       # every distinct value a bin of its own
    else:
        n = len(ordered)
        ends = []
        for q in range(1, max_bins):
            c = ordered[(q * n) // max_bins - 1]   # the q/B quantile
            if c < distinct[-1] and (not ends or c > ends[-1]):
                ends.append(c)
    return [midpoint(c, distinct[bisect_left(distinct, c) + 1]) for c in ends]


def bin_edges(rows, max_bins):
    """The edges of every feature, from the training rows ``rows``."""
    return [quantile_edges([row[j] for row in rows], max_bins) for j in range(len(rows[0]))]


def bin_code(edges, x):
    """The bin of value x: the number of edges below it (x <= e_b iff its bin is <= b)."""
    return bisect_left(edges, x)


def binned(X, edges):
    """X with every value replaced by its bin's number."""
    return [[bin_code(edges[j], x[j]) for j in range(len(x))] for x in X]


def edge_thresholds(tree, edges):
    """The tree grown on codes, its split thresholds moved to the edges.  A threshold
    between the codes b < b' is the midpoint t in [b, b') (``split.midpoint``), so the
    split sends bins 0..b left: its threshold on the values is the edge e_b."""
    for node, j in enumerate(tree.feature):
        if j >= 0:
            tree.threshold[node] = edges[j][int(tree.threshold[node])]
    return tree
