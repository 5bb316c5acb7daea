"""A node's rows in (rank, row id) order: the linear sort of a tree that sorts at its nodes.

A row of a node is one int64 word, rank << 32 | row id (``kernels.word_of``), so that the
words' order is the (rank, row id) order refml's split search visits, and a sort moves
one word per row (row ids and ranks as two arrays: 15-25% slower sorts).  The rows of a
node come in ascending row ids; ``gather_words`` makes their words, ``sort_gathered``
orders them: by insertion up to INSERTION_ROWS rows; up to COUNTED_ROWS each word goes
where the words below it end, counted against all m (m^2 comparisons without a branch,
on vector lanes: the words are distinct, so the places are too); else by one counting
pass when the ranks span a short range, else by radix passes over rank - lowest (a
comparison sort cost ~30 ns a row here, its branches mispredicted).  Counting passes are
stable, so rows of one rank stay in ascending ids.  Gathered and ordered, ranks of 20,000
values, ns a row: 16 rows by insertion 11.6, counted 6.5; 32 rows 14.0 and 6.9; 48 rows
16.0 and 9.4; 64 rows radix 8.7, counted 8.3; 8 rows by insertion 4.3, counted 8.1.
The same counting passes sort the keys of a tree's or a forest's ranking of X
(``sort_key_words``, for ``classifier.sorted_keys``).
"""

import numpy as np

from refml_fast.runtime.options import kernel
from refml_fast.tree.kernels import ROW_BITS, word_of

MAX_BUCKETS = 2 ** 16  # of one counting pass
KEY_DIGIT = 11         # bits of a pass over the ranking's keys (three cover a high half)
INSERTION_ROWS = 12    # sorted by insertion up to this many rows,
COUNTED_ROWS = 56      # by counting the words below each one up to this many


@kernel(refcounts=False)
def gather_words(ranks_j, node_rows, words):
    """words[p] = ranks_j[row] << 32 | row for the node's rows; returns (lowest rank,
    highest rank)."""
    lo = np.int64(ranks_j[node_rows[0]])
    hi = lo
    for p in range(node_rows.shape[0]):
        row = node_rows[p]
        r = np.int64(ranks_j[row])
        words[p] = word_of(r, row)
        lo = min(lo, r)
        hi = max(hi, r)
    return lo, hi


@kernel(refcounts=False)
def order_by_rank(ranks_j, node_rows, buffers, counts):
    """The node's rows (ascending row ids) as words in a stable order by their ranks
    ``ranks_j``, so by (rank, row id), in the first m words of ``buffers[b]``; returns b
    (0 or 1, the other row is scratch).  ``buffers``: (2, >= m) int64; ``counts``: of
    MAX_BUCKETS + 2."""
    m = node_rows.shape[0]
    lo, hi = gather_words(ranks_j, node_rows, buffers[1])
    return sort_gathered(buffers, m, lo, hi, counts)


@kernel(refcounts=False)
def sort_gathered(buffers, m, lo, hi, counts):
    """Order the m words of ``buffers[1]`` (ranks from lo to hi; words of equal rank in
    ascending row ids) by (rank, row id) into ``buffers[b]``; returns b (a sort of an even
    number of passes ends where it began, and is not copied)."""
    out, tmp = buffers[0], buffers[1]
    if INSERTION_ROWS < m <= COUNTED_ROWS:
        for i in range(m):                 # each word where the words below it end
            word = tmp[i]
            below = 0
            for p in range(m):
                below += tmp[p] < word
            out[below] = word
        return 0
    if m <= INSERTION_ROWS:
        for p in range(m):
            word = tmp[p]
            q = p
            while q > 0 and out[q - 1] > word:
                out[q] = out[q - 1]
                q -= 1
            out[q] = word
        return 0
    width = 1  # bits of rank - lo
    while (hi - lo) >> width:
        width += 1
    if (1 << width) <= min(4 * m + 512, MAX_BUCKETS):
        bits = width  # one counting pass over every bucket
    else:
        bits = radix_bits(width, m)
    passes = (width + bits - 1) // bits
    src, dst = tmp, out
    for step in range(passes):
        counting_pass(src, dst, m, lo << ROW_BITS, ROW_BITS + bits * step, (1 << bits) - 1,
                      counts)
        src, dst = dst, src
    return 1 - passes % 2  # the first pass wrote buffers[0], the second buffers[1], ...


@kernel(refcounts=False, inline=True)
def radix_bits(width, m):
    """The digit of a radix sort of m words whose keys span ``width`` bits: the one of 2-11
    bits with the least passes x (2^(bits + 1) + 5 m), a pass costing a walk of its
    2^bits counters twice and about five steps a row.  Few rows take small digits (a
    pass's counters are their fixed cost), many rows few passes, and the passes share
    the bits evenly (18 bits: 9 + 9, not 11 + 7).  Against 8- or 11-bit digits, ranks of
    200,000 values: 40 rows 19.1 -> 10.1 ns a row (insertion: 7.4), 1,000 rows 7.7 ->
    5.5, 120,000 rows 5.2 -> 5.0; of 20,000 values the same within 5%."""
    best_bits, best_cost = 11, np.inf
    for bits in range(2, 12):
        passes = (width + bits - 1) // bits
        cost = passes * ((2 << bits) + 5 * m)
        if cost < best_cost:
            best_bits, best_cost = bits, cost
    return best_bits


@kernel(refcounts=False)
def counting_pass(src, dst, m, base, shift, mask, counts):
    """One stable counting-sort pass of the first m words by ((word - base) >> shift) &
    mask: a digit of rank - lowest (base: the lowest rank << 32)."""
    counts[:mask + 2] = 0
    for p in range(m):
        counts[((src[p] - base) >> shift & mask) + 1] += 1
    for b in range(mask + 1):
        counts[b + 1] += counts[b]
    for p in range(m):
        word = src[p]
        b = (word - base) >> shift & mask
        dst[counts[b]] = word
        counts[b] += 1


@kernel(refcounts=False)
def sort_key_words(packed, scratch, counts):
    """The ranking's sort (``classifier.sorted_keys``): each row of ``packed`` (int64 words
    of ``kernels.column_keys``, a key's high half over its row id, the ids ascending) in
    the words' unsigned order, by three stable counting passes of KEY_DIGIT bits over the
    high half, lowest digit first, a digit that every word shares skipped (the last
    digit's top bit repeats the sign bit, so the signed words still go in unsigned order).
    The words are distinct and the ids of one high half stay ascending: their sorted order
    (all_ranks of 100,000 x 100, one thread: numpy's sort 541 ms, these passes 258).
    ``scratch``: of n; ``counts``: of 2^KEY_DIGIT + 1 or more."""
    n = packed.shape[1]
    mask = (1 << KEY_DIGIT) - 1
    for c in range(packed.shape[0]):
        words = packed[c]
        ones, zeros = np.int64(0), np.int64(-1)   # bits some word has, bits every word has
        for p in range(n):
            ones |= words[p]
            zeros &= words[p]
        src, dst = words, scratch
        moved = 0
        for d in range(3):
            shift = ROW_BITS + d * KEY_DIGIT
            if (ones ^ zeros) >> shift & mask == 0:
                continue                     # one digit for every word: nothing moves
            counting_pass(src, dst, n, 0, shift, mask, counts)
            src, dst = dst, src
            moved += 1
        if moved % 2:
            for p in range(n):
                words[p] = scratch[p]
