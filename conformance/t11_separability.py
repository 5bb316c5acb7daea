"""Item 11: LP feasible <=> the perceptron converges <=> the hard-margin SVM is feasible.

[NN-Notes] ("linearly separable data", "LP for linear classification", Novikoff's proof)
and [Yan] (Theorem 2.3 and its limitations; "SVMs for separable data: only feasible
for linearly separated data").  Three kinds of instances, all with a bias (x~ = [1, x]):

- separable by construction (a known separator with a gap, t04_perceptron's generator);
- not separable by construction: the same, on the grid of multiples of 1/64, plus the exact
  midpoint of two points of one class carrying the other label (the hulls then meet);
- random labels on random points (duplicates, ties; conformance/_parity.py): the LP decides.
  Those whose Theorem 2.3 bound (below) exceeds 5,000 mistakes are redrawn, so that the
  perceptron's pass cap stays small.

Checks (refml throughout):

- the LP: its answer matches the construction where that is known, and its separator w has
  y_i w'x~_i > 0 for every i exactly (in rationals) and >= 1 up to the rounding of w;
- the perceptron (cyclic, fit_intercept): on LP-feasible data it converges within
  floor(R^2 / delta^2) + 1 passes, delta the margin of the LP's own separator (Theorem 2.3:
  at most that many mistakes, and every pass before the last has one); on LP-infeasible data
  it does not converge in 50 passes (it never can: converging means finding a separator);
- the hard-margin SVM (C = inf, tol = 1e-3): on LP-feasible data SMO converges (within
  100,000 steps) and its hyperplane has y_i f(x_i) >= 1 - tol > 0, a separator; on
  LP-infeasible data it does not converge in 3,000 steps.  (Converging with tol < 1 would
  exhibit a separator, so this direction is a theorem; the other is SMO's convergence.)
"""

import math
import warnings
from fractions import Fraction

from ._harness import Theorem
from ._parity import random_dataset
from .t04_perceptron import separable_dataset

SOURCE = "[NN-Notes] LP, Novikoff; [Yan] SVM"
BOUND_LIMIT = 5000
SVM_TOL = 1e-3


def make_instance(rng):
    import refml

    kind = ("separable", "not separable", "random")[rng.randbelow(3)]
    if kind == "random":
        while True:
            X, y, _ = random_dataset(rng, n_max=16, d_max=3, binary=True)
            separable, w = refml.linear_separability(X, y)
            if not separable or perceptron_bound(X, y, w) <= BOUND_LIMIT:
                return {"kind": kind, "X": X, "y": y, "truth": None}
    X, y, _, _ = separable_dataset(rng, n_max=16, d_max=3, fit_intercept=True)
    if kind == "separable":
        return {"kind": kind, "X": X, "y": y, "truth": True}
    X = [[round(v * 64) / 64 for v in x] for x in X]
    classes = sorted(set(y))
    first = classes[rng.randbelow(2)]
    members = [x for x, label in zip(X, y) if label == first]
    a, b = members[rng.randbelow(len(members))], members[rng.randbelow(len(members))]
    X.append([(u + v) / 2 for u, v in zip(a, b)])
    y.append(classes[1] if first == classes[0] else classes[0])
    return {"kind": kind, "X": X, "y": y, "truth": False}


def signs_of(y):
    negative = sorted(set(y))[0]
    return [-1 if label == negative else 1 for label in y]


def perceptron_bound(X, y, w):
    """R^2 / delta^2 on x~ = [1, x] with delta the margin of w ([Wainwright-L2], Theorem 2.3)."""
    import refml

    return refml.mistake_bound(X, y, theta=list(w), fit_intercept=True)


def check_lp(instance):
    import refml

    X, y = instance["X"], instance["y"]
    separable, w = refml.linear_separability(X, y)
    if instance["truth"] is not None and separable != instance["truth"]:
        return -1.0
    if not separable:
        return 0.0 if w is None else -1.0
    exact = [Fraction(v) for v in w]
    margins = [s * (exact[0] + sum((wj * Fraction(xj) for wj, xj in zip(exact[1:], x)),
                                   Fraction(0)))
               for s, x in zip(signs_of(y), X)]
    if not min(margins) > 0:
        return -1.0
    return float(min(margins)) - (1.0 - 1e-9)


def check_perceptron(instance):
    import refml

    X, y = instance["X"], instance["y"]
    separable, w = refml.linear_separability(X, y)
    cap = math.floor(perceptron_bound(X, y, w)) + 1 if separable else 50
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = refml.Perceptron(fit_intercept=True, max_iter=cap, tol=None).fit(X, y)
    return 0.0 if model.converged_ == separable else -1.0


def check_hard_margin_svm(instance):
    import refml

    X, y = instance["X"], instance["y"]
    separable, _ = refml.linear_separability(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = refml.SVC(C=math.inf, tol=SVM_TOL,
                          max_iter=100_000 if separable else 3_000).fit(X, y)
    if model.converged_ != separable:
        return -1.0
    if not separable:
        return 0.0
    functional = [s * f for s, f in zip(signs_of(y), model.decision_function(X))]
    return min(functional) - (1.0 - SVM_TOL) + 1e-9


def describe(instance):
    return f"kind={instance['kind']} X={instance['X']!r} y={instance['y']!r}"


def theorem(title, check, quick):
    return Theorem(number=11, title=title, source=SOURCE, make_instance=make_instance,
                   check=check, size=lambda inst: len(inst["X"]) * len(inst["X"][0]),
                   describe=describe, quick=quick, default=300, full=3000)


THEOREMS = [
    theorem("Separability: the LP decides exactly, its w separates", check_lp, 100),
    theorem("Separability: LP feasible <=> perceptron converges", check_perceptron, 100),
    theorem("Separability: LP feasible <=> hard-margin SVM feasible", check_hard_margin_svm, 60),
]
