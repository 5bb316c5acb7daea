"""Item 13: kernels, the KDE as a density, LSCV, MISE = int b^2 + int v, rates, Silverman.

[Yan] ([Yan]): "Kernel Density Estimation", Theorem 2.4 (MISE),
Theorems 2.5 / 2.6 (optimal bandwidths and rates), "Cross-validation", "Extension to
higher dimension" (Silverman's rule).

- Kernels: int K = 1, int x K = 0 (mean a after a shift), int x^2 K = 1 > 0 (h^2 after a
  scaling), for both kernels on the line (Gauss-Legendre on pieces: exact for the
  Epanechnikov polynomial), and the radial d-dimensional forms (radial integrals), 1e-10.
- The KDE integrates to 1: one dimension, both kernels; two dimensions, Gaussian kernel,
  full H (a trapezoid grid finer than the kernel: spectrally accurate), 1e-9.
- LSCV: the exact K* formula and the library's definition equal J_hat computed here from
  int f_hat^2 by quadrature and leave-one-out refits (1e-9 of the terms' size); the
  lecture's approximation differs from it by exactly 2 S / (n^2 (n - 1) h), S = sum over
  i != j of K((X_i - X_j)/h); in two dimensions the "cv" scores of KernelDensity.
- MISE = int b^2 + int v (Theorem 2.4) over R replicate samples in B batches: per batch,
  unbiased estimates of MISE, int b^2 and int v satisfy the identity exactly (1e-9), and
  their means agree with the exact values within 6 standard errors (spread of the batch
  values): Gaussian kernel on Gaussian mixtures (integrals of Gaussian products, i.e.
  library KDE evaluations at bandwidths sqrt(2) h and sqrt(h^2 + s^2)), histogram on
  Beta(a, b) densities.  E J_hat = E J is checked the same way for the KDE.
- Rates: the exact MISE at the lecture's h* over n = 10^4 .. 10^7 has log-log slope -4/5
  (KDE, Gaussian mixtures) and -2/3 (histogram, Beta densities, m = round(1/h*)) to 0.05;
  MISE(h*) n^(2/3) is within 5% of C = (3/4)^(2/3) (int f'^2)^(1/3) at n = 10^7.
- Silverman (printed with sigma_i; sigma_i^2 is right): for N(0, diag sigma^2) data the
  exact MISE over H = c diag(sigma^2) is minimised at c within 3% of the library's factor
  (n = 10^8, d <= 5), and the printed H = c diag(sigma) has a larger exact MISE.
"""

import math

from . import _density_models as beta
from ._density_models import gauss_nodes, kde_exact, mixture, pieces, roughness_f2, sample_mixture
from ._harness import Theorem

# ----------------------------------------------------------------------------------------
# Kernels.


def make_kernel_instance(rng):
    return {"kernel": ("gaussian", "epanechnikov")[rng.randbelow(2)], "d": 1 + rng.randbelow(6),
            "shift": 3 * rng.normal(), "scale": math.exp(rng.normal())}


def check_kernel(instance):
    from refml.density import kernels as _kernels

    kernel, d, a, h = (instance[k] for k in ("kernel", "d", "shift", "scale"))
    K = _kernels.kernel_function(kernel)
    reach = 40.0 if kernel == "gaussian" else math.sqrt(5.0)
    xs, ws = gauss_nodes(pieces([a], reach * h, h / 2))
    values = [K((x - a) / h) / h for x in xs]
    mass = sum(w * v for w, v in zip(ws, values))
    mean = sum(w * x * v for w, x, v in zip(ws, xs, values))
    variance = sum(w * (x - a) ** 2 * v for w, x, v in zip(ws, xs, values))
    errors = [abs(mass - 1), abs(mean - a) / (1 + abs(a)), abs(variance / (h * h) - 1)]
    # the radial form in d dimensions: S_{d-1} c int k(r^2) r^(d-1) dr, and the second
    # moment per coordinate (S_{d-1} / d) c int k(r^2) r^(d+1) dr
    c = math.exp(_kernels.log_normaliser(kernel, d))
    sphere = 2 * math.pi ** (d / 2) / math.gamma(d / 2)
    radius = 40.0 if kernel == "gaussian" else math.sqrt(_kernels.radius_squared(d))
    rs, vs = gauss_nodes([radius * k / 400 for k in range(401)])
    radial_mass = sphere * c * sum(v * _kernels.profile(kernel, r * r, d) * r ** (d - 1)
                                   for r, v in zip(rs, vs))
    radial_second = sphere / d * c * sum(v * _kernels.profile(kernel, r * r, d) * r ** (d + 1)
                                         for r, v in zip(rs, vs))
    errors += [abs(radial_mass - 1), abs(radial_second - 1),
               abs(_kernels.kernel_value(kernel, 0.49, 1) - K(0.7))]
    return 1e-10 - max(errors)


# ----------------------------------------------------------------------------------------
# The KDE integrates to 1; LSCV against its definition.


def make_sample_instance(rng):
    n = 2 + rng.randbelow(12)
    d = 2 if rng.random() < 0.25 else 1
    h = math.exp(rng.normal() - 0.5)
    spread = 2.0 * (h if d == 2 else 1.0)  # in the plane, data on the kernel's scale
    X = [[rng.normal() * spread for _ in range(d)] for _ in range(n)]
    if rng.random() < 0.3:
        X[-1] = list(X[0])  # a duplicate
    kernel = "gaussian" if d == 2 else ("gaussian", "epanechnikov")[rng.randbelow(2)]
    return {"X": X, "kernel": kernel, "h": h, "tilt": 0.8 * (2 * rng.random() - 1),
            "ratio": 1 + 3 * rng.random()}


def bandwidth_matrix(instance):
    """H in two dimensions: eigenvalues h^2 and ratio h^2, correlation ``tilt``."""
    h2, r = instance["h"] ** 2, instance["ratio"]
    rho = instance["tilt"]
    return [[h2, rho * h2 * math.sqrt(r)], [rho * h2 * math.sqrt(r), r * h2]]


def grid_2d(X, H, reach=9.0, fineness=2.0):
    """(points, weight) of a uniform grid with spacing sqrt(min eigenvalue of H) / 2: the
    trapezoid error for a Gaussian of standard deviation s at spacing t is about
    exp(-2 pi^2 s^2 / t^2), below 1e-17 for f_hat and f_hat^2 (s >= t sqrt 2)."""
    trace, det = H[0][0] + H[1][1], H[0][0] * H[1][1] - H[0][1] ** 2
    small = trace / 2 - math.sqrt(trace * trace / 4 - det)
    large = trace - small
    step = math.sqrt(small) / fineness
    axes = []
    for j in range(2):
        low = min(x[j] for x in X) - reach * math.sqrt(large)
        high = max(x[j] for x in X) + reach * math.sqrt(large)
        axes.append([low + step * k for k in range(int((high - low) / step) + 2)])
    return [[u, v] for u in axes[0] for v in axes[1]], step * step


def integral_of(model, X, power, instance):
    """int f_hat^power over the line (Gauss-Legendre on pieces) or the plane (a grid)."""
    if len(X[0]) == 2:
        points, weight = grid_2d(X, bandwidth_matrix(instance))
        return weight * sum(v ** power for v in model.pdf(points))
    h = instance["h"]
    reach = (14.0 if instance["kernel"] == "gaussian" else math.sqrt(5.0)) * h
    xs, ws = gauss_nodes(pieces([x[0] for x in X], reach, h / 2))
    return sum(w * v ** power for w, v in zip(ws, model.pdf([[x] for x in xs])))


def make_model(instance, X=None):
    from refml import KernelDensity

    X = instance["X"] if X is None else X
    bandwidth = bandwidth_matrix(instance) if len(X[0]) == 2 else instance["h"]
    return KernelDensity(kernel=instance["kernel"], bandwidth=bandwidth).fit(X)


def check_integrates_to_one(instance):
    return 1e-9 - abs(integral_of(make_model(instance), instance["X"], 1, instance) - 1.0)


def definition_of_j(instance):
    """J_hat = int f_hat^2 - (2/n) sum_i f_hat_(-i)(X_i), by quadrature and refits."""
    X = instance["X"]
    n = len(X)
    loo = sum(make_model(instance, X[:i] + X[i + 1:]).pdf([X[i]])[0] for i in range(n))
    return integral_of(make_model(instance), X, 2, instance) - 2.0 / n * loo


def check_lscv(instance):
    from refml import kde_cv_risk
    from refml.core.linalg import cholesky
    from refml.density import kernels as _kernels
    from refml.density.kde import KernelSums, lscv_risk

    X, kernel, h = instance["X"], instance["kernel"], instance["h"]
    n = len(X)
    expected = definition_of_j(instance)
    K = _kernels.kernel_function(kernel)
    if len(X[0]) == 2:
        H = bandwidth_matrix(instance)
        found = [lscv_risk(KernelSums(), X, cholesky(H), kernel, m)
                 for m in ("formula", "definition")]
        size = 1 / (math.pi * math.sqrt(H[0][0] * H[1][1] - H[0][1] ** 2))  # 2 K_H(0)
        return 1e-9 * size - max(abs(v - expected) for v in found)
    x = [row[0] for row in X]
    size = 2 * K(0) / h
    errors = [abs(kde_cv_risk(x, h, kernel, m) - expected) for m in ("formula", "definition")]
    S = sum(K((x[i] - x[j]) / h) for i in range(n) for j in range(n) if i != j)
    gap = kde_cv_risk(x, h, kernel, "lecture") - kde_cv_risk(x, h, kernel, "formula")
    errors.append(abs(gap - 2 * S / (n * n * (n - 1) * h)))
    return 1e-9 * size - max(errors)


def make_cv_scores_instance(rng):
    n = 3 + rng.randbelow(6)
    return {"X": [[rng.normal(), 3 * rng.normal()] for _ in range(n)], "kernel": "gaussian",
            "pick": rng.randbelow(33)}


def check_cv_scores(instance):
    from refml import KernelDensity

    model = KernelDensity(bandwidth="cv").fit(instance["X"])
    silverman = KernelDensity(bandwidth="silverman").fit(instance["X"]).bandwidth_matrix_
    s, risk = model.cv_scores_[instance["pick"]]
    # H = s^2 H_silverman: eigenvalues s^2 H_11, s^2 H_22 (tilt 0)
    spec = {"X": instance["X"], "kernel": "gaussian", "h": s * math.sqrt(silverman[0][0]),
            "ratio": silverman[1][1] / silverman[0][0], "tilt": 0.0}
    size = 1 / (math.pi * spec["h"] ** 2 * math.sqrt(spec["ratio"]))  # 2 K_H(0)
    return 1e-9 * size - abs(risk - definition_of_j(spec))


# ----------------------------------------------------------------------------------------
# MISE = int b^2 + int v, and E J_hat = E J, by replicates.


def make_mise_instance(rng):
    from refml.density.kde import kde_optimal_bandwidth

    f = mixture(rng)
    n = 8 + rng.randbelow(8)
    h = kde_optimal_bandwidth(n, roughness_f2(f)) * math.exp(rng.normal() * 0.4)
    return {"f": f, "n": n, "h": h, "batches": 16, "per_batch": 5, "seed": rng.next_u64(),
            "a": 1 + rng.randbelow(4), "b": 1 + rng.randbelow(4), "bins": 1 + rng.randbelow(12)}


def products(S, T, h):
    """int f_hat_S f_hat_T = mean over x in S of the KDE of T at bandwidth sqrt(2) h."""
    from refml import KernelDensity

    model = KernelDensity(bandwidth=math.sqrt(2) * h).fit([[t] for t in T])
    return sum(model.pdf([[s] for s in S])) / len(S)


def with_f(S, f, h):
    """int f_hat_S f = sum_l w_l (KDE of S at bandwidth sqrt(h^2 + s_l^2))(mu_l)."""
    from refml import KernelDensity

    return sum(w * KernelDensity(bandwidth=math.sqrt(h * h + s * s)).fit(
        [[v] for v in S]).pdf([[m]])[0] for w, m, s in zip(f["w"], f["mu"], f["s"]))


def batch_statistics(samples, ise, spread, pooled_error):
    """Per batch: (MISE, int b^2, int v) estimates, unbiased, with MISE = b2 + v exactly."""
    R = len(samples)
    v = spread / (R - 1)
    return sum(ise) / R, pooled_error - v / R, v


def within(values, exact, identity):
    """Slack of: batch means within 6 standard errors of the exact values, identity."""
    slack = 1e-9 * (1 + abs(identity[1])) - abs(identity[0] - identity[1])
    for column, target in zip(zip(*values), exact):
        B = len(column)
        mean = sum(column) / B
        se = math.sqrt(sum((c - mean) ** 2 for c in column) / (B - 1) / B)
        slack = min(slack, 6 * se + 1e-12 - abs(mean - target))
    return slack


def check_kde_mise(instance):
    from refml.core.random import Generator

    f, n, h = instance["f"], instance["n"], instance["h"]
    rng = Generator(instance["seed"])
    b2, v, f_sq = kde_exact(f, n, h)
    rows, last = [], None
    for _ in range(instance["batches"]):
        samples = [sample_mixture(rng, f, n) for _ in range(instance["per_batch"])]
        pooled = [x for s in samples for x in s]
        pp = products(pooled, pooled, h)
        ise = [products(s, s, h) - 2 * with_f(s, f, h) + f_sq for s in samples]
        spread = sum(products(s, s, h) - 2 * products(s, pooled, h) + pp for s in samples)
        last = batch_statistics(samples, ise, spread, pp - 2 * with_f(pooled, f, h) + f_sq)
        rows.append(last)
    return within(rows, (b2 + v, b2, v), (last[0], last[1] + last[2]))


def check_histogram_mise(instance):
    from refml import Histogram
    from refml.core.random import Generator

    a, b, n, m = instance["a"], instance["b"], instance["n"] * 3, instance["bins"]
    h = 1.0 / m
    p, f2 = beta.beta_bins(a, b, m)
    exact_b2 = sum(fj - q * q / h for q, fj in zip(p, f2))
    exact_v = sum(q * (1 - q) / (n * h) for q in p)
    centres = [[(j + 0.5) * h] for j in range(m)]
    rng = Generator(instance["seed"])
    rows, last = [], None
    for _ in range(instance["batches"]):
        fits = [Histogram(bins=m, range=(0, 1)).fit(
            [[beta.beta_sample(rng, a, b)] for _ in range(n)]).pdf(centres)
            for _ in range(instance["per_batch"])]
        mean = [sum(col) / len(fits) for col in zip(*fits)]
        ise = [sum(h * g * g - 2 * g * q + fj for g, q, fj in zip(fit, p, f2)) for fit in fits]
        spread = sum(h * (g - c) ** 2 for fit in fits for g, c in zip(fit, mean))
        error = sum(h * c * c - 2 * c * q + fj for c, q, fj in zip(mean, p, f2))
        last = batch_statistics(fits, ise, spread, error)
        rows.append(last)
    return within(rows, (exact_b2 + exact_v, exact_b2, exact_v), (last[0], last[1] + last[2]))


def check_kde_unbiased_cv(instance):
    from refml import kde_cv_risk
    from refml.core.random import Generator

    f, n, h = instance["f"], instance["n"], instance["h"]
    b2, v, f_sq = kde_exact(f, n, h)
    rng = Generator(instance["seed"])
    values = [kde_cv_risk(sample_mixture(rng, f, n), h) for _ in range(80)]
    mean = sum(values) / len(values)
    se = math.sqrt(sum((x - mean) ** 2 for x in values) / (len(values) - 1) / len(values))
    return 6 * se + 1e-12 - abs(mean - (b2 + v - f_sq))


# ----------------------------------------------------------------------------------------
# Rates and Silverman's rule (exact MISE, no sampling).


def slope(points):
    mx = sum(p[0] for p in points) / len(points)
    my = sum(p[1] for p in points) / len(points)
    return (sum((p[0] - mx) * (p[1] - my) for p in points)
            / sum((p[0] - mx) ** 2 for p in points))


def check_rates(instance):
    from refml.density.kde import histogram_optimal_bandwidth, kde_optimal_bandwidth

    f, a, b = instance["f"], instance["a"], instance["b"]
    if a == b == 1:
        a = 2  # the uniform density has f' = 0 and no finite h*
    roughness_f1, roughness = beta.beta_slope_roughness(a, b), roughness_f2(f)
    kde_points, histogram_points = [], []
    for k in range(8, 15):
        n = 10 ** (k / 2)
        h = kde_optimal_bandwidth(n, roughness)
        kde_points.append((math.log(n), math.log(sum(kde_exact(f, n, h)[:2]))))
        m = max(1, round(1 / histogram_optimal_bandwidth(n, roughness_f1)))
        p, f2 = beta.beta_bins(a, b, m)
        mise = sum(q * (1 - q) * m / n + fj - q * q * m for q, fj in zip(p, f2))
        histogram_points.append((math.log(n), math.log(mise)))
    constant = (3 / 4) ** (2 / 3) * roughness_f1 ** (1 / 3)
    return min(0.05 - abs(slope(kde_points) + 0.8),
               0.05 - abs(slope(histogram_points) + 2 / 3),
               0.05 - abs(math.exp(histogram_points[-1][1]) * 1e7 ** (2 / 3) / constant - 1))


def make_silverman_instance(rng):
    d = 1 + rng.randbelow(5)
    sigma = [math.exp(rng.normal() * 1.2) for _ in range(d)]
    sigma[0] = math.exp((0.5 + 1.5 * rng.random()) * (1 if rng.random() < 0.5 else -1))
    return {"sigma": sigma, "n": 10 ** 8}


def gaussian_mise(H, sigma, n):
    """Exact MISE of the Gaussian KDE with diagonal H for N(0, diag(sigma^2)) data."""
    def phi0(A):
        return math.prod((2 * math.pi * x) ** -0.5 for x in A)

    S = [s * s for s in sigma]
    return (phi0([2 * x for x in H]) / n
            + (1 - 1 / n) * phi0([2 * x + 2 * s for x, s in zip(H, S)])
            - 2 * phi0([x + 2 * s for x, s in zip(H, S)]) + phi0([2 * s for s in S]))


def check_silverman(instance):
    from refml.density.bandwidth import silverman_from_std

    sigma, n = instance["sigma"], instance["n"]
    h = silverman_from_std(sigma, n)
    c = h[0] ** 2 / sigma[0] ** 2  # the library's H = c diag(sigma^2)
    low, high = math.log(c) - 3, math.log(c) + 3
    g = (math.sqrt(5) - 1) / 2
    for _ in range(200):  # golden section for argmin over log c of MISE(c Sigma)
        x1, x2 = high - g * (high - low), low + g * (high - low)
        if gaussian_mise([math.exp(x1) * s * s for s in sigma], sigma, n) < \
                gaussian_mise([math.exp(x2) * s * s for s in sigma], sigma, n):
            high = x2
        else:
            low = x1
    best = math.exp((low + high) / 2)
    right = gaussian_mise([x * x for x in h], sigma, n)
    printed = gaussian_mise([c * s for s in sigma], sigma, n)
    return min(0.03 - abs(best / c - 1), (printed - right) / right)


THEOREMS = [
    Theorem(13, "Kernels: int K = 1, int xK = 0, int x^2 K = 1 (line and radial d-dim)",
            "[Yan] KDE (kernel function)", make_kernel_instance, check_kernel,
            size=lambda i: i["d"], quick=20, default=300, full=3000),
    Theorem(13, "The KDE integrates to 1", "[Yan] KDE", make_sample_instance,
            check_integrates_to_one, size=lambda i: len(i["X"]), quick=12, default=200,
            full=2000),
    Theorem(13, "LSCV: exact K* formula = definition; lecture's form off by 2S/(n^2(n-1)h)",
            "[Yan] KDE Cross-validation", make_sample_instance, check_lscv,
            size=lambda i: len(i["X"]), quick=12, default=200, full=2000),
    Theorem(13, "LSCV scores of bandwidth='cv' in 2-D = definition", "[Yan] KDE Cross-validation",
            make_cv_scores_instance, check_cv_scores, size=lambda i: len(i["X"]), quick=3,
            default=50, full=500),
    Theorem(13, "MISE = int b^2 + int v (KDE, Gaussian mixtures; replicates)", "[Yan] Theorem 2.4",
            make_mise_instance, check_kde_mise, size=lambda i: i["n"], quick=1, default=20,
            full=200),
    Theorem(13, "MISE = int b^2 + int v (histogram, Beta densities; replicates)",
            "[Yan] Theorem 2.4", make_mise_instance, check_histogram_mise,
            size=lambda i: i["n"], quick=4, default=100, full=1000),
    Theorem(13, "LSCV is unbiased: E J_hat(h) = E J(h) (KDE; replicates)",
            "[Yan] KDE Cross-validation", make_mise_instance, check_kde_unbiased_cv,
            size=lambda i: i["n"], quick=2, default=30, full=300),
    Theorem(13, "Rates: slopes -4/5 (KDE) and -2/3 (histogram) of exact MISE at h*",
            "[Yan] Theorems 2.5, 2.6", make_mise_instance, check_rates,
            size=lambda i: i["n"], quick=10, default=200, full=2000),
    Theorem(13, "Silverman: H = c diag(sigma^2) is MISE-optimal; printed diag(sigma) worse",
            "[Yan] Extension to higher dimension", make_silverman_instance, check_silverman,
            size=lambda i: len(i["sigma"]), quick=10, default=200, full=2000),
]
