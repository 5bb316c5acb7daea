"""The cache of rows of K for refml_fast's SMO (refml_fast.svm.smo).

Rows of K are computed on first use and kept in a cache of at most ``CACHE_BYTES`` (rows
beyond it are recomputed after second-chance eviction; values never change, so the cache
cannot change a result).  While points are shrunk away, a row is computed at the active
points only.  Kernel values as in ``gram``: the same floats as refml's.

A row reads every feature of every (active) point, X transposed, and is the bulk of a fit
whose rows are many and long.  For a long row X.T is kept in panels, one per thread
(``panels_of``), and each thread computes the row at its panel's points
(``row_on_threads``); the values do not depend on who computes them.  A panel is
contiguous, so that each thread reads its own block from its own core's cache, where slices
of one d x n array, n apart, were read back from the shared cache on every row (a row of
5,168 x 97: 112 us on one thread, 63 us from slices on two, 42 us from panels; 10,000 x 20:
28.4, 23.1, 15.5 us).
"""

import contextlib
import mmap
import threading
import time

import numpy as np
from numba import prange

from refml_fast.core.exponential import exp_nonpositive
from refml_fast.runtime import threads as _config
from refml_fast.runtime.lanes import load, store, transpose
from refml_fast.runtime.options import kernel
from refml_fast.svm.gram import four_terms, one_term, poly_value

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
# Rows of at least this much work, products (active points x d) plus EXP_WORK per rbf value,
# are computed on the threads when the fit has panels for them: a launch costs about 2 us,
# such a row 4 us on one thread (rows of 1,846 x 38, poly: a fit of 304 steps 4.4 -> 3.4
# ms with threads from 50,000 products, as from 30,000; rbf 2,093 x 16: 2.9 ms serial, 2.4
# from 30,000).  An rbf value's exponential (``exponential.exp_nonpositive``, vectorised:
# about 1.4 ns) costs about as much as 5 products; libm's had cost about 30.
THREADS_FROM, EXP_WORK = 30_000, 5
# A value of a row at the active points only (``panel_at``: X's columns gathered through
# the list of active points) costs about as much as GATHERED_COST values of a whole row
# (``panel_full``: contiguous); one thread, rbf, a row of 20,000 x 5: 39 us whole, 79 us at
# 90% of the points, 46 at 50%, 21 at 20%, 13 at 10%.
GATHERED_COST = 2


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


@contextlib.contextmanager
def row_panels(X, code):
    """X transposed for a fit's rows (``panels_of``): in one panel per thread of Numba's pool
    while the fit runs with this process's parallel launches to itself and the cores free
    (``threads.run_parallel``'s rules, looked at once for the whole fit), in one otherwise,
    or when even a full row would be short of THREADS_FROM (``code``: the kernel's)."""
    n, d = X.shape
    # Also loads Numba's threading layer.  SMO's compiled code holds the call of
    # ``row_on_threads`` even when it runs on one thread; compiled code calling a parallel
    # kernel, loaded from Numba's cache into a process whose layer was never loaded, can
    # call a null address (seen with a compiled loop calling ``row_into``).
    threads = _config.numba.get_num_threads()
    if (threads < 2 or row_work(n, d, code) < THREADS_FROM
            or not _config._LAUNCH.acquire(blocking=False)):
        yield panels_of(X, 1)
        return
    try:
        free = time.perf_counter() >= _config._HELD_UNTIL[0] and _config.cores_free()
        yield panels_of(X, threads if free else 1, launch_held=free)
    finally:
        _config._LAUNCH.release()


@kernel(refcounts=False)
def fetch_row(i, protect, X, panels, code, gamma, degree, coef0, cache, slot_of, owner, clock,
              used, made, generation, active, n_active):
    """The cache slot holding row i of K at least at the active points; a miss evicts by the
    clock (second-chance) rule, never ``protect``.  While points are shrunk away a row is
    computed at the active points only (``made[slot]`` = the generation of the active set it
    serves, -1 for a complete row): it stays valid while the set only shrinks;
    ``generation`` changes when every point is made active again.  While the active points
    are more than 1 / GATHERED_COST of all, the whole row is computed instead: it costs
    less, and stays valid whatever the active set."""
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
    n = X.shape[0]
    whole = n_active == n or GATHERED_COST * n_active >= n   # the whole row costs less
    row_into(X[i], panels, n, active, n if whole else n_active, code, gamma, degree, coef0,
             cache[slot])
    made[slot] = -1 if whole else generation
    return slot


@kernel(refcounts=False)
def whole_row(i, X, panels, code, gamma, degree, coef0, cache, slot_of, owner, clock, used,
              made, generation, active, n_active):
    """The slot of row i of K complete at every point, whether the cache held the row
    (``complete_row``) or not (computed at every point into a slot ``fetch_row`` frees)."""
    if slot_of[i] < 0:
        return fetch_row(i, -1, X, panels, code, gamma, degree, coef0, cache, slot_of, owner,
                         clock, used, made, generation, active, X.shape[0])
    return complete_row(i, X, panels, code, gamma, degree, coef0, cache, slot_of, made)


@kernel(refcounts=False)
def complete_row(i, X, panels, code, gamma, degree, coef0, cache, slot_of, made):
    """The slot of row i of K, complete at every point (computed again if needed)."""
    slot = slot_of[i]
    if made[slot] != -1:
        n = X.shape[0]
        row_into(X[i], panels, n, slot_of, n, code, gamma, degree, coef0, cache[slot])
        made[slot] = -1
    return slot


def panels_of(X, parts, launch_held=False):
    """X transposed, in ``parts`` panels of columns: panels[p, k, c] = X[p w + c, k], with w
    = ceil(n / parts) rounded up to 8 doubles (a panel starts on a cache line); the columns
    past n are zero and never read.  Copied by ``transpose_into``, on the threads when X
    is large (8,891 x 66: numpy's strided copy into zeros 0.77 ms, 0.2 ms here): through
    ``run_parallel``, or launched at once when the caller holds the launch lock and found
    the cores free (``launch_held``, ``row_panels``), where run_parallel would find the
    lock taken and stay serial (0.4-0.5 ms)."""
    n, d = X.shape
    width = -(-n // parts)
    width = -(-width // 8) * 8
    panels = np.empty((parts, d, width))
    for p in range(parts):                     # never read: zeros, not garbage
        panels[p, :, min(width, max(0, n - p * width)):] = 0.0
    chunks = 16 * _config.numba.get_num_threads()
    if n * d >= TRANSPOSE_THREADS_FROM and launch_held:
        transpose_parallel(X, panels, chunks)
    elif n * d >= TRANSPOSE_THREADS_FROM:
        _config.run_parallel(transpose_parallel, transpose_serial,
                             n * d / TRANSPOSE_THREADS_FROM, X, panels, chunks,
                             unit_seconds=1e-4)
    else:
        transpose_serial(X, panels, 1)
    return panels


# Entries of X from which its transposed copy goes to the threads (about 0.1 ms of work).
TRANSPOSE_THREADS_FROM = 200_000
TRANSPOSE_GROUP = 32               # blocks of eight rows transposed together (256 rows)


@kernel(refcounts=False)
def transpose_into(X, panels, first_block, end_block):
    """Rows 8 b .. 8 b + 7 of X, b in [first_block, end_block), into their panels'
    columns, in 8 x 8 blocks transposed in registers: each feature's eight values fill one
    cache line.  The blocks go in groups of TRANSPOSE_GROUP, eight features at a time for
    the whole group, so that the stores run along eight rows of a panel.  One block at a
    time, each with all its features, had stored to d cache lines far apart per block; on
    a panel not yet in the cache (a fit's fresh array) that took about three times as long
    (medians of 30 copies after 32 MB of other writes, one thread: 1,162 x 81 182 -> 57-75
    us; 5,000 x 100 542 -> 157-191; 20,000 x 2 69 -> 37-42; 10,000 x 20 78 -> 72-86).
    Without the groups (one run through all the blocks per eight features) 10,000 x 20
    took 85-91 us, passing over all of X once per eight features."""
    n, d = X.shape
    width = panels.shape[2]
    full_end = min(end_block, n // 8)              # blocks of eight rows
    d8 = d - d % 8
    for group in range(first_block, full_end, TRANSPOSE_GROUP):
        group_end = min(group + TRANSPOSE_GROUP, full_end)
        for k in range(0, d8, 8):
            for block in range(group, group_end):
                r0 = 8 * block
                p, c0 = r0 // width, r0 % width     # width is a multiple of 8: one panel
                columns = transpose((load(X, r0, k), load(X, r0 + 1, k), load(X, r0 + 2, k),
                                     load(X, r0 + 3, k), load(X, r0 + 4, k),
                                     load(X, r0 + 5, k), load(X, r0 + 6, k),
                                     load(X, r0 + 7, k)))
                for m in range(8):
                    store(panels[p], k + m, c0, columns[m])
        for k in range(d8, d):                     # the last d % 8 features
            for block in range(group, group_end):
                r0 = 8 * block
                p, c0 = r0 // width, r0 % width
                for lane_index in range(8):
                    panels[p, k, c0 + lane_index] = X[r0 + lane_index, k]
    for block in range(max(first_block, full_end), end_block):  # a last block of fewer
        r0 = 8 * block                                         # than eight rows
        p, c0 = r0 // width, r0 % width
        for k in range(d):
            for lane_index in range(n - r0):
                panels[p, k, c0 + lane_index] = X[r0 + lane_index, k]


@kernel(refcounts=False)
def transpose_serial(X, panels, chunks):
    """``transpose_into`` for all of X (``chunks``: the parallel twin's argument, unused)."""
    transpose_into(X, panels, 0, (X.shape[0] + 7) // 8)


@kernel(parallel=True)
def transpose_parallel(X, panels, chunks):
    """``transpose_into`` in ``chunks`` runs of blocks on Numba's threads."""
    blocks = (X.shape[0] + 7) // 8
    for chunk in prange(chunks):
        transpose_into(X, panels, chunk * blocks // chunks, (chunk + 1) * blocks // chunks)


@kernel(refcounts=False)
def row_into(x, panels, n, active, n_active, code, gamma, degree, coef0, out):
    """out_t = K(x, x_t) at every point t (n_active == n) or at the active points active[:n_active]
    (ascending) only, the other entries of ``out`` then left as scratch (``panel_at``); on
    the threads, a panel each, when there are panels and the row is long (THREADS_FROM)."""
    if panels.shape[0] > 1 and row_work(n_active, panels.shape[1], code) >= THREADS_FROM:
        row_on_threads(x, panels, n, active, n_active, code, gamma, degree, coef0, out)
    else:
        for p in range(panels.shape[0]):
            panel_row(x, panels, p, n, active, n_active, code, gamma, degree, coef0, out)


@kernel(inline=True, refcounts=False)
def row_work(count, d, code):
    """The work of a row at ``count`` points, in products (``THREADS_FROM``)."""
    return count * (d + (EXP_WORK if code == 1 else 0))


@kernel(parallel=True)
def row_on_threads(x, panels, n, active, n_active, code, gamma, degree, coef0, out):
    """``row_into``, a panel on each thread."""
    for p in prange(panels.shape[0]):
        panel_row(x, panels, p, n, active, n_active, code, gamma, degree, coef0, out)


@kernel(refcounts=False)
def panel_row(x, panels, p, n, active, n_active, code, gamma, degree, coef0, out):
    """``row_into`` at the points of panel p."""
    width = panels.shape[2]
    first = p * width
    if n_active == n:
        panel_full(x, panels[p], first, max(0, min(width, n - first)), code, gamma, degree,
                   coef0, out)
    else:
        panel_at(x, panels[p], first, active, at_least(active, n_active, first),
                 at_least(active, n_active, first + width), code, gamma, degree, coef0, out)


@kernel(refcounts=False)
def at_least(active, n_active, t):
    """The first position k < n_active with active[k] >= t (n_active if none)."""
    low, high = 0, n_active
    while low < high:
        middle = (low + high) // 2
        if active[middle] < t:
            low = middle + 1
        else:
            high = middle
    return low


@kernel(refcounts=False)
def panel_full(x, ZT, first, count, code, gamma, degree, coef0, out):
    """out[first + c] = K(x, z_c) for the columns c < count of ZT (refml's ``kernel_value``
    floats: each sum feature by feature from 0.0, four features added per pass).  Written
    through the slice out[first:first + count]: indexed out[first + c], a position Numba
    cannot tell is not negative, the loops did not vectorise (1,431 x 65: 22.7 us a row on
    one thread, 10.2 through the slice)."""
    row = out[first:first + count]
    d = ZT.shape[0]
    d4 = d - d % 4
    for c in range(count):
        row[c] = 0.0
    for f in range(0, d4, 4):
        x0, x1, x2, x3 = x[f], x[f + 1], x[f + 2], x[f + 3]
        for c in range(count):
            row[c] = four_terms(code, x0, x1, x2, x3, ZT, f, c, row[c])
    for f in range(d4, d):
        xf = x[f]
        for c in range(count):
            row[c] = one_term(code, xf, ZT, f, c, row[c])
    if code == 1:                   # a loop of its own, which vectorises (linear: the sums
        for c in range(count):      # are the values)
            row[c] = exp_nonpositive(-gamma * row[c])
    elif code == 2:
        for c in range(count):
            row[c] = poly_value(row[c], gamma, degree, coef0)


@kernel(refcounts=False)
def panel_at(x, ZT, first, active, low, high, code, gamma, degree, coef0, out):
    """``panel_full`` at the active points active[low:high], all in this panel (point t is
    column t - first).  The values are computed packed, the one for active[k] at
    out[first + k - low] (contiguous, so the kernel's own pass vectorises), and then moved
    to their places, the last first: active[k] >= first + k - low (the points ascend), so
    no move overwrites a value still to be moved.  Four features are added per pass, each
    sum still feature by feature (a quarter of the passes over the points).  Gathered in
    place instead (out[active[k]] at every pass) a row of 20,000 x 5 at 50% of the points
    took 117 us on one thread, against 40 for all of them."""
    count = high - low
    row = out[first:first + count]
    d = ZT.shape[0]
    d4 = d - d % 4
    for c in range(count):
        row[c] = 0.0
    for f in range(0, d4, 4):
        x0, x1, x2, x3 = x[f], x[f + 1], x[f + 2], x[f + 3]
        for c in range(count):
            row[c] = four_terms(code, x0, x1, x2, x3, ZT, f, active[low + c] - first, row[c])
    for f in range(d4, d):
        xf = x[f]
        for c in range(count):
            row[c] = one_term(code, xf, ZT, f, active[low + c] - first, row[c])
    if code == 1:
        for c in range(count):
            row[c] = exp_nonpositive(-gamma * row[c])
    elif code == 2:
        for c in range(count):
            row[c] = poly_value(row[c], gamma, degree, coef0)
    for c in range(count - 1, -1, -1):
        out[active[low + c]] = row[c]
