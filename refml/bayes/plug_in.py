"""The plug-in rule ([Wainwright-L2] section 2.3.2): the Bayes rule applied to an estimate
eta_hat of the posterior.  Theorem 2.2 bounds its excess risk by 2 E|eta(X) - eta_hat(X)|
(see refml.bayes.rule for the printed form and the one checked).
"""

from refml.bayes.decision import bayes_decision
from refml.core.base import Classifier, clone
from refml.neighbors.knn import KNeighborsClassifier


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
