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


from refml.bayes import gaussian
from refml.bayes.decision import bayes_decision, check_loss
from refml.bayes.distributions import FiniteDistribution, GaussianClasses, PassFailExample
from refml.bayes.gaussian import linear_rule_risk
from refml.bayes.known import check_confidence, monte_carlo_risk
from refml.core import linalg
from refml.core.base import Classifier


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
    check_confidence(confidence)              # on every path, not only Monte Carlo's
    bayes_line = None
    if (isinstance(classifier, BayesClassifier) and classifier.distribution is distribution
            and isinstance(distribution, GaussianClasses)):
        bayes_line = gaussian.bayes_line(distribution, check_loss(classifier.loss, 2)
                                         if len(distribution.classes) == 2 else None)
    if isinstance(distribution, FiniteDistribution):
        predictions = classifier.predict(distribution._support_rows())
        value, error = distribution.risk_of_predictions(predictions, loss=loss), 0.0
    elif bayes_line is not None:
        value, error = linear_rule_risk(*bayes_line, distribution, loss), 0.0
    elif isinstance(distribution, GaussianClasses) and _linear_rule(classifier, distribution):
        w, b = _weights(classifier)
        value = linear_rule_risk(w, b, list(classifier.classes_), distribution, loss)
        error = 0.0
    else:
        value, error = monte_carlo_risk(classifier.predict, distribution, n_samples,
                                        random_state, confidence, loss)
    return (value, error) if return_error else value


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
    length = linalg.dot(w, w)
    if len(w) != distribution.n_features or length == 0.0:
        return False
    probes, expected = [], []
    for mu in distribution.means:
        score = linalg.dot(w, mu) + b
        for target, label in ((1.0, classifier.classes_[1]), (-1.0, classifier.classes_[0])):
            # mu + ((target - score) / ||w||^2) w has score w'x + b = target
            step = (target - score) / length
            probes.append([m + step * v for m, v in zip(mu, w)])
            expected.append(label)
    return list(classifier.predict(probes)) == expected


