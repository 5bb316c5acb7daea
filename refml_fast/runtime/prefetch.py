"""Hints to the processor to bring an array's cache lines in before they are read.

A hint changes no value: it only lets the memory work while the arithmetic runs.  The
perceptron's passes ask for a row some rows ahead of its use (over a 40 MB matrix: 20.1 ->
17.4 ns a row), the k-NN search for the next tile's lines.
"""

import numba
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from refml_fast.runtime.lanes import LANES, vector_pointer
from refml_fast.runtime.options import kernel


@intrinsic
def prefetch_lanes(typingctx, array, i, j):
    if not (isinstance(array, types.Array) and array.ndim == 2
            and array.dtype in (types.float64, types.float32)):
        return None

    def codegen(context, builder, signature, args):
        byte = ir.IntType(8).as_pointer()
        pointer = builder.bitcast(
            vector_pointer(context, builder, signature.args[0], *args), byte)
        word = ir.IntType(32)
        hint = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [byte, word, word, word]),
            "llvm.prefetch.p0i8")
        # read, keep in all cache levels, data
        builder.call(hint, [pointer, ir.Constant(word, 0), ir.Constant(word, 3),
                            ir.Constant(word, 1)])
        return context.get_dummy_value()

    return types.none(array, i, j), codegen


if numba.config.DISABLE_JIT:
    def prefetch(A, i, j):
        return None
else:
    prefetch = prefetch_lanes


@kernel(inline=True)
def prefetch_row(X, i):
    """A hint, no effect on any value: row i of X, a cache line (eight floats) at a time."""
    for j in range(0, X.shape[1], LANES):
        prefetch(X, i, j)
