"""A subtree's rows copied close together: the ranks, class codes and weights of a node's
rows gathered once into arrays of their own, where its descendants read them (beyond the
lectures; a memory layout, not a new method: the same splits, bit for bit).

A tree that sorts at its nodes (``grow``) reads ranks[j, row] for each searched feature of
each node, the node's rows in ascending row ids.  Near the root the rows are most of the
tree's and those reads go along memory; deeper, a node's rows lie far apart, each read a
cache line of its own, and a tree on 100,000 x 50 spent about 40% of its time there
(``word_sort.gather_words``, 5-9 ns a row on nodes of 100-1,000 rows against 1 ns at the
root).  So when a node holds at most a QUARTER of the rows of the space it lives in, and
that space's ranks are larger than SPACE_BYTES, the node gets a space of its own: row p of
the new space is the node's p-th row, its ranks of every feature, code and weight copied
(the node's rows are still a quarter of the old space's, so the copy reads whole cache
lines); its descendants search and partition rows 0..m-1 of that space.  Spaces nest up
to MOST_SPACES deep and close when the depth-first growth leaves the node.  A tree that
searches fewer than 1/WIDEST of its features opens none (``space_row_bytes``).

The searches and the partition see the same (rank, row) order: a space's rows are the
node's rows in the same ascending order, renumbered, so ties of rank keep their order, and
the ranks are the tree's.  Only the threshold reads X, through the row's id in the tree
(``ids``).  100,000 x 50, two classes, 20 trees on one thread: 1.53 -> 1.31 s (copying at
nodes of 4,096 rows straight from the tree's space: 1.66 s, each copied rank a cache miss).
"""

import numpy as np

from refml_fast.runtime.options import kernel

QUARTER = 4              # a node of at most 1/QUARTER of its space's rows gets its own
SPACE_BYTES = 2 ** 20    # ... when that space's ranks take more than this (about a core's L2)
MOST_SPACES = 3          # nested below the tree's own
WIDEST = 10              # spaces for trees searching at least 1/WIDEST of their features


@kernel(refcounts=False, inline=True)
def space_row_bytes(n_features, n_candidates, itemsize):
    """The bytes of a row's ranks in a space, 0 when a tree opens none: a space copies
    every feature of its rows and a node reads n_candidates of them, so a tree that
    searches few of many features copies more than it reads again (one thread, 50,000 x
    200 searching 14: 0.56-0.58 -> 0.59-0.63 s with spaces; 5,000 x 500 searching 22:
    0.144 -> 0.154)."""
    return n_features * itemsize if WIDEST * n_candidates >= n_features else 0


@kernel
def subtree_spaces(row_bytes, n_features, n_rows, ranks, codes):
    """The room of a tree's nested spaces: (ranks (MOST_SPACES, d, room) like ``ranks``,
    rows, ids, codes (MOST_SPACES, room), weights, bounds (MOST_SPACES + 1, 2) int64), room
    n_rows // QUARTER (a first space's most rows); no room (room 0) when the tree's own
    ranks, ``row_bytes`` a row (``space_row_bytes``), fit in SPACE_BYTES."""
    room = n_rows // QUARTER if row_bytes * n_rows > SPACE_BYTES else 0
    levels = MOST_SPACES if room > 0 else 0
    return (np.empty((levels, n_features, room), dtype=ranks.dtype),
            np.empty((levels, room), dtype=np.int32), np.empty((levels, room), dtype=np.int32),
            np.empty((levels, room), dtype=codes.dtype), np.empty((levels, room)),
            np.zeros((MOST_SPACES + 1, 2), dtype=np.int64))


@kernel(refcounts=False, inline=True)
def space_of(bounds, level, start, end):
    """The deepest open space, at most ``level``, that holds the node [start, end): open
    spaces are nested and the growth is depth first, so a space the node is not in has
    been left for good."""
    while level > 0 and not (bounds[level, 0] <= start and end <= bounds[level, 1]):
        level -= 1
    return level


@kernel(refcounts=False, inline=True)
def wants_space(bounds, level, start, end, row_bytes):
    """Whether the node [start, end), in space ``level``, gets a space of its own
    (``row_bytes``: ``space_row_bytes``)."""
    size = bounds[level, 1] - bounds[level, 0]
    return (level < MOST_SPACES and QUARTER * (end - start) <= size
            and row_bytes * size > SPACE_BYTES)


@kernel(refcounts=False)
def open_space(from_ranks, from_rows, from_ids, from_codes, from_weights, offset, m,
               to_ranks, to_rows, to_ids, to_codes, to_weights):
    """Copy the m rows from_rows[offset:offset + m] (rows of the space ``from_*``; ids
    None-like when it is the tree's own: ``from_ids`` of length 0) into rows 0..m-1 of the
    space ``to_*``, in their order."""
    own = from_ids.shape[0] == 0
    for p in range(m):
        row = from_rows[offset + p]
        to_rows[p] = p
        to_ids[p] = row if own else from_ids[row]
        to_codes[p] = from_codes[row]
        to_weights[p] = from_weights[row]
    for j in range(to_ranks.shape[0]):
        source, target = from_ranks[j], to_ranks[j]
        for p in range(m):
            target[p] = source[from_rows[offset + p]]
