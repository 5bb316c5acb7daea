"""The kernel density estimate ([Yan], "Kernel Density Estimation", "Cross-validation",
"Extension to higher dimension").

Data X_1, ..., X_n ~ f, the rows of X.  With a kernel K (a density, ``kernels``) and a
bandwidth h > 0,

    f_hat(x) = 1/(n h) sum_i K((x - X_i) / h),

and in d dimensions, with a symmetric positive definite bandwidth matrix H,

    f_hat(x) = 1/n sum_i det(H)^(-1/2) K(H^(-1/2)(x - X_i)).

The bandwidth is chosen by minimising the leave-one-out risk estimate

    J_hat(h) = int f_hat^2 - (2/n) sum_i f_hat_(-i)(X_i),

an estimate of MISE - int f^2 (Theorem 2.4: MISE = int b^2 + int v), or by Silverman's
rule, or as Theorem 2.6's h* (``bandwidth``).  The module reads: 1. f_hat, 2. J_hat and
the bandwidth it picks, 3. the estimator and ``kde_cv_risk``, which validate and store.
On the print: the printed J_hat is the large-n approximation of the exact formula
(``lscv_risk``).  The histogram is in ``histogram`` (its names are also importable here).
"""

import math

from refml.core import validation
from refml.core.base import DensityEstimator, as_sample
from refml.density import kernels as _kernels
from refml.density.bandwidth import (
    check_representable,
    explicit_cholesky,
    histogram_amise,
    histogram_optimal_bandwidth,
    inverse_root_determinant,
    kde_amise,
    kde_optimal_bandwidth,
    scaled,
    silverman_bandwidth,
    silverman_or_raise,
)
from refml.density.bandwidth import diagonal as diagonal_factor
from refml.density.bandwidth import factor_product as bandwidth_matrix
from refml.density.bandwidth import feature_std as standard_deviations
from refml.density.histogram import Histogram, histogram_cv_risk
from refml.density.kernels import log_normaliser, profile, whitened_squared_distance

__all__ = ["Histogram", "KernelDensity", "silverman_bandwidth", "histogram_cv_risk",
           "kde_cv_risk", "histogram_amise", "histogram_optimal_bandwidth", "kde_amise",
           "kde_optimal_bandwidth"]


# ----------------------------------------------------------------------------------------
# 1. The estimate.  The bandwidth matrix H is carried by its Cholesky factor L, H = L L'
# (in one dimension L = h), so that |H^(-1/2) u|^2 = |L^(-1) u|^2.


def kernel_density(x, X, L, kernel):
    """f_hat(x) = 1/n sum_i det(H)^(-1/2) K(H^(-1/2)(x - X_i)), H = L L'.

    In one dimension this is the printed 1/(n h) sum_i K((x - X_i)/h).  The radial kernel
    K(u) = c_d k(|u|^2) puts the constant outside the sum:
    f_hat(x) = [c_d det(H)^(-1/2) / n] * sum_i k(q_i),  q_i = |L^(-1)(x - X_i)|^2."""
    return math.exp(log_kde_constant(kernel, L, len(X))) * kernel_sum(x, X, L, kernel)


def log_kde_constant(kernel, L, n):
    """log(c_d det(H)^(-1/2) / n) = log c_d - sum_j log L_jj - log n."""
    value = log_normaliser(kernel, len(L))
    for j in range(len(L)):
        value -= math.log(L[j][j])
    return value - math.log(n)


def kernel_sum(x, X, L, kernel):
    """S(x) = sum_i k(q_i), q_i = |L^(-1)(x - X_i)|^2, the rows X_i in order."""
    d = len(L)
    total = 0.0
    for X_i in X:
        total += profile(kernel, whitened_squared_distance(x, X_i, L), d)
    return total


def log_kernel_sum(x, X, L, kernel):
    """log S(x), without underflow far in the tails.

    Gaussian: with m = min_i q_i, log S = log sum_i exp(-(q_i - m)/2) - m/2, and the
    shifted sum is >= 1 (m = inf, every q_i beyond the float range, gives -inf:
    log S < -m/2 is below -1e308).  Epanechnikov: log S, or -inf where every k(q_i) = 0."""
    if kernel != "gaussian":
        total = kernel_sum(x, X, L, kernel)
        return math.log(total) if total > 0.0 else -math.inf
    q = [whitened_squared_distance(x, X_i, L) for X_i in X]
    smallest = min(q)
    if smallest == math.inf:
        return -math.inf
    total = 0.0
    for q_i in q:
        total += math.exp(-0.5 * (q_i - smallest))
    return math.log(total) - 0.5 * smallest


# ----------------------------------------------------------------------------------------
# 2. Its J_hat and the bandwidth it picks ([Yan], "Cross-validation").

# bandwidth="cv" searches H = s^2 H_silverman (every h_j scaled by s) for s = 2^(k/8),
# k = -24..8: 33 factors from 1/8 to 2; the first minimum of J_hat wins.
CV_SCALES = [2.0 ** (k / 8.0) for k in range(-24, 9)]


def lscv_risk(sums, X, L, kernel, method):
    """J_hat(H) of least-squares cross-validation.

    Definition:  J_hat = int f_hat^2 - (2/n) sum_i f_hat_(-i)(X_i), with
        int f_hat^2 = det(H)^(-1/2) / n^2 sum_i sum_j (K*K)(z_ij),  z_ij = L^(-1)(X_i - X_j)
        (a Gaussian integral, or the Epanechnikov convolution) and f_hat_(-i) the estimate
        without X_i.
    "formula" (exact):  J_hat = det(H)^(-1/2) [ 1/n^2 sum_ij K*_n(z_ij) + 2 K(0)/(n-1) ],
        K*_n = K*K - 2n/(n-1) K.  Derivation: sum_i f_hat_(-i)(X_i) =
        det(H)^(-1/2)/(n-1) sum_{i != j} K(z_ij), and sum_{i != j} = sum_ij - n K(0).
    "lecture": the printed approximation, n/(n-1) replaced by 1:
        J_hat ~ 1/(n^2 h) sum_ij K*((X_i - X_j)/h) + 2 K(0)/(n h),  K* = K*K - 2K.
    ``sums`` provides the double sums ``_cv_sums`` and ``_loo_sums`` (``KernelSums``).
    """
    n, d = len(X), len(L)
    if n < 2:
        raise ValueError(f"cross-validation needs at least 2 samples, got {n}")
    root = inverse_root_determinant(L)
    k0 = math.exp(log_normaliser(kernel, d))
    if method == "definition":
        integral = root * sums._cv_sums(X, L, kernel, 0.0) / (n * n)
        leave_one_out = 0.0
        for total in sums._loo_sums(X, L, kernel):
            leave_one_out += root * total / (n - 1)
        return integral - 2.0 / n * leave_one_out
    if method == "formula":
        double_sum = sums._cv_sums(X, L, kernel, 2.0 * n / (n - 1))
        return root * (double_sum / (n * n) + 2.0 * k0 / (n - 1))
    double_sum = sums._cv_sums(X, L, kernel, 2.0)
    return root * (double_sum / (n * n) + 2.0 * k0 / n)


def cv_search(sums, X, base_L, kernel):
    """(L, scores): the factor s L of ``CV_SCALES`` with the smallest J_hat (exact formula);
    a later factor replaces the best only on a strict decrease.  scores: [(s, J_hat)]."""
    best_L, best_risk, scores = None, math.inf, []
    for s in CV_SCALES:
        L = scaled(base_L, s)
        risk = lscv_risk(sums, X, L, kernel, "formula")
        scores.append((s, risk))
        if risk < best_risk:
            best_L, best_risk = L, risk
    return best_L, scores


# ----------------------------------------------------------------------------------------
# 3. The estimator.


class KernelSums:
    """The KDE sums as methods, so that refml_fast overrides them with kernels (shared with
    the KDE class-conditionals of ``naive_bayes``)."""

    def _kde_sums(self, queries, X, L, kernel, log):
        """S(x) (``kernel_sum``) or log S(x) (``log_kernel_sum``) for each query."""
        if log:
            return [log_kernel_sum(x, X, L, kernel) for x in queries]
        return [kernel_sum(x, X, L, kernel) for x in queries]

    def _cv_sums(self, X, L, kernel, coefficient):
        return _kernels.cv_sums(X, L, kernel, coefficient)

    def _loo_sums(self, X, L, kernel):
        return _kernels.loo_sums(X, L, kernel)

    def _feature_std(self, X):
        return standard_deviations(X)

    def _diagonal_factor(self, bandwidths):
        return diagonal_factor(bandwidths)

    def _factor_product(self, L):
        return bandwidth_matrix(L)


class KernelDensity(KernelSums, DensityEstimator):
    """f_hat(x) = 1/n sum_i det(H)^(-1/2) K(H^(-1/2)(x - X_i))  ([Yan], KDE; in one
    dimension H = h^2 and f_hat(x) = 1/(n h) sum_i K((x - X_i)/h): ``kernel_density``).

    Parameters
    ----------
    kernel : "gaussian" or "epanechnikov" (the lecture's, variance 1; radial in d > 1, see
        ``refml.density.kernels``).
    bandwidth : the matrix H, given as
        * a number h > 0: H = h^2 I (f_hat = 1/(n h) sum K((x - X_i)/h) in one dimension);
        * d positive numbers h_j: H = diag(h_j^2);
        * a symmetric positive definite d x d matrix: H itself;
        * "silverman": Silverman's rule H_jj = (4/(n(d+2)))^(2/(d+4)) sigma_j^2 (the
          lecture prints sigma_j: see ``refml.density.bandwidth``); a constant feature is a
          ValueError (the rule would give a zero bandwidth);
        * "cv": least-squares cross-validation, H = s^2 H_silverman with s the first
          minimiser of J_hat over ``CV_SCALES`` (33 factors 2^(k/8) from 1/8 to 2), J_hat
          from the exact formula (``lscv_risk``); the Epanechnikov kernel needs d = 1.
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

    def _fit(self, X):
        n, d = self._n_rows_cols(X)
        self.training_data_ = X
        self.cv_scores_ = None
        if not isinstance(self.bandwidth, str):
            L = explicit_cholesky(self.bandwidth, d, self._diagonal_factor)
        else:
            L = self._diagonal_factor(self._silverman(X, n))
            if self.bandwidth == "cv":
                L, self.cv_scores_ = cv_search(self, X, L, self.kernel)
        self.bandwidth_cholesky_ = check_representable(L, "bandwidth (from X)")
        self.bandwidth_matrix_ = self._factor_product(L)  # H = L L'
        self.bandwidth_ = float(self.bandwidth_cholesky_[0][0]) if d == 1 else None

    def pdf(self, X):
        """f_hat(x) = [c_d det(H)^(-1/2) / n] sum_i k(q_i), summed directly as in
        ``kernel_density`` (it underflows to 0 far in the tails; ``score_samples`` does not)."""
        X = self._validate_predict(X)
        L = self.bandwidth_cholesky_
        sums = self._kde_sums(X, self.training_data_, L, self.kernel, False)
        scale = math.exp(log_kde_constant(self.kernel, L, len(self.training_data_)))
        return self._as_output([scale * s for s in sums])

    def score_samples(self, X):
        """log f_hat(x) = log(c_d det(H)^(-1/2) / n) + ``log_kernel_sum``."""
        X = self._validate_predict(X)
        L = self.bandwidth_cholesky_
        logs = self._kde_sums(X, self.training_data_, L, self.kernel, True)
        constant = log_kde_constant(self.kernel, L, len(self.training_data_))
        return self._as_output([value + constant for value in logs])

    # --- parameter checks ---
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
            explicit_cholesky(self.bandwidth, d, make_diagonal=list)

    def _silverman(self, X, n):
        try:
            return silverman_or_raise(self._feature_std(X), n, "X")
        except ValueError as error:
            raise ValueError(f"Invalid parameter bandwidth={self.bandwidth!r}: "
                             f"{error}") from None


def kde_cv_risk(x, bandwidth, kernel="gaussian", method="formula"):
    """J_hat(h) of the one-dimensional KDE with bandwidth h ([Yan], "Cross-validation").

    method: "formula" (exact, 1/(n^2 h) sum_ij K*_n((X_i - X_j)/h) + 2 K(0)/((n - 1) h) with
    K*_n = K*K - 2n/(n-1) K), "definition" (int f_hat^2 minus 2/n times the leave-one-out
    estimates), or "lecture" (the printed approximation with K* = K*K - 2K and
    2 K(0)/(n h): it differs from the exact value by O(1/n) relative).  See ``lscv_risk``.
    """
    return _kde_cv_risk(x, bandwidth, kernel, method, KernelDensity())


# ----------------------------------------------------------------------------------------
# Shared with refml_fast.


def _kde_cv_risk(x, bandwidth, kernel, method, estimator):
    """``kde_cv_risk`` for refml and refml_fast: ``estimator`` supplies the representation
    and the sums."""
    data = as_sample(x, estimator)
    validation.check_scalar(bandwidth, "bandwidth", "real", low=0.0, high=math.inf,
                            low_open=True, high_open=True)
    validation.check_option(kernel, "kernel", _kernels.KERNELS)
    validation.check_option(method, "method", ("formula", "definition", "lecture"))
    return lscv_risk(estimator, data, [[float(bandwidth)]], kernel, method)


