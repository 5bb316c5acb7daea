"""Maximum margin: the support vector machine and the max-margin separator, over numpy with
Numba kernels: the refml chapter of the same name, with the same public names and identical
answers.
"""

from refml_fast.svm.separator import max_margin_separator
from refml_fast.svm.svc import SVC

__all__ = ["SVC", "max_margin_separator"]
