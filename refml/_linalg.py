"""Small pure-Python vector and matrix helpers, written for reading.

Vectors are lists of floats, matrices lists of rows.  Every sum runs left to right over
its index, so a kernel in refml_fast that loops in the same order gets the same floats.
"""

import math


def dot(u, v):
    """u'v = sum_j u_j v_j."""
    total = 0.0
    for a, b in zip(u, v):
        total += a * b
    return total


def norm(u):
    """||u||_2."""
    return math.sqrt(dot(u, u))


def squared_distance(u, v):
    """||u - v||^2 = sum_j (u_j - v_j)^2."""
    total = 0.0
    for a, b in zip(u, v):
        difference = a - b
        total += difference * difference
    return total


def add(u, v):
    return [a + b for a, b in zip(u, v)]


def subtract(u, v):
    return [a - b for a, b in zip(u, v)]


def scale(c, u):
    return [c * a for a in u]


def axpy(c, u, v):
    """v + c u."""
    return [b + c * a for a, b in zip(u, v)]


def zeros(n):
    return [0.0] * n


def mean_rows(rows):
    """The average of a list of vectors."""
    n = len(rows)
    totals = [0.0] * len(rows[0])
    for row in rows:
        for j, value in enumerate(row):
            totals[j] += value
    return [total / n for total in totals]


def transpose(A):
    return [list(column) for column in zip(*A)]


def matvec(A, u):
    """A u."""
    return [dot(row, u) for row in A]


def matmul(A, B):
    """A B."""
    columns = transpose(B)
    return [[dot(row, column) for column in columns] for row in A]


def identity(n):
    return [[1.0 if i == j else 0.0 for j in range(n)] for i in range(n)]


def outer(u, v):
    return [[a * b for b in v] for a in u]


def quadratic_form(A, u):
    """u' A u."""
    return dot(u, matvec(A, u))


class SingularMatrixError(ValueError):
    """The matrix is singular (or not positive definite) to working precision."""


def cholesky(A):
    """Lower-triangular L with L L' = A, for symmetric positive definite A.

    L_jj = sqrt(A_jj - sum_{k<j} L_jk^2);  L_ij = (A_ij - sum_{k<j} L_ik L_jk) / L_jj.
    Raises ``SingularMatrixError`` when a pivot is not positive.
    """
    n = len(A)
    L = [[0.0] * n for _ in range(n)]
    for j in range(n):
        pivot = A[j][j]
        for k in range(j):
            pivot -= L[j][k] * L[j][k]
        if not pivot > 0.0:
            raise SingularMatrixError(
                f"matrix is not positive definite (pivot {pivot!r} at index {j})")
        L[j][j] = math.sqrt(pivot)
        for i in range(j + 1, n):
            total = A[i][j]
            for k in range(j):
                total -= L[i][k] * L[j][k]
            L[i][j] = total / L[j][j]
    return L


def solve_lower(L, b):
    """x with L x = b, L lower-triangular (forward substitution)."""
    x = [0.0] * len(b)
    for i in range(len(b)):
        total = b[i]
        for k in range(i):
            total -= L[i][k] * x[k]
        x[i] = total / L[i][i]
    return x


def solve_upper_transposed(L, b):
    """x with L' x = b, L lower-triangular (back substitution)."""
    n = len(b)
    x = [0.0] * n
    for i in range(n - 1, -1, -1):
        total = b[i]
        for k in range(i + 1, n):
            total -= L[k][i] * x[k]
        x[i] = total / L[i][i]
    return x


def cholesky_solve(L, b):
    """x with (L L') x = b."""
    return solve_upper_transposed(L, solve_lower(L, b))


def cholesky_inverse(L):
    """(L L')^{-1}, column by column."""
    n = len(L)
    columns = [cholesky_solve(L, [1.0 if i == j else 0.0 for i in range(n)]) for j in range(n)]
    return transpose(columns)


def cholesky_logdet(L):
    """log det(L L') = 2 sum_j log L_jj."""
    return 2.0 * sum(math.log(L[j][j]) for j in range(len(L)))
