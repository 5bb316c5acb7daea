"""Workload ``qda`` (docs/design.md section 8): QuadraticDiscriminantAnalysis fit + predict,
100,000 x 50, 5 classes.

Data: five Gaussian classes, each with its own random mean and random covariance (the QDA model,
covariances A A' + I/2: well conditioned), labels 0..4 as an int64 array. Both estimators use
the per-class maximum-likelihood covariances S_k / n_k (scikit-learn 1.9 does too) and no
regularisation."""

import numpy as np

N_SAMPLES, N_FEATURES, N_CLASSES = 100_000, 50, 5


def make_data(scale):
    rng = np.random.default_rng(1)
    n = max(N_CLASSES * (N_FEATURES + 2), int(N_SAMPLES * scale))
    y = rng.integers(0, N_CLASSES, size=n).astype(np.int64)
    means = rng.normal(scale=0.5, size=(N_CLASSES, N_FEATURES))
    X = np.empty((n, N_FEATURES))
    for k in range(N_CLASSES):
        rows = np.flatnonzero(y == k)
        A = rng.normal(size=(N_FEATURES, N_FEATURES)) / np.sqrt(N_FEATURES)
        mixing = np.linalg.cholesky(A @ A.T + 0.5 * np.eye(N_FEATURES))  # eigenvalues >= 0.5
        X[rows] = means[k] + rng.normal(size=(rows.size, N_FEATURES)) @ mixing
    return {"X": X, "y": y}


def fast(data):
    import refml_fast

    model = refml_fast.QuadraticDiscriminantAnalysis()
    return model.fit(data["X"], data["y"]).predict(data["X"])


def sklearn(data):
    from sklearn.discriminant_analysis import QuadraticDiscriminantAnalysis

    model = QuadraticDiscriminantAnalysis()
    return model.fit(data["X"], data["y"]).predict(data["X"])


def refml(data):
    import refml

    X, y = data["X"].tolist(), data["y"].tolist()
    return refml.QuadraticDiscriminantAnalysis().fit(X, y).predict(X)


WORKLOAD = {"name": "qda", "description": __doc__.splitlines()[0], "make_data": make_data,
            "fast": fast, "sklearn": sklearn, "refml": refml}
