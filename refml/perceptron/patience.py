"""Early stopping by the training loss, scikit-learn's rule (used by refml.perceptron).

Beyond the lectures: their perceptron stops only on a pass without a mistake, which never
comes when no hyperplane separates the classes.  scikit-learn's linear models that learn
by passes (``Perceptron``, ``SGDClassifier``) stop instead when ``n_iter_no_change`` passes
in a row leave the summed training loss of a pass above best - tol * n, best the lowest
pass loss so far; ``Patience`` keeps that count.
"""

import math


class Patience:
    """The early stop: ``no_improvement(loss)`` after each pass is True when the last
    ``n_iter_no_change`` passes all had loss > best - tol * n.  tol=None never stops."""

    def __init__(self, tol, n_iter_no_change, n):
        self.margin = None if tol is None else float(tol) * n
        self.n_iter_no_change = n_iter_no_change
        self.best = math.inf
        self.count = 0

    def no_improvement(self, loss):
        if self.margin is None:
            return False
        if loss > self.best - self.margin:
            self.count += 1
        else:
            self.count = 0
        if loss < self.best:
            self.best = loss
        return self.count >= self.n_iter_no_change
