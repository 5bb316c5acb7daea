"""Item 18, density chapter: refml and refml_fast agree.

Classifiers (``KernelDensityClassifier``, ``NaiveBayes``, ``GaussianNB``): identical labels
on the training rows and on fresh rows (exact equality), and predict_proba as the same
floats (``parity_theorem``), with random hyper-parameters (kernels, bandwidth rules including
"cv", histogram bins, var_smoothing).

Density estimators and risks (``KernelDensity``, ``Histogram``, ``kde_cv_risk``,
``histogram_cv_risk``): values within 1e-12 relative (-inf and 0 exactly), and both
packages raise the same exception type for the same bad hyper-parameter (Silverman's rule
on a constant feature).  The kernels use the C library's exp and log, as Python's math
does; on the development machine the two agree bit for bit (500,000 arguments compared),
so the values are in fact identical there.  The tolerance keeps the check meaningful on a
platform where they differ in the last bit; labels are compared exactly everywhere.
"""

import math

from ._harness import Theorem
from ._parity import parity_theorem

KERNELS = ("gaussian", "epanechnikov")


def _bandwidth(rng, kernel):
    u = rng.random()
    if u < 0.4:
        return "silverman"
    if u < 0.6 and kernel == "gaussian":
        return "cv"
    return 0.2 + 2.0 * rng.random()


def kde_classifier(package, rng):
    kernel = KERNELS[rng.randbelow(2)]
    return package.KernelDensityClassifier(kernel=kernel, bandwidth=_bandwidth(rng, kernel))


def naive_bayes(package, rng):
    marginal = ("gaussian", "histogram", "kde")[rng.randbelow(3)]
    kernel = KERNELS[rng.randbelow(2)]
    bandwidth = _bandwidth(rng, "gaussian")  # one-dimensional: "cv" works for both kernels
    return package.NaiveBayes(marginal=marginal, bins=1 + rng.randbelow(12), kernel=kernel,
                              bandwidth=bandwidth, var_smoothing=(1e-9, 1e-3)[rng.randbelow(2)])


def gaussian_nb(package, rng):
    return package.GaussianNB(var_smoothing=(1e-9, 1e-6, 1e-2)[rng.randbelow(3)])


# ----------------------------------------------------------------------------------------
# Densities and risks.


def make_density_instance(rng):
    n, d = 1 + rng.randbelow(30), 1 + rng.randbelow(3)
    grid = rng.random() < 0.4

    def point():
        return [float(rng.randbelow(5) - 2) if grid else 2 * rng.normal() for _ in range(d)]

    kernel = KERNELS[rng.randbelow(2)]
    u = rng.random()
    if u < 0.25:
        bandwidth = "silverman"
    elif u < 0.4 and (kernel == "gaussian" or d == 1) and n >= 2:
        bandwidth = "cv"
    elif u < 0.55:
        bandwidth = [0.2 + rng.random() for _ in range(d)]
    elif u < 0.7:
        A = [[rng.normal() for _ in range(d)] for _ in range(d)]
        bandwidth = [[sum(A[i][k] * A[j][k] for k in range(d)) + (0.3 if i == j else 0.0)
                      for j in range(d)] for i in range(d)]
    else:
        bandwidth = 0.1 + 2 * rng.random()
    return {"X": [point() for _ in range(n)], "queries": [point() for _ in range(12)] + [
        [40.0] * d], "kernel": kernel, "bandwidth": bandwidth, "bins": 1 + rng.randbelow(10),
            "h": 0.05 + rng.random()}


def _outputs(package, instance):
    """Every value the instance asks of a package (exceptions as their type name)."""
    X, queries = instance["X"], instance["queries"]
    out = []
    try:
        model = package.KernelDensity(kernel=instance["kernel"],
                                      bandwidth=instance["bandwidth"]).fit(X)
        out += list(model.pdf(queries)) + list(model.score_samples(queries))
        out += [v for row in model.bandwidth_matrix_ for v in row]
    except ValueError as error:
        out.append(type(error).__name__)
    histogram = package.Histogram(bins=instance["bins"]).fit(X)
    out += list(histogram.pdf(queries)) + list(histogram.score_samples(queries))
    x = [row[0] for row in X]
    if len(x) >= 2:
        out += [package.kde_cv_risk(x, instance["h"], instance["kernel"], m)
                for m in ("formula", "definition", "lecture")]
        out += [package.histogram_cv_risk(x, instance["bins"], (-3, 3), m)
                for m in ("closed_form", "definition")]
    return out


def _same(a, b, tolerance=1e-12):
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    a, b = float(a), float(b)
    if math.isinf(a) or math.isinf(b) or a == 0.0 or b == 0.0:
        return a == b
    return abs(a - b) <= tolerance * max(abs(a), abs(b))


def check_densities(instance):
    import refml
    import refml_fast

    expected, found = _outputs(refml, instance), _outputs(refml_fast, instance)
    if len(expected) != len(found):
        return -float(abs(len(expected) - len(found)))
    return -float(sum(1 for a, b in zip(expected, found) if not _same(a, b)))


THEOREMS = [
    parity_theorem("KernelDensityClassifier", kde_classifier, quick=100, default=300,
                   full=3000, extra_outputs=("predict_proba",)),
    parity_theorem("NaiveBayes", naive_bayes, quick=100, default=300, full=3000,
                   extra_outputs=("predict_proba",)),
    parity_theorem("GaussianNB", gaussian_nb, quick=100, default=300, full=3000,
                   extra_outputs=("predict_proba",)),
    Theorem(18, "Parity: KernelDensity, Histogram, kde_cv_risk, histogram_cv_risk (1e-12)",
            "docs/design.md section 1", make_density_instance, check_densities,
            size=lambda inst: len(inst["X"]) * len(inst["X"][0]), quick=100, default=300,
            full=3000, needs_fast=True),
]
