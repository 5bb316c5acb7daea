"""Random shapes: cells drawn from a seed, to look for slow shapes that no grid names.

    python -m benchmarks.run --probe SEED [--cells 40] [--repeat 3] [--scale 1.0]

Each cell draws a family (k-NN, logistic regression, SVC, tree, forest, AdaBoost, LDA, QDA,
Gaussian naive Bayes, perceptron) and then its shape: n, d, the number of classes K and the
classes' spread, from ranges users meet (d from 1 to 1,000, K from 2 to 12, n from 500 to
300,000, less where a family's cost grows fast with n), and for k-NN and SVC the number of
neighbours (1 to 50) and C (0.1 to 10).  The cells run as the grid's do
(``benchmarks.run --grid``): one process, the same arrays for both sides, refml_fast first
and then scikit-learn, so each cell's refml_fast call runs right after the previous cell's
scikit-learn call, as it would in a user's script.  The same seed draws the same cells.
"""

import random

from benchmarks import grid

SPREADS = (0.3, 1.0, 2.0)


def log_uniform(rng, low, high):
    """An integer between low and high, uniform on a log scale."""
    return int(round(low * (high / low) ** rng.random()))


def knn(rng):
    d = rng.choice((1, 2, 2, 3, 4, 5, 8, 12, 20, 32, 64, 100, 256, 400, 784, 1000))
    n = log_uniform(rng, 1_000, 300_000 if d <= 8 else 50_000 if d <= 100 else 10_000)
    return grid.knn_cell(n, d, rng.randint(2, 10), max(200, n // rng.choice((2, 5, 10))),
                         spread=rng.choice(SPREADS), neighbors=rng.choice((1, 3, 5, 5, 15, 50)))


def logistic(rng):
    k = rng.choice((2, 2, 2, 3, 4, 5, 8, 10, 12))
    d = log_uniform(rng, 1, 400 if k == 2 else 100)
    return grid.logistic_cell(log_uniform(rng, 500, 200_000 if d <= 50 else 20_000), d, k)


def svc(rng):
    kernel = rng.choice(("linear", "rbf", "poly"))
    spread = rng.choice(SPREADS)
    d = log_uniform(rng, 1, 100)
    n = log_uniform(rng, 1_000, 20_000 if spread < 1.0 or kernel == "rbf" else 8_000)
    return grid.svc_cell(kernel, n, d, spread, C=rng.choice((0.1, 1.0, 1.0, 10.0)))


def blob_family(rng, index):
    """The tree, ensemble, discriminant, naive Bayes and perceptron families."""
    k = rng.randint(2, 12)
    d = log_uniform(rng, 1, 200)
    spread = rng.choice(SPREADS)
    seed = 1_000 + index
    name, estimator, sklearn_estimator, most = rng.choice([
        ("tree full", "DecisionTreeClassifier()", "DecisionTreeClassifier(random_state=0)",
         200_000),
        ("forest 50 trees", "RandomForestClassifier(n_estimators=50, n_jobs=-1, "
         "random_state=0)", None, 50_000),
        ("adaboost 50 stumps", "AdaBoostClassifier(n_estimators=50)", None, 50_000),
        ("lda", "LinearDiscriminantAnalysis()", None, 300_000),
        ("qda", "QuadraticDiscriminantAnalysis()", None, 300_000),
        ("gnb", "GaussianNB()", None, 300_000),
        ("perceptron", "Perceptron()", "Perceptron(shuffle=False)", 300_000),
    ])
    if name.startswith(("adaboost", "perceptron")):
        k = 2
    if name == "qda":
        d = min(d, 60)      # each class needs more points than features
    n = log_uniform(rng, max(500, 20 * k * d if name == "qda" else 500), most)
    label = f"{name} {n:,} x {d} K={k} spread={spread}"
    return grid.blob_cell(label, n, d, k, spread, seed, estimator, sklearn_estimator)


def cells(seed, count):
    """``count`` cells drawn from ``seed``: a third k-NN / logistic / SVC, the rest others."""
    rng = random.Random(seed)
    drawn = []
    for index in range(count):
        family = rng.choice((knn, logistic, svc, None, None))
        drawn.append(family(rng) if family else blob_family(rng, index))
    return drawn
