"""Workload ``tree`` (docs/design.md section 8): a depth-10 Gini tree on 100,000 x 20,
3 classes, then predict.

Data: Gaussian features; the class is a noisy score (two linear terms, one interaction)
cut at two levels, so the tree keeps finding useful splits down to depth 10 and almost all
values are distinct (the search visits every boundary).  Labels 0/1/2 as int64.

scikit-learn baseline: ``DecisionTreeClassifier(max_depth=10, random_state=0)`` (Gini,
min_samples_split=2, all features: the same greedy search; scikit-learn sorts the rows of
every node again, refml_fast sorts each feature once and partitions stably).  The two
trees agree up to scikit-learn's random order of features on exact cost ties.
refml_fast: ``DecisionTreeClassifier(max_depth=10)``, one core (the kernels are serial, so
a forest can run trees on both cores without nesting thread pools).  Both predict the
training rows.
"""

import numpy as np

N_SAMPLES, N_FEATURES, MAX_DEPTH = 100_000, 20, 10


def make_data(scale):
    rng = np.random.default_rng(3)
    n = max(100, int(N_SAMPLES * scale))
    X = rng.normal(size=(n, N_FEATURES))
    score = X[:, 0] - X[:, 3] + 0.5 * X[:, 1] * X[:, 2] + 0.5 * rng.normal(size=n)
    y = np.digitize(score, [-0.5, 0.5]).astype(np.int64)
    return {"X": np.ascontiguousarray(X), "y": y}


def fast(data):
    import refml_fast

    model = refml_fast.DecisionTreeClassifier(max_depth=MAX_DEPTH).fit(data["X"], data["y"])
    return model.predict(data["X"])


def sklearn(data):
    from sklearn.tree import DecisionTreeClassifier

    model = DecisionTreeClassifier(max_depth=MAX_DEPTH, random_state=0)
    return model.fit(data["X"], data["y"]).predict(data["X"])


def refml(data):
    import refml

    X, y = data["X"].tolist(), data["y"].tolist()
    return refml.DecisionTreeClassifier(max_depth=MAX_DEPTH).fit(X, y).predict(X)


WORKLOAD = {"name": "tree", "description": __doc__.splitlines()[0],
            "make_data": make_data, "fast": fast, "sklearn": sklearn, "refml": refml}
