r"""Linear rules: least squares, logistic regression, SGD, and linear separability ([MATH412],
[Yan], [NN-Notes]).

The setting.  n examples (x_i, y_i), x_i in R^d; with a bias, x~ = [1, x] and a linear rule
predicts from the sign of the score :math:`\theta^\top \tilde x` (one score per class beyond
two classes).

Least squares ([MATH412], the OLS plug-in).  Labels coded y_i in {-1, +1}, the normal
equations give :math:`\hat\theta = (\tilde X^\top \tilde X)^{-1} \tilde X^\top y`, and the
rule predicts :math:`\mathrm{sign}(\hat\theta^\top \tilde x)`.

Logistic regression ([MATH412], [Yan]).  The model
:math:`P(Y = 1 \mid x) = \sigma(\theta^\top \tilde x)`, with
:math:`\sigma(z) = 1 / (1 + e^{-z})`, is fitted by maximum likelihood; the log-likelihood
and its gradient are

.. math::

    \ell(\theta) = \sum_i \big[ y_i \log \sigma(\theta^\top \tilde x_i)
                   + (1 - y_i) \log(1 - \sigma(\theta^\top \tilde x_i)) \big], \qquad
    \nabla \ell(\theta) = \sum_i (y_i - \sigma(\theta^\top \tilde x_i))\, \tilde x_i

(y_i in {0, 1}).  It is concave, so Newton's method, L-BFGS and gradient ascent with step
1/L, :math:`L = \|\tilde X\|^2 / 4`, all reach its maximum; with K classes the softmax
model (multinomial) takes one vector per class.

Projected SGD with averaging ([MATH412]).  For a convex f on the ball of radius D, with
stochastic gradients of norm at most B, the steps :math:`\gamma_k = D / (B \sqrt{k})`, the
projection onto the ball after each step, and the average
:math:`\bar\theta_n` of the iterates give
:math:`\mathbb{E} f(\bar\theta_n) - f^* \le 3 B D / \sqrt{n}`.

Linear separability ([NN-Notes]).  The sample is separable if and only if the linear
program :math:`y_i\, \tilde w^\top \tilde x_i \ge 1` for every i is feasible: an LP with no
objective, decided exactly in rational arithmetic.

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
