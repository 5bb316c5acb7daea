"""docs/design.md section 8, ``adaboost``: 100 decision stumps on 50,000 x 20, two classes; predict.

Data: Gaussian features; the label is the sign of a noisy sum of three features and one
interaction, so single stumps are weak and boosting keeps finding new ones for 100 rounds.
Labels 0/1 as int64; predictions on the training rows.

scikit-learn baseline: ``AdaBoostClassifier(DecisionTreeClassifier(max_depth=1),
n_estimators=100)``.  scikit-learn 1.6+ has only its SAMME algorithm, which for two
classes is the lecture's AdaBoost (alpha = log((1 - err)/err), misses multiplied by
e^alpha); each round's stump sorts the 20 columns of all 50,000 rows again.
refml_fast: ``AdaBoostClassifier(n_estimators=100)`` (stumps by default): the columns are
sorted once and every round's stump reuses that presort.  The two agree up to stumps
that tie exactly in cost (scikit-learn visits features in a random order).
"""

import numpy as np

N_SAMPLES, N_FEATURES, N_ROUNDS = 50_000, 20, 100


def make_data(scale):
    rng = np.random.default_rng(13)
    n = max(100, int(N_SAMPLES * scale))
    X = rng.normal(size=(n, N_FEATURES))
    score = X[:, 0] + X[:, 1] - X[:, 2] + X[:, 3] * X[:, 4] + rng.normal(size=n)
    return {"X": np.ascontiguousarray(X), "y": (score > 0).astype(np.int64)}


def fast(data):
    import refml_fast

    model = refml_fast.AdaBoostClassifier(n_estimators=N_ROUNDS)
    return model.fit(data["X"], data["y"]).predict(data["X"])


def sklearn(data):
    from sklearn.ensemble import AdaBoostClassifier
    from sklearn.tree import DecisionTreeClassifier

    model = AdaBoostClassifier(DecisionTreeClassifier(max_depth=1), n_estimators=N_ROUNDS)
    return model.fit(data["X"], data["y"]).predict(data["X"])


def refml(data):
    import refml

    X, y = data["X"].tolist(), data["y"].tolist()
    return refml.AdaBoostClassifier(n_estimators=N_ROUNDS).fit(X, y).predict(X)


WORKLOAD = {"name": "adaboost", "description": __doc__.splitlines()[0],
            "make_data": make_data, "fast": fast, "sklearn": sklearn, "refml": refml}
