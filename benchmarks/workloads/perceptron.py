"""docs/design.md section 8, ``perceptron``: 10 cyclic epochs over 100,000 x 50, then predict.

Data: Gaussian features, labels from a random linear rule (with a bias) with 10% of them
flipped, so the data are not separable and both estimators run all 10 epochs (a perceptron
that converged early would do less work than scikit-learn, which with tol=None always runs
max_iter epochs).  Labels 0/1 as an int64 array.

scikit-learn baseline: ``Perceptron(penalty=None, max_iter=10, tol=None, shuffle=False,
eta0=1.0)``: the same algorithm step for step (rows in order, an update
w += y x, b += y whenever y (w'x + b) <= 0, constant step 1, no regularisation), so the
two do the same work; their coefficients can differ in the last bits because scikit-learn
sums w'x + b in another order.  refml_fast: ``Perceptron(order="cyclic", max_iter=10,
tol=None)``.
"""

import warnings

import numpy as np

N_SAMPLES, N_FEATURES, EPOCHS = 100_000, 50, 10


def make_data(scale):
    rng = np.random.default_rng(2)
    n = max(100, int(N_SAMPLES * scale))
    X = rng.normal(size=(n, N_FEATURES))
    w, b = rng.normal(size=N_FEATURES), 0.5
    y = (X @ w + b > 0).astype(np.int64)
    flipped = rng.random(n) < 0.1
    y[flipped] = 1 - y[flipped]
    return {"X": np.ascontiguousarray(X), "y": y}


def fast(data):
    import refml_fast

    model = refml_fast.Perceptron(order="cyclic", max_iter=EPOCHS, tol=None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ConvergenceWarning: not separable, as intended
        model.fit(data["X"], data["y"])
    return model.predict(data["X"])


def sklearn(data):
    from sklearn.linear_model import Perceptron

    model = Perceptron(penalty=None, max_iter=EPOCHS, tol=None, shuffle=False, eta0=1.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model.fit(data["X"], data["y"])
    return model.predict(data["X"])


def refml(data):
    import refml

    X, y = data["X"].tolist(), data["y"].tolist()
    model = refml.Perceptron(order="cyclic", max_iter=EPOCHS, tol=None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model.fit(X, y)
    return model.predict(X)


WORKLOAD = {"name": "perceptron", "description": __doc__.splitlines()[0],
            "make_data": make_data, "fast": fast, "sklearn": sklearn, "refml": refml}
