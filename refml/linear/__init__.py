"""Linear rules: least squares, logistic regression, SGD, and linear separability ([MATH412],
[Yan], [NN-Notes]).

Its modules, in reading order:

- least_squares: the least-squares plug-in classifier (more classes: one fit per class)
- logistic: logistic regression (the model, the likelihood, the estimator), with its
  solvers (Newton, L-BFGS) in logistic_solvers
- sgd: projected SGD with Polyak-Ruppert averaging
- separability: linear separability decided exactly by an LP
"""

from refml.linear.least_squares import LeastSquaresClassifier
from refml.linear.logistic import (
    LogisticRegression,
    log_likelihood,
    log_likelihood_gradient,
    sigmoid,
)
from refml.linear.separability import linear_separability
from refml.linear.sgd import projected_sgd

__all__ = [
    "LeastSquaresClassifier", "LogisticRegression", "linear_separability", "log_likelihood",
    "log_likelihood_gradient", "projected_sgd", "sigmoid",
]
