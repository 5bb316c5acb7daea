"""Eight float64 lanes as one value, for kernels that keep a tile of sums in registers.

Numba's loop vectoriser only vectorises an innermost loop, and it keeps a running sum in
memory when that loop is over a matrix's columns: every pass over eight samples loads and
stores the sums again (the binary Hessian reached 17 GMAC/s of the core's ~65 that way).
A tile of sums that stays in registers across a loop over samples needs the vector as a
value, which Numba's types lack, and its straight-line (SLP) vectoriser is off.  So this
module gives Numba one: ``Lanes``, an LLVM ``<8 x double>``, with

- ``load(A, i, j)``: A[i, j:j + 8] (A two-dimensional, C-contiguous in its rows, j + 8 at
  most its width: the caller's bound, since no index is checked or wrapped);
- ``store(A, i, j, v)``: A[i, j:j + 8] = v;
- ``splat(x)``: x in every lane;
- ``u + v`` and ``u * v``: lane by lane.

The arithmetic is LLVM's ``fadd`` and ``fmul`` without fast-math flags, so each lane is
exactly the IEEE sum or product of its two lanes, the same float as refml's ``a + b`` and
``a * b`` (a product and a sum are never fused into one rounding).  A machine with narrower
vectors (AVX2, SSE2) runs the same value as two or four registers, with the same results.

Under ``NUMBA_DISABLE_JIT=1`` (docs/style.md rule 8) the four are plain numpy: eight-element
arrays, whose ``+`` and ``*`` are the same IEEE operations lane by lane.
"""

import operator

import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic, models, overload, register_model

LANES = 8
VECTOR = ir.VectorType(ir.DoubleType(), LANES)


class Lanes(types.Type):
    """The Numba type of eight float64 lanes."""

    def __init__(self):
        super().__init__(name="Lanes8")


lanes = Lanes()


@register_model(Lanes)
class LanesModel(models.PrimitiveModel):
    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, VECTOR)


def vector_pointer(context, builder, array_type, array, i, j):
    """A <8 x double>* to A[i, j] (no wraparound of negative indices, no bounds check)."""
    view = context.make_array(array_type)(context, builder, array)
    pointer = cgutils.get_item_pointer(context, builder, array_type, view, [i, j],
                                       wraparound=False)
    return builder.bitcast(pointer, VECTOR.as_pointer())


def matrix_of_floats(array):
    return isinstance(array, types.Array) and array.ndim == 2 and array.dtype == types.float64


@intrinsic
def load_lanes(typingctx, array, i, j):
    if not matrix_of_floats(array):
        return None

    def codegen(context, builder, signature, args):
        pointer = vector_pointer(context, builder, signature.args[0], args[0], args[1], args[2])
        return builder.load(pointer, align=8)

    return lanes(array, i, j), codegen


@intrinsic
def store_lanes(typingctx, array, i, j, value):
    if not (matrix_of_floats(array) and value is lanes):
        return None

    def codegen(context, builder, signature, args):
        pointer = vector_pointer(context, builder, signature.args[0], args[0], args[1], args[2])
        builder.store(args[3], pointer, align=8)
        return context.get_dummy_value()

    return types.none(array, i, j, value), codegen


@intrinsic
def splat_lanes(typingctx, x):
    if not isinstance(x, types.Float):
        return None

    def codegen(context, builder, signature, args):
        value = context.cast(builder, args[0], signature.args[0], types.float64)
        first = builder.insert_element(ir.Constant(VECTOR, ir.Undefined), value,
                                       ir.Constant(ir.IntType(32), 0))
        return builder.shuffle_vector(first, ir.Constant(VECTOR, ir.Undefined),
                                      ir.Constant(ir.VectorType(ir.IntType(32), LANES),
                                                  [0] * LANES))

    return lanes(x), codegen


@intrinsic
def add_lanes(typingctx, u, v):
    if not (u is lanes and v is lanes):
        return None
    return lanes(u, v), lambda context, builder, signature, args: builder.fadd(*args)


@intrinsic
def multiply_lanes(typingctx, u, v):
    if not (u is lanes and v is lanes):
        return None
    return lanes(u, v), lambda context, builder, signature, args: builder.fmul(*args)


@overload(operator.add)
def lanes_plus(u, v):
    if u is lanes and v is lanes:
        return lambda u, v: add_lanes(u, v)


@overload(operator.mul)
def lanes_times(u, v):
    if u is lanes and v is lanes:
        return lambda u, v: multiply_lanes(u, v)


if numba.config.DISABLE_JIT:
    def load(A, i, j):
        return A[i, j:j + LANES].copy()

    def store(A, i, j, value):
        A[i, j:j + LANES] = value

    def splat(x):
        return np.full(LANES, x, dtype=np.float64)
else:
    load, store, splat = load_lanes, store_lanes, splat_lanes
