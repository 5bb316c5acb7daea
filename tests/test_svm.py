"""SVC (refml.svm / refml_fast.svm): hard-margin solutions known by geometry, the lecture's
primal recovery, the soft margin and its bounded support vectors, the kernels, the KKT
measures, an independent solution of the dual by projected gradient, the hard margin on
non-separable data, bad hyper-parameters, and the max-margin separator through the origin."""

import importlib
import math
import random
import warnings

import pytest

from tests.helpers import as_list, compiled_and_plain

# One feature: the widest gap is between 1 and 3, so beta = 1, beta_0 = -2, margin 1; by
# KKT alpha = 1/2 on x = 1 and x = 3 (beta = sum alpha y x = -1/2 + 3/2, sum alpha = ||beta||^2).
LINE_X = [[0.0], [1.0], [3.0], [4.0]]
LINE_Y = [0, 0, 1, 1]
# Two columns of points: x1 = 0 (class "left") and x1 = 2 ("right"): beta = (1, 0), beta_0 = -1.
COLUMNS_X = [[0.0, 0.0], [0.0, 1.0], [0.0, 2.0], [2.0, 0.0], [2.0, 1.0], [2.0, 2.0]]
COLUMNS_Y = ["left"] * 3 + ["right"] * 3
# XOR: not linearly separable; separable in the rbf and degree-2 poly feature spaces.
XOR_X = [[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]]
XOR_Y = [0, 0, 1, 1]
# Equal points with opposite labels: no hyperplane separates them.
TWIN_X = [[1.0, 1.0], [1.0, 1.0]]
TWIN_Y = [0, 1]
# LINE with a class-1 point at 0.5, inside class 0: soft margin only.  With C = 1 it ends
# with alpha = C (a bounded support vector on the wrong side).
OVERLAP_X = [[0.0], [1.0], [3.0], [4.0], [0.5]]
OVERLAP_Y = [0, 0, 1, 1, 1]


def fit_quietly(model, X, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return model.fit(X, y)


def close(a, b, tolerance=1e-9):
    return math.isclose(a, b, rel_tol=tolerance, abs_tol=tolerance)


def random_problem(seed, n=12, d=3):
    rng = random.Random(seed)
    X = [[rng.gauss(0, 1) for _ in range(d)] for _ in range(n)]
    y = [1 if x[0] + 0.8 * rng.gauss(0, 1) > 0 else 0 for x in X]
    y[0], y[1] = 0, 1
    return X, y


# --- hard margin, by geometry ------------------------------------------------------------------

def test_line_hard_margin_matches_the_hand_solution(lib):
    model = lib.SVC(C=float("inf")).fit(LINE_X, LINE_Y)
    assert as_list(model.coef_) == [1.0] and model.intercept_ == -2.0
    assert model.margin_ == 1.0
    assert as_list(model.support_) == [1, 2]
    assert as_list(model.dual_coef_) == [-0.5, 0.5]          # alpha_i y_i, classes_[0] -> -1
    assert as_list(model.support_vectors_) == [[1.0], [3.0]]
    assert model.converged_ and model.kkt_violation_ == 0.0
    assert model.primal_objective_ == model.dual_objective_ == 0.5


def test_columns_hard_margin_and_string_labels(lib):
    model = lib.SVC(C=float("inf"), tol=1e-9).fit(COLUMNS_X, COLUMNS_Y)
    beta = as_list(model.coef_)
    assert close(beta[0], 1.0) and close(beta[1], 0.0, 1e-9)
    assert close(model.intercept_, -1.0) and close(model.margin_, 1.0)
    assert as_list(model.predict([[0.9, 5.0], [1.1, -5.0]])) == ["left", "right"]
    for index, coefficient in zip(as_list(model.support_), as_list(model.dual_coef_)):
        assert (coefficient < 0) == (COLUMNS_Y[index] == "left")


def test_primal_recovery_follows_the_lecture(lib):
    X, y = random_problem(3, n=14, d=2)
    X = [[x[0] + (3.0 if label else -3.0), x[1]] for x, label in zip(X, y)]   # separable
    model = lib.SVC(C=float("inf"), tol=1e-8).fit(X, y)
    signs = [1.0 if label else -1.0 for label in y]
    beta = [sum(a * X[i][j] for a, i in zip(as_list(model.dual_coef_), as_list(model.support_)))
            for j in range(2)]
    assert all(close(b, c, 1e-12) for b, c in zip(beta, as_list(model.coef_)))
    # beta_0 = y_i - beta'x_i on every support vector (all on the margin when C = inf).
    for i in as_list(model.support_):
        value = signs[i] - sum(b * x for b, x in zip(model.coef_, X[i]))
        assert abs(value - model.intercept_) <= 1e-7
    # The closest points have y f(x) = 1, so their distance to the hyperplane is 1/||beta||.
    functional = [s * (sum(b * x for b, x in zip(model.coef_, row)) + model.intercept_)
                  for s, row in zip(signs, X)]
    norm = math.sqrt(sum(b * b for b in model.coef_))
    assert close(min(functional), 1.0, 1e-7)
    assert close(model.margin_, 1.0 / norm, 1e-12)
    assert close(min(functional) / norm, model.margin_, 1e-7)


# --- soft margin -------------------------------------------------------------------------------

def test_soft_margin_bounded_support_vector_and_the_intercept_rule(lib):
    model = lib.SVC(C=1.0, tol=1e-9).fit(OVERLAP_X, OVERLAP_Y)
    alpha = dict(zip(as_list(model.support_), [abs(a) for a in as_list(model.dual_coef_)]))
    assert close(alpha[4], 1.0)                           # the intruder sits at alpha = C
    f = as_list(model.decision_function(OVERLAP_X))
    assert f[4] < 0                                       # ... on the wrong side
    # "beta_0 = y_i - beta'x_i for any support vector" holds on the margin ones (0 < alpha < C)
    # but not on the bounded one, whose y_i f(x_i) < 1: the lecture's rule is the C = inf case.
    for i, a in alpha.items():
        value = (1.0 if OVERLAP_Y[i] else -1.0) - model.coef_[0] * OVERLAP_X[i][0]
        assert (abs(value - model.intercept_) <= 1e-7) == (a < 1.0 - 1e-9)
    assert model.kkt_violation_ <= 1e-9


def test_duplicate_points_with_opposite_labels_soft_margin(lib):
    model = lib.SVC(C=2.0).fit(TWIN_X, TWIN_Y)
    assert as_list(model.dual_coef_) == [-2.0, 2.0]       # both multipliers at C
    assert as_list(model.coef_) == [0.0, 0.0] and model.margin_ == math.inf
    assert model.intercept_ == 0.0 and model.converged_
    # f = 0 everywhere; sign(0) = +1 gives classes_[1].
    assert as_list(model.predict([[1.0, 1.0], [7.0, -3.0]])) == [1, 1]


@pytest.mark.parametrize("kernel", ["linear", "rbf", "poly"])
def test_kkt_measures_stay_within_tol(lib, kernel):
    for seed in range(3):
        X, y = random_problem(seed)
        model = lib.SVC(C=0.7, kernel=kernel, tol=1e-4, degree=2, coef0=1.0).fit(X, y)
        assert model.converged_
        assert set(model.kkt_violations_) == {"primal feasibility", "dual feasibility",
                                              "complementary slackness", "stationarity"}
        assert model.kkt_violation_ <= 1e-4 + 1e-9
        assert model.kkt_violation_ == max(model.kkt_violations_.values())
        assert model.primal_objective_ >= model.dual_objective_ - 1e-9


def test_kkt_measure_sees_a_violation(lib):
    # Stopped after one pair step, far from the optimum, the measure says so.
    X, y = random_problem(1, n=20)
    model = fit_quietly(lib.SVC(C=1.0, max_iter=1), X, y)
    assert not model.converged_ and model.n_iter_ == 1
    assert model.kkt_violation_ > 0.1


# --- an independent solution of the dual ---------------------------------------------------------

def project(v, y, C):
    """The point of {alpha : sum alpha_i y_i = 0, 0 <= alpha_i <= C} nearest v:
    alpha_i = clip(v_i - theta y_i, 0, C), with theta found by bisection (monotone in theta)."""
    def balance(theta):
        return sum(min(C, max(0.0, vi - theta * yi)) * yi for vi, yi in zip(v, y))
    low, high = -max(abs(vi) for vi in v) - C - 1.0, max(abs(vi) for vi in v) + C + 1.0
    for _ in range(64):
        middle = (low + high) / 2
        if balance(middle) > 0:
            low = middle
        else:
            high = middle
    return [min(C, max(0.0, vi - high * yi)) for vi, yi in zip(v, y)]


def dual_by_projected_gradient(X, y, C, iterations=3000):
    """max sum alpha - 1/2 alpha'Q alpha over the dual's feasible set, by accelerated projected
    gradient (FISTA) with step 1/L, L = trace Q >= lambda_max(Q)."""
    n = len(X)
    Q = [[y[i] * y[j] * sum(a * b for a, b in zip(X[i], X[j])) for j in range(n)]
         for i in range(n)]
    step = 1.0 / sum(Q[i][i] for i in range(n))
    alpha = previous = [0.0] * n
    t = 1.0
    for _ in range(iterations):
        t_next = (1 + math.sqrt(1 + 4 * t * t)) / 2
        z = [a + (t - 1) / t_next * (a - p) for a, p in zip(alpha, previous)]
        gradient = [1.0 - sum(Q[i][j] * z[j] for j in range(n)) for i in range(n)]
        previous, alpha = alpha, project([zi + step * g for zi, g in zip(z, gradient)], y, C)
        t = t_next
    quadratic = sum(alpha[i] * Q[i][j] * alpha[j] for i in range(n) for j in range(n))
    return sum(alpha) - quadratic / 2


@pytest.mark.parametrize("seed", range(3))
def test_dual_objective_agrees_with_projected_gradient(seed):
    import refml

    X, y = random_problem(10 + seed, n=8, d=2)
    signs = [1.0 if label else -1.0 for label in y]
    model = refml.SVC(C=1.0, tol=1e-7).fit(X, y)
    independent = dual_by_projected_gradient(X, signs, 1.0)
    # Weak duality makes the SVC's primal value an upper bound of any feasible dual value;
    # FISTA's error after k = 3000 steps is below 2 L ||alpha*||^2 / k^2 < 1e-4 here
    # (L = trace Q < 40, ||alpha*||^2 <= n C^2 = 8).
    assert independent <= model.primal_objective_ + 1e-9
    assert abs(model.dual_objective_ - independent) <= 1e-4
    assert model.dual_objective_ >= independent - 1e-6


# --- kernels -----------------------------------------------------------------------------------

@pytest.mark.parametrize("kernel, options", [("rbf", {"gamma": 2.0}),
                                             ("poly", {"degree": 2, "coef0": 1.0, "gamma": 1.0})])
def test_kernels_separate_xor_with_the_hard_margin(lib, kernel, options):
    model = lib.SVC(C=float("inf"), kernel=kernel, **options).fit(XOR_X, XOR_Y)
    assert model.converged_ and as_list(model.predict(XOR_X)) == XOR_Y
    assert as_list(model.support_) == [0, 1, 2, 3]
    with pytest.raises(AttributeError):
        model.coef_


def test_kernel_values_and_gamma_scale():
    from refml.svm import smo as _smo

    assert _smo.kernel_value("rbf", [1.0, 2.0], [0.0, 0.0], 0.5, 3, 0.0) == math.exp(-2.5)
    assert _smo.kernel_value("poly", [1.0, 2.0], [3.0, 1.0], 0.5, 3, 1.0) == 3.5 ** 3
    assert _smo.kernel_value("linear", [1.0, 2.0], [3.0, 1.0], 0.5, 3, 1.0) == 5.0
    import refml

    # Entries 0, 1, 2, 3: mean 1.5, variance 1.25, d = 2: gamma = 1 / 2.5.
    model = refml.SVC(kernel="rbf").fit([[0.0, 1.0], [2.0, 3.0]], [0, 1])
    assert model.gamma_ == 0.4
    assert refml.SVC(kernel="rbf").fit([[1.0], [1.0]], [0, 1]).gamma_ == 1.0


# --- the hard margin on data that no hyperplane separates ----------------------------------------

def test_hard_margin_on_twins_stops_on_the_unbounded_dual(lib):
    import refml

    with pytest.warns(refml.ConvergenceWarning, match="unbounded"):
        model = lib.SVC(C=float("inf")).fit(TWIN_X, TWIN_Y)
    assert not model.converged_ and model.n_iter_ == 0
    assert len(as_list(model.predict(TWIN_X))) == 2          # still a usable model


def test_hard_margin_on_xor_stops_at_max_iter_with_a_warning(lib):
    import refml

    with pytest.warns(refml.ConvergenceWarning, match="linear_separability"):
        model = lib.SVC(C=float("inf"), max_iter=300).fit(XOR_X, XOR_Y)
    assert not model.converged_ and model.n_iter_ == 300
    assert model.kkt_violation_ > 0.5


# --- hyper-parameters --------------------------------------------------------------------------

@pytest.mark.parametrize("params, name", [
    ({"C": 0.0}, "C"), ({"C": -1.0}, "C"), ({"C": float("nan")}, "C"), ({"C": "1"}, "C"),
    ({"kernel": "sigmoid"}, "kernel"), ({"gamma": 0.0}, "gamma"), ({"gamma": "Auto"}, "gamma"),
    ({"gamma": float("inf")}, "gamma"), ({"degree": 0}, "degree"), ({"degree": 2.0}, "degree"),
    ({"coef0": float("inf")}, "coef0"), ({"tol": 0.0}, "tol"), ({"max_iter": 0}, "max_iter")])
def test_bad_hyper_parameters_fail_at_fit_naming_them(lib, params, name):
    model = lib.SVC(**params)                              # __init__ only stores
    with pytest.raises(ValueError, match=f"parameter {name}="):
        model.fit(LINE_X, LINE_Y)
    assert not hasattr(model, "support_")


def test_gamma_auto_is_one_over_the_features_as_in_scikit_learn(lib):
    """gamma="auto" is 1 / d (scikit-learn's), the same model as that number given."""
    X = [[0.0, 1.0, 2.0], [1.0, 0.5, 0.0], [2.0, 2.5, 1.0], [3.0, 0.0, 2.5], [0.5, 3.0, 0.5],
         [2.5, 1.5, 3.0]]
    y = [0, 0, 1, 1, 0, 1]
    auto = lib.SVC(kernel="rbf", gamma="auto").fit(X, y)
    given = lib.SVC(kernel="rbf", gamma=1.0 / 3.0).fit(X, y)
    assert auto.gamma_ == 1.0 / 3.0
    assert list(auto.dual_coef_) == list(given.dual_coef_)
    assert list(auto.predict(X)) == list(given.predict(X))


def test_params_and_repr(lib):
    model = lib.SVC(C=float("inf"), kernel="rbf")
    assert model.get_params()["C"] == float("inf")
    assert repr(model) == "SVC(C=inf, kernel='rbf')"


# --- the separator with the largest margin through the origin ------------------------------------

def test_max_margin_separator_beats_every_direction_in_the_plane(lib):
    svm = importlib.import_module(f"{lib.__name__}.svm")
    X, y = random_problem(5, n=10, d=2)
    X = [[x[0] + (2.0 if label else -2.0), x[1]] for x, label in zip(X, y)]
    signs = [1.0 if label else -1.0 for label in y]
    theta = as_list(svm.max_margin_separator(X, y))

    def delta(direction):
        norm = math.hypot(*direction)
        closest = min(s * (direction[0] * x[0] + direction[1] * x[1]) for s, x in zip(signs, X))
        return closest / norm

    best = max(delta((math.cos(k * math.pi / 18000), math.sin(k * math.pi / 18000)))
               for k in range(36000))
    assert delta(theta) >= best - 1e-6


def test_max_margin_separator_with_intercept_and_without_separator(lib):
    svm = importlib.import_module(f"{lib.__name__}.svm")
    # Rows [1, x]: the max-margin direction on (1,0) (1,1) vs (1,3) (1,4) is (-2, 1).
    theta = as_list(svm.max_margin_separator(LINE_X, LINE_Y, fit_intercept=True))
    assert close(theta[0], -2.0, 1e-5) and close(theta[1], 1.0, 1e-5)
    with pytest.raises(ValueError, match="not linearly separable through the origin"):
        svm.max_margin_separator(LINE_X, LINE_Y)           # 0 and 1 vs 3 and 4, no bias
    with pytest.raises(ValueError, match="not linearly separable"):
        svm.max_margin_separator(XOR_X, XOR_Y, fit_intercept=True)


def test_max_margin_separator_when_smo_stalls_on_badly_scaled_rows(lib):
    """Rows [1, x] with x near -300 to -590 (conformance 4 at --seed 21): SMO needs about 4
    million steps for these 8 points, so it stops at max_iter short of a separator.  The
    support sets of 1 and 2 rows are then tried exactly: the optimum has z_s'theta = 1 on its
    support, alpha >= 0 and every z_i'theta >= 1, checked in rationals."""
    from fractions import Fraction

    svm = importlib.import_module(f"{lib.__name__}.svm")
    X = [[-342.0144181652818], [-303.27519127691045], [-324.4902992440531],
         [-369.44583370768595], [-328.45402478381226], [-557.2922488451222],
         [-293.68781520709473], [-587.1106685025748]]
    y = ["neg", "neg", "neg", "neg", "neg", "pos", "neg", "pos"]
    theta = as_list(svm.max_margin_separator(X, y, fit_intercept=True))
    margins = [(1 if label == "pos" else -1) * (Fraction(theta[0]) + Fraction(theta[1]) * x[0])
               for x, label in zip(X, y)]
    assert min(margins) > 0
    # Both constraints of the two rows nearest the gap are active: theta rounds their exact
    # solution (z_s'theta = 1 for x = -557.29... (pos) and x = -369.45... (neg)).
    assert abs(min(margins) - 1) < 1e-12
    assert sorted(range(8), key=lambda i: margins[i])[:2] == [3, 5]
    import refml
    if lib is not refml:        # (refml's SMO takes about 3 s on its 100,000 steps here)
        assert theta == as_list(refml.svm.max_margin_separator(X, y, fit_intercept=True))
        assert 8.3e6 < lib.mistake_bound(X, y, fit_intercept=True) < 8.5e6


def test_mistake_bound_without_theta_is_the_max_margin_bound(lib):
    # Rows x~ = [1, x]: R^2 = ||[1, 4]||^2 = 17; the max-margin theta is [-2, 1] with
    # min y theta'x~ = 1, so delta^2 = 1/5 and the bound is 85 (exact: KKT solved in rationals).
    assert close(lib.mistake_bound(LINE_X, LINE_Y, fit_intercept=True), 85.0, 1e-12)
    with pytest.raises(ValueError, match="^no separator: the rows are not linearly separable "
                                         "through the origin .*; pass theta$"):
        lib.mistake_bound(LINE_X, LINE_Y, fit_intercept=False)   # none through the origin
    # x = 0 (class 0) and x = 2 (class 1): z = [-1, 0], [1, 2].  The perceptron ends at
    # theta = [-1, 2] (bound R^2/delta^2 = 5 / (1/5) = 25); the max margin is at [-1, 1]
    # (both constraints active, ||theta||^2 = 2, delta^2 = 1/2): 10.
    X, y = [[0.0], [2.0]], [0, 1]
    perceptron = lib.Perceptron(tol=None).fit(X, y)
    own = [perceptron.intercept_] + [float(v) for v in perceptron.coef_]
    assert own == [-1.0, 2.0]
    assert close(lib.mistake_bound(X, y, own, fit_intercept=True), 25.0, 1e-12)
    assert close(lib.mistake_bound(X, y, fit_intercept=True), 10.0, 1e-12)


@pytest.mark.fast
@pytest.mark.parametrize("slots", [2, 3, 7])
def test_fast_row_cache_evictions_change_nothing(monkeypatch, slots):
    import refml
    import refml_fast
    from refml_fast.svm import kernel_rows as _kernel_rows

    X, y = random_problem(21, n=60, d=3)
    monkeypatch.setattr(_kernel_rows, "CACHE_BYTES", 8 * 60 * slots)      # room for `slots` rows
    assert _kernel_rows.row_cache(60).shape == (slots, 60)
    for kernel in ("linear", "rbf"):
        reference = refml.SVC(C=5.0, kernel=kernel, tol=1e-5).fit(X, y)
        fast = refml_fast.SVC(C=5.0, kernel=kernel, tol=1e-5).fit(X, y)
        assert fast.support_.tolist() == reference.support_
        assert fast.dual_coef_.tolist() == reference.dual_coef_
        assert (fast.intercept_, fast.n_iter_) == (reference.intercept_, reference.n_iter_)


def test_overflowing_kernels_raise_a_clear_error(lib):
    # x'x overflows for entries near 1e300 (and Var(X) too, which gamma="scale" needs).
    X, y = [[1e300, 0.0], [-1e300, 1.0], [2e300, 0.0], [-3e300, 1.0]], [1, 0, 1, 0]
    for kernel in ("linear", "rbf", "poly"):
        model = lib.SVC(kernel=kernel)
        with pytest.raises(ValueError, match="overflow"):
            model.fit(X, y)
        assert not hasattr(model, "support_")
    # The rbf kernel itself stays in [0, 1]: with a given gamma it works.
    model = fit_quietly(lib.SVC(kernel="rbf", gamma=1.0), X, y)
    assert as_list(model.predict(X)) == y


def test_diverging_dual_with_an_indefinite_kernel_raises_the_same_clear_error(lib):
    import refml

    # poly with coef0 = -1 is not positive semi-definite: with C = inf the dual is unbounded
    # and the multipliers grow until f overflows; both packages say so at the same point.
    rng = random.Random(3)
    X = [[rng.gauss(0, 1), rng.gauss(0, 1)] for _ in range(16)]
    y = [i % 2 for i in range(16)]
    params = {"C": float("inf"), "kernel": "poly", "degree": 3, "coef0": -1.0, "gamma": 0.5,
              "max_iter": 2000}
    messages = []
    for package in (refml, lib):
        with pytest.raises(ValueError, match="SMO diverged") as info:
            fit_quietly(package.SVC(**params), X, y)
        messages.append(str(info.value))
    assert messages[0] == messages[1]


def test_diverged_multipliers_with_finite_scores_raise_rather_than_report_nan(lib):
    """A run stopped at max_iter with multipliers near 1e290: every f(x_i) is finite but
    ||beta||^2 = sum alpha_i y_i f0(x_i) overflows (inf - inf), which made margin_ inf and
    both objectives NaN.  It is the same divergence: both packages raise the same error."""
    import refml

    X = [[2.0, -2.0, 2.0], [0.0, -1.0, 0.0], [-1.0, -1.0, -1.0], [2.0, 1.0, 2.0],
         [2.0, 2.0, 2.0], [1.0, -2.0, -2.0], [0.0, 1.0, 2.0]]
    y = [1, -2, 1, -2, -2, -2, 1]
    params = {"C": float("inf"), "kernel": "poly", "gamma": "scale", "degree": 3,
              "coef0": -1.0, "tol": 1e-5, "max_iter": 2000}
    messages = []
    for package in (refml, lib):
        model = package.SVC(**params)
        with pytest.raises(ValueError, match="SMO diverged") as info:
            fit_quietly(model, X, y)
        messages.append(str(info.value))
    assert messages[0] == messages[1]


@pytest.mark.parametrize("kernel", ["linear", "rbf"])
def test_hard_margin_is_exact_kkt_point(lib, kernel):
    """C = inf: SMO's support set, then the KKT equalities solved exactly: every functional
    margin >= 1 - 1e-9, = 1 on the support vectors, alpha >= 0 with sum alpha_i y_i = 0
    (the optimality conditions of the hard margin, so the lecture's hyperplane itself)."""
    from refml.core.random import Generator

    rng = Generator(17)
    for _ in range(6):
        X, y = [], []
        while len(X) < 40:
            x = [rng.normal(), rng.normal()]
            score = (x[0] - 2 * x[1] + 0.3) if kernel == "linear" else (x[0] ** 2 + x[1] ** 2
                                                                        - 1.2)
            if abs(score) > 0.3:
                X.append(x)
                y.append(int(score > 0))
        model = lib.SVC(C=float("inf"), kernel=kernel, gamma=1.0).fit(X, y)
        signs = [1 if label else -1 for label in y]
        margins = [s * f for s, f in zip(signs, as_list(model.decision_function(X)))]
        assert min(margins) >= 1.0 - 1e-9
        for index in as_list(model.support_):
            assert abs(margins[index] - 1.0) <= 1e-9
        dual = as_list(model.dual_coef_)          # alpha_i y_i
        assert all(a * signs[i] > 0 for a, i in zip(dual, as_list(model.support_)))
        assert abs(sum(dual)) <= 1e-9 * max(abs(a) for a in dual)


@pytest.mark.fast
def test_solver_kernels_run_as_plain_python_with_the_same_result():
    """NUMBA_DISABLE_JIT=1 runs the SMO's kernels as Python (docs/style.md rule 8), its
    keyed scans and compacted rows included: the same steps and floats as compiled."""
    code = ("import numpy as np, refml_fast\n"
            "rng = np.random.default_rng(3)\n"
            "X = rng.normal(size=(120, 6))\n"
            "y = (X[:, 0] + 0.5 * rng.normal(size=120) > 0).astype(int)\n"
            "for kernel in ('linear', 'rbf', 'poly'):\n"
            "    m = refml_fast.SVC(kernel=kernel, C=3.0).fit(X, y)\n"
            "    print(m.n_iter_, m.support_.tolist(), m.dual_coef_.tolist(),\n"
            "          m.intercept_, m.predict(X[:40]).tolist())\n")
    compiled, plain = compiled_and_plain(code)
    assert plain == compiled and compiled.count("\n") == 3


@pytest.mark.fast
def test_a_fit_reuses_the_cache_mapping_an_earlier_fit_gave_back(monkeypatch):
    """The row cache's mapping goes back to ``kernel_rows`` after a fit and the next fit
    that fits in it takes it (stale rows in it change nothing: the same multipliers as a
    fit on a fresh cache); a larger fit maps its own, which then becomes the spare."""
    import mmap

    import numpy as np

    import refml_fast
    from refml_fast.svm import kernel_rows as _kernel_rows

    if not hasattr(mmap, "MADV_FREE"):
        pytest.skip("no MADV_FREE on this platform: no spare mapping is kept")
    monkeypatch.setattr(_kernel_rows, "HUGE_FROM", 8 * 200 * 200)
    monkeypatch.setattr(_kernel_rows, "_SPARE", [])
    rng = np.random.default_rng(21)
    X = rng.normal(size=(300, 4))
    y = (X[:, 0] + 0.8 * rng.normal(size=300) > 0).astype(int)
    first = refml_fast.SVC(kernel="rbf").fit(X[:250], y[:250])
    spare = _kernel_rows._SPARE[0]
    assert len(spare) >= 250 * 250 * 8
    again = refml_fast.SVC(kernel="rbf").fit(X[:250], y[:250])
    assert _kernel_rows._SPARE == [spare]            # taken, then given back
    assert again.dual_coef_.tolist() == first.dual_coef_.tolist()
    smaller = refml_fast.SVC(kernel="poly").fit(X[:210], y[:210])
    assert _kernel_rows._SPARE == [spare]
    monkeypatch.setattr(_kernel_rows, "_SPARE", [])  # the same fit on a fresh mapping
    fresh = refml_fast.SVC(kernel="poly").fit(X[:210], y[:210])
    assert fresh.dual_coef_.tolist() == smaller.dual_coef_.tolist()
    larger = refml_fast.SVC(kernel="rbf").fit(X, y)
    assert len(_kernel_rows._SPARE[0]) >= 300 * 300 * 8 and larger.n_iter_ > 0
