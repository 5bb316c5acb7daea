"""Densities: histograms, kernel density estimates, and the classifiers built on them, over
numpy with Numba kernels: the refml chapter of the same name, with the same public names and
identical answers.
"""

from refml_fast.density.kde import (
    Histogram,
    KernelDensity,
    histogram_cv_risk,
    kde_cv_risk,
    silverman_bandwidth,
)
from refml_fast.density.naive_bayes import GaussianNB, KernelDensityClassifier, NaiveBayes

__all__ = [
    "GaussianNB", "Histogram", "KernelDensity", "KernelDensityClassifier", "NaiveBayes",
    "histogram_cv_risk", "kde_cv_risk", "silverman_bandwidth",
]
