r"""k nearest neighbours ([IML-L5]).

The rule.  The k-NN classifier predicts the majority class among the k training points
nearest to x, in the Euclidean distance or the Mahalanobis distance
:math:`d(x, x') = \sqrt{(x - x')^\top \Sigma^{-1} (x - x')}`.

Cover and Hart ([IML-L5] section 5.3).  As n grows, the risk of the 1-NN rule tends to
:math:`R_\infty = \mathbb{E}\big[1 - \sum_k P(Y = k \mid X)^2\big]`, which lies between the
Bayes risk and twice it:

.. math::

    R^* \le R_\infty \le R^* \Big(2 - \frac{K}{K - 1} R^*\Big) \le 2 R^*
    \qquad (\text{two classes: } R_\infty \le 2 R^* (1 - R^*)).

Its modules, in reading order:

- knn: the k-NN rule with Euclidean or Mahalanobis distances
"""

from refml.neighbors.knn import KNeighborsClassifier

__all__ = ["KNeighborsClassifier"]
