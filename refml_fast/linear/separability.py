"""Linear separability: refml's LP with the pivoting in floats and the answer proved exactly.

refml.linear.separability runs phase I of the simplex method on the Farkas system (II) in exact
rational arithmetic.  Here the same tableau, the same Bland's rule and the same starting
basis run as a Numba kernel in float64 (tolerance ``PIVOT_TOLERANCE`` on entries scaled to at
most 1 in absolute value, each lambda column scaled by a power of two, which changes no pivot
choice), and the final basis B is then checked in exact arithmetic (``fractions``):

- not separable is proved when lambda_B = B^-1 e is >= 0 with its artificial part 0: then
  lambda solves (II) exactly;
- separable is proved when w~ = -pi_{0..d} / pi_{d+1}, pi = c_B' B^-1 computed exactly and
  rounded to floats like refml's, has y_i w~'x~_i > 0 for every i, checked in floats with a
  rigorous bound on the rounding error of each sum.

The exact work is one (d + 2) x (d + 2) system, whatever n is.  If neither proof goes through
(rounding led the floats to a basis that is not optimal, or the pivot cap was hit), the exact
solver of refml decides.  The boolean answer is therefore always the exact one.  w~ is
refml's whenever the float pivots end in refml's basis (the usual case); on degenerate
problems another optimal basis may be reached, and w~ is then another exact separator.
"""

import math
from fractions import Fraction

import numpy as np

from refml.core import validation
from refml.linear import separability as reference
from refml_fast.core import arrays as _arrays
from refml_fast.runtime.options import kernel

PIVOT_TOLERANCE = 1e-9
UNIT_ROUNDOFF = 2.0 ** -53


def linear_separability(X, y):
    X = _arrays.as_matrix(X)
    labels = validation.as_labels(y)
    signs = np.asarray(reference.validated_signs(labels, X.shape[0], "linear_separability"),
                       dtype=np.float64)
    augmented = np.hstack([np.ones((X.shape[0], 1)), X]) * signs[:, None]   # rows y_i x~_i
    basis = np.empty(augmented.shape[1] + 1, dtype=np.int64)
    tableau = float_tableau(augmented)
    finished = simplex_phase_one(tableau, basis, PIVOT_TOLERANCE,
                                 50 * (augmented.shape[0] + basis.shape[0]) + 1000)
    if finished:
        # Try first the proof the floats point to (phase I optimum above 0: separable).
        proofs = (prove_separable, prove_not_separable)
        if not -tableau[-1, -1] > PIVOT_TOLERANCE:
            proofs = proofs[::-1]
        for prove in proofs:
            proved = prove(augmented, basis)
            if proved is not None:
                return proved
    separable, w = reference.linear_separability(X, labels)
    return separable, (np.asarray(w, dtype=np.float64) if separable else None)


linear_separability.__doc__ = reference.linear_separability.__doc__


def float_tableau(augmented):
    """refml's initial tableau in floats, each lambda column scaled by a power of two."""
    n, p = augmented.shape
    m = p + 1
    columns = np.hstack([augmented, np.ones((n, 1))])            # (y_i x~_i, 1)
    largest = np.max(np.abs(columns), axis=1)
    columns = columns * np.exp2(-np.ceil(np.log2(largest)))[:, None]
    tableau = np.zeros((m + 1, n + m + 1))
    tableau[:m, :n] = columns.T
    tableau[:m, n:n + m] = np.eye(m)
    tableau[m - 1, -1] = 1.0
    tableau[m, :] = -tableau[:m, :].sum(axis=0)                   # cbar_j = c_j - sum_r T_rj
    tableau[m, n:n + m] += 1.0
    return tableau


@kernel
def simplex_phase_one(tableau, basis, tolerance, max_pivots):
    """Bland's rule pivots in place; True at an optimal basis, False at the pivot cap."""
    m = tableau.shape[0] - 1
    width = tableau.shape[1] - 1
    n = width - m
    for r in range(m):
        basis[r] = n + r
    for _ in range(max_pivots):
        entering = -1
        for j in range(width):
            if tableau[m, j] < -tolerance:
                entering = j
                break
        if entering < 0:
            return True
        leaving = -1
        best = np.inf
        for r in range(m):
            if tableau[r, entering] > tolerance:
                ratio = max(tableau[r, width], 0.0) / tableau[r, entering]
                if ratio < best or (ratio == best and basis[r] < basis[leaving]):
                    leaving = r
                    best = ratio
        if leaving < 0:
            return False
        pivot_value = tableau[leaving, entering]
        for k in range(width + 1):
            tableau[leaving, k] /= pivot_value
        for r in range(m + 1):
            factor = tableau[r, entering]
            if r != leaving and factor != 0.0:
                for k in range(width + 1):
                    tableau[r, k] -= factor * tableau[leaving, k]
                tableau[r, entering] = 0.0
        basis[leaving] = entering
    return False


def basis_matrix(augmented, basis):
    """The basic columns of [A' ; 1' | I] as an exact (d + 2) x (d + 2) matrix."""
    n, p = augmented.shape
    m = p + 1
    B = [[Fraction(0)] * m for _ in range(m)]
    for position, column in enumerate(basis):
        for r in range(m):
            if column < n:
                B[r][position] = Fraction(float(augmented[column, r])) if r < p else Fraction(1)
            else:
                B[r][position] = Fraction(1 if r == column - n else 0)
    return B


def prove_not_separable(augmented, basis):
    """(False, None) if lambda_B = B^-1 e >= 0 with a zero artificial part, else None."""
    n, p = augmented.shape
    e = [Fraction(0)] * p + [Fraction(1)]
    lambdas = exact_solve(basis_matrix(augmented, basis), e)
    if lambdas is None or any(value < 0 for value in lambdas) or any(
            value != 0 for value, column in zip(lambdas, basis) if column >= n):
        return None
    return False, None


def prove_separable(augmented, basis):
    """(True, w~) if w~ = -pi_{0..d} / pi_{d+1} from B' pi = c_B separates, else None."""
    n, p = augmented.shape
    B = basis_matrix(augmented, basis)
    cost = [Fraction(1 if column >= n else 0) for column in basis]
    pi = exact_solve([list(row) for row in zip(*B)], cost)
    if pi is None or not pi[p] > 0:
        return None
    w = np.array([float(-pi[r] / pi[p]) for r in range(p)])
    return (True, w) if separates(augmented, w) else None


def exact_solve(A, b):
    """x with A x = b in rationals, None if A is singular.

    Each row is scaled to integers, then Bareiss's fraction-free elimination (every division
    exact) and back substitution in fractions: much faster than Gauss-Jordan on fractions.
    """
    size = len(A)
    rows = []
    for r in range(size):
        row = list(A[r]) + [b[r]]
        scale = math.lcm(*(value.denominator for value in row))
        rows.append([int(value * scale) for value in row])
    previous = 1
    for k in range(size):
        pivot_row = next((r for r in range(k, size) if rows[r][k] != 0), None)
        if pivot_row is None:
            return None
        rows[k], rows[pivot_row] = rows[pivot_row], rows[k]
        for i in range(k + 1, size):
            for j in range(k + 1, size + 1):
                rows[i][j] = (rows[i][j] * rows[k][k] - rows[i][k] * rows[k][j]) // previous
            rows[i][k] = 0
        previous = rows[k][k]
    x = [Fraction(0)] * size
    for i in range(size - 1, -1, -1):
        total = Fraction(rows[i][size])
        for j in range(i + 1, size):
            total -= rows[i][j] * x[j]
        x[i] = total / rows[i][i]
    return x


def separates(augmented, w):
    """Every y_i w~'x~_i > 0, proved in floats: the computed sum exceeds its error bound
    gamma_p sum_k |w_k x~_ik| (doubled, to cover the rounding of the bound itself)."""
    p = augmented.shape[1]
    gamma = (p + 2) * UNIT_ROUNDOFF / (1.0 - (p + 2) * UNIT_ROUNDOFF)
    margins = augmented @ w
    bounds = 2.0 * gamma * (np.abs(augmented) @ np.abs(w))
    return bool(np.all(margins > bounds))
