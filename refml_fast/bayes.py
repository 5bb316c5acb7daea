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
    """``bayes_decision`` of every row of a posterior table, as int64 codes.  With a loss
    matrix, the expected losses are summed over k in refml's order, column by column."""
    table = np.asarray(probabilities, dtype=np.float64)
    if loss is not None:
        costs = np.zeros_like(table)
        for j in range(table.shape[1]):
            for k in range(table.shape[1]):
                costs[:, j] = costs[:, j] + loss[k][j] * table[:, k]
        if table.shape[1] == 2:
            return (costs[:, 1] <= costs[:, 0]).astype(np.int64)
        return np.argmin(costs, axis=1).astype(np.int64)   # the first minimum
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
