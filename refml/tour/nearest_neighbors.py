"""Tour: the 1-NN risk against the Bayes risk as n grows ([IML-L5], section 5.3).

Cover-Hart (Lemma 1): as N -> infinity every x has a copy x_0 in the training set, whose
label is drawn from P(. | x) independently of x's own, so the 1-NN errs at x with
probability 1 - sum_k P(k|x)^2 <= 2 (1 - max_k P(k|x)) = 2 P*(error | x).
"""

import math

from refml.core.random import Generator
from refml.tour import format_table

TITLE = "k nearest neighbours: 1-NN against the Bayes risk as n grows ([IML-L5])"

N_POINTS = 40
SIZES = (10, 30, 100, 300, 1000, 4000)
REPEATS = 10


def wavy_distribution(lib):
    """40 equally likely points x_i = i/39 on [0, 1], with
    eta(x) = P(Y = 1 | x) = 1/2 + 0.45 sin(6 pi x)  (rounded to 1e-6 so the table is exact)."""
    points = [[i / (N_POINTS - 1)] for i in range(N_POINTS)]
    table = []
    for (x,) in points:
        eta = round(0.5 + 0.45 * math.sin(6.0 * math.pi * x), 6)
        table.append([(1.0 - eta) / N_POINTS, eta / N_POINTS])
    return lib.FiniteDistribution(points, table)


def asymptotic_nn_risk(distribution):
    """R_inf = sum_x p(x) (1 - sum_k P(k|x)^2), the lecture's limit of the 1-NN risk."""
    total = 0.0
    for row in distribution.probabilities:
        p_x = sum(row)
        total += p_x * (1.0 - sum((p / p_x) ** 2 for p in row))
    return total


def two_class_sample(distribution, n, rng):
    """n draws, redrawn in the (rare) case that they hold a single class."""
    while True:
        X, y = distribution.sample(n, random_state=rng.next_u64() >> 1)
        if len(set(y)) == 2:
            return X, y


def run(lib, show):
    distribution = wavy_distribution(lib)
    r_star = distribution.bayes_risk()
    r_inf = asymptotic_nn_risk(distribution)
    show("A known distribution: 40 equally likely points on [0, 1] with")
    show("eta(x) = P(Y = 1 | x) = 1/2 + 0.45 sin(6 pi x).  Its risks, exactly:")
    for line in format_table(["R* (Bayes)", "R_inf (1-NN, N -> inf)", "2R*(1 - R*)", "2R*"],
                             [[r_star, r_inf, 2.0 * r_star * (1.0 - r_star), 2.0 * r_star]]):
        show(line)
    show("")
    show(f"1-NN fitted on n draws ({REPEATS} samples each).  R(1-NN) is its exact risk under")
    show("the known distribution: the test error on an infinite test set.  While some support")
    show("points are missing, 1-NN borrows a neighbour's label; once all are present, it copies")
    show("one draw of each point's own label and its risk settles around R_inf, between R* and")
    show("2R*(1 - R*).")
    rows = []
    for n in SIZES:
        risks, covered = [], []
        for repeat in range(REPEATS):
            X, y = two_class_sample(distribution, n, Generator(1000 * n + repeat))
            model = lib.KNeighborsClassifier(n_neighbors=1).fit(X, y)
            risks.append(lib.risk(model, distribution))
            covered.append(len({tuple(x) for x in X}))
        mean = sum(risks) / REPEATS
        rows.append([n, f"{min(covered)}-{max(covered)} of {N_POINTS}", mean,
                     f"{min(risks):.3f}-{max(risks):.3f}", mean / r_star])
    for line in format_table(["n", "points seen", "R(1-NN) mean", "range", "R / R*"], rows):
        show(line)
    show(f"(Lemma 1: R* <= R_inf <= 2R*(1 - R*) <= 2R*, here {r_star:.4f} <= {r_inf:.4f} <= "
         f"{2 * r_star * (1 - r_star):.4f} <= {2 * r_star:.4f}.)")
