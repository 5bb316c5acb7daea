"""Item 4, with the max-margin separator: the perceptron's mistakes never exceed the bound
R^2/delta^2 when delta is the largest margin any separator achieves, and that bound is the
tightest Theorem 2.3 gives.

[Wainwright-L2], Theorem 2.3 (the bound holds for every separator theta*, so for the best one)
and [Yan] ("optimal separating hyperplane").  Instances: t04_perceptron's separable
data sets (a known theta* with a gap, "easy" or crowded at the margin, rows x or x~ = [1, x]),
the perceptron (refml) in every order with a random constant step.  ``mistake_bound(X, y)``
without theta uses the hard-margin SVM through the origin on those rows
(``svm.max_margin_separator``: SMO, then the KKT equalities solved and checked exactly).

- mistakes: with max_iter = floor(B) + 1 passes, B = mistake_bound(X, y), the perceptron
  converges with n_mistakes_ <= B (slack B - n_mistakes_);
- tightest: B <= the bound from the generating theta*, from the perceptron's own final
  separator and (with a bias) from linear_separability's separator, each up to a relative
  1e-9 (slack: the smallest relative gap).
"""

import math
import warnings

from ._harness import Theorem
from .t04_perceptron import SEARCHING_ORDERS, STEPS, separable_dataset

SOURCE = "[Wainwright-L2] Thm 2.3; [Yan] max margin"


def make_instance(rng):
    X, y, theta_star, fit_intercept = separable_dataset(rng, n_max=20, d_max=3)
    return {"X": X, "y": y, "theta_star": theta_star, "fit_intercept": fit_intercept,
            "order": SEARCHING_ORDERS[rng.randbelow(3)],
            "learning_rate": STEPS[rng.randbelow(3)],
            "seed": rng.randbelow(2 ** 31)}


def fit(instance, max_iter):
    import refml

    model = refml.Perceptron(order=instance["order"], learning_rate=instance["learning_rate"],
                             fit_intercept=instance["fit_intercept"], max_iter=max_iter,
                             tol=None, random_state=instance["seed"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return model.fit(instance["X"], instance["y"])


def check_mistakes(instance):
    import refml

    bound = refml.mistake_bound(instance["X"], instance["y"],
                                fit_intercept=instance["fit_intercept"])
    model = fit(instance, math.floor(bound) + 1)
    if not model.converged_:
        return -1.0
    return bound - model.n_mistakes_


def check_tightest(instance):
    import refml

    X, y, fit_intercept = instance["X"], instance["y"], instance["fit_intercept"]
    best = refml.mistake_bound(X, y, fit_intercept=fit_intercept)
    separators = [instance["theta_star"]]
    model = fit(instance, 100_000)
    if model.converged_:
        coef = [float(v) for v in model.coef_]
        separators.append([model.intercept_] + coef if fit_intercept else coef)
    if fit_intercept:
        separators.append(list(refml.linear_separability(X, y)[1]))
    others = [refml.mistake_bound(X, y, theta, fit_intercept=fit_intercept)
              for theta in separators]
    return min((other * (1.0 + 1e-9) - best) / other for other in others)


def describe(instance):
    return (f"X={instance['X']!r} y={instance['y']!r} fit_intercept="
            f"{instance['fit_intercept']} order={instance['order']} "
            f"learning_rate={instance['learning_rate']} seed={instance['seed']}")


def theorem(title, check):
    return Theorem(number=4, title=title, source=SOURCE, make_instance=make_instance,
                   check=check, size=lambda inst: len(inst["X"]) * len(inst["X"][0]),
                   describe=describe, quick=60, default=300, full=3000)


THEOREMS = [
    theorem("Perceptron: mistakes <= R^2/delta^2 (max-margin delta)", check_mistakes),
    theorem("Perceptron: the max-margin bound is the tightest", check_tightest),
]
