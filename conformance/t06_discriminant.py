"""Item 6: the LDA posterior is sigma(w'x + b); QDA's boundary is the quadratic form of [IML-L5].

Every instance is a random two-class Gaussian data set (d = 1..4, at least d + 2 points per
class, a shared covariance for LDA and one per class for QDA, random or estimated priors,
sometimes shrinkage), fitted with refml, plus random query points.  Everything the check
compares against is computed here, independently of the library: the class means and the
covariances from their definitions (1/(N - K) or 1/N pooled, 1/n_k per class, then
(1 - r) Sigma + r I), and inverses and determinants by Gauss-Jordan elimination with partial
pivoting (the library uses Cholesky).

- LDA ([MATH412], "Fisher's discriminant"): the Bayes posterior of the first line,
  (1 + (1 - pi)/pi * exp(-q_0/2) / exp(-q_1/2))^{-1} with q_k = (x - mu_k)' Sigma^{-1} (x - mu_k),
  equals sigma(w'x + b) with w = Sigma^{-1}(mu_1 - mu_0) and the intercept derived in
  refml.discriminant, b = -1/2 (mu_1 + mu_0)' Sigma^{-1} (mu_1 - mu_0) + log(pi / (1 - pi))
  (the print drops the minus sign in the exponent: with it, the check fails); the library's
  ``coef_``, ``intercept_``, ``means_``, ``covariance_`` and ``predict_proba`` match.
- QDA ([IML-L5] section 4.2, with C_1 = classes_[1], C_2 = classes_[0]): with the printed
  b = 2 log(p_1 d_1 / ((1 - p_1) d_2)), d_i = |Sigma_i|^{-1/2},
  b~ = b - mu_1' Sigma_1^{-1} mu_1 + mu_2' Sigma_2^{-1} mu_2, w = 2 (Sigma_2^{-1} mu_2 -
  Sigma_1^{-1} mu_1), M = Sigma_2^{-1} - Sigma_1^{-1}, the library's ``decision_function``
  equals 1/2 (b~ - w'x + x'Mx) (the log posterior odds; the lecture's form is twice it),
  ``predict`` is C_1 exactly where the form is positive (away from the boundary), and
  ``predict_proba`` is sigma of the half form; ``means_`` and ``covariance_`` (1/n_k) match.

The slack is the tolerance minus the largest discrepancy, relative to the size of the terms.
"""

import math

from ._harness import Theorem

TOLERANCE = 1e-8


# --- independent linear algebra ---------------------------------------------------------------

def gauss_jordan(A):
    """(A^{-1}, det A) by Gauss-Jordan elimination with partial pivoting."""
    n = len(A)
    M = [list(map(float, row)) + [1.0 if i == j else 0.0 for j in range(n)]
         for i, row in enumerate(A)]
    det = 1.0
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(M[r][col]))
        if pivot != col:
            M[col], M[pivot] = M[pivot], M[col]
            det = -det
        det *= M[col][col]
        top = M[col][col]
        M[col] = [v / top for v in M[col]]
        for r in range(n):
            if r != col and M[r][col] != 0.0:
                factor = M[r][col]
                M[r] = [v - factor * p for v, p in zip(M[r], M[col])]
    return [row[n:] for row in M], det


def mv(A, v):
    return [sum(a * x for a, x in zip(row, v)) for row in A]


def dot(u, v):
    return sum(a * b for a, b in zip(u, v))


def sigma(z):
    return 1.0 / (1.0 + math.exp(-z)) if z >= 0 else math.exp(z) / (1.0 + math.exp(z))


def mean(rows):
    return [sum(column) / len(rows) for column in zip(*rows)]


def scatter(rows, mu):
    d = len(mu)
    S = [[0.0] * d for _ in range(d)]
    for x in rows:
        c = [a - m for a, m in zip(x, mu)]
        for j in range(d):
            for l in range(d):
                S[j][l] += c[j] * c[l]
    return S


def shrunk(S, divisor, r):
    return [[(1 - r) * v / divisor + (r if j == l else 0.0) for l, v in enumerate(row)]
            for j, row in enumerate(S)]


def relative_gap(found, expected, scale=1.0):
    return abs(found - expected) / max(1.0, abs(expected), scale)


def max_matrix_gap(found, expected):
    return max(relative_gap(float(a), b) for fr, er in zip(found, expected)
               for a, b in zip(fr, er))


# --- instances --------------------------------------------------------------------------------

def gaussian_two_class(rng, shared):
    """Two Gaussian classes (covariance A A' + 0.3 I), shuffled, with query points."""
    d = 1 + rng.randbelow(4)

    def mixing():
        return [[rng.normal() for _ in range(d)] for _ in range(d)]

    A_0 = mixing()
    A_1 = A_0 if shared else mixing()
    rows, codes = [], []
    for code, A in ((0, A_0), (1, A_1)):
        mu = [1.5 * rng.normal() for _ in range(d)]
        for _ in range(d + 2 + rng.randbelow(12)):
            z = [rng.normal() for _ in range(d)]
            rows.append([m + a + math.sqrt(0.3) * rng.normal()
                         for m, a in zip(mu, mv(A, z))])
            codes.append(code)
    order = rng.permutation(len(rows))
    names = ["no", "yes"] if rng.random() < 0.3 else [-1, 1]
    X = [rows[i] for i in order]
    y = [names[codes[i]] for i in order]
    queries = [[3.0 * rng.normal() for _ in range(d)] for _ in range(6)] + X[:2]
    pi = 0.05 + 0.9 * rng.random()
    priors = None if rng.random() < 0.5 else [1.0 - pi, pi]
    reg_param = 0.0 if rng.random() < 0.7 else 0.5 * rng.random()
    return {"X": X, "y": y, "queries": queries, "priors": priors, "reg_param": reg_param,
            "covariance": "pooled" if rng.random() < 0.5 else "mle"}


def class_rows(instance, classes):
    return [[x for x, label in zip(instance["X"], instance["y"]) if label == c]
            for c in classes]


# --- LDA: the posterior in logistic form --------------------------------------------------------

def check_lda(instance):
    import refml

    model = refml.LinearDiscriminantAnalysis(covariance=instance["covariance"],
                                             priors=instance["priors"],
                                             reg_param=instance["reg_param"])
    model.fit(instance["X"], instance["y"])
    rows_0, rows_1 = class_rows(instance, model.classes_)
    mu_0, mu_1 = mean(rows_0), mean(rows_1)
    n = len(instance["X"])
    S = [[a + b for a, b in zip(r0, r1)]
         for r0, r1 in zip(scatter(rows_0, mu_0), scatter(rows_1, mu_1))]
    Sigma = shrunk(S, n - 2 if instance["covariance"] == "pooled" else n, instance["reg_param"])
    pi = instance["priors"][1] if instance["priors"] else len(rows_1) / n
    inverse, _ = gauss_jordan(Sigma)
    w = mv(inverse, [a - b for a, b in zip(mu_1, mu_0)])          # Sigma^{-1}(mu_1 - mu_0)
    b = -0.5 * dot([a + c for a, c in zip(mu_1, mu_0)], w) + math.log(pi / (1 - pi))
    gaps = [max_matrix_gap(model.means_, [mu_0, mu_1]),
            max_matrix_gap(model.covariance_, Sigma),
            max(relative_gap(a, e) for a, e in zip(model.coef_[0], w)),
            relative_gap(model.intercept_[0], b)]
    for x, p in zip(instance["queries"], model.predict_proba(instance["queries"])):
        q_0 = dot([a - m for a, m in zip(x, mu_0)], mv(inverse, [a - m for a, m in zip(x, mu_0)]))
        q_1 = dot([a - m for a, m in zip(x, mu_1)], mv(inverse, [a - m for a, m in zip(x, mu_1)]))
        # Bayes: (1 + (1 - pi)/pi exp(-q_0/2) / exp(-q_1/2))^{-1}, in logs.
        log_ratio = math.log((1 - pi) / pi) - 0.5 * q_0 + 0.5 * q_1
        posterior = sigma(-log_ratio)
        gaps.append(abs(sigma(dot(w, x) + b) - posterior))
        gaps.append(abs(p[1] - posterior))
    return TOLERANCE - max(gaps)


# --- QDA: the printed quadratic form --------------------------------------------------------------

def check_qda(instance):
    import refml

    model = refml.QuadraticDiscriminantAnalysis(priors=instance["priors"],
                                                reg_param=instance["reg_param"])
    model.fit(instance["X"], instance["y"])
    rows_2, rows_1 = class_rows(instance, model.classes_)      # C_2 = classes_[0]
    mu_1, mu_2 = mean(rows_1), mean(rows_2)
    r = instance["reg_param"]
    Sigma_1 = shrunk(scatter(rows_1, mu_1), len(rows_1), r)
    Sigma_2 = shrunk(scatter(rows_2, mu_2), len(rows_2), r)
    n = len(instance["X"])
    p_1 = instance["priors"][1] if instance["priors"] else len(rows_1) / n
    P_1, det_1 = gauss_jordan(Sigma_1)                          # Sigma_1^{-1}, |Sigma_1|
    P_2, det_2 = gauss_jordan(Sigma_2)
    d_1, d_2 = det_1 ** -0.5, det_2 ** -0.5
    b = 2 * math.log(p_1 * d_1 / ((1 - p_1) * d_2))
    b_tilde = b - dot(mu_1, mv(P_1, mu_1)) + dot(mu_2, mv(P_2, mu_2))
    w = [2 * (u - v) for u, v in zip(mv(P_2, mu_2), mv(P_1, mu_1))]
    M = [[u - v for u, v in zip(r2, r1)] for r2, r1 in zip(P_2, P_1)]
    gaps = [max_matrix_gap(model.means_, [mu_2, mu_1]),
            max_matrix_gap(model.covariance_[0], Sigma_2),
            max_matrix_gap(model.covariance_[1], Sigma_1)]
    queries = instance["queries"]
    decisions = model.decision_function(queries)
    labels = model.predict(queries)
    probabilities = model.predict_proba(queries)
    for x, decision, label, p in zip(queries, decisions, labels, probabilities):
        terms = [b_tilde, -dot(w, x), dot(x, mv(M, x))]
        form = terms[0] + terms[1] + terms[2]                  # b~ - w'x + x'Mx
        scale = sum(abs(t) for t in terms)
        gaps.append(relative_gap(decision, 0.5 * form, scale))
        if abs(form) > 1e-6 * max(1.0, scale) and (label == model.classes_[1]) != (form > 0):
            gaps.append(math.inf)
        gaps.append(abs(p[1] - sigma(0.5 * form)))
    return TOLERANCE - max(gaps)


def describe(instance):
    return (f"X={instance['X']!r} y={instance['y']!r} queries={instance['queries']!r} "
            f"priors={instance['priors']!r} reg_param={instance['reg_param']!r} "
            f"covariance={instance['covariance']!r}")


def size(instance):
    return len(instance["X"]) * len(instance["X"][0])


# --- Equal covariances: the Bayes boundary is a line ([IML-L5] section 4.2, case 1-2) ----------

def make_equal_covariance(rng):
    """Two Gaussian classes with one shared covariance A A' + 0.3 I, random priors."""
    d = 1 + rng.randbelow(4)
    A = [[rng.normal() for _ in range(d)] for _ in range(d)]
    Sigma = [[sum(A[i][k] * A[j][k] for k in range(d)) + (0.3 if i == j else 0.0)
              for j in range(d)] for i in range(d)]
    pi = 0.05 + 0.9 * rng.random()
    points = [[2.0 * rng.normal() for _ in range(d)] for _ in range(6)]
    return {"priors": [1.0 - pi, pi], "means": [[1.5 * rng.normal() for _ in range(d)]
                                                 for _ in range(2)],
            "covariance": Sigma, "points": points}


def check_equal_covariance(instance):
    """The log posterior odds f(x) = log P(1|x) - log P(0|x) (from the library's log scores
    log pi_k + log N(x; mu_k, Sigma)) of the library's
    GaussianClasses is affine: f(a) + f(b) - 2 f((a + b)/2) = 0 for every pair of points
    (so {f = 0}, the Bayes boundary, is a hyperplane); slack 1e-9 (1 + |f| terms) minus the
    largest second difference."""
    import refml

    d = refml.GaussianClasses(instance["priors"], instance["means"],
                              [instance["covariance"]] * 2)

    def log_odds(x):          # log pi_1 p_1(x) - log pi_0 p_0(x), never a log of 0
        scores = d.log_scores(x)
        return scores[1] - scores[0]

    slack = math.inf
    points = instance["points"]
    for a, b in zip(points, points[1:]):
        middle = [(u + v) / 2.0 for u, v in zip(a, b)]
        fa, fb, fm = log_odds(a), log_odds(b), log_odds(middle)
        scale = 1.0 + abs(fa) + abs(fb) + 2.0 * abs(fm)
        slack = min(slack, 1e-9 * scale - abs(fa + fb - 2.0 * fm))
    return slack


THEOREMS = [
    Theorem(number=6, title="LDA posterior = sigma(w'x + b), corrected intercept",
            source="[MATH412] Fisher discriminant; [Yan] LDA", make_instance=lambda rng:
            gaussian_two_class(rng, shared=True), check=check_lda, size=size,
            describe=describe),
    Theorem(number=6, title="QDA decision = (b~ - w'x + x'Mx)/2",
            source="[IML-L5] sec. 4.2", make_instance=lambda rng: gaussian_two_class(rng, False),
            check=check_qda, size=size, describe=describe),
    Theorem(number=6, title="Equal covariances: the Bayes boundary is a hyperplane",
            source="[IML-L5] sec. 4.2 (cases 1, 2); [Yan] LDA",
            make_instance=make_equal_covariance, check=check_equal_covariance,
            size=lambda inst: len(inst["points"][0]),
            describe=lambda inst: repr(inst)),
]
