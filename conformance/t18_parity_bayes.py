"""docs/design.md section 7, item 18, for the ``bayes`` and ``distributions`` modules.

* ``BayesClassifier``: each instance is a random known distribution (a finite table, half
  of the instances; Gaussian classes with K = 2..4 and d = 1..3; or the pass/fail example)
  built in both packages from the same plain data.  Both packages must agree exactly on
  ``predict`` and ``predict_proba`` (training rows, query rows, and for finite tables every
  support point plus points off the support), on ``sample(n, seed)`` (the same rows and
  labels: the same random stream) and on ``risk`` (the exact finite sum, or the same Monte
  Carlo estimate).  The slack is minus the number of disagreements.
* ``PlugInClassifier``: the generic parity harness (random data sets with duplicates, ties,
  string labels, K = 2..5) with the default 1-NN estimate or a k-NN estimator (k = 1, 2),
  comparing ``predict`` and ``predict_proba``.
"""

from ._harness import Theorem
from ._parity import parity_theorem
from .t01_bayes_optimality import random_finite_distribution


def random_gaussian(rng):
    k, d = 2 + rng.randbelow(3), 1 + rng.randbelow(3)
    weights = [0.2 + rng.random() for _ in range(k)]
    priors = [w / sum(weights) for w in weights]
    means = [[2.0 * rng.normal() for _ in range(d)] for _ in range(k)]
    covariances = []
    for _ in range(k):  # A A' + 0.1 I is positive definite
        A = [[rng.normal() for _ in range(d)] for _ in range(d)]
        covariances.append([[sum(A[i][t] * A[j][t] for t in range(d)) + (0.1 if i == j else 0.0)
                             for j in range(d)] for i in range(d)])
    classes = ["ant", "bee", "cat", "dog"][:k] if rng.random() < 0.3 else list(range(k))
    return {"priors": priors, "means": means, "covariances": covariances, "classes": classes}


def make_instance(rng):
    draw = rng.random()
    if draw < 0.5:
        return {"kind": "finite", "spec": random_finite_distribution(rng), "seed": rng.next_u64()}
    if draw < 0.85:
        return {"kind": "gaussian", "spec": random_gaussian(rng), "seed": rng.next_u64()}
    return {"kind": "pass_fail", "spec": {}, "seed": rng.next_u64()}


def build(package, instance):
    spec = instance["spec"]
    if instance["kind"] == "finite":
        return package.FiniteDistribution(spec["points"], spec["table"], spec["classes"])
    if instance["kind"] == "gaussian":
        return package.GaussianClasses(spec["priors"], spec["means"], spec["covariances"],
                                       spec["classes"])
    return package.PassFailExample()


def queries(reference, instance):
    """Training data (every class present) and query rows, as plain lists."""
    seed = instance["seed"] % (2 ** 32)
    X, y = reference.sample(20, random_state=seed)
    X += [X[0]] * len(reference.classes)
    y += list(reference.classes)
    rows = X + reference.sample(30, random_state=seed + 1)[0]
    if instance["kind"] == "finite":
        d = reference.n_features
        rows += [list(p) for p in reference.points] + [[0.5] * d, [100.0] * d]
    return X, y, rows


def count_disagreements(a, b):
    a, b = [_flat(v) for v in a], [_flat(v) for v in b]
    if len(a) != len(b):
        return abs(len(a) - len(b)) + 1
    return sum(1 for u, v in zip(a, b) if u != v)


def _flat(value):
    if hasattr(value, "tolist"):
        value = value.tolist()
    return tuple(value) if isinstance(value, (list, tuple)) else value


def check_bayes(instance):
    import refml
    import refml_fast

    reference, fast = build(refml, instance), build(refml_fast, instance)
    X, y, rows = queries(reference, instance)
    models = [lib.BayesClassifier(distribution=d).fit(X, y)
              for lib, d in ((refml, reference), (refml_fast, fast))]
    disagreements = count_disagreements(models[0].predict(rows), models[1].predict(rows))
    disagreements += count_disagreements(models[0].predict_proba(rows),
                                         models[1].predict_proba(rows))
    seed = instance["seed"] % (2 ** 32) + 2
    for sample_ref, sample_fast in zip(reference.sample(40, seed), fast.sample(40, seed)):
        disagreements += count_disagreements(sample_ref, sample_fast)
    risks = [lib.risk(model, d, n_samples=300, return_error=True)
             for lib, model, d in ((refml, models[0], reference), (refml_fast, models[1], fast))]
    disagreements += int(risks[0] != risks[1])
    return float(-disagreements)


def make_plug_in(package, rng):
    if rng.random() < 0.5:
        return package.PlugInClassifier()
    k = 1 + rng.randbelow(2)
    return package.PlugInClassifier(estimator=package.KNeighborsClassifier(n_neighbors=k))


THEOREMS = [
    Theorem(number=18, title="Parity: BayesClassifier, samplers, risk",
            source="docs/design.md section 1", make_instance=make_instance, check=check_bayes,
            size=lambda inst: len(repr(inst["spec"])),
            describe=lambda inst: f"{inst['kind']} {inst['spec']!r} seed={inst['seed']}",
            quick=100, default=300, full=3000, needs_fast=True),
    parity_theorem("PlugInClassifier", make_plug_in, extra_outputs=("predict_proba",)),
]
