"""k nearest neighbours, over numpy with Numba kernels: the refml chapter of the same name,
with the same public names and identical answers.
"""

from refml_fast.neighbors.knn import KNeighborsClassifier

__all__ = ["KNeighborsClassifier"]
