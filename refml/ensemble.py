"""Ensembles of [Yan] (Yan): bagging, random forests and AdaBoost.

* ``BaggingClassifier``: B bootstrap samples, one member fitted on each, majority vote
  (``_bagging``).
* ``RandomForestClassifier``: bagged trees with m = sqrt(d) random candidate features per
  split (``_bagging``).
* ``AdaBoostClassifier``: weak learners fitted on re-weighted data, weighted vote
  (``_boosting``); SAMME for more than two classes.

What the three share (members cloned from a template, fitted on weighted data, voting
with label codes) is in ``_committee``.
"""

from ._bagging import BaggingClassifier, RandomForestClassifier
from ._boosting import AdaBoostClassifier

__all__ = ["BaggingClassifier", "RandomForestClassifier", "AdaBoostClassifier"]
