"""refml_fast: the same public names as refml, with hot cores as Numba kernels.

Every class subclasses its refml twin and overrides only the hot methods; predictions are
identical to refml's (see conformance/).  Results are numpy arrays.
"""

from refml._names import lazy_exports
from refml.base import ConvergenceWarning as ConvergenceWarning
from refml.base import NotFittedError as NotFittedError
from refml.base import clone as clone

__version__ = "0.1.0"

lazy_exports(__name__, globals())
