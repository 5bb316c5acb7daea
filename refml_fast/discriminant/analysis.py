"""LDA and QDA with the O(n d^2) statistics and the scores as Numba kernels (refml.discriminant).

The kernels repeat refml's float operations in refml's order, so the means, covariances,
coefficients, scores and predictions are identical, not merely close:

- n_k and the sums of x_i over rows in data order, mu_k = sum / n_k;
- S_k accumulated over class k's rows in data order, lower triangle (l <= j), then
  mirrored; the rows are grouped by class (a stable counting sort) and taken four at a
  time with the running sum in a register, which rounds exactly as four separate updates;
- the d x d work (pooling, shrinkage, Cholesky, solves, log-determinants) is refml's own
  pure-Python code, run on the kernels' output converted to lists;
- LDA scores: sum_j x_j a_j from 0.0 in feature order, then + c (refml's ``linalg.dot``),
  for blocks of 64 rows at once (the innermost loop runs over rows, so it vectorises
  without reordering any one sum);
- QDA scores: forward substitution z = L^{-1}(x - mu_k) column by column, which subtracts
  L_lj z_j from entry l in the same order j = 0, 1, ... as refml's row-wise
  ``solve_lower``; ||z||^2 summed in feature order; -0.5 (log|Sigma_k| + ||z||^2) + log omega_k;
  blocks of rows as for LDA.
- Both score kernels share chunks of rows among Numba's threads when the work is worth a
  launch (``score_rows``): each row is still scored alone, so the floats do not change.

No BLAS anywhere a prediction depends on it: its summation order differs from refml's.
The fitted attributes are numpy arrays.
"""


import numpy as np
from numba import prange

from refml.discriminant import analysis as reference
from refml.discriminant import statistics as gaussian
from refml_fast.core import linalg as _linalg
from refml_fast.core.base import FastMixin
from refml_fast.discriminant.statistics import class_means, class_statistics, pooled_scatter
from refml_fast.runtime import spec_first
from refml_fast.runtime.options import kernel
from refml_fast.runtime.threads import run_parallel


class _FastGaussian:
    """The hot methods shared by LDA and QDA."""

    def _class_statistics(self, X, codes, n_classes):
        n_features = X.shape[1]
        counts = np.zeros(n_classes, dtype=np.int64)
        means = np.zeros((n_classes, n_features))
        scatters = np.zeros((n_classes, n_features, n_features))
        class_statistics(X, codes, counts, means, scatters)
        return counts.tolist(), means.tolist(), scatters

    @staticmethod
    def _pooled_scatter(scatters):
        W = np.zeros(scatters.shape[1:])
        for S in scatters:        # refml: W_jl += S_jl, class by class, from 0.0
            W += S
        return W

    @staticmethod
    def _covariance(S, divisor, reg_param):
        """In place: S is a scatter matrix this fit made and uses only here (d x d may be
        800 MB on 10,000 features)."""
        Sigma = np.divide(S, divisor, out=S)
        if reg_param == 0.0:
            return Sigma
        index = np.arange(Sigma.shape[0])
        diagonal = (1.0 - reg_param) * Sigma[index, index] + reg_param
        np.multiply(Sigma, 1.0 - reg_param, out=Sigma)
        np.add(Sigma, 0.0, out=Sigma)               # refml adds 0.0 off the diagonal
        Sigma[index, index] = diagonal
        return Sigma

    @staticmethod
    def _factor(Sigma, what, reg_param):
        if not np.isfinite(Sigma).all():
            raise ValueError(gaussian.overflow_message(what))
        L = np.zeros(Sigma.shape)   # calloc: pages the factorisation never reaches stay free
        if _linalg.cholesky(Sigma, L) and bool(np.all(np.diag(L) * np.diag(L) >
                                                    gaussian.SINGULAR_TOLERANCE * np.diag(Sigma))):
            return L
        raise gaussian.SingularCovarianceError(gaussian.singular_message(
            what, gaussian._first_dependent_feature(Sigma), reg_param))

    def _check_scores(self, scores):
        if not np.isfinite(scores).all():
            raise ValueError(gaussian.scores_overflow_message())
        return scores

    @staticmethod
    def _codes_from_scores(scores):
        if scores.shape[1] == 1:
            return (scores[:, 0] > 0.0).astype(np.int64)
        return np.argmax(scores, axis=1)  # the first maximum: ties to the first class

    @staticmethod
    def _posterior_from_scores(scores):
        probabilities = np.empty((scores.shape[0], max(2, scores.shape[1])))
        if scores.shape[1] == 1:
            _linalg.logistic_posterior(scores[:, 0], probabilities)
        else:
            _linalg.softmax_posterior(scores, probabilities)
        return probabilities

    @staticmethod
    def _scatter_lists(scatters):
        return np.asarray(scatters).tolist()

    @staticmethod
    def _scatter_arrays(scatters):
        return np.array(scatters, dtype=np.float64)

    def _arrays_from_lists(self, names):
        for name in names:
            setattr(self, name, np.asarray(getattr(self, name), dtype=np.float64))


@spec_first.tiered
class LinearDiscriminantAnalysis(_FastGaussian, FastMixin, reference.LinearDiscriminantAnalysis):
    __doc__ = reference.LinearDiscriminantAnalysis.__doc__

    def _class_statistics(self, X, codes, n_classes):
        """n_k, mu_k, and the pooled scatter W in place of the K scatter matrices (LDA only
        pools them): ``pooled_scatter``, the same floats in one d x d array."""
        n_features = X.shape[1]
        counts = np.zeros(n_classes, dtype=np.int64)
        means = np.zeros((n_classes, n_features))
        class_means(X, codes, counts, means)
        W = np.zeros((n_features, n_features))
        pooled_scatter(X, codes, np.zeros(n_classes, dtype=np.int64) + counts, means, W)
        return counts.tolist(), means.tolist(), W[None]

    @staticmethod
    def _pooled_scatter(scatters):
        return scatters[0]       # already pooled by ``_class_statistics``

    def _fit_statistics(self, counts, means, W):
        super()._fit_statistics(counts, means, W)
        self._arrays_from_lists(["means_", "priors_", "covariance_", "coef_", "intercept_"])
        self.dependent_features_ = np.asarray(self.dependent_features_, dtype=np.int64)

    @staticmethod
    def _cholesky_solve(L, b):
        x = np.array(b, dtype=np.float64)
        _linalg.cholesky_solve(L, x)
        return x.tolist()

    @staticmethod
    def _cholesky_dropping_dependent(Sigma):
        L = np.zeros(Sigma.shape)
        kept = np.empty(Sigma.shape[0], dtype=np.int64)
        m = _linalg.cholesky_dropping_dependent(Sigma, gaussian.SINGULAR_TOLERANCE, L, kept)
        return np.ascontiguousarray(L[:m, :m]), kept[:m].tolist()

    def _discriminant_scores(self, X):
        scores = np.empty((X.shape[0], self.coef_.shape[0]))
        n, d = X.shape
        score_rows(linear_scores_parallel, linear_scores, n * scores.shape[1] * d, X,
                   np.ascontiguousarray(self.coef_.T), self.intercept_, scores)
        return self._check_scores(scores)

    @staticmethod
    def _decision_from_scores(scores):
        return scores[:, 0] if scores.shape[1] == 1 else scores


@spec_first.tiered
class QuadraticDiscriminantAnalysis(_FastGaussian, FastMixin,
                                    reference.QuadraticDiscriminantAnalysis):
    __doc__ = reference.QuadraticDiscriminantAnalysis.__doc__

    _derived_state = ("_factors_transposed",)     # rebuilt on load from a model file

    def _fit_statistics(self, counts, means, scatters):
        super()._fit_statistics(counts, means, scatters)
        self._arrays_from_lists(["means_", "priors_", "covariance_", "_log_dets",
                                 "_log_priors"])
        self._restore_derived()

    def _restore_derived(self):
        # Row j of factor k holds column j of L_k (entries L_lj, l >= j): contiguous reads.
        self._factors_transposed = np.ascontiguousarray(
            np.transpose(np.asarray(self._factors, dtype=np.float64), (0, 2, 1)))

    def _discriminant_scores(self, X):
        scores = np.empty((X.shape[0], self.means_.shape[0]))
        n, d = X.shape
        score_rows(quadratic_scores_parallel, quadratic_scores,
                   n * scores.shape[1] * d * (d + 1) / 2, X, self.means_,
                   self._factors_transposed, self._log_dets, self._log_priors, scores)
        return self._check_scores(scores)

    @staticmethod
    def _decision_from_scores(scores):
        return scores[:, 1] - scores[:, 0] if scores.shape[1] == 2 else scores


# ----------------------------------------------------------------------------------------
# Kernels.  Outputs are allocated (zeroed where accumulated) by the caller.


BLOCK = 64  # rows scored together: each row's floats are computed as alone, in refml's order


@kernel
def linear_scores(X, coef_transposed, intercept, scores, first, end):
    """scores[i, r] = (sum_j X[i, j] coef[r, j], from 0.0 in j order) + intercept[r].

    Rows first..end-1, in blocks, transposed, so that the innermost loop runs over rows
    (independent sums: vectorisable without reordering any one of them).
    """
    n_features = X.shape[1]
    n_rows = coef_transposed.shape[1]
    block = np.empty((n_features, BLOCK))
    totals = np.empty((n_rows, BLOCK))
    for start in range(first, end, BLOCK):
        size = min(BLOCK, end - start)
        for b in range(size):
            for j in range(n_features):
                block[j, b] = X[start + b, j]
        totals[:, :] = 0.0
        for j in range(n_features):
            for r in range(n_rows):
                a_jr = coef_transposed[j, r]
                for b in range(size):
                    totals[r, b] += block[j, b] * a_jr
        for b in range(size):
            for r in range(n_rows):
                scores[start + b, r] = totals[r, b] + intercept[r]


@kernel
def quadratic_scores(X, means, factors_transposed, log_dets, log_priors, scores, first, end):
    """scores[i, k] = -0.5 (log|Sigma_k| + ||L_k^{-1}(x_i - mu_k)||^2) + log omega_k.

    Rows first..end-1.  Forward substitution column by column, on a block of rows at once
    (innermost loop over rows); entry l of each row's residual receives - L_lj z_j for
    j = 0, 1, ... in order.
    """
    n_features = X.shape[1]
    residual = np.empty((n_features, BLOCK))
    z = np.empty(BLOCK)
    mahalanobis = np.empty(BLOCK)
    for start in range(first, end, BLOCK):
        size = min(BLOCK, end - start)
        for k in range(means.shape[0]):
            U = factors_transposed[k]                 # U[j, l] = L_lj
            for b in range(size):
                for j in range(n_features):
                    residual[j, b] = X[start + b, j] - means[k, j]
            mahalanobis[:] = 0.0
            for j in range(n_features):
                pivot = U[j, j]
                for b in range(size):
                    z[b] = residual[j, b] / pivot
                    mahalanobis[b] += z[b] * z[b]
                for l in range(j + 1, n_features):
                    u_jl = U[j, l]
                    if u_jl == 0.0:   # as refml's solve_lower: zero entries are skipped
                        continue
                    for b in range(size):
                        residual[l, b] -= u_jl * z[b]
            for b in range(size):
                scores[start + b, k] = -0.5 * (log_dets[k] + mahalanobis[b]) + log_priors[k]


@kernel(parallel=True)
def linear_scores_parallel(X, coef_transposed, intercept, scores, first, end):
    """``linear_scores`` with chunks of CHUNK rows shared among threads (each row's scores
    computed alone: the same floats)."""
    n_chunks = (end - first + CHUNK - 1) // CHUNK
    for chunk in prange(n_chunks):
        linear_scores(X, coef_transposed, intercept, scores, first + chunk * CHUNK,
                      min(end, first + (chunk + 1) * CHUNK))


@kernel(parallel=True)
def quadratic_scores_parallel(X, means, factors_transposed, log_dets, log_priors, scores,
                              first, end):
    """``quadratic_scores`` with chunks of CHUNK rows shared among threads (each row's
    scores computed alone: the same floats)."""
    n_chunks = (end - first + CHUNK - 1) // CHUNK
    for chunk in prange(n_chunks):
        quadratic_scores(X, means, factors_transposed, log_dets, log_priors, scores,
                         first + chunk * CHUNK, min(end, first + (chunk + 1) * CHUNK))


def score_rows(parallel, serial, work, X, *args):
    """``serial(X, *args, 0, n)``, or its parallel twin when ``work`` (multiply-adds) is
    worth a launch (``run_parallel``)."""
    run_parallel(parallel, serial, work / PARALLEL_WORK, X, *args, 0, X.shape[0],
                 unit_seconds=PARALLEL_SECONDS)


CHUNK = 16 * BLOCK               # rows a thread scores at a time
# Multiply-adds (QDA: d (d + 1) / 2 per row and class; LDA: d) from which the rows go to
# the threads: about 0.2 ms on one core (QDA 100,000 x 50 with 10 classes scored 1.3e9 in
# about 120 ms).
PARALLEL_WORK, PARALLEL_SECONDS = 2_000_000, 0.0002
