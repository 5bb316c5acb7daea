"""The histogram over numpy arrays (see ``refml.histogram``); the class lives with the
KDE's in ``refml_fast.density``, whose cell counting it shares."""

from .density import Histogram, histogram_cv_risk

__all__ = ["Histogram", "histogram_cv_risk"]
