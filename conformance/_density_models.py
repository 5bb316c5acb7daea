"""Known densities and quadrature for the density theorems (conformance items 12 and 13).

* Beta(a, b) with integer a, b >= 1 on [0, 1]: exact bin probabilities and int f^2 per bin
  (f^2 is a multiple of the Beta(2a - 1, 2b - 1) density), exact int f'^2, a sampler.
* Gaussian mixtures f = sum_l w_l N(mu_l, s_l^2): int of products of Gaussians in closed
  form, the exact int b^2 and int v of a Gaussian KDE, int f''^2, a sampler.
* Gauss-Legendre quadrature on pieces.
"""

import math
from fractions import Fraction

# ----------------------------------------------------------------------------------------
# Beta(a, b) with integer a, b >= 1: exact probabilities.


def beta_function(a, b):
    return math.gamma(a) * math.gamma(b) / math.gamma(a + b)


def beta_cdf(x, a, b):
    """I_x(a, b) = sum_{j=a}^{a+b-1} C(a+b-1, j) x^j (1-x)^(a+b-1-j) for integers a, b."""
    x = min(1.0, max(0.0, x))
    m = a + b - 1
    return sum(math.comb(m, j) * x ** j * (1.0 - x) ** (m - j) for j in range(a, m + 1))


def beta_sample(rng, a, b):
    """The a-th smallest of a + b - 1 uniforms is Beta(a, b)."""
    return sorted(rng.random() for _ in range(a + b - 1))[a - 1]


def beta_bins(a, b, m):
    """(p_j, int_{B_j} f^2) for the m equal bins of [0, 1]; f^2 is a multiple of the
    Beta(2a - 1, 2b - 1) density."""
    scale = beta_function(2 * a - 1, 2 * b - 1) / beta_function(a, b) ** 2
    edges = [j / m for j in range(m + 1)]
    p = [beta_cdf(edges[j + 1], a, b) - beta_cdf(edges[j], a, b) for j in range(m)]
    f2 = [scale * (beta_cdf(edges[j + 1], 2 * a - 1, 2 * b - 1)
                   - beta_cdf(edges[j], 2 * a - 1, 2 * b - 1)) for j in range(m)]
    return p, f2


def beta_slope_roughness(a, b):
    """int_0^1 f'(x)^2 dx exactly (polynomial arithmetic in fractions)."""
    coefficients = [Fraction(0)] * (a + b - 1)  # x^(a-1) (1-x)^(b-1)
    for k in range(b):
        coefficients[a - 1 + k] += Fraction(math.comb(b - 1, k) * (-1) ** k)
    derivative = [i * c for i, c in enumerate(coefficients)][1:]
    total = Fraction(0)
    for i, c in enumerate(derivative):
        for j, e in enumerate(derivative):
            total += c * e / (i + j + 1)
    return float(total) / beta_function(a, b) ** 2



# ----------------------------------------------------------------------------------------
# Gaussian mixtures.


def mixture(rng):
    k = 1 + rng.randbelow(3)
    w = [0.3 + rng.random() for _ in range(k)]
    return {"w": [v / sum(w) for v in w], "mu": [2 * rng.normal() for _ in range(k)],
            "s": [math.exp(rng.normal() * 0.5) for _ in range(k)]}


def mixture_products(f, extra):
    """sum_l sum_l' w_l w_l' N(mu_l - mu_l'; 0, extra + s_l^2 + s_l'^2)."""
    components = list(zip(f["w"], f["mu"], f["s"]))
    return sum(a * b * normal(m - q, extra + s * s + t * t)
               for a, m, s in components for b, q, t in components)


def kde_exact(f, n, h):
    """(int b^2, int v, int f^2) of the Gaussian KDE with bandwidth h (closed forms)."""
    mean_sq, cross, f_sq = (mixture_products(f, e) for e in (2 * h * h, h * h, 0.0))
    return mean_sq - 2 * cross + f_sq, (1 / (2 * math.sqrt(math.pi) * h) - mean_sq) / n, f_sq


def roughness_f2(f):
    total = 0.0
    for a, m, s in zip(f["w"], f["mu"], f["s"]):
        for b, q, t in zip(f["w"], f["mu"], f["s"]):
            v, x = s * s + t * t, m - q
            total += a * b * normal(x, v) * (x ** 4 - 6 * x * x * v + 3 * v * v) / v ** 4
    return total


def sample_mixture(rng, f, n):
    out = []
    for _ in range(n):
        l = rng.choice(f["w"])
        out.append(f["mu"][l] + f["s"][l] * rng.normal())
    return out


# ----------------------------------------------------------------------------------------
# Quadrature.

NODES = (-0.9061798459386640, -0.5384693101056831, 0.0, 0.5384693101056831, 0.9061798459386640)
WEIGHTS = (0.2369268850561891, 0.4786286704993665, 0.5688888888888889, 0.4786286704993665,
           0.2369268850561891)


def gauss_nodes(breaks):
    """(x, w): Gauss-Legendre 5-point nodes on each piece [breaks[i], breaks[i+1]]."""
    xs, ws = [], []
    for a, b in zip(breaks[:-1], breaks[1:]):
        for t, w in zip(NODES, WEIGHTS):
            xs.append(0.5 * (a + b) + 0.5 * (b - a) * t)
            ws.append(0.5 * (b - a) * w)
    return xs, ws


def pieces(points, reach, step):
    """Breaks covering [min - reach, max + reach]: the points +- reach (kernel edges) and a
    grid of width <= step in between."""
    marks = sorted({p + s for p in points for s in (-reach, reach)})
    breaks = [marks[0]]
    for b in marks[1:]:
        count = max(1, math.ceil((b - breaks[-1]) / step))
        start = breaks[-1]
        breaks += [start + (b - start) * k / count for k in range(1, count + 1)]
    return breaks


def normal(x, variance):
    return math.exp(-0.5 * x * x / variance) / math.sqrt(2 * math.pi * variance)
