"""The Bayes and plug-in rules over numpy.

Both classes decide with numpy on the posterior table (binary: eta >= 1/2 gives code 1;
more classes: ``np.argmax``, whose first maximum is the first class, as refml).  The hot
cores of ``risk`` over large finite supports live in ``refml_fast.bayes.distributions`` (the
support lookup of ``BayesClassifier`` and the exact risk sum), so ``risk`` is refml's own.
"""

import numpy as np

from refml.bayes import rule as reference
from refml.bayes.decision import bayes_decision, check_loss
from refml_fast.core.base import FastMixin


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
        loss = check_loss(self.loss, len(self.distribution.classes))
        return bayes_decisions(self.distribution._posterior_rows(X), loss)
