"""Density estimation over numpy arrays: the KDE and cross-validation sums as Numba kernels.

The classes subclass refml's (``refml.density``) and override only the hot sums (through
``FastKernelSums``); validation, bandwidth rules, Silverman's rule and the LSCV formulas
are refml's code.  ``Histogram`` has no hot core beyond counting: it only takes numpy in and
gives numpy out.
"""

import numpy as np

from refml import _bandwidth
from refml import density as reference
from refml._bandwidth import (histogram_amise, histogram_optimal_bandwidth, kde_amise,
                              kde_optimal_bandwidth)
from refml.density import histogram_cv_risk, silverman_bandwidth

from . import _kernels
from .base import FastMixin

__all__ = ["Histogram", "KernelDensity", "silverman_bandwidth", "histogram_cv_risk",
           "kde_cv_risk", "histogram_amise", "histogram_optimal_bandwidth", "kde_amise",
           "kde_optimal_bandwidth"]


class FastKernelSums(_bandwidth.KernelSums):
    """The sums of ``refml._bandwidth.KernelSums`` by the kernels of ``_kernels``."""

    def _kde_sums(self, queries, data, L, kernel, log):
        return _kernels.kde_sums(queries, data, L, kernel, log)

    def _cv_sums(self, data, L, kernel, coefficient):
        return _kernels.cv_sums(data, L, kernel, coefficient)

    def _loo_sums(self, data, L, kernel):
        return _kernels.loo_sums(data, L, kernel)

    def _feature_std(self, X):
        return _kernels.feature_std(X)

    def _diagonal_factor(self, bandwidths):
        return _kernels.diagonal_matrix(bandwidths)

    def _factor_product(self, L):
        return _kernels.factor_product(np.ascontiguousarray(L, dtype=np.float64))


class Histogram(FastMixin, reference.Histogram):
    __doc__ = reference.Histogram.__doc__


class KernelDensity(FastMixin, FastKernelSums, reference.KernelDensity):
    __doc__ = reference.KernelDensity.__doc__

    def _fit(self, X):
        # keep a copy: a C-contiguous float64 X arrives here without one (refml's X is a
        # fresh list already), and the model must not change when the caller's array does
        super()._fit(X.copy())


def kde_cv_risk(x, bandwidth, kernel="gaussian", method="formula"):
    return reference._kde_cv_risk(x, bandwidth, kernel, method, KernelDensity())


kde_cv_risk.__doc__ = reference.kde_cv_risk.__doc__
