"""k nearest neighbours ([IML-L5]).

Its modules, in reading order:

- knn: the k-NN rule with Euclidean or Mahalanobis distances
"""

from refml.neighbors.knn import KNeighborsClassifier

__all__ = ["KNeighborsClassifier"]
