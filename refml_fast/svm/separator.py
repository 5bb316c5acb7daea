"""The max-margin separator over numpy: refml's, with refml_fast's SVC and separability LP."""

import numpy as np

from refml.svm import separator as reference
from refml_fast.linear.separability import linear_separability
from refml_fast.svm.svc import SVC


def max_margin_separator(X, y, fit_intercept=False, tol=1e-6, max_iter=100_000):
    theta = reference._max_margin_separator(SVC, linear_separability, X, y, fit_intercept,
                                            tol, max_iter)
    return np.asarray(theta, dtype=np.float64)


max_margin_separator.__doc__ = reference.max_margin_separator.__doc__
