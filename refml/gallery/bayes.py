"""Gallery: the Bayes rule of the pass/fail example, a plug-in rule, and the surrogate losses."""

import math

from refml.gallery import TALL, Figure, boundary, finish, grid, regions, scatter

LIMITS = (0.0, 8.0)


def pass_fail_bayes(plt, lib):
    example = lib.PassFailExample()
    X, y = example.sample(400, random_state=3)
    figure, ax = plt.subplots(figsize=TALL)
    xs, ys, points = grid(LIMITS, LIMITS, 120)
    eta = [example.eta(p) for p in points]
    shade = ax.contourf(xs, ys, [eta[i * 120:(i + 1) * 120] for i in range(120)],
                        levels=[i / 10 for i in range(11)], cmap="Greens", alpha=0.6)
    figure.colorbar(shade, ax=ax, label=r"$\eta(x) = P(Y = +1 \mid X = x)$")
    tau = example.bayes_threshold
    ax.plot([0.0, tau], [tau, 0.0], color="black", linewidth=2.5,
            label=r"Bayes boundary $x_1 + x_2 = 7 - \log 2$ ($\eta = 1/2$)")
    scatter(ax, X, y, classes=[-1, 1], names=["fail (Y = -1)", "pass (Y = +1)"], size=14)
    ax.set_xlim(*LIMITS)
    ax.set_ylim(*LIMITS)
    finish(ax, f"Pass/fail: the Bayes rule, R* = {example.bayes_risk():.4f}",
           "$x_1$ (hours of sleep)", "$x_2$ (beers)")
    return figure


def plug_in(plt, lib):
    from refml.tour.gaussian_pictures import CASES

    _, means, covariances = CASES[3]                        # unequal covariances
    distribution = lib.GaussianClasses([0.5, 0.5], means, covariances, classes=[1, 2])
    bayes = lib.BayesClassifier(distribution=distribution)
    figure, axes = plt.subplots(1, 3, figsize=(17.0, 5.4))
    limits = (-3.5, 5.5)
    for ax, n in zip(axes, (50, 400, 1600)):
        X, y = distribution.sample(n, random_state=n)
        k = int(math.sqrt(n))
        rule = lib.PlugInClassifier(estimator=lib.KNeighborsClassifier(n_neighbors=k)).fit(X, y)
        regions(ax, rule, limits, limits, steps=110,
                outline=("#D55E00", r"plug-in: $\hat\eta(x) = 1/2$"))
        boundary(ax, bayes, limits, limits, "black", r"Bayes rule: $\eta(x) = 1/2$",
                 steps=110, style="--")
        shown = min(n, 400)
        scatter(ax, list(X)[:shown], list(y)[:shown], classes=[1, 2], size=8,
                names=["$C_1$", "$C_2$"])
        excess = lib.risk(rule, distribution, n_samples=4000) - lib.risk(
            bayes, distribution, n_samples=4000)
        ax.set_xlim(*limits)
        ax.set_ylim(*limits)
        finish(ax, f"n = {n}: {k}-NN vote fractions\nexcess risk {excess:+.3f}")
    figure.suptitle(r"Plug-in rules $\hat g(x) = C_2$ iff $\hat\eta(x) \geq 1/2$ approach "
                    "the Bayes rule as n grows")
    figure.tight_layout()
    return figure


def losses(plt, lib):
    figure, ax = plt.subplots(figsize=TALL)
    margins = [-2.5 + 5.0 * i / 400 for i in range(401)]
    curves = [("0-1: $1\\{m \\leq 0\\}$", lib.zero_one_loss, "black"),
              ("hinge: $\\max(1 - m, 0)$", lib.hinge_loss, "#0072B2"),
              ("logistic: $\\log_2(1 + e^{-m})$", None, "#E69F00"),
              ("square: $(1 - m)^2$", lib.square_loss, "#009E73"),
              ("perceptron: $\\max(-m, 0)$", lib.perceptron_loss, "#CC79A7")]
    for label, loss, colour in curves:
        if loss is None:   # scaled by 1/log 2 so that it passes through (0, 1), as in print
            values = [float(v) / math.log(2.0) for v in lib.logistic_loss(margins)]
        else:
            values = [float(v) for v in loss(margins)]
        if loss is lib.zero_one_loss:  # two pieces: no vertical stroke at the jump
            ax.plot([m for m in margins if m <= 0.0], [v for m, v in zip(margins, values)
                                                       if m <= 0.0], color=colour,
                    linewidth=2.5, label=label)
            ax.plot([m for m in margins if m > 0.0], [v for m, v in zip(margins, values)
                                                      if m > 0.0], color=colour, linewidth=2.5)
            continue
        ax.plot(margins, values, color=colour, linewidth=2.5, label=label)
    ax.set_ylim(-0.1, 4.0)
    ax.axvline(0.0, color="grey", linewidth=0.8)
    finish(ax, "The 0-1 loss and its convex surrogates", "margin $m = y\\,f(x)$", "loss")
    return figure


FIGURES = [
    Figure("pass_fail_bayes", "The Bayes rule of the pass/fail example",
           "Students pass (Y = +1) iff X1 + X2 + X3 <= 7 with X1, X2, X3 iid Exp(1) and X3 "
           "unobserved.  The shading is eta(x) = max(0, 1 - exp(-(7 - x1 - x2))); the Bayes "
           "rule says pass where eta >= 1/2, below the line x1 + x2 = 7 - log 2, and its risk "
           "R* is the title's.  400 simulated students.  [Wainwright-L2] section 2.3; "
           "refml.bayes.PassFailExample.", pass_fail_bayes),
    Figure("plug_in_rule", "A plug-in rule against the Bayes rule",
           "Two Gaussian classes with unequal covariances, whose Bayes boundary (dashed) is "
           "a conic.  eta is estimated by the vote fractions of k = sqrt(n) nearest "
           "neighbours and thresholded at 1/2 (eq. 2.18); as n grows the plug-in boundary "
           "(solid) approaches the Bayes one and the excess risk R(g) - R* (Monte Carlo, "
           "4,000 draws each) shrinks, as Theorem 2.2 bounds it by 2 E|eta - eta_hat|.  At "
           "most 400 points are drawn.  [Wainwright-L2] Theorem 2.2; "
           "refml.bayes.PlugInClassifier, refml.bayes.BayesClassifier.", plug_in),
    Figure("surrogate_losses", "The 0-1 loss and its convex surrogates",
           "Each loss as a function of the margin m = y f(x): the perceptron, hinge (SVM), "
           "logistic and square losses replace the non-convex 0-1 loss; all but the "
           "perceptron's bound it from above (logistic in base 2).  [MATH412] 'loss "
           "comparison', [NN-notes] surrogate losses; refml.bayes.losses.", losses),
]
