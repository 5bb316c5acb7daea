r"""Maximum margin: the support vector machine and the max-margin separator ([Yan],
[Wainwright-L2]).

The primal.  For y_i in {-1, +1}, the soft-margin SVM solves ([Yan], "optimal separating
hyperplane"; the hard margin is C = inf, every slack 0)

.. math::

    \min_{\beta, \beta_0, \xi}\ \tfrac12 \|\beta\|^2 + C \sum_i \xi_i
    \quad \text{s.t.} \quad y_i (\beta^\top x_i + \beta_0) \ge 1 - \xi_i,\ \ \xi_i \ge 0,

whose margin, the distance from the hyperplane to the closest points, is
:math:`M = 1 / \|\beta\|`.

The dual.  With a kernel :math:`K(x, x')` in place of :math:`x^\top x'`,

.. math::

    \max_\alpha\ \sum_i \alpha_i - \tfrac12 \sum_{i,j} \alpha_i \alpha_j y_i y_j K(x_i, x_j)
    \quad \text{s.t.} \quad \sum_i \alpha_i y_i = 0,\ \ 0 \le \alpha_i \le C,

solved by sequential minimal optimisation (two multipliers at a time).  The KKT conditions
give back the primal: :math:`\beta = \sum_i \alpha_i y_i x_i`, and
:math:`\beta_0 = y_i - \beta^\top x_i` on every support vector on the margin
(:math:`0 < \alpha_i < C`).

Its modules, in reading order:

- svc: the hard- and soft-margin SVM, its dual and its KKT conditions
- smo: sequential minimal optimisation of the dual, with smo_newton's step near the end
- one_vs_one: more than two classes, one SVM per pair of classes (beyond the lectures)
- separator: the separator with the largest margin (the delta of Theorem 2.3 at its best)
"""

from refml.svm.separator import max_margin_separator
from refml.svm.svc import SVC

__all__ = ["SVC", "max_margin_separator"]
