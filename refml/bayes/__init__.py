r"""The Bayes rule, losses and risk ([Wainwright-L2] section 2.3, [Yan], [MATH412], [NN-Notes]).

The setting.  A pair (X, Y) is drawn from a distribution P; X in R^d is observed and the
class Y is to be guessed.  A classifier g is judged by its risk, the probability of a
mistake, or the expected loss under a loss matrix L[k][j] (the cost of deciding j when the
truth is k):

.. math::

    R(g) = P\{g(X) \ne Y\}, \qquad
    R_L(g) = \mathbb{E}\, L[Y][g(X)].

The Bayes rule.  With two classes and the posterior
:math:`\eta(x) = P(Y = 1 \mid X = x)`, the rule that decides 1 where
:math:`\eta(x) \ge 1/2` has the smallest risk of all classifiers ([Wainwright-L2]
Theorem 2.1); with K classes it takes the most probable class, and under a loss matrix the
decision of smallest expected loss:

.. math::

    g^*(x) = \arg\max_k P(Y = k \mid X = x), \qquad
    g^*_L(x) = \arg\min_j \sum_k L[k][j]\, P(Y = k \mid X = x), \qquad
    R^* = R(g^*) = \mathbb{E} \min\{\eta(X), 1 - \eta(X)\}.

The plug-in rule.  An estimate of the posterior, thresholded at 1/2, loses at most twice its
mean error ([Wainwright-L2] Theorem 2.2):

.. math::

    R(g_{\hat\eta}) - R^* \le 2\, \mathbb{E} |\eta(X) - \hat\eta(X)|.

Surrogate losses.  For a score a = f(x) and a label y in {-1, +1}, each loss depends on the
margin m = y a only ([MATH412]): the 0-1 loss :math:`1\{m \le 0\}`, the square loss
:math:`(1 - m)^2`, the logistic loss :math:`\log(1 + e^{-m})`, the perceptron loss
:math:`\max(-m, 0)` and the hinge loss :math:`\max(1 - m, 0)`; the empirical risk is their
mean over a sample.

Its modules, in reading order:

- losses: the 0-1 loss and its surrogates, the empirical risk
- decision: the Bayes decision from a posterior, under the 0-1 loss or a loss matrix
- gaussian, distributions: the known distributions the chapter reasons about, with what
  they share (checks, Monte Carlo risks) in known
- rule: the Bayes classifier of a known distribution, and the risk of any classifier
- plug_in: the plug-in rule (Theorem 2.2)
"""

from refml.bayes.decision import bayes_decision
from refml.bayes.distributions import (
    FiniteDistribution,
    GaussianClasses,
    PassFailExample,
    make_separable,
)
from refml.bayes.losses import (
    empirical_risk,
    hinge_loss,
    logistic_loss,
    perceptron_loss,
    square_loss,
    zero_one_loss,
)
from refml.bayes.plug_in import PlugInClassifier
from refml.bayes.rule import BayesClassifier, risk

__all__ = [
    "BayesClassifier", "FiniteDistribution", "GaussianClasses", "PassFailExample",
    "PlugInClassifier", "bayes_decision", "empirical_risk", "hinge_loss", "logistic_loss",
    "make_separable", "perceptron_loss", "risk", "square_loss", "zero_one_loss",
]
