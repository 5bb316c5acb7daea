"""The perceptron and its mistake bound ([Wainwright-L2], [MATH412], [NN-Notes], [Yan],
[IML-L5]).

Its modules, in reading order:

- perceptron: the binary rule, the criterion and the estimator (more classes and
  partial_fit: beyond the lectures)
- orders: the four orders of the passes (cyclic, batch, random, uniform)
- multiclass: the multi-class perceptron, one vector per class (beyond the lectures)
- theorem: Theorem 2.3, at most R^2 / delta^2 mistakes; 2 R^2 / delta^2 with K classes
- patience: scikit-learn's early stop (beyond the lectures)
"""

from refml.perceptron.perceptron import Perceptron, perceptron_criterion
from refml.perceptron.theorem import mistake_bound, multiclass_mistake_bound

__all__ = ["Perceptron", "mistake_bound", "multiclass_mistake_bound", "perceptron_criterion"]
