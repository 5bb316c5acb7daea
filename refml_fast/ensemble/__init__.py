"""Ensembles: bagging, random forests and AdaBoost, over numpy with Numba kernels: the refml
chapter of the same name, with the same public names and identical answers.
"""

from refml_fast.ensemble.committees import (
    AdaBoostClassifier,
    BaggingClassifier,
    RandomForestClassifier,
)

__all__ = ["AdaBoostClassifier", "BaggingClassifier", "RandomForestClassifier"]
