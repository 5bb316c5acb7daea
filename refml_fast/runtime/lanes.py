"""Eight float64 (or sixteen float32) lanes as one value, for kernels that keep a tile of
sums in registers.

Numba's loop vectoriser only vectorises an innermost loop, and it keeps a running sum in
memory when that loop is over a matrix's columns: every pass over eight samples loads and
stores the sums again (the binary Hessian reached 17 GMAC/s of the core's ~65 that way).
A tile of sums that stays in registers across a loop over samples needs the vector as a
value, which Numba's types lack, and its straight-line (SLP) vectoriser is off.  So this
module gives Numba one: ``Lanes``, an LLVM ``<8 x double>`` (``<16 x float>`` for float32
arrays and scalars), with

- ``load(A, i, j)``: A[i, j:j + 8] (j + 16 for float32; A two-dimensional, C-contiguous in
  its rows, the lanes inside its width: the caller's bound, since no index is checked or
  wrapped);
- ``store(A, i, j, v)``: A[i, j:j + 8] = v;
- ``splat(x)``: x in every lane;
- ``u + v``, ``u - v`` and ``u * v``: lane by lane;
- ``lane(v, k)``: lane k as a scalar; ``lane_sum(v)``: the sum of the lanes in an order of
  its own (halves added to halves), only for sums whose order does not matter (the k-NN
  bound's norms), never for a float compared with refml's;
- ``float32_values(v)``: each float64 lane rounded to float32 and back (exact to store in
  a float32 array);
- ``store_rounded(A, i, j, v)``: A[i, j:j + 8] = v rounded to float32 (A float32), the
  eight lanes in one store;
- ``widened(A, i, j)``: A[i, j:j + 8] of a float32 A as float64 lanes;
- ``at_most_bits(u, v)``: the lanes where u <= v as the bits of an int64;
- ``larger(u, v)``: lane by lane the larger of the two (v's lane on a tie or a NaN), a
  choice of one of the two floats;
- ``put(A, i, j, v)``: ``store_rounded`` into a float32 A, ``store`` into a float64 one;
- ``fused(u, v, w)``: u v + w with one rounding (LLVM's fma), float32 only: for the k-NN
  screen, whose error bound holds for any rounding of its cross products, never for a
  float compared with refml's;
- ``transpose((v0, ..., v7))``: eight float64 values as the rows of an 8 x 8 matrix ->
  its eight columns, by shuffles only (each value moved, none computed): eight rows
  loaded a block of features at a time become one vector a feature, whose lane l then
  adds row l's terms in feature order (``distance_sums``);
- ``line_aligned_zeros(rows, cols)``: a zeroed float64 matrix made inside a kernel that
  starts on a 64-byte cache line, so that loads of lanes do not straddle two lines
  (``arrays.aligned_zeros`` is its twin for arrays made in Python).

The arithmetic is LLVM's ``fadd`` and ``fmul`` without fast-math flags, so each lane is
exactly the IEEE sum or product of its two lanes, the same float as refml's ``a + b`` and
``a * b`` (a product and a sum are never fused into one rounding).  A machine with narrower
vectors (AVX2, SSE2) runs the same value as two or four registers, with the same results.

Under ``NUMBA_DISABLE_JIT=1`` (docs/style.md rule 8) they are plain numpy: arrays of eight
(or sixteen) elements, whose ``+``, ``-`` and ``*`` are the same IEEE operations lane by
lane (``fused`` there rounds twice, through float64: the screen's bound allows it).
"""

import operator

import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic, models, overload, register_model

from refml_fast.runtime.options import kernel

LANES, LANES32 = 8, 16


class Lanes(types.Type):
    """The Numba type of a vector of ``count`` lanes of ``dtype``."""

    def __init__(self, dtype, count):
        self.dtype, self.count = dtype, count
        super().__init__(name=f"Lanes({dtype}, {count})")


lanes, lanes32 = Lanes(types.float64, LANES), Lanes(types.float32, LANES32)
LANES_OF = {types.float64: lanes, types.float32: lanes32}


def vector_type(lanes_type):
    element = ir.DoubleType() if lanes_type.dtype == types.float64 else ir.FloatType()
    return ir.VectorType(element, lanes_type.count)


@register_model(Lanes)
class LanesModel(models.PrimitiveModel):
    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, vector_type(fe_type))


def vector_pointer(context, builder, array_type, array, i, j):
    """A pointer to the lanes from A[i, j] (no wraparound of negative indices, no bounds
    check)."""
    view = context.make_array(array_type)(context, builder, array)
    pointer = cgutils.get_item_pointer(context, builder, array_type, view, [i, j],
                                       wraparound=False)
    return builder.bitcast(pointer, vector_type(LANES_OF[array_type.dtype]).as_pointer())


def lanes_of_matrix(array):
    """The lanes type of a two-dimensional float64 or float32 array, else None."""
    if isinstance(array, types.Array) and array.ndim == 2:
        return LANES_OF.get(array.dtype)
    return None


@intrinsic
def load_lanes(typingctx, array, i, j):
    result = lanes_of_matrix(array)
    if result is None:
        return None

    def codegen(context, builder, signature, args):
        pointer = vector_pointer(context, builder, signature.args[0], args[0], args[1], args[2])
        return builder.load(pointer, align=4)

    return result(array, i, j), codegen


@intrinsic
def store_lanes(typingctx, array, i, j, value):
    if lanes_of_matrix(array) is None or value != lanes_of_matrix(array):
        return None

    def codegen(context, builder, signature, args):
        pointer = vector_pointer(context, builder, signature.args[0], args[0], args[1], args[2])
        builder.store(args[3], pointer, align=4)
        return context.get_dummy_value()

    return types.none(array, i, j, value), codegen


@intrinsic
def splat_lanes(typingctx, x):
    result = LANES_OF.get(x)
    if result is None:
        return None

    def codegen(context, builder, signature, args):
        vector = vector_type(result)
        first = builder.insert_element(ir.Constant(vector, ir.Undefined), args[0],
                                       ir.Constant(ir.IntType(32), 0))
        return builder.shuffle_vector(first, ir.Constant(vector, ir.Undefined),
                                      ir.Constant(ir.VectorType(ir.IntType(32), result.count),
                                                  [0] * result.count))

    return result(x), codegen


def lane_by_lane(instruction):
    """An intrinsic applying the IR builder's ``instruction`` ("fadd", "fsub", "fmul") to
    two values of the same lanes type, lane by lane (no fast-math flags)."""
    def typer(typingctx, u, v):
        if not (isinstance(u, Lanes) and u == v):
            return None
        return u(u, v), lambda context, builder, signature, args: getattr(
            builder, instruction)(*args)

    typer.__name__ = f"{instruction}_lanes"
    return intrinsic(typer)


add_lanes, subtract_lanes, multiply_lanes = (lane_by_lane(name)
                                             for name in ("fadd", "fsub", "fmul"))


@intrinsic
def lane_of(typingctx, v, k):
    if not (isinstance(v, Lanes) and isinstance(k, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        return builder.extract_element(args[0], args[1])

    return v.dtype(v, k), codegen


@intrinsic
def lane_total(typingctx, v):
    if not isinstance(v, Lanes):
        return None

    def codegen(context, builder, signature, args):
        value, count = args[0], signature.args[0].count
        while count > 1:                       # the upper half added to the lower half
            count //= 2
            lower = builder.shuffle_vector(value, value, ir.Constant(
                ir.VectorType(ir.IntType(32), count), list(range(count))))
            upper = builder.shuffle_vector(value, value, ir.Constant(
                ir.VectorType(ir.IntType(32), count), list(range(count, 2 * count))))
            value = builder.fadd(lower, upper)
        return builder.extract_element(value, ir.Constant(ir.IntType(32), 0))

    return v.dtype(v), codegen


@intrinsic
def float32_lanes(typingctx, v):
    if v != lanes:
        return None

    def codegen(context, builder, signature, args):
        narrow = builder.fptrunc(args[0], ir.VectorType(ir.FloatType(), LANES))
        return builder.fpext(narrow, vector_type(lanes))

    return lanes(v), codegen


def narrow_pointer(context, builder, signature, args):
    """A pointer to eight float32 from A[i, j] (A, i, j the intrinsic's first arguments)."""
    return builder.bitcast(
        vector_pointer(context, builder, signature.args[0], args[0], args[1], args[2]),
        ir.VectorType(ir.FloatType(), LANES).as_pointer())


@intrinsic
def store_rounded_lanes(typingctx, array, i, j, value):
    if value != lanes or not (isinstance(array, types.Array) and array.ndim == 2
                              and array.dtype == types.float32):
        return None

    def codegen(context, builder, signature, args):
        pointer = narrow_pointer(context, builder, signature, args)
        builder.store(builder.fptrunc(args[3], pointer.type.pointee), pointer, align=4)
        return context.get_dummy_value()

    return types.none(array, i, j, value), codegen


@intrinsic
def widened_lanes(typingctx, array, i, j):
    """A[i, j:j + 8] of a float32 matrix, each value widened to float64 (exactly)."""
    if not (isinstance(array, types.Array) and array.ndim == 2
            and array.dtype == types.float32):
        return None

    def codegen(context, builder, signature, args):
        pointer = narrow_pointer(context, builder, signature, args)
        return builder.fpext(builder.load(pointer, align=4), vector_type(lanes))

    return lanes(array, i, j), codegen


@intrinsic
def at_most_bits_lanes(typingctx, u, v):
    """Bit l set where u_l <= v_l (false for NaN), as an int64."""
    if not (u == lanes and v == lanes):
        return None

    def codegen(context, builder, signature, args):
        mask = builder.fcmp_ordered("<=", args[0], args[1])
        bits = builder.bitcast(mask, ir.IntType(LANES))
        return builder.zext(bits, ir.IntType(64))

    return types.int64(u, v), codegen


@intrinsic
def larger_lanes(typingctx, u, v):
    """Lane by lane the larger of u_l and v_l (v_l when they are equal or one is NaN): a
    choice, no arithmetic, so each lane is exactly one of its two floats."""
    if not (isinstance(u, Lanes) and u == v):
        return None

    def codegen(context, builder, signature, args):
        return builder.select(builder.fcmp_ordered(">", args[0], args[1]), args[0], args[1])

    return u(u, v), codegen


@intrinsic
def fused_lanes(typingctx, u, v, w):
    if not (u == lanes32 and v == lanes32 and w == lanes32):
        return None

    def codegen(context, builder, signature, args):
        vector = vector_type(lanes32)
        fma = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(vector, [vector] * 3), "llvm.fma.v16f32")
        return builder.call(fma, args)

    return lanes32(u, v, w), codegen


# The 8 x 8 transpose in three rounds of two-vector shuffles (LLVM masks index the two
# vectors' sixteen lanes): pairs of rows interleaved, then pairs of lanes, then halves.
UNPACK = ([0, 8, 2, 10, 4, 12, 6, 14], [1, 9, 3, 11, 5, 13, 7, 15])
PAIRS = ([0, 1, 8, 9, 4, 5, 12, 13], [2, 3, 10, 11, 6, 7, 14, 15])
HALVES = ([0, 1, 2, 3, 8, 9, 10, 11], [4, 5, 6, 7, 12, 13, 14, 15])


@intrinsic
def transpose_lanes(typingctx, rows):
    """Eight float64 lanes values as the rows of an 8 x 8 matrix -> its eight columns."""
    if not (isinstance(rows, types.UniTuple) and rows.count == LANES and rows.dtype == lanes):
        return None

    def codegen(context, builder, signature, args):
        def shuffle(u, v, mask):
            return builder.shuffle_vector(u, v, ir.Constant(
                ir.VectorType(ir.IntType(32), LANES), mask))

        a = cgutils.unpack_tuple(builder, args[0], LANES)
        t = []
        for p in range(0, LANES, 2):
            t += [shuffle(a[p], a[p + 1], UNPACK[0]), shuffle(a[p], a[p + 1], UNPACK[1])]
        u = [None] * LANES
        for h in (0, 4):
            for q in (0, 1):
                u[h + q] = shuffle(t[h + q], t[h + q + 2], PAIRS[0])
                u[h + q + 2] = shuffle(t[h + q], t[h + q + 2], PAIRS[1])
        columns = [None] * LANES
        for q in range(4):
            columns[q] = shuffle(u[q], u[q + 4], HALVES[0])
            columns[q + 4] = shuffle(u[q], u[q + 4], HALVES[1])
        return context.make_tuple(builder, signature.return_type, columns)

    return rows(rows), codegen


@kernel
def line_aligned_zeros(rows, cols):
    """np.zeros((rows, cols)) starting on a 64-byte cache line (Numba's arrays start on 32
    bytes, numpy's on 16): with ``cols`` a multiple of eight, each load of lanes then reads
    one line, not two."""
    buffer = np.zeros(rows * cols + LANES)
    offset = (-buffer.ctypes.data % 64) // 8
    return buffer[offset:offset + rows * cols].reshape((rows, cols))


def put(A, i, j, value):
    """A[i, j:j + 8] = the lanes ``value``: rounded to float32 into a float32 array (exact
    where the lanes hold float32 values), as they are into a float64 one."""
    A[i, j:j + value.shape[0]] = value


@overload(put)
def put_lanes(A, i, j, value):
    if isinstance(A, types.Array) and A.dtype == types.float32 and value == lanes:
        return lambda A, i, j, value: store_rounded_lanes(A, i, j, value)
    if isinstance(A, types.Array) and A.dtype == types.float64 and value == lanes:
        return lambda A, i, j, value: store_lanes(A, i, j, value)


@overload(operator.add)
def lanes_plus(u, v):
    if isinstance(u, Lanes) and u == v:
        return lambda u, v: add_lanes(u, v)


@overload(operator.sub)
def lanes_minus(u, v):
    if isinstance(u, Lanes) and u == v:
        return lambda u, v: subtract_lanes(u, v)


@overload(operator.mul)
def lanes_times(u, v):
    if isinstance(u, Lanes) and u == v:
        return lambda u, v: multiply_lanes(u, v)


if numba.config.DISABLE_JIT:
    def width(dtype):
        return LANES32 if dtype == np.float32 else LANES

    def load(A, i, j):
        return A[i, j:j + width(A.dtype)].copy()

    def store(A, i, j, value):
        A[i, j:j + value.shape[0]] = value

    def splat(x):
        dtype = np.float32 if isinstance(x, np.float32) else np.float64
        return np.full(width(dtype), x, dtype=dtype)

    def fused(u, v, w):
        return (u.astype(np.float64) * v + w).astype(np.float32)

    def lane(v, k):
        return v[k]

    def lane_sum(v):
        while v.shape[0] > 1:
            v = v[:v.shape[0] // 2] + v[v.shape[0] // 2:]
        return v[0]

    def float32_values(v):
        return v.astype(np.float32).astype(np.float64)

    def store_rounded(A, i, j, value):
        A[i, j:j + value.shape[0]] = value.astype(np.float32)

    def transpose(rows):
        return tuple(np.stack(rows).T.copy())

    def widened(A, i, j):
        return A[i, j:j + LANES].astype(np.float64)

    def at_most_bits(u, v):
        return sum(1 << lane for lane in range(u.shape[0]) if u[lane] <= v[lane])

    def larger(u, v):
        return np.where(u > v, u, v)
else:
    load, store, splat, fused = load_lanes, store_lanes, splat_lanes, fused_lanes
    lane, lane_sum, float32_values = lane_of, lane_total, float32_lanes
    store_rounded, transpose = store_rounded_lanes, transpose_lanes
    widened, at_most_bits, larger = widened_lanes, at_most_bits_lanes, larger_lanes
