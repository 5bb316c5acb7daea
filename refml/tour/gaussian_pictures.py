"""Tour: the four Gaussian pictures of [IML-L5] section 4.2, five classifiers, the Bayes risk.

Two classes C_1, C_2 in the plane with equal priors 1/2 and X | C_k ~ N(mu_k, Sigma_k), in the
lecture's four cases: equal isotropic covariance, equal covariance, equal means, unequal
covariances.  Each classifier is fitted on one sample and its error measured on a fresh
one, beside the Bayes risk R* of the case (``GaussianClasses.bayes_risk``: closed form when
Sigma_1 = Sigma_2, Monte Carlo with a Hoeffding bound otherwise).
"""

import warnings

TITLE = ("The four Gaussian pictures: LDA, QDA, logistic regression, least squares and 1-NN "
         "against the Bayes risk ([Yan], [IML-L5])")

N_TRAIN, N_TEST = 200, 2000
IDENTITY = [[1.0, 0.0], [0.0, 1.0]]
TILTED = [[2.0, 1.2], [1.2, 1.0]]

# (name, [mu_1, mu_2], [Sigma_1, Sigma_2]): [IML-L5] section 4.2, "Examples".
CASES = [
    ("equal isotropic covariance", [[0.0, 0.0], [2.0, 0.0]], [IDENTITY, IDENTITY]),
    ("equal covariance", [[0.0, 0.0], [1.5, 1.5]], [TILTED, TILTED]),
    ("equal means", [[0.0, 0.0], [0.0, 0.0]], [IDENTITY, [[4.0, 0.0], [0.0, 0.25]]]),
    ("unequal covariances", [[0.0, 0.0], [2.0, 1.0]],
     [[[1.0, 0.5], [0.5, 1.0]], [[3.0, -1.0], [-1.0, 1.0]]]),
]


def classifiers(lib):
    """(column name, a fresh estimator) for the five methods compared."""
    return [
        ("LDA", lib.LinearDiscriminantAnalysis()),
        ("QDA", lib.QuadraticDiscriminantAnalysis()),
        ("logistic", lib.LogisticRegression()),
        ("least sq.", lib.LeastSquaresClassifier()),
        ("1-NN", lib.KNeighborsClassifier(n_neighbors=1)),
    ]


def run(lib, show):
    from refml.tour import format_table

    show("Y in {C_1, C_2} with P(C_1) = P(C_2) = 1/2 and X | C_k ~ N(mu_k, Sigma_k) in R^2.")
    show(f"Each method is fitted on {N_TRAIN} draws; the error is counted on {N_TEST} fresh "
         "draws (standard error about 0.01).")
    show("")
    headers = (["picture", "Bayes risk R*", "2R*(1-R*)"]
               + [name for name, _ in classifiers(lib)])
    rows = []
    for seed, (name, means, covariances) in enumerate(CASES):
        distribution = lib.GaussianClasses([0.5, 0.5], means, covariances, classes=[1, 2])
        X, y = distribution.sample(N_TRAIN, random_state=100 + seed)
        X_test, y_test = distribution.sample(N_TEST, random_state=200 + seed)
        bayes, error = distribution.bayes_risk(return_error=True, n_samples=40_000)
        row = [name, f"{bayes:.4f}" + (f" +- {error:.3f}" if error > 0.0 else " (exact)"),
               2.0 * bayes * (1.0 - bayes)]
        for _, model in classifiers(lib):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                model.fit(X, y)
            row.append(1.0 - model.score(X_test, y_test))
        rows.append(row)
    for line in format_table(headers, rows):
        show(line)
    show("")
    show("Equal covariances: the Bayes boundary b~ - w'x + x'Mx = 0 has M = 0, a line, and the")
    show("linear rules (LDA, logistic regression, least squares) sit near R*.  Equal means: the")
    show("linear rules cannot separate the classes (about 1/2), the quadratic one can.  As n")
    show("grows, 1-NN's risk tends to a limit between R* and 2R*(1 - R*) (Cover-Hart,")
    show("[IML-L5]); at n = 200 it still pays for its variance and may exceed that limit.")
