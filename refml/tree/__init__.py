r"""Classification trees ([Yan]).

Growing.  A tree splits a node's region on one feature at one threshold, choosing the split
that lowers the weighted impurity of the two children the most.  With :math:`\hat p_k` the
class proportions in a node, the impurities are

.. math::

    \text{Gini} = \sum_k \hat p_k (1 - \hat p_k), \qquad
    \text{entropy} = -\sum_k \hat p_k \log \hat p_k,

both concave, so no split raises the weighted impurity.  Each leaf votes for its majority
class.

Pruning.  Cost-complexity pruning keeps, for each :math:`\alpha \ge 0`, the subtree T that
minimises :math:`R(T) + \alpha |T|`, the training error plus :math:`\alpha` per leaf; the
weakest link is cut first.

Its modules, in reading order:

- split: impurities and the search for the best split
- prune: cost-complexity pruning
- classifier: growing the tree, and the estimator
- text: the tree as text
- histogram: histogram trees, each feature cut once into at most ``max_bins`` bins and
  the splits searched between them (beyond the lectures)
"""

from refml.tree.classifier import DecisionTreeClassifier

__all__ = ["DecisionTreeClassifier"]
