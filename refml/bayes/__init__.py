"""The Bayes rule, losses and risk ([Wainwright-L2] section 2.3, [Yan], [MATH412], [NN-Notes]).

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
