"""Logistic regression with Numba kernels (see refml.linear.logistic and
refml.linear.logistic_solvers).

Only the arithmetic moves to kernels (refml_fast/linear/logistic_kernels.py): the objective and
its gradient, the Hessian and the Newton system (the Cholesky that drops dependent columns), an
SGD epoch, the Gram matrix behind the default step, the separability check and the predictions.
The solver loops (Newton with backtracking, gradient descent, the SGD epochs) and every decision
are refml's own code (L-BFGS: the same loop on arrays, ``lbfgs``), and the kernels repeat
refml's float operations in refml's order, so ``coef_``, ``intercept_``, ``n_iter_`` and the
predictions are identical to refml's. For two classes (refml_fast/linear/logistic_binary.py) the
objective also returns the Hessian's sample weights P(1 - P), kept for the Newton step at the
same theta (refml_fast/linear/logistic_hessian.py), and the sums over samples go to threads by
blocks."""

import numpy as np

from refml.core import validation
from refml.linear import logistic as reference
from refml.linear import logistic_solvers as solvers
from refml_fast.core import arrays as _arrays
from refml_fast.core import linalg as _linalg
from refml_fast.core import random as _random
from refml_fast.core.base import FastMixin
from refml_fast.linear import lbfgs as _lbfgs
from refml_fast.linear import logistic_binary as binary
from refml_fast.linear import logistic_hessian as _logistic_hessian
from refml_fast.linear import logistic_kernels as kernels
from refml_fast.linear import logistic_multinomial as multinomial
from refml_fast.linear.least_squares import LeastSquaresClassifier
from refml_fast.runtime import spec_first


@spec_first.tiered
class LogisticRegression(FastMixin, reference.LogisticRegression):
    __doc__ = reference.LogisticRegression.__doc__
    _derived_state = ("_curvature",)       # the last objective's weights: not saved

    _largest_magnitude = staticmethod(LeastSquaresClassifier._largest_magnitude)

    def _n_free(self):
        return len(self.classes_) - 1

    def _fit(self, X, codes):
        try:
            super()._fit(X, codes)
        finally:
            vars(self).pop("_curvature", None)   # P(1 - P) of the last objective (n floats)

    def _objective(self, X, codes, theta):
        loss, gradient = self._objective_array(X, codes, theta)
        return loss, gradient.tolist()

    def _lbfgs(self, X, codes, theta, max_iter, tol):
        steps = _lbfgs.ArraySteps(len(theta) // self._n_free())
        return solvers.lbfgs(lambda t: self._objective_array(X, codes, t),
                             np.asarray(theta, dtype=np.float64), steps, max_iter, tol)

    def _objective_array(self, X, codes, theta):
        """(L, grad L as an array) at theta."""
        theta = np.asarray(theta, dtype=np.float64)
        gradient = np.empty(theta.shape[0])
        if self._n_free() == 1:
            weights = np.empty(X.shape[0])
            loss = binary.objective(X, codes, theta, self.fit_intercept, float(self.alpha),
                                    gradient, weights)
            # The Hessian at theta needs these P(1 - P); Newton asks for it next whenever
            # the line search accepts theta.
            self._curvature = (X, theta, weights)
        else:
            loss = multinomial.objective(X, codes, theta, self._n_free(), self.fit_intercept,
                                         float(self.alpha), gradient)
        return float(loss), gradient

    def _newton_direction(self, X, theta, gradient):
        theta = np.asarray(theta, dtype=np.float64)
        H = np.zeros((theta.shape[0], theta.shape[0]))
        if self._n_free() == 1:
            _logistic_hessian.hessian_binary(X, self._sample_weights(X, theta), self.fit_intercept,
                                  float(self.alpha), H)
        else:
            kernels.hessian(X, theta, self._n_free(), self.fit_intercept, float(self.alpha), H)
        delta = np.empty(theta.shape[0])
        minus_gradient = np.array([-g for g in gradient], dtype=np.float64)
        _linalg.solve_dropping_dependent(H, minus_gradient, solvers.NEWTON_PIVOT_TOLERANCE,
                                         delta)
        return delta.tolist()

    def _sample_weights(self, X, theta):
        """P_i1 (1 - P_i1) at theta: kept from the objective at the same theta, or computed."""
        kept = getattr(self, "_curvature", None)
        if kept is not None and kept[0] is X and np.array_equal(kept[1], theta):
            return kept[2]
        weights = np.empty(X.shape[0])
        binary.sample_weights_binary(X, theta, self.fit_intercept, weights)
        return weights

    def _sgd_epoch(self, X, codes, theta, total, k, learning_rate, power_t, rng):
        theta = np.asarray(theta, dtype=np.float64)
        total = np.asarray(total, dtype=np.float64)
        state = _random.state_array(rng)
        k = kernels.sgd_epoch(X, codes, theta, total, k, float(learning_rate),
                              float(power_t), self._n_free(), self.fit_intercept,
                              float(self.alpha), state)
        _random.store_state(rng, state)
        return theta.tolist(), total.tolist(), int(k)

    def _gram(self, X):
        p = X.shape[1] + (1 if self.fit_intercept else 0)
        G = np.zeros((p, p))
        kernels.augmented_gram(X, self.fit_intercept, G)
        return G.tolist()

    def _largest_squared_norm(self, X):
        return float(kernels.largest_squared_norm(X, self.fit_intercept))

    def _separates(self, X, codes, theta):
        return bool(kernels.separates(X, codes, np.asarray(theta, dtype=np.float64),
                                      self._n_free(), self.fit_intercept))

    def _scores(self, X):
        coef = np.asarray(self.coef_, dtype=np.float64)
        Z = np.empty((X.shape[0], coef.shape[0]))
        kernels.scores(X, coef, np.asarray(self.intercept_, dtype=np.float64), Z)
        return Z

    def _probabilities(self, X):
        Z = self._scores(X)
        out = np.empty((Z.shape[0], Z.shape[1] + 1))
        kernels.probabilities(Z, out)
        return out

    def _decision_values(self, X):
        Z = self._scores(X)
        if len(self.classes_) == 2:
            return Z[:, 0].copy()
        return np.hstack([np.zeros((Z.shape[0], 1)), Z])

    def _predict_codes(self, X):
        codes = np.empty(X.shape[0], dtype=np.int64)
        kernels.argmax_codes(self._scores(X), codes)
        return codes


def sigmoid(z):
    """sigma(z), stable for any z: a float for a number, an array for an array."""
    if np.ndim(z) == 0:
        return float(kernels.sigmoid(float(z)))
    values = np.asarray(z, dtype=np.float64)
    out = np.empty(values.size)
    kernels.sigmoid_array(values.ravel(), out)
    return out.reshape(values.shape)


def log_likelihood(w, X, y, convention="zero_one"):
    w, X, y = _check_likelihood_arguments(w, X, y, convention)
    return float(kernels.log_likelihood(w, X, y, convention == "zero_one"))


def log_likelihood_gradient(w, X, y, convention="zero_one"):
    w, X, y = _check_likelihood_arguments(w, X, y, convention)
    gradient = np.zeros(X.shape[1])
    kernels.log_likelihood_gradient(w, X, y, convention == "zero_one", gradient)
    return gradient


def _check_likelihood_arguments(w, X, y, convention):
    """refml's checks and messages, with numpy arrays out."""
    validation.check_option(convention, "convention", reference.CONVENTIONS)
    X = _arrays.as_matrix(X)
    w = _arrays.as_matrix(w.reshape(1, -1) if isinstance(w, np.ndarray) else [w], name="w")[0]
    validation.check_n_features(w.shape[0], X.shape[1], "the coefficient vector w")
    labels = reference.convention_labels(y, X.shape[0], convention)
    return w, X, np.asarray(labels, dtype=np.float64)


sigmoid.__doc__ = reference.sigmoid.__doc__ + "\n    (refml_fast: also elementwise on arrays.)"
log_likelihood.__doc__ = reference.log_likelihood.__doc__
log_likelihood_gradient.__doc__ = reference.log_likelihood_gradient.__doc__
