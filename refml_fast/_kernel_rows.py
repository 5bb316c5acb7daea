"""The cache of rows of K for refml_fast's SMO (refml_fast._smo).

Rows of K are computed on first use and kept in a cache of at most ``CACHE_BYTES`` (rows
beyond it are recomputed after second-chance eviction; values never change, so the cache
cannot change a result).  While points are shrunk away, a row is computed at the active
points only.  Kernel values as in ``_gram``: the same floats as refml's.
"""

import mmap
import threading

import numpy as np

from ._config import kernel
from ._gram import four_terms, kernel_row, kernel_value, one_term

CACHE_BYTES = 256 * 2 ** 20
# A fit's cache mapping, handed back when the fit is done (``give_back``) for the next fit
# to reuse.  Memory a process touches for the first time can be slow to come by: on this
# project's virtual machine a first touch took 8 us a page when the host had to back it
# (176 ns on memory just freed), so the 200 MiB that rbf 5,000 x 2 at spread 2 fills cost
# its fit 411 instead of 126 ms, and long benchmark runs read 350 ms for it where it took
# 160 alone.  A smaller cache touches less but computes rows again (64 MiB: linear 10,000 x
# 20 overlapping 323 -> 463 ms; 128 MiB: linear 20,000 x 10 3.4 -> 4.1 s).  The spare's
# pages are marked MADV_FREE: the kernel takes them back when it needs memory, and until
# then they are counted in the process's resident size.
_SPARE = []
_SPARE_LOCK = threading.Lock()
HUGE_FROM = 4 * 2 ** 20


def row_cache(n):
    """The cache of rows of K: an uninitialised (slots, n) float64 array holding all n rows
    when they fit in CACHE_BYTES (else as many as fit, at least 2).  Large caches are mapped
    on transparent huge pages where the system allows it (rows are written once each, and
    first writes to fresh 4 KB pages cost a page fault each), in the spare mapping of an
    earlier fit when it is large enough."""
    slots = max(2, min(n, CACHE_BYTES // (8 * n)))
    size = slots * n * 8
    if size >= HUGE_FROM and hasattr(mmap, "MADV_HUGEPAGE"):
        with _SPARE_LOCK:
            buffer = _SPARE.pop() if _SPARE and len(_SPARE[0]) >= size else None
        try:
            if buffer is None:
                buffer = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
                buffer.madvise(mmap.MADV_HUGEPAGE)
            return np.frombuffer(buffer, dtype=np.float64, count=slots * n).reshape(slots, n)
        except (OSError, ValueError):
            pass
    return np.empty((slots, n))


def give_back(cache):
    """After a fit: the mapping under ``cache`` (if ``row_cache`` mapped it) becomes the
    spare, its pages free for the kernel to take (MADV_FREE); the larger of it and the
    current spare is kept."""
    buffer = cache
    while isinstance(buffer, np.ndarray):
        buffer = buffer.base
    if isinstance(buffer, memoryview):          # np.frombuffer's view of the mapping
        buffer = buffer.obj
    if not (isinstance(buffer, mmap.mmap) and hasattr(mmap, "MADV_FREE")):
        return
    try:
        buffer.madvise(mmap.MADV_FREE)
    except (OSError, ValueError):
        return
    with _SPARE_LOCK:
        if not _SPARE or len(_SPARE[0]) < len(buffer):
            _SPARE[:] = [buffer]


@kernel(refcounts=False)
def fetch_row(i, protect, X, XT, code, gamma, degree, coef0, cache, slot_of, owner, clock, used,
              made, generation, active, n_active):
    """The cache slot holding row i of K at least at the active points; a miss evicts by the
    clock (second-chance) rule, never ``protect``.  While points are shrunk away a row is computed at the
    active points only (``made[slot]`` = the generation of the active set it serves, -1 for
    a complete row): it stays valid while the set only shrinks; ``generation`` changes when
    every point is made active again."""
    slot = slot_of[i]
    if slot >= 0:
        used[slot] = True
        if made[slot] == -1 or made[slot] == generation:
            return slot
    else:
        slot = clock[0]                               # second chance: skip recent rows once
        while used[slot] or (protect >= 0 and owner[slot] == protect):
            used[slot] = False
            slot = (slot + 1) % cache.shape[0]
        used[slot] = True
        clock[0] = (slot + 1) % cache.shape[0]
        if owner[slot] >= 0:
            slot_of[owner[slot]] = -1
        owner[slot] = i
        slot_of[i] = slot
    if n_active == X.shape[0]:
        kernel_row(X[i], XT, code, gamma, degree, coef0, cache[slot])
        made[slot] = -1
    else:
        kernel_row_at(X[i], XT, active, n_active, code, gamma, degree, coef0, cache[slot])
        made[slot] = generation
    return slot


@kernel(refcounts=False)
def complete_row(i, X, XT, code, gamma, degree, coef0, cache, slot_of, made):
    """The slot of row i of K, complete at every point (computed again if needed)."""
    slot = slot_of[i]
    if made[slot] != -1:
        kernel_row(X[i], XT, code, gamma, degree, coef0, cache[slot])
        made[slot] = -1
    return slot


@kernel(refcounts=False)
def kernel_row_at(x, ZT, active, n_active, code, gamma, degree, coef0, out):
    """``_gram.kernel_row`` at the active columns only: the same floats there, from the same
    helpers.  Four features are added per pass over the active points, each sum still
    feature by feature (a quarter of the gathers and stores of one feature a pass; the
    linear SVC of 10,000 x 20 in the grid: a fit 612 -> 549-576 ms, the same 66,131
    steps)."""
    d = ZT.shape[0]
    d4 = d - d % 4
    for k in range(n_active):
        out[active[k]] = 0.0
    for f in range(0, d4, 4):
        x0, x1, x2, x3 = x[f], x[f + 1], x[f + 2], x[f + 3]
        for k in range(n_active):
            t = active[k]
            out[t] = four_terms(code, x0, x1, x2, x3, ZT, f, t, out[t])
    for f in range(d4, d):
        xf = x[f]
        for k in range(n_active):
            t = active[k]
            out[t] = one_term(code, xf, ZT, f, t, out[t])
    if code != 0:                   # linear: the sums are the values
        for k in range(n_active):
            t = active[k]
            out[t] = kernel_value(code, out[t], gamma, degree, coef0)
