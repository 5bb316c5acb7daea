"""All Numba options in one place (STYLE.md rule 5).

Kernels are compiled lazily on first call, with strict IEEE arithmetic (never ``fastmath``)
so that they reproduce refml's floats.  ``cache=True`` keeps compiled kernels on disk
between processes; set ``REFML_NUMBA_CACHE=0`` to turn the cache off.  Set
``NUMBA_DISABLE_JIT=1`` to run every kernel as plain Python (for coverage and debugging).
"""

import os

import numba

CACHE = os.environ.get("REFML_NUMBA_CACHE", "1") != "0"


def kernel(function=None, *, parallel=False):
    """``@kernel``: numba.njit with the project's options (strict math, cached)."""
    def decorate(f):
        return numba.njit(cache=CACHE, fastmath=False, parallel=parallel, nogil=True)(f)
    return decorate(function) if function is not None else decorate
