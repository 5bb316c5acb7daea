"""The Bayes rule, losses and risk, over numpy with Numba kernels: the refml chapter of the
same name, with the same public names and identical answers.
"""

from refml.bayes.decision import bayes_decision
from refml.bayes.rule import risk
from refml_fast.bayes.distributions import (
    FiniteDistribution,
    GaussianClasses,
    PassFailExample,
    make_separable,
)
from refml_fast.bayes.losses import (
    empirical_risk,
    hinge_loss,
    logistic_loss,
    perceptron_loss,
    square_loss,
    zero_one_loss,
)
from refml_fast.bayes.plug_in import PlugInClassifier
from refml_fast.bayes.rule import BayesClassifier

__all__ = [
    "BayesClassifier", "FiniteDistribution", "GaussianClasses", "PassFailExample",
    "PlugInClassifier", "bayes_decision", "empirical_risk", "hinge_loss", "logistic_loss",
    "make_separable", "perceptron_loss", "risk", "square_loss", "zero_one_loss",
]
