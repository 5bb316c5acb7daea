"""refml: the classification lectures as executable, readable Python (standard library only).

Every public name of docs/design.md section 6 is importable from here, e.g.
``from refml import Perceptron``.  refml_fast offers the same names over numpy and Numba.
"""

from refml.core import moved
from refml.core.base import ConvergenceWarning as ConvergenceWarning
from refml.core.base import NotFittedError as NotFittedError
from refml.core.base import clone as clone
from refml.core.names import lazy_exports

__version__ = "0.2.0"

lazy_exports(__name__, globals())
moved.install(moved.MOVED)
