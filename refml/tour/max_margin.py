"""Tour: separability by linear programming, and the maximum-margin hyperplane.

[NN-Notes] ("linearly separable data", "LP for linear classification") and [Yan] ("optimal
separating hyperplane" to "Dual problem: non-separable data").
"""

import math
import warnings

from refml.core.random import Generator
from refml.tour import format_table

TITLE = "Maximum margin: separability by LP, the hard- and soft-margin SVM ([NN-Notes], [Yan])"

# The generating line on x~ = [1, x1, x2]: 2 x1 - x2 = 0.5.
THETA_STAR = [-0.5, 2.0, -1.0]


def run(lib, show):
    show_separability(lib, show)
    show("")
    X, y = separable_points(40, 0.15, Generator(3))
    show_separators(lib, show, X, y)
    show("")
    show_support_vectors(lib, show, X, y)
    show("")
    show_soft_margin(lib, show, X, y)


def separable_points(n, gap, rng):
    """n points on [-1, 1]^2 at distance >= gap from THETA_STAR's line, labelled 0 / 1."""
    size = math.sqrt(THETA_STAR[1] ** 2 + THETA_STAR[2] ** 2)
    X, y = [], []
    while len(X) < n:
        x = [2.0 * rng.random() - 1.0, 2.0 * rng.random() - 1.0]
        distance = (THETA_STAR[0] + THETA_STAR[1] * x[0] + THETA_STAR[2] * x[1]) / size
        if abs(distance) >= gap:
            X.append(x)
            y.append(1 if distance > 0 else 0)
    return X, y


def show_separability(lib, show):
    show("Is there w~ = [b, w] with y_i (w'x_i + b) >= 1 for all i?  An LP with no objective")
    show("([NN-Notes]).  Phase I of the simplex method, in exact rational arithmetic with")
    show("Bland's rule, either finds such a w~ or proves that the two convex hulls meet.")
    cases = [
        ("0, 1 | 3 (one feature)", [[0.0], [1.0], [3.0]], [0, 0, 1]),
        ("XOR", [[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]], [0, 0, 1, 1]),
        ("equal points, both labels", [[1.0, 2.0], [1.0, 2.0]], [0, 1]),
        ("hulls touch at (1, 0)", [[0.0, 0.0], [2.0, 0.0], [1.0, 0.0], [1.0, 1.0]],
         [0, 0, 1, 1]),
        ("... lifted by 1e-9", [[0.0, 0.0], [2.0, 0.0], [1.0, 1e-9], [1.0, 1.0]], [0, 0, 1, 1]),
    ]
    rows = []
    for name, X, y in cases:
        separable, w = lib.linear_separability(X, y)
        rows.append([name, "yes" if separable else "no",
                     "[" + ", ".join(f"{v:.4g}" for v in w) + "]" if separable else "-"])
    for line in format_table(["data", "separable", "w~ = [b, w]"], rows):
        show(line)
    show("(the lifted case needs a separator with entries near 1e9: exact arithmetic finds it)")


def margin(X, y, w, b):
    """min_i y_i (w'x_i + b) / ||w||: the distance from the line to the closest point."""
    norm = math.sqrt(sum(v * v for v in w))
    return min((1 if label else -1) * (sum(a * c for a, c in zip(w, x)) + b)
               for x, label in zip(X, y)) / norm


def show_separators(lib, show, X, y):
    show("40 points on [-1, 1]^2 at least 0.15 from the line 2 x1 - x2 = 0.5.  Every method")
    show("below separates them; the hard-margin SVM (C = inf) maximises the margin ([Yan]:")
    show("max M s.t. y_i (x_i'beta + beta_0) >= M, ||beta|| = 1).  Lines scaled to ||w|| = 1.")
    show("R^2/delta^2 is Theorem 2.3's bound with that separator's delta on x~ = [1, x].")
    rows, mistakes = [], []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for order in ("cyclic", "random"):
            model = lib.Perceptron(order=order, tol=None, random_state=0).fit(X, y)
            mistakes.append(model.n_mistakes_)
            rows.append(separator_row(lib, f"perceptron ({order})", X, y, model.coef_,
                                      model.intercept_))
    _, w = lib.linear_separability(X, y)
    rows.append(separator_row(lib, "LP vertex", X, y, list(w)[1:], list(w)[0]))
    rows.append(separator_row(lib, "generating line", X, y, THETA_STAR[1:], THETA_STAR[0]))
    svm = lib.SVC(C=float("inf")).fit(X, y)
    rows.append(separator_row(lib, "hard-margin SVM", X, y, svm.coef_, svm.intercept_))
    for line in format_table(["separator", "b", "w1", "w2", "margin", "R^2/delta^2"], rows):
        show(line)
    show(f"SVM: margin_ = 1/||beta|| = {svm.margin_:.4g}, {len(list(svm.support_))} support "
         f"vectors, {svm.n_iter_} SMO steps, KKT violation {svm.kkt_violation_:.2g}")
    best = lib.mistake_bound(X, y, fit_intercept=True)
    show("The largest delta on x~ (the SVM through the origin of R^3, bias included in the")
    show(f"norm) gives the tightest bound, mistake_bound(X, y, fit_intercept=True) = {best:.4g};")
    show(f"the perceptrons above made {mistakes[0]} and {mistakes[1]} mistakes.")


def separator_row(lib, name, X, y, w, b):
    w = [float(v) for v in w]
    norm = math.sqrt(sum(v * v for v in w))
    bound = lib.mistake_bound(X, y, [float(b)] + w, fit_intercept=True)
    return [name, float(b) / norm, w[0] / norm, w[1] / norm, margin(X, y, w, float(b)), bound]


def show_support_vectors(lib, show, X, y):
    svm = lib.SVC(C=float("inf")).fit(X, y)
    show("Its support vectors (alpha_i > 0): all on the margin, y_i f(x_i) = 1, and")
    show("beta = sum alpha_i y_i x_i (KKT stationarity), beta_0 = y_i - beta'x_i (averaged).")
    scores = list(svm.decision_function(X))
    rows = []
    for index, coefficient in zip(svm.support_, svm.dual_coef_):
        sign = 1 if y[index] else -1
        rows.append([int(index), X[index][0], X[index][1], sign, abs(float(coefficient)),
                     sign * float(scores[index])])
    for line in format_table(["i", "x1", "x2", "y", "alpha", "y f(x)"], rows):
        show(line)
    beta = [sum(float(a) * float(x[j]) for a, x in zip(svm.dual_coef_, svm.support_vectors_))
            for j in range(2)]
    show(f"sum alpha_i y_i x_i = [{beta[0]:.6g}, {beta[1]:.6g}]; coef_ = "
         f"[{float(svm.coef_[0]):.6g}, {float(svm.coef_[1]):.6g}]")


def show_soft_margin(lib, show, X, y):
    flipped = list(y)
    for i in (0, 7, 19):
        flipped[i] = 1 - flipped[i]
    separable = lib.linear_separability(X, flipped)[0]
    show(f"The same points with 3 labels flipped: the LP says "
         f"{'separable' if separable else 'not separable'}, and the hard margin has no")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        hard = lib.SVC(C=float("inf"), max_iter=2000).fit(X, flipped)
    show(f"solution: SMO stops after {hard.n_iter_} steps, converged_ = {hard.converged_}, "
         f"with {len(caught)} ConvergenceWarning.")
    show("Slack variables xi_i with cost C give the soft margin ([Yan]): 0 <= alpha_i <= C,")
    show("P = 1/2 ||beta||^2 + C sum xi_i equals D = sum alpha_i - 1/2 ||beta||^2 at the optimum.")
    rows = []
    for C in (0.01, 0.1, 1.0, 10.0, 100.0):
        model = lib.SVC(C=C, tol=1e-5).fit(X, flipped)
        alphas = [abs(float(a)) for a in model.dual_coef_]
        bounded = sum(1 for a in alphas if a >= C)
        errors = sum(1 for p, t in zip(model.predict(X), flipped) if p != t)
        rows.append([C, len(alphas), bounded, model.margin_, errors, model.primal_objective_,
                     model.dual_objective_, model.kkt_violation_])
    for line in format_table(["C", "SVs", "alpha=C", "margin", "errors", "P", "D", "KKT"], rows):
        show(line)
    show("(small C: a wide margin with every support vector inside it, alpha = C; as C grows")
    show("the margin narrows and fewer points sit inside it or on the wrong side)")
