"""Module paths from before the chapter layout (0.1), kept importable for old code and pickles.

In 0.1 every topic was a module of the package root (``refml.logistic``, ``refml.bagging``);
from 0.2 each chapter is a package (``refml.linear.logistic``, ``refml.ensemble.bagging``).
A pickle names a class by its module, so a model pickled with 0.1 names the old module.
``install`` puts a finder on ``sys.meta_path`` that answers an old name with the module
that now holds the code (the same module object, so ``isinstance`` and pickles agree), and
warns once with a DeprecationWarning that names the new place.
"""

import importlib
import importlib.abc
import importlib.util
import sys
import warnings

# The refml modules of 0.1 whose names are no module now (the chapters that kept their
# name, such as refml.svm, export the public names their module had).
MOVED = {
    "refml._bandwidth": "refml.density.bandwidth",
    "refml._bins": "refml.density.bins",
    "refml._committee": "refml.ensemble.committee",
    "refml._discriminant_gaussian": "refml.discriminant.statistics",
    "refml._early_stop": "refml.perceptron.patience",
    "refml._gaussian": "refml.bayes.gaussian",
    "refml._interop": "refml.core.interop",
    "refml._kernels": "refml.density.kernels",
    "refml._linalg": "refml.core.linalg",
    "refml._logistic_report": "refml.linear.logistic",
    "refml._logistic_solvers": "refml.linear.logistic_solvers",
    "refml._mistake_bound": "refml.perceptron.theorem",
    "refml._names": "refml.core.names",
    "refml._random": "refml.core.random",
    "refml._smo": "refml.svm.smo",
    "refml._smo_newton": "refml.svm.smo_newton",
    "refml._tree_prune": "refml.tree.prune",
    "refml._tree_split": "refml.tree.split",
    "refml._tree_text": "refml.tree.text",
    "refml._validation": "refml.core.validation",
    "refml.bagging": "refml.ensemble.bagging",
    "refml.base": "refml.core.base",
    "refml.boosting": "refml.ensemble.boosting",
    "refml.distributions": "refml.bayes.distributions",
    "refml.histogram": "refml.density.histogram",
    "refml.least_squares": "refml.linear.least_squares",
    "refml.logistic": "refml.linear.logistic",
    "refml.losses": "refml.bayes.losses",
    "refml.metrics": "refml.core.metrics",
    "refml.naive_bayes": "refml.density.naive_bayes",
    "refml.separability": "refml.linear.separability",
    "refml.sgd": "refml.linear.sgd",
}


class MovedModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Import ``old`` as the module ``table[old]``."""

    def __init__(self, table):
        self.table = dict(table)

    def find_spec(self, fullname, path=None, target=None):
        if fullname not in self.table:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec):
        new = self.table[spec.name]
        warnings.warn(f"{spec.name} moved to {new} in refml 0.2; import from there, or the "
                      "public name from the package root", DeprecationWarning, stacklevel=2)
        return importlib.import_module(new)

    def exec_module(self, module):
        """Nothing to run: ``create_module`` returned the module as it is."""


def install(table):
    """Answer the old names of ``table`` from now on (once per table)."""
    if not any(isinstance(f, MovedModules) and f.table == table for f in sys.meta_path):
        sys.meta_path.append(MovedModules(table))
