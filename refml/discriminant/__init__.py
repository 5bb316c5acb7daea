r"""Gaussian discriminant analysis: LDA and QDA ([MATH412], [Yan], [IML-L5]).

The setting.  Each class k has a prior :math:`\pi_k` and a Gaussian density,
:math:`X \mid Y = k \sim N(\mu_k, \Sigma_k)`.  The Bayes rule then compares the
discriminant functions

.. math::

    \delta_k(x) = \log \pi_k - \tfrac12 \log |\Sigma_k|
                  - \tfrac12 (x - \mu_k)^\top \Sigma_k^{-1} (x - \mu_k),

and predicts the class of the largest.  QDA plugs in each class's mean and covariance: the
boundaries are quadrics.  LDA assumes one covariance :math:`\Sigma` shared by the classes
(estimated by the pooled within-class scatter); the quadratic terms cancel and the
boundaries are hyperplanes.  With two classes the LDA posterior is logistic in x:

.. math::

    P(Y = 1 \mid x) = \sigma(w^\top x + b), \qquad
    w = \Sigma^{-1} (\mu_1 - \mu_0), \qquad
    b = -\tfrac12 (\mu_1 + \mu_0)^\top \Sigma^{-1} (\mu_1 - \mu_0)
        + \log \frac{\pi_1}{\pi_0}.

Its modules, in reading order:

- statistics: class counts and means, scatter matrices, their factors
- analysis: LDA and QDA
"""

from refml.discriminant.analysis import LinearDiscriminantAnalysis, QuadraticDiscriminantAnalysis

__all__ = ["LinearDiscriminantAnalysis", "QuadraticDiscriminantAnalysis"]
