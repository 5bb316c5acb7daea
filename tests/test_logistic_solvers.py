"""LogisticRegression's solvers beyond the lectures' Newton: L-BFGS, the "auto" choice, and
Newton polished to the maximum-likelihood estimate (issues 12 and 14)."""

import pytest

from tests.test_logistic import THREE_X, THREE_Y, quietly, theta_of  # noqa: F401


def test_auto_picks_newton_for_a_small_hessian_and_lbfgs_beyond(lib):
    model = lib.LogisticRegression().fit(THREE_X, THREE_Y)       # (3 - 1) x 3 = 6 rows
    assert model.solver_ == "newton"
    wide = [[x[0], x[1]] + [x[0] * (j + 1) % 1.7 for j in range(30)] for x in THREE_X]
    model = lib.LogisticRegression(alpha=0.1, tol=1e-10).fit(wide, THREE_Y)  # 2 x 33 rows
    assert model.solver_ == "lbfgs" and model.converged_
    newton = lib.LogisticRegression(solver="newton", alpha=0.1, tol=1e-10).fit(wide, THREE_Y)
    for a, b in zip(theta_of(model), theta_of(newton)):
        assert abs(a - b) <= 1e-6


def test_lbfgs_on_many_classes_reaches_the_score_equations(lib):
    """Ten classes: the solver for large Hessians meets max |grad| <= tol at its answer."""
    from refml import _logistic_solvers as solvers
    from refml._random import Generator

    rng = Generator(5)
    X = [[rng.normal() for _ in range(3)] for _ in range(200)]
    y = [min(9, max(0, int(2 * x[0] + x[1] + 5 + rng.normal()))) for x in X]
    model = lib.LogisticRegression(solver="lbfgs", tol=1e-7, alpha=0.01).fit(X, y)
    assert model.converged_ and model.n_iter_ > 5
    codes = [sorted(set(y)).index(v) for v in y]
    _, gradient = solvers.objective(X, codes, theta_of(model), len(set(y)), True, 0.01)
    assert max(abs(g) for g in gradient) <= 1e-7


@pytest.mark.sklearn
@pytest.mark.parametrize("dataset, n_features", [("breast_cancer", 8), ("wine", 4)])
def test_newton_at_its_defaults_reaches_the_mle(lib, dataset, n_features):
    """Against scikit-learn's newton-cholesky at tol = 1e-14 (an independent solver; its
    lbfgs stops on the change of the loss near 1e-9 gradients, short of the MLE on this
    ill-conditioned sample): relative error <= 1e-8, binary and multinomial, at refml's
    default tol = 1e-4."""
    import warnings

    import numpy as np
    import sklearn.datasets
    from sklearn.linear_model import LogisticRegression as Reference

    X, y = getattr(sklearn.datasets, f"load_{dataset}")(return_X_y=True)
    X = X[:, :n_features]
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    model = lib.LogisticRegression().fit(X.tolist() if lib.__name__ == "refml" else X,
                                         y.tolist())
    assert model.solver_ == "newton" and model.converged_
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # its newton-cholesky may warn near rounding
        reference = Reference(C=np.inf, solver="newton-cholesky", tol=1e-14,
                              max_iter=1000).fit(X, y)
    ours = np.hstack([np.asarray(model.coef_, dtype=float),
                      np.asarray(model.intercept_, dtype=float)[:, None]])
    theirs = np.hstack([reference.coef_, reference.intercept_[:, None]])
    if len(reference.classes_) > 2:   # scikit-learn's symmetric parameters -> class 0 reference
        theirs = (theirs - theirs[0])[1:]
    assert np.max(np.abs(ours - theirs)) <= 1e-8 * np.max(np.abs(theirs))
