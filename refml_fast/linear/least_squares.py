"""The least-squares plug-in classifier with its sums as Numba kernels (see
refml.linear.least_squares).

The kernels form x_bar, X_c'X_c and X_c'y with refml's operations in refml's order (every
entry summed over the rows i = 1..n in order), and the small d x d system is solved by
refml's own pure-Python Cholesky (``linalg.solve_dropping_dependent``), so ``coef_`` and
``intercept_`` are identical to refml's, not merely close, and so are the predictions.
"""

import numpy as np

from refml.linear import least_squares as reference
from refml_fast.core.base import FastMixin
from refml_fast.runtime import spec_first
from refml_fast.runtime.options import kernel


@spec_first.tiered
class LeastSquaresClassifier(FastMixin, reference.LeastSquaresClassifier):
    __doc__ = reference.LeastSquaresClassifier.__doc__

    @staticmethod
    def _largest_magnitude(X):
        return float(largest_magnitude(X))

    @staticmethod
    def _column_means(X):
        means = np.empty(X.shape[1])
        column_means(X, means)
        return means.tolist()

    @staticmethod
    def _normal_equations(X, targets, means):
        d = X.shape[1]
        G = np.zeros((d, d))
        Xty = np.zeros((len(targets), d))
        normal_equations(X, np.ascontiguousarray(np.asarray(targets, dtype=np.float64).T),
                         np.asarray(means, dtype=np.float64), G, Xty)
        return G.tolist(), Xty.tolist()

    def _decision_values(self, X):
        coef = np.atleast_2d(np.asarray(self.coef_, dtype=np.float64))
        intercepts = np.atleast_1d(np.asarray(self.intercept_, dtype=np.float64))
        values = np.empty((X.shape[0], coef.shape[0]))
        column = np.empty(X.shape[0])
        for k in range(coef.shape[0]):
            decision_values(X, coef[k], float(intercepts[k]), column)
            values[:, k] = column
        return values[:, 0] if len(self.classes_) == 2 else values

    def _predict_codes(self, X):
        values = self._decision_values(X)
        if len(self.classes_) == 2:
            return (values >= 0.0).astype(np.int64)  # f = 0 -> classes_[1]
        return np.argmax(values, axis=1).astype(np.int64)   # the first on a tie


# ----------------------------------------------------------------------------------------
# Kernels.

MAGNITUDE = 0x7FFFFFFFFFFFFFFF   # every bit but the sign
INFINITY = 0x7FF0000000000000    # the bits of +inf


@kernel
def largest_magnitude(X):
    """max_ij |x_ij|, NaN entries passed over (as comparisons with NaN are false), 0.0 for
    none.  On the bits: for non-negative floats (sign bit cleared) the integer order is the
    float order, NaN are the patterns above +inf's, and an integer maximum vectorises."""
    bits = np.ascontiguousarray(X).reshape(-1).view(np.int64)
    largest = np.int64(0)
    for p in range(bits.shape[0]):
        magnitude = bits[p] & MAGNITUDE
        if magnitude > INFINITY:
            magnitude = 0
        largest = max(largest, magnitude)
    return np.array([largest]).view(np.float64)[0]


@kernel
def column_means(X, means):
    """x_bar_j = (sum_i x_ij) / n, summed over i in order."""
    n, d = X.shape
    for j in range(d):
        means[j] = 0.0
    for i in range(n):
        for j in range(d):
            means[j] += X[i, j]
    for j in range(d):
        means[j] = means[j] / n


@kernel
def normal_equations(X, Y, means, G, Xty):
    """G = X_c'X_c (both triangles) and Xty[c] = X_c'Y[:, c], x_c = x - x_bar, each entry
    summed over the rows in order; G, Xty start at 0."""
    n, d = X.shape
    centered = np.empty(d)
    for i in range(n):
        for j in range(d):
            centered[j] = X[i, j] - means[j]
        for c in range(Y.shape[1]):
            for j in range(d):
                Xty[c, j] += centered[j] * Y[i, c]
        for j in range(d):
            a = centered[j]
            for k in range(j + 1):
                G[j, k] += a * centered[k]
    for j in range(d):
        for k in range(j + 1, d):
            G[j, k] = G[k, j]


@kernel
def decision_values(X, coef, intercept, out):
    """f(x_i) = (sum_j w_j x_ij, left to right from 0) + b."""
    n, d = X.shape
    for i in range(n):
        total = 0.0
        for j in range(d):
            total += coef[j] * X[i, j]
        out[i] = total + intercept
