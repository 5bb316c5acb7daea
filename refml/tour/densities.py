"""Tour: density estimation and density-based classifiers ([Yan]).

On a known density (a two-component Gaussian mixture inside [0, 1]) we draw one sample and
compare, by their integrated squared error ISE = int (f_hat - f)^2 (computed exactly), the
histogram for several numbers of bins and the Gaussian KDE for several bandwidths, with the
cross-validation choice (the minimiser of J_hat), Theorem 2.5/2.6's h* and Silverman's rule
marked.  Then naive Bayes and the kernel density classifier on Gaussian classes, whose
test error is set against the Bayes risk.
"""

import math

from refml.density import bandwidth
from refml.tour import format_table

TITLE = "Densities: histogram, KDE, bandwidths by cross-validation, density classifiers ([Yan])"
MIXTURE = {"w": [0.6, 0.4], "mu": [0.35, 0.7], "s": [0.08, 0.06]}
N = 150


def run(lib, show):
    from refml.core.random import Generator

    rng = Generator(3)
    x = []
    for _ in range(N):
        k = rng.choice(MIXTURE["w"])
        x.append(MIXTURE["mu"][k] + MIXTURE["s"][k] * rng.normal())
    show(f"f = 0.6 N(0.35, 0.08^2) + 0.4 N(0.7, 0.06^2); one sample of n = {N}.")
    show(f"int f'^2 = {_roughness(1):.4g}, int f''^2 = {_roughness(2):.4g}, "
         f"int f^2 = {_roughness(0):.4g} (closed forms for Gaussian mixtures)")
    show("")
    _histograms(lib, x, show)
    _kernel_estimates(lib, x, show)
    _classifiers(lib, show)


def _lines(show, lines):
    for line in lines:
        show("  " + line)


def _normal(x, variance):
    return math.exp(-0.5 * x * x / variance) / math.sqrt(2 * math.pi * variance)


def _pairs(extra):
    """sum_a sum_b w_a w_b N(mu_a - mu_b; 0, extra + s_a^2 + s_b^2), with the variance."""
    for a, m, s in zip(MIXTURE["w"], MIXTURE["mu"], MIXTURE["s"]):
        for b, q, t in zip(MIXTURE["w"], MIXTURE["mu"], MIXTURE["s"]):
            yield a * b, m - q, extra + s * s + t * t


def _roughness(r):
    """int (f^(r))^2 = (-1)^r sum w_a w_b phi^(2r)(mu_a - mu_b; s_a^2 + s_b^2)."""
    total = 0.0
    for weight, x, v in _pairs(0.0):
        phi = _normal(x, v)
        total += weight * phi * {0: 1.0, 1: 1 / v - x * x / v ** 2,
                                 2: (x ** 4 - 6 * x * x * v + 3 * v * v) / v ** 4}[r]
    return total


def _mass(a, b):
    """P(a <= X < b) under the mixture."""
    def cdf(z):
        return 0.5 * math.erfc(-z / math.sqrt(2))
    return sum(w * (cdf((b - m) / s) - cdf((a - m) / s))
               for w, m, s in zip(MIXTURE["w"], MIXTURE["mu"], MIXTURE["s"]))


def _histograms(lib, x, show):
    show("Histogram on [0, 1], m bins of width h = 1/m.  ISE = sum_j (h f_j^2 - 2 f_j P_j) + "
         "int f^2 (exact);")
    show("J_hat = the corrected closed form (lecture's HW formula with its missing 1/h), "
         "estimating ISE - int f^2;")
    show("AMISE = h^2/12 int f'^2 + 1/(n h) (Theorem 2.5).")
    roughness = _roughness(1)
    h_star = bandwidth.histogram_optimal_bandwidth(N, roughness)
    rows, risks = [], []
    for m in (3, 5, 8, 12, 16, 24, 32, 48):
        h = 1.0 / m
        model = lib.Histogram(bins=m, range=(0, 1)).fit([[v] for v in x])
        heights = list(model.pdf([[(j + 0.5) * h] for j in range(m)]))
        ise = sum(h * g * g - 2 * g * _mass(j * h, (j + 1) * h) for j, g in enumerate(heights))
        ise += _roughness(0)
        risk = lib.histogram_cv_risk(x, m)
        risks.append(risk)
        rows.append([m, h, risk, ise, bandwidth.histogram_amise(h, N, roughness)])
    best_cv = risks.index(min(risks))
    best_ise = min(range(len(rows)), key=lambda i: rows[i][3])
    for i, row in enumerate(rows):
        row.append(("<- cv" if i == best_cv else "") + (" <- min ISE" if i == best_ise else ""))
    _lines(show, format_table(["m", "h", "J_hat(h)", "ISE", "AMISE", ""], rows))
    show(f"Theorem 2.5's h* = (6 / (n int f'^2))^(1/3) = {h_star:.4g}, i.e. m = "
         f"{1 / h_star:.1f} bins.")
    show("")


def _kde_ise(lib, x, h):
    """ISE of the Gaussian KDE, exactly: int f_hat^2 - 2 int f_hat f + int f^2, with
    int f_hat^2 = mean_i (KDE at bandwidth sqrt(2) h)(X_i) and int f_hat f =
    sum_l w_l (KDE at sqrt(h^2 + s_l^2))(mu_l)."""
    rows = [[v] for v in x]
    square = sum(lib.KernelDensity(bandwidth=math.sqrt(2) * h).fit(rows).pdf(rows)) / len(x)
    cross = sum(w * lib.KernelDensity(bandwidth=math.sqrt(h * h + s * s)).fit(rows).pdf([[m]])[0]
                for w, m, s in zip(MIXTURE["w"], MIXTURE["mu"], MIXTURE["s"]))
    return square - 2 * cross + _roughness(0)


def _kernel_estimates(lib, x, show):
    rows_x = [[v] for v in x]
    cv = lib.KernelDensity(bandwidth="cv").fit(rows_x)
    h_cv = cv.bandwidth_cholesky_[0][0]
    h_silverman = lib.silverman_bandwidth(rows_x)[0]
    h_star = bandwidth.kde_optimal_bandwidth(N, _roughness(2))
    marks = {h_cv: "cv (bandwidth='cv')", h_silverman: "Silverman", h_star: "h* (Thm 2.6)"}
    show("Gaussian KDE.  J_hat(h) by the exact K* formula; ISE exact (Gaussian integrals);")
    show("AMISE = h^4/4 int f''^2 + 1/(2 sqrt(pi) n h) (Theorem 2.6).")
    bandwidths = sorted([0.008, 0.015, 0.025, 0.04, 0.06, 0.1] + list(marks))
    rows = []
    for h in bandwidths:
        rows.append([h, lib.kde_cv_risk(x, h), _kde_ise(lib, x, h),
                     bandwidth.kde_amise(h, N, _roughness(2)), marks.get(h, "")])
    best = min(range(len(rows)), key=lambda i: rows[i][2])
    rows[best][-1] = (rows[best][-1] + " <- min ISE").strip()
    _lines(show, format_table(["h", "J_hat(h)", "ISE", "AMISE", ""], rows))
    epanechnikov = lib.KernelDensity(kernel="epanechnikov", bandwidth="cv").fit(rows_x)
    show(f"Epanechnikov kernel: cross-validation picks h = "
         f"{epanechnikov.bandwidth_cholesky_[0][0]:.4g} (its J_hat over the same 33-point "
         f"search: {min(r for _, r in epanechnikov.cv_scores_):.4g}).")
    show("")


def _classifiers(lib, show):
    covariance = [[1.0, 0.8], [0.8, 1.0]]
    classes = lib.GaussianClasses(priors=[0.6, 0.4], means=[[0.0, 0.0], [1.0, -0.6]],
                                  covariances=[covariance, covariance])
    risk = classes.bayes_risk()
    X, y = classes.sample(150, random_state=11)
    X_test, y_test = classes.sample(1000, random_state=12)
    show("Two Gaussian classes in the plane with one correlated covariance (GaussianClasses);")
    show(f"Bayes risk R* = {risk:.4f} (closed form); train n = 150; test n = 1000, so a test")
    show(f"error has a standard error of about {math.sqrt(risk * (1 - risk) / 1000):.3f}.")
    models = [("GaussianNB", lib.GaussianNB()),
              ("NaiveBayes(marginal='histogram')", lib.NaiveBayes(marginal="histogram")),
              ("NaiveBayes(marginal='kde')", lib.NaiveBayes(marginal="kde")),
              ("KernelDensityClassifier()", lib.KernelDensityClassifier()),
              ("KernelDensityClassifier(bandwidth='cv')",
               lib.KernelDensityClassifier(bandwidth="cv")),
              ("KernelDensityClassifier(kernel='epanechnikov')",
               lib.KernelDensityClassifier(kernel="epanechnikov"))]
    rows = []
    for name, model in models:
        model.fit(X, y)
        test_error = 1.0 - model.score(X_test, y_test)
        rows.append([name, 1.0 - model.score(X, y), test_error, test_error - risk])
    _lines(show, format_table(["classifier", "train error", "test error", "test - R*"], rows))
    show("Naive Bayes treats the two features as independent within a class (here they are")
    show("correlated, rho = 0.8); the kernel density classifier estimates each joint density.")
