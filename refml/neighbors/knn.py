"""k nearest neighbours: the label most common among the k closest training points.

[IML-L5] ("Introduction to Machine Learning", Lecture 5), section 5.  Given the training
set D = {x_i, y_i}, i = 1..N, and a metric d:

    1-NN (section 5.1):  f_NN(x) = y_{k(x)},  k(x) = argmin_i d(x, x_i);
    K-NN (section 5.2):  the class most common among the K nearest neighbours of x.

Two metrics (section 5.2, "K-NN with different metric"):

    euclidean:    d(x, z)^2 = ||x - z||_2^2 = sum_j (x_j - z_j)^2;
    mahalanobis:  d(x, z)^2 = (x - z)' Sigma^{-1} (x - z),  Sigma the training covariance.

The module reads: 1. the rule (distance, the k nearest, the vote), 2. Sigma and its
inverse for the Mahalanobis metric, 3. the estimator, which validates and stores.

Ties (docs/design.md section 4).  Neighbours are ordered by (squared distance, training
index): among equal distances the lower training index comes first.  The comparison is
between the squared distances as computed, sum_j (x_j - z_j)^2 left to right over j (for
Mahalanobis, sum_j (x_j - z_j) (sum_l P_jl (x_l - z_l)) with P = Sigma^{-1}, both sums left
to right): taking square roots first could round two different squared values to the same
float and change which neighbour wins.  Among classes with equal votes the first in
``classes_`` order wins.

Departure from the print.  [IML-L5] writes the Mahalanobis "distance between x_i and x_j"
as (x_i - mu_x)' Sigma_x^{-1} (x_i - mu_x): that is the distance of x_i from the mean, and
x_j does not appear in it.  As a distance between two points it must be
(x_i - x_j)' Sigma_x^{-1} (x_i - x_j), which is what this module computes (it reduces to the
squared Euclidean distance when Sigma = I, and is the printed form with x_j = mu_x).  The
print also omits the square root; neighbours are ordered by the quadratic form itself, and
``kneighbors`` reports its square root, the distance proper.

Sigma is the maximum-likelihood covariance of the training rows,
Sigma = (1/N) sum_i (x_i - mu)(x_i - mu)', the 1/N estimate [IML-L5] uses in section 4.
(Scaling Sigma by N/(N-1) would scale every distance alike and leave the neighbours
unchanged in exact arithmetic.)  A singular covariance (a constant feature, a feature that
is a linear combination of others, fewer rows than features) has no inverse: ``fit`` then
raises ``ValueError`` saying so.  To working precision, Sigma counts as singular when a
feature is constant (its variance is rounding noise of its mean), when a Cholesky pivot is
not positive, or when L_jj^2 <= 1e-10 Sigma_jj, i.e. feature j is, to ten digits, a linear
combination of the features before it.
"""

import math

from refml.core import linalg, validation
from refml.core.base import Classifier

METRICS = ("euclidean", "mahalanobis")
ALGORITHMS = ("auto", "brute", "kd_tree")
SINGULAR_PIVOT_RATIO = 1e-10
UNIT_ROUNDOFF = 2.0 ** -53


# ----------------------------------------------------------------------------------------
# 1. The rule.


def squared_distance(x, z, P=None):
    """d(x, z)^2: sum_j (x_j - z_j)^2, or (x - z)' P (x - z) with P = Sigma^{-1}."""
    if P is None:
        return linalg.squared_distance(x, z)
    return linalg.quadratic_form(P, linalg.subtract(x, z))


def nearest_neighbors(x, X, k, P=None):
    """(squared distances, indices) of the k rows of X nearest to x, ordered by
    (squared distance, training index)."""
    distances = [squared_distance(x, z, P) for z in X]
    nearest = sorted(range(len(distances)), key=lambda i: (distances[i], i))[:k]
    return [distances[i] for i in nearest], nearest


def votes(neighbors, y, n_classes):
    """How many of the neighbours have each class c (labels as codes 0..K-1)."""
    counts = [0] * n_classes
    for i in neighbors:
        counts[y[i]] += 1
    return counts


def majority(counts):
    """The class with most votes; among equal votes the first in classes_ order."""
    return linalg.argmax(counts)


# ----------------------------------------------------------------------------------------
# 2. The Mahalanobis metric's Sigma and P = Sigma^{-1}.


def mean_covariance(X):
    """(mu, Sigma): mu = (1/N) sum_i x_i, Sigma_jl = (1/N) sum_i (x_ij - mu_j)(x_il - mu_l),
    each sum over i in order."""
    n, d = len(X), len(X[0])
    mu = linalg.mean_rows(X)
    Sigma = [[0.0] * d for _ in range(d)]
    for j in range(d):
        for l in range(j, d):
            total = 0.0
            for i in range(n):
                total += (X[i][j] - mu[j]) * (X[i][l] - mu[l])
            Sigma[j][l] = Sigma[l][j] = total / n
    return mu, Sigma


def inverse_covariance(Sigma, mu, n):
    """P = Sigma^{-1} through the Cholesky factor Sigma = L L'; ValueError if singular.

    A constant feature j has Sigma_jj = (c - fl(mu_j))^2, zero or rounding noise of the mean
    (|c - fl(mu_j)| <= n u |c|): it counts as singular when sqrt(Sigma_jj) <= 4 n u |mu_j|.
    Variances or precisions beyond the float range (features near 1e154 or below 1e-154)
    raise ``ValueError`` too: rescale the features.
    """
    message = ("metric='mahalanobis' needs a non-singular training covariance Sigma, but "
               "Sigma is singular to working precision ({}): a constant feature, a feature "
               "that is a linear combination of others, or fewer samples than features; "
               "use metric='euclidean' or drop the redundant features")
    for j in range(len(Sigma)):
        if not math.isfinite(Sigma[j][j]):
            raise ValueError(f"metric='mahalanobis': the variance of feature {j} overflows "
                             "the float range; rescale the features")
        if math.sqrt(Sigma[j][j]) <= 4.0 * n * UNIT_ROUNDOFF * abs(mu[j]):
            raise ValueError(message.format(f"feature {j} is constant"))
    try:
        L = linalg.cholesky(Sigma)
    except linalg.SingularMatrixError as error:
        raise ValueError(message.format(error)) from None
    for j in range(len(Sigma)):
        if L[j][j] * L[j][j] <= SINGULAR_PIVOT_RATIO * Sigma[j][j]:
            raise ValueError(message.format(
                f"feature {j} is a linear combination of features 0..{j - 1} "
                f"up to a relative residual variance of {L[j][j] * L[j][j] / Sigma[j][j]:.3g}"))
    P = linalg.cholesky_inverse(L)
    if not all(math.isfinite(value) for row in P for value in row):
        raise ValueError("metric='mahalanobis': the inverse covariance overflows the float "
                         "range (variances too small); rescale the features")
    return P


# ----------------------------------------------------------------------------------------
# 3. The estimator.


class KNeighborsClassifier(Classifier):
    """Majority vote of the k nearest training points ([IML-L5], section 5).

    Parameters
    ----------
    n_neighbors : int, default 1
        k, the number of neighbours that vote; 1 <= k <= the number of training rows.
    metric : {"euclidean", "mahalanobis"}, default "euclidean"
        The distance; "mahalanobis" uses the inverse of the training covariance (see the
        module docstring for the departure from the lecture's printed formula).
    algorithm : {"auto", "brute", "kd_tree"}, default "auto"
        How refml_fast finds the neighbours: every training row, or an exact k-d tree
        (Euclidean metric only), "auto" choosing the tree in few dimensions (up to 6
        features; from 7 to 11 when the training rows are many, or, with fewer, when the
        tree's first queries prove it faster).  refml always
        computes every distance, as the lecture does; the neighbours, ties and answers are
        the same either way.

    Attributes
    ----------
    classes_ : the sorted labels.
    n_features_in_ : number of features seen at fit.
    n_samples_fit_ : number of training rows.
    covariance_ : Sigma (list of rows), for metric="mahalanobis"; None otherwise.
    precision_ : P = Sigma^{-1} (list of rows), for metric="mahalanobis"; None otherwise.

    Invariances (conformance item 20), on data without tied distances: the rows' order, the
    features' order and their common scale change no prediction.  The classes' names can
    when k > 1: a tied vote goes to the first class of classes_; every row twice can too
    (each row then fills two of the k places), except for k = 1.

    Examples
    --------
    >>> knn = KNeighborsClassifier(n_neighbors=3).fit(
    ...     [[0.0], [1.0], [2.0], [10.0], [11.0]], ["a", "a", "a", "b", "b"])
    >>> knn.predict([[1.5], [9.0]])
    ['a', 'b']
    >>> knn.predict_proba([[9.0]])
    [[0.3333333333333333, 0.6666666666666666]]
    """

    def __init__(self, n_neighbors=1, *, metric="euclidean", algorithm="auto"):
        self.n_neighbors = n_neighbors
        self.metric = metric
        self.algorithm = algorithm

    def _check_params(self, X):
        n_samples = self._n_rows_cols(X)[0]
        validation.check_scalar(self.n_neighbors, "n_neighbors", "int", low=1, high=n_samples)
        validation.check_option(self.metric, "metric", METRICS)
        validation.check_option(self.algorithm, "algorithm", ALGORITHMS)
        if self.algorithm == "kd_tree" and self.metric != "euclidean":
            raise ValueError(f"algorithm='kd_tree' supports metric='euclidean' only, got "
                             f"metric={self.metric!r}; use algorithm='brute' or 'auto'")

    def _fit(self, X, codes):
        """k-NN learns nothing but the training set (and Sigma^{-1} for Mahalanobis)."""
        covariance = precision = None
        if self.metric == "mahalanobis":
            mu, covariance = self._mean_covariance(X)
            precision = inverse_covariance(covariance, mu, len(codes))
        self._fit_X = X
        self._fit_codes = codes
        self.n_samples_fit_ = len(codes)
        self.covariance_ = None if covariance is None else self._as_output(covariance)
        self.precision_ = None if precision is None else self._as_output(precision)
        self._precision = precision

    # --- the public interface ---
    def _predict_codes(self, X):
        indices = self._neighbour_indices(X)
        return self._winning_codes(self._vote_counts(indices))

    def predict_proba(self, X):
        """Vote fractions: P(class c | x) = (number of the k neighbours in class c) / k,
        columns in ``classes_`` order."""
        X = self._validate_predict(X)
        indices = self._neighbour_indices(X)
        return self._as_output(self._vote_fractions(self._vote_counts(indices)))

    def kneighbors(self, X):
        """(distances, indices) of the k nearest training rows of each row of X, nearest
        first, ties by lower training index.  Distances are square roots of the squared
        distances that order the neighbours."""
        X = self._validate_predict(X)
        squared, indices = self._kneighbors_squared(X)
        return self._distances_from_squared(squared), indices

    # --- the searches and votes over many queries (refml_fast overrides these) ---
    @staticmethod
    def _mean_covariance(X):
        """(mu, Sigma): see ``mean_covariance``."""
        return mean_covariance(X)

    def _kneighbors_squared(self, X):
        """``nearest_neighbors`` of each row of X: (squared distances, indices)."""
        found = [nearest_neighbors(x, self._fit_X, self.n_neighbors, self._precision)
                 for x in X]
        return [squared for squared, _ in found], [indices for _, indices in found]

    def _neighbour_indices(self, X):
        """The indices of the k nearest training rows of each row of X (the votes need
        no distances)."""
        return self._kneighbors_squared(X)[1]

    def _vote_counts(self, indices):
        """counts[q][c]: how many of the k neighbours of query q have class code c."""
        return [votes(neighbors, self._fit_codes, len(self.classes_)) for neighbors in indices]

    def _vote_fractions(self, counts):
        """counts[q][c] / k."""
        k = self.n_neighbors
        return [[count / k for count in row] for row in counts]

    @staticmethod
    def _distances_from_squared(squared):
        """sqrt of each squared distance (a Mahalanobis form that rounding made negative,
        possible only for a nearly singular Sigma, reports distance 0)."""
        return [[math.sqrt(max(value, 0.0)) for value in row] for row in squared]

    @staticmethod
    def _winning_codes(counts):
        return [majority(row) for row in counts]
