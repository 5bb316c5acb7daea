"""Workload ``forest`` (docs/design.md section 8): 100 trees on 20,000 x 20, 3 classes, both
cores; predict 5,000.

Data: the ``tree`` workload's distribution (Gaussian features; the class a noisy score of
two linear terms and one interaction cut at two levels), 20,000 training rows and 5,000
fresh query rows; labels 0/1/2 as int64.

scikit-learn baseline: ``RandomForestClassifier(n_estimators=100, n_jobs=2,
random_state=0)``: bootstrap samples as integer sample weights, sqrt(20) = 4 candidate
features per split, Gini, fully grown; trees fitted on two threads.
refml_fast: ``RandomForestClassifier(n_estimators=100, n_jobs=2, random_state=0)``, the same
algorithm (one presort of the training set shared by all trees, each tree on its own
thread-pool slot).  The two forests draw different random numbers, so they agree on most,
not all, query rows.
"""

import numpy as np

N_TRAIN, N_QUERY, N_FEATURES, N_TREES = 20_000, 5_000, 20, 100


def make_data(scale):
    rng = np.random.default_rng(11)
    n, m = max(100, int(N_TRAIN * scale)), max(20, int(N_QUERY * scale))

    def draw(rows):
        X = rng.normal(size=(rows, N_FEATURES))
        score = X[:, 0] - X[:, 3] + 0.5 * X[:, 1] * X[:, 2] + 0.5 * rng.normal(size=rows)
        return np.ascontiguousarray(X), np.digitize(score, [-0.5, 0.5]).astype(np.int64)

    X, y = draw(n)
    X_query, _ = draw(m)
    return {"X": X, "y": y, "X_query": X_query}


def fast(data):
    import refml_fast

    model = refml_fast.RandomForestClassifier(n_estimators=N_TREES, n_jobs=2, random_state=0)
    return model.fit(data["X"], data["y"]).predict(data["X_query"])


def sklearn(data):
    from sklearn.ensemble import RandomForestClassifier

    model = RandomForestClassifier(n_estimators=N_TREES, n_jobs=2, random_state=0)
    return model.fit(data["X"], data["y"]).predict(data["X_query"])


def refml(data):
    import refml

    model = refml.RandomForestClassifier(n_estimators=N_TREES, random_state=0)
    return model.fit(data["X"].tolist(), data["y"].tolist()).predict(data["X_query"].tolist())


WORKLOAD = {"name": "forest", "description": __doc__.splitlines()[0],
            "make_data": make_data, "fast": fast, "sklearn": sklearn, "refml": refml}
