"""Theorem 2.3's bound with refml_fast's max-margin separator (see refml.perceptron)."""

from refml.perceptron import theorem as reference
from refml_fast.svm.separator import max_margin_separator


def mistake_bound(X, y, theta=None, fit_intercept=True):
    if theta is None:
        X, labels, _, _ = reference.signed_rows(X, y, fit_intercept, "mistake_bound")
        theta = reference.separator_for_bound(max_margin_separator, X, labels, fit_intercept)
        y = labels
    return reference.mistake_bound(X, y, theta, fit_intercept)


mistake_bound.__doc__ = reference.mistake_bound.__doc__

multiclass_mistake_bound = reference.multiclass_mistake_bound   # small: refml's own
