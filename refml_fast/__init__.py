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
    "refml_fast._arrays": "refml_fast.core.arrays",
    "refml_fast._claims": "refml_fast.runtime.claims",
    "refml_fast._config": "refml_fast.runtime.options",
    "refml_fast._discriminant_statistics": "refml_fast.discriminant.statistics",
    "refml_fast._distance_sums": "refml_fast.neighbors.distance_sums",
    "refml_fast._ensemble_kernels": "refml_fast.ensemble.kernels",
    "refml_fast._gram": "refml_fast.svm.gram",
    "refml_fast._heap": "refml_fast.runtime.heap",
    "refml_fast._kdtree": "refml_fast.neighbors.kdtree",
    "refml_fast._kernel_rows": "refml_fast.svm.kernel_rows",
    "refml_fast._kernels": "refml_fast.density.kernels",
    "refml_fast._knn_exact": "refml_fast.neighbors.exact",
    "refml_fast._knn_rows": "refml_fast.neighbors.rows",
    "refml_fast._knn_search": "refml_fast.neighbors.search",
    "refml_fast._kth_smallest": "refml_fast.neighbors.kth_smallest",
    "refml_fast._lanes": "refml_fast.runtime.lanes",
    "refml_fast._lbfgs": "refml_fast.linear.lbfgs",
    "refml_fast._linalg": "refml_fast.core.linalg",
    "refml_fast._logistic_binary": "refml_fast.linear.logistic_binary",
    "refml_fast._logistic_hessian": "refml_fast.linear.logistic_hessian",
    "refml_fast._logistic_kernels": "refml_fast.linear.logistic_kernels",
    "refml_fast._logistic_multinomial": "refml_fast.linear.logistic_multinomial",
    "refml_fast._perceptron_passes": "refml_fast.perceptron.passes",
    "refml_fast._random": "refml_fast.core.random",
    "refml_fast._smo": "refml_fast.svm.smo",
    "refml_fast._smo_newton": "refml_fast.svm.smo_newton",
    "refml_fast._smo_scans": "refml_fast.svm.smo_scans",
    "refml_fast._sure_sign": "refml_fast.runtime.sure_sign",
    "refml_fast._tree_grow": "refml_fast.tree.grow",
    "refml_fast._tree_kernels": "refml_fast.tree.kernels",
    "refml_fast.base": "refml_fast.core.base",
    "refml_fast.distributions": "refml_fast.bayes.distributions",
    "refml_fast.histogram": "refml_fast.density",
    "refml_fast.least_squares": "refml_fast.linear.least_squares",
    "refml_fast.logistic": "refml_fast.linear.logistic",
    "refml_fast.losses": "refml_fast.bayes.losses",
    "refml_fast.metrics": "refml_fast.core.metrics",
    "refml_fast.naive_bayes": "refml_fast.density.naive_bayes",
    "refml_fast.separability": "refml_fast.linear.separability",
    "refml_fast.sgd": "refml_fast.linear.sgd",
}
moved.install(MOVED)
