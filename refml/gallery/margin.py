"""Gallery: the hard- and soft-margin SVM, its margins and support vectors."""

from refml.core.random import Generator
from refml.gallery import COLOURS, Figure, finish, grid, scatter

LIMITS = (-1.1, 1.1)


def _points(lib):
    """40 separable points in [-1, 1]^2 (the tour's), and the same with three labels
    flipped so that no line separates them."""
    from refml.tour.max_margin import separable_points

    X, y = separable_points(40, 0.15, Generator(3))
    flipped = list(y)
    for i in (0, 7, 19):
        flipped[i] = 1 - flipped[i]
    return X, y, flipped


def _panel(ax, model, X, y, title):
    xs, ys, points = grid(LIMITS, LIMITS, 80)
    f = [float(v) for v in model.decision_function(points)]
    rows = [f[i * 80:(i + 1) * 80] for i in range(80)]
    ax.contourf(xs, ys, rows, levels=[-1e300, 0.0, 1e300], colors=COLOURS[:2], alpha=0.15)
    ax.contour(xs, ys, rows, levels=[-1.0, 0.0, 1.0], colors=["grey", "black", "grey"],
               linestyles=["--", "-", "--"], linewidths=[1.5, 2.5, 1.5])
    ax.plot([], [], color="black", linewidth=2.5, label="$f(x) = 0$")
    ax.plot([], [], color="grey", linestyle="--", linewidth=1.5, label=r"margins $f = \pm 1$")
    scatter(ax, X, y, classes=[0, 1], names=["y = -1", "y = +1"], size=24)
    support = [list(map(float, X[int(i)])) for i in model.support_]
    ax.scatter([p[0] for p in support], [p[1] for p in support], s=140, facecolors="none",
               edgecolors="black", linewidths=1.5, label=f"{len(support)} support vectors",
               zorder=4)
    ax.set_xlim(*LIMITS)
    ax.set_ylim(*LIMITS)
    finish(ax, f"{title}\nmargin 1/||beta|| = {float(model.margin_):.3f}")


def svm_margins(plt, lib):
    X, y, flipped = _points(lib)
    figure, axes = plt.subplots(1, 4, figsize=(20.0, 5.6))
    _panel(axes[0], lib.SVC(C=float("inf")).fit(X, y), X, y, "hard margin (C = inf)")
    for ax, C in zip(axes[1:], (0.1, 1.0, 100.0)):
        model = lib.SVC(C=C, tol=1e-5).fit(X, flipped)
        _panel(ax, model, X, flipped, f"soft margin, C = {C:g}, 3 labels flipped")
    figure.suptitle("Maximum-margin classifiers: support vectors sit on or inside the margin")
    figure.tight_layout()
    return figure


def svm_kernels(plt, lib):
    classes = lib.GaussianClasses([0.5, 0.5], [[0.0, 0.0], [0.0, 0.0]],
                                  [[[0.15, 0.0], [0.0, 0.15]], [[1.0, 0.0], [0.0, 1.0]]])
    X, y = classes.sample(150, random_state=4)
    X = [[float(v) / 2.5 for v in row] for row in list(X)]
    y = list(y)
    figure, axes = plt.subplots(1, 3, figsize=(16.0, 5.4))
    for ax, (kernel, params) in zip(axes, [("linear", {}), ("poly", {"degree": 2}),
                                          ("rbf", {"gamma": 2.0})]):
        model = lib.SVC(kernel=kernel, C=1.0, **params).fit(X, y)
        _panel(ax, model, X, y, f"kernel = {kernel!r}, C = 1")
        ax.set_title(f"kernel = {kernel!r}, C = 1: {len(list(model.support_))} support vectors")
    figure.suptitle("Kernels: the same dual, other feature spaces (one class inside the other)")
    figure.tight_layout()
    return figure


FIGURES = [
    Figure("svm_margins", "Hard- and soft-margin SVM",
           "Left: on separable points the hard-margin SVM has the widest slab with no point "
           "inside; its support vectors (circled) lie on the margins f(x) = +-1.  Right: with "
           "three labels flipped no separator exists; the soft margin's slack costs C per "
           "unit: small C buys a wide margin with many support vectors inside it, large C a "
           "narrow one.  [Yan] optimal separating hyperplane, soft margin, KKT; refml.svm.SVC.",
           svm_margins),
    Figure("svm_kernels", "The SVM with linear, polynomial and Gaussian kernels",
           "One class inside the other: no line separates them, while the degree-2 "
           "polynomial and the rbf kernel, solving the same dual with other inner products, "
           "draw a closed boundary.  [Yan] SVM dual; refml.svm.SVC (kernel=...).",
           svm_kernels),
]
