"""Item 18 for LDA and QDA: refml and refml_fast agree exactly, or fail with the same error.

Instances are ``random_dataset``'s (duplicates, integer grids, one feature, K = 2..5, classes
with one sample, string labels) with random hyper-parameters: covariance "pooled"/"mle",
priors estimated or drawn at random, reg_param 0 half of the time and in (0, 1] otherwise.
Without shrinkage many covariances are singular (integer grids, small classes, d up to 5):
then QDA must raise ValueError with the same message in both packages, and LDA must leave
out the same dependent features (``dependent_features_``) or raise alike.  Otherwise the check asks
for *identical* floats, not merely close ones: predictions, decision_function,
predict_proba on the training rows and on fresh query rows, and the fitted means_, priors_,
covariance_ (and coef_, intercept_ for LDA).  The slack is minus the number of
disagreements (minus infinity when only one package raises).
"""

import warnings

from ._harness import Theorem
from ._parity import random_dataset

ESTIMATORS = ("LinearDiscriminantAnalysis", "QuadraticDiscriminantAnalysis")


def make_params(rng, estimator, n_classes):
    params = {"reg_param": 0.0 if rng.random() < 0.5 else 1.0 - rng.random()}
    if rng.random() < 0.3:
        weights = [0.05 + rng.random() for _ in range(n_classes)]
        params["priors"] = [w / sum(weights) for w in weights]
    if estimator == "LinearDiscriminantAnalysis":
        params["covariance"] = "pooled" if rng.random() < 0.5 else "mle"
    return params


def fit_or_error(package, estimator, params, X, y):
    model = getattr(package, estimator)(**params)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model.fit(X, y)
    except ValueError as error:
        return None, f"{type(error).__name__}: {error}"
    return model, None


def flat(values):
    """Any nested list or array as a flat list of Python floats (or labels)."""
    values = values.tolist() if hasattr(values, "tolist") else values
    if isinstance(values, (list, tuple)):
        return [v for item in values for v in flat(item)]
    return [values]


def make_check(estimator):
    attributes = ["means_", "priors_", "covariance_"]
    if estimator == "LinearDiscriminantAnalysis":
        attributes += ["coef_", "intercept_", "dependent_features_"]

    def check(instance):
        import refml
        import refml_fast

        X, y = instance["X"], instance["y"]
        reference, error = fit_or_error(refml, estimator, instance["params"], X, y)
        fast, fast_error = fit_or_error(refml_fast, estimator, instance["params"], X, y)
        if error is not None or fast_error is not None:
            return 0.0 if error == fast_error else float("-inf")
        disagreements = 0
        for name in attributes:
            disagreements += flat(getattr(reference, name)) != flat(getattr(fast, name))
        for rows in (X, instance["X_query"]):
            for method in ("predict", "decision_function", "predict_proba"):
                expected = flat(getattr(reference, method)(rows))
                found = flat(getattr(fast, method)(rows))
                disagreements += len(expected) != len(found)
                disagreements += sum(1 for a, b in zip(expected, found) if a != b)
        return -float(disagreements)

    return check


def make_instance_for(estimator):
    def make_instance(rng):
        X, y, X_query = random_dataset(rng)
        params = make_params(rng, estimator, len(set(y)))
        return {"X": X, "y": y, "X_query": X_query, "params": params}
    return make_instance


THEOREMS = [
    Theorem(number=18, title=f"Parity: {estimator}", source="docs/design.md section 1",
            make_instance=make_instance_for(estimator), check=make_check(estimator),
            size=lambda inst: len(inst["X"]) * len(inst["X"][0]),
            describe=lambda inst: f"X={inst['X']!r} y={inst['y']!r} "
                                  f"X_query={inst['X_query']!r} params={inst['params']!r}",
            needs_fast=True)
    for estimator in ESTIMATORS
]
