"""Workload ``lda`` (docs/design.md section 8): LinearDiscriminantAnalysis fit + predict,
100,000 x 50, 5 classes.

Data: five Gaussian classes with random means and one shared random covariance (the LDA
model), labels 0..4 as an int64 array.

scikit-learn baseline: ``solver="lsqr"``.  It estimates the same model as refml's
``covariance="mle"`` (the within-class covariance sum_k S_k / N, coefficients
Sigma^{-1} mu_k by a least-squares solve, no dimension reduction), so the two predict
the same labels and the timing compares like with like; it is also the faster of
scikit-learn's solvers here (the default "svd" solver first takes an SVD of the centred
data and projects onto at most K - 1 directions: about 2.5 times slower on this workload
on the development machine), so it is the harder target.
"""

import numpy as np

N_SAMPLES, N_FEATURES, N_CLASSES = 100_000, 50, 5


def make_data(scale):
    rng = np.random.default_rng(0)
    n = max(N_CLASSES * 10, int(N_SAMPLES * scale))
    y = rng.integers(0, N_CLASSES, size=n).astype(np.int64)
    means = rng.normal(scale=0.5, size=(N_CLASSES, N_FEATURES))
    mixing = rng.normal(size=(N_FEATURES, N_FEATURES)) / np.sqrt(N_FEATURES)
    X = means[y] + rng.normal(size=(n, N_FEATURES)) @ mixing
    return {"X": np.ascontiguousarray(X), "y": y}


def fast(data):
    import refml_fast

    model = refml_fast.LinearDiscriminantAnalysis(covariance="mle")
    return model.fit(data["X"], data["y"]).predict(data["X"])


def sklearn(data):
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis

    model = LinearDiscriminantAnalysis(solver="lsqr")
    return model.fit(data["X"], data["y"]).predict(data["X"])


def refml(data):
    import refml

    X, y = data["X"].tolist(), data["y"].tolist()
    return refml.LinearDiscriminantAnalysis(covariance="mle").fit(X, y).predict(X)


WORKLOAD = {"name": "lda", "description": __doc__.splitlines()[0], "make_data": make_data,
            "fast": fast, "sklearn": sklearn, "refml": refml}
