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


def total(values):
    """sum_i v_i from 0.0, left to right, one rounding per addition: what a kernel's loop
    adds.  (Python's ``sum`` of floats compensates its rounding from Python 3.12 on, so its
    result depends on the Python; refml's floats must not.)"""
    result = 0.0
    for value in values:
        result += value
    return result


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


def argmax(values):
    """The index of the largest value; ties go to the first (docs/design.md section 4)."""
    best = 0
    for k in range(1, len(values)):
        if values[k] > values[best]:
            best = k
    return best


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
    """x with L x = b, L lower-triangular (forward substitution).

    Zero entries of L are skipped: that changes no finite result, and keeps an overflowed
    x_k (a point far beyond the float range in whitened units) from making 0 * inf = NaN."""
    x = [0.0] * len(b)
    for i in range(len(b)):
        total = b[i]
        for k in range(i):
            if L[i][k] != 0.0:
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
    return 2.0 * total(math.log(L[j][j]) for j in range(len(L)))


# ----------------------------------------------------------------------------------------
# Added for least squares and logistic regression (refml.linear.least_squares and
# refml.linear.logistic).


def gram(rows):
    """G = sum_i x_i x_i' (the matrix X'X), each entry summed over i = 1..n in order."""
    p = len(rows[0])
    G = [[0.0] * p for _ in range(p)]
    for x in rows:
        for j in range(p):
            for k in range(j + 1):
                G[j][k] += x[j] * x[k]
    for j in range(p):
        for k in range(j + 1, p):
            G[j][k] = G[k][j]
    return G


def largest_eigenvalue_bound(G):
    """An upper bound on lambda_max of a symmetric positive semi-definite G.

    min(trace G, max_j sum_k |G_jk|): the trace is the sum of the (non-negative) eigenvalues,
    and the largest absolute row sum bounds every eigenvalue (Gershgorin).
    """
    trace = 0.0
    largest_row_sum = 0.0
    for j, row in enumerate(G):
        trace += row[j]
        row_sum = 0.0
        for value in row:
            row_sum += abs(value)
        largest_row_sum = max(largest_row_sum, row_sum)
    return min(trace, largest_row_sum)


def cholesky_dropping_dependent(A, tolerance):
    """(L, kept): the Cholesky factor of A restricted to its independent columns.

    Columns are taken in order; column j is kept when its pivot (what is left of A_jj after
    projecting on the kept columns before it) exceeds ``tolerance * A_jj``, and dropped
    otherwise: a column that is (to that tolerance) a combination of earlier ones.  L is
    the factor of A[kept][kept] with ragged rows (row a holds L_a0 .. L_aa), row by row:

        L_ab = (A_{j, kept[b]} - sum_{c<b} L_ac L_bc) / L_bb,   L_aa = sqrt(pivot).

    Only the lower triangle of A (A[j][k], k <= j) is read.
    """
    L = []
    kept = []
    for j in range(len(A)):
        row = []
        for b, column in enumerate(kept):
            total = A[j][column]
            for c in range(b):
                total -= row[c] * L[b][c]
            row.append(total / L[b][b])
        pivot = A[j][j]
        for value in row:
            pivot -= value * value
        if A[j][j] > 0.0 and pivot > tolerance * A[j][j]:
            row.append(math.sqrt(pivot))
            L.append(row)
            kept.append(j)
    return L, kept


def solve_dropping_dependent(A, b, tolerance):
    """(x, kept): a solution of A x = b for symmetric positive semi-definite A.

    Dependent columns (``cholesky_dropping_dependent``) get x_j = 0; the others solve the
    system restricted to the kept rows and columns by Cholesky.  For A = X'X this is the
    least-squares solution that leaves out aliased columns (as R's ``lm`` does).
    """
    L, kept = cholesky_dropping_dependent(A, tolerance)
    x = [0.0] * len(A)
    if kept:
        restricted = cholesky_solve(L, [b[j] for j in kept])
        for j, value in zip(kept, restricted):
            x[j] = value
    return x, kept


# ----------------------------------------------------------------------------------------
# Added for the SVM (refml/svm/svc.py, exact max-margin separator).


def solve_exact(A, b):
    """x with A x = b for matrices of fractions.Fraction (Gauss-Jordan, first nonzero pivot);
    None if A is singular.  Exact: used by refml/svm/svc.py to certify a KKT point."""
    size = len(A)
    rows = [list(A[r]) + [b[r]] for r in range(size)]
    for column in range(size):
        pivot = next((r for r in range(column, size) if rows[r][column] != 0), None)
        if pivot is None:
            return None
        rows[column], rows[pivot] = rows[pivot], rows[column]
        rows[column] = [value / rows[column][column] for value in rows[column]]
        for r in range(size):
            if r != column and rows[r][column] != 0:
                factor = rows[r][column]
                rows[r] = [a - factor * c for a, c in zip(rows[r], rows[column])]
    return [row[size] for row in rows]


def solve_pivoted(A, b, tolerance):
    """x with A x = b by Gaussian elimination with partial pivoting (rows swapped to the
    largest pivot); None when a pivot is below ``tolerance`` times the largest entry."""
    size = len(A)
    rows = [list(A[r]) + [b[r]] for r in range(size)]
    scale = max(abs(value) for row in A for value in row)
    for column in range(size):
        pivot = max(range(column, size), key=lambda r: abs(rows[r][column]))
        if not abs(rows[pivot][column]) > tolerance * scale:
            return None
        rows[column], rows[pivot] = rows[pivot], rows[column]
        for r in range(column + 1, size):
            factor = rows[r][column] / rows[column][column]
            if factor != 0.0:
                for c in range(column, size + 1):
                    rows[r][c] -= factor * rows[column][c]
    x = [0.0] * size
    for r in range(size - 1, -1, -1):
        total = rows[r][size]
        for c in range(r + 1, size):
            total -= rows[r][c] * x[c]
        x[r] = total / rows[r][r]
    return x


def softmax(scores):
    """exp(s_k) / sum_l exp(s_l), by log-sum-exp: exponents <= 0, never overflow; the sum
    in class order."""
    top = max(scores)
    weights = [math.exp(score - top) for score in scores]
    total = 0.0
    for weight in weights:
        total += weight
    return [weight / total for weight in weights]


def sigmoid(z):
    """1 / (1 + exp(-z)), written so that exp never overflows."""
    if z >= 0.0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)
