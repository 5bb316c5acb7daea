"""Losses for binary classification as functions of the margin, and the empirical risk.

[MATH412] ("Classification, plug-in predictors", "Comparing losses", "Perceptron loss")
writes every loss as ell(a, y) for a real score a = f(x) and a label y in {-1, +1}, and each
depends on a and y only through the *margin* m = y a:

    0-1 loss          ell(a, y) = 1{y a <= 0}              ([MATH412]; [NN-Notes] "zero-one loss")
    square loss       ell(a, y) = (1 - y a)^2               ([MATH412], OLS plug-in)
    logistic loss     ell(a, y) = log(1 + exp(-y a))        ([MATH412], logistic regression)
    perceptron loss   ell(a, y) = max(-y a, 0)              ([MATH412], perceptron)
    hinge loss        ell(a, y) = max(1 - y a, 0)           (the soft-margin SVM, [Yan];
                                                             [NN-Notes] "surrogate loss functions")

Every loss here is called in one of two ways:

* ``loss(m)``: m is the margin y f(x) (a number, or a sequence of numbers);
* ``loss(a, y)``: a is the score f(x) and y the label in {-1, +1} (numbers, or two
  sequences of the same length); the margin is y * a (exact: y is +-1).

A number gives a float; a sequence gives a list (refml_fast: a numpy array).  For a
classifier's predictions a in {-1, +1}, the 0-1 loss 1{y a <= 0} equals 1{a != y}, the
loss of [Wainwright-L2] eq. (2.1); for other label sets use ``1 - accuracy_score``.

The margin may be +-infinity (the loss is then its limit); NaN is refused.  The logistic
loss is computed as max(-m, 0) + log1p(exp(-|m|)), which equals log(1 + e^{-m}) and never
overflows (e^{-|m|} <= 1).
"""

import math
import numbers


def zero_one_loss(a, y=None):
    """The 0-1 loss 1{m <= 0} of the margin m = y a (a mistake includes m = 0)."""
    return _elementwise(_zero_one, a, y, "zero_one_loss")


def square_loss(a, y=None):
    """The square loss (1 - m)^2 = (a - y)^2 for y in {-1, +1}."""
    return _elementwise(_square, a, y, "square_loss")


def logistic_loss(a, y=None):
    """The logistic loss log(1 + e^{-m}), computed without overflow."""
    return _elementwise(_logistic, a, y, "logistic_loss")


def perceptron_loss(a, y=None):
    """The perceptron loss max(-m, 0): zero when well classified, else the distance |m|."""
    return _elementwise(_perceptron, a, y, "perceptron_loss")


def hinge_loss(a, y=None):
    """The hinge loss max(1 - m, 0)."""
    return _elementwise(_hinge, a, y, "hinge_loss")


def empirical_risk(loss, a, y=None):
    """The empirical risk (1/n) sum_i loss(a_i, y_i), or (1/n) sum_i loss(m_i) on margins.

    ``loss`` is one of the functions above (or any function of a margin, or of a score and
    a label).  [MATH412]: R_n(f) = (1/n) sum_i ell(f(x_i), y_i).
    """
    scores = _as_sequence(a, "a")
    n = len(scores)
    if n == 0:
        raise ValueError("empirical_risk needs at least 1 sample, found 0 sample(s)")
    if y is not None:
        labels = _as_sequence(y, "y")
        if len(labels) != n:
            raise ValueError(f"empirical_risk: found input variables with inconsistent "
                             f"numbers of samples: [{n}, {len(labels)}]")
    total = 0.0
    for i in range(n):
        total += loss(scores[i]) if y is None else loss(scores[i], labels[i])
    return total / n


# ----------------------------------------------------------------------------------------
# The losses of one margin m.


def _zero_one(m):
    # 1{m <= 0}
    return 1.0 if m <= 0.0 else 0.0


def _square(m):
    # (1 - m)^2
    return (1.0 - m) * (1.0 - m)


def _logistic(m):
    # log(1 + e^{-m}) = max(-m, 0) + log(1 + e^{-|m|})
    if m == math.inf:
        return 0.0
    if m == -math.inf:
        return math.inf
    return max(-m, 0.0) + math.log1p(math.exp(-abs(m)))


def _perceptron(m):
    # max(-m, 0)
    return max(-m, 0.0)


def _hinge(m):
    # max(1 - m, 0)
    return max(1.0 - m, 0.0)


# ----------------------------------------------------------------------------------------
# Calling conventions: a margin, or a score and a label; a number, or a sequence.


def _elementwise(margin_loss, a, y, name):
    if y is None:
        if _is_number(a):
            return margin_loss(_real(a, "margin"))
        return [margin_loss(_real(m, "margin")) for m in _as_sequence(a, "margin")]
    if _is_number(a) and _is_number(y):
        return margin_loss(_margin(a, y))
    scores, labels = _as_sequence(a, "a"), _as_sequence(y, "y")
    if len(scores) != len(labels):
        raise ValueError(f"{name}: found input variables with inconsistent numbers of "
                         f"samples: [{len(scores)}, {len(labels)}]")
    return [margin_loss(_margin(s, label)) for s, label in zip(scores, labels)]


def _margin(a, y):
    """m = y a for a label y in {-1, +1}."""
    label = _real(y, "label y")
    if label not in (-1.0, 1.0):
        raise ValueError(f"label y must be -1 or +1 (margin losses of [MATH412]), "
                         f"got {y!r}")
    return label * _real(a, "score a")


def _is_number(value):
    return isinstance(value, numbers.Number) or (
        hasattr(value, "shape") and getattr(value, "shape", None) == ())


def _real(value, name):
    if isinstance(value, (str, bytes)) or value is None:
        raise ValueError(f"{name} must be a real number, got {value!r}")
    if isinstance(value, numbers.Complex) and not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got complex {value!r}")
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a real number, got {value!r}") from None
    if number != number:
        raise ValueError(f"{name} contains NaN")
    return number


def _as_sequence(values, name):
    if _is_number(values):
        return [values]
    if isinstance(values, (str, bytes)):
        raise ValueError(f"{name} must be a number or a sequence of numbers, got {values!r}")
    if hasattr(values, "tolist") and callable(values.tolist):
        values = values.tolist()
    return list(values)
