"""The sign of a dot product theta'x~ (x~ = [1, x] with an intercept) known without summing
it in refml's order, for the perceptron's mistakes (refml_fast.perceptron).

refml sums theta'x~ from 0.0 left to right, and a mistake is not (y theta'x~ > 0): one chain
of additions a row, each waiting for the one before (about 4 cycles each).  Only the sign
decides a mistake, and the sign of the left-to-right float is known from any other order
whenever the two cannot disagree:

- refml's float and the lanes' are sums of the same rounded products (each theta_j x_j
  rounded once, in either) in two orders.  A sum of n terms in any order, each addition
  rounded to nearest, lies within gamma_(n-1) sum_j |t_j| of the terms' exact sum (Higham,
  "Accuracy and Stability of Numerical Algorithms", 2nd ed., section 4.2; gamma_k =
  k u / (1 - k u), u = 2^-53); an addition whose result is subnormal is exact, so
  underflow changes nothing;
- so with m the lanes' sum and s their sum of |t_j| (at least (1 - gamma_n) times the
  exact one), |m| > 2 gamma_n / (1 - gamma_n) s puts the exact sum, and refml's float
  with it, on m's side of zero, never at 0 (a sum of zeros, s = 0, is never sure);
- ``sign_bound`` rounds the factor up by 2^-20 against the rounding of the comparison
  itself.

Anything else falls back to refml's sum: a margin within the bound (ties at 0, whole-number
data), an infinity or a NaN anywhere (s is then not finite, and the comparison is false).
The lanes sum eight features at a time (``lanes``), so a row costs about a quarter of the
chain.  The passes also ask for a row's cache lines some rows ahead of its use
(``runtime.prefetch``).
"""

import numba
from llvmlite import ir
from numba.core import cgutils
from numba.extending import intrinsic

from refml_fast.runtime.lanes import (
    LANES,
    Lanes,
    lane_sum,
    load,
    splat,
    vector_type,
)
from refml_fast.runtime.options import kernel

ROUNDOFF = 2.0 ** -53


@kernel(inline=True)
def sign_bound(n_terms):
    """The factor c of the test |m| > c s (see the module's note)."""
    gamma = n_terms * ROUNDOFF / (1.0 - n_terms * ROUNDOFF)
    return 2.0 * gamma / (1.0 - gamma) * (1.0 + 2.0 ** -20)


@kernel(inline=True)
def lane_dot(weights, X, i, offset):
    """(theta'x~_i, sum_j |theta_j x~_ij|) in an order of their own: lanes of eight
    features, the bias (weights[0, 0] when ``offset`` is 1) and the last features after.
    ``weights`` is theta as a 1 x (offset + d) matrix."""
    d = X.shape[1]
    whole = d // LANES * LANES
    total, scale = splat(0.0), splat(0.0)
    for j in range(0, whole, LANES):
        product = load(weights, 0, offset + j) * load(X, i, j)
        total = total + product
        scale = scale + magnitude(product)
    m, s = lane_sum(total), lane_sum(scale)
    if offset == 1:
        m += weights[0, 0]
        s += abs(weights[0, 0])
    for j in range(whole, d):
        product = weights[0, offset + j] * X[i, j]
        m += product
        s += abs(product)
    return m, s


@kernel(inline=True)
def sure(m, s, bound):
    """Whether m's sign (never 0) is the sign of refml's left-to-right sum."""
    return abs(m) > bound * s


@intrinsic
def magnitude_lanes(typingctx, v):
    if not isinstance(v, Lanes):
        return None

    def codegen(context, builder, signature, args):
        vector = vector_type(signature.args[0])
        name = f"llvm.fabs.v{signature.args[0].count}f{signature.args[0].dtype.bitwidth}"
        fabs = cgutils.get_or_insert_function(builder.module,
                                              ir.FunctionType(vector, [vector]), name)
        return builder.call(fabs, args)

    return v(v), codegen


if numba.config.DISABLE_JIT:
    import numpy as np

    def magnitude(v):
        return np.abs(v)
else:
    magnitude = magnitude_lanes
