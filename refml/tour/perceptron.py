"""Tour: the perceptron's mistakes against Theorem 2.3, and decreasing steps without a separator.

[Wainwright-L2] (section 2.3.4, Theorem 2.3), [MATH412] ("Perceptron", fixed and decreasing steps),
[NN-Notes] (Algorithm 5, batch perceptron) and [IML-L5] (section 3, the augmented x~ = [1, x]).
"""

import math
import warnings

from refml.core.random import Generator

TITLE = ("The perceptron: mistakes against the bound R^2/delta^2 ([Wainwright-L2], [MATH412], "
         "[NN-Notes], [IML-L5])")

# The generating separator on x~ = [1, x1, x2]: the line x1 + 2 x2 = 0.3.
THETA_STAR = [-0.3, 1.0, 2.0]


def separable_points(n, gap, rng):
    """n points uniform on [-1, 1]^2, labelled by THETA_STAR, none within ``gap`` of it
    (distance measured as theta*'x~ / ||theta*||, the margin of eq. 2.25)."""
    size = math.sqrt(sum(t * t for t in THETA_STAR))
    X, y = [], []
    while len(X) < n:
        x = [2.0 * rng.random() - 1.0, 2.0 * rng.random() - 1.0]
        distance = (THETA_STAR[0] + THETA_STAR[1] * x[0] + THETA_STAR[2] * x[1]) / size
        if abs(distance) >= gap:
            X.append(x)
            y.append(1 if distance > 0 else -1)
    return X, y


def run(lib, show):
    show("A mistake is y theta'x~ <= 0 (theta^0 = 0 is wrong everywhere); each mistake adds")
    show("gamma y x~.  Theorem 2.3: with R = max ||x~_i|| and delta the margin of any separator")
    show("theta*, the perceptron makes at most R^2/delta^2 mistakes, in any order.")
    show("")
    show_orders_on_a_small_example(lib, show)
    show("")
    show_mistakes_against_the_bound(lib, show)
    show("")
    show_decreasing_steps(lib, show)


def show_orders_on_a_small_example(lib, show):
    X, y = [[1.0, 0.0], [-2.0, 1.0], [-1.0, -1.0]], [1, 1, -1]
    paths = {}
    for order in ("cyclic", "batch"):
        model = lib.Perceptron(order=order, fit_intercept=False, tol=None,
                               store_trajectory=True)
        paths[order] = [[float(v) for v in theta] for theta in model.fit(X, y).trajectory_]
    show("Three points through the origin, z_i = y_i x_i = [1,0], [-2,1], [1,1]: cyclic passes")
    show("([MATH412]) against Algorithm 5, which rescans from i = 1 after each update")
    show("([NN-Notes]).")
    length = max(len(p) for p in paths.values())
    rows = [[k] + [_vector(p[k]) if k < len(p) else "" for p in paths.values()]
            for k in range(length)]
    for line in _table(["k", "cyclic theta^k", "batch theta^k"], rows):
        show(line)


def show_mistakes_against_the_bound(lib, show):
    show("200 points on [-1, 1]^2 kept at least `gap` from the line x1 + 2 x2 = 0.3, with a")
    show("bias (x~ = [1, x]); delta is the margin of that generating line.")
    rows = []
    for gap in (0.2, 0.1, 0.05, 0.02):
        X, y = separable_points(200, gap, Generator(7))
        bound = lib.mistake_bound(X, y, THETA_STAR, fit_intercept=True)
        R = max(math.sqrt(1.0 + a * a + b * b) for a, b in X)
        delta = R / math.sqrt(bound)
        mistakes = []
        for order in ("cyclic", "batch", "random"):
            model = lib.Perceptron(order=order, tol=None, random_state=0).fit(X, y)
            mistakes.append(f"{model.n_mistakes_} ({model.n_iter_})")
        rows.append([gap, R, delta, bound] + mistakes)
    for line in _table(["gap", "R", "delta", "R^2/delta^2", "cyclic", "batch", "random"], rows):
        show(line)
    show("(mistakes, with passes in brackets; every run converged below the bound)")


def show_decreasing_steps(lib, show):
    show("Without a separator (the same 200 points, 10% of the labels flipped), constant steps")
    show("never settle; gamma_t = 1/t (sum = inf, sum of squares < inf: [MATH412]) makes")
    show("theta stabilise.  Turn = the angle theta~ turned during the last pass.")
    X, y = separable_points(200, 0.05, Generator(7))
    rng = Generator(11)
    y = [-label if rng.random() < 0.1 else label for label in y]
    rows = []
    for passes in (10, 20, 40, 80, 160):
        row = [passes]
        for schedule in ("constant", "decreasing"):
            before, model = (_fit_quietly(lib, schedule, k, X, y) for k in (passes - 1, passes))
            row += [model.score(X, y), _angle(_theta(before), _theta(model))]
        rows.append(row)
    for line in _table(["passes", "constant: accuracy", "turn (deg)",
                        "1/t: accuracy", "turn (deg)"], rows):
        show(line)


def _fit_quietly(lib, schedule, passes, X, y):
    model = lib.Perceptron(schedule=schedule, max_iter=passes, tol=None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the ConvergenceWarning is expected here
        return model.fit(X, y)


def _theta(model):
    return [model.intercept_] + [float(v) for v in model.coef_]


def _angle(u, v):
    cosine = sum(a * b for a, b in zip(u, v)) / math.sqrt(
        sum(a * a for a in u) * sum(b * b for b in v))
    return math.degrees(math.acos(max(-1.0, min(1.0, cosine))))


def _vector(theta):
    return "[" + ", ".join(f"{v:g}" for v in theta) + "]"


def _table(headers, rows):
    from refml.tour import format_table

    return format_table(headers, rows)
