"""Linear separability decided by linear programming, exactly.

[NN-Notes], "linearly separable data": Z = {(x_i, y_i)} is linearly separable when some W*
has y_i W*'x_i > 0 for every i; scaling W* turns this into the system

    y_i W*'x_i >= 1        (i = 1..n)                                  ([NN-Notes])

a linear program with no objective ("linear programming": max <u, w> s.t. A w >= v, here
u = 0, A_i = y_i x_i, v = 1).  [Yan], "Linearly separable data", allows a bias,
y_i (x_i'beta + beta_0) > 0, and merges it into beta by adding a 1 to every x_i.  This module
does the same with the project's augmented rows ([IML-L5], as in ``refml.perceptron``):

    x~_i = [1, x_i],   w~ = [beta_0, beta_1, ..., beta_d],   A_i = y_i x~_i,

and asks whether A w~ >= 1 has a solution.  Labels map classes_[0] -> -1, classes_[1] -> +1.

The alternative (Farkas's lemma, Gordan's form).  Exactly one of these holds:

    (I)   some w~ has A w~ >= 1                          (the data are separable);
    (II)  some lambda >= 0 has A'lambda = 0, sum_i lambda_i = 1.

Both cannot hold: 0 = lambda'A w~ >= lambda'1 = 1.  Read (II) by its rows: the bias row says
sum_{y=+1} lambda_i = sum_{y=-1} lambda_i = 1/2, and the others then say
sum_{y=+1} 2 lambda_i x_i = sum_{y=-1} 2 lambda_i x_i: a point lies in the convex hulls of
both classes.  Not separable means exactly that the two hulls meet.

The method.  Phase I of the simplex method on (II), written as

    minimise  a_0 + ... + a_{d+1}
    s.t.      [A' ; 1'] lambda + a = [0, ..., 0, 1],   lambda >= 0,  a >= 0,

(d + 2 equality rows, n + d + 2 columns; the artificial a are the starting basis).  If the
optimum is 0, lambda solves (II): not separable.  If it is v > 0, the simplex multipliers
pi (pi' = c_B' B^-1, read off the artificial columns' reduced costs as pi_r = 1 - cbar_r)
are an optimal solution of the dual LP  max pi_{d+1}  s.t.  A pi_{0..d} + pi_{d+1} <= 0,
pi <= 1,  so that  y_i pi_{0..d}'x~_i <= -v < 0  for every i and

    w~ = -pi_{0..d} / v   satisfies   y_i w~'x~_i >= 1:   (I) holds, separable.

One run therefore answers the question and carries its own proof either way.  Working on
(II) rather than on (I) keeps the tableau d + 2 rows tall however many points there are.

Exactness and termination.  The tableau holds ``fractions.Fraction`` numbers (every float
is a rational, converted without rounding), so every comparison with 0 is exact and the
answer is never a rounding artefact.  The pivot rule is Bland's (1977): the entering column
is the lowest-index column with a negative reduced cost, the leaving row the one with the
minimum ratio, ties to the lowest-index basic variable.  Bland's rule never cycles, and there
are finitely many bases, so the method always stops (usually after O(d) pivots).  Only the
returned w~ is rounded, to the nearest floats: y_i w~'x~_i >= 1 holds exactly for the
rational w~, and up to that rounding for the floats.
"""

from fractions import Fraction

from refml.core import validation
from refml.core.base import Classifier


def linear_separability(X, y):
    """(separable, w): can a hyperplane y_i (w'x_i + b) >= 1 separate the two classes?

    Parameters
    ----------
    X : rows x_1..x_n of d real numbers.
    y : n labels of exactly two classes; classes_[0] (the smaller) plays y = -1.

    Returns
    -------
    separable : bool, decided exactly (rational simplex, Bland's rule; see the module
        docstring).
    w : [b, w_1, ..., w_d] (length d + 1, the bias first, matching x~ = [1, x] and
        ``mistake_bound(..., fit_intercept=True)``) with y_i (w'x_i + b) >= 1 for every i
        when separable (a vertex of the LP, not the maximum-margin separator); None when not.

    Examples
    --------
    >>> linear_separability([[0.0], [1.0], [3.0]], [0, 0, 1])
    (True, [-3.0, 4.0])
    >>> linear_separability([[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]], [0, 0, 1, 1])
    (False, None)
    """
    rows, signs = validated_rows(X, y, "linear_separability")
    columns = farkas_columns(rows, signs)
    tableau = initial_tableau(columns)
    run_phase_one(tableau)
    return answer(tableau, len(columns))


def validated_rows(X, y, name):
    """(X as a list of float rows, labels as signs -1.0 / +1.0), checked as ``fit`` checks."""
    X = validation.as_matrix(X)
    return X, validated_signs(y, len(X), name)


def validated_signs(y, n_samples, name):
    """n_samples labels of exactly two classes as signs: classes_[0] -> -1.0, else +1.0."""
    labels = validation.as_labels(y)
    validation.check_consistent_length(n_samples, len(labels))
    classes, codes = validation.encode_labels(labels)
    validation.check_binary(classes, name)
    return Classifier.signs_from_codes(codes)


def farkas_columns(rows, signs):
    """The columns of [A' ; 1']: (y_i, y_i x_i1, ..., y_i x_id, 1) as exact fractions."""
    columns = []
    for x, sign in zip(rows, signs):
        augmented = [1.0] + list(x)                     # x~_i = [1, x_i]
        columns.append([Fraction(sign * value) for value in augmented] + [Fraction(1)])
    return columns


# ----------------------------------------------------------------------------------------
# The simplex tableau.  ``rows[r]`` holds the coefficients of every column (lambda_0..n-1,
# then a_0..a_{d+1}) and, last, the right-hand side; ``cost`` holds the reduced costs and,
# last, minus the objective value; ``basis[r]`` is the column basic in row r.


def initial_tableau(columns):
    """Phase I tableau with the artificial columns as the starting basis."""
    n, m = len(columns), len(columns[0])              # m = d + 2 equality rows
    rows = []
    for r in range(m):
        lambdas = [columns[i][r] for i in range(n)]
        artificials = [Fraction(1) if k == r else Fraction(0) for k in range(m)]
        right_hand_side = Fraction(1) if r == m - 1 else Fraction(0)
        rows.append(lambdas + artificials + [right_hand_side])
    # cbar_j = c_j - sum_r row_r[j] with c = 0 on lambda, 1 on a (the basic a cost 1 each).
    cost = [Fraction(0)] * (n + m + 1)
    for j in range(n + m + 1):
        c_j = Fraction(1) if n <= j < n + m else Fraction(0)
        column_sum = sum((row[j] for row in rows), Fraction(0))
        cost[j] = c_j - column_sum
    return {"rows": rows, "cost": cost, "basis": [n + r for r in range(m)]}


def run_phase_one(tableau):
    """Pivot by Bland's rule until no reduced cost is negative (an optimal basis)."""
    while True:
        entering = bland_entering(tableau["cost"])
        if entering is None:
            return
        leaving = bland_leaving(tableau, entering)
        # Phase I is bounded below by 0, so some row always limits the entering column.
        pivot(tableau, leaving, entering)


def bland_entering(cost):
    """The lowest-index column with a negative reduced cost, or None at the optimum."""
    for j in range(len(cost) - 1):
        if cost[j] < 0:
            return j
    return None


def bland_leaving(tableau, entering):
    """The row of minimum ratio rhs_r / T_rj over T_rj > 0; ties to the lowest basic index."""
    best, best_ratio = None, 0.0
    for r, row in enumerate(tableau["rows"]):
        if row[entering] > 0:
            ratio = row[-1] / row[entering]
            if (best is None or ratio < best_ratio
                    or (ratio == best_ratio and tableau["basis"][r] < tableau["basis"][best])):
                best, best_ratio = r, ratio
    return best


def pivot(tableau, r, j):
    """Make column j basic in row r: scale row r to T_rj = 1, clear column j elsewhere."""
    rows = tableau["rows"]
    pivot_value = rows[r][j]
    rows[r] = [value / pivot_value for value in rows[r]]
    for other in rows[:r] + rows[r + 1:] + [tableau["cost"]]:
        factor = other[j]
        if factor != 0:
            for k, value in enumerate(rows[r]):
                if value != 0:
                    other[k] -= factor * value
    tableau["basis"][r] = j


def answer(tableau, n):
    """(False, None) if phase I reached 0, else (True, w~ = -pi_{0..d} / v) from the duals."""
    objective = -tableau["cost"][-1]
    if objective == 0:
        return False, None
    m = len(tableau["rows"])
    # pi_r = c_{a_r} - cbar_{a_r} = 1 - cbar_{a_r}; the objective v equals pi_{m-1}.
    pi = [1 - tableau["cost"][n + r] for r in range(m)]
    w = [-pi[r] / pi[m - 1] for r in range(m - 1)]
    return True, [float(value) for value in w]
