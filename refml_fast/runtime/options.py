"""The Numba options of every kernel, in one place (docs/style.md rule 5).

Kernels are compiled lazily on first call, with strict IEEE arithmetic (never ``fastmath``)
so that they reproduce refml's floats, and kept on disk between processes
(``refml_fast.runtime.cache``; ``REFML_NUMBA_CACHE=0`` turns that off).  Set
``NUMBA_DISABLE_JIT=1`` to run every kernel as plain Python (for coverage and debugging).
"""

import os

import numba

from refml_fast.runtime.cache import CACHE


def prefer_openmp():
    """Numba picks its threading layer at the first parallel launch in the process, TBB
    first when the tbb package is importable (scikit-learn-intelex brings it).  Under TBB a
    launch of one iteration per thread can run every iteration on the calling thread:
    ``cores_free`` then took Numba's own workers for another library's spinning threads,
    and searches ran on one core (k-NN 500 x 2,502 at d = 64: 4.9 ms against 2.9 under
    OpenMP).  So, unless the user chose a layer (NUMBA_THREADING_LAYER or
    NUMBA_THREADING_LAYER_PRIORITY), OpenMP is tried first, then TBB, then the workqueue.
    A process whose first parallel launch came before this import keeps its layer."""
    chosen = ("NUMBA_THREADING_LAYER", "NUMBA_THREADING_LAYER_PRIORITY")
    if any(name in os.environ for name in chosen):
        return
    if str(numba.config.THREADING_LAYER).lower() == "default":
        numba.config.THREADING_LAYER_PRIORITY = ["omp", "tbb", "workqueue"]


prefer_openmp()


def kernel(function=None, *, parallel=False, refcounts=True, inline=False):
    """``@kernel``: numba.njit with the project's options (strict math, cached).  No
    fast-math flag at all: the one place that fuses a multiply and an add, the k-NN
    screen, says so with ``lanes.fused``.

    ``refcounts=False`` compiles without Numba's reference counting (its ``_nrt=False``),
    for small helpers called in hot loops that only read and write the arrays they are
    given.  Numba otherwise increments and decrements the count of array arguments on
    entry and exit, with atomic instructions, wherever its pruning pass cannot pair them
    (a function with several exits); in the SMO that was 70% of the time on a problem of
    178 rows.  The floats are unchanged.  Numba refuses, at compile time, to allocate an
    array or return a view in such a function, so a caller always owns the arrays.

    ``inline=True`` inlines the function into its callers when Numba compiles them (its
    ``inline="always"``).  Numba otherwise calls another kernel through its own calling
    convention, every array argument spelled out on the stack; for a helper called once per
    few samples that call cost more than its work (the binary logistic objective at d = 5:
    16.5 -> 12.2 ns a sample).  The floats are unchanged.  An inlined helper's arrays are
    still counted in a caller that counts references, atomically, wherever Numba cannot
    pair the updates: a caller that runs such helpers in its hot loop is compiled with
    ``refcounts=False`` as well (the k-NN fit's ``centre_rows``: 16.2 -> 5.2 ms).
    """
    def decorate(f):
        options = {} if refcounts else {"_nrt": False}
        if inline:
            options["inline"] = "always"
        return numba.njit(cache=CACHE, fastmath=False, parallel=parallel, nogil=True,
                          **options)(f)
    return decorate(function) if function is not None else decorate
