"""Plug-in classifiers from estimated densities: kernel density classifier and naive Bayes.

[Yan], "Kernel Density Classifier" and "Naive Bayes Classifier".  Bayes' formula with
estimates plugged in:

    P_hat(Y = k | X = x) = pi_k f_k(x) / sum_k' pi_k' f_k'(x),   pi_k = n_k / n,

and the prediction argmax_k pi_k f_k(x) (ties: the first class in ``classes_`` order).
* Kernel density classifier: f_k is a KDE on the rows of class k (``refml.density``).
* Naive Bayes: f_k(x) = prod_j f_kj(x_j), each marginal f_kj estimated in one dimension by a
  Gaussian (``GaussianNB``), a histogram or a KDE.

The module reads: 1. the plug-in rule, in log space, 2. the class densities f_k, 3. the
estimators, which validate and store.

Everything is computed in log space, a_k(x) = log pi_k + log f_k(x), and the posterior is
exp(a_k - logsumexp(a)), so it never underflows, even far in the tails.  Zero-density rule:
where every class has f_k(x) = 0 (compact Epanechnikov kernels, histogram bins that no class
fills, x outside the histogram range), the data say nothing about x, and a_k(x) = log pi_k:
the posterior is the prior and the prediction the most frequent class.  No division by zero
happens anywhere.

Bandwidths of the kernel estimates (``bandwidth="silverman"`` or ``"cv"``): Silverman's rule
for the n_k rows of class k.  When a feature has zero standard deviation within a class (a
class with a single sample, or a constant feature) its sigma is replaced by the standard
deviation of that feature over all training rows, and by 1.0 when the feature is constant
in the whole training set.  "cv" searches s times that bandwidth as ``KernelDensity`` does,
for classes with at least 2 samples (Silverman's otherwise).
"""

import math

from refml.core import linalg, online, validation
from refml.core.base import Classifier
from refml.core.linalg import argmax
from refml.core.online import OnlineClassifier
from refml.density import bandwidth as bandwidths
from refml.density import kde as density
from refml.density import kernels as _kernels
from refml.density.bins import bin_index, check_bin_widths
from refml.density.histogram import Histogram

__all__ = ["KernelDensityClassifier", "NaiveBayes", "GaussianNB"]

# ----------------------------------------------------------------------------------------
# 1. The plug-in rule.


def plug_in_scores(log_priors, log_densities):
    """a_k(x) = log pi_k + log f_k(x); where every f_k(x) = 0, a_k(x) = log pi_k (the
    zero-density rule)."""
    row = [prior + value for prior, value in zip(log_priors, log_densities)]
    if all(value == -math.inf for value in row):
        return list(log_priors)
    return row


def plug_in_decision(scores):
    """argmax_k a_k(x); a tie keeps the first class."""
    return argmax(scores)


def log_posterior(row):
    """log P_hat(Y = k | X = x) = a_k - logsumexp(a), with logsumexp(a) = m + log sum
    exp(a_k - m), m = max a_k."""
    top = max(row)
    total = 0.0
    for value in row:
        total += math.exp(value - top)
    log_total = top + math.log(total)
    return [value - log_total for value in row]


# ----------------------------------------------------------------------------------------
# 2. The class densities f_k.  The KDE of a class: ``density.log_kernel_sum`` plus its
# constant.  Naive Bayes: log f_k(x) = sum_j log f_kj(x_j).


def class_moments(X, codes, n_classes):
    """(means, variances), K x d: per-class mean and variance with divisor n_k, summed in
    row order (refml_fast repeats this order)."""
    d = len(X[0])
    counts = [0] * n_classes
    sums = [[0.0] * d for _ in range(n_classes)]
    for row, code in zip(X, codes):
        counts[code] += 1
        for j in range(d):
            sums[code][j] += row[j]
    means = [[sums[k][j] / counts[k] for j in range(d)] for k in range(n_classes)]
    squares = [[0.0] * d for _ in range(n_classes)]
    for row, code in zip(X, codes):
        for j in range(d):
            deviation = row[j] - means[code][j]
            squares[code][j] += deviation * deviation
    variances = [[squares[k][j] / counts[k] for j in range(d)] for k in range(n_classes)]
    return means, variances


def weighted_class_moments(X, codes, weights, n_classes):
    """(means, variances, totals): per-class weighted mean sum_i w_i x_i / W_k and variance
    sum_i w_i (x_i - mean)^2 / W_k, W_k = sum_i w_i over the class, summed in row order.
    Whole-number weights w give the moments of the rows repeated w times (to rounding)."""
    d = len(X[0])
    totals = [0.0] * n_classes
    sums = [[0.0] * d for _ in range(n_classes)]
    for row, code, w in zip(X, codes, weights):
        totals[code] += w
        for j in range(d):
            sums[code][j] += w * row[j]
    means = [[sums[k][j] / totals[k] for j in range(d)] for k in range(n_classes)]
    squares = [[0.0] * d for _ in range(n_classes)]
    for row, code, w in zip(X, codes, weights):
        for j in range(d):
            deviation = row[j] - means[code][j]
            squares[code][j] += w * (deviation * deviation)
    variances = [[squares[k][j] / totals[k] for j in range(d)] for k in range(n_classes)]
    return means, variances, totals


def gaussian_log_density(x, theta, var, constant):
    """log f_k(x) = -1/2 sum_j log(2 pi var_kj) - 1/2 sum_j (x_j - theta_kj)^2 / var_kj,
    the first sum given as ``constant``."""
    total = 0.0
    for j in range(len(x)):
        deviation = x[j] - theta[j]
        total += deviation * deviation / var[j]
    return constant - 0.5 * total


def histogram_log_density(x, counts, n_k, low, high, width, m):
    """log f_k(x) = sum_j log(N_kjb / (n_k h_j)), b the bin of x_j; -inf when a bin of x is
    empty for the class or x_j is outside the range."""
    total = 0.0
    for j in range(len(x)):
        b = bin_index(x[j], low[j], high[j], m)
        count = 0 if b is None else counts[j][b]
        if count == 0:
            return -math.inf
        total += math.log(count / (n_k * width[j]))
    return total


def histogram_counts(X, codes, n_classes, low, high, m):
    """N_kjb: how many rows of class k have feature j in bin b of the grid (low, high, m);
    a value outside [low_j, high_j] is in no bin."""
    d = len(low)
    counts = [[[0] * m for _ in range(d)] for _ in range(n_classes)]
    for row, code in zip(X, codes):
        for j in range(d):
            b = bin_index(row[j], low[j], high[j], m)
            if b is not None:
                counts[code][j][b] += 1
    return counts


def _pooled(running, chunk):
    """(W, m, v) of the rows so far and a chunk's (the chunk's alone at first)."""
    if running is None:
        return chunk
    return online.pool_moments(*running, *chunk)


# ----------------------------------------------------------------------------------------
# 3. The estimators.


class DensityClassifier(density.KernelSums, Classifier):
    """argmax_k log pi_k + log f_k(x); subclasses estimate the densities f_k."""

    def _fit(self, X, codes, weights=None):
        if weights is None:
            counts = self._class_counts(codes, len(self.classes_))
        else:                               # GaussianNB's sample weights: W_k, sum_k W_k
            counts = self._class_weights(codes, weights, len(self.classes_))
        self._set_priors(counts)
        if weights is None:
            self._fit_densities(X, codes)
        else:
            self._fit_densities(X, codes, weights)

    def _set_priors(self, counts):
        """n_k (or W_k), pi_k = n_k / n and log pi_k."""
        n = linalg.total(counts)
        self.class_count_ = counts
        self.class_prior_ = [count / n for count in counts]
        self.class_log_prior_ = [math.log(count / n) for count in counts]

    def _class_weights(self, codes, weights, n_classes):
        """W_k = sum of the weights of class k, in row order; a class of total weight 0
        has no estimate, and is refused."""
        totals = [0.0] * n_classes
        for code, w in zip(codes, weights):
            totals[code] += w
        for k, total in enumerate(totals):
            if not total > 0.0:
                raise ValueError(f"the sample weights of class {self.classes_[k]!r} are all 0: "
                                 "its density cannot be estimated")
        return totals

    def _joint_log_likelihood(self, X):
        """a_k(x) for each row (``plug_in_scores``)."""
        return [plug_in_scores(self.class_log_prior_, logs)
                for logs in self._class_log_densities(X)]

    def _predict_codes(self, X):
        return [plug_in_decision(row) for row in self._joint_log_likelihood(X)]

    def predict_joint_log_proba(self, X):
        """a_k(x) = log pi_k + log f_k(x), the estimated log density of (x, class k), for
        each row (columns in classes_ order; scikit-learn's name): ``predict_log_proba``
        is a_k - logsumexp_k' a_k'."""
        X = self._validate_predict(X)
        return self._as_output(self._joint_log_likelihood(X))

    def predict_log_proba(self, X):
        """log P_hat(Y = k | X = x) = a_k - logsumexp_k' a_k' (columns in classes_ order)."""
        X = self._validate_predict(X)
        return self._as_output([log_posterior(row) for row in self._joint_log_likelihood(X)])

    def predict_proba(self, X):
        """P_hat(Y = k | X = x) = exp(a_k - logsumexp a): never 0/0, never underflows to
        an all-zero row."""
        X = self._validate_predict(X)
        return self._as_output([[math.exp(v) for v in log_posterior(row)]
                                for row in self._joint_log_likelihood(X)])

    def _fallback_std(self, X):
        """sigma_j over all training rows, 1.0 for a constant feature (see module notes)."""
        return [sigma if sigma > 0.0 else 1.0 for sigma in self._feature_std(X)]

    def _class_std(self, rows, fallback):
        return [sigma if sigma > 0.0 else fallback[j]
                for j, sigma in enumerate(self._feature_std(rows))]

    # --- representation hooks (refml_fast: numpy) ---
    @staticmethod
    def _weighted_moments(X, codes, weights, n_classes):
        return weighted_class_moments(X, codes, weights, n_classes)

    @staticmethod
    def _rows_of_class(X, codes, k):
        return [row for row, code in zip(X, codes) if code == k]

    @staticmethod
    def _column(X, j):
        return [[row[j]] for row in X]


class KernelDensityClassifier(DensityClassifier):
    """Class priors n_k / n times a kernel density estimate of each class.

    Parameters
    ----------
    kernel : "gaussian" or "epanechnikov".
    bandwidth : as for ``refml.density.KernelDensity`` (a number, d numbers, a d x d
        matrix, "silverman" or "cv"), applied to each class on its own rows; Silverman's
        rule uses n_k and the class's sigma_j, with the fallback of the module notes.

    Attributes
    ----------
    class_count_, class_prior_, class_log_prior_;  class_data_ : the rows of each class;
    bandwidth_cholesky_ : the factor L_k (H_k = L_k L_k') of each class.

    Invariances (conformance item 20): the rows' order, the classes' names, the features'
    order and their common scale change no prediction.  Every row twice can: Silverman's
    bandwidth shrinks with n.
    """

    def __init__(self, *, kernel="gaussian", bandwidth="silverman"):
        self.kernel = kernel
        self.bandwidth = bandwidth

    def _check_params(self, X):
        validation.check_option(self.kernel, "kernel", _kernels.KERNELS)
        _check_bandwidth(self, self._n_rows_cols(X)[1], one_dimensional=False)

    def _fit_densities(self, X, codes):
        d = self._n_rows_cols(X)[1]
        fallback = self._fallback_std(X)
        self.class_data_, self.bandwidth_cholesky_ = [], []
        for k in range(len(self.classes_)):
            rows = self._rows_of_class(X, codes, k)
            n_k = self.class_count_[k]
            if not isinstance(self.bandwidth, str):
                L = bandwidths.explicit_cholesky(self.bandwidth, d, self._diagonal_factor)
            else:
                std = self._class_std(rows, fallback)
                L = self._diagonal_factor(bandwidths.silverman_from_std(std, n_k))
                if self.bandwidth == "cv" and n_k >= 2:
                    L = density.cv_search(self, rows, L, self.kernel)[0]
            self.class_data_.append(rows)
            self.bandwidth_cholesky_.append(bandwidths.check_representable(
                L, f"bandwidth of class {self.classes_[k]!r}"))

    def _log_constants(self):
        """log(c_d det(H_k)^(-1/2) / n_k) for each class."""
        return [density.log_kde_constant(self.kernel, L, n_k)
                for L, n_k in zip(self.bandwidth_cholesky_, self.class_count_)]

    def _class_log_densities(self, X):
        """log f_k(x) for each row of X and class k (the KDE of class k, in log space)."""
        columns = []
        for k, constant in enumerate(self._log_constants()):
            logs = self._kde_sums(X, self.class_data_[k], self.bandwidth_cholesky_[k],
                                  self.kernel, True)
            columns.append([value + constant for value in logs])
        return [list(row) for row in zip(*columns)]


class NaiveBayes(OnlineClassifier, DensityClassifier):
    """Naive Bayes: f_k(x) = prod_j f_kj(x_j), each marginal estimated in one dimension.

    Parameters
    ----------
    marginal : "gaussian" (N(theta_kj, var_kj), maximum likelihood, variance 1/n_k),
        "histogram" (``bins`` equal bins on each feature's training range, shared by the
        classes; 0 outside it) or "kde" (a one-dimensional KDE of each class and feature).
    bins : number of bins of the histogram marginals.
    kernel, bandwidth : of the KDE marginals: a number h > 0, "silverman"
        (h_kj = (4/(3 n_k))^(1/5) sigma_kj, with the fallback of the module notes) or "cv".
    var_smoothing : > 0; the Gaussian marginals use var_kj + epsilon with
        epsilon = var_smoothing * max_j var_j (var_j over all training rows, divisor n), as
        scikit-learn's GaussianNB does, so a constant feature or a class with one sample
        never gives a zero variance; when every feature is constant, epsilon = var_smoothing.

    Attributes
    ----------
    class_count_, class_prior_, class_log_prior_;  gaussian: theta_, var_, epsilon_;
    histogram: bin_low_, bin_high_, bin_width_, bin_counts_ ([k][j][b]);
    kde: class_data_ (the rows of each class), bandwidths_ ([k][j]).
    """

    def __init__(self, *, marginal="gaussian", bins=10, kernel="gaussian",
                 bandwidth="silverman", var_smoothing=1e-9):
        self.marginal = marginal
        self.bins = bins
        self.kernel = kernel
        self.bandwidth = bandwidth
        self.var_smoothing = var_smoothing

    def _check_params(self, X):
        validation.check_option(self.marginal, "marginal", ("gaussian", "histogram", "kde"))
        validation.check_scalar(self.bins, "bins", "int", low=1)
        validation.check_option(self.kernel, "kernel", _kernels.KERNELS)
        _check_bandwidth(self, self._n_rows_cols(X)[1], one_dimensional=True)
        validation.check_scalar(self.var_smoothing, "var_smoothing", "real", low=0.0,
                                high=math.inf, low_open=True, high_open=True)

    def _fit_densities(self, X, codes, weights=None):
        if weights is not None:             # only GaussianNB takes sample weights
            return self._fit_gaussian(X, codes, weights)
        {"gaussian": self._fit_gaussian, "histogram": self._fit_histogram,
         "kde": self._fit_kde}[self.marginal](X, codes)

    def _class_log_densities(self, X):
        """log f_k(x) = sum_j log f_kj(x_j) for each row of X and class k."""
        return {"gaussian": self._gaussian_log_densities,
                "histogram": self._histogram_log_densities,
                "kde": self._kde_log_densities}[self.marginal](X)

    # --- Gaussian marginals ---
    def _fit_gaussian(self, X, codes, weights=None):
        self._stream = self._gaussian_statistics(X, codes, len(self.classes_), weights)
        self._gaussian_from_statistics()

    def _gaussian_statistics(self, X, codes, n_classes, weights):
        """{"overall": (W, m, v), "classes": [(W_k, m_k, v_k)]}: the total (count or
        weight), means and variances of all rows and of each class: what the model is
        built from, and what ``partial_fit`` pools."""
        overall = self._moments(X, self._one_class_codes(X), 1, weights)
        check_finite_moments(overall[1], overall[2])
        classes = self._moments(X, codes, n_classes, weights)
        return {"overall": (overall[0][0], overall[1][0], overall[2][0]),
                "classes": list(zip(*classes))}

    def _one_class_codes(self, X):
        return [0] * self._n_rows_cols(X)[0]

    def _moments(self, X, codes, n_classes, weights):
        """(totals, means, variances) per class, as lists (refml_fast: kernels)."""
        if weights is None:
            means, variances = class_moments(X, codes, n_classes)
            return self._class_counts(codes, n_classes), means, variances
        means, variances, totals = weighted_class_moments(X, codes, weights, n_classes)
        return totals, means, variances

    def _gaussian_from_statistics(self):
        """epsilon_, theta_ and var_ from the statistics in ``_stream``."""
        _, _, overall = self._stream["overall"]
        largest = max(overall)
        self.epsilon_ = self.var_smoothing * largest if largest > 0.0 else self.var_smoothing
        means = [list(mean) for _, mean, _ in self._stream["classes"]]
        variances = [list(var) for _, _, var in self._stream["classes"]]
        check_finite_moments(means, variances)
        self.theta_ = self._as_output(means)
        self.var_ = self._as_output([[v + self.epsilon_ for v in row] for row in variances])

    def _gaussian_constants(self):
        """-1/2 sum_j log(2 pi var_kj) for each class."""
        constants = []
        for row in self.var_:
            total = 0.0
            for v in row:
                total += math.log(2.0 * math.pi * v)
            constants.append(-0.5 * total)
        return constants

    def _gaussian_log_densities(self, X):
        constants = self._gaussian_constants()
        return [[gaussian_log_density(x, self.theta_[k], self.var_[k], constant)
                 for k, constant in enumerate(constants)] for x in X]

    # --- histogram marginals ---
    def _fit_histogram(self, X, codes):
        low, high = self._histogram_grid(X)
        self._stream = {"low": low, "high": high, "n": list(self.class_count_),
                        "counts": histogram_counts(X, codes, len(self.classes_), low, high,
                                                   self.bins)}
        self._histogram_from_counts()

    def _histogram_grid(self, X):
        """Each feature's training range, widened by 0.5 on each side when constant."""
        low, high = Histogram._column_extremes(X)
        for j in range(len(low)):
            if low[j] == high[j]:
                low[j], high[j] = low[j] - 0.5, high[j] + 0.5
        check_bin_widths(low, high, self.bins, "marginal='histogram'")
        return low, high

    def _histogram_from_counts(self):
        low, high = self._stream["low"], self._stream["high"]
        self.bin_low_, self.bin_high_ = list(low), list(high)
        self.bin_width_ = [(high[j] - low[j]) / self.bins for j in range(len(low))]
        self.bin_counts_ = [[list(row) for row in class_counts]
                            for class_counts in self._stream["counts"]]

    # --- partial_fit (beyond the lectures: refml.core.online) ---
    def _partial_fit(self, X, codes, weights):
        """Gaussian marginals: the chunk's totals, means and variances pooled into the
        running ones (``online.pool_moments``); histogram marginals: bin counts added, on
        the bins of the first call's range (a later value outside it falls in no bin).
        The model exists once every class has a row."""
        if self.marginal == "kde":
            raise ValueError(f"{type(self).__name__}(marginal='kde') has no partial_fit: a "
                             "kernel density estimate keeps every row and sets its "
                             "bandwidths from all of them; use fit")
        X, local, weights, present = self._present_classes(X, codes, weights)
        if self.marginal == "gaussian":
            self._pool_gaussian(X, local, weights, present)
        else:
            self._add_histogram_counts(X, local, present)
        counts = self._stream_counts()
        missing = [label for label, count in zip(self.classes_, counts) if not count > 0]
        if missing:
            self._not_ready = f"class {missing[0]!r} has no sample yet"
            return
        self.__dict__.pop("_not_ready", None)
        self._set_priors(counts)
        if self.marginal == "gaussian":
            self._gaussian_from_statistics()
        else:
            self._histogram_from_counts()

    def _pool_gaussian(self, X, local, weights, present):
        stream = self.__dict__.get("_stream") or {"overall": None,
                                                  "classes": [None] * len(self.classes_)}
        if present:
            chunk = self._gaussian_statistics(X, local, len(present), weights)
            stream["overall"] = _pooled(stream["overall"], chunk["overall"])
            for position, k in enumerate(present):
                stream["classes"][k] = _pooled(stream["classes"][k], chunk["classes"][position])
        self._stream = stream

    def _add_histogram_counts(self, X, local, present):
        stream = self.__dict__.get("_stream")
        if stream is None:
            low, high = self._histogram_grid(X)
            d, m = len(low), self.bins
            stream = {"low": low, "high": high,
                      "counts": [[[0] * m for _ in range(d)] for _ in self.classes_],
                      "n": [0] * len(self.classes_)}
        chunk = histogram_counts(X, local, len(present), stream["low"], stream["high"],
                                 self.bins)
        for position, k in enumerate(present):
            for j, row in enumerate(chunk[position]):
                total = stream["counts"][k][j]
                for b, count in enumerate(row):
                    total[b] += count
        for code in local:
            stream["n"][present[code]] += 1
        self._stream = stream

    def _stream_counts(self):
        if self.marginal == "gaussian":
            return [0 if group is None else group[0] for group in self._stream["classes"]]
        return self._stream["n"]

    def _histogram_log_densities(self, X):
        return [[histogram_log_density(x, self.bin_counts_[k], n_k, self.bin_low_,
                                       self.bin_high_, self.bin_width_, self.bins)
                 for k, n_k in enumerate(self.class_count_)] for x in X]

    # --- KDE marginals ---
    def _fit_kde(self, X, codes):
        fallback = self._fallback_std(X)
        self.class_data_, self.bandwidths_ = [], []
        for k, n_k in enumerate(self.class_count_):
            rows = self._rows_of_class(X, codes, k)
            if not isinstance(self.bandwidth, str):
                h = [float(self.bandwidth)] * len(fallback)
            else:
                std = self._class_std(rows, fallback)
                factor = bandwidths.silverman_factor(n_k, 1)  # the 1-D rule, n_k rows
                h = [factor * sigma for sigma in std]
                if self.bandwidth == "cv" and n_k >= 2:
                    h = [density.cv_search(self, self._column(rows, j), [[h[j]]],
                                              self.kernel)[0][0][0] for j in range(len(h))]
            bandwidths.check_representable_values(h, f"bandwidth of class {self.classes_[k]!r}")
            self.class_data_.append(rows)
            self.bandwidths_.append(h)

    def _kde_log_densities(self, X):
        n_queries, d = self._n_rows_cols(X)
        log_c = _kernels.log_normaliser(self.kernel, 1)
        columns = []
        for k, n_k in enumerate(self.class_count_):
            totals = [0.0] * n_queries
            for j in range(d):
                h = self.bandwidths_[k][j]
                logs = self._kde_sums(self._column(X, j), self._column(self.class_data_[k], j),
                                      [[h]], self.kernel, True)
                constant = log_c - math.log(h) - math.log(n_k)
                totals = [t + (value + constant) for t, value in zip(totals, logs)]
            columns.append(totals)
        return [list(row) for row in zip(*columns)]


class GaussianNB(NaiveBayes):
    """Naive Bayes with Gaussian marginals: NaiveBayes(marginal="gaussian").

    Per-class maximum-likelihood means theta_kj and variances var_kj (divisor n_k, docs/design.md
    section 6) plus epsilon = var_smoothing * max_j var_j (see ``NaiveBayes``).

    Invariances (conformance item 20): the rows' order, the classes' names, the features'
    order, their common scale, every row twice and uniform weights of any scale change no
    prediction.
    """

    marginal, bins, kernel, bandwidth = "gaussian", 10, "gaussian", "silverman"
    _partial_fit_weights = True

    def __init__(self, *, var_smoothing=1e-9):
        self.var_smoothing = var_smoothing

    def fit(self, X, y, sample_weight=None):
        """Fit on X, y; ``sample_weight`` (beyond the lectures, as scikit-learn's GaussianNB):
        non-negative weights w_i, the priors W_k / W and the weighted means and variances
        (``weighted_class_moments``), epsilon from the weighted variances.  Whole-number
        weights fit as the rows repeated (to rounding); None is the unweighted fit."""
        X, codes, classes, n_features = self._validate_fit(X, y)
        if sample_weight is None:
            return self._learn(X, codes, classes, n_features)
        weights = self._as_weights(sample_weight, len(codes))
        return self._learn(X, codes, classes, n_features, weights)


# ----------------------------------------------------------------------------------------
# Parameter and overflow checks.


def _check_bandwidth(estimator, d, one_dimensional):
    if isinstance(estimator.bandwidth, str):
        validation.check_option(estimator.bandwidth, "bandwidth", ("silverman", "cv"))
        if (estimator.bandwidth == "cv" and estimator.kernel == "epanechnikov"
                and not one_dimensional and d != 1):
            raise ValueError("Invalid parameter bandwidth='cv': with kernel='epanechnikov' "
                             f"cross-validation is implemented for 1 feature, X has {d}")
    elif one_dimensional:
        validation.check_scalar(estimator.bandwidth, "bandwidth", "real", low=0.0,
                                high=math.inf, low_open=True, high_open=True)
    else:
        bandwidths.explicit_cholesky(estimator.bandwidth, d, make_diagonal=list)


def check_finite_moments(means, variances):
    """A clear error instead of NaN posteriors (docs/design.md section 5, numeric extremes): with
    entries near 1e154 or larger a squared deviation, hence a variance, overflows."""
    for mean_row, variance_row in zip(means, variances):
        for j, (mean, variance) in enumerate(zip(mean_row, variance_row)):
            if not (math.isfinite(mean) and math.isfinite(variance)):
                raise ValueError(f"marginal='gaussian': the mean or variance of feature {j} "
                                 "overflows the float range; rescale the features")
