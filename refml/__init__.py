"""refml: the classification lectures as executable, readable Python (standard library only).

Every public name of docs/design.md section 6 is importable from here, e.g.
``from refml import Perceptron``.  refml_fast offers the same names over numpy and Numba.
"""

from ._names import lazy_exports
from .base import ConvergenceWarning as ConvergenceWarning
from .base import NotFittedError as NotFittedError
from .base import clone as clone

__version__ = "0.1.0"

lazy_exports(__name__, globals())
