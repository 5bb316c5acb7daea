"""Gallery: the 1-NN risk against the Bayes risk as n grows (Cover and Hart)."""

from refml.core.random import Generator
from refml.gallery import COLOURS, Figure, finish
from refml.tour.nearest_neighbors import asymptotic_nn_risk, two_class_sample, wavy_distribution

SIZES = (10, 20, 40, 80, 160, 320, 640, 1280, 2560)
REPEATS = 8


def nn_risk(plt, lib):
    distribution = wavy_distribution(lib)
    r_star = distribution.bayes_risk()
    r_inf = asymptotic_nn_risk(distribution)
    means, lows, highs = [], [], []
    for n in SIZES:
        risks = []
        for repeat in range(REPEATS):
            X, y = two_class_sample(distribution, n, Generator(1000 * n + repeat))
            risks.append(lib.risk(lib.KNeighborsClassifier(n_neighbors=1).fit(X, y),
                                  distribution))
        means.append(sum(risks) / REPEATS)
        lows.append(min(risks))
        highs.append(max(risks))
    figure, ax = plt.subplots(figsize=(9.0, 6.0))
    ax.fill_between(SIZES, lows, highs, color=COLOURS[0], alpha=0.2,
                    label=f"range over {REPEATS} samples")
    ax.plot(SIZES, means, "o-", color=COLOURS[0], linewidth=2, label="R(1-NN), mean")
    for value, label, style in ((2 * r_star * (1 - r_star), "2R*(1 - R*)", "--"),
                                (r_inf, r"$R_\infty$ = E[1 - $\sum_k$ P(k|X)$^2$]", "-."),
                                (r_star, "R* (Bayes)", "-")):
        ax.axhline(value, color="black", linestyle=style, linewidth=1.5,
                   label=f"{label} = {value:.3f}")
    ax.set_xscale("log")
    finish(ax, "1-NN risk as the sample grows: between R* and 2R*(1 - R*)",
           "training set size n (log scale)", "risk (exact, under the known distribution)")
    return figure


FIGURES = [
    Figure("nn_risk_vs_n", "The 1-NN risk against the Bayes risk",
           "Forty equally likely points on [0, 1] with eta(x) = 1/2 + 0.45 sin(6 pi x).  The "
           "exact risk of 1-NN falls as the sample covers the support and settles at "
           "R_inf = E[1 - sum_k P(k | X)^2], between the Bayes risk R* and 2R*(1 - R*) "
           "(Cover and Hart).  [IML-L5] section 5.3; refml.neighbors.KNeighborsClassifier, "
           "refml.bayes.distributions.FiniteDistribution, refml.core.metrics.risk.", nn_risk),
]
