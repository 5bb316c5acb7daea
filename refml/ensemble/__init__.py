r"""Ensembles: bagging, random forests and AdaBoost ([Yan]).

Bagging.  B classifiers are fitted on bootstrap samples (n draws with replacement) and vote.
Averaging B identically distributed scores of variance :math:`\sigma^2` and pairwise
correlation :math:`\rho` gives the variance

.. math::

    \operatorname{Var}\Big(\frac1B \sum_b f_b\Big) = \rho \sigma^2 + \frac{1 - \rho}{B} \sigma^2,

so more members remove the second term only; a random forest also lowers :math:`\rho`, by
drawing the features a split may use.

AdaBoost.  Round m fits a weak classifier :math:`G_m` to weighted data, with weighted error
:math:`\mathrm{err}_m`, gives it the vote
:math:`\alpha_m = \log\big((1 - \mathrm{err}_m) / \mathrm{err}_m\big)` and multiplies the
weights of the points it misclassifies by :math:`e^{\alpha_m}`.  The training error of the
vote after M rounds obeys

.. math::

    \frac1n \sum_i 1\{G(x_i) \ne y_i\}
    \le \prod_{m=1}^{M} 2 \sqrt{\mathrm{err}_m (1 - \mathrm{err}_m)},

and each factor is below 1 while the weak classifier beats chance.  Beyond two classes
(SAMME, beyond the lectures) the vote is :math:`\alpha_m + \log(K - 1)`.

Its modules, in reading order:

- committee: what the three share (members cloned from a template, weighted fits, votes)
- bagging: bootstrap samples and majority votes; random forests
- boosting: AdaBoost, SAMME beyond two classes
"""

from refml.ensemble.bagging import BaggingClassifier, RandomForestClassifier
from refml.ensemble.boosting import AdaBoostClassifier

__all__ = ["AdaBoostClassifier", "BaggingClassifier", "RandomForestClassifier"]
