"""Tour: the pass/fail example of [Wainwright-L2], section 2.3.2.

X1 (sleep), X2 (beers) and X3 (laziness, unobserved) are iid Exp(1); a student passes
(Y = +1) iff X1 + X2 + X3 <= 7.  We see eta, the Bayes rule and the Bayes risk, then a
plug-in rule learned from data, with its excess risk against Theorem 2.2's bound.
"""

import math

from refml.tour import format_table

TITLE = "Pass/fail: the Bayes rule, the Bayes risk and a plug-in rule ([Wainwright-L2], 2.3)"
N_SIMULATION = 4000
N_MONTE_CARLO = 600


def run(lib, show):
    example = lib.PassFailExample()
    _show_eta(lib, example, show)
    _show_bayes_risk(lib, example, show)
    _show_plug_in(lib, example, show)


def _lines(show, lines):
    for line in lines:
        show("  " + line)


def _show_eta(lib, example, show):
    from refml.core.random import Generator

    show("eta(x) = P(Y = +1 | X = x) = max(0, 1 - exp(-(7 - x1 - x2)))   (eq. 2.16)")
    show(f"Bayes rule: +1 iff eta(x) >= 1/2 iff x1 + x2 <= 7 - log 2 = "
         f"{example.bayes_threshold:.4f}   (eq. 2.17)")
    show(f"Check eta against {N_SIMULATION} simulated X3 at each x (sd <= 0.008):")
    generator = Generator(2026)
    rows = []
    for x in ([1.0, 2.0], [2.5, 2.5], [3.0, 3.0], [3.0, 3.3], [3.5, 3.0], [3.0, 4.5]):
        passes = sum(1 for _ in range(N_SIMULATION)
                     if x[0] + x[1] + generator.exponential() <= 7.0)
        rule = "+1" if x[0] + x[1] <= example.bayes_threshold else "-1"
        rows.append([f"({x[0]}, {x[1]})", x[0] + x[1], example.eta(x),
                     passes / N_SIMULATION, rule])
    _lines(show, format_table(["x", "x1+x2", "eta formula", "eta simulated", "g*(x)"], rows))
    show("")


def _show_bayes_risk(lib, example, show):
    show("Bayes risk R* = e^-7 ((8 - log 2)^2 - 31.5)  (X1 + X2 ~ Gamma(2, 1); derivation "
         "in PassFailExample)")
    X, y = example.sample(20000, random_state=7)
    errors = sum(1 for x, label in zip(X.tolist() if hasattr(X, "tolist") else X, list(y))
                 if (1 if x[0] + x[1] <= example.bayes_threshold else -1) != label)
    bound = math.sqrt(math.log(2 / 0.001) / (2 * 20000))
    _lines(show, format_table(
        ["R* closed form", "errors of g* on 20000 simulated students", "+- (99.9%)"],
        [[example.bayes_risk(), errors / 20000, bound]]))
    show("The threshold rules +1 iff x1 + x2 <= tau, exact risk: tau* = 7 - log 2 is best.")
    rows = [[tau, example.threshold_risk(tau)]
            for tau in (4.0, 5.0, 6.0, example.bayes_threshold, 6.6, 7.0, 8.0)]
    _lines(show, format_table(["tau", "R(g_tau)"], rows))
    show("")


def _show_plug_in(lib, example, show):
    show("Plug-in rules (eq. 2.18): estimate eta by k-NN vote fractions from n students, then")
    show("say +1 iff eta_hat >= 1/2.  The proof of Theorem 2.2 gives the excess risk exactly,")
    show("R(g_eta_hat) - R* = E[|2 eta - 1| 1{g_eta_hat != g*}] (eq. 2.21) <= 2 E|eta - eta_hat|;")
    show(f"both expectations are averages over the same {N_MONTE_CARLO} fresh students (se: the")
    show("standard error of the excess).  Only 1.3% of students lie where g* says fail.")
    X_test, _ = example.sample(N_MONTE_CARLO, random_state=99)
    eta = [row[1] for row in example._posterior_rows(X_test)]
    rows = []
    for n in (100, 1000):
        X, y = example.sample(n, random_state=n)
        for k in (1, 5, int(math.sqrt(n))):
            rule = lib.PlugInClassifier(estimator=lib.KNeighborsClassifier(n_neighbors=k))
            eta_hat = [row[1] for row in rule.fit(X, y).predict_proba(X_test)]
            terms = [abs(2 * a - 1) if (a >= 0.5) != (b >= 0.5) else 0.0
                     for a, b in zip(eta, eta_hat)]
            excess = sum(terms) / N_MONTE_CARLO
            spread = sum((t - excess) ** 2 for t in terms) / (N_MONTE_CARLO - 1)
            gap = 2 * sum(abs(a - b) for a, b in zip(eta, eta_hat)) / N_MONTE_CARLO
            rows.append([n, k, example.bayes_risk() + excess, excess,
                         math.sqrt(spread / N_MONTE_CARLO), gap])
    _lines(show, format_table(["n", "k", "R(g_eta_hat)", "excess", "se",
                               "2 E|eta - eta_hat|"], rows))
    show("The bound always holds, but loosely: 1-NN's eta_hat is 0 or 1, and fails are so rare")
    show("that large k rarely sees a majority of them.  (risk(rule, example) gives R(g_eta_hat)")
    show("directly, by Monte Carlo with a Hoeffding bound.)")
