"""Classification trees, over numpy with Numba kernels: the refml chapter of the same name,
with the same public names and identical answers.
"""

from refml_fast.tree.classifier import DecisionTreeClassifier

__all__ = ["DecisionTreeClassifier"]
