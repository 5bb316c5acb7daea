"""Item 10: the SVM's duality, its KKT conditions, its support vectors, its maximum margin.

[Yan], "Strong and Weak Duality" to "Dual problem: non-separable data".  Instances:
random data (duplicates, ties, string labels) with C in {0.1, 1, 10} and the linear, rbf or
poly kernel, and separable data (a known separator with a bias, see t04_perceptron) with
C = inf; the solver tolerance is 1e-2, 1e-3 or 1e-5.  refml's SVC is fitted, and every
quantity below is recomputed here from the public attributes (support_, dual_coef_,
intercept_, coef_), with this module's own kernel sums: the library's own KKT measures are
not trusted.  With f(x) = sum_s alpha_s y_s K(x_s, x) + beta_0, g_i = y_i f(x_i),
xi_i = (1 - g_i)_+ (0 when C = inf) and ||beta||^2 = sum_st alpha_s alpha_t y_s y_t K_st:

- weak duality (any feasible pair): for alpha with 0 <= alpha <= C, sum alpha y = 0, and a
  primal point (beta in the span of the phi(x_i), any beta_0, xi_i = (1 - g_i)_+),
  D(alpha) = sum alpha - 1/2 sum_ij alpha_i alpha_j y_i y_j K_ij <= P = 1/2 ||beta||^2 + C sum xi;
  the pairs are the solution mixed with random feasible points, so that the gap is small and
  the lecture's dual with a wrong sign or factor fails;
- strong duality at the solution: |P - D| <= tol sum_i w_i (+ 1e-9 for rounding), with
  w_i = alpha_i if g_i >= 1 and C - alpha_i otherwise (w_i = alpha_i when C = inf): the gap
  is sum_i [C xi_i - alpha_i (1 - g_i)], and each term is at most tol w_i when the KKT
  conditions hold to within tol;
- the four KKT conditions to within tol: primal feasibility (g_i >= 1 when C = inf), dual
  feasibility (0 <= alpha_i <= C, exactly), complementary slackness (alpha_i > 0 => g_i <= 1,
  alpha_i < C => g_i >= 1), stationarity (sum alpha_i y_i = 0 to rounding; for the linear
  kernel coef_ = sum alpha_i y_i x_i to rounding);
- support vectors on the margin: |g_i - 1| <= tol for every 0 < alpha_i < C (every support
  vector when C = inf), and with C = inf the closest point is at distance margin_ = 1/||beta||
  (within the factor 1 - tol);
- maximum margin (C = inf): min_i g_i / ||beta|| >= c(tol) times the margin of the generating
  separator, of linear_separability's separator and of the perceptron's, where
  c(tol) = (1 - tol) sqrt(1 - 2 tol / (1 - tol)): at a solution within tol, g_i >= 1 - tol and
  ||beta||^2 (1 - 2 tol / (1 - tol)) <= ||beta*||^2 (from the duality gap), and no separator's
  margin exceeds 1/||beta*||.
"""

import math
import warnings

from ._harness import Theorem
from ._parity import random_dataset
from .t04_perceptron import separable_dataset

SOURCE = "[Yan] SVM dual, KKT"
TOLERANCES = (1e-2, 1e-3, 1e-5)
ROUNDING = 1e-9


def make_instance(rng):
    tol = TOLERANCES[rng.randbelow(3)]
    if rng.random() < 0.35:
        X, y, theta, _ = separable_dataset(rng, n_max=14, d_max=3, fit_intercept=True)
        return {"X": X, "y": y, "theta": theta, "C": math.inf, "kernel": "linear", "tol": tol}
    X, y, _ = random_dataset(rng, n_max=14, d_max=3, binary=True)
    kernel = ("linear", "linear", "rbf", "poly")[rng.randbelow(4)]
    return {"X": X, "y": y, "theta": None, "C": (0.1, 1.0, 10.0)[rng.randbelow(3)],
            "kernel": kernel, "degree": 2 + rng.randbelow(2), "tol": tol,
            "seed": rng.next_u64()}


def kernel(instance, u, v):
    dot = sum(a * b for a, b in zip(u, v))
    if instance["kernel"] == "linear":
        return dot
    if instance["kernel"] == "rbf":
        return math.exp(-0.5 * sum((a - b) ** 2 for a, b in zip(u, v)))
    return (0.5 * dot + 1.0) ** instance["degree"]


def fitted(instance):
    import refml

    model = refml.SVC(C=instance["C"], kernel=instance["kernel"], gamma=0.5,
                      degree=instance.get("degree", 3), coef0=1.0, tol=instance["tol"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return model.fit(instance["X"], instance["y"])


def solution(instance):
    """(model, signs, alpha, g, ||beta||^2) recomputed from the public attributes."""
    model = fitted(instance)
    X, n = instance["X"], len(instance["X"])
    negative = sorted(set(instance["y"]))[0]
    signs = [-1.0 if label == negative else 1.0 for label in instance["y"]]
    alpha = [0.0] * n
    for index, coefficient in zip(model.support_, model.dual_coef_):
        alpha[index] = abs(coefficient)
    support = list(model.support_)
    scores = [sum(alpha[s] * signs[s] * kernel(instance, X[s], x) for s in support)
              + model.intercept_ for x in X]
    g = [s * f for s, f in zip(signs, scores)]
    beta2 = sum(alpha[s] * alpha[t] * signs[s] * signs[t] * kernel(instance, X[s], X[t])
                for s in support for t in support)
    return model, signs, alpha, g, beta2


def objectives(instance, alpha, g, beta2):
    C = instance["C"]
    slack = sum(max(0.0, 1.0 - gi) for gi in g) if C < math.inf else 0.0
    primal = 0.5 * beta2 + (C * slack if slack > 0 else 0.0)
    return primal, sum(alpha) - 0.5 * beta2


# --- the checks -----------------------------------------------------------------------------

def check_weak_duality(instance):
    """P(beta, beta_0, xi) - D(alpha) >= 0 for feasible pairs near the solution (C finite):
    alpha = (1 - l) alpha* + l alpha_random, beta = (1 - l) beta* + l beta_random (l in
    {0, 0.01, 0.1, 1}), beta_0 = beta_0* + l noise, xi_i = (1 - g_i)_+.  Near the solution
    the gap is small, so a dual written with a wrong factor or sign fails."""
    from refml.core.random import Generator

    if instance["C"] == math.inf:
        return check_strong_duality(instance)
    model, signs, alpha_star, g, beta2 = solution(instance)
    rng = Generator(instance["seed"])
    X, C, n = instance["X"], instance["C"], len(instance["X"])
    K = [[kernel(instance, a, b) for b in X] for a in X]
    coefficients_star = [a * s for a, s in zip(alpha_star, signs)]   # beta* = sum c_s phi(x_s)
    worst = math.inf
    for mix in (0.0, 0.01, 0.1, 1.0):
        alpha = [C * rng.random() for _ in range(n)]
        plus = sum(a for a, s in zip(alpha, signs) if s > 0)
        minus = sum(a for a, s in zip(alpha, signs) if s < 0)
        alpha = [a * min(plus, minus) / (plus if s > 0 else minus) for a, s in zip(alpha, signs)]
        alpha = [(1 - mix) * a_star + mix * a for a_star, a in zip(alpha_star, alpha)]
        dual = sum(alpha) - 0.5 * sum(alpha[i] * alpha[j] * signs[i] * signs[j] * K[i][j]
                                      for i in range(n) for j in range(n))
        c = [(1 - mix) * c_star + mix * rng.normal() for c_star in coefficients_star]
        beta0 = model.intercept_ + mix * rng.normal()
        f = [sum(c[s] * K[s][i] for s in range(n)) + beta0 for i in range(n)]
        beta2 = sum(c[s] * c[t] * K[s][t] for s in range(n) for t in range(n))
        primal = 0.5 * beta2 + C * sum(max(0.0, 1.0 - s * fi) for s, fi in zip(signs, f))
        worst = min(worst, primal - dual + ROUNDING * (1.0 + abs(primal)))
    return worst


def check_strong_duality(instance):
    model, signs, alpha, g, beta2 = solution(instance)
    if not model.converged_:
        return -1.0
    primal, dual = objectives(instance, alpha, g, beta2)
    C = instance["C"]
    weights = sum(a if (gi >= 1.0 or C == math.inf) else C - a for a, gi in zip(alpha, g))
    allowance = instance["tol"] * weights + ROUNDING * (1.0 + abs(primal) + sum(alpha))
    # The library's (D) as the lecture's double sum agrees with the value fit reports.
    from refml.svm.svc import dual_objective

    X = instance["X"]
    K = [[kernel(instance, u, v) for v in X] for u in X]
    double_sum = dual_objective(alpha, signs, K)
    agree = (math.isclose(primal, model.primal_objective_, rel_tol=1e-9, abs_tol=1e-9)
             and math.isclose(dual, model.dual_objective_, rel_tol=1e-9, abs_tol=1e-9)
             and math.isclose(double_sum, model.dual_objective_, rel_tol=1e-9, abs_tol=1e-9))
    return allowance - abs(primal - dual) if agree else -1.0


def check_kkt(instance):
    """The smallest slack over the four conditions (and the library's own measure)."""
    model, signs, alpha, g, beta2 = solution(instance)
    if not model.converged_:
        return -1.0
    C, tol = instance["C"], instance["tol"]
    margin_violations = [0.0]
    if C == math.inf:                                               # primal feasibility
        margin_violations += [1.0 - gi for gi in g]
    margin_violations += [gi - 1.0 for a, gi in zip(alpha, g) if a > 0]   # compl. slackness
    margin_violations += [1.0 - gi for a, gi in zip(alpha, g) if a < C]
    slacks = [tol + ROUNDING - max(margin_violations),
              tol + ROUNDING - model.kkt_violation_]
    slacks += [min(a, C - a) for a in alpha]                         # dual feasibility, exact
    balance = abs(sum(a * s for a, s in zip(alpha, signs)))         # stationarity
    slacks.append(ROUNDING * (1.0 + sum(alpha)) - balance)
    if instance["kernel"] == "linear":
        X = instance["X"]
        for j in range(len(X[0])):
            beta_j = sum(alpha[i] * signs[i] * X[i][j] for i in range(len(X)))
            slacks.append(ROUNDING * (1.0 + sum(abs(a * x[j]) for a, x in zip(alpha, X)))
                          - abs(beta_j - model.coef_[j]))
    return min(slacks)


def check_support_vectors_on_margin(instance):
    model, signs, alpha, g, beta2 = solution(instance)
    if not model.converged_:
        return -1.0
    C, tol = instance["C"], instance["tol"]
    worst = tol + ROUNDING
    for a, gi in zip(alpha, g):
        if 0.0 < a < C:
            worst = min(worst, tol + ROUNDING - abs(gi - 1.0))
    if C == math.inf:
        closest = min(g) / math.sqrt(beta2)                      # distance of the closest point
        worst = min(worst, closest - (1.0 - tol) * model.margin_,
                    (1.0 + tol) * model.margin_ - closest)
    return worst


def check_maximum_margin(instance):
    """Hard margin only; other instances check the margins of the soft-margin support vectors."""
    import refml

    if instance["C"] < math.inf:
        return check_support_vectors_on_margin(instance)
    model, signs, alpha, g, beta2 = solution(instance)
    if not model.converged_:
        return -1.0
    X, tol = instance["X"], instance["tol"]

    def margin(w, b):
        norm = math.sqrt(sum(v * v for v in w))
        return min(s * (sum(a * c for a, c in zip(w, x)) + b) for s, x in zip(signs, X)) / norm

    svm = margin(model.coef_, model.intercept_)
    separable, lp = refml.linear_separability(X, instance["y"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        perceptron = refml.Perceptron(max_iter=100_000, tol=None).fit(X, instance["y"])
    theta = instance["theta"]
    others = [margin(theta[1:], theta[0]), margin(lp[1:], lp[0]),
              margin(perceptron.coef_, perceptron.intercept_)]
    factor = (1.0 - tol) * math.sqrt(1.0 - 2.0 * tol / (1.0 - tol))
    return min(svm - factor * other + ROUNDING for other in others) if separable else -1.0


def describe(instance):
    return (f"X={instance['X']!r} y={instance['y']!r} C={instance['C']} "
            f"kernel={instance['kernel']} tol={instance['tol']}")


def theorem(title, check, quick=100):
    return Theorem(number=10, title=title, source=SOURCE, make_instance=make_instance,
                   check=check, size=lambda inst: len(inst["X"]) * len(inst["X"][0]),
                   describe=describe, quick=quick, default=200, full=2000)


THEOREMS = [
    theorem("SVM weak duality: D(alpha) <= P on feasible pairs", check_weak_duality),
    theorem("SVM strong duality: |P - D| <= tol sum w_i at the solution", check_strong_duality),
    theorem("SVM KKT: the four conditions hold to within tol", check_kkt),
    theorem("SVM support vectors on the margin; max margin beats other separators",
            check_maximum_margin),
]
