"""Density estimation over numpy arrays: the KDE and cross-validation sums as Numba kernels.

The classes subclass refml's (``refml.density``) and override only the hot sums (through
``FastKernelSums``); validation, bandwidth rules, Silverman's rule and the LSCV formulas
are refml's code.  ``Histogram`` finds the cells in a kernel and counts them with numpy's sort.
"""

import numpy as np

from refml.density import kde as reference
from refml.density.bandwidth import (
    histogram_amise,
    histogram_optimal_bandwidth,
    kde_amise,
    kde_optimal_bandwidth,
)
from refml.density.kde import histogram_cv_risk, silverman_bandwidth
from refml_fast.core.base import FastMixin
from refml_fast.density import kernels as _kernels

__all__ = ["Histogram", "KernelDensity", "silverman_bandwidth", "histogram_cv_risk",
           "kde_cv_risk", "histogram_amise", "histogram_optimal_bandwidth", "kde_amise",
           "kde_optimal_bandwidth"]


class FastKernelSums(reference.KernelSums):
    """The sums of ``refml.density.KernelSums`` by the kernels of ``kernels``."""

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

    # The cells are rows of small integers (one byte per feature while bins <= 256), counted
    # by numpy's sort of those rows as byte strings; a query's cell is found by binary
    # search.  counts_ is refml's dict, built when it is read.

    @staticmethod
    def _column_extremes(X):
        return X.min(axis=0).tolist(), X.max(axis=0).tolist()

    def _cell_keys(self, X):
        """(keys, inside): each row's cell as a byte string, and whether it is in range."""
        cells = np.empty(X.shape, dtype=self._cell_dtype())
        inside = np.empty(X.shape[0], dtype=np.bool_)
        _kernels.histogram_cells(X, np.array(self.low_), np.array(self.high_), self.bins,
                                 cells, inside)
        return cells.view(np.dtype((np.void, cells.itemsize * X.shape[1]))).ravel(), inside

    def _count_cells(self, X):
        keys, inside = self._cell_keys(X)
        self.cell_keys_, self.cell_counts_ = np.unique(keys[inside], return_counts=True)

    def _chunk_cells(self, X):
        keys, inside = self._cell_keys(X)
        return np.unique(keys[inside], return_counts=True)

    def _add_cells(self, counts):
        keys, inverse = np.unique(np.concatenate([self.cell_keys_, counts[0]]),
                                  return_inverse=True)
        self.cell_counts_ = np.bincount(
            inverse, weights=np.concatenate([self.cell_counts_, counts[1]]),
            minlength=len(keys)).astype(np.int64)
        self.cell_keys_ = keys

    def _cell_counts(self, X):
        keys, inside = self._cell_keys(X)
        found = np.searchsorted(self.cell_keys_, keys)
        found[found == len(self.cell_keys_)] = 0
        counts = np.zeros(X.shape[0], dtype=np.int64)
        if len(self.cell_keys_):
            hit = inside & (self.cell_keys_[found] == keys)
            counts[hit] = self.cell_counts_[found[hit]]
        return counts.tolist()

    @property
    def counts_(self):
        """{cell: N_cell} as refml gives it (tuples of bin indices)."""
        if "cell_keys_" not in vars(self):
            raise AttributeError("counts_")
        d = self.n_features_in_
        cells = self.cell_keys_.view(np.uint8).reshape(len(self.cell_keys_), -1)
        cells = cells.view(self._cell_dtype()).reshape(-1, d)
        return {tuple(row): int(count) for row, count in zip(cells.tolist(), self.cell_counts_)}

    def _cell_dtype(self):
        return np.uint8 if self.bins <= 256 else np.uint16 if self.bins <= 65536 else np.int64


class KernelDensity(FastMixin, FastKernelSums, reference.KernelDensity):
    __doc__ = reference.KernelDensity.__doc__

    def _fit(self, X):
        # keep a copy: a C-contiguous float64 X arrives here without one (refml's X is a
        # fresh list already), and the model must not change when the caller's array does
        super()._fit(X.copy())


def kde_cv_risk(x, bandwidth, kernel="gaussian", method="formula"):
    return reference._kde_cv_risk(x, bandwidth, kernel, method, KernelDensity())


kde_cv_risk.__doc__ = reference.kde_cv_risk.__doc__
