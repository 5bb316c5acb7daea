"""The plug-in classifier by ordinary least squares ([MATH412], section 2).

With Y in {-1, +1} the square loss is (f(x) - y)^2 = (1 - y f(x))^2 and its target is

    f*(x) = E[Y | X = x] = 2 P(Y = 1 | X = x) - 1,

whose sign is the Bayes rule.  The plug-in principle of [MATH412] ("Classification via OLS
regression"): learn f_hat(x) = w'x + b by OLS regression on the labels y_i in {-1, +1}
(classes_[0] -> -1, classes_[1] -> +1) and predict

    y_hat(x) = sign(f_hat(x)),   sign(0) = +1 -> classes_[1],

the convention of [NN-Notes] and [IML-L5] (sign(w'x) = 1 when w'x >= 0), shared with the
perceptron and the SVM so that every sign-based linear rule sends f = 0 to classes_[1].

The solver, written out.  With the intercept, centre the data: x_c = x - x_bar.  Then w solves
the normal equations

    (X_c' X_c) w = X_c' y,        b = y_bar - w' x_bar,

(centring gives the same w and b as the augmented design [x, 1], with a better conditioned
Gram matrix).  X_c' X_c is factored by Cholesky, L L' = X_c' X_c, and w = L'^{-1} L^{-1} X_c' y.

Rank-deficient designs (a constant feature, duplicated or collinear columns, fewer samples
than features): the normal equations then have many solutions, all with the same fitted
values on the training rows.  The factorisation takes the columns in order and *drops* a
column whose Cholesky pivot is at most ``tol`` times its diagonal entry (relative: the
column is a combination of the earlier ones up to 1 - R^2 <= tol); its coefficient is set
to 0 and the other coefficients solve the least-squares problem without it, as R's ``lm``
does with aliased columns.  ``rank_`` is the number of columns kept.  No error is raised.

Features so large that X'X overflows (n max|x_ij|^2 > 1e308, e.g. entries of 1e300) raise a
``ValueError`` asking to rescale X, rather than an infinite Gram matrix and a silent rank 0.

More than two classes (beyond the lectures, which state the rule for two): one OLS fit per
class k to the targets +1 for class k and -1 for the others (scikit-learn's RidgeClassifier
coding), all sharing X_c' X_c, and the plug-in rule argmax_k (w_k'x + b_k), the first class
on a tie.  With two classes the single fit above is kept, so the answers are the same.
"""

import math

from refml.core import linalg, validation
from refml.core.base import Classifier

# ----------------------------------------------------------------------------------------
# 1. The OLS fit and the sign rule.


def normal_equations(X, targets, means):
    """(X_c' X_c, [X_c' y for each target column y]) with x_c = x - x_bar, every entry
    summed over the rows in order."""
    centered = [[value - mean for value, mean in zip(row, means)] for row in X]
    Xty = [[0.0] * len(means) for _ in targets]
    for i, row in enumerate(centered):
        for c, y in enumerate(targets):
            for j, value in enumerate(row):
                Xty[c][j] += value * y[i]
    return linalg.gram(centered), Xty


def one_vs_rest_targets(codes, n_classes):
    """The target columns: the signs y_i in {-1, +1} for two classes (classes_[1] -> +1);
    for more, one column per class k, +1 on its rows and -1 elsewhere."""
    if n_classes == 2:
        return [[1.0 if code == 1 else -1.0 for code in codes]]
    return [[1.0 if code == k else -1.0 for code in codes] for k in range(n_classes)]


def ols_intercept(y, w, means):
    """b = y_bar - w' x_bar."""
    y_sum = 0.0
    for label in y:
        y_sum += label
    return y_sum / len(y) - linalg.dot(w, means)


def sign_rule(f):
    """y_hat = sign(f), sign(0) = +1: the code of classes_[1] when f >= 0, else 0."""
    return 1 if f >= 0.0 else 0


# ----------------------------------------------------------------------------------------
# 2. The estimator.


class LeastSquaresClassifier(Classifier):
    """sign(w'x + b) with (w, b) the OLS fit to labels in {-1, +1} ([MATH412], section 2);
    with more classes argmax_k (w_k'x + b_k), one fit per class (module docstring).

    Parameters
    ----------
    fit_intercept : bool, default True
        Fit b; if False, b = 0 and w solves (X'X) w = X'y.
    tol : float in [0, 1), default 1e-10
        Relative pivot below which a column counts as dependent on earlier ones and gets
        coefficient 0 (see the module docstring).

    Attributes
    ----------
    coef_ : list of d floats (numpy array in refml_fast), the OLS slope w; with K > 2
        classes K rows, w_k.
    intercept_ : float, the OLS intercept b (0.0 without ``fit_intercept``); with K > 2
        classes K values b_k.
    rank_ : int, the number of columns kept by the solver (d when the design has full rank).
    classes_, n_features_in_ : as for every classifier.

    Invariances (conformance item 20): the rows' order, the classes' names, the features'
    order, their common scale and every row twice change no prediction.

    Examples
    --------
    >>> from refml import LeastSquaresClassifier
    >>> model = LeastSquaresClassifier().fit([[0.0], [1.0], [3.0], [4.0]], ["a", "a", "b", "b"])
    >>> model.coef_, model.intercept_
    ([0.6], -1.2)
    >>> model.predict([[1.5], [2.5]])
    ['a', 'b']
    """

    def __init__(self, *, fit_intercept=True, tol=1e-10):
        self.fit_intercept = fit_intercept
        self.tol = tol

    def _check_params(self, X):
        validation.check_bool(self.fit_intercept, "fit_intercept")
        validation.check_scalar(self.tol, "tol", "real", low=0.0, high=1.0, high_open=True)

    def _fit(self, X, codes):
        check_gram_scale(self._largest_magnitude(X), len(X), type(self).__name__)
        targets = one_vs_rest_targets(codes, len(self.classes_))
        means = self._column_means(X) if self.fit_intercept else [0.0] * len(X[0])
        G, Xty = self._normal_equations(X, targets, means)
        coef, intercepts = [], []
        for y, Xy in zip(targets, Xty):
            w, kept = linalg.solve_dropping_dependent(G, Xy, self.tol)
            coef.append(w)
            intercepts.append(ols_intercept(y, w, means) if self.fit_intercept else 0.0)
        self.rank_ = len(kept)
        if len(targets) == 1:
            self.coef_, self.intercept_ = self._as_output(coef[0]), intercepts[0]
        else:
            self.coef_, self.intercept_ = self._as_output(coef), self._as_output(intercepts)

    def _decision_values(self, X):
        if len(self.classes_) == 2:
            return [linalg.dot(self.coef_, x) + self.intercept_ for x in X]
        return [[linalg.dot(w, x) + b for w, b in zip(self.coef_, self.intercept_)]
                for x in X]

    def decision_function(self, X):
        """f_hat(x) = w'x + b for each row: >= 0 predicts classes_[1]; with K > 2 classes
        a row of w_k'x + b_k."""
        X = self._validate_predict(X)
        return self._as_output(self._decision_values(X))

    def _predict_codes(self, X):
        if len(self.classes_) == 2:
            return [sign_rule(value) for value in self._decision_values(X)]
        return [linalg.argmax(values) for values in self._decision_values(X)]   # first on a tie

    # --- the hot part (refml_fast replaces these with kernels) ---
    @staticmethod
    def _largest_magnitude(X):
        """max_ij |x_ij|."""
        largest = 0.0
        for row in X:
            for value in row:
                largest = max(largest, abs(value))
        return largest

    @staticmethod
    def _column_means(X):
        """x_bar, each mean summed over the rows in order."""
        return linalg.mean_rows(X)

    @staticmethod
    def _normal_equations(X, targets, means):
        return normal_equations(X, targets, means)


# ----------------------------------------------------------------------------------------
# The overflow check.

GRAM_LIMIT = 1e308


def check_gram_scale(largest, n_samples, estimator_name):
    """Raise ValueError when n max|x|^2, the scale of the entries of X'X, overflows."""
    if largest > math.sqrt(GRAM_LIMIT / n_samples):
        raise ValueError(
            f"{estimator_name}: X has entries of magnitude up to {largest:.3g}, so X'X (sums "
            f"of {n_samples} squares) overflows float64; rescale the features")
