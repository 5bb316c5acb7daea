"""Ensembles: bagging, random forests and AdaBoost ([Yan]).

Its modules, in reading order:

- committee: what the three share (members cloned from a template, weighted fits, votes)
- bagging: bootstrap samples and majority votes; random forests
- boosting: AdaBoost, SAMME beyond two classes
"""

from refml.ensemble.bagging import BaggingClassifier, RandomForestClassifier
from refml.ensemble.boosting import AdaBoostClassifier

__all__ = ["AdaBoostClassifier", "BaggingClassifier", "RandomForestClassifier"]
