"""docs/design.md section 8, ``logreg``: binary logistic regression to convergence, 100,000 x 50.

Data: standard Gaussian features and labels drawn from a logistic model (random w with
||w|| about 2, intercept 0.3), so the classes overlap and the maximum-likelihood estimate
exists; labels 0/1 as an int64 array.  Both fit without penalty and predict the training rows.

refml_fast: ``LogisticRegression(solver="newton", tol=1e-4)``, damped Newton stopping at
max_j |grad_j| <= 1e-4 of the mean negative log-likelihood.  scikit-learn baseline: its
default solver "lbfgs" without penalty (``C=inf``; ``penalty=None`` before 1.8) and its
default ``tol=1e-4``, which L-BFGS-B applies to the same quantity (the largest entry of the
gradient of the mean loss), so both stop at the same tolerance; lbfgs is also faster than
scikit-learn's "newton-cholesky" on this workload on the development machine.
"""

import numpy as np

N_SAMPLES, N_FEATURES = 100_000, 50
TOL = 1e-4


def make_data(scale):
    rng = np.random.default_rng(0)
    n = max(100, int(N_SAMPLES * scale))
    X = rng.normal(size=(n, N_FEATURES))
    w = rng.normal(size=N_FEATURES) * (2.0 / np.sqrt(N_FEATURES))
    probability = 1.0 / (1.0 + np.exp(-(X @ w + 0.3)))
    y = (rng.random(n) < probability).astype(np.int64)
    return {"X": np.ascontiguousarray(X), "y": y}


def fast(data):
    import refml_fast

    model = refml_fast.LogisticRegression(solver="newton", tol=TOL)
    return model.fit(data["X"], data["y"]).predict(data["X"])


def sklearn(data):
    import sklearn
    from sklearn.linear_model import LogisticRegression

    major, minor = (int(part) for part in sklearn.__version__.split(".")[:2])
    no_penalty = {"C": np.inf} if (major, minor) >= (1, 8) else {"penalty": None}
    model = LogisticRegression(tol=TOL, max_iter=1000, **no_penalty)
    return model.fit(data["X"], data["y"]).predict(data["X"])


def refml(data):
    import refml

    X, y = data["X"].tolist(), data["y"].tolist()
    return refml.LogisticRegression(solver="newton", tol=TOL).fit(X, y).predict(X)


WORKLOAD = {"name": "logreg", "description": __doc__.splitlines()[0], "make_data": make_data,
            "fast": fast, "sklearn": sklearn, "refml": refml}
