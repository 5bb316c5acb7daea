"""The shape grid: refml_fast against scikit-learn away from the twelve workloads.

    python -m benchmarks.run --grid [--other] [--repeat 3] [--scale 1.0] [CELL ...]

Each cell is one estimator on one synthetic data set, fitted and then predicting: k-NN
from 2 to 500 features, logistic regression from 2 to 10 classes and up to 500 features,
SVC with linear, rbf and poly kernels on overlapping and on separated classes, fully grown
trees, a forest, boosting, and the Gaussian classifiers, with n from 1,000 to 1,000,000.
``--other`` runs a second grid of 43 shapes that are in neither the first nor the workloads.
The rules are ``benchmarks.run``'s: one process, the same arrays for every side, the first
call (compilation) reported apart from the median of the later calls.

When scikit-learn-intelex is installed, its patched estimators give a third column
(``sklearnex``): the same scikit-learn API, run by oneDAL.
"""

import numpy as np


def blobs(n, d, k, spread, seed, queries=0):
    """k Gaussian classes in d dimensions: centres N(0, I), each point centre + spread N(0, I).
    spread 0.3 separates the classes well, 2.0 makes them overlap."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(k, d)) * (1.0 if d < 10 else 3.0 / np.sqrt(d))
    y = rng.integers(0, k, size=n + queries).astype(np.int64)
    X = centres[y] + spread * (1.0 if d < 10 else 3.0 / np.sqrt(d)) * rng.normal(
        size=(n + queries, d))
    data = {"X": np.ascontiguousarray(X[:n]), "y": y[:n]}
    data["X_query"] = np.ascontiguousarray(X[n:]) if queries else data["X"]
    return data


def logistic_data(n, d, k, seed):
    """Labels drawn from a multinomial logistic model (classes overlap; the MLE exists)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    W = rng.normal(size=(d, k)) * (2.0 / np.sqrt(d))
    Z = X @ W
    P = np.exp(Z - Z.max(axis=1, keepdims=True))
    P /= P.sum(axis=1, keepdims=True)
    y = (P.cumsum(axis=1) < rng.random((n, 1))).sum(axis=1).astype(np.int64)
    return {"X": np.ascontiguousarray(X), "y": np.minimum(y, k - 1), "X_query": X}


def no_penalty():
    import sklearn

    major, minor = (int(part) for part in sklearn.__version__.split(".")[:2])
    return {"C": np.inf} if (major, minor) >= (1, 8) else {"penalty": None}


def cell(name, make, fast, sklearn):
    return {"name": name, "make_data": make, "fast": fast, "sklearn": sklearn}


def scaled(n, scale, least=200):
    return max(least, int(n * scale))


def knn_cell(n, d, k, queries, spread=1.0, neighbors=5):
    def make(scale):
        return blobs(scaled(n, scale), d, k, spread, seed=d + k, queries=scaled(queries, scale,
                                                                                  50))

    def fast(data, lib):
        model = lib.KNeighborsClassifier(n_neighbors=neighbors)
        return model.fit(data["X"], data["y"]).predict(data["X_query"])

    def sklearn(data, lib):
        model = lib["KNeighborsClassifier"](n_neighbors=neighbors)
        return model.fit(data["X"], data["y"]).predict(data["X_query"])

    label = "" if neighbors == 5 else f" k={neighbors}"
    return cell(f"knn d={d} n={n:,} K={k}{label}", make, fast, sklearn)


def logistic_cell(n, d, k):
    def make(scale):
        return logistic_data(scaled(n, scale), d, k, seed=n + d + k)

    def fast(data, lib):
        return lib.LogisticRegression(tol=1e-4).fit(data["X"], data["y"]).predict(data["X"])

    def sklearn(data, lib):
        model = lib["LogisticRegression"](tol=1e-4, max_iter=10_000, **no_penalty())
        return model.fit(data["X"], data["y"]).predict(data["X"])

    return cell(f"logistic {n:,} x {d} K={k}", make, fast, sklearn)


def svc_cell(kernel, n, d, spread, C=1.0, k=2):
    label = ("separated" if spread < 1.0 else "overlapping") + ("" if C == 1.0 else f" C={C:g}")
    label += "" if k == 2 else f" K={k}"

    def make(scale):
        return blobs(scaled(n, scale), d, k, spread, seed=n + d + (0 if k == 2 else k))

    def fast(data, lib):
        return lib.SVC(kernel=kernel, C=C).fit(data["X"], data["y"]).predict(data["X"])

    def sklearn(data, lib):
        return lib["SVC"](kernel=kernel, C=C).fit(data["X"], data["y"]).predict(data["X"])

    return cell(f"svc {kernel} {label} n={n:,} d={d}", make, fast, sklearn)


def estimator_cell(name, make, fast_source, sklearn_source):
    """A cell whose two estimators are written out as source (``lib.X(...)`` / ``X(...)``)."""
    def fast(data, lib):
        model = eval(fast_source, {"lib": lib})
        return model.fit(data["X"], data["y"]).predict(data["X_query"])

    def sklearn(data, lib):
        model = eval(sklearn_source, dict(lib))
        return model.fit(data["X"], data["y"]).predict(data["X_query"])

    return cell(name, make, fast, sklearn)


def stream_cell(name, n, d, k, spread, seed, fast_source, sklearn_source, chunks=100):
    """partial_fit over ``chunks`` consecutive chunks of ``blobs(n, d, k)``, then predict:
    learning from data that arrive in pieces (``classes=`` on every call, as a stream's
    loop passes it)."""
    def make(scale):
        return blobs(scaled(n, scale, least=20 * chunks), d, k, spread, seed=seed)

    def learn(model, data):
        X, y = data["X"], data["y"]
        classes = np.arange(k)
        bounds = np.linspace(0, X.shape[0], chunks + 1).astype(np.int64)
        for a, b in zip(bounds, bounds[1:]):
            model.partial_fit(X[a:b], y[a:b], classes=classes)
        return model.predict(data["X_query"])

    def fast(data, lib):
        return learn(eval(fast_source, {"lib": lib}), data)

    def sklearn(data, lib):
        return learn(eval(sklearn_source, dict(lib)), data)

    return cell(name, make, fast, sklearn)


def blob_cell(name, n, d, k, spread, seed, estimator, sklearn_estimator=None):
    """An estimator cell on ``blobs(n, d, k, spread, seed)``: refml_fast's ``estimator``
    (source such as "GaussianNB()") against scikit-learn's ``sklearn_estimator`` (the same
    source when not given)."""
    return estimator_cell(name, lambda s: blobs(scaled(n, s), d, k, spread, seed=seed),
                          f"lib.{estimator}", sklearn_estimator or estimator)

def cells():
    grid = [
        knn_cell(10_000, 2, 2, 10_000),
        knn_cell(100_000, 2, 3, 20_000),
        knn_cell(1_000_000, 3, 2, 10_000),
        knn_cell(50_000, 8, 5, 10_000),
        knn_cell(20_000, 50, 10, 5_000, spread=2.0),
        knn_cell(5_000, 500, 3, 2_000, spread=2.0),
        logistic_cell(1_000, 2, 2),
        logistic_cell(100_000, 20, 5),
        logistic_cell(30_000, 50, 10),
        logistic_cell(10_000, 500, 2),
        logistic_cell(1_000_000, 10, 2),
        svc_cell("linear", 1_000, 2, 0.3),
        svc_cell("linear", 2_000, 10, 2.0),
        svc_cell("linear", 10_000, 20, 2.0),
        svc_cell("rbf", 2_000, 10, 2.0),
        svc_cell("rbf", 10_000, 20, 2.0),
        svc_cell("rbf", 20_000, 2, 0.3),
        svc_cell("poly", 3_000, 5, 2.0),
        svc_cell("poly", 5_000, 2, 0.3),
        # more than two classes: one-vs-one, iris-sized to 20,000 x 50 with 10 classes
        svc_cell("rbf", 150, 4, 1.0, k=3),
        svc_cell("linear", 150, 4, 1.0, k=3),
        svc_cell("rbf", 2_000, 20, 1.0, k=10),
        svc_cell("linear", 2_000, 20, 1.0, k=10),
        svc_cell("rbf", 20_000, 50, 1.0, k=10),
        svc_cell("linear", 20_000, 50, 0.5, k=10),
    ]
    tree = ("DecisionTreeClassifier()", "DecisionTreeClassifier(random_state=0)")
    grid += [
        blob_cell("tree full 100,000 x 10 K=2", 100_000, 10, 2, 2.0, 1, *tree),
        blob_cell("tree full 20,000 x 200 K=10", 20_000, 200, 10, 2.0, 2, *tree),
        blob_cell("forest 100 trees 50,000 x 20 K=3", 50_000, 20, 3, 2.0, 3,
                  "RandomForestClassifier(n_jobs=-1, random_state=0)"),
        blob_cell("adaboost 100 stumps 20,000 x 100", 20_000, 100, 2, 2.0, 4,
                  "AdaBoostClassifier(n_estimators=100)"),
        blob_cell("lda 1,000,000 x 10 K=3", 1_000_000, 10, 3, 2.0, 5,
                  "LinearDiscriminantAnalysis()"),
        blob_cell("qda 100,000 x 50 K=10", 100_000, 50, 10, 2.0, 6,
                  "QuadraticDiscriminantAnalysis()"),
        blob_cell("gnb 1,000,000 x 100 K=10", 1_000_000, 100, 10, 2.0, 7, "GaussianNB()"),
        blob_cell("perceptron separated 100,000 x 20", 100_000, 20, 2, 0.3, 8, "Perceptron()",
                  "Perceptron(shuffle=False)"),
        # learning in 100 chunks (partial_fit), against scikit-learn's partial_fit
        stream_cell("stream gnb 1,000,000 x 20 K=5", 1_000_000, 20, 5, 2.0, 9,
                    "lib.GaussianNB()", "GaussianNB()"),
        stream_cell("stream perceptron 200,000 x 20 K=3", 200_000, 20, 3, 1.0, 10,
                    "lib.Perceptron()", "SGDClassifier(loss='perceptron', learning_rate="
                    "'constant', eta0=1.0, penalty=None, shuffle=False)"),
        stream_cell("stream logistic sgd 200,000 x 20 K=3", 200_000, 20, 3, 1.0, 11,
                    "lib.LogisticRegression(solver='sgd', random_state=0)",
                    "SGDClassifier(loss='log_loss', random_state=0)"),
    ]
    return grid


def forest(trees, more=""):
    """The source of a forest of ``trees`` trees on every core (``more``: other arguments)."""
    return f"RandomForestClassifier(n_estimators={trees}, n_jobs=-1, random_state=0{more})"


def other_cells():
    """A second grid of 43 shapes, none of them in ``cells()``, to check that the first is
    not the only place refml_fast is fast (``--grid --other``)."""
    tree = ("DecisionTreeClassifier()", "DecisionTreeClassifier(random_state=0)")

    return [
        knn_cell(5_000, 2, 2, 5_000), knn_cell(50_000, 4, 5, 10_000),
        knn_cell(20_000, 16, 3, 5_000), knn_cell(200_000, 2, 10, 20_000),
        knn_cell(10_000, 100, 5, 2_000, spread=2.0), knn_cell(2_000, 300, 2, 1_000, spread=2.0),
        knn_cell(30_000, 30, 10, 5_000, spread=2.0),
        logistic_cell(5_000, 10, 2), logistic_cell(50_000, 100, 3), logistic_cell(20_000, 5, 10),
        logistic_cell(200_000, 50, 2), logistic_cell(3_000, 200, 5), logistic_cell(100_000, 2, 3),
        svc_cell("linear", 5_000, 50, 2.0), svc_cell("poly", 10_000, 3, 2.0),
        svc_cell("rbf", 5_000, 100, 2.0), svc_cell("rbf", 1_000, 2, 2.0),
        svc_cell("linear", 20_000, 2, 0.3), svc_cell("poly", 2_000, 20, 0.3),
        svc_cell("rbf", 15_000, 8, 0.3),
        blob_cell("tree full 50,000 x 50 K=5", 50_000, 50, 5, 2.0, 11, *tree),
        blob_cell("tree full 5,000 x 2 K=2", 5_000, 2, 2, 1.0, 12, *tree),
        blob_cell("tree full 200,000 x 5 K=3", 200_000, 5, 3, 1.0, 13, *tree),
        blob_cell("forest 100 trees 10,000 x 50 K=2", 10_000, 50, 2, 2.0, 14, forest(100)),
        blob_cell("forest 100 trees 100,000 x 5 K=5", 100_000, 5, 5, 1.0, 15, forest(100)),
        blob_cell("forest 50 trees 2,000 x 10 K=2", 2_000, 10, 2, 1.0, 16, forest(50)),
        blob_cell("adaboost 50 stumps 50,000 x 10", 50_000, 10, 2, 2.0, 17,
                  "AdaBoostClassifier(n_estimators=50)"),
        blob_cell("adaboost 200 stumps 2,000 x 5", 2_000, 5, 2, 2.0, 18,
                  "AdaBoostClassifier(n_estimators=200)"),
        blob_cell("lda 100,000 x 100 K=5", 100_000, 100, 5, 2.0, 19,
                  "LinearDiscriminantAnalysis()"),
        blob_cell("lda 2,000 x 5 K=2", 2_000, 5, 2, 2.0, 23, "LinearDiscriminantAnalysis()"),
        blob_cell("qda 20,000 x 10 K=3", 20_000, 10, 3, 2.0, 20,
                  "QuadraticDiscriminantAnalysis()"),
        blob_cell("gnb 100,000 x 20 K=2", 100_000, 20, 2, 2.0, 21, "GaussianNB()"),
        blob_cell("gnb 1,000 x 3 K=2", 1_000, 3, 2, 2.0, 24, "GaussianNB()"),
        blob_cell("perceptron separated 10,000 x 100", 10_000, 100, 2, 0.3, 22, "Perceptron()",
                  "Perceptron(shuffle=False)"),
        # Overlapping classes: no pass is free of mistakes.  Both stop early by default
        # (tol=1e-3, 5 passes without improvement); the second cell runs 10 passes on both.
        blob_cell("perceptron overlapping 50,000 x 10, defaults", 50_000, 10, 2, 2.0, 38,
                  "Perceptron()", "Perceptron(shuffle=False)"),
        blob_cell("perceptron overlapping 50,000 x 10, 10 passes", 50_000, 10, 2, 2.0, 38,
                  "Perceptron(max_iter=10, tol=None)",
                  "Perceptron(max_iter=10, tol=None, shuffle=False)"),
        # Shapes found by probing on 2026-11-24 (before that day's changes: 1.0-1.2).
        knn_cell(10_000, 784, 10, 1_000, spread=2.0), knn_cell(5_000, 1_000, 2, 500, spread=2.0),
        blob_cell("forest 100 trees 2,000 x 64 K=10", 2_000, 64, 10, 2.0, 39, forest(100)),
        blob_cell("forest 50 trees 5,000 x 500 K=2", 5_000, 500, 2, 2.0, 40, forest(50)),
        blob_cell("tree full 10,000 x 64 K=10", 10_000, 64, 10, 2.0, 41, *tree),
        svc_cell("linear", 1_000, 5, 2.0),
        # Found on 2026-11-28: at 7 features "auto" took the brute force whatever n (1.21 at
        # 300,000 rows with 150,000 queries); now the k-d tree from 33,000 rows on (k = 1).
        knn_cell(200_000, 7, 5, 50_000, spread=2.0, neighbors=1),
    ]


def onedal_cells():
    """The six shapes where scikit-learn-intelex (oneDAL) was ahead of refml_fast when issue
    39 was filed (``--grid --onedal``), more of each family around them, shapes that
    probes found at par or behind since, and the forests again with refml_fast's
    histogram trees."""
    return [
        svc_cell("linear", 20_000, 50, 2.0),
        svc_cell("rbf", 5_000, 50, 2.0, C=10.0),
        svc_cell("rbf", 30_000, 3, 2.0),
        svc_cell("poly", 10_000, 10, 2.0, C=0.1),
        svc_cell("rbf", 20_000, 5, 1.0, C=100.0),
        # 1.00 against intelex on 2026-12-01 (402,676 SMO steps)
        svc_cell("rbf", 15_000, 8, 2.0, C=100.0),
        knn_cell(300_000, 4, 3, 20_000, neighbors=10),
        knn_cell(100_000, 6, 3, 20_000, spread=2.0),
        knn_cell(50_000, 8, 5, 10_000),
        # as many queries as rows, k = 1: 1.04-1.22 against intelex on 2026-12-01
        knn_cell(50_000, 3, 3, 50_000, neighbors=1),
        blob_cell("forest 300 trees 20,000 x 50 K=2", 20_000, 50, 2, 2.0, 50, forest(300)),
        blob_cell("forest 50 trees 200,000 x 10 K=5", 200_000, 10, 5, 2.0, 51, forest(50)),
        blob_cell("forest 100 trees 50,000 x 20 K=3", 50_000, 20, 3, 2.0, 3, forest(100)),
        # larger X than the cache: 1.14 and 1.17 against intelex on 2026-12-01
        blob_cell("forest 50 trees 100,000 x 50 K=2", 100_000, 50, 2, 2.0, 53, forest(50)),
        blob_cell("forest 20 trees 50,000 x 200 K=2", 50_000, 200, 2, 2.0, 54, forest(20)),
        # one feature (1.17 against intelex on 2026-12-01), and small trees (0.72-1.32)
        blob_cell("forest 50 trees 10,031 x 1 K=3", 10_031, 1, 3, 0.3, 110, forest(50)),
        blob_cell("forest 100 trees 1,000 x 10 K=2", 1_000, 10, 2, 1.0, 100, forest(100)),
        # six classes, before their trees had bucket bounds: 1.04-1.05 on 2026-12-01
        blob_cell("forest 100 trees 30,000 x 30 K=6", 30_000, 30, 6, 1.0, 72, forest(100)),
        # as users write it: n_jobs left at None (refml_fast and oneDAL: every core;
        # scikit-learn: one)
        blob_cell("forest 100 trees 20,000 x 50 K=3 default n_jobs", 20_000, 50, 3, 2.0, 52,
                  "RandomForestClassifier(n_estimators=100, random_state=0)"),
        # refml_fast's histogram trees (max_bins, opt-in) against oneDAL's, which bin by
        # default (256 bins); scikit-learn's exact forest for reference
        blob_cell("forest 300 trees 20,000 x 50 K=2 max_bins=256", 20_000, 50, 2, 2.0, 50,
                  forest(300, ", max_bins=256"), forest(300)),
        blob_cell("forest 50 trees 200,000 x 10 K=5 max_bins=256", 200_000, 10, 5, 2.0, 51,
                  forest(50, ", max_bins=256"), forest(50)),
        blob_cell("forest 100 trees 50,000 x 20 K=3 max_bins=256", 50_000, 20, 3, 2.0, 3,
                  forest(100, ", max_bins=256"), forest(100)),
    ]


SKLEARN_NAMES = {
    "KNeighborsClassifier": "sklearn.neighbors", "LogisticRegression": "sklearn.linear_model",
    "SVC": "sklearn.svm", "DecisionTreeClassifier": "sklearn.tree",
    "RandomForestClassifier": "sklearn.ensemble", "AdaBoostClassifier": "sklearn.ensemble",
    "LinearDiscriminantAnalysis": "sklearn.discriminant_analysis",
    "QuadraticDiscriminantAnalysis": "sklearn.discriminant_analysis",
    "GaussianNB": "sklearn.naive_bayes", "Perceptron": "sklearn.linear_model",
    "SGDClassifier": "sklearn.linear_model"}


def sklearn_classes(intelex=False):
    """name -> class, from scikit-learn or (intelex=True) from sklearnex's patched modules."""
    import importlib

    classes = {}
    for name, module in SKLEARN_NAMES.items():
        if intelex:
            try:
                module = module.replace("sklearn.", "sklearnex.")
                classes[name] = getattr(importlib.import_module(module), name)
                continue
            except (ImportError, AttributeError):
                module = SKLEARN_NAMES[name]  # not accelerated: scikit-learn's own
        classes[name] = getattr(importlib.import_module(module), name)
    return classes
