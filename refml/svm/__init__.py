"""Maximum margin: the support vector machine and the max-margin separator ([Yan],
[Wainwright-L2]).

Its modules, in reading order:

- svc: the hard- and soft-margin SVM, its dual and its KKT conditions
- smo: sequential minimal optimisation of the dual, with smo_newton's step near the end
- one_vs_one: more than two classes, one SVM per pair of classes (beyond the lectures)
- separator: the separator with the largest margin (the delta of Theorem 2.3 at its best)
"""

from refml.svm.separator import max_margin_separator
from refml.svm.svc import SVC

__all__ = ["SVC", "max_margin_separator"]
