"""The perceptron and its mistake bound ([Wainwright-L2], [MATH412], [NN-Notes], [Yan],
[IML-L5]).

Its modules, in reading order:

- perceptron: the algorithm's passes (cyclic, batch, random, uniform) and the estimator
  (more classes: one perceptron per class against the rest, beyond the lectures)
- theorem: Theorem 2.3, at most R^2 / delta^2 mistakes
- patience: scikit-learn's early stop (beyond the lectures)
"""

from refml.perceptron.perceptron import Perceptron, perceptron_criterion
from refml.perceptron.theorem import mistake_bound

__all__ = ["Perceptron", "mistake_bound", "perceptron_criterion"]
