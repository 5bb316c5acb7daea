"""The Bayes and plug-in rules over numpy.

Both classes decide with numpy on the posterior table (binary: eta >= 1/2 gives code 1;
more classes: ``np.argmax``, whose first maximum is the first class, as refml).  The hot
cores of ``risk`` over large finite supports live in ``refml_fast.distributions`` (the
support lookup of ``BayesClassifier`` and the exact risk sum), so ``risk`` is refml's own.
"""

import numpy as np

import refml.bayes as reference
from refml.bayes import bayes_decision, risk

from .base import FastMixin

__all__ = ["BayesClassifier", "PlugInClassifier", "risk", "bayes_decision"]


def bayes_decisions(probabilities, loss=None):
    """``bayes_decision`` of every row of a posterior table, as int64 codes."""
    table = np.asarray(probabilities, dtype=np.float64)
    if loss is not None:       # refml's rule itself: a loss matrix is small and rarely used
        return np.array([bayes_decision(row, loss) for row in table.tolist()], dtype=np.int64)
    if table.shape[1] == 2:
        return (table[:, 1] >= 0.5).astype(np.int64)
    return np.argmax(table, axis=1).astype(np.int64)


class BayesClassifier(FastMixin, reference.BayesClassifier):
    __doc__ = reference.BayesClassifier.__doc__

    def _predict_codes(self, X):
        loss = reference.check_loss(self.loss, len(self.distribution.classes))
        return bayes_decisions(self.distribution._posterior_rows(X), loss)


class PlugInClassifier(FastMixin, reference.PlugInClassifier):
    __doc__ = reference.PlugInClassifier.__doc__

    def _default_estimator(self):
        from .neighbors import KNeighborsClassifier

        return KNeighborsClassifier(n_neighbors=1)

    def _predict_codes(self, X):
        return bayes_decisions(self._eta_hat(X))

    def _eta_hat(self, X):
        if self.posterior is not None:  # the function sees rows as lists, as in refml
            return np.array(super()._eta_hat(X.tolist()), dtype=np.float64)
        columns = [list(self.estimator_.classes_).index(c) for c in self.classes_]
        table = np.asarray(self.estimator_.predict_proba(X), dtype=np.float64)
        return table[:, columns]
