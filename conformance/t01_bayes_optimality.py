"""docs/design.md section 7, item 1: the Bayes rule has the smallest risk
([Wainwright-L2], Theorem 2.1;
[Yan], "Bayes optimal classifier", for K classes).

Each instance is a random finite distribution (m points, K = 2..5 classes; integer weights
half of the time, so that exact ties eta = 1/2 and points of mass 0 are common).  The
Bayes rule is ``refml.BayesClassifier``; every rule's risk is ``refml.risk`` (exact on a
finite support).  When K^m <= 243 every one of the K^m rules is tried; otherwise 40 random
rules and the m (K - 1) rules that differ from g* at one point (the hardest competitors).
The check also asks that risk(g*) equals ``bayes_risk()``.

Under a general loss ([Yan]: L[k][j] the loss of deciding class j when the truth is
class k), the second check draws a random K x K loss matrix (entries 0..9, zero diagonal
half of the time, integer or uniform) and asks the same of ``BayesClassifier(loss=L)`` and
``risk(g, d, loss=L)``: R_L(g*) <= R_L(g) for every competing rule, and R_L(g*) =
``bayes_risk(loss=L)``; refml_fast's rule must make the same decisions.  Its sums are of at
most 300 terms <= 9, so the tolerance is 1e-11.

Slack: min over the rules g of R(g) - R(g*), and 1e-12 - |R(g*) - bayes_risk()|, each
with TOLERANCE = 1e-12 added for rounding (each risk is a sum of at most 300 numbers <= 1,
so its rounding error is below 300 * 2^-53 ~ 3e-14).
"""

import itertools

from ._harness import Theorem

TOLERANCE = 1e-12
ENUMERATE_AT_MOST = 243
STRING_CLASSES = ["ant", "bee", "cat", "dog", "eel"]


def random_finite_distribution(rng, m_max=40, k_max=5, binary=False):
    """A random finite distribution as plain data: {"points", "table", "classes"}."""
    k = 2 if binary else 2 + rng.randbelow(k_max - 1)
    d = 1 + rng.randbelow(3)
    m = 1 + rng.randbelow(min(m_max, 21 ** d))  # at most 21^d distinct grid points
    seen, points = set(), []
    while len(points) < m:
        point = tuple(float(rng.randbelow(21) - 10) for _ in range(d))
        if point not in seen:
            seen.add(point)
            points.append(list(point))
    integer_weights = rng.random() < 0.5
    weights = [[float(rng.randbelow(4)) if integer_weights else rng.random()
                for _ in range(k)] for _ in range(m)]
    weights[rng.randbelow(m)][rng.randbelow(k)] += 1.0  # the total is positive
    total = sum(sum(row) for row in weights)
    table = [[w / total for w in row] for row in weights]
    classes = STRING_CLASSES[:k] if rng.random() < 0.3 else [2 * c - 1 for c in range(k)]
    return {"points": points, "table": table, "classes": classes}


def build(package, instance):
    """(distribution, fitted Bayes rule) of an instance, in ``package``."""
    distribution = package.FiniteDistribution(instance["points"], instance["table"],
                                              instance["classes"])
    classes = distribution.classes
    X = [instance["points"][i % len(instance["points"])] for i in range(len(classes))]
    bayes = package.BayesClassifier(distribution=distribution).fit(X, list(classes))
    return distribution, bayes


class TableRule:
    """A rule given by its label at each support point (only ``predict`` is needed)."""

    def __init__(self, points, labels):
        self.table = {tuple(p): label for p, label in zip(points, labels)}

    def predict(self, X):
        return [self.table[tuple(x)] for x in X]


def competing_rules(rng, distribution, bayes_labels):
    """Every rule when K^m is small; else random rules and the one-point deviations."""
    classes, m = distribution.classes, len(distribution.points)
    if len(classes) ** m <= ENUMERATE_AT_MOST:
        return [list(labels) for labels in itertools.product(classes, repeat=m)]
    rules = [[classes[rng.randbelow(len(classes))] for _ in range(m)] for _ in range(40)]
    for i in range(m):
        for label in classes:
            if label != bayes_labels[i]:
                rules.append(bayes_labels[:i] + [label] + bayes_labels[i + 1:])
    return rules


def make_instance(rng):
    instance = random_finite_distribution(rng, m_max=5 if rng.random() < 0.5 else 40,
                                          binary=rng.random() < 0.4)
    instance["seed"] = rng.next_u64()
    return instance


def check(instance):
    import refml
    from refml.core.random import Generator

    distribution, bayes = build(refml, instance)
    bayes_risk = refml.risk(bayes, distribution)
    slack = TOLERANCE - abs(bayes_risk - distribution.bayes_risk())
    bayes_labels = list(bayes.predict(distribution.points))
    for labels in competing_rules(Generator(instance["seed"]), distribution, bayes_labels):
        rule = TableRule(distribution.points, labels)
        slack = min(slack, refml.risk(rule, distribution) - bayes_risk + TOLERANCE)
    return slack


LOSS_TOLERANCE = 1e-11


def make_loss_instance(rng):
    instance = make_instance(rng)
    k = len(instance["classes"])
    zero_diagonal = rng.random() < 0.5
    integer = rng.random() < 0.5
    instance["loss"] = [[0.0 if (zero_diagonal and i == j) else
                         (float(rng.randbelow(10)) if integer else 9.0 * rng.random())
                         for j in range(k)] for i in range(k)]
    return instance


def check_loss(instance):
    import refml
    from refml.core.random import Generator

    distribution, _ = build(refml, instance)
    loss = instance["loss"]
    bayes = refml.BayesClassifier(distribution=distribution, loss=loss)
    bayes_risk = refml.risk(bayes, distribution, loss=loss)
    slack = LOSS_TOLERANCE - abs(bayes_risk - distribution.bayes_risk(loss=loss))
    bayes_labels = list(bayes.predict(distribution.points))
    for labels in competing_rules(Generator(instance["seed"]), distribution, bayes_labels):
        rule = TableRule(distribution.points, labels)
        slack = min(slack, refml.risk(rule, distribution, loss=loss) - bayes_risk
                    + LOSS_TOLERANCE)
    try:           # the standard-library-only run has no numpy, so no refml_fast classes
        import refml_fast
        fast = refml_fast.BayesClassifier(distribution=refml_fast.FiniteDistribution(
            instance["points"], instance["table"], instance["classes"]), loss=loss)
    except ImportError:
        return slack
    disagreements = sum(a != b for a, b in zip(bayes_labels,
                                               fast.predict(distribution.points).tolist()))
    return -float(disagreements) if disagreements else slack


THEOREMS = [
    Theorem(number=1, title="Bayes optimality: R(g*) <= R(g), binary and multiclass",
            source="[Wainwright-L2] Thm 2.1; [Yan] Bayes optimal classifier",
            make_instance=make_instance, check=check,
            size=lambda inst: len(inst["points"]) * len(inst["classes"]),
            describe=lambda inst: (f"points={inst['points']!r} table={inst['table']!r} "
                                   f"classes={inst['classes']!r}"),
            quick=100, default=500, full=5000),
    Theorem(number=1, title="Bayes optimality under a loss matrix: R_L(g*) <= R_L(g)",
            source="[Yan] Bayes classifier, general loss",
            make_instance=make_loss_instance, check=check_loss,
            size=lambda inst: len(inst["points"]) * len(inst["classes"]),
            describe=lambda inst: (f"points={inst['points']!r} table={inst['table']!r} "
                                   f"classes={inst['classes']!r} loss={inst['loss']!r}"),
            quick=100, default=500, full=5000),
]
