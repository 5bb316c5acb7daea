"""Logistic regression ([MATH412], section 3; [Yan], multinomial logistic regression).

The binary model (Berkson, 1944; [MATH412]): log P(Y=1|x)/P(Y=0|x) = w'x, so

    P(Y = 1 | X = x) = sigma(w'x),   sigma(z) = 1 / (1 + e^{-z})   (the logistic function),
    sigma(-z) = 1 - sigma(z),        sigma'(z) = sigma(z) sigma(-z).

The log-likelihood of a sample, in the two label conventions of [MATH412]:

    y in {0, 1}:    l(w) = sum_i y_i w'x_i + log sigma(-w'x_i),
                    grad l(w) = sum_i (y_i - sigma(w'x_i)) x_i;
    y in {-1, +1}:  l(w) = -sum_i log(1 + exp(-y_i w'x_i)),
                    grad l(w) = sum_i y_i sigma(-y_i w'x_i) x_i.

Both are the same function of the same data (y = 1 in both; y = 0 <-> y = -1), concave, with
no closed-form maximiser.  ``log_likelihood`` and ``log_likelihood_gradient`` take the
convention as ``convention="zero_one"`` (default) or ``convention="plus_minus"`` (labels
must then be exactly 0/1 or -1/+1) and, like the lecture, have no intercept (append a
column of ones to X for one).

``LogisticRegression`` fits the multinomial model of [Yan] with reference class 0
(classes_[0]): K - 1 vectors beta_k = [w_k, b_k] for classes_[1..K-1], class 0 fixed at 0.
For K = 2 this is the binary model above with y in {0, 1} (classes_[0] -> 0).  It minimises
the mean negative log-likelihood ([Yan]) plus an optional ridge term (alpha/2)||w||^2
(for K > 2 on all K classes' vectors, so that the names of the classes do not matter)
by Newton's method, L-BFGS (refml/linear/logistic_solvers.py), gradient descent or SGD (below).

Separable data.  When some w separates the classes, l(c w) increases to 0 as c -> infinity:
the maximum-likelihood estimate does not exist.  The gradient then tends to 0 along a path to
infinity, so a solver eventually meets its tolerance (or its cap) at a finite theta, as a
rule one that separates the data.  After fitting with alpha = 0, LogisticRegression checks
whether its theta classifies every training point strictly correctly; if so the data are
separable, ``converged_`` is False and a ``ConvergenceWarning`` says that the MLE does not
exist.  The model is usable (it separates the training data).  A theta that does not
separate yet (sgd on a slow path, say) gets the ordinary cap warning or none.  Use alpha > 0
for a unique finite maximiser.  All
probabilities and losses are computed from exponents <= 0, so nothing overflows; features so
large that X'X overflows (e.g. entries of 1e300) raise a ValueError asking to rescale X.
Quasi-complete separation (separable up to points on the boundary) is not detected.
"""

import math

from refml.core import caller, linalg, validation
from refml.core.base import ConvergenceWarning
from refml.core.online import OnlineClassifier
from refml.core.random import check_random_state, validate_random_state
from refml.linear import logistic_solvers as solvers
from refml.linear.least_squares import LeastSquaresClassifier, check_gram_scale
from refml.linear.logistic_solvers import augmented, scores

CONVENTIONS = ("zero_one", "plus_minus")


def sigmoid(z):
    """sigma(z) = 1 / (1 + e^{-z}), without overflow for any float z.

    For z >= 0 the formula as printed (e^{-z} <= 1); for z < 0 the equal e^z / (1 + e^z).
    """
    if z >= 0.0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def softplus(z):
    """log(1 + e^z) = max(z, 0) + log(1 + e^{-|z|}), without overflow."""
    return max(z, 0.0) + math.log1p(math.exp(-abs(z)))


def log_likelihood(w, X, y, convention="zero_one"):
    """l(w), the log-likelihood of the sample (X, y) ([MATH412], section 3).

    ``convention="zero_one"``: sum_i y_i w'x_i + log sigma(-w'x_i) with y_i in {0, 1};
    ``convention="plus_minus"``: -sum_i log(1 + exp(-y_i w'x_i)) with y_i in {-1, +1}.
    log sigma(t) = -softplus(-t) is computed stably.  The {0, 1} form as printed cancels
    for y = 1 and large w'x (w'x - softplus(w'x)): its absolute error is about eps |w'x|.
    """
    w, X, y = _check_likelihood_arguments(w, X, y, convention)
    total = 0.0
    for x, label in zip(X, y):
        z = linalg.dot(w, x)
        if convention == "zero_one":
            total += label * z - softplus(z)          # y z + log sigma(-z)
        else:
            total -= softplus(-label * z)             # -log(1 + exp(-y z))
    return total


def log_likelihood_gradient(w, X, y, convention="zero_one"):
    """grad l(w) as a list ([MATH412], "Gradient of l").

    ``convention="zero_one"``: sum_i (y_i - sigma(w'x_i)) x_i;
    ``convention="plus_minus"``: sum_i y_i sigma(-y_i w'x_i) x_i.
    """
    w, X, y = _check_likelihood_arguments(w, X, y, convention)
    gradient = [0.0] * len(w)
    for x, label in zip(X, y):
        z = linalg.dot(w, x)
        if convention == "zero_one":
            weight = label - sigmoid(z)
        else:
            weight = label * sigmoid(-label * z)
        for j, value in enumerate(x):
            gradient[j] += weight * value
    return gradient


# ----------------------------------------------------------------------------------------
# The lecture's fitting loops: gradient descent and SGD on L(theta) ([Yan]).  L and its
# gradient, Newton's method and L-BFGS are in ``logistic_solvers``.


def gradient_descent(objective, theta, max_iter, tol, learning_rate):
    """[Yan]'s gradient descent: theta <- theta - eta grad L(theta), fixed eta, until
    max |grad L| <= tol.  ``objective(theta)`` gives (L, grad L) (``logistic_solvers``)."""
    loss, gradient = objective(theta)
    curve = [loss]
    n_iter = 0
    while solvers.largest_magnitude(gradient) > tol:
        if n_iter == max_iter:
            return theta, n_iter, False, curve
        theta = [a - learning_rate * g for a, g in zip(theta, gradient)]
        loss, gradient = objective(theta)
        n_iter += 1
        curve.append(loss)
    return theta, n_iter, True, curve


def sgd(objective, epoch, theta, max_iter, tol):
    """[Yan]'s SGD with uniform sampling and [MATH412]'s Polyak-Ruppert average (Algorithm 1):
    epochs of n steps theta <- theta - eta_k G_i(theta) (``epoch(theta, total, k)``, which
    returns them with the running total of the iterates and the step count k); after each,
    the averaged iterate is tested (and returned)."""
    loss, gradient = objective(theta)
    curve = [loss]
    total = list(theta)
    average = list(theta)
    k = 0
    n_iter = 0
    while solvers.largest_magnitude(gradient) > tol:
        if n_iter == max_iter:
            return average, n_iter, False, curve
        theta, total, k = epoch(theta, total, k)
        average = [value / (k + 1) for value in total]   # theta_bar = mean of theta_0..theta_k
        loss, gradient = objective(average)
        n_iter += 1
        curve.append(loss)
    return average, n_iter, True, curve


# ----------------------------------------------------------------------------------------
# Argument checks.


def _check_likelihood_arguments(w, X, y, convention):
    validation.check_option(convention, "convention", CONVENTIONS)
    X = validation.as_matrix(X)
    w = validation.as_matrix([w], name="w")[0]
    validation.check_n_features(len(w), len(X[0]), "the coefficient vector w")
    return w, X, convention_labels(y, len(X), convention)


def convention_labels(y, n_samples, convention):
    """y as floats, checked: n_samples labels, each 0/1 ("zero_one") or -1/+1 ("plus_minus")."""
    labels = validation.as_labels(y)
    validation.check_consistent_length(n_samples, len(labels))
    allowed = (0, 1) if convention == "zero_one" else (-1, 1)
    for label in labels:
        if isinstance(label, (str, bytes)) or label not in allowed:
            raise ValueError(f"Labels for convention={convention!r} must be "
                             f"{allowed[0]} or {allowed[1]}, found {label!r}")
    return [float(label) for label in labels]


# ----------------------------------------------------------------------------------------
# The end of a fit: separated training data (no maximiser), or why the solver stopped.


def separates(X, codes, theta, n_classes, fit_intercept):
    """True when every training point's own class has the strictly largest score.

    Then theta -> c theta, c -> infinity, increases the likelihood to 1: no maximiser.
    """
    for x, y in zip(X, codes):
        z = [0.0] + scores(theta, augmented(x, fit_intercept), n_classes - 1)
        for k, value in enumerate(z):
            if k != y and not z[y] > value:
                return False
    return True


def convergence_report(model, X, codes, theta, converged, max_iter):
    """``model``'s converged_, with a ConvergenceWarning when False."""
    name = f"LogisticRegression(solver={model.solver_!r})"
    if model.alpha == 0.0 and model._separates(X, codes, theta):
        warn_convergence(
            f"{name}: the training data are separable (the fitted model classifies "
            "every point strictly correctly), so the maximum-likelihood estimate does "
            "not exist; the coefficients are a finite point on a path to infinity. "
            "Set alpha > 0 for a finite maximiser.")
        return False
    if not converged:
        reason = (f"reached max_iter={max_iter}" if model.n_iter_ == max_iter
                  else "stopped: no further decrease found at working precision")
        advice = ("increase max_iter or tol" if model.solver_ in ("newton", "lbfgs") else
                  "increase max_iter or learning_rate, or use solver='newton'")
        warn_convergence(f"{name} did not converge ({reason}; tol={model.tol}): {advice}.")
    return converged


def warn_convergence(message):
    """A ConvergenceWarning at the line that called ``fit``."""
    caller.warn(message, ConvergenceWarning)


class LogisticRegression(OnlineClassifier):
    """Binary and multinomial logistic regression with reference class 0 ([MATH412], [Yan]).

    Parameters
    ----------
    solver : {"auto", "newton", "lbfgs", "gd", "sgd"}, default "auto"
        "newton": damped Newton / IRLS (precise, a few iterations); "lbfgs": limited-memory
        BFGS, the quasi-Newton method, cheaper per iteration when the Hessian is large
        (beyond the lectures); "gd": gradient descent with a fixed step; "sgd": SGD with
        uniform sampling and Polyak-Ruppert averaging.  "auto": "newton" for two classes
        with at most AUTO_NEWTON_SIZE unknowns (d + 1 <= 48 with an intercept), "lbfgs"
        otherwise.  Why: a Newton step costs the Hessian, about n s^2 / 2 multiply-adds
        for s = d + 1 unknowns, but Newton takes a few steps where L-BFGS takes tens; with
        K > 2 classes the Hessian has (K-1)^2 blocks, and L-BFGS's cheap steps win
        (docs/performance.md has the timings behind the rule).  Newton also reaches the
        maximum-likelihood estimate to rounding; L-BFGS stops at ``tol``.
    alpha : float >= 0, default 0.0
        Ridge penalty on the slopes (not the intercepts): (alpha/2)||w||^2 for two classes;
        for K > 2 the penalty of one vector per class, (alpha/2) sum_{k=0}^{K-1} ||u_k||^2,
        which does not depend on the names of the classes (beyond the lectures; derived in
        refml/linear/logistic_solvers.py).  alpha = 1 / (n C) is scikit-learn's C.
    tol : float >= 0, default 1e-4
        Stop when max_j |dL/dtheta_j| <= tol, L the mean negative log-likelihood (+ ridge).
    max_iter : int >= 1 or None, default None
        Newton or L-BFGS steps, gradient steps or SGD epochs (n draws each); None means 100,
        1000, 10000 and 1000 for "newton", "lbfgs", "gd" and "sgd".
    learning_rate : float > 0 or None, default None
        "gd": the step eta, by default 1/L with L an upper bound on the smoothness constant of
        L(theta) (``logistic_solvers.smoothness_constant``), so that every step decreases
        the loss.  "sgd": the C of eta_k = C k^(-power_t), by default 1/L_1 with L_1 the
        smoothness bound of one sample's term.  Ignored by "newton".
    power_t : float in (0, 1], default 0.5
        The exponent alpha of [MATH412]'s steps C k^(-alpha) (sgd only).
    fit_intercept : bool, default True
        Append 1 to every x ([Yan]: X = R^d x {1}).
    random_state : int, numpy RandomState or Generator, or None, default None
        Seed of the sampling of "sgd" (shared SplitMix64 stream).

    Attributes
    ----------
    coef_ : (K-1) x d nested list (numpy array in refml_fast): row k-1 is w_k, the slope
        of class classes_[k] against the reference classes_[0] (one row when binary).
    intercept_ : list of K-1 floats, the b_k (0.0 without ``fit_intercept``).
    solver_ : str, the solver used ("auto" resolved).
    n_iter_ : int, Newton or L-BFGS steps, gradient steps or SGD epochs done.
    converged_ : bool, False at the cap, on a stall, or on separable data (module docstring).
    loss_curve_ : list, L(theta) at the start and after each iteration (epoch: at the average).
    learning_rate_ : float or None, the eta (gd) or C (sgd) used; None for newton, lbfgs.

    Learning online (beyond the lectures): ``partial_fit(X, y, classes=...)`` runs one SGD
    epoch over the chunk (n draws from its rows, solver "sgd"; "auto" means "sgd" there,
    and the other solvers refuse it), carrying theta, the running sum of the iterates, the
    step count k and the random stream over from call to call; ``coef_`` and
    ``intercept_`` are the Polyak-Ruppert average of every iterate so far.  The default
    C = 1/L_1 is set from the first chunk.  ``n_iter_`` counts the calls, ``loss_curve_``
    holds L at the average on each chunk, and ``converged_`` stays False: an epoch per
    call is never tested for convergence.  After ``fit`` it starts from the fitted theta.

    Invariances (conformance item 20), at the optimum: the rows' order, the classes' names
    (the penalty covers every class's vector), the features' order and every row twice
    (the loss is a mean) change no prediction.  The scale of the features does when
    alpha > 0: the penalty on the slopes does not rescale with them.

    Examples
    --------
    >>> from refml import LogisticRegression
    >>> X = [[0.0], [1.0], [2.0], [3.0], [4.0], [5.0]]
    >>> model = LogisticRegression(tol=1e-10).fit(X, [0, 0, 1, 0, 1, 1])
    >>> model.predict([[0.5], [4.5]]), model.converged_
    ([0, 1], True)
    >>> [round(p, 3) for p in model.predict_proba([[2.5]])[0]]
    [0.5, 0.5]
    """

    DEFAULT_MAX_ITER = {"newton": 100, "lbfgs": 1000, "gd": 10000, "sgd": 1000}
    AUTO_NEWTON_SIZE = 48

    def __init__(self, *, solver="auto", alpha=0.0, tol=1e-4, max_iter=None,
                 learning_rate=None, power_t=0.5, fit_intercept=True, random_state=None):
        self.solver = solver
        self.alpha = alpha
        self.tol = tol
        self.max_iter = max_iter
        self.learning_rate = learning_rate
        self.power_t = power_t
        self.fit_intercept = fit_intercept
        self.random_state = random_state

    def _check_params(self, X):
        validation.check_option(self.solver, "solver", ("auto", "newton", "lbfgs", "gd", "sgd"))
        for name in ("alpha", "tol"):
            validation.check_scalar(getattr(self, name), name, "real", low=0.0)
            if getattr(self, name) == math.inf:
                raise ValueError(f"Invalid parameter {name}=inf: must be finite")
        if self.max_iter is not None:
            validation.check_scalar(self.max_iter, "max_iter", "int", low=1)
        if self.learning_rate is not None:
            validation.check_scalar(self.learning_rate, "learning_rate", "real", low=0.0,
                                    low_open=True)
            if self.learning_rate == math.inf:
                raise ValueError("Invalid parameter learning_rate=inf: must be finite")
        validation.check_scalar(self.power_t, "power_t", "real", low=0.0, high=1.0,
                                low_open=True)
        validation.check_bool(self.fit_intercept, "fit_intercept")
        validate_random_state(self.random_state)

    # --- fit ---
    def _fit(self, X, codes):
        check_gram_scale(self._largest_magnitude(X), len(X), type(self).__name__)
        n_free = len(self.classes_) - 1
        p = self.n_features_in_ + (1 if self.fit_intercept else 0)
        theta = [0.0] * (n_free * p)
        self.solver_ = self.solver
        if self.solver == "auto":
            small = n_free == 1 and len(theta) <= self.AUTO_NEWTON_SIZE
            self.solver_ = "newton" if small else "lbfgs"
        max_iter = self.max_iter or self.DEFAULT_MAX_ITER[self.solver_]
        self.learning_rate_ = None

        def objective(theta):                    # (L, grad L) at theta, on this data
            return self._objective(X, codes, theta)

        if self.solver_ == "newton":
            result = solvers.newton(objective,
                                    lambda theta, g: self._newton_direction(X, theta, g),
                                    theta, max_iter, self.tol)
        elif self.solver_ == "lbfgs":
            result = self._lbfgs(X, codes, theta, max_iter, self.tol)
        elif self.solver_ == "gd":
            self.learning_rate_ = self.learning_rate or self._default_step(X, "gd")
            result = gradient_descent(objective, theta, max_iter, self.tol,
                                      self.learning_rate_)
        else:
            self.learning_rate_ = self.learning_rate or self._default_step(X, "sgd")
            rng = check_random_state(self.random_state)

            def epoch(theta, total, k):          # one pass of n SGD steps
                return self._sgd_epoch(X, codes, theta, total, k, self.learning_rate_,
                                       self.power_t, rng)

            result = sgd(objective, epoch, theta, max_iter, self.tol)
        theta, self.n_iter_, converged, self.loss_curve_ = result
        self._store(theta, p)
        self.converged_ = convergence_report(self, X, codes, theta, converged, max_iter)

    def _partial_fit(self, X, codes, weights):
        if self.solver not in ("auto", "sgd"):
            raise ValueError(f"LogisticRegression(solver={self.solver!r}) has no partial_fit: "
                             "learning in chunks is SGD's (solver='sgd' or 'auto')")
        check_gram_scale(self._largest_magnitude(X), len(X), type(self).__name__)
        stream = self.__dict__.get("_stream") or self._start_stream(X)
        if stream["learning_rate"] is None:        # no chunk has set C yet (see below)
            stream["learning_rate"] = self._chunk_step(X)
        theta, total, k = self._sgd_epoch(X, codes, stream["theta"], stream["total"],
                                          stream["k"], stream["learning_rate"] or 1.0,
                                          self.power_t, stream["rng"])
        self._stream = dict(stream, theta=theta, total=total, k=k)
        average = [value / (k + 1) for value in total]   # theta_bar = mean of theta_0..theta_k
        loss, _ = self._objective(X, codes, average)
        self._store(average, self.n_features_in_ + (1 if self.fit_intercept else 0))
        self.solver_, self.learning_rate_ = "sgd", stream["learning_rate"] or 1.0
        self.n_iter_ = self.__dict__.get("n_iter_", 0) + 1
        self.loss_curve_ = self.__dict__.get("loss_curve_", []) + [loss]
        self.converged_ = False

    def _start_stream(self, X):
        """theta_0 = 0 (or the fitted theta after ``fit``), its running sum, k = 0."""
        p = self.n_features_in_ + (1 if self.fit_intercept else 0)
        theta = [0.0] * ((len(self.classes_) - 1) * p)
        if "coef_" in self.__dict__:
            theta = [float(value) for w, b in zip(self.coef_, self.intercept_)
                     for value in list(w) + ([b] if self.fit_intercept else [])]
        return {"theta": theta, "total": list(theta), "k": 0,
                "learning_rate": self.learning_rate or self._chunk_step(X),
                "rng": check_random_state(self.random_state)}

    def _lbfgs(self, X, codes, theta, max_iter, tol):
        """``logistic_solvers.lbfgs`` on lists (refml_fast runs the same steps on arrays)."""
        steps = solvers.ListSteps(len(theta) // (len(self.classes_) - 1))
        return solvers.lbfgs(lambda t: self._objective(X, codes, t), theta, steps, max_iter,
                             tol)

    def _chunk_step(self, X):
        """partial_fit's default C = 1/L_1 from a chunk, or None while every row seen is 0
        (alpha = 0): such a chunk leaves theta unchanged whatever C is, and the first chunk
        with a non-zero row sets C."""
        if self.alpha == 0.0 and self._largest_squared_norm(X) == 0.0:
            return None
        return self._default_step(X, "sgd")

    def _default_step(self, X, solver):
        """1/L for gd, 1/L_1 for sgd (see ``learning_rate``); 1.0 when L = 0, which happens
        only when every x~ is 0 and alpha = 0: L(theta) is then the constant log K and
        every step leaves theta where it is."""
        K = len(self.classes_)
        if solver == "gd":
            bound = linalg.largest_eigenvalue_bound(self._gram(X))
            constant = solvers.smoothness_constant(bound, len(X), K, self.alpha)
        else:
            bound = self._largest_squared_norm(X)
            constant = solvers.smoothness_constant(bound, 1, K, self.alpha)
        return 1.0 / constant if constant > 0.0 else 1.0

    def _store(self, theta, p):
        d = self.n_features_in_
        blocks = [theta[k * p:(k + 1) * p] for k in range(len(theta) // p)]
        self.coef_ = self._as_output([block[:d] for block in blocks])
        self.intercept_ = self._as_output([block[d] if self.fit_intercept else 0.0
                                           for block in blocks])

    # --- the arithmetic (refml_fast replaces these with kernels) ---
    _largest_magnitude = staticmethod(LeastSquaresClassifier._largest_magnitude)

    def _objective(self, X, codes, theta):
        return solvers.objective(X, codes, theta, len(self.classes_), self.fit_intercept,
                                 self.alpha)

    def _newton_direction(self, X, theta, gradient):
        return solvers.newton_direction(X, theta, gradient, len(self.classes_),
                                        self.fit_intercept, self.alpha)

    def _sgd_epoch(self, X, codes, theta, total, k, learning_rate, power_t, rng):
        return solvers.sgd_epoch(X, codes, theta, total, k, learning_rate, power_t, rng,
                                 len(self.classes_), self.fit_intercept, self.alpha)

    def _gram(self, X):
        return linalg.gram([solvers.augmented(x, self.fit_intercept) for x in X])

    def _largest_squared_norm(self, X):
        """max_i ||x~_i||^2."""
        largest = 0.0
        for x in X:
            x_tilde = solvers.augmented(x, self.fit_intercept)
            largest = max(largest, linalg.dot(x_tilde, x_tilde))
        return largest

    def _separates(self, X, codes, theta):
        return separates(X, codes, theta, len(self.classes_), self.fit_intercept)

    def _scores(self, X):
        """z_ik = w_k'x_i + b_k for k = 1..K-1 (from ``coef_`` and ``intercept_``)."""
        return [[linalg.dot(w, x) + b for w, b in zip(self.coef_, self.intercept_)]
                for x in X]

    def _probabilities(self, X):
        return [solvers.class_probabilities(z)[0] for z in self._scores(X)]

    def _decision_values(self, X):
        if len(self.classes_) == 2:
            return [z[0] for z in self._scores(X)]
        return [[0.0] + z for z in self._scores(X)]

    def _predict_codes(self, X):
        """argmax_k z_k with z_0 = 0; a tie goes to the first class (lowest code)."""
        codes = []
        for z in self._scores(X):
            best, best_score = 0, 0.0
            for k, value in enumerate(z, start=1):
                if value > best_score:
                    best, best_score = k, value
            codes.append(best)
        return codes

    # --- public prediction methods ---
    def predict_proba(self, X):
        """P(Y = classes_[k] | x) for each row: n rows of K columns in ``classes_`` order."""
        X = self._validate_predict(X)
        return self._as_output(self._probabilities(X))

    def decision_function(self, X):
        """Scores: binary, z = w'x + b (the log-odds of classes_[1]), one per row;
        multiclass, n rows [0, z_1, ..., z_{K-1}] (class 0's score is 0): argmax = predict."""
        X = self._validate_predict(X)
        return self._as_output(self._decision_values(X))
