r"""Densities: histograms, kernel density estimates, and the classifiers built on them ([Yan]).

The histogram.  With bins of width h, the estimate at x is the fraction of the n points in
x's bin, divided by h.  Its bandwidth is chosen by the leave-one-out (cross-validation)
estimate of the integrated squared error, up to a constant:

.. math::

    \hat J(h) = \int \hat f^2 - \frac{2}{n} \sum_i \hat f_{(-i)}(x_i)
             = \frac{2}{(n - 1) h} - \frac{n + 1}{(n - 1) h} \sum_j \hat p_j^2,

with :math:`\hat p_j` the fraction of the points in bin j.

Kernel density estimates.  With a kernel K (a density with mean 0 and variance 1) and a
bandwidth h, in one dimension

.. math::

    \hat f_h(x) = \frac{1}{n h} \sum_i K\Big(\frac{x - x_i}{h}\Big);

its mean integrated squared error is the integrated squared bias plus the integrated
variance, and h is chosen by the same cross-validation or by Silverman's rule of thumb
(:math:`h = 1.06\, \hat\sigma\, n^{-1/5}` for the Gaussian kernel in one dimension).

The density classifiers.  Estimating each class's density :math:`\hat f_k` and its prior
:math:`\hat\pi_k`, the plug-in Bayes rule predicts
:math:`\arg\max_k \hat\pi_k \hat f_k(x)`; naive Bayes estimates each class's density as the
product of its one-dimensional marginals, as if the features were independent within a
class.

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
