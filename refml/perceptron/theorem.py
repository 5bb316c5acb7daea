"""Theorem 2.3 of [Wainwright-L2]: the perceptron's mistake bound.

If some theta* separates the data with margin delta = min_i y_i theta*'x_i / ||theta*|| > 0
and every row has ||x_i|| <= R, the perceptron makes at most R^2 / delta^2 updates, whatever
the order of the rows ([NN-Notes] proves it for Algorithm 5 as Novikoff did).  With K
classes, the multi-class perceptron makes at most 2 R^2 / delta^2 (beyond the lectures).
"""

import math

from refml.core import linalg, validation
from refml.core.base import Classifier
from refml.svm.separator import max_margin_separator


def mistake_bound(X, y, theta=None, fit_intercept=True):
    """R^2 / delta^2: Theorem 2.3's cap on the perceptron's mistakes ([Wainwright-L2]).

    R = max_i ||x_i||_2 (eq. 2.24) and delta = min_i y_i theta'x_i / ||theta||_2 (eq. 2.25),
    the margin of the separator ``theta``; with ``fit_intercept`` the rows are the augmented
    x~_i = [1, x_i] and theta = [theta_0, theta_1..d], matching a Perceptron fitted with
    its default fit_intercept=True (the same default here, so that both describe one
    model; fit_intercept=False is [Wainwright-L2]'s form, rows x_i and theta through the
    origin).  Labels map classes_[0] -> -1, classes_[1] -> +1.

    When ``theta`` is None the separator is the maximum-margin one, the hard-margin SVM
    through the origin on these rows (``refml.svm.max_margin_separator``): the theorem holds for
    *any* separator theta*, and this one has the largest delta, so the bound is the tightest
    R^2/delta^2 the theorem gives.

    Raises ValueError if theta does not separate the data (delta <= 0), has the wrong
    length, or, with theta None, if no separator exists (decided exactly by the LP of
    ``linear_separability``).
    """
    X, labels, rows, signs = signed_rows(X, y, fit_intercept, "mistake_bound")
    if theta is None:
        theta = separator_for_bound(max_margin_separator, X, labels, fit_intercept)
    else:
        theta = validation.as_matrix([theta], "theta")[0]
        if len(theta) != len(rows[0]):
            raise ValueError(f"theta has {len(theta)} entries, expected {len(rows[0])} "
                             f"({'1 + ' if fit_intercept else ''}{len(X[0])} features)")
    R = max(linalg.norm(x) for x in rows)                                 # eq. (2.24)
    worst = min(sign * linalg.dot(theta, x) for sign, x in zip(signs, rows))
    if not worst > 0.0:
        raise ValueError(f"theta does not separate the data: min_i y_i theta'x_i = {worst!r} "
                         "<= 0, so the margin delta is not positive")
    delta = worst / linalg.norm(theta)                                    # eq. (2.25)
    return (R * R) / (delta * delta)


def signed_rows(X, y, fit_intercept, name):
    """(X, labels, rows x~_i, signs y_i in {-1, +1}) validated for ``name``."""
    X = validation.as_matrix(X)
    labels = validation.as_labels(y)
    validation.check_consistent_length(len(X), len(labels))
    classes, codes = validation.encode_labels(labels)
    validation.check_binary(classes, name)
    validation.check_bool(fit_intercept, "fit_intercept")
    rows = [[1.0] + x for x in X] if fit_intercept else X
    return X, labels, rows, Classifier.signs_from_codes(codes)


def separator_for_bound(separator, X, labels, fit_intercept):
    """The max-margin theta from ``separator`` as floats; its ValueError (no separator, or
    SMO's cap reached) asks for an explicit theta."""
    try:
        theta = separator(X, labels, fit_intercept=fit_intercept)
    except ValueError as error:
        raise ValueError(f"{error}; pass theta") from None
    return [float(v) for v in theta]


def multiclass_mistake_bound(X, y, theta, fit_intercept=True):
    """2 R^2 / delta^2: the multi-class perceptron's cap on its mistakes (beyond the
    lectures: Theorem 2.3 through Kesler's construction, ``refml.perceptron.multiclass``).

    ``theta`` holds one vector theta*_k per class of ``sorted(set(y))`` (with
    ``fit_intercept``, [theta_0, theta_1..d] for the rows x~ = [1, x]).  R = max_i ||x~_i||
    and delta = min_i min_{k != c_i} (theta*_{c_i} - theta*_k)'x~_i / ||Theta*||_F, the
    Frobenius norm of all the vectors together.  Why: a mistake on point i adds
    gamma (e_c - e_r) (x) x~_i to Theta, which raises <Theta*, Theta> by at least
    gamma delta ||Theta*||_F and ||Theta||_F^2 by at most 2 gamma^2 R^2 (the rival scored
    at least as high), so t updates give t gamma delta <= gamma sqrt(2 t) R.

    Raises ValueError if theta does not separate the classes (delta <= 0) or has the wrong
    shape.
    """
    X = validation.as_matrix(X)
    labels = validation.as_labels(y)
    validation.check_consistent_length(len(X), len(labels))
    classes, codes = validation.encode_labels(labels)
    validation.check_n_classes(classes, 2, "multiclass_mistake_bound")
    validation.check_bool(fit_intercept, "fit_intercept")
    theta = validation.as_matrix(theta, "theta")
    rows = [[1.0] + x for x in X] if fit_intercept else X
    if len(theta) != len(classes) or len(theta[0]) != len(rows[0]):
        raise ValueError(f"theta must have {len(classes)} rows (one per class) of "
                         f"{len(rows[0])} entries, got {len(theta)} of {len(theta[0])}")
    R = max(linalg.norm(x) for x in rows)
    worst = min(linalg.dot(theta[c], x) - linalg.dot(theta[k], x)
                for x, c in zip(rows, codes) for k in range(len(theta)) if k != c)
    if not worst > 0.0:
        raise ValueError("theta does not separate the classes: min_i min_k "
                         f"(theta_c - theta_k)'x_i = {worst!r} <= 0")
    norm = math.sqrt(linalg.total(linalg.dot(t, t) for t in theta))
    delta = worst / norm
    return 2.0 * (R * R) / (delta * delta)
