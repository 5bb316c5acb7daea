"""docs/design.md section 8, ``knn``: 5-NN, fit 20,000 x 32 (5 classes), predict 5,000 rows.

Data: five Gaussian clusters in 32 dimensions (centres N(0, I), spread 2 I: the classes
overlap, so the vote matters), labels 0..4 as int64.

scikit-learn baseline: ``KNeighborsClassifier(n_neighbors=5)`` with its default
``algorithm="auto"``, as a user would run it (with 32 features it picks brute force: a
BLAS product and a parallel heap per chunk); ``knn_brute`` forces ``algorithm="brute"``.
refml_fast: ``KNeighborsClassifier(n_neighbors=5)``, whose float32 screening is followed
by the exact float64 re-check of refml's squared distances, so its neighbours (and ties)
are exactly refml's; scikit-learn's own rounding can order two nearly equidistant rows
differently, hence an agreement a hair below 1.
"""

import numpy as np

N_TRAIN, N_QUERY, N_FEATURES, N_CLASSES, K = 20_000, 5_000, 32, 5, 5


def make_data(scale):
    rng = np.random.default_rng(5)
    n, m = max(50, int(N_TRAIN * scale)), max(10, int(N_QUERY * scale))
    centres = rng.normal(size=(N_CLASSES, N_FEATURES))
    y = rng.integers(0, N_CLASSES, size=n).astype(np.int64)
    X = centres[y] + 2.0 * rng.normal(size=(n, N_FEATURES))
    y_query = rng.integers(0, N_CLASSES, size=m)
    X_query = centres[y_query] + 2.0 * rng.normal(size=(m, N_FEATURES))
    return {"X": np.ascontiguousarray(X), "y": y, "X_query": np.ascontiguousarray(X_query)}


def fast(data):
    import refml_fast

    model = refml_fast.KNeighborsClassifier(n_neighbors=K)
    return model.fit(data["X"], data["y"]).predict(data["X_query"])


def sklearn(data, algorithm="auto"):
    from sklearn.neighbors import KNeighborsClassifier

    model = KNeighborsClassifier(n_neighbors=K, algorithm=algorithm)
    return model.fit(data["X"], data["y"]).predict(data["X_query"])


def refml(data):
    import refml

    model = refml.KNeighborsClassifier(n_neighbors=K)
    model.fit(data["X"].tolist(), data["y"].tolist())
    return model.predict(data["X_query"].tolist())


WORKLOADS = [
    {"name": "knn", "description": __doc__.splitlines()[0], "make_data": make_data,
     "fast": fast, "sklearn": sklearn, "refml": refml},
    {"name": "knn_brute", "description": "knn against algorithm='brute'",
     "make_data": make_data, "fast": fast,
     "sklearn": lambda data: sklearn(data, algorithm="brute"), "refml": refml},
]
