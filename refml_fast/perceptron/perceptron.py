"""The perceptron's passes and decision values as Numba kernels (see refml.perceptron).

The kernels repeat refml's float operations in refml's order, so ``coef_``, ``intercept_``,
the mistakes and the predictions are identical, not merely close:

- the margin theta'x~ is summed left to right from 0.0: the bias term theta_0 * 1 first,
  then theta_j x_j for j = 1..d (refml's ``linalg.dot`` over the augmented row);
- a mistake is not (y_i theta'x~_i > 0), refml's ``is_mistake`` (a NaN margin is one),
  decided from a sum in lanes when its sign provably is that sum's, and from that sum
  itself otherwise (``sure_sign``, ``signed_margin``); the sum is also taken for a mistake's
  loss when the early stop is on;
- the update is theta_j += (gamma_t y_i) x_ij, with gamma_t = learning_rate / t for the
  decreasing schedule (the integer t converted to float64, as Python does);
- order="random" lists the mistakes by index and draws one with the shared SplitMix64
  ``randbelow`` (refml_fast.core.random), the same stream as refml's Generator;
- the early stop sums -(y_i theta'x~_i) over a pass's mistakes in refml's order and
  compares it with best - tol * n (``no_improvement``, refml's ``Patience``).

No BLAS dot anywhere a sign decides: its summation order differs from refml's.
"""

import numpy as np

from refml.perceptron import perceptron as reference
from refml_fast.core import random as _random
from refml_fast.core.base import FastMixin
from refml_fast.perceptron.multiclass import MULTICLASS_PASSES
from refml_fast.perceptron.passes import PASSES
from refml_fast.runtime import spec_first
from refml_fast.runtime.options import kernel


@spec_first.tiered
class Perceptron(FastMixin, reference.Perceptron):
    __doc__ = reference.Perceptron.__doc__

    def _run_passes(self, X, codes, theta, examined, max_iter, tol, generator):
        start = theta.copy()
        state_start = _random.state_array(generator)
        state = state_start.copy()
        # Row k of ``trajectory`` receives theta~ after update k, while rows remain; a first
        # run counts the updates, a second one (same start, same random stream) records them.
        trajectory = np.zeros((1,) + theta.shape)
        n_mistakes, n_iter, converged = self._passes(X, codes, theta, examined, max_iter, tol,
                                                     state, trajectory)
        if self.store_trajectory:
            trajectory = np.zeros((n_mistakes + 1,) + theta.shape)
            trajectory[0] = start
            theta[...] = start
            state = state_start.copy()
            n_mistakes, n_iter, converged = self._passes(X, codes, theta, examined, max_iter,
                                                         tol, state, trajectory)
        _random.store_state(generator, state)
        return n_mistakes, n_iter, converged, trajectory

    def _passes(self, X, codes, theta, examined, max_iter, tol, state, trajectory):
        # [on, tol * n, best pass loss, passes without improvement, n_iter_no_change]
        on = tol is not None
        patience = np.array([float(on), float(tol) * X.shape[0] if on else 0.0, np.inf,
                             0.0, float(self.n_iter_no_change)])
        decreasing = self.schedule == "decreasing"
        if theta.ndim == 2:
            passes = MULTICLASS_PASSES[self.order]
            run = passes(X, codes, theta, self.fit_intercept, float(self.learning_rate),
                         decreasing, examined, max_iter, state, trajectory, patience)
        else:
            y = np.where(codes == 1, 1.0, -1.0)
            passes = PASSES[self.order]  # only the kernel of the order used gets compiled
            run = passes(X, y, theta, self.fit_intercept, float(self.learning_rate),
                         decreasing, examined, max_iter, state, trajectory, patience)
        n_mistakes, n_iter, converged = run
        return int(n_mistakes), int(n_iter), bool(converged)

    def _zero_theta(self):
        p = self.n_features_in_ + (1 if self.fit_intercept else 0)
        if len(self.classes_) > 2:
            return np.zeros((len(self.classes_), p))
        return np.zeros(p)

    @staticmethod
    def _finite(theta):
        return bool(np.isfinite(theta).all())

    @staticmethod
    def _joined(earlier, later):
        return np.concatenate([earlier, later[1:]])

    def _store(self, n_mistakes, n_iter, converged, trajectory):
        super()._store(n_mistakes, n_iter, converged, trajectory)
        theta = self._stream["theta"]
        if theta.ndim == 2:   # refml's list of rows, as arrays
            self.intercept_ = theta[:, 0].copy() if self.fit_intercept else \
                np.zeros(theta.shape[0])
            self.coef_ = theta[:, 1:].copy() if self.fit_intercept else theta.copy()
        else:
            self.coef_ = theta[1:].copy() if self.fit_intercept else theta.copy()

    @staticmethod
    def _decision_values(X, coef, intercept):
        scores = np.empty(X.shape[0])
        decision_values(X, np.asarray(coef, dtype=np.float64), float(intercept), scores)
        return scores

    @staticmethod
    def _one_class(codes, k):
        return (np.asarray(codes) == k).astype(np.int64)

    def _class_scores(self, X):
        return np.column_stack([self._decision_values(X, coef, intercept)
                                for coef, intercept in zip(self.coef_, self.intercept_)])

    def _predict_codes(self, X):
        if len(self.classes_) > 2:
            return np.argmax(self._class_scores(X), axis=1).astype(np.int64)  # first on a tie
        scores = self._decision_values(X, self.coef_, self.intercept_)
        return (scores >= 0.0).astype(np.int64)  # sign(0) = +1 -> classes_[1]


perceptron_criterion = reference.perceptron_criterion   # small: refml's own, floats out





@kernel
def decision_values(X, coef, intercept, out):
    """out_i = (0.0 + theta_0) + sum_j theta_j x_ij, left to right, as in refml."""
    for i in range(X.shape[0]):
        total = 0.0 + intercept
        for j in range(X.shape[1]):
            total += coef[j] * X[i, j]
        out[i] = total
