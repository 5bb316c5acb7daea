"""docs/design.md section 8, ``svm``: linear soft-margin SVM, C = 1, fit 5,000 x 20, then predict.

Data: Gaussian features, labels from a random unit-norm linear rule plus Gaussian noise of
standard deviation 0.5 on the score, so the classes overlap (about 14% of the points sit on
the wrong side) and about a third of the points end up as support vectors: the solver has
real work in both its phases (many multipliers reaching C, then the free ones settling).
Labels 0/1 as an int64 array.

scikit-learn baseline: ``SVC(kernel="linear", C=1)`` (LIBSVM: SMO with the same
second-order working-set rule and the same stopping rule and tol = 1e-3, plus shrinking
and a 200 MB kernel cache).  refml_fast: ``SVC(C=1.0)`` (same rule, same tol; its own row
cache, and exact active-set scans instead of shrinking, see refml_fast/svm/smo.py).  Both solve
the same dual to the same tolerance, so their predictions agree on all but a few points
within tol of the boundary.
"""

import numpy as np

N_SAMPLES, N_FEATURES, C, NOISE = 5_000, 20, 1.0, 0.5


def make_data(scale):
    rng = np.random.default_rng(0)
    n = max(100, int(N_SAMPLES * scale))
    X = rng.normal(size=(n, N_FEATURES))
    w = rng.normal(size=N_FEATURES)
    w /= np.linalg.norm(w)
    y = (X @ w + NOISE * rng.normal(size=n) > 0).astype(np.int64)
    return {"X": np.ascontiguousarray(X), "y": y}


def fast(data):
    import refml_fast

    model = refml_fast.SVC(C=C, kernel="linear")
    model.fit(data["X"], data["y"])
    return model.predict(data["X"])


def sklearn(data):
    from sklearn.svm import SVC

    model = SVC(kernel="linear", C=C)
    model.fit(data["X"], data["y"])
    return model.predict(data["X"])


def refml(data):
    import refml

    X, y = data["X"].tolist(), data["y"].tolist()
    model = refml.SVC(C=C, kernel="linear")
    model.fit(X, y)
    return model.predict(X)


WORKLOAD = {"name": "svm", "description": __doc__.splitlines()[0],
            "make_data": make_data, "fast": fast, "sklearn": sklearn, "refml": refml}
