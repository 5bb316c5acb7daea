"""Linear and quadratic discriminant analysis: Bayes' rule with Gaussian classes, plugged in.

Model ([Yan], "Linear discriminant analysis"; [IML-L5] section 4.1):
P(Y = k) = omega_k and X | Y = k ~ N(mu_k, Sigma_k).  The Bayes classifier picks the k with
the largest log omega_k + log N(x; mu_k, Sigma_k); the plug-in classifier replaces omega_k,
mu_k, Sigma_k by their estimates (``refml.discriminant.statistics``).

LDA (Sigma_k = Sigma for all k).  The terms common to all classes cancel, leaving the
linear discriminants of [Yan],

    delta_k(x) = x' Sigma^{-1} mu_k - 1/2 mu_k' Sigma^{-1} mu_k + log omega_k,

with Sigma the pooled within-class covariance, 1/(N - K) sum_k S_k ([Yan], the
default) or 1/N sum_k S_k (the maximum-likelihood estimate of [MATH412]).

Binary LDA in logistic form ([MATH412], "Fisher discriminant analysis").  With
pi = P(Y = 1),

    P(Y = 1 | x) = (1 + (1 - pi)/pi * exp(-1/2 q_0(x)) / exp(-1/2 q_1(x)))^{-1},
    q_k(x) = (x - mu_k)' Sigma^{-1} (x - mu_k),

and -1/2 q_0 + 1/2 q_1 = -(mu_1 - mu_0)' Sigma^{-1} x + 1/2 (mu_1' Sigma^{-1} mu_1
- mu_0' Sigma^{-1} mu_0), so that

    P(Y = 1 | x) = (1 + exp(-(w'x + b)))^{-1} = sigma(w'x + b),
    w = Sigma^{-1} (mu_1 - mu_0),
    b = -1/2 (mu_1 + mu_0)' Sigma^{-1} (mu_1 - mu_0) + log(pi / (1 - pi)).

Departure from the print: [MATH412] writes the third line as
(1 + exp((mu_1 - mu_0)' Sigma^{-1} x + b))^{-1}, without the minus sign in the exponent;
read literally that is sigma(-(w'x + b)) = P(Y = 0 | x), and matching it to the next line
(sigma(w'x + b)) would force b = +1/2 (mu_1 + mu_0)' Sigma^{-1} (mu_1 - mu_0) -
log(pi/(1 - pi)), the intercept with the wrong sign.  The lecture then prints
b = log((1 - pi)/pi) + 1/2 mu_0' Sigma^{-1} mu_0 - 1/2 mu_1' Sigma^{-1} mu_1: its quadratic
terms equal the derived -1/2 (mu_1 + mu_0)' Sigma^{-1} (mu_1 - mu_0), but its log-prior has
the wrong sign, so it is off by 2 log((1 - pi)/pi) (right only for pi = 1/2).  The code uses
the b derived above, and conformance/t06_discriminant.py checks on random instances that
sigma(w'x + b) equals the Bayes posterior computed from the Gaussian densities.
For K = 2, ``coef_ = [w]`` and ``intercept_ = [b]`` (delta_1 - delta_0 = w'x + b);
for K > 2, row k of ``coef_`` is Sigma^{-1} mu_k and ``intercept_[k]`` is
-1/2 mu_k' Sigma^{-1} mu_k + log omega_k (scikit-learn's shapes).

QDA (one Sigma_k per class, the maximum-likelihood 1/n_k of [IML-L5] section 4.1).
Dropping only -d/2 log(2 pi), common to all classes,

    delta_k(x) = -1/2 log|Sigma_k| - 1/2 (x - mu_k)' Sigma_k^{-1} (x - mu_k) + log omega_k.

For two classes ([IML-L5] section 4.2, C_1 = classes_[1], C_2 = classes_[0],
p_1 = omega of C_1) the boundary delta_1 = delta_0 is the printed quadratic form
b~ - w'x + x'Mx = 0 with b = 2 log(p_1 d_1 / ((1 - p_1) d_2)), d_i = |Sigma_i|^{-1/2},
b~ = b - mu_1' Sigma_1^{-1} mu_1 + mu_2' Sigma_2^{-1} mu_2,
w = 2 (Sigma_2^{-1} mu_2 - Sigma_1^{-1} mu_1), M = Sigma_2^{-1} - Sigma_1^{-1}.
Re-deriving it confirms every one of these definitions, the factor 2 included (the lecture
multiplies the log-ratio by 2), so the form is twice the log posterior odds:
``decision_function`` (= delta_1 - delta_0) equals 1/2 (b~ - w'x + x'Mx).  Two slips, in
notation only: the brace labels the number x'(Sigma_2^{-1} - Sigma_1^{-1})x as M (M is the
matrix), and the worked examples print the 2-D density with |Sigma_i|^{-1} where
|Sigma_i|^{-1/2} is meant.

Singular covariance (collinear or constant features, a class with one sample).  QDA's
``fit`` raises ``ValueError`` saying so, unless ``reg_param`` r > 0 shrinks every
covariance to (1 - r) Sigma + r I (as scikit-learn's QDA ``reg_param``).  LDA goes beyond
the lectures, as scikit-learn's LDA does: a feature that is, within the classes, constant or
a linear combination of the features before it (1 - R^2 <= 1e-10, the pivot test of
``statistics``) adds nothing to the pooled Sigma, so LDA leaves it out with a
warning (``dependent_features_``) and fits the discriminants on the others; its
coefficients are 0.  The pooled Sigma of the kept features is positive definite, and every
training row gives the same scores as with any generalised inverse of Sigma.
"""

import copy
import math
import numbers

from refml.core import caller, linalg, validation
from refml.core.online import OnlineClassifier
from refml.discriminant import statistics as gaussian

# ----------------------------------------------------------------------------------------
# The rules: Fisher's w and b, the K linear discriminants, the quadratic discriminant.


def fisher_discriminant(L, mu_0, mu_1, omega_0, omega_1, solve=linalg.cholesky_solve):
    """(w, b) with P(Y = 1 | x) = sigma(w'x + b), given L L' = Sigma ([MATH412]).

    w = Sigma^{-1} (mu_1 - mu_0);  b = -1/2 (mu_1 + mu_0)' w + log(omega_1 / omega_0).
    The log-odds are taken as log omega_1 - log omega_0: the quotient overflows for a
    subnormal prior (priors=[5e-324, 1.0] gave b = inf).
    """
    w = solve(L, linalg.subtract(mu_1, mu_0))
    b = -0.5 * linalg.dot(linalg.add(mu_1, mu_0), w) + (math.log(omega_1) - math.log(omega_0))
    return w, b


def linear_discriminants(L, means, priors, solve=linalg.cholesky_solve):
    """(a_k, c_k) with delta_k(x) = x' a_k + c_k ([Yan]), given L L' = Sigma.

    a_k = Sigma^{-1} mu_k;  c_k = -1/2 mu_k' a_k + log omega_k.
    """
    coef, intercept = [], []
    for mu_k, omega_k in zip(means, priors):
        a_k = solve(L, mu_k)
        coef.append(a_k)
        intercept.append(-0.5 * linalg.dot(mu_k, a_k) + math.log(omega_k))
    return coef, intercept


def quadratic_discriminant(x, mu_k, L_k, log_det_k, log_omega_k):
    """delta_k(x) = -1/2 (log|Sigma_k| + (x - mu_k)' Sigma_k^{-1} (x - mu_k)) + log omega_k.

    With Sigma_k = L_k L_k', the quadratic form is ||z||^2 for z = L_k^{-1} (x - mu_k)
    (forward substitution): no inverse is formed.
    """
    z = linalg.solve_lower(L_k, linalg.subtract(x, mu_k))
    mahalanobis = linalg.dot(z, z)
    return -0.5 * (log_det_k + mahalanobis) + log_omega_k


# ----------------------------------------------------------------------------------------
# The estimators: the Gaussian plug-in fits around the rules above.


class _GaussianDiscriminant(OnlineClassifier):
    """What LDA and QDA share: priors, class statistics, scores to outputs."""

    def _check_common_params(self):
        validation.check_scalar(self.reg_param, "reg_param", "real", low=0.0, high=1.0)
        if self.priors is not None:
            _check_priors(self.priors)

    def _class_statistics(self, X, codes, n_classes):
        """(n_k, mu_k, S_k) for every class (the O(n d^2) part; refml_fast: a kernel)."""
        counts, means = gaussian.class_counts_and_means(X, codes, n_classes)
        return counts, means, gaussian.class_scatter_matrices(X, codes, means)

    # --- partial_fit (beyond the lectures: refml.core.online) ---
    def _partial_fit(self, X, codes, weights):
        """The chunk's n_k, mu_k and scatter pooled into the running ones (Chan's update,
        ``statistics.pool_class_statistics``), and the model rebuilt from them: equal to
        ``fit`` on all the rows so far, to rounding.  The model exists once every class has
        a row and the covariance is not singular (``reg_param`` > 0 or enough rows)."""
        X, local, _, present = self._present_classes(X, codes, None)
        K = len(self.classes_)
        stream = self.__dict__.get("_stream") or {"counts": [0] * K, "means": [None] * K,
                                                  "scatter": None}
        if present:
            counts, means, scatters = self._class_statistics(X, local, len(present))
            if self._pooled:
                scatters = self._pooled_scatter(scatters)
            stream = gaussian.pool_class_statistics(
                stream, present, counts, means, self._scatter_lists(scatters), self._pooled)
        self._stream = stream
        missing = [label for label, n_k in zip(self.classes_, stream["counts"]) if n_k == 0]
        if missing:
            self._not_ready = f"class {missing[0]!r} has no sample yet"
            return
        if self._pooled and self.covariance == "pooled" and sum(stream["counts"]) == K:
            self._not_ready = "every class has a single sample, and N - K = 0"
            return
        try:
            self._fit_statistics(stream["counts"], stream["means"],
                                 self._scatter_arrays(stream["scatter"]))
        except gaussian.SingularCovarianceError as error:
            self._stream = stream
            self._not_ready = str(error)
            return
        self.__dict__.pop("_not_ready", None)

    @staticmethod
    def _scatter_lists(scatters):
        """Scatter matrices as lists, for the pooling (refml_fast: from arrays)."""
        return scatters

    @staticmethod
    def _scatter_arrays(scatters):
        """A copy of the pooled scatter(s) in the form ``_fit_statistics`` takes."""
        return copy.deepcopy(scatters)

    def _class_priors(self, counts):
        """omega_k = n_k / N ([Yan]), or the ``priors`` given, in classes_ order."""
        if self.priors is None:
            n_samples = sum(counts)
            return [n_k / n_samples for n_k in counts]
        priors = [float(p) for p in self.priors]
        if len(priors) != len(counts):
            raise ValueError(f"Invalid parameter priors: {len(priors)} values given for "
                             f"{len(counts)} classes {list(self.classes_)!r}")
        return priors

    def _predict_codes(self, X):
        return self._codes_from_scores(self._discriminant_scores(X))

    # --- the matrix steps (refml_fast overrides them with numpy and a kernel) ---
    @staticmethod
    def _pooled_scatter(scatters):
        return gaussian.pooled_scatter(scatters)

    @staticmethod
    def _covariance(S, divisor, reg_param):
        """(1 - r) S / divisor + r I."""
        return gaussian.shrink(gaussian.divide(S, divisor), reg_param)

    @staticmethod
    def _factor(Sigma, what, reg_param):
        return gaussian.factor_covariance(Sigma, what, reg_param)

    def decision_function(self, X):
        """Binary: the log posterior odds of classes_[1]; K > 2: the delta_k(x) (n x K)."""
        X = self._validate_predict(X)
        return self._as_output(self._decision_from_scores(self._discriminant_scores(X)))

    def predict_proba(self, X):
        """P(Y = k | x) for each row, columns in classes_ order."""
        X = self._validate_predict(X)
        return self._as_output(self._posterior_from_scores(self._discriminant_scores(X)))

    @staticmethod
    def _check_scores(scores):
        for row in scores:
            for value in row:
                if not math.isfinite(value):
                    raise ValueError(gaussian.scores_overflow_message())
        return scores

    @staticmethod
    def _codes_from_scores(scores):
        """One score column: classes_[1] iff w'x + b > 0.  K columns: the first argmax."""
        if len(scores[0]) == 1:
            return [1 if row[0] > 0.0 else 0 for row in scores]
        return [linalg.argmax(row) for row in scores]

    @staticmethod
    def _posterior_from_scores(scores):
        """One column: (sigma(-s), sigma(s)).  K columns: softmax of the delta_k."""
        if len(scores[0]) == 1:
            return [[linalg.sigmoid(-row[0]), linalg.sigmoid(row[0])] for row in scores]
        return [linalg.softmax(row) for row in scores]


def _spread(values, kept, size):
    """The vector of length ``size`` with values[b] at kept[b] and 0.0 elsewhere."""
    full = [0.0] * size
    for j, value in zip(kept, values):
        full[j] = value
    return full


def _check_priors(priors):
    message = (f"Invalid parameter priors={priors!r}: must be None or a sequence of positive "
               "numbers, one per class in classes_ order, summing to 1")
    if isinstance(priors, (str, bytes)) or not hasattr(priors, "__iter__"):
        raise ValueError(message)
    values = list(priors)
    for value in values:
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise ValueError(message)
        if not (math.isfinite(value) and value > 0):
            raise ValueError(message)
    if not math.isclose(linalg.total(float(v) for v in values), 1.0, rel_tol=0.0,
                        abs_tol=1e-6):
        raise ValueError(message)


class LinearDiscriminantAnalysis(_GaussianDiscriminant):
    """Fisher's linear discriminant analysis ([MATH412] and [Yan]).

    Parameters
    ----------
    covariance : "pooled" or "mle", default "pooled"
        The estimate of the shared Sigma from the scatter matrices S_k:
        "pooled" = sum_k S_k / (N - K) (unbiased; [Yan]), "mle" = sum_k S_k / N (the
        maximum-likelihood estimate of [MATH412]; scikit-learn's solver="lsqr" uses it).
    priors : sequence of K positive floats summing to 1 (within 1e-6), or None (default)
        omega_k in classes_ order; None estimates omega_k = n_k / N.
    reg_param : float in [0, 1], default 0.0
        Shrinkage: Sigma is replaced by (1 - reg_param) Sigma + reg_param I.  With 0, a
        singular Sigma makes ``fit`` raise ``ValueError``.

    Attributes
    ----------
    classes_, n_features_in_ : the labels (sorted) and the number of features.
    means_ : K x d, mu_k.          priors_ : omega_k.
    covariance_ : d x d, the (shrunk) Sigma the model uses.
    coef_, intercept_ : K = 2: [w] and [b] with P(Y = classes_[1] | x) = sigma(w'x + b),
        w = Sigma^{-1}(mu_1 - mu_0), b = -1/2 (mu_1 + mu_0)' w + log(omega_1 / omega_0)
        (the lecture's b with its sign slip corrected: see the module docstring).
        K > 2: rows Sigma^{-1} mu_k and -1/2 mu_k' Sigma^{-1} mu_k + log omega_k.
    dependent_features_ : the features left out because the pooled Sigma is singular
        without them (see the module docstring); [] when Sigma is positive definite.

    Invariances (conformance item 20): the rows' order, the classes' names, the features'
    order and their common scale change no prediction.  Every row twice can: the pooled
    covariance divides by N - K, and its scale weighs against the log priors.

    Examples
    --------
    >>> model = LinearDiscriminantAnalysis().fit([[0.0], [1.0], [3.0], [4.0]], [0, 0, 1, 1])
    >>> model.predict([[1.5], [2.5]])
    [0, 1]
    """

    def __init__(self, *, covariance="pooled", priors=None, reg_param=0.0):
        self.covariance = covariance
        self.priors = priors
        self.reg_param = reg_param

    def _check_params(self, X):
        validation.check_option(self.covariance, "covariance", ("pooled", "mle"))
        self._check_common_params()

    _pooled = True           # partial_fit keeps W = S_1 + ... + S_K, all LDA uses

    def _fit(self, X, codes):
        counts, means, scatters = self._class_statistics(X, codes, len(self.classes_))
        self._fit_statistics(counts, means, self._pooled_scatter(scatters))

    def _fit_statistics(self, counts, means, W):
        """The model from n_k, mu_k and the pooled scatter W (kept in ``_stream``)."""
        n_classes = len(self.classes_)
        self._stream = {"counts": list(counts), "means": copy.deepcopy(means),
                        "scatter": copy.deepcopy(W)}
        gaussian.check_means_finite(means)
        priors = self._class_priors(counts)
        n_samples = sum(counts)
        divisor = n_samples - n_classes if self.covariance == "pooled" else n_samples
        if divisor == 0:
            raise ValueError("covariance='pooled' divides by N - K = 0: every class has a "
                             "single sample; use covariance='mle' with reg_param > 0")
        Sigma = self._covariance(W, divisor, self.reg_param)
        L, kept = self._factor_independent(Sigma)
        restricted = [[mu_k[j] for j in kept] for mu_k in means]
        if n_classes == 2:
            w, b = fisher_discriminant(L, restricted[0], restricted[1], priors[0], priors[1],
                                       self._cholesky_solve)
            coef, intercept = [w], [b]
        else:
            coef, intercept = linear_discriminants(L, restricted, priors, self._cholesky_solve)
        if len(kept) < len(Sigma):
            coef = [_spread(a, kept, len(Sigma)) for a in coef]
        self.means_, self.priors_, self.covariance_ = means, priors, Sigma
        self.coef_, self.intercept_ = coef, intercept
        self.dependent_features_ = [j for j in range(len(Sigma)) if j not in set(kept)]

    def _factor_independent(self, Sigma):
        """(L, kept): the Cholesky factor of Sigma, kept = every feature; or, when Sigma is
        singular, of Sigma restricted to its independent features, with a warning."""
        what = "the pooled within-class covariance"
        try:
            return self._factor(Sigma, what, self.reg_param), list(range(len(Sigma)))
        except gaussian.SingularCovarianceError:
            L, kept = self._cholesky_dropping_dependent(Sigma)
        if not kept:
            raise gaussian.SingularCovarianceError(
                f"{what} is 0: every feature is constant within every class; LDA has no "
                "direction to use")
        if len(kept) < len(Sigma):
            dropped = [j for j in range(len(Sigma)) if j not in set(kept)]
            caller.warn(
                f"Variables are collinear: {what} is singular; feature(s) {dropped} (0-based) "
                "are constant or linear combinations of earlier ones within the classes "
                f"(1 - R^2 <= {gaussian.SINGULAR_TOLERANCE:g}) and are left out (coefficient "
                "0). Set reg_param > 0 to keep every feature.", UserWarning)
        return L, kept

    @staticmethod
    def _cholesky_dropping_dependent(Sigma):
        return linalg.cholesky_dropping_dependent(Sigma, gaussian.SINGULAR_TOLERANCE)

    _cholesky_solve = staticmethod(linalg.cholesky_solve)  # refml_fast: a kernel

    def _discriminant_scores(self, X):
        """x' coef_[r] + intercept_[r] for every row x: w'x + b (K = 2) or delta_k(x)."""
        return self._check_scores([[linalg.dot(x, a) + c for a, c in
                                    zip(self.coef_, self.intercept_)] for x in X])

    @staticmethod
    def _decision_from_scores(scores):
        if len(scores[0]) == 1:
            return [row[0] for row in scores]
        return scores


class QuadraticDiscriminantAnalysis(_GaussianDiscriminant):
    """Quadratic discriminant analysis: the MAP classifier of [IML-L5] section 4.

    Parameters
    ----------
    priors : sequence of K positive floats summing to 1 (within 1e-6), or None (default)
        omega_k in classes_ order; None estimates omega_k = n_k / N.
    reg_param : float in [0, 1], default 0.0
        Shrinkage of every class covariance to (1 - reg_param) Sigma_k + reg_param I.  With
        0, a singular Sigma_k (e.g. a class with fewer than d + 1 distinct points) makes
        ``fit`` raise ``ValueError``.

    Attributes
    ----------
    classes_, n_features_in_, means_, priors_ : as for LDA.
    covariance_ : K matrices d x d, Sigma_k = S_k / n_k (shrunk), the ones the model uses.

    ``decision_function``: K = 2, delta_1(x) - delta_0(x), the log posterior odds of
    classes_[1], equal to half the lecture's b~ - w'x + x'Mx; K > 2, the delta_k(x).

    Invariances (conformance item 20): the rows' order, the classes' names, the features'
    order, their common scale and every row twice change no prediction.

    Examples
    --------
    >>> X = [[0.0], [1.0], [2.0], [-4.0], [0.5], [5.0]]
    >>> QuadraticDiscriminantAnalysis().fit(X, [0, 0, 0, 1, 1, 1]).predict([[1.0], [9.0]])
    [0, 1]
    """

    @property
    def _expected_failed_checks(self):
        """scikit-learn's array-API check fits make_classification data whose redundant
        features are exact linear combinations: without regularisation the class covariances
        are singular, and QDA refuses them with a clear error (no pseudo-inverse)."""
        if self.reg_param == 0:
            return {"check_array_api_input":
                    "redundant features make the covariance singular; set reg_param > 0"}
        return {}

    def __init__(self, *, priors=None, reg_param=0.0):
        self.priors = priors
        self.reg_param = reg_param

    def _check_params(self, X):
        self._check_common_params()

    _pooled = False          # partial_fit keeps the K scatter matrices S_k

    def _fit(self, X, codes):
        counts, means, scatters = self._class_statistics(X, codes, len(self.classes_))
        self._fit_statistics(counts, means, scatters)

    def _fit_statistics(self, counts, means, scatters):
        """The model from n_k, mu_k and the S_k (kept in ``_stream``)."""
        self._stream = {"counts": list(counts), "means": copy.deepcopy(means),
                        "scatter": copy.deepcopy(scatters)}
        gaussian.check_means_finite(means)
        priors = self._class_priors(counts)
        covariances, factors, log_dets = [], [], []
        for label, n_k, S_k in zip(self.classes_, counts, scatters):
            Sigma_k = self._covariance(S_k, n_k, self.reg_param)
            what = f"the covariance of class {label!r} ({n_k} sample(s))"
            L_k = self._factor(Sigma_k, what, self.reg_param)
            covariances.append(Sigma_k)
            factors.append(L_k)
            log_dets.append(linalg.cholesky_logdet(L_k))      # log |Sigma_k|
        self._factors, self._log_dets = factors, log_dets
        self._log_priors = [math.log(omega_k) for omega_k in priors]
        self.means_, self.priors_, self.covariance_ = means, priors, covariances

    def _discriminant_scores(self, X):
        """delta_k(x) for every row x and class k."""
        terms = list(zip(self.means_, self._factors, self._log_dets, self._log_priors))
        return self._check_scores([[quadratic_discriminant(x, *term) for term in terms]
                                   for x in X])

    @staticmethod
    def _decision_from_scores(scores):
        if len(scores[0]) == 2:
            return [row[1] - row[0] for row in scores]
        return scores
