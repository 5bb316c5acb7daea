"""Item 18 for the linear models: LeastSquaresClassifier and LogisticRegression (every solver,
binary and multiclass) predict identically in refml and refml_fast.

The random data sets of ``_parity.random_dataset`` (integer grids with duplicates, exact
ties and collinear or constant columns, Gaussian features, K = 2..5, string labels; many are
separable) are fitted with random hyper-parameters; ``decision_function`` and
``predict_proba`` must be the same floats too (as the coefficients are, see
tests/test_logistic.py).  gd and sgd run a few iterations only (pure-Python refml is slow);
their arithmetic per iteration is the same at any iteration count.
"""

from ._parity import parity_theorem, random_dataset


def binary_dataset(rng):
    return random_dataset(rng, binary=True)


def least_squares(package, rng):
    return package.LeastSquaresClassifier(fit_intercept=rng.random() < 0.8)


def logistic(solver, max_iter):
    def make(package, rng):
        return package.LogisticRegression(
            solver=solver, max_iter=max_iter, alpha=[0.0, 0.0, 0.05, 1.0][rng.randbelow(4)],
            fit_intercept=rng.random() < 0.8, random_state=rng.randbelow(2 ** 31))
    return make


THEOREMS = [
    parity_theorem("LeastSquaresClassifier", least_squares, make_data=binary_dataset,
                   extra_outputs=("decision_function",)),
    parity_theorem("LeastSquaresClassifier, 2 to 5 classes (one fit per class)",
                   least_squares, extra_outputs=("decision_function",)),
    parity_theorem("LogisticRegression newton, binary", logistic("newton", None),
                   make_data=binary_dataset, extra_outputs=("decision_function",
                                                            "predict_proba")),
    parity_theorem("LogisticRegression newton, multiclass", logistic("newton", None),
                   extra_outputs=("decision_function", "predict_proba")),
    parity_theorem("LogisticRegression lbfgs, binary and multiclass", logistic("lbfgs", None),
                   extra_outputs=("decision_function", "predict_proba")),
    parity_theorem("LogisticRegression gd, binary and multiclass", logistic("gd", 40),
                   extra_outputs=("decision_function", "predict_proba")),
    parity_theorem("LogisticRegression sgd, binary and multiclass", logistic("sgd", 3),
                   extra_outputs=("decision_function", "predict_proba")),
]
