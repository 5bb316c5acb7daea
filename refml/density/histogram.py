"""The histogram density estimate ([Yan], "Histogram" and "Cross-validation").

Data X_1, ..., X_n ~ f, the rows of X.  Cut the range into m bins B_1, ..., B_m of width
h (h = 1/m on [0, 1]); with N_j the number of points in B_j,

    f_hat(x) = p_hat_j / h   for x in B_j,   p_hat_j = N_j / n,

and the bin width is chosen by minimising the leave-one-out risk estimate

    J_hat(h) = int f_hat^2 - (2/n) sum_i f_hat_(-i)(X_i)

(MISE - int f^2 estimated; Theorem 2.5 gives the asymptotic h* in ``bandwidth``).  In d
dimensions the cells are products of bins and f_hat(x) = N_cell / (n prod_j h_j).  The
module reads: 1. the estimate and J_hat, 2. the estimator and ``histogram_cv_risk``, which
validate and store.  On the print: the closed-form J_hat lacks the 1/h of its second term
(derived in ``histogram_risk_closed_form``).  The kernel density estimate is in ``density``.
"""

import math

from refml.core import linalg, validation
from refml.core.base import DensityEstimator, as_sample
from refml.density.bins import _cell, _check_range, _range_pairs, bin_index, check_bin_widths

__all__ = ["Histogram", "histogram_cv_risk"]


# ----------------------------------------------------------------------------------------
# 1. The estimate and its leave-one-out risk ([Yan], "Histogram", "Cross-validation").


def bin_counts(X, low, high, m):
    """N_cell: how many rows of X fall in each cell (a bin per feature), for the non-empty
    cells.  A row outside [low, high] is in no bin."""
    counts = {}
    for x in X:
        cell = _cell(x, low, high, m)
        if cell is not None:
            counts[cell] = counts.get(cell, 0) + 1
    return counts


def histogram_estimate(count, n, h):
    """f_hat(x) = p_hat_j / h = N_j / (n h); in d dimensions N_cell / (n prod_j h_j)."""
    volume = 1.0
    for h_j in h:
        volume *= h_j
    return count / (n * volume)


def histogram_risk_definition(bins, m, h):
    """J_hat(h) = int f_hat^2 - (2/n) sum_i f_hat_(-i)(X_i), term by term.

    ``bins`` holds the bin j of each X_i (None outside the range).  int f_hat^2 =
    sum_j (p_hat_j / h)^2 h, and without X_i its own bin holds N_j - 1 of n - 1 points:
    f_hat_(-i)(X_i) = (N_j - 1) / ((n - 1) h); outside the range it is 0."""
    n = len(bins)
    counts = [0] * m
    for j in bins:
        if j is not None:
            counts[j] += 1
    integral = 0.0
    for count in counts:
        integral += (count / n / h) ** 2 * h
    leave_one_out = 0.0
    for j in bins:
        if j is not None:
            leave_one_out += (counts[j] - 1) / ((n - 1) * h)
    return integral - 2.0 / n * leave_one_out


def histogram_risk_closed_form(counts, n, h):
    """J_hat(h) = 2 P / ((n - 1) h) - (n + 1) / ((n - 1) h) sum_j p_hat_j^2,  P = sum_j p_hat_j.

    Derivation: sum_i f_hat_(-i)(X_i) = sum_j N_j (N_j - 1) / ((n - 1) h), so (2/n) of it is
    2 (n sum_j p_j^2 - P) / ((n - 1) h), and J_hat = sum_j p_j^2 / h - 2n sum_j p_j^2 /
    ((n - 1) h) + 2P / ((n - 1) h).  P = 1 when every point is inside the range.  The
    lecture prints 2/((n-1)h) - (n+1)/(n-1) sum_j p_j^2: its second term lacks the 1/h
    (tests/test_density.py shows that print disagreeing with the definition)."""
    inside, squares = 0.0, 0.0
    for count in counts:
        p = count / n
        inside += p
        squares += p * p
    return 2.0 * inside / ((n - 1) * h) - (n + 1) / ((n - 1) * h) * squares


# ----------------------------------------------------------------------------------------
# 2. The estimator.


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

    def partial_fit(self, X, y=None):
        """Add the rows of X to the counts (beyond the lectures: learning in chunks, as
        ``refml.core.online`` describes); returns self.

        The first call fixes the bins: ``range`` if given, else the first chunk's range.
        A later row outside them falls in no bin but counts in n, as a row outside a given
        range does in ``fit``.  With ``range`` given, chunks give exactly the counts, hence
        the estimate, of ``fit`` on all the rows.  ``fit`` starts over."""
        X = self._as_matrix(validation.flat_as_column(X))
        n, d = self._n_rows_cols(X)
        if "n_features_in_" not in self.__dict__:
            return self.fit(X)
        validation.check_n_features(d, self.n_features_in_, type(self).__name__)
        counts = self._chunk_cells(X)
        self._add_cells(counts)
        self.n_samples_ += n
        return self

    def pdf(self, X):
        """f_hat(x) = N_cell(x) / (n prod_j h_j) (``histogram_estimate``), 0 outside the
        range or in an empty cell.  Where the volume prod_j h_j leaves the float range (tiny
        bins in many dimensions) the value is exp(log f_hat(x)): inf beyond the largest
        float, never a division by zero."""
        X = self._validate_predict(X)
        counts = self._cell_counts(X)
        if not self._volume_is_finite():
            return self._as_output([_exp(value) for value in self._log_pdf(counts)])
        return self._as_output([histogram_estimate(count, self.n_samples_, self.bin_width_)
                                for count in counts])

    def score_samples(self, X):
        """log f_hat(x), -inf where f_hat(x) = 0."""
        X = self._validate_predict(X)
        counts = self._cell_counts(X)
        if not self._volume_is_finite():
            return self._as_output(self._log_pdf(counts))
        return self._as_output([
            math.log(histogram_estimate(count, self.n_samples_, self.bin_width_))
            if count > 0 else -math.inf for count in counts])

    # --- the cell bookkeeping (refml_fast: numpy's sort of the cells) ---
    @staticmethod
    def _column_extremes(X):
        d = len(X[0])
        low, high = [math.inf] * d, [-math.inf] * d
        for row in X:
            for j in range(d):
                low[j] = min(low[j], float(row[j]))
                high[j] = max(high[j], float(row[j]))
        return low, high

    def _count_cells(self, X):
        self.counts_ = bin_counts(X, self.low_, self.high_, self.bins)

    def _chunk_cells(self, X):
        """The counts of a chunk on the fitted bins (refml_fast: cell keys and counts)."""
        return bin_counts(X, self.low_, self.high_, self.bins)

    def _add_cells(self, counts):
        for cell, count in counts.items():
            self.counts_[cell] = self.counts_.get(cell, 0) + count

    def _cell_counts(self, X):
        """N_cell(x) for each row x (0 outside the range)."""
        cells = [_cell(row, self.low_, self.high_, self.bins) for row in X]
        return [self.counts_.get(cell, 0) if cell is not None else 0 for cell in cells]

    def _volume_is_finite(self):
        """Whether n prod_j h_j is a positive finite float."""
        volume = 1.0
        for h in self.bin_width_:
            volume *= h
        return 0.0 < self.n_samples_ * volume < math.inf

    def _log_pdf(self, counts):
        """log f_hat = log N_cell - log n - sum_j log h_j, for a volume out of float range."""
        log_denominator = math.log(self.n_samples_) + linalg.total(
            math.log(h) for h in self.bin_width_)
        return [math.log(count) - log_denominator if count > 0 else -math.inf
                for count in counts]


def histogram_cv_risk(x, bins, range=(0, 1), method="closed_form"):
    """The leave-one-out risk estimate J_hat(h) of the histogram with ``bins`` bins.

    J_hat(h) = int f_hat^2 - (2/n) sum_i f_hat_(-i)(X_i)   ([Yan], "Cross-validation").
    method="definition" computes exactly that (``histogram_risk_definition``);
    method="closed_form" uses

        J_hat(h) = 2 P / ((n - 1) h) - (n + 1) / ((n - 1) h) sum_j p_j^2,   P = sum_j p_j,

    derived in ``histogram_risk_closed_form`` (the lecture's print lacks the 1/h of the
    second term).  x is a flat sequence of n >= 2 numbers; bins (m) an int >= 1; range
    (low, high).
    """
    data = as_sample(x, Histogram())
    validation.check_scalar(bins, "bins", "int", low=1)
    validation.check_option(method, "method", ("closed_form", "definition"))
    low, high = (float(v) for v in _range_pairs(range, 1)[0])
    n = len(data)
    if n < 2:
        raise ValueError(f"cross-validation needs at least 2 samples, got {n}")
    check_bin_widths([low], [high], bins, "histogram_cv_risk")
    h = (high - low) / bins
    bins_of_points = [bin_index(row[0], low, high, bins) for row in data]
    if method == "definition":
        return histogram_risk_definition(bins_of_points, bins, h)
    counts = [0] * bins
    for j in bins_of_points:
        if j is not None:
            counts[j] += 1
    return histogram_risk_closed_form(counts, n, h)


def _exp(value):
    """exp(value), inf where it overflows (math.exp raises OverflowError there)."""
    try:
        return math.exp(value)
    except OverflowError:
        return math.inf
