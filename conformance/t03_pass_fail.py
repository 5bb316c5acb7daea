"""docs/design.md section 7, item 3: the pass/fail example of [Wainwright-L2], section 2.3.2.

X1, X2, X3 iid Exp(1), Y = +1 iff X1 + X2 + X3 <= 7, X = (X1, X2) observed.  Each instance
draws a random point x (x1 + x2 spread over [0, 9], where eta goes from ~1 to 0) and checks:

1. eta(x) = max(0, 1 - e^{-(7 - x1 - x2)}) (eq. 2.16) against a simulation: N = 10,000
   draws of X3 ~ Exp(1), the fraction with x1 + x2 + X3 <= 7.  Hoeffding:
   P(|fraction - eta| >= t) <= 2 exp(-2 N t^2); t = sqrt(log(2 / 1e-9) / (2 N)) = 0.033
   fails a correct formula with probability below 1e-9 per instance, i.e. below 3e-6
   over the 3,000 instances of --full.  The draws are seeded (instance generator), so a
   run is deterministic and the tolerance is there so that no seed makes it flake.
2. The rule x1 + x2 <= 7 - log 2 (eq. 2.17) equals ``BayesClassifier(PassFailExample())``
   at 50 random points (points within 1e-9 of the boundary are skipped: there eta is
   1/2 to within rounding and either answer is Bayes optimal).
3. The risk of a threshold rule "+1 iff x1 + x2 <= tau", with S = X1 + X2 ~ Gamma(2, 1):
   R(tau) = int_0^tau s e^{-s} (1 - eta(s)) ds + int_tau^inf s e^{-s} eta(s) ds, by
   composite Simpson on the pieces where the integrand is smooth (2,000 panels each,
   error far below the 1e-9 tolerance), at tau* = 7 - log 2 against ``bayes_risk()``
   and at a random tau in [0, 9] against ``threshold_risk(tau)``; and
   threshold_risk(tau) >= bayes_risk() (tau* is the best threshold).
4. The risk of the rule in 2, by ``refml.risk`` (Monte Carlo, 4,000 draws), equals
   bayes_risk() to within the Hoeffding bound it returns at confidence 1 - 1e-9 (a
   loose, end-to-end check of ``risk``; 3 is the sharp check of the value).

Slack: the smallest margin among the four (tolerance minus discrepancy, or the exact gap).
"""

import math

from ._harness import Theorem

N_SIMULATION = 10_000
FAILURE_PROBABILITY = 1e-9
BOUNDARY = 7.0 - math.log(2.0)


class ThresholdRule:
    """g(x) = +1 iff x1 + x2 <= 7 - log 2 ([Wainwright-L2] eq. 2.17), as a fitted classifier."""

    classes_ = [-1, 1]

    def predict(self, X):
        return [1 if float(x[0]) + float(x[1]) <= BOUNDARY else -1 for x in X]


def simpson(f, a, b, n=2000):
    h = (b - a) / n
    total = f(a) + f(b)
    for i in range(1, n):
        total += (4 if i % 2 else 2) * f(a + i * h)
    return total * h / 3


def quadrature_threshold_risk(tau):
    """R(tau) by quadrature over s (eta from eq. 2.16; no code under test)."""
    def eta(s):
        return max(0.0, 1.0 - math.exp(-(7.0 - s)))

    def wrong_if_pass(s):
        return s * math.exp(-s) * (1.0 - eta(s))

    def wrong_if_fail(s):
        return s * math.exp(-s) * eta(s)

    tau = min(max(tau, 0.0), 40.0)
    pieces = [(0.0, min(tau, 7.0), wrong_if_pass), (7.0, max(tau, 7.0), wrong_if_pass),
              (tau, max(tau, 7.0), wrong_if_fail)]
    return sum(simpson(f, a, b) for a, b, f in pieces if b > a)


def random_point(rng):
    s = 9.0 * rng.random()
    share = rng.random()
    return [s * share, s * (1.0 - share)]


def make_instance(rng):
    return {"x": random_point(rng), "points": [random_point(rng) for _ in range(50)],
            "tau": 9.0 * rng.random(), "seed": rng.next_u64()}


def check(instance):
    import refml
    from refml.core.random import Generator

    example = refml.PassFailExample()
    x1, x2 = instance["x"]
    generator = Generator(instance["seed"])
    passes = sum(1 for _ in range(N_SIMULATION) if x1 + x2 + generator.exponential() <= 7.0)
    tolerance = math.sqrt(math.log(2.0 / FAILURE_PROBABILITY) / (2.0 * N_SIMULATION))
    slack = tolerance - abs(passes / N_SIMULATION - example.eta([x1, x2]))

    bayes = refml.BayesClassifier(distribution=example).fit([[0.0, 0.0], [9.0, 9.0]], [1, -1])
    points = [p for p in instance["points"] if abs(p[0] + p[1] - BOUNDARY) > 1e-9]
    disagreements = sum(1 for a, b in zip(bayes.predict(points), ThresholdRule().predict(points))
                        if a != b)
    slack = min(slack, float(-disagreements))

    tau = instance["tau"]
    slack = min(slack, 1e-9 - abs(example.bayes_risk() - quadrature_threshold_risk(BOUNDARY)),
                1e-9 - abs(example.threshold_risk(tau) - quadrature_threshold_risk(tau)),
                example.threshold_risk(tau) - example.bayes_risk() + 1e-15)

    value, bound = refml.risk(ThresholdRule(), example, n_samples=4000,
                              random_state=generator, confidence=1.0 - FAILURE_PROBABILITY,
                              return_error=True)
    return min(slack, bound - abs(value - example.bayes_risk()))


THEOREMS = [
    Theorem(number=3, title="Pass/fail: eta formula and the rule x1+x2 <= 7 - log 2",
            source="[Wainwright-L2] sec. 2.3.2, eqs. 2.16-2.17",
            make_instance=make_instance, check=check, size=lambda inst: 1,
            describe=repr, quick=20, default=300, full=3000),
]
