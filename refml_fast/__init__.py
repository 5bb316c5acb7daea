"""refml_fast: the same public names as refml, with hot cores as Numba kernels.

Every class subclasses its refml twin and overrides only the hot methods; predictions are
identical to refml's (see conformance/).  Results are numpy arrays.
"""

import refml
from refml.core import moved
from refml.core.base import ConvergenceWarning as ConvergenceWarning
from refml.core.base import NotFittedError as NotFittedError
from refml.core.base import clone as clone
from refml.core.names import lazy_exports

__version__ = refml.__version__

lazy_exports(__name__, globals())

# The refml_fast modules of 0.1 whose names are no module now (refml.core.moved says why).
MOVED = {
    "refml_fast.base": "refml_fast.core.base",
    "refml_fast.losses": "refml_fast.bayes.losses",
    "refml_fast.distributions": "refml_fast.bayes.distributions",
    "refml_fast.least_squares": "refml_fast.linear.least_squares",
    "refml_fast.logistic": "refml_fast.linear.logistic",
    "refml_fast.sgd": "refml_fast.linear.sgd",
    "refml_fast.separability": "refml_fast.linear.separability",
    "refml_fast.histogram": "refml_fast.density",
    "refml_fast.naive_bayes": "refml_fast.density.naive_bayes",
    "refml_fast.metrics": "refml_fast.core.metrics",
}
moved.install(MOVED)
