"""Gallery: the perceptron's iterates and mistakes, and five classifiers in the four
Gaussian pictures."""

import warnings

from refml.core.random import Generator
from refml.gallery import (
    COLOURS,
    WIDE,
    Figure,
    boundary,
    finish,
    nearest_neighbour_boundary,
    scatter,
)
from refml.tour.gaussian_pictures import CASES, classifiers
from refml.tour.perceptron import THETA_STAR, separable_points


def _line(ax, theta, **style):
    """The line theta_0 + theta_1 x1 + theta_2 x2 = 0 across [-1, 1]^2."""
    b, w1, w2 = (float(v) for v in theta)
    if abs(w2) >= abs(w1):
        xs = [-1.0, 1.0]
        ax.plot(xs, [-(b + w1 * x) / w2 for x in xs], **style)
    elif w1 != 0.0:
        ys = [-1.0, 1.0]
        ax.plot([-(b + w2 * y) / w1 for y in ys], ys, **style)


def perceptron(plt, lib):
    figure, (left, right) = plt.subplots(1, 2, figsize=WIDE)
    X, y = separable_points(60, 0.1, Generator(7))
    model = lib.Perceptron(order="cyclic", tol=None, store_trajectory=True).fit(X, y)
    path = [list(theta) for theta in model.trajectory_][1:]      # theta^0 = 0 is no line
    colours = plt.get_cmap("viridis")
    for t, theta in enumerate(path):
        _line(left, theta, color=colours(t / max(1, len(path) - 1)), linewidth=1, alpha=0.8)
    _line(left, path[-1], color="black", linewidth=3, label=f"final theta ({len(path)} updates)")
    _line(left, THETA_STAR, color="#D55E00", linewidth=2, linestyle="--",
          label="generating separator")
    left.plot([], [], color=colours(0.0), label=r"early iterates $\theta^t$")
    left.plot([], [], color=colours(1.0), label=r"late iterates $\theta^t$")
    scatter(left, X, y, classes=[-1, 1], names=["y = -1", "y = +1"], size=22)
    left.set_xlim(-1.05, 1.05)
    left.set_ylim(-1.05, 1.05)
    finish(left, "Cyclic perceptron: each mistake moves the line")
    gaps = [0.3, 0.2, 0.1, 0.05, 0.02]
    bounds, made = [], {"cyclic": [], "random": []}
    for gap in gaps:
        X, y = separable_points(200, gap, Generator(7))
        bounds.append(lib.mistake_bound(X, y, THETA_STAR, fit_intercept=True))
        for order in made:
            model = lib.Perceptron(order=order, tol=None, random_state=0).fit(X, y)
            made[order].append(model.n_mistakes_)
    right.loglog(gaps, bounds, "o-", color="black", linewidth=2,
                 label=r"bound $R^2/\delta^2$ (Theorem 2.3)")
    for (order, counts), colour in zip(made.items(), COLOURS):
        right.loglog(gaps, counts, "s-", color=colour, label=f"mistakes, {order} order")
    right.set_xticks(gaps)
    right.set_xticklabels([f"{gap:g}" for gap in gaps])
    right.minorticks_off()
    finish(right, "Mistakes never exceed the bound", "gap kept around the separator (log)",
           "number of mistakes (log)")
    figure.suptitle("The perceptron on separable data (200 points in $[-1, 1]^2$)")
    return figure


def gaussian_cases(plt, lib):
    figure, axes = plt.subplots(2, 2, figsize=(12.0, 10.5))
    styles = ["-", "-", "--", ":", "-"]
    for index, (ax, (name, means, covariances)) in enumerate(zip(axes.flat, CASES)):
        distribution = lib.GaussianClasses([0.5, 0.5], means, covariances, classes=[1, 2])
        X, y = distribution.sample(200, random_state=100 + index)
        columns = [[float(row[j]) for row in list(X)] for j in range(2)]
        xlim = (min(columns[0]) - 0.5, max(columns[0]) + 0.5)
        ylim = (min(columns[1]) - 0.5, max(columns[1]) + 0.5)
        scatter(ax, X, y, classes=[1, 2], names=["$C_1$", "$C_2$"], size=14)
        for (label, model), colour, style in zip(classifiers(lib), ["black"] + COLOURS[2:],
                                                 styles):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                model.fit(X, y)
            if label == "1-NN":
                nearest_neighbour_boundary(ax, lib, X, y, xlim, ylim, colour, label,
                                           style=style)
            else:
                boundary(ax, model, xlim, ylim, colour, label, steps=120, style=style)
        ax.set_xlim(*xlim)
        ax.set_ylim(*ylim)
        bayes = distribution.bayes_risk(n_samples=20_000)
        finish(ax, f"{name}: R* = {bayes:.3f}")
    figure.suptitle("Decision boundaries in the four Gaussian pictures (n = 200, equal priors)")
    figure.tight_layout()
    return figure


FIGURES = [
    Figure("perceptron_iterates", "The perceptron's iterates and its mistake bound",
           "Left: every hyperplane theta^t the cyclic perceptron passes through on 60 "
           "separable points (with bias, x~ = [1, x]), from the first mistake (dark) to the "
           "separating one (black).  Right: on 200 points kept a gap away from the "
           "generating line, the mistakes of the cyclic and random orders stay below "
           "Theorem 2.3's R^2/delta^2, which grows as the gap closes.  [Wainwright-L2] "
           "Theorem 2.3, [IML-L5] section 3; refml.perceptron.", perceptron),
    Figure("gaussian_cases", "Five classifiers in the four Gaussian pictures",
           "X | C_k ~ N(mu_k, Sigma_k) in the quadratic classifier lecture's four cases.  With "
           "equal covariances the Bayes boundary is a line and LDA, logistic regression and "
           "least squares find nearly the same one; with equal means no line separates, and "
           "only QDA and 1-NN bend around the inner class.  R* is the Bayes risk "
           "(closed form, or Monte Carlo).  [IML-L5] section 4, [Yan] LDA/QDA; "
           "refml.discriminant, refml.linear.logistic, refml.linear.least_squares, "
           "refml.neighbors.",
           gaussian_cases),
]
