"""Gallery: the histogram and the KDE with their cross-validation curves, and the
density-based classifiers."""

from refml.core.random import Generator
from refml.gallery import COLOURS, WIDE, Figure, finish, regions, scatter
from refml.tour.densities import MIXTURE, N, _normal

POINTS = [i / 400 for i in range(401)]


def _sample():
    rng = Generator(3)
    x = []
    for _ in range(N):
        k = rng.choice(MIXTURE["w"])
        x.append(MIXTURE["mu"][k] + MIXTURE["s"][k] * rng.normal())
    return x


def _truth(t):
    return sum(w * _normal(t - m, s * s) for w, m, s in zip(MIXTURE["w"], MIXTURE["mu"],
                                                             MIXTURE["s"]))


def _rug(ax, x):
    ax.plot(x, [-0.15] * len(x), "|", color="black", markersize=8, alpha=0.5,
            label=f"sample, n = {len(x)}")


def histograms(plt, lib):
    x = _sample()
    figure, (left, right) = plt.subplots(1, 2, figsize=WIDE)
    for m, colour in zip((4, 12, 48), COLOURS):
        model = lib.Histogram(bins=m, range=(0, 1)).fit([[v] for v in x])
        heights = [float(v) for v in model.pdf([[(j + 0.5) / m] for j in range(m)])]
        left.stairs(heights, [j / m for j in range(m + 1)], color=colour, linewidth=2,
                    label=f"m = {m} bins (h = 1/{m})")
    left.plot(POINTS, [_truth(t) for t in POINTS], color="black", linestyle="--",
              linewidth=1.5, label="true density f")
    _rug(left, x)
    finish(left, "Histograms: few bins are biased, many are noisy", "x", "density")
    bins = list(range(2, 61))
    risks = [lib.histogram_cv_risk(x, m) for m in bins]
    best = bins[risks.index(min(risks))]
    right.plot(bins, risks, "o-", color=COLOURS[0], markersize=3,
               label=r"$\hat J(h)$, leave-one-out")
    right.axvline(best, color=COLOURS[1], linewidth=2, label=f"minimum: m = {best}")
    finish(right, "Cross-validation risk of the histogram", "number of bins m",
           r"$\hat J(h)$ (ISE minus $\int f^2$)")
    figure.suptitle(f"f = 0.6 N(0.35, 0.08^2) + 0.4 N(0.7, 0.06^2), n = {N}")
    return figure


def kde_bandwidths(plt, lib):
    x = _sample()
    rows = [[v] for v in x]
    h_cv = float(lib.KernelDensity(bandwidth="cv").fit(rows).bandwidth_cholesky_[0][0])
    h_silverman = float(lib.silverman_bandwidth(rows)[0])
    figure, (left, right) = plt.subplots(1, 2, figsize=WIDE)
    curves = [(0.008, "h = 0.008 (too small)"), (h_cv, f"h = {h_cv:.3f} (cross-validation)"),
              (h_silverman, f"h = {h_silverman:.3f} (Silverman)"), (0.12, "h = 0.12 (too large)")]
    for (h, label), colour in zip(curves, COLOURS):
        model = lib.KernelDensity(bandwidth=h).fit(rows)
        left.plot(POINTS, [float(v) for v in model.pdf([[t] for t in POINTS])], color=colour,
                  linewidth=2, label=label)
    left.plot(POINTS, [_truth(t) for t in POINTS], color="black", linestyle="--",
              linewidth=1.5, label="true density f")
    _rug(left, x)
    finish(left, "Gaussian kernel density estimates", "x", "density")
    bandwidths = [0.006 * 1.12 ** i for i in range(30)]
    right.semilogx(bandwidths, [lib.kde_cv_risk(x, h) for h in bandwidths], "o-",
                   color=COLOURS[0], markersize=3, label=r"$\hat J(h)$")
    right.axvline(h_cv, color=COLOURS[1], linewidth=2, label=f"h* by CV = {h_cv:.3f}")
    right.axvline(h_silverman, color=COLOURS[2], linewidth=2, linestyle="--",
                  label=f"Silverman = {h_silverman:.3f}")
    finish(right, "Cross-validation risk of the KDE", "bandwidth h (log scale)",
           r"$\hat J(h)$")
    figure.suptitle(f"Bandwidth choice on the same sample (n = {N}): Silverman's rule assumes "
                    "one Gaussian and oversmooths two modes")
    return figure


def density_classifiers(plt, lib):
    covariance = [[1.0, 0.8], [0.8, 1.0]]
    classes = lib.GaussianClasses(priors=[0.6, 0.4], means=[[0.0, 0.0], [1.0, -0.6]],
                                  covariances=[covariance, covariance])
    X, y = classes.sample(150, random_state=11)
    X_test, y_test = classes.sample(1000, random_state=12)
    figure, axes = plt.subplots(1, 3, figsize=(17.0, 5.4))
    models = [("kernel density classifier", lib.KernelDensityClassifier()),
              ("naive Bayes, KDE marginals", lib.NaiveBayes(marginal="kde")),
              ("Gaussian naive Bayes", lib.GaussianNB())]
    limits = (-3.2, 3.2)
    for ax, (name, model) in zip(axes, models):
        model.fit(X, y)
        regions(ax, model, limits, limits, steps=100)
        scatter(ax, X, y, classes=[0, 1], size=14)
        error = 1.0 - model.score(X_test, y_test)
        ax.set_xlim(*limits)
        ax.set_ylim(*limits)
        finish(ax, f"{name}\ntest error {error:.3f} (R* = {classes.bayes_risk():.3f})")
    figure.suptitle("Density classifiers on correlated Gaussian classes (rho = 0.8, n = 150)")
    figure.tight_layout()
    return figure


FIGURES = [
    Figure("histogram_bins", "Histograms and their cross-validation risk",
           "Left: the histogram of one sample with 4, 12 and 48 bins against the true "
           "density: bias falls and variance grows with the number of bins.  Right: the "
           "leave-one-out estimate J_hat(h) of the integrated squared error (less its "
           "constant int f^2); its minimiser picks the bins.  [Yan] histogram, MISE, "
           "cross-validation; refml.density.Histogram, histogram_cv_risk.", histograms),
    Figure("kde_bandwidths", "Kernel density estimates, the CV curve, h* and Silverman",
           "Left: Gaussian KDEs of the same sample with four bandwidths.  Right: the "
           "cross-validation risk J_hat(h), its minimiser (bandwidth='cv') and Silverman's "
           "rule of thumb, which is tuned to a single Gaussian and here smooths the two "
           "modes too much.  [Yan] KDE, optimal bandwidth, cross-validation, Silverman's "
           "rule; refml.density.KernelDensity, kde_cv_risk, silverman_bandwidth.",
           kde_bandwidths),
    Figure("density_classifiers", "The kernel density classifier and naive Bayes",
           "Decision regions on two correlated Gaussian classes.  The kernel density "
           "classifier estimates each class's joint density; naive Bayes multiplies "
           "one-dimensional marginals, as if the features were independent within a class, "
           "which bends its boundary the wrong way here.  [Yan] kernel density and naive "
           "Bayes classifiers; refml.density, refml.density.naive_bayes.", density_classifiers),
]
