"""Item 18 for the SVM and the separability LP: refml and refml_fast agree exactly.

SVC: on random data (duplicates, ties, one feature, string labels; conformance/_parity.py)
and on larger overlapping data (n = 150..300, where SMO shrinks: points leave the active set,
their gradient is rebuilt, and refml_fast computes rows at the active points only), with
random C (0.1, 1, 10, inf), kernel, gamma,
degree, coef0 (-1 makes poly indefinite) and tol, both packages must return the same support
set, the same alpha_i y_i, intercept, coefficients, number of SMO steps and convergence flag,
and the same predictions and decision values (bit for bit: the same float operations), on the
training rows and on fresh rows, or else raise the same error (SMO diverging with C = inf and
an indefinite kernel).  The slack is minus the number of disagreements.

linear_separability: the same answer on random data, separable data and data made
non-separable (t11_separability's instances); the separators may differ only when the float
pivoting of refml_fast ends in another optimal basis, and each must then separate exactly.
"""

import math
import warnings
from fractions import Fraction

from ._harness import Theorem
from ._parity import random_dataset

KERNELS = ("linear", "rbf", "poly")


def svc_parameters(rng):
    return {"C": (0.1, 1.0, 10.0, math.inf)[rng.randbelow(4)],
            "kernel": KERNELS[rng.randbelow(3)],
            "gamma": "scale" if rng.random() < 0.5 else 0.5,
            "degree": 1 + rng.randbelow(3),
            "coef0": (0.0, 1.0, -1.0)[rng.randbelow(3)],
            "tol": (1e-3, 1e-5)[rng.randbelow(2)],
            "max_iter": 2000}


def small_instance(rng):
    X, y, X_query = random_dataset(rng, binary=True)
    return {"X": X, "y": y, "X_query": X_query, "params": svc_parameters(rng)}


def large_instance(rng):
    n, d = 150 + rng.randbelow(151), 2 + rng.randbelow(3)
    X = [[rng.normal() for _ in range(d)] for _ in range(n)]
    noise = 0.2 + rng.random()
    y = ["yes" if x[0] + 0.5 * x[-1] + noise * rng.normal() > 0 else "no" for x in X]
    y[0], y[1] = "no", "yes"
    params = svc_parameters(rng)
    params["C"] = (0.1, 1.0, 10.0)[rng.randbelow(3)]
    params["max_iter"] = 20_000
    X_query = [[rng.normal() for _ in range(d)] for _ in range(20)]
    return {"X": X, "y": y, "X_query": X_query, "params": params}


def fit_both(instance):
    """(refml's SVC, refml_fast's) fitted on the instance, or, when fitting raises (SMO
    diverging with C = inf and an indefinite kernel), the slack: 0 for the same error in
    both packages, -1 otherwise."""
    import refml
    import refml_fast

    models, errors = [], []
    for package in (refml, refml_fast):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                models.append(package.SVC(**instance["params"]).fit(instance["X"],
                                                                    instance["y"]))
            except ValueError as error:
                errors.append(str(error))
    if errors:
        return 0.0 if len(errors) == 2 and errors[0] == errors[1] else -1.0
    return tuple(models)


def check_svc(instance):
    """The number of disagreements, negated: fitted state, predictions and decision values
    on the training rows and on fresh rows (binary models also their margin, KKT measures
    and objectives; K > 2 classes their n_support_)."""
    models = fit_both(instance)
    if not isinstance(models, tuple):
        return models                            # both raised: 0 if the same error
    reference, fast = models
    names = ("support_", "dual_coef_", "intercept_", "n_iter_", "converged_")
    if len(reference.classes_) == 2:
        names += ("margin_", "kkt_violation_", "primal_objective_", "dual_objective_")
    else:
        names += ("n_support_",)
    if instance["params"]["kernel"] == "linear":
        names += ("coef_",)
    disagreements = sum(listed(getattr(reference, name)) != listed(getattr(fast, name))
                        for name in names)
    if len(reference.classes_) == 2:
        disagreements += reference.kkt_violations_ != fast.kkt_violations_
    for rows in (instance["X"], instance["X_query"]):
        disagreements += sum(a != b for a, b in zip(listed(reference.predict(rows)),
                                                    listed(fast.predict(rows))))
        disagreements += sum(a != b for a, b in zip(listed(reference.decision_function(rows)),
                                                    listed(fast.decision_function(rows))))
    return -float(disagreements)


def multiclass_instance(rng):
    """Random data of 3 to 5 classes (one-vs-one, beyond the lectures), in both shapes."""
    X, y, X_query = random_dataset(rng, n_min=6, k_max=5)
    while len(set(y)) < 3:
        X, y, X_query = random_dataset(rng, n_min=6, k_max=5)
    params = svc_parameters(rng)
    params["C"] = (0.1, 1.0, 10.0)[rng.randbelow(3)]
    params["decision_function_shape"] = ("ovr", "ovo")[rng.randbelow(2)]
    params["break_ties"] = params["decision_function_shape"] == "ovr" and rng.random() < 0.5
    return {"X": X, "y": y, "X_query": X_query, "params": params}


def listed(value):
    if hasattr(value, "tolist"):
        value = value.tolist()
    return list(value) if isinstance(value, (list, tuple)) else [value]


def separability_instance(rng):
    from .t11_separability import make_instance

    if rng.random() < 0.4:
        X, y, _ = random_dataset(rng, binary=True)
        return {"X": X, "y": y}
    return make_instance(rng)


def check_separability(instance):
    import refml
    import refml_fast

    X, y = instance["X"], instance["y"]
    expected, w_reference = refml.linear_separability(X, y)
    found, w_fast = refml_fast.linear_separability(X, y)
    if expected != found:
        return -1.0
    if not expected:
        return 0.0 if w_fast is None else -1.0
    if listed(w_reference) == listed(w_fast):
        return 0.0
    return 0.0 if separates(X, y, w_fast) else -1.0


def separates(X, y, w):
    negative = sorted(set(y))[0]
    w = [Fraction(float(v)) for v in listed(w)]
    return all((-1 if label == negative else 1)
               * (w[0] + sum((a * Fraction(b) for a, b in zip(w[1:], x)), Fraction(0))) > 0
               for x, label in zip(X, y))


def theorem(title, make_instance, check, quick, default, full):
    return Theorem(number=18, title=f"Parity: {title}", source="docs/design.md section 1",
                   make_instance=make_instance, check=check,
                   size=lambda inst: len(inst["X"]) * len(inst["X"][0]),
                   describe=lambda inst: f"X={inst['X']!r} y={inst['y']!r} "
                                         f"params={inst.get('params')!r}",
                   quick=quick, default=default, full=full, needs_fast=True)


THEOREMS = [
    theorem("SVC, random binary data (support sets, alphas, predictions)", small_instance,
            check_svc, 100, 300, 3000),
    theorem("SVC, larger overlapping data (shrinking)", large_instance, check_svc,
            5, 20, 200),
    theorem("SVC, 3 to 5 classes by one-vs-one (support sets, alphas, votes, decisions)",
            multiclass_instance, check_svc, 30, 100, 1000),
    theorem("linear_separability (answers; separators)", separability_instance,
            check_separability, 100, 300, 3000),
]
