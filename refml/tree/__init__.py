"""Classification trees ([Yan]).

Its modules, in reading order:

- split: impurities and the search for the best split
- prune: cost-complexity pruning
- classifier: growing the tree, and the estimator
- text: the tree as text
"""

from refml.tree.classifier import DecisionTreeClassifier

__all__ = ["DecisionTreeClassifier"]
