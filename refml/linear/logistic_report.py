"""LogisticRegression's end of fit: is the training data separated by the fitted model, and
the ConvergenceWarning that says why a fit stopped (see refml/linear/logistic.py)."""


from refml.core import caller
from refml.core.base import ConvergenceWarning
from refml.linear.logistic_solvers import augmented, scores


def separates(X, codes, theta, n_classes, fit_intercept):
    """True when every training point's own class has the strictly largest score.

    Then theta -> c theta, c -> infinity, increases the likelihood to 1: no maximiser.
    """
    for x, y in zip(X, codes):
        z = [0.0] + scores(theta, augmented(x, fit_intercept), n_classes - 1)
        for k, value in enumerate(z):
            if k != y and not z[y] > value:
                return False
    return True


def report(model, X, codes, theta, converged, max_iter):
    """``model``'s converged_, with a ConvergenceWarning when False."""
    name = f"LogisticRegression(solver={model.solver_!r})"
    if model.alpha == 0.0 and model._separates(X, codes, theta):
        warn_convergence(
            f"{name}: the training data are separable (the fitted model classifies "
            "every point strictly correctly), so the maximum-likelihood estimate does "
            "not exist; the coefficients are a finite point on a path to infinity. "
            "Set alpha > 0 for a finite maximiser.")
        return False
    if not converged:
        reason = (f"reached max_iter={max_iter}" if model.n_iter_ == max_iter
                  else "stopped: no further decrease found at working precision")
        advice = ("increase max_iter or tol" if model.solver_ in ("newton", "lbfgs") else
                  "increase max_iter or learning_rate, or use solver='newton'")
        warn_convergence(f"{name} did not converge ({reason}; tol={model.tol}): {advice}.")
    return converged


def warn_convergence(message):
    """A ConvergenceWarning pointing at the caller of ``fit`` (this <- report <- _fit <- fit)."""
    caller.warn(message, ConvergenceWarning)
