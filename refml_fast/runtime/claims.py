"""Work handed out on demand: threads claim the next piece with an atomic counter.

``prange`` deals out its iterations in equal shares before any thread starts (static
scheduling), so a launch lasts as long as its slowest thread.  On a machine where another
library's thread is still spinning on one core (OpenBLAS's do for ~0.1 s after each call),
the thread that shares that core runs at half speed and its share arrives late: a search of
2,000 x 2,000 rows at d = 400 took 29 ms on two cores, as long as on one.  Here every thread
instead takes the next unclaimed piece (``claim``) until none is left, so the thread on the
free core does most of the pieces.  Which thread computes a piece does not change what it
computes: each piece writes only its own outputs, so the floats are the same on any number
of threads, in any order.
"""

import numba
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


@intrinsic
def claim(typingctx, counter):
    """counter[0] += 1 atomically, returning the value before: the next piece's number.
    ``counter`` is a one-element int64 array shared by the threads of a launch."""
    if not (isinstance(counter, types.Array) and counter.dtype == types.int64):
        return None

    def codegen(context, builder, signature, args):
        array = context.make_array(signature.args[0])(context, builder, args[0])
        pointer = cgutils.get_item_pointer(context, builder, signature.args[0], array,
                                           [context.get_constant(types.intp, 0)])
        one = context.get_constant(types.int64, 1)
        return builder.atomic_rmw("add", pointer, one, "monotonic")

    return types.int64(counter), codegen


if numba.config.DISABLE_JIT:          # docs/style.md rule 8: the kernels run as Python
    def claim(counter):
        """counter[0] += 1, returning the value before (one Python thread runs a launch)."""
        value = counter[0]
        counter[0] += 1
        return value
