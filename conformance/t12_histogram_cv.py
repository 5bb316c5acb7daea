"""Item 12: the histogram's cross-validation risk, its closed form and its expectation.

[Yan] ([Yan]), "Histograms" and "Cross-validation" (the HW
formula).  The closed form checked is the corrected one,

    J_hat(h) = 2 P / ((n - 1) h) - (n + 1) / ((n - 1) h) sum_j p_j^2   (P = sum_j p_j),

not the print, which lacks the 1/h of the second term (the original theorem list repeated the print;
the derivation is in ``refml.density.histogram_cv_risk``).

- closed form = definition: the definition is rebuilt here from ``Histogram`` alone --
  int f_hat^2 from f_hat at the bin centres, and each f_hat_(-i)(X_i) from a histogram
  fitted without X_i -- and both library methods must agree with it to 1e-9 (relative to
  the size of the terms).  Data put points on bin edges, at both ends of the range,
  duplicates and points outside the range.
- the histogram is a density: sum_j f_hat(centre_j) h = P.
- unbiasedness: E J_hat(h) = E J(h) = 1/(n h) - (n + 1)/(n h) sum_j p_j^2 with p_j the true
  bin probabilities, for Beta(a, b) densities (integer a, b: exact bin probabilities); the
  Monte Carlo mean over R samples must be within 6 standard errors of it.
"""

import math

from ._density_models import beta_bins, beta_sample
from ._harness import Theorem

SOURCE = "[Yan] Histograms, Cross-validation (HW)"


# ----------------------------------------------------------------------------------------
# Closed form against the definition.


def make_cv_instance(rng):
    n = 2 + rng.randbelow(39)
    m = 1 + rng.randbelow(25)
    low = rng.normal() * 3
    high = low + 0.1 + 5 * rng.random()
    width = (high - low) / m
    x = []
    for _ in range(n):
        u = rng.random()
        if u < 0.2:  # a bin edge, both ends included
            x.append(low + rng.randbelow(m + 1) * width)
        elif u < 0.3 and x:  # a duplicate
            x.append(x[rng.randbelow(len(x))])
        elif u < 0.4:  # outside the range
            x.append(high + rng.random() if rng.random() < 0.5 else low - rng.random())
        else:
            x.append(low + (high - low) * rng.random())
    return {"x": x, "bins": m, "range": (low, high)}


def definition_by_refitting(x, m, low, high):
    """(J_hat, sum_j f_hat(c_j) h) from Histogram fits alone."""
    from refml import Histogram

    n, h = len(x), (high - low) / m
    model = Histogram(bins=m, range=(low, high)).fit([[v] for v in x])
    centres = [[low + (j + 0.5) * h] for j in range(m)]
    values = model.pdf(centres)
    integral = sum(v * v * h for v in values)
    mass = sum(v * h for v in values)
    leave_one_out = 0.0
    for i in range(n):
        rest = [[v] for k, v in enumerate(x) if k != i]
        leave_one_out += Histogram(bins=m, range=(low, high)).fit(rest).pdf([[x[i]]])[0]
    return integral - 2.0 / n * leave_one_out, mass


def check_cv(instance):
    from refml import histogram_cv_risk

    x, m, (low, high) = instance["x"], instance["bins"], instance["range"]
    n, h = len(x), (high - low) / m
    definition, _ = definition_by_refitting(x, m, low, high)
    scale = 2.0 / ((n - 1) * h) + (n + 1) / ((n - 1) * h)
    worst = 0.0
    for method in ("closed_form", "definition"):
        worst = max(worst, abs(histogram_cv_risk(x, m, (low, high), method) - definition))
    return 1e-9 * scale - worst


def check_mass(instance):
    x, m, (low, high) = instance["x"], instance["bins"], instance["range"]
    _, mass = definition_by_refitting(x, m, low, high)
    inside = sum(1 for v in x if low <= v <= high) / len(x)
    return 1e-12 - abs(mass - inside)


# ----------------------------------------------------------------------------------------
# E J_hat = E J.


def make_beta_instance(rng):
    return {"a": 1 + rng.randbelow(4), "b": 1 + rng.randbelow(4), "n": 5 + rng.randbelow(60),
            "bins": 1 + rng.randbelow(20), "replicates": 400, "seed": rng.next_u64()}


def check_unbiased(instance):
    from refml import histogram_cv_risk
    from refml.core.random import Generator

    a, b, n, m = instance["a"], instance["b"], instance["n"], instance["bins"]
    p, _ = beta_bins(a, b, m)
    h = 1.0 / m
    expected = 1.0 / (n * h) - (n + 1) / (n * h) * sum(q * q for q in p)
    rng = Generator(instance["seed"])
    values = [histogram_cv_risk([beta_sample(rng, a, b) for _ in range(n)], m)
              for _ in range(instance["replicates"])]
    mean = sum(values) / len(values)
    spread = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))
    return 6.0 * spread / math.sqrt(len(values)) + 1e-12 - abs(mean - expected)


THEOREMS = [
    Theorem(number=12, title="Histogram CV: corrected closed form = leave-one-out definition",
            source=SOURCE, make_instance=make_cv_instance, check=check_cv,
            size=lambda inst: len(inst["x"]), quick=40, default=300, full=3000),
    Theorem(number=12, title="Histogram integrates to the fraction of points in range",
            source="[Yan] Histograms", make_instance=make_cv_instance, check=check_mass,
            size=lambda inst: len(inst["x"]), quick=20, default=300, full=3000),
    Theorem(number=12, title="Histogram CV is unbiased: E J_hat(h) = E J(h) (Beta densities)",
            source=SOURCE, make_instance=make_beta_instance, check=check_unbiased,
            size=lambda inst: inst["n"], quick=3, default=30, full=300),
]
