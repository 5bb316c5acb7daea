"""The k-th smallest of a set of floats, for the k-NN search's running threshold
(refml_fast.neighbors explains the search): an upper bound on it from one tile of training
rows, and the selection that keeps the k smallest upper bounds seen so far.

Only the k-th value matters there, never which rows tie at it.  The k-NN 2,002 x 400 with
k = 50 (200 queries, one core) spent a quarter of its search here: the first tile's bound
let about a third of the tile's rows through, and a quickselect branching on every
comparison took 15.7% on its own.  With the bound halved toward the k-th value (6.00 ->
5.39 ms) and the selection done by halving an interval of values, counting in loops that
vectorise (5.39 -> 5.2-5.27 ms, the selection's share 11.2% -> 8.7%), the search took
5.2 ms.
"""

import numpy as np

from refml_fast.runtime.options import kernel

BISECTIONS = 24                 # halvings of the first tile's bound at most
HALVINGS = 80                   # halvings of keep_smallest's interval at most


@kernel(refcounts=False)
def first_tile_bound(acc, g, upper_tile, k, values):
    """An upper bound on the k-th smallest upper bound of one tile, for query g, with at
    most about 1.5 k + 4 of the tile's upper bounds at or below it; inf when the tile has
    fewer than k rows.  ``values`` (room for the tile) receives the upper bounds.

    A first bound: the tile's rows split into k groups, the largest of the groups'
    smallest upper bounds (k distinct rows lie at or below it).  For large k it is loose
    (k = 50 of 512 rows: about a third of the rows lie below it), and every row below the
    threshold is a candidate and every upper bound below it goes through the selection
    of the k smallest (``screen_tile``).  So the bound is then halved toward the smallest
    value while at least k values stay at or below it, each count a loop that vectorises
    (k-NN 2,002 x 400 with k = 50, 200 queries, one core: the search 6.00 -> 5.39 ms, the
    selection's share of it 15.7% -> 11.2%, halving down to k + k / 8 + 1 values; down
    to 1.5 k + 4 it read the same within the noise, with fewer halvings for small k)."""
    width = upper_tile.shape[0]
    if width < k:
        return np.inf
    for t in range(width):
        values[t] = upper_tile[t] - 2.0 * acc[g, t]
    bound, low = -np.inf, np.inf
    for group in range(k):
        smallest = smallest_of(values, group * width // k, (group + 1) * width // k)
        bound, low = max(bound, smallest), min(low, smallest)
    enough = k + k // 2 + 4
    below = count_below(values, width, bound, True)
    for _ in range(BISECTIONS):
        middle = low + (bound - low) / 2.0
        if below <= enough or not low < middle < bound:
            break
        at_middle = count_below(values, width, middle, True)
        if at_middle >= k:
            bound, below = middle, at_middle
        else:
            low = middle
    return bound


@kernel(inline=True)
def smallest_of(values, first, stop):
    """min(values[first:stop]) in four running minima: one waits on each comparison, four
    cycles a value, and such loops (the groups', and one for the smallest value) had taken
    most of ``first_tile_bound``'s time: 870-940 -> 270-470 ns a call, and the search of
    k-NN 3,571 x 32 with k = 15 (714 queries, one core) 5.2 -> 4.7 ms."""
    m0 = m1 = m2 = m3 = np.inf
    t = first
    while t + 4 <= stop:
        m0, m1 = min(m0, values[t]), min(m1, values[t + 1])
        m2, m3 = min(m2, values[t + 2]), min(m3, values[t + 3])
        t += 4
    while t < stop:
        m0 = min(m0, values[t])
        t += 1
    return min(min(m0, m1), min(m2, m3))


@kernel(refcounts=False)
def keep_smallest(values, count, k):
    """Reorder values[:count] so that values[:k] are its k smallest (ties at the k-th in
    any order); returns the k-th smallest.

    The k-th smallest is found by halving an interval of values (``kth_by_halving``),
    counting the values at or below its middle in loops that vectorise, and the k smallest
    are then moved to the front without a branch a value.  A quickselect (median-of-three
    pivots) takes the cases it gives up on: values that are not finite, or an interval it
    cannot halve.  The quickselect alone, branching on every comparison, had taken 15.7%
    of a search (k-NN 2,002 x 400 with k = 50, 200 queries, one core)."""
    if count > k:
        kth = kth_by_halving(values, count, k)
        if kth == kth:
            j = move_first(values, 0, count, kth, False, count)
            move_first(values, j, count, kth, True, k)
            return kth
        quickselect(values, count, k)
    largest = values[0]
    for p in range(1, k):
        largest = max(largest, values[p])
    return largest


@kernel(inline=True)
def move_first(values, j, count, kth, equal, stop):
    """Swap the values below kth (equal: those equal to it) into values[j:], until position
    ``stop``; returns the next position.  Each value is swapped, moved or not: no branch."""
    for i in range(j, count):
        if j == stop:
            break
        x = values[i]
        values[i], values[j] = values[j], x
        j += (x == kth) if equal else (x < kth)
    return j


@kernel(refcounts=False)
def kth_by_halving(values, count, k):
    """The k-th smallest of values[:count] (count > k), or NaN where the values are not all
    finite or the interval stops halving (then the caller's quickselect decides).  The
    interval (low, high] holds it: fewer than k values lie at or below low, k or more at or
    below high, and high is one of the values.  Each step counts the values at or below the
    middle, and finds the largest of them and the smallest above the middle: with k or
    more below, high moves down to that largest, and is the k-th smallest once fewer than k
    lie below it; else low moves up to the middle, and the smallest above it is the k-th
    smallest if k or more lie at or below it (so ties end the halving at once)."""
    low, high, nans = np.inf, -np.inf, 0
    for t in range(count):
        low, high = min(low, values[t]), max(high, values[t])
        nans += values[t] != values[t]
    if nans > 0 or not (-np.inf < low and high < np.inf):
        return np.nan
    if count_below(values, count, low, True) >= k:
        return low
    for _ in range(HALVINGS):
        middle = low / 2.0 + high / 2.0
        if not low < middle < high:
            break
        below, largest, above = split_at(values, count, middle)
        if below >= k:
            high = largest
            if count_below(values, count, high, False) < k:
                return high
        else:
            low = middle
            if count_below(values, count, above, True) >= k:
                return above
    if count_below(values, count, high, False) < k:
        return high
    return np.nan


@kernel(inline=True)
def count_below(values, count, x, or_equal):
    """How many of values[:count] are below x (or_equal: at or below it)."""
    below = 0
    if or_equal:
        for t in range(count):
            below += values[t] <= x
    else:
        for t in range(count):
            below += values[t] < x
    return below


@kernel(inline=True)
def split_at(values, count, x):
    """How many of values[:count] are at or below x, the largest of those and the smallest
    of the others (a loop that vectorises)."""
    below, largest, above = 0, -np.inf, np.inf
    for t in range(count):
        at_most = values[t] <= x
        below += at_most
        largest = max(largest, values[t] if at_most else -np.inf)
        above = min(above, np.inf if at_most else values[t])
    return below, largest, above


@kernel(refcounts=False)
def quickselect(values, count, k):
    """Reorder values[:count] so that values[:k] are its k smallest (median-of-three
    pivots)."""
    lo, hi, target = 0, count - 1, k - 1
    while lo < hi:
        middle = (lo + hi) // 2
        a, b, c = values[lo], values[middle], values[hi]
        pivot = max(min(a, b), min(max(a, b), c))
        i, j = lo, hi
        while i <= j:
            while values[i] < pivot:
                i += 1
            while values[j] > pivot:
                j -= 1
            if i <= j:
                values[i], values[j] = values[j], values[i]
                i += 1
                j -= 1
        if target <= j:
            hi = j
        elif target >= i:
            lo = i
        else:
            break
