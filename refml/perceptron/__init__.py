r"""The perceptron and its mistake bound ([Wainwright-L2], [MATH412], [NN-Notes], [Yan],
[IML-L5]).

The rule.  Labels y_i in {-1, +1} and x~ = [1, x] with a bias.  Starting from
:math:`\theta^0 = 0`, the perceptron visits the examples and corrects every mistake:

.. math::

    \text{if } y_i\, \theta^\top \tilde x_i \le 0: \qquad
    \theta \leftarrow \theta + \gamma\, y_i \tilde x_i .

It minimises the perceptron criterion :math:`\sum_i \max(0, -y_i \theta^\top \tilde x_i)`
one example at a time; the order of the visits (cyclic, batch, random, uniform) is a
choice of the lectures' variants.

Theorem 2.3 ([Wainwright-L2]; Novikoff).  If some unit vector :math:`\theta^*` separates
the sample with margin :math:`\delta = \min_i y_i \theta^{*\top} \tilde x_i > 0`, and
:math:`R = \max_i \|\tilde x_i\|`, the perceptron makes at most

.. math::

    \frac{R^2}{\delta^2}

mistakes, in any order of the examples; the largest margin (the hard-margin SVM's) gives
the tightest bound.  With K classes and one vector per class (Kesler's construction, beyond
the lectures) the bound is :math:`2 R^2 / \delta^2`.

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
