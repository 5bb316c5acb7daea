"""Density estimation: the histogram and the kernel density estimate, with their bandwidths.

[Yan] ([Yan]), sections "Setup: density estimation" to
"Extension to higher dimension".  Data X_1, ..., X_n ~ f (rows of X); the estimate f_hat is
judged by MISE = E int (f_hat - f)^2 = int b^2 + int v (Theorem 2.4).

Histogram: m bins of width h; f_hat(x) = p_hat_j / h on bin B_j, p_hat_j = N_j / n.
Its leave-one-out risk estimate J_hat(h) = int f_hat^2 - (2/n) sum_i f_hat_(-i)(X_i) has the
closed form (derived in ``histogram_cv_risk``; the lecture's print drops the 1/h of the
second term):

    J_hat(h) = 2 / ((n - 1) h) - (n + 1) / ((n - 1) h) sum_j p_hat_j^2.

Kernel density estimate: f_hat(x) = 1/n sum_i det(H)^(-1/2) K(H^(-1/2)(x - X_i)), which is
1/(n h) sum_i K((x - X_i)/h) in one dimension with H = h^2.  Kernels in ``_kernels.py``;
bandwidths (Theorem 2.6, Silverman's rule, LSCV) in ``_bandwidth.py``.
"""

import math

from . import _bandwidth as bandwidths
from . import _kernels
from . import _validation as validation
from ._bandwidth import (
    histogram_amise,
    histogram_optimal_bandwidth,
    kde_amise,
    kde_optimal_bandwidth,
    silverman_bandwidth,
)
from ._bins import _cell, _check_range, _range_pairs, bin_index, check_bin_widths  # noqa: F401
from .base import DataEstimator

__all__ = ["Histogram", "KernelDensity", "silverman_bandwidth", "histogram_cv_risk",
           "kde_cv_risk", "histogram_amise", "histogram_optimal_bandwidth", "kde_amise",
           "kde_optimal_bandwidth"]


class DensityEstimator(DataEstimator):
    """fit(X) / pdf(X) / score_samples(X) plumbing on ``refml.base.DataEstimator``, so that
    ``refml_fast.base.FastMixin`` applies unchanged."""

    _estimator_type = "density_estimator"
    # A 1-D density's data may come flat (see ``fit``), where scikit-learn expects 2-D X.
    _expected_failed_checks = {
        "check_fit1d": "one-dimensional data may come flat: n numbers are the column n x 1",
    }

    def fit(self, X, y=None):
        """Learn the density of the rows of X (y is ignored); returns self.  One-dimensional
        data may come flat: n numbers (a list, a 1-D array, a Series) are the column n x 1,
        here, in ``pdf``/``score_samples`` and in the cross-validation risks alike."""
        X = self._as_matrix(flat_as_column(X))
        self._check_params(X)
        self.n_features_in_ = self._n_rows_cols(X)[1]
        try:
            self._fit(X)
        except BaseException:
            self._forget()
            raise
        return self

    def _validate_predict(self, X):
        return super()._validate_predict(flat_as_column(X))

    def pdf(self, X):
        """The estimated density f_hat(x) at each row x of X."""
        raise NotImplementedError

    def score_samples(self, X):
        """log f_hat(x) at each row of X (-inf where f_hat is 0)."""
        raise NotImplementedError

    def score(self, X, y=None):
        """The log-likelihood sum_x log f_hat(x) of the rows of X."""
        total = 0.0
        for value in self.score_samples(X):
            total += float(value)
        return total


# ----------------------------------------------------------------------------------------
# The histogram.


class Histogram(DensityEstimator):
    """The histogram density estimate with ``bins`` equal bins per feature.

    Parameters
    ----------
    bins : int >= 1, the number m of bins of each feature (lecture: h = 1/m on [0, 1]).
    range : None (each feature's [min, max] in the training data, widened to
        [v - 0.5, v + 0.5] when the feature is constant, as numpy does), a pair
        (low, high) for every feature, or one pair per feature.

    Attributes
    ----------
    low_, high_ : the range of each feature;  bin_width_ : h_j = (high_j - low_j) / m.
    counts_ : {cell: N_cell}, the non-empty cells (one bin index per feature).
    n_samples_ : n, counting the training points outside the range too (they fall in no
        bin, as p_hat_j = 1/n sum_i 1{X_i in B_j} says; f_hat then integrates to the
        fraction of points inside).

    Notes
    -----
    Bin of x: j = floor((x - low) m / (high - low)), with x = high in the last bin (the
    lecture's B_m = [(m-1)/m, 1] is closed); x < low or x > high is in no bin (f_hat = 0).
    In d dimensions the cells are products of bins: f_hat(x) = N_cell / (n prod_j h_j).
    """

    def __init__(self, *, bins=10, range=None):
        self.bins = bins
        self.range = range

    def _check_params(self, X):
        validation.check_scalar(self.bins, "bins", "int", low=1)
        _check_range(self.range, self._n_rows_cols(X)[1])

    def _fit(self, X):
        n, d = self._n_rows_cols(X)
        if self.range is None:
            low, high = self._column_extremes(X)
            for j in range(d):
                if low[j] == high[j]:
                    low[j], high[j] = low[j] - 0.5, high[j] + 0.5
        else:
            pairs = _range_pairs(self.range, d)
            low, high = [float(p[0]) for p in pairs], [float(p[1]) for p in pairs]
        check_bin_widths(low, high, self.bins, "Histogram")
        self.low_, self.high_ = low, high
        self.bin_width_ = [(high[j] - low[j]) / self.bins for j in range(d)]
        self._count_cells(X)
        self.n_samples_ = n

    def _count_cells(self, X):
        """counts_: N_cell of every non-empty cell."""
        counts = {}
        for cell in self._cells(X):
            if cell is not None:
                counts[cell] = counts.get(cell, 0) + 1
        self.counts_ = counts

    @staticmethod
    def _column_extremes(X):
        d = len(X[0])
        low, high = [math.inf] * d, [-math.inf] * d
        for row in X:
            for j in range(d):
                low[j] = min(low[j], float(row[j]))
                high[j] = max(high[j], float(row[j]))
        return low, high

    def _cells(self, X):
        """The cell (tuple of bin indices) of each row, None outside the range."""
        return [_cell(row, self.low_, self.high_, self.bins) for row in X]

    def _volume(self):
        volume = 1.0
        for h in self.bin_width_:
            volume *= h
        return volume

    def pdf(self, X):
        """f_hat(x) = N_cell(x) / (n prod_j h_j), 0 outside the range or in an empty cell.

        When the volume prod_j h_j leaves the float range (tiny bins in many dimensions),
        the value is exp(log f_hat(x)) from the logs of the widths: inf where f_hat(x) is
        beyond the largest float, never a division by zero."""
        X = self._validate_predict(X)
        counts, denominator = self._cell_counts(X), self._denominator()
        if denominator is None:
            return self._as_output([_exp(value) for value in self._log_pdf(counts)])
        return self._as_output([count / denominator for count in counts])

    def score_samples(self, X):
        """log f_hat(x), -inf where f_hat(x) = 0."""
        X = self._validate_predict(X)
        counts, denominator = self._cell_counts(X), self._denominator()
        if denominator is None:
            return self._as_output(self._log_pdf(counts))
        return self._as_output([math.log(count / denominator) if count > 0 else -math.inf
                                for count in counts])

    def _cell_counts(self, X):
        """N_cell(x) for each row x (0 outside the range)."""
        return [self.counts_.get(cell, 0) if cell is not None else 0 for cell in self._cells(X)]

    def _denominator(self):
        """n prod_j h_j, or None where it leaves the float range."""
        value = self.n_samples_ * self._volume()
        return value if 0.0 < value < math.inf else None

    def _log_pdf(self, counts):
        """log f_hat = log N_cell - log n - sum_j log h_j, for a volume out of float range."""
        log_denominator = math.log(self.n_samples_) + sum(math.log(h) for h in self.bin_width_)
        return [math.log(count) - log_denominator if count > 0 else -math.inf
                for count in counts]


def _exp(value):
    """exp(value), inf where it overflows (math.exp raises OverflowError there)."""
    try:
        return math.exp(value)
    except OverflowError:
        return math.inf


def histogram_cv_risk(x, bins, range=(0, 1), method="closed_form"):
    """The leave-one-out risk estimate J_hat(h) of the histogram with ``bins`` bins.

    J_hat(h) = int f_hat^2 - (2/n) sum_i f_hat_(-i)(X_i)   ([Yan], "Cross-validation").

    method="definition" computes exactly that: int f_hat^2 = sum_j (p_j/h)^2 h, and a point
    of bin j sees f_hat_(-i)(X_i) = (N_j - 1) / ((n - 1) h).  method="closed_form" uses

        J_hat(h) = 2 P / ((n - 1) h) - (n + 1) / ((n - 1) h) sum_j p_j^2,   P = sum_j p_j,

    (P = 1 when every point is inside ``range``).  Derivation: sum_i f_hat_(-i)(X_i) =
    sum_j N_j (N_j - 1) / ((n - 1) h), so (2/n) of it is 2 (n sum_j p_j^2 - P) / ((n-1) h),
    and J_hat = sum p_j^2 / h - 2n sum p_j^2 / ((n-1) h) + 2P / ((n-1) h).  The lecture
    prints 2/((n-1)h) - (n+1)/(n-1) sum_j p_j^2: the second term lacks its 1/h = m
    (tests/test_density.py shows the print disagreeing with the definition).

    x is a flat sequence of n >= 2 numbers; bins (m) an int >= 1; range (low, high).
    """
    data = _as_sample(x, Histogram())
    validation.check_scalar(bins, "bins", "int", low=1)
    validation.check_option(method, "method", ("closed_form", "definition"))
    low, high = (float(v) for v in _range_pairs(range, 1)[0])
    n = len(data)
    if n < 2:
        raise ValueError(f"cross-validation needs at least 2 samples, got {n}")
    check_bin_widths([low], [high], bins, "histogram_cv_risk")
    h = (high - low) / bins
    cells = [_cell(row, [low], [high], bins) for row in data]
    counts = [0] * bins
    for cell in cells:
        if cell is not None:
            counts[cell[0]] += 1
    if method == "closed_form":
        inside, squares = 0.0, 0.0
        for count in counts:
            p = count / n
            inside += p
            squares += p * p
        return 2.0 * inside / ((n - 1) * h) - (n + 1) / ((n - 1) * h) * squares
    integral = 0.0
    for count in counts:
        integral += (count / n / h) ** 2 * h
    leave_one_out = 0.0
    for cell in cells:  # X_i's own bin loses X_i; outside the range f_hat_(-i) = 0
        if cell is not None:
            leave_one_out += (counts[cell[0]] - 1) / ((n - 1) * h)
    return integral - 2.0 / n * leave_one_out


def flat_as_column(X):
    """One-dimensional data given flat (n numbers: a list, a 1-D array, a Series) as the
    column n x 1; anything else unchanged (rows, to be validated as usual)."""
    if getattr(X, "ndim", None) == 1:
        values = X.to_numpy() if hasattr(X, "to_numpy") else X
        return values.reshape(-1, 1)
    if isinstance(X, (list, tuple)) and X and not any(
            isinstance(v, (str, bytes)) or hasattr(v, "__iter__") for v in X):
        return [[v] for v in X]
    return X


def _as_sample(x, estimator):
    """One variable's sample as a column (n x 1) in the estimator's representation: n
    numbers flat, or n rows of one number (the same convention as the estimators)."""
    if isinstance(x, (str, bytes)) or not hasattr(x, "__iter__"):
        raise ValueError(f"x must be a flat sequence of numbers, got {type(x).__name__}")
    data = estimator._as_matrix(flat_as_column(x))
    if estimator._n_rows_cols(data)[1] != 1:
        raise ValueError("x must be one variable: a flat sequence of numbers or rows of one "
                         f"number, got rows of {estimator._n_rows_cols(data)[1]}")
    return data


# ----------------------------------------------------------------------------------------
# The kernel density estimate.


class KernelDensity(bandwidths.KernelSums, DensityEstimator):
    """f_hat(x) = 1/n sum_i det(H)^(-1/2) K(H^(-1/2)(x - X_i))  ([Yan], KDE; in 1-D, H = h^2,
    the printed 1/(n h) sum_i K((x - X_i)/h) of ``refml._kernels.kde_on_the_line``).

    Parameters
    ----------
    kernel : "gaussian" or "epanechnikov" (the lecture's, variance 1; radial in d > 1, see
        ``refml._kernels``).
    bandwidth : the matrix H, given as
        * a number h > 0: H = h^2 I (f_hat = 1/(n h) sum K((x - X_i)/h) in one dimension);
        * d positive numbers h_j: H = diag(h_j^2);
        * a symmetric positive definite d x d matrix: H itself;
        * "silverman": Silverman's rule H_jj = (4/(n(d+2)))^(2/(d+4)) sigma_j^2 (the
          lecture prints sigma_j: see ``refml._bandwidth``); a constant feature is a
          ValueError (the rule would give a zero bandwidth);
        * "cv": least-squares cross-validation, H = s^2 H_silverman with s the first
          minimiser of J_hat over ``refml._bandwidth.CV_SCALES`` (33 factors 2^(k/8) from
          1/8 to 2), J_hat from the exact K* formula; the Epanechnikov kernel needs d = 1.
        For the asymptotically optimal h* of Theorem 2.6, pass
        ``kde_optimal_bandwidth(n, int f''^2, kernel)``.

    Attributes
    ----------
    training_data_ : the rows X_i;  bandwidth_matrix_ : H;  bandwidth_cholesky_ : L with
    H = L L' (the square root used);  bandwidth_ : h, the scalar bandwidth of 1-D data
    (H = h^2), None in several dimensions;  cv_scores_ : [(s, J_hat)] for "cv", else None.
    """

    def __init__(self, *, kernel="gaussian", bandwidth=1.0):
        self.kernel = kernel
        self.bandwidth = bandwidth

    def _check_params(self, X):
        validation.check_option(self.kernel, "kernel", _kernels.KERNELS)
        n, d = self._n_rows_cols(X)
        if isinstance(self.bandwidth, str):
            validation.check_option(self.bandwidth, "bandwidth", ("silverman", "cv"))
            if self.bandwidth == "cv" and self.kernel == "epanechnikov" and d != 1:
                raise ValueError("Invalid parameter bandwidth='cv': with kernel='epanechnikov' "
                                 f"cross-validation is implemented for 1 feature, X has {d}")
            if self.bandwidth == "cv" and n < 2:
                raise ValueError("Invalid parameter bandwidth='cv': cross-validation needs "
                                 f"at least 2 samples, X has {n}")
        else:
            bandwidths.explicit_cholesky(self.bandwidth, d, make_diagonal=list)

    def _fit(self, X):
        n, d = self._n_rows_cols(X)
        self.training_data_ = X
        self.cv_scores_ = None
        if not isinstance(self.bandwidth, str):
            L = bandwidths.explicit_cholesky(self.bandwidth, d, self._diagonal_factor)
        else:
            try:
                silverman = bandwidths.silverman_or_raise(self._feature_std(X), n, "X")
            except ValueError as error:
                raise ValueError(f"Invalid parameter bandwidth={self.bandwidth!r}: "
                                 f"{error}") from None
            L = self._diagonal_factor(silverman)
            if self.bandwidth == "cv":
                L, self.cv_scores_ = bandwidths.cv_search(self, X, L, self.kernel)
        self.bandwidth_cholesky_ = bandwidths.check_representable(L, "bandwidth (from X)")
        self.bandwidth_matrix_ = self._factor_product(L)  # H = L L'
        self.bandwidth_ = float(self.bandwidth_cholesky_[0][0]) if d == 1 else None


    def _log_constant(self):
        """log( c_d det(H)^(-1/2) / n ) = log c_d - sum_j log L_jj - log n."""
        L = self.bandwidth_cholesky_
        value = _kernels.log_normaliser(self.kernel, len(L))
        for j in range(len(L)):
            value -= math.log(L[j][j])
        return value - math.log(len(self.training_data_))

    def pdf(self, X):
        """f_hat(x) = c_d det(H)^(-1/2) / n * sum_i k(q_i): the formula, summed directly
        (it underflows to 0 far in the tails; ``score_samples`` does not)."""
        X = self._validate_predict(X)
        sums = self._kde_sums(X, self.training_data_, self.bandwidth_cholesky_, self.kernel,
                              False)
        scale = math.exp(self._log_constant())
        return self._as_output([scale * s for s in sums])

    def score_samples(self, X):
        """log f_hat(x) = log(c_d det(H)^(-1/2) / n) + log sum_i k(q_i), the log sum taken
        with the minimum q_i factored out (finite far in the Gaussian tails)."""
        X = self._validate_predict(X)
        logs = self._kde_sums(X, self.training_data_, self.bandwidth_cholesky_, self.kernel,
                              True)
        constant = self._log_constant()
        return self._as_output([value + constant for value in logs])


def kde_cv_risk(x, bandwidth, kernel="gaussian", method="formula"):
    """J_hat(h) of the one-dimensional KDE with bandwidth h ([Yan], "Cross-validation").

    method: "formula" (exact, 1/(n^2 h) sum_ij K*_n((X_i - X_j)/h) + 2 K(0)/((n - 1) h) with
    K*_n = K*K - 2n/(n-1) K), "definition" (int f_hat^2 minus 2/n times the leave-one-out
    estimates), or "lecture" (the printed approximation with K* = K*K - 2K and
    2 K(0)/(n h): it differs from the exact value by O(1/n) relative).  See
    ``refml._bandwidth.lscv_risk`` for the derivation.
    """
    return _kde_cv_risk(x, bandwidth, kernel, method, KernelDensity())


def _kde_cv_risk(x, bandwidth, kernel, method, estimator):
    """Shared by refml and refml_fast: ``estimator`` supplies the representation and sums."""
    data = _as_sample(x, estimator)
    validation.check_scalar(bandwidth, "bandwidth", "real", low=0.0, high=math.inf,
                            low_open=True, high_open=True)
    validation.check_option(kernel, "kernel", _kernels.KERNELS)
    validation.check_option(method, "method", ("formula", "definition", "lecture"))
    return bandwidths.lscv_risk(estimator, data, [[float(bandwidth)]], kernel, method)
