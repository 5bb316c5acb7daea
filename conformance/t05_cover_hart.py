"""docs/design.md section 7, item 5: Cover-Hart, the 1-NN risk is at most twice the Bayes risk
([IML-L5], section 5.3, Lemma 1 and its proof).

As N -> infinity on a finite support every point x is in the training set, so 1-NN
predicts the label y_0 of a copy of x, drawn from P(. | x) independently of the test label:
the lecture's proof gives the conditional error 1 - sum_k P(k|x)^2, hence the asymptotic
1-NN risk

    R_inf = sum_x p(x) (1 - sum_k P(k|x)^2),   and   R* = sum_x p(x) (1 - max_k P(k|x)).

Check 1 (exact, in rational arithmetic with ``fractions.Fraction``, so that the equality
cases -- deterministic and uniform posteriors -- give slack exactly 0):
    R* <= R_inf <= R* (2 - K/(K-1) R*) <= 2 R*,   for K = 2: R_inf <= 2 R*(1 - R*) <= 2 R*;
    pointwise, 1 - max_k P_k <= 1 - sum_k P_k^2 <= 2 (1 - max_k P_k)   (the step (*));
and R* agrees with ``FiniteDistribution.bayes_risk`` to 1e-12.

Check 2 (a fitted 1-NN): a sample of n rows from a distribution on a 10 x 10 grid,
redrawn until every support point is present, and ``refml.KNeighborsClassifier`` with
k = 1.  At a support point x the nearest training rows are the copies of x (distance 0),
and the tie rule takes the first copy: the prediction must equal that copy's label
(exactly, at every point).  Its risk R(g_n) = sum_x p(x)(1 - P(Y_x | x)) (``refml.risk``,
exact) is a sum of independent terms, one per point, each in an interval of length
c_x = p(x) (max_k P_k - min_{k: P_k > 0} P_k), with mean R_inf: Hoeffding's inequality
gives P(|R(g_n) - R_inf| >= t) <= 2 exp(-2 t^2 / sum_x c_x^2).  The tolerance is t at
delta = 1e-9 (t ~ 0.3 here), so the check does not flake: with 3,000 instances under
--full the chance of a false failure is below 3e-6, and the seeds are fixed anyway.  A
rule that took the label of any other point would have risk near 0.8 against R_inf near
0.15 (dominant classes at least 0.85, chosen at random per point), far outside t.
"""

import math
from fractions import Fraction

from ._harness import Theorem

STRING_CLASSES = ["ant", "bee", "cat", "dog", "eel"]
DELTA = 1e-9
GRID = 10


# ---------------------------------------------------------------------------------------
# Check 1: the inequalities, exactly.


def random_weights(rng):
    """{"K", "weights"}: an m x K table of integer weights, with deterministic, uniform
    and empty rows mixed in (the equality cases of the bounds)."""
    K = 2 + rng.randbelow(4)
    m = 1 + rng.randbelow(12)
    weights = []
    for _ in range(m):
        shape = rng.randbelow(6)
        if shape == 0:    # deterministic posterior: all mass on one class
            row = [0] * K
            row[rng.randbelow(K)] = 1 + rng.randbelow(5)
        elif shape == 1:  # uniform posterior
            row = [1 + rng.randbelow(3)] * K
        elif shape == 2:  # a point of probability 0
            row = [0] * K
        else:
            row = [rng.randbelow(10) for _ in range(K)]
        weights.append(row)
    weights[rng.randbelow(m)][rng.randbelow(K)] += 1  # the total is positive
    return {"K": K, "weights": weights}


def risks(weights):
    """(R*, R_inf, pointwise [(1 - max P, 1 - sum P^2)]) as Fractions."""
    total = sum(sum(row) for row in weights)
    bayes = nearest = Fraction(0)
    pointwise = []
    for row in weights:
        mass = sum(row)
        if mass == 0:
            continue
        p_x = Fraction(mass, total)
        posterior = [Fraction(w, mass) for w in row]
        bayes_error = 1 - max(posterior)                       # P*(error | x)
        nn_error = 1 - sum(p * p for p in posterior)           # P(error | x), N -> inf
        bayes += p_x * bayes_error
        nearest += p_x * nn_error
        pointwise.append((bayes_error, nn_error))
    return bayes, nearest, pointwise


def inequality_slack(instance):
    """The smallest of the slacks of every inequality (exact; >= 0 iff all hold)."""
    K, weights = instance["K"], instance["weights"]
    r_star, r_inf, pointwise = risks(weights)
    slacks = [r_inf - r_star,                                  # R* <= R_inf
              r_star * (2 - Fraction(K, K - 1) * r_star) - r_inf,
              2 * r_star - r_star * (2 - Fraction(K, K - 1) * r_star),
              2 * r_star - r_inf]                              # the lecture's Lemma 1
    if K == 2:
        slacks += [2 * r_star * (1 - r_star) - r_inf, 2 * r_star - 2 * r_star * (1 - r_star)]
    for bayes_error, nn_error in pointwise:
        slacks += [nn_error - bayes_error, 2 * bayes_error - nn_error]
    slack = float(min(slacks))
    return min(slack, 1e-12 - abs(float(r_star) - _library_bayes_risk(weights)))


def _library_bayes_risk(weights):
    import refml

    total = sum(sum(row) for row in weights)
    points = [[float(i)] for i in range(len(weights))]
    table = [[w / total for w in row] for row in weights]
    return refml.FiniteDistribution(points, table).bayes_risk()


# ---------------------------------------------------------------------------------------
# Check 2: a fitted 1-NN on a sample that covers the support.


def random_grid_distribution(rng):
    """{"points", "table", "classes", "seed"}: the 100 points of a 10 x 10 grid, masses
    proportional to 2..4, each point's class dominant with probability 0.85..1."""
    K = 2 + rng.randbelow(3)
    points = [[float(a), float(b)] for a in range(GRID) for b in range(GRID)]
    weights = []
    for _ in points:
        mass = 2 + rng.randbelow(3)
        dominant = 0.85 + 0.15 * rng.random()
        row = [(1.0 - dominant) / (K - 1)] * K
        row[rng.randbelow(K)] = dominant
        weights.append([mass * p for p in row])
    total = sum(sum(row) for row in weights)
    table = [[w / total for w in row] for row in weights]
    classes = STRING_CLASSES[:K] if rng.random() < 0.3 else list(range(K))
    return {"points": points, "table": table, "classes": classes, "seed": rng.next_u64()}


def covering_sample(distribution, n, seed):
    """A sample of n rows in which every support point appears (redrawn until it does)."""
    support = {tuple(p) for p in distribution.points}
    attempt = 0
    while True:
        X, y = distribution.sample(n, random_state=(seed + attempt) % (1 << 63))
        if {tuple(x) for x in X} == support:
            return X, y
        attempt += 1


def fitted_nn_slack(instance):
    """t - |R(g_n) - R_inf|, or minus the number of points where g_n differs from the label
    of the first copy."""
    import refml

    distribution = refml.FiniteDistribution(instance["points"], instance["table"],
                                            instance["classes"])
    n = 16 * len(instance["points"])
    X, y = covering_sample(distribution, n, instance["seed"])
    knn = refml.KNeighborsClassifier(n_neighbors=1).fit(X, y)
    first_label = {}
    for x, label in zip(X, y):
        first_label.setdefault(tuple(x), label)
    predictions = list(knn.predict(distribution.points))
    wrong_neighbor = sum(1 for x, p in zip(distribution.points, predictions)
                         if p != first_label[tuple(x)])
    r_inf, ranges = 0.0, 0.0
    for row in distribution.probabilities:
        p_x = sum(row)
        posterior = [p / p_x for p in row]
        r_inf += p_x * (1.0 - sum(p * p for p in posterior))
        ranges += (p_x * (max(posterior) - min(p for p in posterior if p > 0))) ** 2
    tolerance = math.sqrt(ranges * math.log(2.0 / DELTA) / 2.0)
    if wrong_neighbor:
        return -float(wrong_neighbor)
    return tolerance - abs(refml.risk(knn, distribution) - r_inf)


THEOREMS = [
    Theorem(number=5, title="Cover-Hart: R* <= R_inf <= R*(2 - K/(K-1) R*) <= 2R*, "
                            "binary 2R*(1-R*), pointwise 1 - sum P^2 <= 2(1 - max P)",
            source="[IML-L5] section 5.3 (Lemma 1)", make_instance=random_weights,
            check=inequality_slack, size=lambda inst: len(inst["weights"]) * inst["K"],
            quick=100, default=1000, full=10000),
    Theorem(number=5, title="Cover-Hart: fitted 1-NN on a covering sample has risk "
                            "R_inf within Hoeffding's t (delta 1e-9)",
            source="[IML-L5] section 5.3 (proof of Lemma 1)",
            make_instance=random_grid_distribution, check=fitted_nn_slack,
            size=lambda inst: len(inst["classes"]), describe=repr,
            quick=12, default=40, full=300),
]
