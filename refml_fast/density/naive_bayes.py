"""Kernel density classifier and naive Bayes over numpy arrays (see refml.density.naive_bayes).

Overridden: the class-conditional log densities (KDE sums of ``kernels``; the Gaussian
and histogram marginals as kernels below), the Gaussian fit (per-class moments), and the
log-space posterior (plug-in, zero-density rule, argmax, log-sum-exp), all with refml's
operations in refml's order; ``exp`` and ``log`` are the C library's, as in ``math``.
numpy's own ``np.exp``/``np.log`` are avoided where a result feeds a decision: they are
vectorised and differ from the C library in the last bit on this machine.
"""

import math

import numpy as np
from numba import prange

from refml.density import kernels as reference_kernels
from refml.density import naive_bayes as reference
from refml_fast.core.base import FastMixin
from refml_fast.density import kernels as _kernels
from refml_fast.density.kde import FastKernelSums
from refml_fast.runtime import spec_first
from refml_fast.runtime.options import kernel
from refml_fast.runtime.threads import run_parallel

__all__ = ["KernelDensityClassifier", "NaiveBayes", "GaussianNB"]

ROW_BLOCK = 256  # rows of the Gaussian log densities a thread takes at a time


@kernel
def joint_log_likelihood_kernel(logs, log_prior, out):
    """out[a, k] = log pi_k + log f_k(x_a); a row of -inf only becomes log pi."""
    n_rows, n_classes = logs.shape
    for a in range(n_rows):
        every_zero = True
        for k in range(n_classes):
            out[a, k] = log_prior[k] + logs[a, k]
            if out[a, k] != -np.inf:
                every_zero = False
        if every_zero:
            for k in range(n_classes):
                out[a, k] = log_prior[k]


@kernel
def argmax_kernel(A, out):
    """The first column of each row's maximum."""
    for a in range(A.shape[0]):
        best = 0
        for k in range(1, A.shape[1]):
            if A[a, k] > A[a, best]:
                best = k
        out[a] = best


@kernel
def posterior_kernel(A, take_exp, out):
    """a - (m + log sum_k exp(a_k - m)), m = max a; exponentiated if take_exp."""
    for a in range(A.shape[0]):
        top = A[a, 0]
        for k in range(1, A.shape[1]):
            if A[a, k] > top:
                top = A[a, k]
        total = 0.0
        for k in range(A.shape[1]):
            total += math.exp(A[a, k] - top)
        log_total = top + math.log(total)
        for k in range(A.shape[1]):
            value = A[a, k] - log_total
            out[a, k] = math.exp(value) if take_exp else value


@kernel(refcounts=False)
def gaussian_log_density_rows(X, theta, var, constants, out, first, stop):
    """out[a, k] = constants[k] - 1/2 sum_j (x_aj - theta_kj)^2 / var_kj for the rows
    first..stop-1, each sum over j from 0.0.  Indexed in place: a row view per row (and its
    reference counts) had cost more than the row's work at d = 1 (121,155 x 1 with five
    classes: 4.2 -> 1.5 ms on one core)."""
    for a in range(first, stop):
        for k in range(theta.shape[0]):
            total = 0.0
            for j in range(X.shape[1]):
                deviation = X[a, j] - theta[k, j]
                total += deviation * deviation / var[k, j]
            out[a, k] = constants[k] - 0.5 * total


@kernel(parallel=True)
def gaussian_log_densities_parallel(X, theta, var, constants, out):
    blocks = (X.shape[0] + ROW_BLOCK - 1) // ROW_BLOCK
    for block in prange(blocks):
        gaussian_log_density_rows(X, theta, var, constants, out, block * ROW_BLOCK,
                                  min(X.shape[0], (block + 1) * ROW_BLOCK))


@kernel
def gaussian_log_densities_serial(X, theta, var, constants, out):
    gaussian_log_density_rows(X, theta, var, constants, out, 0, X.shape[0])


@kernel
def histogram_log_densities_kernel(X, low, high, width, counts, class_count, out):
    """out[a, k] = sum_j log(N_kjb / (n_k h_j)), -inf when a bin is empty or x outside."""
    n_classes, d, m = counts.shape
    for a in range(X.shape[0]):
        for k in range(n_classes):
            total = 0.0
            for j in range(d):
                x = X[a, j]
                count = 0
                if low[j] <= x <= high[j]:
                    b = min(math.floor((x - low[j]) * m / (high[j] - low[j])), m - 1)
                    count = counts[k, j, b]
                if count == 0:
                    total = -np.inf
                    break
                total += math.log(count / (class_count[k] * width[j]))
            out[a, k] = total


class _FastDensityClassifier(FastKernelSums):
    """The log-space posterior of ``refml.density.naive_bayes.DensityClassifier`` by kernels."""

    @staticmethod
    def _rows_of_class(X, codes, k):
        return np.ascontiguousarray(X[codes == k])

    @staticmethod
    def _column(X, j):
        return np.ascontiguousarray(X[:, j:j + 1])

    def _joint_log_likelihood(self, X):
        logs = np.ascontiguousarray(self._class_log_densities(X), dtype=np.float64)
        out = np.empty_like(logs)
        joint_log_likelihood_kernel(logs, np.asarray(self.class_log_prior_), out)
        return out

    def _predict_codes(self, X):
        out = np.empty(X.shape[0], dtype=np.int64)
        argmax_kernel(self._joint_log_likelihood(X), out)
        return out

    def _posterior(self, X, take_exp):
        X = self._validate_predict(X)
        A = self._joint_log_likelihood(X)
        out = np.empty_like(A)
        posterior_kernel(A, take_exp, out)
        return out

    def predict_log_proba(self, X):
        return self._posterior(X, False)

    def predict_proba(self, X):
        return self._posterior(X, True)


class KernelDensityClassifier(FastMixin, _FastDensityClassifier,
                              reference.KernelDensityClassifier):
    __doc__ = reference.KernelDensityClassifier.__doc__

    def _class_log_densities(self, X):
        columns = []
        for k, constant in enumerate(self._log_constants()):
            logs = self._kde_sums(X, self.class_data_[k], self.bandwidth_cholesky_[k],
                                  self.kernel, True)
            columns.append(logs + constant)
        return np.column_stack(columns)


class NaiveBayes(FastMixin, _FastDensityClassifier, reference.NaiveBayes):
    __doc__ = reference.NaiveBayes.__doc__

    @staticmethod
    def _one_class_codes(X):
        return np.zeros(X.shape[0], dtype=np.int64)

    def _moments(self, X, codes, n_classes, weights):
        codes = np.asarray(codes, dtype=np.int64)
        if weights is None:
            means, variances = _kernels.class_moments(X, codes, n_classes)
            totals = self._class_counts(codes, n_classes)
        else:
            means, variances, totals = _kernels.weighted_class_moments(X, codes, weights,
                                                                       n_classes)
            totals = totals.tolist()
        return totals, means.tolist(), variances.tolist()

    def _gaussian_log_densities(self, X):
        out = np.empty((X.shape[0], len(self.classes_)))
        work = out.size * X.shape[1]
        run_parallel(gaussian_log_densities_parallel, gaussian_log_densities_serial,
                     work / _kernels.PARALLEL_WORK, X, self.theta_, self.var_,
                     np.asarray(self._gaussian_constants()), out)
        return out

    def _histogram_log_densities(self, X):
        out = np.empty((X.shape[0], len(self.classes_)))
        histogram_log_densities_kernel(
            X, np.asarray(self.bin_low_, dtype=np.float64),
            np.asarray(self.bin_high_, dtype=np.float64),
            np.asarray(self.bin_width_, dtype=np.float64),
            np.asarray(self.bin_counts_, dtype=np.int64),
            np.asarray(self.class_count_, dtype=np.int64), out)
        return out

    def _kde_log_densities(self, X):
        log_c = reference_kernels.log_normaliser(self.kernel, 1)
        columns = []
        for k, n_k in enumerate(self.class_count_):
            totals = np.zeros(X.shape[0])
            for j in range(X.shape[1]):
                h = self.bandwidths_[k][j]
                logs = self._kde_sums(self._column(X, j), self._column(self.class_data_[k], j),
                                      [[h]], self.kernel, True)
                totals = totals + (logs + (log_c - math.log(h) - math.log(n_k)))
            columns.append(totals)
        return np.column_stack(columns)


@spec_first.tiered
class GaussianNB(NaiveBayes, reference.GaussianNB):
    __doc__ = reference.GaussianNB.__doc__

    def _class_weights(self, codes, weights, n_classes):
        return super()._class_weights(np.asarray(codes).tolist(),
                                      np.asarray(weights).tolist(), n_classes)
