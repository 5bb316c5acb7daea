"""Gaussian discriminant analysis: LDA and QDA, over numpy with Numba kernels: the refml
chapter of the same name, with the same public names and identical answers.
"""

from refml_fast.discriminant.analysis import (
    LinearDiscriminantAnalysis,
    QuadraticDiscriminantAnalysis,
)

__all__ = ["LinearDiscriminantAnalysis", "QuadraticDiscriminantAnalysis"]
