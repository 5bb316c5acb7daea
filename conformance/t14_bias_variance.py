"""Item 14: the bias-variance decomposition of the squared loss.

[NN-Notes] ([NN-Notes]), "bias-variance decompositions":

    E_Z E_{x,y} (y - y_Z(x))^2 = E (y - y*(x))^2 + E_x (y*(x) - E_Z y_Z(x))^2
                                 + E_x E_Z (y_Z(x) - E_Z y_Z(x))^2     (noise + bias + variance)

with y_Z(x) = W_Z' x fitted on a training set Z.  ``refml.core.metrics.bias_variance_decomposition``
returns the sample versions and the cross term 2 mean (y - y*)(y* - mean_Z y_Z), whose
expectation is 0 when the test noise y - y* is independent of the training sets.

Instance: a random regression function y*(x) = polynomial of degree <= 3 on [-1, 1], noise
N(0, s^2), R training sets Z of n points, the least-squares line y_Z(x) = w_0 + w_1 x (the
lecture's W_Z' x with x~ = (1, x)), m test points; M independent draws of test targets.

- identity: total = noise + bias + variance + cross on every draw, to 1e-12 relative;
- cross term: its mean over the M draws is within 6 standard errors of 0 (the standard
  error from the spread of the M values).
"""

import math

from ._harness import Theorem

SOURCE = "[NN-Notes] bias-variance decompositions"


def make_instance(rng):
    return {"coefficients": [rng.normal() for _ in range(1 + rng.randbelow(4))],
            "noise": 0.1 + rng.random(), "n": 3 + rng.randbelow(10),
            "sets": 5 + rng.randbelow(15), "points": 5 + rng.randbelow(20),
            "draws": 60, "seed": rng.next_u64()}


def polynomial(coefficients, x):
    value = 0.0
    for c in reversed(coefficients):
        value = value * x + c
    return value


def least_squares_line(xs, ys):
    """(w_0, w_1) minimising sum (y - w_0 - w_1 x)^2 (w_1 = 0 if all x are equal)."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    w1 = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx > 0 else 0.0
    return my - w1 * mx, w1


def decompositions(instance):
    """The library's decomposition for each of the M draws of test targets."""
    from refml import bias_variance_decomposition
    from refml.core.random import Generator

    rng = Generator(instance["seed"])
    c, s = instance["coefficients"], instance["noise"]
    tests = [2 * rng.random() - 1 for _ in range(instance["points"])]
    optimal = [polynomial(c, x) for x in tests]
    predictions = []
    for _ in range(instance["sets"]):
        xs = [2 * rng.random() - 1 for _ in range(instance["n"])]
        ys = [polynomial(c, x) + s * rng.normal() for x in xs]
        w0, w1 = least_squares_line(xs, ys)
        predictions.append([w0 + w1 * x for x in tests])
    results = []
    for _ in range(instance["draws"]):
        targets = [y + s * rng.normal() for y in optimal]
        results.append(bias_variance_decomposition(predictions, targets, optimal))
    return results


def check_identity(instance):
    worst = 0.0
    for r in decompositions(instance):
        parts = r["noise"] + r["bias"] + r["variance"] + r["cross"]
        worst = max(worst, abs(r["total"] - parts) / max(1.0, r["total"]))
    return 1e-12 - worst


def check_cross_term(instance):
    values = [r["cross"] for r in decompositions(instance)]
    M = len(values)
    mean = sum(values) / M
    se = math.sqrt(sum((v - mean) ** 2 for v in values) / (M - 1) / M)
    return 6 * se + 1e-15 - abs(mean)


THEOREMS = [
    Theorem(14, "Bias-variance: total = noise + bias + variance + cross (exactly)", SOURCE,
            make_instance, check_identity, size=lambda i: i["points"], quick=20, default=300,
            full=3000),
    Theorem(14, "Bias-variance: the cross term averages to 0 (6 standard errors)", SOURCE,
            make_instance, check_cross_term, size=lambda i: i["points"], quick=20,
            default=300, full=3000),
]
