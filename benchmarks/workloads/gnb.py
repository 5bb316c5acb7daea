"""docs/design.md section 8, ``gnb``: GaussianNB fit + predict, 100,000 x 50, 5 classes.

Data: five Gaussian classes with random means and random per-feature scales (the naive
Bayes model: independent features within a class), labels 0..4 as an int64 array; both
fit the data and predict the same rows.  refml_fast's GaussianNB uses scikit-learn's
variance floor (var_smoothing = 1e-9 times the largest feature variance), so the two
estimate the same model.
"""

import numpy as np

N_SAMPLES, N_FEATURES, N_CLASSES = 100_000, 50, 5


def make_data(scale):
    rng = np.random.default_rng(2)
    n = max(N_CLASSES * 10, int(N_SAMPLES * scale))
    y = rng.integers(0, N_CLASSES, size=n).astype(np.int64)
    means = rng.normal(scale=0.3, size=(N_CLASSES, N_FEATURES))
    scales = rng.uniform(0.5, 2.0, size=(N_CLASSES, N_FEATURES))
    X = means[y] + rng.normal(size=(n, N_FEATURES)) * scales[y]
    return {"X": np.ascontiguousarray(X), "y": y}


def fast(data):
    import refml_fast

    return refml_fast.GaussianNB().fit(data["X"], data["y"]).predict(data["X"])


def sklearn(data):
    from sklearn.naive_bayes import GaussianNB

    return GaussianNB().fit(data["X"], data["y"]).predict(data["X"])


def refml(data):
    import refml

    X, y = data["X"].tolist(), data["y"].tolist()
    return refml.GaussianNB().fit(X, y).predict(X)


WORKLOAD = {"name": "gnb", "description": __doc__.splitlines()[0], "make_data": make_data,
            "fast": fast, "sklearn": sklearn, "refml": refml}
