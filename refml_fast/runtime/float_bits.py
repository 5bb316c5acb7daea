"""A float64's bits as an int64, and back, inside a kernel.

``float_bits(x)`` is LLVM's bitcast of the double x to a 64-bit integer, and
``float_of_bits(bits)`` the bitcast back: no instruction of their own, and they vectorise
with the loop around them (numpy's ``view`` does the same for a whole array, but a
kernel's loop that makes a float and wants its bits in the same pass has no array to
view).  Kernels use them to compare floats as integers, whose maxima and minima vectorise
where strict IEEE maxima do not (``svm.smo_scans.ordered_key``), and to build floats from
their fields (``core.exponential``'s powers of two).

Under ``NUMBA_DISABLE_JIT=1`` they are numpy's views of one value.
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


@intrinsic
def float_of_bits_intrinsic(typingctx, bits):
    if bits != types.int64:
        return None

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.DoubleType())

    return types.float64(bits), codegen


def float_bits_python(x):
    return int(np.float64(x).view(np.int64))


def float_of_bits_python(bits):
    bits &= (1 << 64) - 1                     # an int64's bits, as a shift leaves them
    return float(np.uint64(bits).view(np.float64))


if numba.config.DISABLE_JIT:
    float_bits, float_of_bits = float_bits_python, float_of_bits_python
else:
    float_bits, float_of_bits = float_bits_intrinsic, float_of_bits_intrinsic
