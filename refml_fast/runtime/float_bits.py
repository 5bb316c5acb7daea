"""A float64's bits as an int64, inside a kernel.

``float_bits(x)`` is LLVM's bitcast of the double x to a 64-bit integer: no instruction
of its own, and it vectorises with the loop around it (numpy's ``view`` does the same for
a whole array, but a kernel's loop that makes a float and wants its bits in the same pass
has no array to view).  Kernels use it to compare floats as integers, whose maxima and
minima vectorise where strict IEEE maxima do not (``smo_scans.ordered_key``).

Under ``NUMBA_DISABLE_JIT=1`` it is numpy's view of one float64.
"""

import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic


@intrinsic
def float_bits_intrinsic(typingctx, x):
    if x != types.float64:
        return None

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.IntType(64))

    return types.int64(x), codegen


def float_bits_python(x):
    return int(np.array(x, dtype=np.float64).view(np.int64))


float_bits = float_bits_python if numba.config.DISABLE_JIT else float_bits_intrinsic
