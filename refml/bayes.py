"""The Bayes rule, the plug-in rule, and the risk of a classifier under a known distribution.

[Wainwright-L2] (Wainwright, Lecture 2), section 2.3.  With eta(x) = P(Y = +1 | X = x):

    Bayes rule (eq. 2.4)      g*(x) = +1 iff eta(x) >= 1/2       (Theorem 2.1: optimal)
    plug-in rule (eq. 2.18)   g_eta_hat(x) = +1 iff eta_hat(x) >= 1/2
    risk (eq. 2.3)            R(g) = P(Y != g(X))

With K classes ([Yan], "Bayes optimal classifier") the rule is the argmax of the
posterior P(Y = k | X = x).  Ties (docs/design.md section 4): two classes follow the lecture's ">=",
so eta = 1/2 gives classes_[1] (the "+1"); with K > 2 the first class in ``classes_`` order
wins.  ``bayes_decision`` is that one rule, used by both classifiers here.

Theorem 2.2 as printed, R(g_eta_hat) - R(g*) < 2 |E[eta(X) - eta_hat(X)]|, is false in two
ways: eta_hat = eta gives 0 < 0, and deviations of opposite signs cancel inside
|E[...]| (tests/test_bayes.py has a two-point counter-example).  The proof shows
R(g_eta_hat) - R(g*) = E[|2 eta(X) - 1| 1{g_eta_hat(X) != g*(X)}] <= 2 E|eta(X) - eta_hat(X)|,
with the absolute value inside the expectation, as eq. (2.22) writes it, but with <= where
eq. (2.22) prints a strict < (which eta_hat = eta breaks again); that is the form
conformance/t02_plug_in.py checks.
"""

import math

from . import _gaussian
from . import _linalg as linalg
from .base import Classifier, clone
from .distributions import FiniteDistribution, GaussianClasses, PassFailExample

__all__ = ["BayesClassifier", "PlugInClassifier", "risk", "bayes_decision", "expected_losses"]


def bayes_decision(probabilities, loss=None):
    """The class index the Bayes rule picks from [P(Y = k | x) for each k].

    0-1 loss (``loss`` None).  Two classes: 1 iff P(Y = classes[1] | x) >= 1/2 (eq. 2.4, a
    tie goes to classes[1]).  More: the argmax, the first class on a tie.

    A loss matrix L ([Yan], "general loss": L[k][j] the loss of deciding class j when
    the truth is class k): the j with the smallest expected loss sum_k L[k][j] P(Y = k | x)
    (summed over k in order), ties broken as above (two classes: classes[1]; more: the
    first).  The 0-1 matrix gives the same rule up to the rounding of the sums.
    """
    if loss is None:
        if len(probabilities) == 2:
            return 1 if probabilities[1] >= 0.5 else 0
        best = 0
        for k in range(1, len(probabilities)):
            if probabilities[k] > probabilities[best]:
                best = k
        return best
    costs = expected_losses(probabilities, loss)
    if len(costs) == 2:
        return 1 if costs[1] <= costs[0] else 0
    best = 0
    for j in range(1, len(costs)):
        if costs[j] < costs[best]:
            best = j
    return best


def expected_losses(probabilities, loss):
    """[sum_k L[k][j] p_k for each decision j], each sum over k in order."""
    costs = []
    for j in range(len(loss)):
        total = 0.0
        for k, p in enumerate(probabilities):
            total += loss[k][j] * p
        costs.append(total)
    return costs


def check_loss(loss, n_classes, name="loss"):
    """The loss matrix as K x K floats (None stays None: the 0-1 loss); ValueError unless
    it is a square table of finite numbers, one row and column per class."""
    if loss is None:
        return None
    message = (f"Invalid parameter {name}={loss!r}: must be None (the 0-1 loss) or a "
               f"{n_classes} x {n_classes} table of finite numbers, L[k][j] the loss of "
               "deciding classes[j] when the truth is classes[k]")
    try:
        rows = [[float(v) for v in row] for row in loss]
    except (TypeError, ValueError):
        raise ValueError(message) from None
    if len(rows) != n_classes or any(len(row) != n_classes for row in rows) or not all(
            math.isfinite(v) for row in rows for v in row):
        raise ValueError(message)
    return rows


class BayesClassifier(Classifier):
    """The Bayes rule g* of a known distribution ([Wainwright-L2] eq. 2.4; [Yan]).

    Parameters
    ----------
    distribution : a ``FiniteDistribution``, ``GaussianClasses`` or ``PassFailExample``
        (anything with ``classes``, ``n_features`` and ``posterior(x)``).
    loss : None (the 0-1 loss) or a K x K table, L[k][j] the loss of deciding
        ``distribution.classes[j]`` when the truth is ``classes[k]`` ([Yan]'s general
        loss, as in its traffic-sign example).  The rule decides the class of smallest
        expected loss sum_k L[k][j] P(Y = k | x) (``bayes_decision``); ``risk(g, d, loss=L)``
        measures it with the same L.

    The rule needs no fit: ``predict`` and ``predict_proba`` work at once, checking X
    against the distribution's dimension (scikit-learn's tag ``requires_fit`` is False).
    ``fit(X, y)`` is there for pipelines and learns nothing: it validates X and y like any
    estimator, checks that the labels of y are classes of the distribution and that X has
    its dimension, and records ``classes_`` (the distribution's classes) and
    ``n_features_in_``.  ``predict_proba(X)`` is the posterior; ``predict`` applies
    ``bayes_decision``.
    """

    # Not a learner: the rule is fixed by the distribution it is given, so scikit-learn's
    # common checks (fits on random data of other dimensions and labels) do not apply, as
    # for scikit-learn's own FrozenEstimator (docs/design.md, "scikit-learn").
    _skip_common_checks = True
    _requires_fit = False

    def __init__(self, *, distribution=None, loss=None):
        self.distribution = distribution
        self.loss = loss

    def _check_params(self, X):
        distribution = self.distribution
        if distribution is None or not hasattr(distribution, "posterior"):
            raise ValueError(f"Invalid parameter distribution={distribution!r}: the Bayes rule "
                             "needs a known distribution (FiniteDistribution, GaussianClasses "
                             "or PassFailExample)")
        n_features = self._n_rows_cols(X)[1]
        if n_features != distribution.n_features:
            raise ValueError(f"X has {n_features} features, but the distribution is over "
                             f"{distribution.n_features} features (parameter distribution)")
        check_loss(self.loss, len(distribution.classes))

    def _fit(self, X, codes):
        known = set(self.distribution.classes)
        unknown = [label for label in self.classes_ if label not in known]
        if unknown:
            raise ValueError(f"y has labels {unknown!r} that are not classes of the "
                             f"distribution {list(self.distribution.classes)!r}")
        self.classes_ = list(self.distribution.classes)

    def _validate_predict(self, X):
        if "classes_" in vars(self):  # fitted: X is checked against the fit
            return super()._validate_predict(X)
        X = self._as_matrix(X)
        self._check_params(X)  # a known distribution, of X's dimension
        return X

    def _classes(self):
        return self.classes_ if "classes_" in vars(self) else list(self.distribution.classes)

    def predict_proba(self, X):
        """[P(Y = classes_[k] | X = x) for each k] for each row x of X."""
        X = self._validate_predict(X)
        return self._as_output(self.distribution._posterior_rows(X))

    def _predict_codes(self, X):
        loss = check_loss(self.loss, len(self.distribution.classes))
        return [bayes_decision(p, loss) for p in self.distribution._posterior_rows(X)]


class PlugInClassifier(Classifier):
    """The plug-in rule g_eta_hat ([Wainwright-L2] eq. 2.18): the Bayes rule applied to an
    estimate eta_hat of the posterior.

    Parameters
    ----------
    estimator : a classifier with ``predict_proba``, cloned and fitted on the data; its
        probabilities are eta_hat.
    posterior : a function x -> [eta_hat_k(x) for each class of ``classes_``]: an
        estimate known in advance (fit then only records the classes).
    With both None (the default), eta_hat is the vote fraction of the nearest neighbour,
    ``KNeighborsClassifier(n_neighbors=1)`` of the same package.  Give at most one.

    Attributes: ``classes_``, ``n_features_in_``, and ``estimator_`` (the fitted
    estimator) unless ``posterior`` is given.
    """

    def __init__(self, *, estimator=None, posterior=None):
        self.estimator = estimator
        self.posterior = posterior

    def _default_estimator(self):
        """1-NN vote fractions (refml_fast overrides this with its own k-NN)."""
        from .neighbors import KNeighborsClassifier

        return KNeighborsClassifier(n_neighbors=1)

    def _check_params(self, X):
        if self.estimator is not None and self.posterior is not None:
            raise ValueError("Invalid parameters estimator and posterior: give one of them, "
                             "not both")
        if self.posterior is not None and not callable(self.posterior):
            raise ValueError(f"Invalid parameter posterior={self.posterior!r}: must be a "
                             "function x -> class probabilities")
        if self.estimator is not None and not hasattr(self.estimator, "predict_proba"):
            raise ValueError(f"Invalid parameter estimator={self.estimator!r}: needs "
                             "predict_proba")

    def _fit(self, X, codes):
        if self.posterior is not None:
            return
        estimator = (self._default_estimator() if self.estimator is None
                     else clone(self.estimator))
        self.estimator_ = estimator.fit(X, self._labels_from_codes(codes))

    def predict_proba(self, X):
        """eta_hat(x) = [estimated P(Y = classes_[k] | X = x)] for each row x of X."""
        X = self._validate_predict(X)
        return self._as_output(self._eta_hat(X))

    def _predict_codes(self, X):
        return [bayes_decision(p) for p in self._eta_hat(X)]

    def _eta_hat(self, X):
        """The estimated posteriors, columns in ``classes_`` order."""
        n_classes = len(self.classes_)
        if self.posterior is not None:
            rows = [list(self.posterior(x)) for x in X]
            for row in rows:
                if len(row) != n_classes:
                    raise ValueError(f"posterior returned {len(row)} probabilities, expected "
                                     f"one per class of {list(self.classes_)!r}")
            return rows
        columns = [list(self.estimator_.classes_).index(c) for c in self.classes_]
        return [[row[j] for j in columns] for row in self.estimator_.predict_proba(X)]


def risk(classifier, distribution, *, loss=None, n_samples=10_000, random_state=0,
         confidence=0.999, return_error=False):
    """R(g) = P(Y != g(X)) for a fitted classifier g under a known distribution; with a
    loss matrix, R_L(g) = E[L(Y, g(X))] ([Yan]'s general loss: L[k][j] the loss of
    deciding classes[j] when the truth is classes[k], classes the distribution's).

    * ``FiniteDistribution``: exact; one ``predict`` over the support points, then the sum
      of the probabilities of the wrong classes (``risk_of_predictions``).
    * ``GaussianClasses`` and a binary linear classifier (``coef_`` and ``intercept_`` with
      one row, predicting classes_[1] iff w'x + b > 0): exact.  Under class k,
      w'X + b ~ N(w'mu_k + b, w'Sigma_k w), so P(g(X) = classes_[1] | Y = k) =
      Phi((w'mu_k + b) / sqrt(w'Sigma_k w)); the boundary has probability 0.  The linear
      form is first confirmed by ``predict`` at probe points with w'x + b = +-1 beside
      every mean; if a probe disagrees, Monte Carlo is used instead.
    * Otherwise (other classifiers under ``GaussianClasses``; ``PassFailExample``): Monte
      Carlo.  X_1..X_n are drawn with ``random_state``; the estimate is the mean of the
      conditional errors 1 - P(Y = g(X_i) | X_i) (each in [0, 1], with less variance than
      counting errors against sampled labels), and its error is Hoeffding's bound
      sqrt(log(2 / (1 - confidence)) / (2 n)) at ``confidence``.

    * The Bayes rule of a binary ``GaussianClasses`` with equal covariances (any loss) is
      linear, w'x + b >= 0 with w = Sigma^{-1} (mu_1 - mu_0) and b its log-odds offset
      minus log((L01 - L00) / (L10 - L11)): exact too.  The Hoeffding bound of the Monte
      Carlo estimate is scaled by the range of L.

    Returns R(g), or (R(g), error bound) with ``return_error=True`` (bound 0.0 when exact).
    """
    if not isinstance(distribution, (FiniteDistribution, GaussianClasses, PassFailExample)):
        raise TypeError(f"risk needs a FiniteDistribution, GaussianClasses or "
                        f"PassFailExample, got {type(distribution).__name__}")
    loss = check_loss(loss, len(distribution.classes))
    bayes_line = _bayes_linear_rule(classifier, distribution)
    if isinstance(distribution, FiniteDistribution):
        predictions = classifier.predict(distribution._support_rows())
        value, error = distribution.risk_of_predictions(predictions, loss=loss), 0.0
    elif bayes_line is not None:
        value, error = _linear_gaussian_risk(*bayes_line, distribution, loss), 0.0
    elif isinstance(distribution, GaussianClasses) and _linear_rule(classifier, distribution):
        w, b = _weights(classifier)
        value = _linear_gaussian_risk(w, b, list(classifier.classes_), distribution, loss)
        error = 0.0
    else:
        value, error = _monte_carlo_risk(classifier, distribution, n_samples, random_state,
                                         confidence, loss)
    return (value, error) if return_error else value


def _monte_carlo_risk(classifier, distribution, n_samples, random_state, confidence,
                      loss=None):
    _gaussian.check_sample_size(n_samples, "n_samples")
    _gaussian.check_confidence(confidence)
    X, _ = distribution.sample(n_samples, random_state)
    predictions = list(classifier.predict(X))
    code = {label: k for k, label in enumerate(distribution.classes)}
    total = 0.0
    for prediction, probabilities in zip(predictions, distribution._posterior_rows(X)):
        k = code.get(prediction)
        if loss is None:
            total += 1.0 if k is None else 1.0 - probabilities[k]
        else:
            total += expected_losses(probabilities, loss)[_decision_index(k, prediction)]
    spread = 1.0 if loss is None else max(max(r) for r in loss) - min(min(r) for r in loss)
    return float(total / n_samples), _gaussian.hoeffding_bound(n_samples, confidence,
                                                               max(spread, 0.0))


def _decision_index(k, prediction):
    """A prediction's class index, for a loss matrix (which has no column for others)."""
    if k is None:
        raise ValueError(f"the classifier predicted {prediction!r}, which is not a class of "
                         "the distribution: the loss matrix has no column for it")
    return k


def _bayes_linear_rule(classifier, distribution):
    """(w, b, [classes_0, classes_1]) of the Bayes rule of a binary GaussianClasses with
    equal covariances under its loss, or None (then ``risk`` takes another road)."""
    if not (isinstance(classifier, BayesClassifier) and classifier.distribution is distribution
            and isinstance(distribution, GaussianClasses) and len(distribution.classes) == 2
            and distribution.covariances[0] == distribution.covariances[1]):
        return None
    L = check_loss(classifier.loss, 2) or [[0.0, 1.0], [1.0, 0.0]]
    a, c = L[0][1] - L[0][0], L[1][0] - L[1][1]
    if not (a > 0.0 and c > 0.0):
        return None
    factor = linalg.cholesky(distribution.covariances[0])
    mu_0, mu_1 = distribution.means
    w = linalg.cholesky_solve(factor, linalg.subtract(mu_1, mu_0))
    b = (-0.5 * linalg.dot(linalg.add(mu_1, mu_0), w)
         + math.log(distribution.priors[1]) - math.log(distribution.priors[0]) - math.log(a / c))
    return w, b, list(distribution.classes)


def _weights(classifier):
    """(w, b) as floats from ``coef_`` (d or 1 x d) and ``intercept_`` (scalar or 1), or None."""
    coef = getattr(classifier, "coef_", None)
    intercept = getattr(classifier, "intercept_", None)
    if coef is None or intercept is None or len(getattr(classifier, "classes_", ())) != 2:
        return None
    rows = coef.tolist() if hasattr(coef, "tolist") else list(coef)
    if rows and isinstance(rows[0], (list, tuple)):
        if len(rows) != 1:
            return None
        rows = list(rows[0])
    b = intercept.tolist() if hasattr(intercept, "tolist") else intercept
    if isinstance(b, (list, tuple)):
        if len(b) != 1:
            return None
        b = b[0]
    return [float(v) for v in rows], float(b)


def _linear_rule(classifier, distribution):
    """True when ``classifier`` predicts classes_[1] iff w'x + b > 0 at the probe points."""
    weights = _weights(classifier)
    if weights is None:
        return False
    w, b = weights
    length = sum(v * v for v in w)
    if len(w) != distribution.n_features or length == 0.0:
        return False
    probes, expected = [], []
    for mu in distribution.means:
        score = sum(v * m for v, m in zip(w, mu)) + b
        for target, label in ((1.0, classifier.classes_[1]), (-1.0, classifier.classes_[0])):
            # mu + ((target - score) / ||w||^2) w has score w'x + b = target
            step = (target - score) / length
            probes.append([m + step * v for m, v in zip(mu, w)])
            expected.append(label)
    return list(classifier.predict(probes)) == expected


def _linear_gaussian_risk(w, b, labels, distribution, loss=None):
    """The risk of "labels[1] iff w'x + b > 0" (the boundary has probability 0)."""
    negative, positive = labels
    code = {label: k for k, label in enumerate(distribution.classes)}
    total = 0.0
    for k, label in enumerate(distribution.classes):
        mean = sum(v * m for v, m in zip(w, distribution.means[k])) + b
        sigma_w = [sum(S_ij * v for S_ij, v in zip(row, w)) for row in distribution.covariances[k]]
        sd = math.sqrt(sum(v * s for v, s in zip(w, sigma_w)))
        # P(w'X + b > 0 | Y = k) = Phi(mean / sd), P(w'X + b < 0 | Y = k) = Phi(-mean / sd)
        if loss is not None:
            j1 = _decision_index(code.get(positive), positive)
            j0 = _decision_index(code.get(negative), negative)
            expected = (_gaussian.normal_cdf(mean / sd) * loss[k][j1]
                        + _gaussian.normal_cdf(-mean / sd) * loss[k][j0])
            total += distribution.priors[k] * expected
            continue
        if label == positive:
            wrong = _gaussian.normal_cdf(-mean / sd)
        elif label == negative:
            wrong = _gaussian.normal_cdf(mean / sd)
        else:
            wrong = 1.0
        total += distribution.priors[k] * wrong
    return total
