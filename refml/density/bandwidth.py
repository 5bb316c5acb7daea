"""Bandwidths for histograms and kernel density estimates: optimal, rule of thumb, LSCV.

[Yan] ([Yan]), sections "Optimal bandwidth" (Theorems 2.5, 2.6),
"Cross-validation" and "Extension to higher dimension".

Silverman's rule, as used here (the lecture prints sigma_i where sigma_i^2 belongs):

    H_ii = (4 / (n (d + 2)))^(2/(d+4)) sigma_i^2,  H_ij = 0 (i != j),
    i.e. the bandwidth of feature i is h_i = (4 / (n (d + 2)))^(1/(d+4)) sigma_i,

with sigma_i the sample standard deviation (divisor n - 1) of feature i.  Why sigma_i^2:
H is the squared scale of the kernel (H^(1/2) multiplies u), so it carries the squared
units of x; at d = 1 the rule must read h = (4/(3n))^(1/5) sigma = 1.06 sigma n^(-1/5).
Derivation: for data N(mu, Sigma), Gaussian kernel and H = c Sigma, the asymptotic MISE
is c^2 d (d+2) / (2^(d+4) pi^(d/2) |Sigma|^(1/2)) + (4 pi)^(-d/2) / (n c^(d/2) |Sigma|^(1/2)),
minimised at c^((d+4)/2) = 4 / (n (d + 2)).  The exact MISE of that model (see
conformance/t13_kde.py) is minimised numerically at c -> (4/(n(d+2)))^(2/(d+4)) as n grows,
for any sigma_i; with the printed power (H_ii proportional to sigma_i) it is not.
"""

import math
import numbers

from refml.core import linalg, validation
from refml.density import kernels as _kernels

# ----------------------------------------------------------------------------------------
# Theorem 2.5 (histogram) and Theorem 2.6 (kernel density estimate).


def histogram_amise(h, n, roughness_f1):
    """MISE ~ h^2/12 int f'^2 + 1/(n h)  (Theorem 2.5)."""
    return h * h / 12.0 * roughness_f1 + 1.0 / (n * h)


def histogram_optimal_bandwidth(n, roughness_f1):
    """h* = n^(-1/3) (6 / int f'^2)^(1/3), the minimiser of ``histogram_amise``."""
    return (6.0 / roughness_f1) ** (1.0 / 3.0) / n ** (1.0 / 3.0)


def kde_amise(h, n, roughness_f2, kernel="gaussian"):
    """R ~ h^4/4 (int x^2 K)^2 int f''^2 + int K^2 / (n h)  (Theorem 2.6)."""
    mu2 = _kernels.second_moment(kernel)
    return h ** 4 / 4.0 * mu2 * mu2 * roughness_f2 + _kernels.roughness(kernel) / (n * h)


def kde_optimal_bandwidth(n, roughness_f2, kernel="gaussian"):
    """h* = n^(-1/5) (int x^2 K)^(-2/5) (int K^2)^(1/5) (int f''^2)^(-1/5)  (Theorem 2.6)."""
    mu2 = _kernels.second_moment(kernel)
    return (mu2 ** -0.4 * _kernels.roughness(kernel) ** 0.2 * roughness_f2 ** -0.2
            / n ** 0.2)


# ----------------------------------------------------------------------------------------
# Silverman's rule of thumb.


def feature_std(X):
    """sigma_j = sqrt(sum_i (x_ij - mean_j)^2 / (n - 1)) for each column; 0 when n = 1."""
    n, d = len(X), len(X[0])
    means = [0.0] * d
    for row in X:
        for j in range(d):
            means[j] += row[j]
    for j in range(d):
        means[j] = means[j] / n
    squares = [0.0] * d
    for row in X:
        for j in range(d):
            deviation = row[j] - means[j]
            squares[j] += deviation * deviation
    if n < 2:
        return [0.0] * d
    return [math.sqrt(squares[j] / (n - 1)) for j in range(d)]


def silverman_factor(n, d):
    """(4 / (n (d + 2)))^(1/(d+4)): h_j = factor sigma_j."""
    return (4.0 / (n * (d + 2.0))) ** (1.0 / (d + 4.0))


def silverman_from_std(std, n):
    """h_j = (4 / (n (d + 2)))^(1/(d+4)) sigma_j for the standard deviations ``std``."""
    factor = silverman_factor(n, len(std))
    return [factor * sigma for sigma in std]


def silverman_bandwidth(X):
    """Silverman's rule: the bandwidth h_j of each feature of X (rows), H = diag(h_j^2).

    h_j = (4 / (n (d + 2)))^(1/(d+4)) sigma_j with sigma_j the sample standard deviation;
    this is H_ii = (4 / (n (d + 2)))^(2/(d+4)) sigma_i^2 -- the lecture prints sigma_i for
    sigma_i^2 (see the module docstring).  Raises ValueError when a feature is constant
    (sigma_j = 0: the rule would give a zero bandwidth) or n < 2.

    >>> [round(h, 6) for h in silverman_bandwidth([[0.0], [1.0], [2.0], [4.0]])]
    [1.370942]
    >>> [round(h, 6) for h in silverman_bandwidth([0.0, 1.0, 2.0, 4.0])]   # flat: one column
    [1.370942]
    """
    X = validation.as_matrix(validation.flat_as_column(X))          # 1-D data may come flat
    return silverman_or_raise(feature_std(X), len(X), "X")


def silverman_or_raise(std, n, what):
    """Silverman's bandwidths, or ValueError naming the constant feature."""
    for j, sigma in enumerate(std):
        if sigma != sigma or sigma == math.inf:
            raise ValueError(f"feature {j} of {what} is too large for float64 arithmetic (the "
                             "sum or the spread of its values overflows), so Silverman's rule "
                             "has no finite bandwidth; rescale X")
        if not sigma > 0.0:
            raise ValueError(
                f"Silverman's rule needs n >= 2 samples and a positive variance in every "
                f"feature, but feature {j} of {what} is constant (sigma = 0, n = {n}): the "
                f"rule would give a zero bandwidth; pass a number as bandwidth")
    return silverman_from_std(std, n)


# ----------------------------------------------------------------------------------------
# Bandwidth specifications.


def diagonal(bandwidths):
    """L = diag(h_1, ..., h_d): the Cholesky factor of H = diag(h_j^2)."""
    d = len(bandwidths)
    return [[bandwidths[i] if i == j else 0.0 for j in range(d)] for i in range(d)]


def factor_product(L):
    """H = L L': H_ij = sum_k L_ik L_jk, k ascending."""
    d = len(L)
    return [[linalg.dot(L[i], L[j]) for j in range(d)] for i in range(d)]


def scaled(L, s):
    """s L, the factor of s^2 H."""
    return [[s * value for value in row] for row in L]


def inverse_root_determinant(L):
    """det(H)^(-1/2) = 1 / prod_j L_jj (1/h in one dimension)."""
    value = 1.0
    for j in range(len(L)):
        value = value / L[j][j]
    return value


def explicit_cholesky(bandwidth, d, make_diagonal=diagonal):
    """L with H = L L' for a numeric bandwidth: h (H = h^2 I), d numbers h_j
    (H = diag(h_j^2)), or a symmetric positive definite d x d matrix H.
    Raises ValueError naming ``bandwidth``.  ``make_diagonal`` builds diag(h_j) (refml_fast:
    a numpy array; a check alone: the list of h_j itself)."""
    if _is_number(bandwidth):
        h = validation.check_scalar(bandwidth, "bandwidth", "real", low=0.0, high=math.inf,
                                    low_open=True, high_open=True)
        check_representable_values([h])
        return make_diagonal([float(h)] * d)
    try:
        rows = list(bandwidth)
    except TypeError:
        raise ValueError(f"Invalid parameter bandwidth={bandwidth!r}: must be a positive "
                         f"number, 'silverman', 'cv', {d} positive numbers or a {d} x {d} "
                         f"positive definite matrix") from None
    if len(rows) == d and all(_is_number(h) for h in rows):
        for h in rows:
            validation.check_scalar(h, "bandwidth", "real", low=0.0, high=math.inf,
                                    low_open=True, high_open=True)
        check_representable_values(rows)
        return make_diagonal([float(h) for h in rows])
    return check_representable(_matrix_cholesky(rows, d, bandwidth))


def _matrix_cholesky(rows, d, bandwidth):
    message = (f"Invalid parameter bandwidth={bandwidth!r}: a bandwidth matrix must be a "
               f"symmetric positive definite {d} x {d} matrix")
    try:
        H = validation.as_matrix(rows, name="bandwidth")
    except (TypeError, ValueError):
        raise ValueError(message) from None
    if len(H) != d or len(H[0]) != d:
        raise ValueError(message + f", got {len(H)} x {len(H[0])}")
    for i in range(d):
        for j in range(i):
            if H[i][j] != H[j][i]:
                raise ValueError(message + " (it is not symmetric)")
    try:
        return linalg.cholesky(H)
    except linalg.SingularMatrixError:
        raise ValueError(message + " (it is not positive definite)") from None


def check_representable(L, name="bandwidth"):
    """L itself, when every h_j = L_jj has h_j^2 a positive finite float (about 1e-154 <
    h_j < 1e154); otherwise ValueError.  Outside that range the bandwidth matrix H = L L'
    underflows to a singular matrix or overflows, and the densities become 0/0."""
    check_representable_values([L[j][j] for j in range(len(L))], name)
    return L


def check_representable_values(values, name="bandwidth"):
    """``check_representable`` for the diagonal h_1, ..., h_d given as a sequence."""
    for j, h in enumerate(values):
        h = float(h)
        if not (h * h > 0.0 and h * h < math.inf):
            raise ValueError(
                f"Invalid {name}: h = {h!r} for feature {j} is outside what float64 can "
                "square (about 1e-154 < h < 1e154): the bandwidth matrix H = h^2 would "
                "underflow to 0 or overflow; rescale X or choose another bandwidth")


def _is_number(value):
    return isinstance(value, numbers.Real) and not isinstance(value, bool)
