"""The perceptron and its mistake bound, over numpy with Numba kernels: the refml chapter of
the same name, with the same public names and identical answers.
"""

from refml_fast.perceptron.perceptron import Perceptron, perceptron_criterion
from refml_fast.perceptron.theorem import mistake_bound, multiclass_mistake_bound

__all__ = ["Perceptron", "mistake_bound", "multiclass_mistake_bound", "perceptron_criterion"]
