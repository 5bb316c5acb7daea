"""The two kernels of [Yan] and the sums a kernel density estimate is made of.

[Yan] ([Yan]), "Kernel Density Estimation": a kernel is a function
K >= 0 with  int K = 1,  int x K(x) dx = 0,  int x^2 K(x) dx > 0;  the two common ones are

    gaussian       K(x) = exp(-x^2 / 2) / sqrt(2 pi)
    epanechnikov   K(x) = 3 / (4 sqrt 5) (1 - x^2 / 5) 1{|x| < sqrt 5}      (variance 1)

"Extension to higher dimension" asks for a symmetric density K on R^d.  Both kernels are
used in their radial form with identity covariance, K(u) = c_d k(|u|^2):

    gaussian       k(q) = exp(-q / 2),            c_d = (2 pi)^(-d/2)
    epanechnikov   k(q) = (1 - q / r^2)_+,        c_d = (d + 2) / (2 V_d r^d),  r^2 = d + 4

(V_d = pi^(d/2) / Gamma(d/2 + 1) is the volume of the unit ball; r^2 = d + 4 makes the
covariance the identity, and at d = 1 both are the lecture's kernels.)  A radial kernel
gives K(H^(-1/2) u) = c_d k(u' H^(-1) u), and u' H^(-1) u = |L^(-1) u|^2 for the Cholesky
factor H = L L', so L serves as the square root of the bandwidth matrix H.

The sums at the end are the hot loops (refml_fast/density/kernels.py has their Numba twins with
the same names and the same order of operations: queries one by one, training points in
index order, features in column order, a double sum row by row and then over the rows).
"""

import math

from refml.core import linalg

KERNELS = ("gaussian", "epanechnikov")
SQRT5 = math.sqrt(5.0)


# ----------------------------------------------------------------------------------------
# The kernels on the line, as printed.


def gaussian(x):
    """K(x) = exp(-x^2/2) / sqrt(2 pi)."""
    return math.exp(-0.5 * x * x) / math.sqrt(2.0 * math.pi)


def epanechnikov(x):
    """K(x) = 3/(4 sqrt 5) (1 - x^2/5) for |x| < sqrt 5, else 0."""
    if abs(x) >= SQRT5:
        return 0.0
    return 3.0 / (4.0 * SQRT5) * (1.0 - x * x / 5.0)


def kernel_function(kernel):
    """The one-dimensional K of a kernel name."""
    return {"gaussian": gaussian, "epanechnikov": epanechnikov}[kernel]


def second_moment(kernel):
    """int x^2 K(x) dx: 1 for both kernels (the Epanechnikov is scaled to variance 1)."""
    return 1.0


def roughness(kernel):
    """R(K) = int K(x)^2 dx: 1/(2 sqrt pi) for the Gaussian; for the Epanechnikov
    (9/80) int_{-sqrt5}^{sqrt5} (1 - x^2/5)^2 dx = (9/80) sqrt5 (2 - 4/3 + 2/5) = 3 sqrt5 / 25."""
    if kernel == "gaussian":
        return 1.0 / (2.0 * math.sqrt(math.pi))
    return 3.0 * SQRT5 / 25.0


def convolution(kernel, x):
    """(K * K)(x) = int K(x - y) K(y) dy, the kernel of int f_hat^2.

    Gaussian: the N(0, 2) density exp(-x^2/4) / (2 sqrt pi).  Epanechnikov: with the
    standard E(t) = 3/4 (1 - t^2) on |t| <= 1, K(x) = E(x / sqrt5) / sqrt5 and
    (E * E)(t) = 3/160 (2 - |t|)^3 (t^2 + 6|t| + 4) for |t| <= 2, so
    (K * K)(x) = (E * E)(x / sqrt5) / sqrt5.
    """
    return convolution_value(kernel, x * x, 1)


# ----------------------------------------------------------------------------------------
# The radial forms in d dimensions, as functions of q = |u|^2.


def radius_squared(d):
    """r^2 = d + 4: the Epanechnikov support radius squared in d dimensions."""
    return d + 4.0


def log_normaliser(kernel, d):
    """log c_d, with K(u) = c_d k(|u|^2)."""
    if kernel == "gaussian":
        return -0.5 * d * math.log(2.0 * math.pi)
    # c_d = (d + 2) / (2 V_d r^d),  V_d = pi^(d/2) / Gamma(d/2 + 1)
    log_ball_volume = 0.5 * d * math.log(math.pi) - math.lgamma(0.5 * d + 1.0)
    return (math.log(d + 2.0) - math.log(2.0) - log_ball_volume
            - 0.5 * d * math.log(radius_squared(d)))


def profile(kernel, q, d):
    """k(q): exp(-q/2), or (1 - q/r^2) for q < r^2 and 0 beyond."""
    if kernel == "gaussian":
        return math.exp(-0.5 * q)
    r2 = radius_squared(d)
    return 1.0 - q / r2 if q < r2 else 0.0


def kernel_value(kernel, q, d):
    """K(u) = c_d k(q) for |u|^2 = q."""
    return math.exp(log_normaliser(kernel, d)) * profile(kernel, q, d)


def convolution_value(kernel, q, d):
    """(K * K)(u) for |u|^2 = q.

    Gaussian in d dimensions: the N(0, 2 I) density (4 pi)^(-d/2) exp(-q/4).
    Epanechnikov: only d = 1 (see ``convolution``); the radial Epanechnikov has no short
    closed form for its self-convolution when d > 1.
    """
    if kernel == "gaussian":
        return math.exp(-0.5 * d * math.log(4.0 * math.pi)) * math.exp(-0.25 * q)
    if d != 1:
        raise ValueError("the Epanechnikov self-convolution is implemented for d = 1 only")
    t = math.sqrt(q) / SQRT5
    if t >= 2.0:
        return 0.0
    s = 2.0 - t
    return 3.0 / 160.0 * (s * s * s) * (t * t + 6.0 * t + 4.0) / SQRT5


# ----------------------------------------------------------------------------------------
# The sums (hot loops; twins in refml_fast/density/kernels.py).


def whitened_squared_distance(x, y, L):
    """q = (x - y)' H^(-1) (x - y) = |L^(-1)(x - y)|^2 (forward substitution)."""
    z = linalg.solve_lower(L, linalg.subtract(x, y))
    return linalg.dot(z, z)


def cv_sums(data, L, kernel, coefficient):
    """sum_i sum_j [ (K*K)(z_ij) - coefficient K(z_ij) ],  z_ij = L^(-1)(x_i - x_j).

    Summed row by row (j inside), then over the rows i in order.
    """
    d = len(L)
    constant = math.exp(log_normaliser(kernel, d))
    total = 0.0
    for x in data:
        row = 0.0
        for y in data:
            q = whitened_squared_distance(x, y, L)
            k_value = constant * profile(kernel, q, d)
            row += convolution_value(kernel, q, d) - coefficient * k_value
        total += row
    return total


def loo_sums(data, L, kernel):
    """For each i: sum_{j != i} K(z_ij), the leave-one-out kernel sum at x_i."""
    d = len(L)
    constant = math.exp(log_normaliser(kernel, d))
    sums = []
    for i, x in enumerate(data):
        total = 0.0
        for j, y in enumerate(data):
            if j != i:
                total += constant * profile(kernel, whitened_squared_distance(x, y, L), d)
        sums.append(total)
    return sums
