"""The plug-in rule over numpy: refml's, with refml_fast's 1-NN as the default estimate."""

import numpy as np

from refml.bayes import plug_in as reference
from refml_fast.bayes.rule import bayes_decisions
from refml_fast.core.base import FastMixin
from refml_fast.neighbors.knn import KNeighborsClassifier


class PlugInClassifier(FastMixin, reference.PlugInClassifier):
    __doc__ = reference.PlugInClassifier.__doc__

    def _default_estimator(self):
        return KNeighborsClassifier(n_neighbors=1)

    def _predict_codes(self, X):
        return bayes_decisions(self._eta_hat(X))

    def _eta_hat(self, X):
        if self.posterior is not None:  # the function sees rows as lists, as in refml
            return np.array(super()._eta_hat(X.tolist()), dtype=np.float64)
        columns = [list(self.estimator_.classes_).index(c) for c in self.classes_]
        table = np.asarray(self.estimator_.predict_proba(X), dtype=np.float64)
        return table[:, columns]
