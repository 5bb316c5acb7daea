"""Linear rules: least squares, logistic regression, SGD, and linear separability, over numpy
with Numba kernels: the refml chapter of the same name, with the same public names and
identical answers.
"""

from refml_fast.linear.least_squares import LeastSquaresClassifier
from refml_fast.linear.logistic import (
    LogisticRegression,
    log_likelihood,
    log_likelihood_gradient,
    sigmoid,
)
from refml_fast.linear.separability import linear_separability
from refml_fast.linear.sgd import projected_sgd

__all__ = [
    "LeastSquaresClassifier", "LogisticRegression", "linear_separability", "log_likelihood",
    "log_likelihood_gradient", "projected_sgd", "sigmoid",
]
