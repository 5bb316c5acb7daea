"""Ensembles of [Yan] (Yan): bagging, random forests and AdaBoost.

* ``BaggingClassifier``: B bootstrap samples, one member fitted on each, majority vote
  (``bagging``).
* ``RandomForestClassifier``: bagged trees with m = sqrt(d) random candidate features per
  split (``bagging``).
* ``AdaBoostClassifier``: weak learners fitted on re-weighted data, weighted vote
  (``boosting``); SAMME for more than two classes.

What the three share (members cloned from a template, fitted on weighted data, voting
with label codes) is in ``_committee``.
"""

from .bagging import BaggingClassifier, RandomForestClassifier
from .boosting import AdaBoostClassifier

__all__ = ["BaggingClassifier", "RandomForestClassifier", "AdaBoostClassifier"]
