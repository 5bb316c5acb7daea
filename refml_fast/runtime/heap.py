"""The k best neighbours as Numba kernels: the ``len(keys)`` smallest (key, index) pairs
offered, kept in a bounded max-heap or in a sorted list.

Pairs are ordered by key, then by index (docs/design.md section 4: among equal distances the lower
training index comes first).  The heap keeps the worst pair at position 0, so that a new
pair costs O(log k), and is sorted once at the end (``sort_heap``).  The sorted list
(``insert_sorted``) keeps them in order, the worst last: a new pair moves the worse ones
up by one, O(k) at worst, but few when pairs come about nearest first, as from a k-d
tree's search, and it needs no sort at the end.  Both keep the same pairs, because the
order is total.
"""

from refml_fast.runtime.options import kernel


@kernel(refcounts=False)
def worse(key_a, id_a, key_b, id_b):
    """(key_a, id_a) comes after (key_b, id_b): a larger key, or an equal key and a larger
    training index (docs/design.md section 4: the lower index first)."""
    return key_a > key_b or (key_a == key_b and id_a > id_b)


@kernel(refcounts=False)
def sift_down(keys, ids, t, count):
    """Restore the max-heap order (by ``worse``) below position t of keys[:count]."""
    while 2 * t + 1 < count:
        child = 2 * t + 1
        if child + 1 < count and worse(keys[child + 1], ids[child + 1], keys[child], ids[child]):
            child += 1
        if not worse(keys[child], ids[child], keys[t], ids[t]):
            return
        keys[t], keys[child] = keys[child], keys[t]
        ids[t], ids[child] = ids[child], ids[t]
        t = child


@kernel(refcounts=False)
def offer(keys, ids, count, key, index):
    """Keep the len(keys) first (key, index) pairs offered, in the order of ``worse``, as a
    max-heap of ``count`` entries (the worst kept at keys[0]); returns the new count."""
    if count < keys.shape[0]:
        t = count
        keys[t], ids[t] = key, index
        while t > 0 and worse(keys[t], ids[t], keys[(t - 1) // 2], ids[(t - 1) // 2]):
            parent = (t - 1) // 2
            keys[t], keys[parent] = keys[parent], keys[t]
            ids[t], ids[parent] = ids[parent], ids[t]
            t = parent
        return count + 1
    if worse(keys[0], ids[0], key, index):
        keys[0], ids[0] = key, index
        sift_down(keys, ids, 0, count)
    return count


@kernel(refcounts=False)
def sort_heap(keys, ids, count):
    """Heapsort: the heap's entries in increasing (key, index) order, in place."""
    for end in range(count - 1, 0, -1):
        keys[0], keys[end] = keys[end], keys[0]
        ids[0], ids[end] = ids[end], ids[0]
        sift_down(keys, ids, 0, end)


@kernel(refcounts=False)
def insert_sorted(keys, ids, count, key, index):
    """Keep the len(keys) first (key, index) pairs offered, in the order of ``worse``, as a
    sorted list of ``count`` entries (the worst kept at keys[count - 1]): the pair goes in
    after the last entry not worse than it, the worst entry dropping off when the list is
    full; returns the new count."""
    k = keys.shape[0]
    if count == k and not worse(keys[k - 1], ids[k - 1], key, index):
        return count                      # e.g. the worst's key, with a larger index
    t = count if count < k else k - 1
    while t > 0 and worse(keys[t - 1], ids[t - 1], key, index):
        keys[t], ids[t] = keys[t - 1], ids[t - 1]
        t -= 1
    keys[t], ids[t] = key, index
    return count + 1 if count < k else count
