"""Item 7: logistic regression's gradient, concavity and the sigmoid identities ([MATH412]).

On random data (n <= 20 rows, d <= 4 features, entries up to 3 in size, weights up to 2,
so margins up to about 24), with refml's public functions:

- gradient: each entry of ``log_likelihood_gradient`` equals the central difference
  (l(w + h e_j) - l(w - h e_j)) / 2h, h = 1e-5 max(1, |w_j|), to within
  1e-6 (1 + sum_i |x_ij|), in both label conventions.  The difference's own error is far
  below that: truncation h^2/6 sum_i |x_ij|^3 max|sigma''| < 1e-8, rounding about
  eps n max|l_i| / h < 1e-8; a wrong formula misses by O(1).
- concavity: l(lambda w1 + (1-lambda) w2) >= lambda l(w1) + (1-lambda) l(w2) for the midpoint
  and a random lambda, to within 1e-12 (1 + |l(w1)| + |l(w2)|) (rounding); also the
  multinomial objective of LogisticRegression ([Yan], K = 3..4) is convex along
  random segments.
- conventions: the {0,1} and {-1,+1} forms give the same l and gradient (y = 0 <-> y = -1),
  to within 1e-12 relative.
- sigmoid: sigma(-z) = 1 - sigma(z) to within 2^-52 (both in [0, 1]); sigma'(z) =
  sigma(z) sigma(-z) against the central difference with h = 1e-5 to within 1e-9, for z up to
  40 in size; 0 <= sigma <= 1 and no exception for z up to 1e308 in size.
"""

import math

from ._harness import Theorem

SOURCE = "[MATH412] sec. 3 (likelihood, gradient, sigma); [Yan] (multinomial)"


def random_problem(rng):
    n, d = 1 + rng.randbelow(20), 1 + rng.randbelow(4)
    scale = [0.1, 1.0, 3.0][rng.randbelow(3)]
    X = [[scale * rng.normal() for _ in range(d)] for _ in range(n)]
    y01 = [rng.randbelow(2) for _ in range(n)]
    w1 = [2.0 * (2.0 * rng.random() - 1.0) for _ in range(d)]
    w2 = [2.0 * (2.0 * rng.random() - 1.0) for _ in range(d)]
    return {"X": X, "y01": y01, "w1": w1, "w2": w2, "lambda": rng.random()}


def check_gradient(instance):
    from refml import log_likelihood, log_likelihood_gradient

    X, w = instance["X"], instance["w1"]
    worst = math.inf
    for y, convention in ((instance["y01"], "zero_one"),
                          ([2 * v - 1 for v in instance["y01"]], "plus_minus")):
        gradient = log_likelihood_gradient(w, X, y, convention)
        for j in range(len(w)):
            h = 1e-5 * max(1.0, abs(w[j]))
            up = [v + (h if k == j else 0.0) for k, v in enumerate(w)]
            down = [v - (h if k == j else 0.0) for k, v in enumerate(w)]
            difference = (log_likelihood(up, X, y, convention)
                          - log_likelihood(down, X, y, convention)) / (2.0 * h)
            tolerance = 1e-6 * (1.0 + sum(abs(x[j]) for x in X))
            worst = min(worst, tolerance - abs(difference - gradient[j]))
    return worst


def check_concavity(instance):
    from refml import log_likelihood

    X, y, w1, w2 = instance["X"], instance["y01"], instance["w1"], instance["w2"]
    l1, l2 = log_likelihood(w1, X, y), log_likelihood(w2, X, y)
    worst = math.inf
    for lam in (0.5, instance["lambda"]):
        middle = [lam * a + (1.0 - lam) * b for a, b in zip(w1, w2)]
        tolerance = 1e-12 * (1.0 + abs(l1) + abs(l2))
        worst = min(worst, log_likelihood(middle, X, y) - (lam * l1 + (1.0 - lam) * l2)
                    + tolerance)
    return worst


def make_multinomial(rng):
    instance = random_problem(rng)
    K = 3 + rng.randbelow(2)
    instance["codes"] = [rng.randbelow(K) for _ in instance["X"]]
    instance["K"] = K
    p = len(instance["X"][0]) + 1
    instance["theta1"] = [2.0 * rng.normal() for _ in range((K - 1) * p)]
    instance["theta2"] = [2.0 * rng.normal() for _ in range((K - 1) * p)]
    return instance


def check_multinomial_convexity(instance):
    from refml.linear.logistic_solvers import objective

    X, codes, K = instance["X"], instance["codes"], instance["K"]

    def L(theta):
        return objective(X, codes, theta, K, True, 0.0)[0]

    a, b = instance["theta1"], instance["theta2"]
    La, Lb = L(a), L(b)
    worst = math.inf
    for lam in (0.5, instance["lambda"]):
        middle = [lam * u + (1.0 - lam) * v for u, v in zip(a, b)]
        tolerance = 1e-12 * (1.0 + abs(La) + abs(Lb))
        worst = min(worst, lam * La + (1.0 - lam) * Lb - L(middle) + tolerance)
    return worst


def check_conventions(instance):
    from refml import log_likelihood, log_likelihood_gradient

    X, w, y01 = instance["X"], instance["w1"], instance["y01"]
    ypm = [2 * v - 1 for v in y01]
    a, b = log_likelihood(w, X, y01), log_likelihood(w, X, ypm, "plus_minus")
    worst = 1e-12 * max(1.0, abs(a)) - abs(a - b)
    ga = log_likelihood_gradient(w, X, y01)
    gb = log_likelihood_gradient(w, X, ypm, "plus_minus")
    for u, v in zip(ga, gb):
        worst = min(worst, 1e-12 * max(1.0, abs(u)) - abs(u - v))
    return worst


def make_points(rng):
    extreme = [1e308, -1e308, 745.0, -745.0, 800.0, -800.0, 0.0]
    return {"z": [40.0 * (2.0 * rng.random() - 1.0) for _ in range(20)]
            + [extreme[rng.randbelow(len(extreme))]]}


def check_sigmoid(instance):
    from refml import sigmoid

    worst = math.inf
    for z in instance["z"]:
        s, s_minus = sigmoid(z), sigmoid(-z)
        worst = min(worst, s, 1.0 - s)                              # 0 <= sigma <= 1
        worst = min(worst, 2.0 ** -52 - abs(s_minus - (1.0 - s)))   # sigma(-z) = 1 - sigma(z)
        if abs(z) <= 40.0:
            h = 1e-5
            derivative = (sigmoid(z + h) - sigmoid(z - h)) / (2.0 * h)
            worst = min(worst, 1e-9 - abs(derivative - s * s_minus))   # sigma' = sigma sigma(-)
    return worst


THEOREMS = [
    Theorem(7, "Logistic: gradient = central finite differences (both conventions)", SOURCE,
            random_problem, check_gradient, size=lambda i: len(i["X"]) * len(i["w1"])),
    Theorem(7, "Logistic: log-likelihood concave along segments (midpoint, random)", SOURCE,
            random_problem, check_concavity, size=lambda i: len(i["X"]) * len(i["w1"])),
    Theorem(7, "Logistic: multinomial negative log-likelihood convex along segments", SOURCE,
            make_multinomial, check_multinomial_convexity,
            size=lambda i: len(i["X"]) * len(i["theta1"]), quick=50),
    Theorem(7, "Logistic: {0,1} and {-1,+1} forms agree", SOURCE, random_problem,
            check_conventions, size=lambda i: len(i["X"]) * len(i["w1"])),
    Theorem(7, "Logistic: sigma(-z) = 1 - sigma(z), sigma' = sigma(z) sigma(-z), 0<=sigma<=1",
            SOURCE, make_points, check_sigmoid, size=lambda i: len(i["z"])),
]
