"""Item 4: the perceptron's mistake bound, its termination, and the greedy-update identity.

[Wainwright-L2], Theorem 2.3 (proof eqs. 2.26-2.35) and [NN-Notes] (Novikoff's proof, "greedy
update").  Every instance is a random data set separated by a known theta* (the generating
separator) with a random gap, on augmented rows x~ = [1, x] half of the time; the perceptron
(refml, every order, a random constant step) is fitted on it, and

- mistake bound: n_mistakes_ <= R^2 / delta^2 with R = max ||x~_i|| (eq. 2.24) and
  delta = min y_i theta*'x~_i / ||theta*|| (eq. 2.25) computed here from theta*; the
  library's ``mistake_bound(X, y, theta*)`` must agree with that value;
- termination: with max_iter = floor(R^2/delta^2) + 1 passes the fit converges (a pass
  without mistake needs at most one pass per mistake plus one), and the final theta
  separates the training data; the slack is the margin of the theta found;
- greedy update: every step of the trajectory is theta^{k+1} = theta^k + gamma y_i x~_i for a
  training point i with y_i theta^k'x~_i <= 0 (a mistake), and then
  y_i theta^{k+1}'x~_i = y_i theta^k'x~_i + gamma ||x~_i||^2.

delta from the max-margin (hard-margin SVM) separator, which docs/design.md section 7,
item 4, also names, is
checked in ``t04_max_margin_bound.py``.
"""

import math
import warnings

from ._harness import Theorem

SOURCE = "[Wainwright-L2] Thm 2.3; [NN-Notes] Alg. 5, Novikoff"
ORDERS = ("cyclic", "batch", "random", "uniform")
# Termination within R^2/delta^2 + 1 passes is a theorem for the orders that look for a
# mistake before each update; "uniform" may draw a pass of correct points while mistakes
# remain, so that check redraws its order among the other three.
SEARCHING_ORDERS = ORDERS[:3]
STEPS = (1.0, 0.5, 3.0)


def separable_dataset(rng, n_max=30, d_max=4, fit_intercept=None):
    """(X, y, theta*, fit_intercept): n points at distance >= gap from theta*'x~ = 0.

    theta* = [theta_0, w] (theta_0 = 0 without intercept) has Gaussian entries; points are
    Gaussian, scaled by 2.  Half of the data sets are "easy": a point closer than the gap
    (distance (theta*'x~) / ||theta*||) is redrawn.  The other half are "hard": every point
    is moved along w to a random distance in [gap, gap + 0.3] on a random side, so that
    many points crowd the margin and the perceptron makes many mistakes.  Both classes
    appear.  Labels are -1/+1 or two strings.
    """
    if fit_intercept is None:
        fit_intercept = rng.random() < 0.5
    d = 1 + rng.randbelow(d_max)
    n = 2 + rng.randbelow(n_max - 1)
    gap = 0.05 + 0.45 * rng.random()
    hard = rng.random() < 0.5
    while True:
        theta = [0.5 * rng.normal() if fit_intercept else 0.0] + [rng.normal() for _ in range(d)]
        size = math.sqrt(sum(t * t for t in theta))
        w_squared = sum(t * t for t in theta[1:])
        X, signs = [], []
        for _ in range(50 * n):
            x = [2.0 * rng.normal() for _ in range(d)]
            f = theta[0] + sum(t * v for t, v in zip(theta[1:], x))
            if hard:  # move x along w so that theta*'x~ / ||theta*|| = distance
                distance = (gap + 0.3 * rng.random()) * (1 if rng.random() < 0.5 else -1)
                shift = (distance * size - f) / w_squared
                x = [v + shift * t for v, t in zip(x, theta[1:])]
            else:
                distance = f / size
            if abs(distance) >= gap:
                X.append(x)
                signs.append(1 if distance > 0 else -1)
            if len(X) == n:
                break
        if len(X) == n and len(set(signs)) == 2:
            break
    names = ["neg", "pos"] if rng.random() < 0.3 else [-1, 1]
    y = [names[0] if s < 0 else names[1] for s in signs]
    return X, y, theta if fit_intercept else theta[1:], fit_intercept


def make_instance(rng):
    X, y, theta_star, fit_intercept = separable_dataset(rng)
    return {"X": X, "y": y, "theta_star": theta_star, "fit_intercept": fit_intercept,
            "order": ORDERS[rng.randbelow(len(ORDERS))], "learning_rate": STEPS[rng.randbelow(3)],
            "seed": rng.randbelow(2 ** 31)}


def augmented_rows(instance):
    """x~_i (with the leading 1 when fit_intercept) and y_i in {-1, +1}."""
    X, y = instance["X"], instance["y"]
    rows = [[1.0] + x for x in X] if instance["fit_intercept"] else [list(x) for x in X]
    negative = sorted(set(y))[0]
    return rows, [-1.0 if label == negative else 1.0 for label in y]


def dot(u, v):
    return sum(a * b for a, b in zip(u, v))


def bound_from_generator(instance):
    """R^2 / delta^2 with delta the margin of the generating separator theta*."""
    rows, signs = augmented_rows(instance)
    theta = instance["theta_star"]
    R2 = max(dot(x, x) for x in rows)
    delta = min(s * dot(theta, x) for s, x in zip(signs, rows)) / math.sqrt(dot(theta, theta))
    return R2 / (delta * delta)


def fit(instance, max_iter=1000, store_trajectory=False):
    import refml

    model = refml.Perceptron(order=instance["order"], learning_rate=instance["learning_rate"],
                             fit_intercept=instance["fit_intercept"], max_iter=max_iter,
                             tol=None, random_state=instance["seed"],
                             store_trajectory=store_trajectory)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return model.fit(instance["X"], instance["y"])


def check_mistake_bound(instance):
    import refml

    bound = bound_from_generator(instance)
    library = refml.mistake_bound(instance["X"], instance["y"], instance["theta_star"],
                                  fit_intercept=instance["fit_intercept"])
    if not math.isclose(library, bound, rel_tol=1e-9):
        return -abs(library - bound)
    return bound - fit(instance).n_mistakes_


def check_termination(instance):
    if instance["order"] not in SEARCHING_ORDERS:
        instance = dict(instance, order=SEARCHING_ORDERS[instance["seed"] % 3])
    model = fit(instance, max_iter=math.floor(bound_from_generator(instance)) + 1)
    if not model.converged_ or model.predict(instance["X"]) != instance["y"]:
        return -1.0
    rows, signs = augmented_rows(instance)
    theta = ([model.intercept_] if instance["fit_intercept"] else []) + list(model.coef_)
    return min(s * dot(theta, x) for s, x in zip(signs, rows)) / math.sqrt(dot(theta, theta))


def check_greedy_update(instance):
    model = fit(instance, store_trajectory=True)
    rows, signs = augmented_rows(instance)
    gamma = instance["learning_rate"]
    path = model.trajectory_
    slack = math.inf if len(path) > 1 else -1.0
    for before, after in zip(path, path[1:]):
        change = [a - b for a, b in zip(after, before)]
        # The training point whose step gamma y_i x~_i the change is (closest to).
        residual, i = min((max(abs(c - gamma * s * v) for c, v in zip(change, x)), i)
                          for i, (s, x) in enumerate(zip(signs, rows)))
        x, s = rows[i], signs[i]
        old, new = s * dot(before, x), s * dot(after, x)
        scale = 1.0 + abs(old) + gamma * dot(x, x) + max(abs(v) for v in after)
        identity_error = abs(new - (old + gamma * dot(x, x)))
        slack = min(slack, 1e-9 * scale - residual, 1e-9 * scale - identity_error)
        if old > 0.0:  # an update on a point that was not a mistake
            slack = min(slack, -old)
    return slack


def check_proof_steps(instance):
    """Theorem 2.3's proof along every run: after t updates of step gamma from theta^0 = 0,
    (2.28) <theta*, theta^t> >= t gamma delta ||theta*|| and (2.31) ||theta^t||^2 <=
    t gamma^2 R^2 (the lecture's gamma = 1; a mistake has y <theta^t, x> <= 0, which (2.30)
    needs).  Slack: the smaller gap of the two, less 1e-9 of their scale, over every t."""
    model = fit(instance, store_trajectory=True)
    rows, signs = augmented_rows(instance)
    gamma = instance["learning_rate"]
    theta_star = instance["theta_star"]
    star_norm = math.sqrt(dot(theta_star, theta_star))
    R2 = max(dot(x, x) for x in rows)
    delta = min(s * dot(theta_star, x) for s, x in zip(signs, rows)) / star_norm
    slack = math.inf
    for t, theta in enumerate(model.trajectory_):
        progress = dot(theta_star, theta) - t * gamma * delta * star_norm            # (2.28)
        growth = t * gamma * gamma * R2 - dot(theta, theta)                           # (2.31)
        scale = 1.0 + t * gamma * (delta * star_norm + gamma * R2)
        slack = min(slack, progress + 1e-9 * scale, growth + 1e-9 * scale)
    return slack


def size(instance):
    return len(instance["X"]) * len(instance["X"][0])


def describe(instance):
    return (f"order={instance['order']} learning_rate={instance['learning_rate']} "
            f"fit_intercept={instance['fit_intercept']} seed={instance['seed']} "
            f"theta*={instance['theta_star']!r} X={instance['X']!r} y={instance['y']!r}")


def _theorem(title, check):
    return Theorem(number=4, title=title, source=SOURCE, make_instance=make_instance,
                   check=check, size=size, describe=describe, quick=60, default=300,
                   full=3000)


THEOREMS = [
    _theorem("Perceptron: mistakes <= R^2/delta^2 (generating theta*)", check_mistake_bound),
    _theorem("Perceptron: terminates within R^2/delta^2 + 1 passes", check_termination),
    _theorem("Perceptron: greedy update y theta'x grows by gamma||x||^2", check_greedy_update),
    _theorem("Perceptron: proof steps (2.28) and (2.31) along every run", check_proof_steps),
]
