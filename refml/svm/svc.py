"""Support vector machines: the optimal separating hyperplane, hard and soft margin.

[Yan], "optimal separating hyperplane" to "Dual problem: non-separable data".  For
y_i in {-1, +1} (classes_[0] -> -1, classes_[1] -> +1):

    (P)  min_{beta, beta_0, xi}  1/2 ||beta||^2 + C sum_i xi_i
         s.t.  y_i (beta'x_i + beta_0) >= 1 - xi_i,  xi_i >= 0          (C = inf: xi = 0)

    (D)  max_alpha  sum_i alpha_i - 1/2 sum_i sum_j alpha_i alpha_j y_i y_j x_i'x_j
         s.t.  sum_i alpha_i y_i = 0,  0 <= alpha_i <= C.

(D) is solved by SMO (refml/svm/smo.py: pairs chosen by LIBSVM's second-order rule, stopped when
every KKT condition holds to within ``tol`` on the functional margins).  The primal comes
back from the KKT conditions ("Checking KKT conditions", "Implications"):

    beta = sum_i alpha_i y_i x_i                           (stationarity in beta)
    beta_0 = y_i - beta'x_i  on a margin support vector    (complementary slackness)

``intercept_`` averages y_i - beta'x_i over every margin support vector, 0 < alpha_i < C (the
lecture's "any support vector" is the hard-margin case, where every support vector is on the
margin; with C < inf a support vector with alpha_i = C may sit inside the margin, and only
those with alpha_i < C are on it).  If no multiplier is strictly inside (0, C), beta_0 is the
midpoint of the interval the KKT conditions leave for it.  ``margin_`` = 1/||beta||: the
distance from the hyperplane to the margin ([Yan]: M = 1/||beta|| when the problem is
rescaled to min ||beta||^2 s.t. y_i(...) >= 1).  For the kernels, beta lives in feature space:
||beta||^2 = sum_ij alpha_i alpha_j y_i y_j K_ij, and there is no ``coef_``.

KKT conditions, measured (``kkt_violations_``; ``kkt_violation_`` is their maximum).  With
f(x) = beta'x + beta_0, the margins g_i = y_i f(x_i) and xi_i = max(0, 1 - g_i) (xi = 0 when
C = inf):

    primal feasibility       max_i (1 - xi_i - g_i)_+         (nonzero only for the hard margin)
    dual feasibility         max_i max(-alpha_i, alpha_i - C, 0)
    complementary slackness  alpha_i (g_i - 1 + xi_i) = 0 and (C - alpha_i) xi_i = 0,
                             measured by their second factors where the first is positive:
                             max of |g_i - 1 + xi_i| over alpha_i > 0 and xi_i over alpha_i < C
    stationarity             |sum_i alpha_i y_i|   (dL/dbeta_0; dL/dbeta = 0 holds because
                             beta is computed as sum alpha_i y_i x_i, dL/dxi_i = 0 with
                             mu_i = C - alpha_i >= 0)

Departures from the print.  The lecture prints complementary slackness as
alpha_i[y_i(beta'x_i + beta_0) 1] = 0; the minus sign before the 1 is lost in extraction.
The slides write the convex reformulation first as min ||beta||^2 and then as
min 1/2 ||beta||^2: same minimiser, but the printed dual (with its 1/2) is the dual of the
1/2 form (the other would carry 1/4), so P and D here use 1/2 ||beta||^2; checked
numerically by weak duality near the solution and P = D at it (conformance/t10_svm.py).
The soft-margin KKT conditions are not printed ("Homework: derive the dual"); derived from
L = 1/2||beta||^2 + C sum xi - sum alpha_i (y_i f(x_i) - 1 + xi_i) - sum mu_i xi_i, they add
C - alpha_i - mu_i = 0, mu_i >= 0 (hence alpha_i <= C) and mu_i xi_i = 0 to the four above.
At convergence each measure is at most ``tol`` (up to rounding), and the duality gap obeys
|P - D| <= tol (sum over i of alpha_i if g_i >= 1, else C - alpha_i): see
conformance/t10_svm.py.

Non-separable data with C = inf: (P) has no solution and (D) is unbounded.  SMO then either
meets an unbounded pair (status "unbounded": two points that no hyperplane separates, such as
equal points with opposite labels) or never satisfies its stopping rule (no hyperplane has
every y_i f(x_i) >= 1 - tol > 0), and stops after ``max_iter`` steps.  Either way ``fit`` warns
with a ``ConvergenceWarning`` and sets ``converged_ = False``; ``linear_separability`` answers
the question exactly beforehand.  Should the multipliers grow until f overflows (C = inf with
an indefinite kernel, poly with coef0 < 0), or a kernel value overflow (entries near 1e154 and
beyond), ``fit`` raises ValueError saying which.

Predictions: f(x) >= 0 -> classes_[1] (sign(0) = +1, as for the perceptron).
"""

import math

from refml.core import caller, validation
from refml.core.base import Classifier, ConvergenceWarning, warn_not_converged
from refml.svm import one_vs_one
from refml.svm import smo as _smo

# ----------------------------------------------------------------------------------------
# Primal recovery and the KKT measures: plain loops over the n points.


def intercept(alpha, y, scores, C):
    """beta_0: the mean of v_i = y_i - f0(x_i) over 0 < alpha_i < C, else the midpoint of
    [max_{I_up} v, min_{I_low} v], the interval the KKT conditions leave for it.

    A multiplier within FREE_MARGIN max_t alpha_t of a bound counts as at that bound
    (beyond the lectures): where beta_0 is not unique, SMO can stop with a multiplier that
    belongs at 0 a rounding error above it, which pins beta_0 to one end of its interval,
    while the same data in another row order stop with it at 0 exactly and take the
    midpoint (0.14 apart on 30 rows of three classes, conformance item 20)."""
    largest = 0.0
    for a in alpha:
        largest = max(largest, a)
    tiny = FREE_MARGIN * largest
    total, count = 0.0, 0
    for i in range(len(y)):
        if tiny < alpha[i] < C - tiny:
            total += y[i] - scores[i]
            count += 1
    if count > 0:
        return total / count
    low, high = -math.inf, math.inf
    for i in range(len(y)):
        v = y[i] - scores[i]
        # I_up and I_low as in ``smo.in_up`` and ``smo.in_low``: where alpha_i may still grow
        # in the direction y_i (up), or shrink (low)
        if y[i] > 0:
            in_up, in_low = alpha[i] < C - tiny, alpha[i] > tiny
        else:
            in_up, in_low = alpha[i] > tiny, alpha[i] < C - tiny
        if in_up:
            low = max(low, v)
        if in_low:
            high = min(high, v)
    if low == -math.inf or high == math.inf:
        return high if low == -math.inf else low
    return (low + high) / 2.0


FREE_MARGIN = 1e-12


def kkt_violations(alpha, y, scores, b, C):
    """The four KKT conditions of [Yan] measured at (alpha, beta, beta_0, xi), from the
    functional margins g_i = y_i f(x_i) = y_i (f0(x_i) + beta_0): (primal feasibility, dual
    feasibility, complementary slackness, the signed balance sum_i alpha_i y_i)."""
    primal = dual = slackness = balance = 0.0
    for i in range(len(y)):
        g, a = y[i] * (scores[i] + b), alpha[i]
        xi = 1.0 - g if (C < math.inf and g < 1.0) else 0.0   # xi_i = (1 - g_i)_+, 0 if C = inf
        if 1.0 - xi - g > primal:
            primal = 1.0 - xi - g
        if -a > dual or a - C > dual:
            dual = max(-a, a - C)
        if a > 0.0 and abs(g - 1.0 + xi) > slackness:
            slackness = abs(g - 1.0 + xi)
        if a < C and xi > slackness:
            slackness = xi
        balance += a * y[i]
    return primal, dual, slackness, balance


def beta_norm_squared(alpha, y, scores):
    """||beta||^2 = sum_i alpha_i y_i f0(x_i), over alpha_i > 0 in order."""
    total = 0.0
    for i in range(len(y)):
        if alpha[i] > 0.0:
            total += alpha[i] * y[i] * scores[i]
    return total


def objectives(alpha, y, scores, b, beta_norm2, C):
    """(P, D): 1/2||beta||^2 + C sum xi_i, and sum alpha_i - 1/2 ||beta||^2."""
    slack_total = 0.0
    if C < math.inf:
        for i in range(len(y)):
            slack_total += max(0.0, 1.0 - y[i] * (scores[i] + b))
    primal = 0.5 * beta_norm2 + (C * slack_total if slack_total > 0.0 else 0.0)
    alpha_total = 0.0
    for a in alpha:
        alpha_total += a
    return primal, alpha_total - 0.5 * beta_norm2


def dual_objective(alpha, y, K):
    """(D): sum_i alpha_i - 1/2 sum_i sum_j alpha_i alpha_j y_i y_j K_ij, the lecture's double
    sum over all pairs (K the kernel matrix, or the Gram matrix x_i'x_j).  ``fit`` reports the
    same value as ``dual_objective_``, computed in O(n) from the scores f(x_i) - beta_0 =
    sum_j alpha_j y_j K_ij (``objectives``); conformance/t10_svm.py checks the two agree."""
    total = 0.0
    for a in alpha:
        total += a
    double_sum = 0.0
    for i in range(len(alpha)):
        for j in range(len(alpha)):
            double_sum += alpha[i] * alpha[j] * y[i] * y[j] * K[i][j]
    return total - 0.5 * double_sum


# ----------------------------------------------------------------------------------------
# The estimator: SMO's multipliers, then the primal, the intercept and the KKT measures.

DIVERGED = ("SMO diverged: the multipliers grew until f(x) or ||beta||^2 overflowed float64 "
            "(the dual is unbounded: C=inf on data that no hyperplane of the feature space "
            "separates, or an indefinite kernel such as poly with coef0 < 0); use a finite C")

EPSILON = 2.0 ** -52             # the spacing of float64 at 1


def hopeless_scale(largest_kernel, C, tol):
    """True when float64 cannot meet the KKT tolerance at this scale of the kernel.

    SMO's gradient G_i = sum_j alpha_j y_i y_j K(x_i, x_j) - 1 carries terms up to
    C max_t K(x_t, x_t) (|K(x_i, x_j)| <= max_t K(x_t, x_t) for a Gram matrix), each
    rounded by about EPSILON times its size.  When a single term's rounding exceeds ``tol``,
    the measured KKT violation cannot be trusted below tol, and SMO runs to max_iter (12
    rows near 1e19 with the linear kernel: K about 1e38, 10,000,000 steps, half the rows
    misclassified).  Beyond the lectures: a guard, not part of the algorithm."""
    return math.isfinite(C) and EPSILON * C * largest_kernel > tol


def scale_message(largest_kernel, C, tol):
    return (f"SVC: the kernel reaches K(x, x) = {largest_kernel:.3g} (features of about "
            f"{math.sqrt(largest_kernel):.3g} for the linear kernel), so float64 rounds the "
            f"dual's gradient by about {EPSILON * C * largest_kernel:.3g}, above tol={tol}: "
            "SMO cannot converge at this scale.  Standardise X (e.g. scikit-learn's "
            "StandardScaler), or use the rbf kernel with gamma='scale'.")


class SVC(Classifier):
    """Support vector classifier by the dual and SMO ([Yan]); more than two classes by
    one-vs-one (``one_vs_one``, beyond the lectures).

    Parameters
    ----------
    C : float > 0 or float("inf"), default 1.0
        The cost of a margin violation; inf is the hard margin (separable data only).
    kernel : {"linear", "rbf", "poly"}, default "linear"
        x'z (the lecture), exp(-gamma ||x - z||^2), or (gamma x'z + coef0)^degree.
    gamma : float > 0, "scale" or "auto", default "scale"
        For "rbf" and "poly"; "scale" is 1 / (d Var(X)) over all entries of X (1.0 if X is
        constant) and "auto" is 1 / d, as in scikit-learn.
    degree : int >= 1, default 3
    coef0 : float, default 0.0
    tol : float > 0, default 1e-3
        SMO stops when max_{I_up} v - min_{I_low} v <= tol (see refml/svm/smo.py).
    max_iter : int >= 1, default 10000000
        The cap on SMO pair steps: LIBSVM's own (max(10^7, 100 n)); scikit-learn passes no
        other (``max_iter=-1``).  Overlapping classes at n = 10^4 take some 10^5 steps.
    decision_function_shape : {"ovr", "ovo"}, default "ovr"
        With more than two classes: ``decision_function`` per class (votes plus bounded
        confidences) or per pair of classes (``one_vs_one``).  Two classes: one value.
    break_ties : bool, default False
        With more than two classes and "ovr": predict the argmax of ``decision_function``
        instead of the vote winner (the first class on a tie of votes).

    Attributes
    ----------
    support_ : indices of the support vectors (alpha_i > 0), ascending.
    support_vectors_ : their rows.
    dual_coef_ : alpha_i y_i for each support vector.
    coef_ : beta = sum_i alpha_i y_i x_i (linear kernel only), a vector of length d.
    intercept_ : beta_0.
    margin_ : 1 / ||beta|| (inf when beta = 0).
    kkt_violations_ : dict of the four KKT measures; kkt_violation_ : their maximum.
    primal_objective_, dual_objective_ : (P) and (D) at the solution (P without the C term
        when C = inf).
    gamma_ : the gamma used.
    n_iter_ : SMO pair steps made.  converged_ : the stopping rule was met.

    With K > 2 classes (``one_vs_one``, scikit-learn's layout): ``support_`` grouped by
    class, ``n_support_``, ``support_vectors_``, ``dual_coef_`` (K - 1 rows),
    ``intercept_`` and ``n_iter_`` (one per pair), ``coef_`` (linear: one row per pair),
    ``gamma_``, ``converged_`` (every pair), and ``estimators_``, the binary SVC of each
    pair (i, j), class i coded 0 and class j coded 1; the binary measures (margin, KKT,
    objectives) are the pairs' own.

    Invariances (conformance item 20), at the optimum: the rows' order and the features'
    order change no prediction, nor do the classes' names with break_ties=True (with
    break_ties=False one-vs-one votes that tie go to the first class).  The features'
    common scale changes none with the rbf kernel and gamma='scale'; with the linear or
    poly kernel it does (C weighs the slack against a margin measured in the features'
    units), and so does every row twice (C sum xi doubles).

    Examples
    --------
    >>> model = SVC(C=float("inf")).fit([[0.0], [1.0], [3.0], [4.0]], [0, 0, 1, 1])
    >>> model.coef_, model.intercept_, model.margin_, model.support_
    ([1.0], -2.0, 1.0, [1, 2])
    """

    def __init__(self, *, C=1.0, kernel="linear", gamma="scale", degree=3, coef0=0.0,
                 tol=1e-3, max_iter=10_000_000, decision_function_shape="ovr",
                 break_ties=False):
        self.C = C
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.tol = tol
        self.max_iter = max_iter
        self.decision_function_shape = decision_function_shape
        self.break_ties = break_ties

    def _check_params(self, X):
        validation.check_scalar(self.C, "C", "real", 0.0, math.inf, low_open=True)
        validation.check_option(self.kernel, "kernel", _smo.KERNELS)
        if not (isinstance(self.gamma, str) and self.gamma in ("scale", "auto")):
            validation.check_scalar(self.gamma, "gamma", "real", 0.0, math.inf,
                                    low_open=True, high_open=True)
        validation.check_scalar(self.degree, "degree", "int", 1)
        validation.check_scalar(self.coef0, "coef0", "real", -math.inf, math.inf,
                                low_open=True, high_open=True)
        validation.check_scalar(self.tol, "tol", "real", 0.0, math.inf,
                                low_open=True, high_open=True)
        validation.check_scalar(self.max_iter, "max_iter", "int", 1)
        validation.check_option(self.decision_function_shape, "decision_function_shape",
                                ("ovr", "ovo"))
        validation.check_bool(self.break_ties, "break_ties")
        if self.break_ties and self.decision_function_shape == "ovo":
            raise ValueError("Invalid parameters break_ties=True and "
                             "decision_function_shape='ovo': ties are broken by the 'ovr' "
                             "decision function")

    # --- fit ---
    def _fit(self, X, codes):
        self.gamma_ = self._gamma_value(X)
        if self.kernel != "linear" and not 0.0 < self.gamma_ < math.inf:
            raise ValueError(f"gamma={self.gamma!r} gives {self.gamma_!r}: Var(X) is not a finite "
                             "positive number (entries near 1e300 overflow); rescale X")
        if len(self.classes_) > 2:
            self._fit_pairs(X, codes)
        else:
            self._fit_binary(X, codes)

    def _fit_binary(self, X, codes):
        y = self.signs_from_codes(codes)
        C = float(self.C)
        diagonal = self._kernel_diagonal(X)                  # K_tt, checked, then used by SMO
        if not self._all_finite(diagonal):
            raise ValueError("kernel values overflow float64: some K(x_i, x_i) is infinite "
                             "(entries near 1e154 or larger); rescale X")
        largest = self._largest(diagonal)
        if hopeless_scale(largest, C, float(self.tol)):
            caller.warn(scale_message(largest, C, float(self.tol)), ConvergenceWarning)
        alpha, n_iter, status, scores = self._solve_dual(X, y, C, diagonal)
        scores = self._store_dual(X, y, alpha, C, scores)
        if (C == math.inf and status == _smo.CONVERGED  # the hard margin made exact
                and not _smo.is_hard_margin_kkt(alpha, y, scores, self.intercept_)):
            exact = _smo.exact_hard_margin(X, y, alpha, self.kernel, self.gamma_,
                                           self.degree, float(self.coef0))
            if exact is not None:
                exact_scores = self._store_dual(X, y, exact, C)
                lowest = min(y[i] * (exact_scores[i] + self.intercept_) for i in range(len(y)))
                if lowest >= 1.0 - _smo.HARD_MARGIN_SLACK:      # a KKT point: the optimum
                    alpha, scores = exact, exact_scores
                else:
                    scores = self._store_dual(X, y, alpha, C)
        if not self._all_finite(scores) or not math.isfinite(self.intercept_):
            raise ValueError(DIVERGED)
        beta_norm2, self.kkt_violations_, objective_values = self._measure(alpha, y, scores, C)
        if not math.isfinite(beta_norm2):
            # f(x_i) still finite, but ||beta||^2 = sum alpha_i y_i f0(x_i) overflowed (to
            # inf, or to NaN as inf - inf): the margin and both objectives would be
            # meaningless, so it is the same divergence.
            raise ValueError(DIVERGED)
        self.margin_ = 1.0 / math.sqrt(beta_norm2) if beta_norm2 > 0.0 else math.inf
        self.kkt_violation_ = max(self.kkt_violations_.values())
        self.primal_objective_, self.dual_objective_ = objective_values
        self.n_iter_ = n_iter
        self.converged_ = status == _smo.CONVERGED
        if not self.converged_:
            warn_not_converged(self._not_converged_message(status, C))

    def _fit_pairs(self, X, codes):
        """One binary SVC per pair of classes, the same parameters and this gamma; then the
        attributes in scikit-learn's layout (``one_vs_one``)."""
        K = len(self.classes_)
        params = dict(self.get_params(), gamma=self.gamma_)
        models, supports, coefficients = [], [], []
        for rows, model in self._pair_models(X, codes, params):
            models.append(model)
            supports.append([rows[s] for s in model.support_])
            coefficients.append(list(model.dual_coef_))
        support, n_support = one_vs_one.support_layout(K, codes, supports)
        self.support_ = self._as_indices(support)
        self.n_support_ = self._as_indices(n_support)
        self.support_vectors_ = self._rows(X, support)
        self.dual_coef_ = self._as_output(
            one_vs_one.dual_coefficients(K, codes, support, supports, coefficients))
        self.intercept_ = self._as_output([-model.intercept_ for model in models])
        if self.kernel == "linear":
            self.coef_ = self._as_output([[-value for value in model.coef_]
                                          for model in models])
        self.n_iter_ = self._as_indices([model.n_iter_ for model in models])
        self.converged_ = all(model.converged_ for model in models)
        self.estimators_ = models

    def _pair_models(self, X, codes, params):
        """[(rows, model)]: the binary SVC of each pair, in ``one_vs_one.pairs`` order (the
        loop that refml_fast runs on threads)."""
        return [self._fit_pair(X, codes, params, i, j)
                for i, j in one_vs_one.pairs(len(self.classes_))]

    def _fit_pair(self, X, codes, params, i, j):
        """Class j (as +1) against class i on their rows alone."""
        rows, pair_codes = self._pair_rows(codes, i, j)
        return rows, type(self)(**params).fit(self._rows(X, rows), pair_codes)

    @staticmethod
    def _pair_rows(codes, i, j):
        return one_vs_one.pair_rows(codes, i, j)

    @staticmethod
    def _all_finite(values):
        return all(map(math.isfinite, values))

    @staticmethod
    def _largest(values):
        return max(values)

    def _store_dual(self, X, y, alpha, C, scores=None):
        """Support set, coefficients and intercept from alpha; returns f(x_i) - beta_0
        (``scores``, from SMO's gradient, or else computed by the kernel sums)."""
        support = self._support(alpha)                       # the i with alpha_i > 0
        self.support_ = self._as_indices(support)
        self.support_vectors_ = self._rows(X, support)
        self.dual_coef_ = self._as_output(self._signed_multipliers(alpha, y, support))
        if self.kernel == "linear":
            self.coef_ = self._primal_coef()                # beta = sum_i alpha_i y_i x_i
        if scores is None:
            scores = self._training_scores(X)                 # f0(x_i) = f(x_i) - beta_0
        self.intercept_ = self._intercept(alpha, y, scores, C)
        return scores

    def _gamma_value(self, X):
        """gamma; for "auto" 1 / d; for "scale" ``_scale_gamma``."""
        if not isinstance(self.gamma, str):
            return float(self.gamma)
        if self.gamma == "auto":
            return 1.0 / self._n_rows_cols(X)[1]
        return self._scale_gamma(X)

    @staticmethod
    def _scale_gamma(X):
        """1 / (d Var(X)) over all n d entries (1.0 if Var = 0): ``smo.scale_gamma``."""
        return _smo.scale_gamma(X)

    def _kernel_diagonal(self, X):
        return [_smo.kernel_value(self.kernel, x, x, self.gamma_, self.degree,
                                  float(self.coef0)) for x in X]

    def _measure(self, alpha, y, scores, C):
        """(||beta||^2, the KKT measures, (P, D)) at the solution."""
        primal, dual, slackness, balance = self._kkt_violations(alpha, y, scores,
                                                                self.intercept_, C)
        beta_norm2 = self._beta_norm_squared(alpha, y, scores)
        measures = {"primal feasibility": primal, "dual feasibility": dual,
                    "complementary slackness": slackness, "stationarity": abs(balance)}
        return beta_norm2, measures, self._objectives(alpha, y, scores, self.intercept_,
                                                      beta_norm2, C)

    # The O(n) measures; refml_fast compiles these same functions with Numba.
    _intercept = staticmethod(intercept)
    _kkt_violations = staticmethod(kkt_violations)
    _beta_norm_squared = staticmethod(beta_norm_squared)
    _objectives = staticmethod(objectives)

    def _solve_dual(self, X, y, C, diagonal):
        """(alpha, n_iter, status, f0(x_t) at every training row) from SMO, given K_tt in
        ``diagonal``: the hot loop refml_fast replaces.  f0 comes free from SMO's final
        gradient."""
        rows = _smo.KernelRows(X, self.kernel, self.gamma_, self.degree, float(self.coef0))
        alpha, n_iter, status, gradient = _smo.smo(rows, diagonal, y, C, float(self.tol),
                                                   self.max_iter)
        return alpha, n_iter, status, _smo.scores_from_gradient(gradient, y)

    def _not_converged_message(self, status, C):
        hard = C == math.inf
        if status == _smo.UNBOUNDED:
            return ("SVC(C=inf): the dual is unbounded, so the hard-margin problem has no "
                    "solution: two points with opposite labels cannot be separated (equal "
                    "points, or K_ii + K_jj - 2 K_ij = 0). Use a finite C. The model is kept.")
        return (f"SVC did not converge: max_iter={self.max_iter} SMO steps left a KKT "
                f"violation above tol={self.tol}."
                + (" With C=inf this happens when the data are not separable (check with "
                   "linear_separability); use a finite C." if hard else
                   " Raise max_iter or tol.") + " The last iterate is kept.")

    # --- the representation hooks refml_fast overrides ---
    @staticmethod
    def _support(alpha):
        return [i for i in range(len(alpha)) if alpha[i] > 0.0]

    @staticmethod
    def _signed_multipliers(alpha, y, support):
        """alpha_i y_i for i in the support set."""
        return [alpha[i] * y[i] for i in support]

    @staticmethod
    def _as_indices(indices):
        return indices

    @staticmethod
    def _rows(X, indices):
        return [list(X[i]) for i in indices]

    def _primal_coef(self):
        """beta_j = sum_s (alpha_s y_s) x_sj over the support vectors in order."""
        beta = [0.0] * self.n_features_in_
        for coefficient, x in zip(self.dual_coef_, self.support_vectors_):
            for j in range(len(beta)):
                beta[j] += coefficient * x[j]
        return beta

    def _training_scores(self, X):
        """f(x_i) - beta_0 on the training rows, as a list (the loops of ``_fit`` read it)."""
        return self._raw_scores(X)

    def _raw_scores(self, X):
        """f(x) - beta_0: beta'x (linear), sum_s alpha_s y_s K(x_s, x) (other kernels)."""
        if self.kernel == "linear":
            return [_smo.kernel_value("linear", self.coef_, x, 0.0, 0, 0.0) for x in X]
        scores = []
        for x in X:
            total = 0.0
            for coefficient, z in zip(self.dual_coef_, self.support_vectors_):
                total += coefficient * _smo.kernel_value(
                    self.kernel, z, x, self.gamma_, self.degree, float(self.coef0))
            scores.append(total)
        return scores

    # --- predict ---
    def decision_function(self, X):
        """f(x) = beta'x + beta_0 (or sum_s alpha_s y_s K(x_s, x) + beta_0) for each row;
        with K > 2 classes a row of values per class ("ovr") or per pair ("ovo")."""
        X = self._validate_predict(X)
        if len(self.classes_) == 2:
            return self._as_output(self._decision_values(X))
        decisions = self._pair_decisions(X)
        if self.decision_function_shape == "ovo":
            return self._as_output(self._ovo_values(decisions))
        return self._as_output(self._ovr_values(decisions))

    def _decision_values(self, X):
        return [score + self.intercept_ for score in self._raw_scores(X)]

    def _predict_codes(self, X):
        if len(self.classes_) == 2:
            return self._binary_codes(X)
        decisions = self._pair_decisions(X)
        if self.break_ties and self.decision_function_shape == "ovr":
            return self._first_maximum(self._ovr_values(decisions))
        return self._first_maximum(self._votes(decisions))

    def _binary_codes(self, X):
        return [1 if value >= 0.0 else 0 for value in self._decision_values(X)]

    # --- K > 2: the pairs' values and their votes (refml_fast: on arrays) ---
    def _pair_decisions(self, X):
        """f_ij(x) of every pair.  Other kernels than the linear: from one kernel value per
        support vector of the model and row (``one_vs_one.pair_support_positions``), each
        pair's terms summed in its own order, so each f_ij is its pair model's float.  The
        linear kernel, or pair models whose support vectors are not the model's (changed
        by hand), go pair by pair."""
        positions = None if self.kernel == "linear" else self._pair_positions()
        if positions is None:
            return [model._decision_values(X) for model in self.estimators_]
        decisions = [[] for _ in self.estimators_]
        for x in X:
            values = [_smo.kernel_value(self.kernel, z, x, self.gamma_, self.degree,
                                        float(self.coef0)) for z in self.support_vectors_]
            for pair, (model, places) in enumerate(zip(self.estimators_, positions)):
                total = 0.0
                for coefficient, p in zip(model.dual_coef_, places):
                    total += coefficient * values[p]
                decisions[pair].append(total + model.intercept_)
        return decisions

    def _pair_positions(self):
        """``one_vs_one.pair_support_positions``, or None when a pair model's support
        vectors are not those rows of ``support_vectors_``."""
        positions = one_vs_one.pair_support_positions(
            len(self.classes_), list(self.support_), list(self.n_support_),
            [list(row) for row in self.dual_coef_])
        vectors = [list(z) for z in self.support_vectors_]
        for model, places in zip(self.estimators_, positions):
            if [vectors[p] for p in places] != [list(z) for z in model.support_vectors_]:
                return None
        return positions

    def _votes(self, decisions):
        return one_vs_one.votes(len(self.classes_), decisions)

    def _ovr_values(self, decisions):
        return one_vs_one.ovr_values(len(self.classes_), decisions)

    @staticmethod
    def _ovo_values(decisions):
        """-f_ij(x): LIBSVM's sign, positive towards the pair's first class."""
        return [[-values[r] for values in decisions] for r in range(len(decisions[0]))]

    @staticmethod
    def _first_maximum(rows):
        return one_vs_one.first_maximum(rows)
