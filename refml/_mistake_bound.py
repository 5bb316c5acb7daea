"""Validation and arithmetic behind refml.perceptron's ``mistake_bound`` and
``perceptron_criterion`` (Theorem 2.3 of [Wainwright-L2]; see refml/perceptron.py).
"""

from . import _linalg as linalg
from . import _validation as validation
from .base import Classifier


def check_bool(value, name):
    if not isinstance(value, bool):
        raise ValueError(f"Invalid parameter {name}={value!r}: must be True or False")


def signed_rows(X, y, fit_intercept, name):
    """(X, labels, rows x~_i, signs y_i in {-1, +1}) validated for ``name``."""
    X = validation.as_matrix(X)
    labels = validation.as_labels(y)
    validation.check_consistent_length(len(X), len(labels))
    classes, codes = validation.encode_labels(labels)
    validation.check_binary(classes, name)
    check_bool(fit_intercept, "fit_intercept")
    rows = [[1.0] + x for x in X] if fit_intercept else X
    return X, labels, rows, Classifier.signs_from_codes(codes)


def mistake_bound(perceptron_class, X, y, theta, fit_intercept):
    """R^2 / delta^2 for ``refml.perceptron.mistake_bound``, the max-margin theta taken
    from the package of ``perceptron_class`` when ``theta`` is None."""
    X, labels, rows, signs = signed_rows(X, y, fit_intercept, "mistake_bound")
    if theta is None:
        theta = max_margin_separator(perceptron_class, X, labels, fit_intercept)
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


def max_margin_separator(perceptron_class, X, labels, fit_intercept):
    """The hard-margin SVM's theta from the package of ``perceptron_class`` (refml or
    refml_fast); svm is imported here, not at the top, to keep the modules independent."""
    import importlib

    package = perceptron_class.__module__.rsplit(".", 1)[0]
    svm = importlib.import_module(f"{package}.svm")
    try:
        theta = svm.max_margin_separator(X, labels, fit_intercept=fit_intercept)
    except ValueError as error:
        raise ValueError(f"{error}; pass theta") from None
    return [float(v) for v in theta]
