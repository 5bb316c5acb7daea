"""Densities: histograms, kernel density estimates, and the classifiers built on them ([Yan]).

Its modules, in reading order:

- histogram (cells in bins): the histogram and its cross-validation risk
- kernels, bandwidth, kde: kernels, bandwidths and the kernel density estimate
- naive_bayes: the kernel density classifier and naive Bayes
"""

from refml.density.histogram import Histogram, histogram_cv_risk
from refml.density.kde import KernelDensity, kde_cv_risk, silverman_bandwidth
from refml.density.naive_bayes import GaussianNB, KernelDensityClassifier, NaiveBayes

__all__ = [
    "GaussianNB", "Histogram", "KernelDensity", "KernelDensityClassifier", "NaiveBayes",
    "histogram_cv_risk", "kde_cv_risk", "silverman_bandwidth",
]
