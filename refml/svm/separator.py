"""The separator with the largest margin, through the origin or with a bias, exactly where it
can be: the delta of Theorem 2.3 ([Wainwright-L2]) at its largest, for the perceptron's
mistake bound, obtained from the hard-margin SVM ([Yan], "optimal separating hyperplane").
"""

import math
import warnings
from fractions import Fraction
from itertools import combinations

from refml.linear.separability import linear_separability, validated_rows
from refml.svm import smo as _smo
from refml.svm.smo import exact_max_margin
from refml.svm.svc import SVC


def max_margin_separator(X, y, fit_intercept=False, tol=1e-6, max_iter=100_000):
    """theta maximising min_i y_i theta'r_i / ||theta|| over the rows r_i = x_i, or
    r_i = x~_i = [1, x_i] with ``fit_intercept`` (theta = [theta_0, theta_1..d]).

    This is the delta of Theorem 2.3 ([Wainwright-L2]) at its largest, so R^2/delta^2 at its
    smallest.  It is the hard-margin SVM *without* a free bias on the rows r_i, obtained from
    the ordinary SVM on the data mirrored through the origin, {(r_i, y_i)} and
    {(-r_i, -y_i)}: a bias b there needs y_i theta'r_i >= 1 + |b|, so the optimum has b = 0
    and its beta is the wanted theta.  Raises ValueError when no theta separates the rows
    (decided exactly by ``linear_separability`` on the mirrored data).

    SMO ends within ``tol`` of the optimum; the result is then made exact when it can be: with
    z_i = y_i r_i and S the support vectors found, the KKT equalities z_s'theta = 1 (s in S),
    theta = sum_S alpha_s z_s are solved in rationals, and the solution is kept if it passes
    the exact KKT test (alpha >= 0 and z_i'theta >= 1 for every i): it is then the maximum-margin
    theta, rounded to floats.  Otherwise (a degenerate support set) SMO's theta is returned,
    if it separates; if it does not (SMO stopped at ``max_iter``, as on badly scaled rows),
    the small support sets are tried exactly (``max_margin_by_support_sets``).
    """
    return _max_margin_separator(SVC, linear_separability, X, y, fit_intercept, tol, max_iter)


def _max_margin_separator(svc_class, separability, X, y, fit_intercept, tol, max_iter):
    rows, signs = validated_rows(X, y, "max_margin_separator")
    if fit_intercept:
        rows = [[1.0] + list(x) for x in rows]
    mirrored = [list(r) for r in rows] + [[-value for value in r] for r in rows]
    mirrored_signs = list(signs) + [-s for s in signs]
    separable, _ = separability(mirrored, mirrored_signs)
    if not separable:
        raise ValueError("no separator: the rows are not linearly separable"
                         f"{' through the origin' if not fit_intercept else ''} "
                         "(the LP of linear_separability is infeasible)")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = svc_class(C=math.inf, tol=tol, max_iter=max_iter).fit(mirrored, mirrored_signs)
    support = sorted({int(index) % len(rows) for index in model.support_})
    theta = exact_max_margin(rows, signs, support)
    if theta is None:
        theta = [float(value) for value in model.coef_]
    if all(s * _smo.kernel_value("linear", theta, r, 0.0, 0, 0.0) > 0.0
           for r, s in zip(rows, signs)):
        return theta
    theta = max_margin_by_support_sets(rows, signs)
    if theta is None:
        raise ValueError("the hard-margin SVM did not reach a separator in "
                         f"max_iter={max_iter} steps; raise max_iter")
    return theta


MAX_SUPPORT_SETS = 20_000


def max_margin_by_support_sets(rows, signs):
    """The maximum-margin theta through the origin found exactly, or None when there are
    more than MAX_SUPPORT_SETS candidate support sets.

    For when SMO stalls: on badly scaled rows (a column of ones beside values near 500) it
    needed 4 million steps for 8 points.  The optimum theta = sum alpha_s z_s (z_i = y_i r_i)
    is a non-negative combination of margin points, and by Caratheodory's theorem for cones
    of at most D = len(r_i) linearly independent ones; for those, G alpha = 1 has a unique
    solution.  So the sets of 1, 2, ..., D rows are tried in order with
    ``exact_max_margin``, whose exact KKT test accepts only the optimum (unique: the
    objective is strictly convex); the first set it accepts gives theta."""
    n, D = len(rows), len(rows[0])
    if sum(math.comb(n, k) for k in range(1, min(n, D) + 1)) > MAX_SUPPORT_SETS:
        return None
    z = [[Fraction(s) * Fraction(v) for v in r] for r, s in zip(rows, signs)]
    for size in range(1, min(n, D) + 1):
        for support in combinations(range(n), size):
            theta = exact_max_margin(rows, signs, list(support), z)
            if theta is not None:
                return theta
    return None
