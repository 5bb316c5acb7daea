"""Gaussian discriminant analysis: LDA and QDA ([MATH412], [Yan], [IML-L5]).

Its modules, in reading order:

- statistics: class counts and means, scatter matrices, their factors
- analysis: LDA and QDA
"""

from refml.discriminant.analysis import LinearDiscriminantAnalysis, QuadraticDiscriminantAnalysis

__all__ = ["LinearDiscriminantAnalysis", "QuadraticDiscriminantAnalysis"]
