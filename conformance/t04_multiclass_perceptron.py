"""Item 4, beyond the lectures: the multi-class perceptron's mistake bound, and Theorem 2.3
across the calls of partial_fit.

The multi-class perceptron (``refml.perceptron.multiclass``: one vector per class; a
mistake moves the true class's vector towards x~ and the rival's away) is Theorem 2.3's
perceptron through Kesler's construction, so on data that Theta* separates with margin
delta = min_i min_{k != c_i} (theta*_{c_i} - theta*_k)'x~_i / ||Theta*||_F it makes at most
2 R^2 / delta^2 updates.  Every instance: K = 3..5 classes labelled by the argmax of a random
Theta* (with intercepts half of the time; ``make_instance``), points kept when the best
class wins by a random gap, a random order and constant step.  Checks:

- the bound for ``fit`` (and the library's ``multiclass_mistake_bound`` equal to the value
  computed here from Theta*);
- termination: with max_iter = floor(2 R^2/delta^2) + 1 passes a searching order converges
  and separates the training data;
- the bound across partial_fit: random chunks fed for as many rounds as the bound allows
  passes; the updates of all the calls together stay within the bound, for the
  multinomial rule and for the binary perceptron (K = 2, R^2/delta^2), whose proof needs
  only that every update is on a mistake.
"""

import math
import warnings

from ._harness import Theorem
from .t04_perceptron import size

SOURCE = "[Wainwright-L2] Thm 2.3 via Kesler's construction (beyond the lectures)"
ORDERS = ("cyclic", "batch", "random", "uniform")
STEPS = (1.0, 0.5, 3.0)


def dot(u, v):
    return sum(a * b for a, b in zip(u, v))


def make_instance(rng, n_classes=None):
    """K classes in d = 2..4 dimensions.  Theta* is built so that every class wins
    somewhere: theta*_k = [-||c_k||^2 / 2, c_k] for random centres c_k (the nearest-centre
    rule) with an intercept, or theta*_k = 2 u_k for random unit vectors u_k (every u_k is
    extreme among them) without.  Points are drawn around a random class's centre (or
    direction) and kept when the best class wins by the gap."""
    K = n_classes or 3 + rng.randbelow(3)
    d = 2 + rng.randbelow(3)
    fit_intercept = rng.random() < 0.5
    n = K + rng.randbelow(30)
    gap = 0.02 + 0.1 * rng.random()
    centres = []
    for _ in range(K):
        c = [rng.normal() for _ in range(d)]
        length = math.sqrt(dot(c, c))
        centres.append([2.0 * v / length for v in c] if not fit_intercept else c)
    theta = [[-0.5 * dot(c, c) if fit_intercept else 0.0] + c for c in centres]
    size = math.sqrt(sum(dot(t, t) for t in theta))
    X, codes = [], []
    for _ in range(1000 * n):
        if len(X) == n:
            break
        k = len(X) if len(X) < K else rng.randbelow(K)       # every class at least once
        x = [c + rng.normal() for c in centres[k]]
        scores = sorted(((dot(t, [1.0] + x), j) for j, t in enumerate(theta)), reverse=True)
        if scores[0][1] == k and (scores[0][0] - scores[1][0]) / size >= gap:
            X.append(x)
            codes.append(k)
    if len(X) < n:                     # two centres too close for this gap: draw again
        return make_instance(rng, n_classes)
    if not fit_intercept:
        theta = [t[1:] for t in theta]
    return {"X": X, "y": codes, "theta_star": theta, "fit_intercept": fit_intercept,
            "order": ORDERS[rng.randbelow(4)], "learning_rate": STEPS[rng.randbelow(3)],
            "seed": rng.randbelow(2 ** 31)}


def bound_from_generator(instance):
    rows = [[1.0] + x if instance["fit_intercept"] else list(x) for x in instance["X"]]
    theta = instance["theta_star"]
    R2 = max(dot(x, x) for x in rows)
    worst = min(dot(theta[c], x) - dot(theta[k], x) for x, c in zip(rows, instance["y"])
                for k in range(len(theta)) if k != c)
    delta = worst / math.sqrt(sum(dot(t, t) for t in theta))
    factor = 2.0 if len(theta) > 2 else 1.0
    if len(theta) == 2:                    # the binary perceptron's theta = theta_1 - theta_0
        w = [a - b for a, b in zip(theta[1], theta[0])]
        delta = worst / math.sqrt(dot(w, w))
    return factor * R2 / (delta * delta)


def perceptron(instance, **settings):
    import refml

    return refml.Perceptron(order=instance["order"], learning_rate=instance["learning_rate"],
                            fit_intercept=instance["fit_intercept"],
                            multi_class="multinomial", random_state=instance["seed"],
                            **settings)


def check_bound(instance):
    import refml

    bound = bound_from_generator(instance)
    library = refml.multiclass_mistake_bound(instance["X"], instance["y"],
                                             instance["theta_star"],
                                             fit_intercept=instance["fit_intercept"])
    if not math.isclose(library, bound, rel_tol=1e-9):
        return -abs(library - bound)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = perceptron(instance, tol=None, max_iter=1000).fit(instance["X"], instance["y"])
    return bound - model.n_mistakes_


def check_termination(instance):
    if instance["order"] == "uniform":
        instance = dict(instance, order=ORDERS[instance["seed"] % 3])
    model = perceptron(instance, tol=None,
                       max_iter=math.floor(bound_from_generator(instance)) + 1)
    model.fit(instance["X"], instance["y"])
    return 0.0 if model.converged_ and model.predict(instance["X"]) == instance["y"] else -1.0


def streamed_mistakes(instance):
    """Updates over random chunks, in rounds, until a whole round makes none."""
    from refml.core.random import Generator

    rng = Generator(instance["seed"])
    X, y = instance["X"], instance["y"]
    classes = sorted(set(y))
    model = perceptron(instance)
    for _ in range(math.floor(bound_from_generator(instance)) + 2):
        before = model.__dict__.get("n_mistakes_", 0)
        start = 0
        while start < len(y):
            stop = min(len(y), start + 1 + rng.randbelow(len(y)))
            model.partial_fit(X[start:stop], y[start:stop], classes=classes)
            start = stop
        if model.n_mistakes_ == before:
            break
    return model.n_mistakes_


def check_streamed_bound(instance):
    return bound_from_generator(instance) - streamed_mistakes(instance)


def make_binary_instance(rng):
    return make_instance(rng, n_classes=2)


def describe(instance):
    return (f"order={instance['order']} learning_rate={instance['learning_rate']} "
            f"fit_intercept={instance['fit_intercept']} seed={instance['seed']} "
            f"Theta*={instance['theta_star']!r} X={instance['X']!r} y={instance['y']!r}")


def _theorem(title, check, make=make_instance):
    return Theorem(number=4, title=title, source=SOURCE, make_instance=make, check=check,
                   size=size, describe=describe, quick=40, default=200, full=2000)


THEOREMS = [
    _theorem("Multi-class perceptron: mistakes <= 2R^2/delta^2", check_bound),
    _theorem("Multi-class perceptron: converges within 2R^2/delta^2 + 1 passes",
             check_termination),
    _theorem("Multi-class perceptron: the bound across partial_fit calls", check_streamed_bound),
    _theorem("Perceptron: R^2/delta^2 across partial_fit calls", check_streamed_bound,
             make=make_binary_instance),
]
