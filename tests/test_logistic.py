"""Logistic regression (refml.linear.logistic / refml_fast.linear.logistic): sigma and the
log-likelihood by
hand, the three solvers against each other and against the score equations, multinomial with
reference class 0, separable data, numeric extremes, the tie rule, exact parity."""

import math
import warnings

import pytest

from refml.core.base import ConvergenceWarning
from tests.helpers import as_list, compiled_and_plain

# Overlapping 1-D classes (x = 2 is class 1, x = 3 class 0): the MLE exists.
OVERLAP_X = [[0.0], [1.0], [2.0], [3.0], [4.0], [5.0]]
OVERLAP_Y = [0, 0, 1, 0, 1, 1]

def _logistic_sample(seed, n):
    """n points with standard normal features (2 decimals) and labels drawn from the model
    P(Y = 1 | x) = sigma(x_1 - 0.5 x_2 + 0.2), and a 3-class labelling from noisy thresholds."""
    from refml.core.random import Generator
    from refml.linear.logistic import sigmoid

    rng = Generator(seed)
    X = [[round(rng.normal(), 2), round(rng.normal(), 2)] for _ in range(n)]
    y = [1 if rng.random() < sigmoid(x[0] - 0.5 * x[1] + 0.2) else 0 for x in X]
    three = ["abc"[(x[0] + 0.8 * rng.normal() > 0.4) + (x[1] + 0.8 * rng.normal() > 0.0)]
             for x in X]
    return X, y, three


# A well-conditioned sample (centred unit-scale features, overlapping classes, MLE about
# w = [0.7, -0.6], b = 0.2), to compare the solvers; the same points with three overlapping
# classes (strings: "a" is the reference class 0).
WELL_X, WELL_Y, THREE_Y = _logistic_sample(2024, 60)
THREE_X = WELL_X

# Separable: x < 0 is class 0 (centred, so that every solver reaches a separating theta).
SEPARABLE_X = [[-2.5], [-1.5], [-0.5], [0.5], [1.5], [2.5]]
SEPARABLE_Y = [0, 0, 0, 1, 1, 1]

# Symmetric: the score equations hold at theta = 0 exactly, so every score is 0 (a tie).
SYMMETRIC_X = [[-1.0], [1.0], [-1.0], [1.0]]
SYMMETRIC_Y = ["no", "no", "yes", "yes"]


def quietly(model, X, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return model.fit(X, y)


def augmented(X):
    return [list(x) + [1.0] for x in X]


def theta_of(model):
    """[w_1, b_1, w_2, b_2, ...] as plain floats."""
    coef, intercept = as_list(model.coef_), as_list(model.intercept_)
    return [float(v) for row, b in zip(coef, intercept) for v in list(row) + [b]]


# --- sigma and the log-likelihood -----------------------------------------------------------

def test_sigmoid_values_and_stability(lib):
    assert lib.sigmoid(0.0) == 0.5
    assert math.isclose(lib.sigmoid(2.0), 1.0 / (1.0 + math.exp(-2.0)), rel_tol=1e-15)
    assert math.isclose(lib.sigmoid(-2.0), math.exp(-2.0) / (1.0 + math.exp(-2.0)),
                        rel_tol=1e-15)
    assert lib.sigmoid(1e308) == 1.0 and lib.sigmoid(-1e308) == 0.0
    assert lib.sigmoid(-700.0) > 0.0 and math.isclose(lib.sigmoid(-700.0), math.exp(-700.0),
                                                      rel_tol=1e-12)


def test_log_likelihood_by_hand(lib):
    X = [[1.0, 2.0], [0.5, -1.0], [2.0, 0.0]]
    # w = 0: every point has probability 1/2.
    for y, convention in (([1, 0, 1], "zero_one"), ([1, -1, 1], "plus_minus")):
        assert math.isclose(lib.log_likelihood([0.0, 0.0], X, y, convention), -3 * math.log(2),
                            rel_tol=1e-15)
    # One point x = [1], y = 1, w = [2]: log sigma(2) = -log(1 + e^-2) in both conventions
    # (the {0, 1} form y w'x + log sigma(-w'x) = 2 - 2.127 cancels: absolute error ~ eps |w'x|).
    expected = -math.log1p(math.exp(-2.0))
    assert math.isclose(lib.log_likelihood([2.0], [[1.0]], [1]), expected, abs_tol=1e-15)
    assert math.isclose(lib.log_likelihood([2.0], [[1.0]], [1], "plus_minus"), expected,
                        rel_tol=1e-15)
    # y = 0 (or -1) at w'x = 2: log sigma(-2).
    assert math.isclose(lib.log_likelihood([2.0], [[1.0]], [0]), -math.log1p(math.exp(2.0)),
                        rel_tol=1e-15)


def test_gradient_by_hand_in_both_conventions(lib):
    # x = [1, 2], y = 1, w = [0.5, -0.25]: w'x = 0, grad = (1 - 1/2) x = [0.5, 1].
    for y, convention in (([1], "zero_one"), ([1], "plus_minus")):
        gradient = as_list(lib.log_likelihood_gradient([0.5, -0.25], [[1.0, 2.0]], y,
                                                       convention))
        assert gradient == [0.5, 1.0]
    # y = 0 / -1: grad = (0 - 1/2) x.
    assert as_list(lib.log_likelihood_gradient([0.5, -0.25], [[1.0, 2.0]], [0])) == [-0.5, -1.0]
    assert as_list(lib.log_likelihood_gradient([0.5, -0.25], [[1.0, 2.0]], [-1],
                                               "plus_minus")) == [-0.5, -1.0]


def test_log_likelihood_does_not_overflow(lib):
    value = lib.log_likelihood([1.0], [[1e5], [-1e5]], [1, 0])
    assert value == 0.0 or (value < 0.0 and value > -1e-300)
    assert lib.log_likelihood([1.0], [[1e5]], [0]) == -1e5


@pytest.mark.parametrize("y, convention", [([0, 2], "zero_one"), ([0, 1], "plus_minus"),
                                           (["a", "b"], "zero_one")])
def test_labels_must_fit_the_convention(lib, y, convention):
    with pytest.raises(ValueError, match="convention"):
        lib.log_likelihood([1.0], [[1.0], [2.0]], y, convention)


def test_unknown_convention_is_named(lib):
    with pytest.raises(ValueError, match="convention"):
        lib.log_likelihood([1.0], [[1.0]], [1], "pm")


# --- the estimator: binary ------------------------------------------------------------------

def test_newton_solves_the_score_equations(lib):
    model = lib.LogisticRegression(tol=1e-12).fit(OVERLAP_X, OVERLAP_Y)
    assert model.converged_ and model.n_iter_ <= 10
    # [MATH412]: grad l(w) = sum_i (y_i - sigma(w'x_i)) x_i = 0 at the MLE (with x~ = [x, 1]).
    gradient = as_list(lib.log_likelihood_gradient(theta_of(model), augmented(OVERLAP_X),
                                                   OVERLAP_Y))
    assert max(abs(g) for g in gradient) < 1e-10
    assert as_list(model.predict([[0.5], [4.5]])) == [0, 1]


@pytest.mark.parametrize("solver, params, tolerance", [
    ("lbfgs", {"tol": 1e-10}, 1e-8),
    ("gd", {"tol": 1e-8}, 1e-6), ("sgd", {"max_iter": 150, "random_state": 0}, 0.05),
])
def test_lbfgs_gd_and_sgd_agree_with_newton(lib, solver, params, tolerance):
    newton = lib.LogisticRegression(tol=1e-12).fit(WELL_X, WELL_Y)
    model = quietly(lib.LogisticRegression(solver=solver, **params), WELL_X, WELL_Y)
    for a, b in zip(theta_of(model), theta_of(newton)):
        assert abs(a - b) <= tolerance * max(1.0, abs(b))


def test_newton_and_gd_losses_never_increase(lib):
    for solver in ("newton", "lbfgs", "gd"):
        model = lib.LogisticRegression(solver=solver, tol=1e-6).fit(WELL_X, WELL_Y)
        curve = model.loss_curve_
        assert len(curve) == model.n_iter_ + 1
        # Never up, except by rounding in Newton's final unit steps (16 eps |L| at most).
        assert all(b <= a + 16 * 2.0 ** -52 * abs(a) for a, b in zip(curve, curve[1:]))
        assert math.isclose(curve[0], math.log(2.0), rel_tol=1e-15)  # theta = 0: P = 1/2


def test_default_gd_step_is_one_over_the_smoothness_bound(lib):
    # K = 2: L = (1/4) lambda_bound(X~'X~) / n + alpha, lambda_bound = min(trace, row sums).
    X, n = [[1.0], [2.0], [3.0]], 3
    # X~'X~ = [[14, 6], [6, 3]]: trace 17, largest absolute row sum 20 -> 17.
    model = lib.LogisticRegression(solver="gd", max_iter=1, alpha=0.5)
    quietly(model, X, [0, 1, 0])
    assert math.isclose(model.learning_rate_, 1.0 / (0.25 * 17.0 / n + 0.5), rel_tol=1e-15)
    # sgd: C = 1 / (B max_i ||x~_i||^2 + alpha) = 1 / (0.25 * 10 + 0.5).
    model = quietly(lib.LogisticRegression(solver="sgd", max_iter=1, alpha=0.5,
                                           random_state=0), X, [0, 1, 0])
    assert math.isclose(model.learning_rate_, 1.0 / (0.25 * 10.0 + 0.5), rel_tol=1e-15)


def test_the_cap_warns_and_leaves_a_usable_model(lib):
    model = lib.LogisticRegression(solver="gd", max_iter=3)
    with pytest.warns(ConvergenceWarning, match="max_iter=3"):
        model.fit(WELL_X, WELL_Y)
    assert model.n_iter_ == 3 and model.converged_ is False
    assert len(as_list(model.predict(WELL_X))) == len(WELL_X)


def test_sgd_is_reproducible_by_seed(lib):
    first = quietly(lib.LogisticRegression(solver="sgd", max_iter=2, random_state=3), WELL_X,
                    WELL_Y)
    again = quietly(lib.LogisticRegression(solver="sgd", max_iter=2, random_state=3), WELL_X,
                    WELL_Y)
    other = quietly(lib.LogisticRegression(solver="sgd", max_iter=2, random_state=4), WELL_X,
                    WELL_Y)
    assert theta_of(first) == theta_of(again) != theta_of(other)


def test_ridge_penalty_shrinks_and_satisfies_its_score_equation(lib):
    alpha = 0.3
    model = lib.LogisticRegression(alpha=alpha, tol=1e-12).fit(WELL_X, WELL_Y)
    free = lib.LogisticRegression(tol=1e-12).fit(WELL_X, WELL_Y)
    w = as_list(model.coef_)[0]
    assert sum(v * v for v in w) < sum(v * v for v in as_list(free.coef_)[0])
    # (1/n) grad l(theta) = alpha [w, 0]
    gradient = as_list(lib.log_likelihood_gradient(theta_of(model), augmented(WELL_X), WELL_Y))
    n = len(WELL_X)
    for g, target in zip(gradient, [alpha * v for v in w] + [0.0]):
        assert abs(g / n - target) < 1e-10


def test_without_intercept(lib):
    model = lib.LogisticRegression(fit_intercept=False, tol=1e-12).fit(WELL_X, WELL_Y)
    assert as_list(model.intercept_) == [0.0]
    gradient = as_list(lib.log_likelihood_gradient(as_list(model.coef_)[0], WELL_X, WELL_Y))
    assert max(abs(g) for g in gradient) < 1e-10


def test_probabilities_and_decision_function(lib):
    model = lib.LogisticRegression().fit(OVERLAP_X, OVERLAP_Y)
    proba = [as_list(row) for row in as_list(model.predict_proba(OVERLAP_X))]
    scores = as_list(model.decision_function(OVERLAP_X))
    for row, z in zip(proba, scores):
        assert math.isclose(row[0] + row[1], 1.0, rel_tol=1e-15)
        assert math.isclose(row[1], lib.sigmoid(z), rel_tol=1e-12)
    predicted = as_list(model.predict(OVERLAP_X))
    assert predicted == [model.classes_[1] if z > 0 else model.classes_[0] for z in scores]


def test_a_zero_score_goes_to_the_first_class(lib):
    model = lib.LogisticRegression().fit(SYMMETRIC_X, SYMMETRIC_Y)
    assert model.n_iter_ == 0 and model.converged_  # the gradient vanishes at theta = 0
    assert theta_of(model) == [0.0, 0.0]
    assert as_list(model.predict([[-1.0], [1.0]])) == ["no", "no"]
    assert [as_list(r) for r in as_list(model.predict_proba([[3.0]]))] == [[0.5, 0.5]]


# --- multinomial with reference class 0 --------------------------------------------------------

def test_multinomial_shapes_and_reference_class(lib):
    model = lib.LogisticRegression(tol=1e-10).fit(THREE_X, THREE_Y)
    assert [len(as_list(row)) for row in as_list(model.coef_)] == [2, 2]
    assert len(as_list(model.intercept_)) == 2
    proba = [as_list(r) for r in as_list(model.predict_proba(THREE_X))]
    scores = [as_list(r) for r in as_list(model.decision_function(THREE_X))]
    for p, z in zip(proba, scores):
        assert z[0] == 0.0 and math.isclose(sum(p), 1.0, rel_tol=1e-14)
        # [Yan]: log P(Y = k | x) / P(Y = 0 | x) = beta_k'x~
        for k in (1, 2):
            assert math.isclose(math.log(p[k] / p[0]), z[k], rel_tol=1e-9, abs_tol=1e-12)
    labels = as_list(model.predict(THREE_X))
    assert labels == [model.classes_[max(range(3), key=lambda k: (z[k], -k))] for z in scores]


def test_multinomial_score_equations_and_solvers(lib):
    newton = lib.LogisticRegression(tol=1e-12).fit(THREE_X, THREE_Y)
    # grad_k = (1/n) sum_i (P_ik - 1{y_i = k}) x~_i = 0, checked from predict_proba.
    proba = [as_list(r) for r in as_list(newton.predict_proba(THREE_X))]
    for k in (1, 2):
        for j in range(3):
            total = sum((p[k] - (1.0 if y == newton.classes_[k] else 0.0)) * x[j]
                        for p, y, x in zip(proba, THREE_Y, augmented(THREE_X)))
            assert abs(total) < 1e-9
    gd = lib.LogisticRegression(solver="gd", tol=1e-8).fit(THREE_X, THREE_Y)
    for a, b in zip(theta_of(gd), theta_of(newton)):
        assert abs(a - b) <= 1e-6 * max(1.0, abs(b))


# --- separable data and extremes --------------------------------------------------------------

@pytest.mark.parametrize("solver", ["newton", "gd", "sgd"])
def test_separable_data_warn_that_the_mle_does_not_exist(lib, solver):
    model = lib.LogisticRegression(solver=solver, random_state=0, max_iter=300)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model.fit(SEPARABLE_X, SEPARABLE_Y)
    assert any(issubclass(w.category, ConvergenceWarning) and "does not exist" in str(w.message)
               for w in caught)
    assert model.converged_ is False
    assert all(math.isfinite(v) for v in theta_of(model))
    assert as_list(model.predict(SEPARABLE_X)) == SEPARABLE_Y
    assert all(math.isfinite(v) for row in as_list(model.predict_proba([[1e300]]))
               for v in as_list(row))


def test_separable_data_with_a_penalty_converge(lib):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model = lib.LogisticRegression(alpha=0.1).fit(SEPARABLE_X, SEPARABLE_Y)
    assert model.converged_ and as_list(model.predict(SEPARABLE_X)) == SEPARABLE_Y


def test_huge_features_raise_a_clear_error_and_large_ones_work(lib):
    # 1e300: X'X overflows, a ValueError says so and asks to rescale (no inf, no crash).
    with pytest.raises(ValueError, match="rescale"):
        lib.LogisticRegression().fit([[1e300], [-1e300], [2e300], [-3e300]], [1, 0, 0, 1])
    # 1e150: fine; the MLE scales as 1/1e150 (the same data divided by 1e150, then scaled).
    X = [[v * 1e150] for v in (1.0, -1.0, 2.0, -3.0, 0.5)]
    small = lib.LogisticRegression(tol=1e-12).fit([[1.0], [-1.0], [2.0], [-3.0], [0.5]],
                                                  [1, 0, 0, 1, 1])
    model = lib.LogisticRegression(tol=1e-12 * 1e150).fit(X, [1, 0, 0, 1, 1])  # grad ~ x
    assert math.isclose(as_list(model.coef_)[0][0] * 1e150, as_list(small.coef_)[0][0],
                        rel_tol=1e-9)


@pytest.mark.parametrize("params, name", [
    ({"solver": "bfgs"}, "solver"), ({"alpha": -1.0}, "alpha"), ({"tol": -1e-3}, "tol"),
    ({"max_iter": 0}, "max_iter"), ({"max_iter": 2.5}, "max_iter"),
    ({"learning_rate": 0.0}, "learning_rate"), ({"power_t": 0.0}, "power_t"),
    ({"power_t": 1.5}, "power_t"), ({"fit_intercept": "yes"}, "fit_intercept"),
    ({"random_state": -1}, "random_state"), ({"alpha": float("inf")}, "alpha")])
def test_bad_hyper_parameters_are_named_at_fit(lib, params, name):
    with pytest.raises(ValueError, match=name):
        lib.LogisticRegression(**params).fit(OVERLAP_X, OVERLAP_Y)


# --- first-order conditions, and exact parity (refml_fast) --------------------------------------

@pytest.mark.fast
def test_solution_satisfies_the_first_order_conditions_computed_independently():
    # The penalised mean log-likelihood is strictly concave, so theta is its maximiser iff
    # its gradient, written here in numpy from the softmax with reference class 0, is 0:
    # (1/n) sum_i (1{y_i = k} - P_k(x_i)) x~_i - alpha (w_k - m, 0) = 0 for k = 1..K-1,
    # m the mean of the K slope vectors (w_0 = 0) when K > 2, else 0.  The probabilities
    # must be that softmax too.  (An independent check that needs no
    # scikit-learn, which is only in the bench extra.)
    import numpy as np

    import refml_fast

    rng = np.random.default_rng(1)
    X = rng.normal(size=(400, 4))
    y = rng.integers(0, 3, size=400)
    X += np.eye(3, 4)[y]  # class-dependent shift: overlapping classes
    for labels, alpha in ((y % 2, 0.0), (y % 2, 0.05), (y, 0.0), (y, 0.05)):
        model = refml_fast.LogisticRegression(alpha=alpha, tol=1e-12).fit(X, labels)
        W = np.vstack([np.zeros((1, 4)), np.reshape(model.coef_, (-1, 4))])
        b = np.concatenate([[0.0], np.ravel(model.intercept_)])
        scores = X @ W.T + b
        P = np.exp(scores - scores.max(axis=1, keepdims=True))
        P /= P.sum(axis=1, keepdims=True)
        assert np.allclose(model.predict_proba(X), P, rtol=1e-10, atol=1e-13)
        residual = (np.eye(W.shape[0])[labels] - P)[:, 1:]            # n x (K-1)
        centre = W.mean(axis=0) if W.shape[0] > 2 else 0.0
        slope_gradient = residual.T @ X / len(X) - alpha * (W[1:] - centre)
        intercept_gradient = residual.mean(axis=0)
        assert np.max(np.abs(slope_gradient)) < 1e-9, (alpha, slope_gradient)
        assert np.max(np.abs(intercept_gradient)) < 1e-9, (alpha, intercept_gradient)
        assert np.max(np.abs(W[1:])) > 0.1        # not the trivial theta = 0


def test_penalised_multinomial_does_not_depend_on_the_names_of_the_classes(lib):
    """alpha > 0, three classes: the same data with the labels renamed (another class is
    the reference classes_[0]) gives the same probabilities, columns renamed alike."""
    from refml.core.random import Generator

    rng = Generator(7)
    X = [[rng.normal() for _ in range(3)] for _ in range(60)]
    y = [min(2, max(0, int(x[0] + 0.7 * x[1] + 1.5 + rng.normal()))) for x in X]
    for alpha in (0.1, 1.0):
        base = lib.LogisticRegression(alpha=alpha, tol=1e-10).fit(X, y)
        for renaming in ({0: 2, 1: 0, 2: 1}, {0: 1, 1: 2, 2: 0}, {0: 0, 1: 2, 2: 1}):
            renamed = lib.LogisticRegression(alpha=alpha, tol=1e-10).fit(
                X, [renaming[label] for label in y])
            P, Q = base.predict_proba(X), renamed.predict_proba(X)
            for i in range(len(X)):
                for label in range(3):
                    assert abs(P[i][label] - Q[i][renaming[label]]) < 1e-7
            assert [renaming[label] for label in base.predict(X)] == list(renamed.predict(X))


def test_the_symmetric_penalty_is_the_minimum_over_a_vector_per_class():
    """R(w) of logistic_solvers equals min over u_0 of sum_{k=0}^{K-1} ||u_k||^2 with
    u_k = w_k + u_0 (w_0 = 0), found here by a fine grid around the claimed minimiser -m;
    and its gradient and Hessian (the objective's, at alpha = 1, minus the data part at
    alpha = 0) agree with central differences."""
    from refml.linear import logistic_solvers as solvers

    X = [[0.3, -1.2], [1.1, 0.4], [-0.7, 0.9], [0.2, 0.2], [-1.5, -0.3], [0.8, -0.6]]
    codes = [0, 1, 2, 3, 1, 2]
    K, d, p = 4, 2, 3
    theta = [0.5, -0.2, 0.1, 1.3, 0.4, -0.3, -0.8, 0.9, 0.2]
    mean = solvers.slope_mean(theta, K, p, d)
    R = solvers.penalty(theta, mean, K - 1, p)
    slopes = [[0.0, 0.0]] + [theta[k * p:k * p + d] for k in range(K - 1)]

    def spread(u0):
        return sum((w[j] + u0[j]) ** 2 for w in slopes for j in range(d))

    best = min(spread([-mean[0] + a / 100, -mean[1] + b / 100])
               for a in range(-5, 6) for b in range(-5, 6))
    assert abs(R - best) < 1e-12 and abs(spread([-mean[0], -mean[1]]) - R) < 1e-12

    def ridge_value(t):
        with_ridge, _ = solvers.objective(X, codes, t, K, True, 1.0)
        without, _ = solvers.objective(X, codes, t, K, True, 0.0)
        return with_ridge - without

    _, g1 = solvers.objective(X, codes, theta, K, True, 1.0)
    _, g0 = solvers.objective(X, codes, theta, K, True, 0.0)
    H1 = solvers.hessian(X, theta, K, True, 1.0)
    H0 = solvers.hessian(X, theta, K, True, 0.0)
    h = 1e-5
    for r in range(len(theta)):
        up, down = list(theta), list(theta)
        up[r] += h
        down[r] -= h
        numeric = (ridge_value(up) - ridge_value(down)) / (2 * h)
        assert abs((g1[r] - g0[r]) - numeric) < 1e-8
        for c in range(r + 1):
            expected = (1.0 if r == c else 0.0) - 1.0 / K if r % p == c % p and r % p < d \
                else 0.0
            assert abs((H1[r][c] - H0[r][c]) - expected) < 1e-12


@pytest.mark.sklearn
def test_penalised_multinomial_matches_scikit_learn():
    """scikit-learn's multinomial LogisticRegression(C) penalises every class's vector:
    (1/2C) sum_k ||u_k||^2 on the summed loss, that is alpha = 1 / (n C) here."""
    import numpy as np
    from sklearn.linear_model import LogisticRegression as SkLogistic

    import refml_fast

    rng = np.random.default_rng(3)
    X = rng.normal(size=(300, 4))
    y = np.digitize(X[:, 0] + 0.5 * X[:, 1] + 0.5 * rng.normal(size=300), [-0.6, 0.6])
    for C in (0.05, 1.0):
        ours = refml_fast.LogisticRegression(alpha=1.0 / (300 * C), tol=1e-10).fit(X, y)
        theirs = SkLogistic(C=C, tol=1e-12, max_iter=10_000).fit(X, y)
        assert np.max(np.abs(ours.predict_proba(X) - theirs.predict_proba(X))) < 1e-6


@pytest.mark.fast
def test_fast_gives_the_identical_coefficients():
    import numpy as np

    import refml
    import refml_fast
    from conformance._parity import random_dataset
    from refml.core.random import Generator

    rng = Generator(21)
    for trial in range(24):
        X, y, X_query = random_dataset(rng, n_max=25, binary=trial % 2 == 0)
        for solver, max_iter in (("newton", None), ("lbfgs", None), ("gd", 30), ("sgd", 3)):
            params = dict(solver=solver, max_iter=max_iter, random_state=trial,
                          alpha=0.1 * (trial % 3), fit_intercept=trial % 4 != 1)
            a = quietly(refml.LogisticRegression(**params), X, y)
            b = quietly(refml_fast.LogisticRegression(**params), np.array(X), y)
            assert b.coef_.tolist() == a.coef_ and b.intercept_.tolist() == a.intercept_
            assert (b.n_iter_, b.converged_, b.loss_curve_) == (a.n_iter_, a.converged_,
                                                                a.loss_curve_)
            assert b.predict_proba(X_query).tolist() == a.predict_proba(X_query)
            assert b.decision_function(X_query).tolist() == a.decision_function(X_query)
            assert b.predict(X_query).tolist() == a.predict(X_query)


@pytest.mark.fast
def test_binary_probability_with_one_exp_matches_refml_on_special_scores():
    """The K = 2 kernel skips the exp(0) = 1 of refml's two exponentials; on zeros of both
    signs, under- and overflowing scores, infinities and NaN it still returns refml's floats."""
    from refml.linear import logistic_solvers as solvers
    from refml_fast.linear import logistic_binary as binary

    for z in (0.0, -0.0, 5e-324, -5e-324, 1e-300, 0.7, -0.7, 36.0, -36.0, 709.0, -709.0,
              745.5, -745.5, 1e308, -1e308, math.inf, -math.inf, math.nan):
        probabilities, log_normaliser = solvers.class_probabilities([z])
        fast = binary.probability_and_log_normaliser(z)
        assert repr(fast) == repr((probabilities[1], log_normaliser)), z


@pytest.mark.fast
def test_binary_objective_eight_at_a_time_matches_refml_on_special_scores():
    """The objective computes exp, then log, for eight scores at a time; with the special
    scores inside such blocks (z = theta x with theta = 1, and theta = 1e300, which makes
    the large ones infinite) the loss, gradient and Hessian weights are still refml's."""
    import numpy as np

    from refml.linear import logistic_solvers as solvers
    from refml_fast.linear import logistic_binary as binary

    column = [0.0, -0.0, 5e-324, -5e-324, 1e-300, 0.7, -0.7, 36.0, -36.0, 709.0, -709.0,
              745.5, -745.5, 1e308, -1e308, 2.7, -2.8, 3.0]
    X = np.array(column).reshape(-1, 1)
    codes = np.array([i % 2 for i in range(len(column))])
    for scale in (1.0, 1e300):
        theta = np.array([scale])
        gradient, weights = np.empty(1), np.empty(len(column))
        loss = binary.objective_binary(X, codes, theta, False, 0.0, gradient, weights)
        reference_loss, reference_gradient = solvers.objective(
            X.tolist(), codes.tolist(), theta.tolist(), 2, False, 0.0)
        assert repr((loss, gradient.tolist())) == repr((reference_loss, reference_gradient))
        for x, weight in zip(column, weights.tolist()):
            probabilities, _ = solvers.class_probabilities([scale * x])
            assert repr(weight) == repr(probabilities[1] * (1.0 - probabilities[1])), x


@pytest.mark.fast
def test_fast_kernels_repeat_refml_float_for_float():
    """The K = 2 kernels (eight samples at a time) against the row-by-row kernels, the
    prediction scores against refml's dot, the Newton solve against refml's Cholesky."""
    import numpy as np

    from refml.core import linalg
    from refml.linear import logistic_solvers as solvers
    from refml_fast.core import linalg as fast_linalg
    from refml_fast.linear import logistic_binary as binary
    from refml_fast.linear import logistic_hessian as hessian
    from refml_fast.linear import logistic_kernels as kernels

    rng = np.random.default_rng(3)
    # p = d + fit_intercept odd and even, below, at and above multiples of 8 (the Hessian
    # kernel updates two rows of H on whole vectors of 8); scale 100 saturates P to 0 or 1.
    for n, d, fit_intercept, alpha, scale in (
            (1, 1, True, 0.0, 1.0), (8, 3, False, 0.2, 1.0), (29, 4, True, 0.0, 1.0),
            (203, 6, True, 1.5, 1.0), (64, 7, True, 0.0, 1.0), (37, 16, False, 0.0, 1.0),
            (45, 9, True, 0.3, 1.0), (91, 17, True, 0.0, 1.0), (40, 5, True, 0.0, 100.0)):
        X = rng.normal(size=(n, d)) * rng.choice([0.1, 1.0, 10.0], size=d) * scale
        codes = rng.integers(0, 2, size=n)
        theta = rng.normal(size=d + fit_intercept)
        g1, g2 = np.empty(theta.size), np.empty(theta.size)
        weights, weights_alone = np.empty(n), np.empty(n)
        loss1 = kernels.objective(X, codes, theta, 1, fit_intercept, alpha, g1)
        loss2 = binary.objective_binary(X, codes, theta, fit_intercept, alpha, g2, weights)
        assert loss1 == loss2 and g1.tolist() == g2.tolist()
        binary.sample_weights_binary(X, theta, fit_intercept, weights_alone)
        assert weights.tolist() == weights_alone.tolist()
        reference_loss, reference_gradient = solvers.objective(
            X.tolist(), codes.tolist(), theta.tolist(), 2, fit_intercept, alpha)
        assert loss1 == reference_loss and g1.tolist() == reference_gradient
        H1, H2 = np.zeros((theta.size,) * 2), np.zeros((theta.size,) * 2)
        kernels.hessian(X, theta, 1, fit_intercept, alpha, H1)
        hessian.hessian_binary(X, weights, fit_intercept, alpha, H2)
        reference_H = solvers.hessian(X.tolist(), theta.tolist(), 2, fit_intercept, alpha)
        assert H1.tolist() == H2.tolist() == reference_H
        p = theta.size
        width = (p + 1 + 7) // 8 * 8
        one = np.zeros((width, width))
        hessian.hessian_serial(X, weights, fit_intercept, one, np.empty((1, width, width)),
                              hessian.row_bounds(p, 1))
        for parts in (2, 3):        # rows of H shared among threads: the same floats
            shared = np.zeros((width, width))
            hessian.hessian_by_rows(X, weights, fit_intercept, shared,
                                   np.empty((parts, width, width)), hessian.row_bounds(p, parts))
            assert np.tril(one[:p, :p]).tolist() == np.tril(shared[:p, :p]).tolist()
        coef, intercept = rng.normal(size=(2, d)), rng.normal(size=2)
        Z = np.empty((n, 2))
        kernels.scores(X, coef, intercept, Z)
        assert Z.tolist() == [[linalg.dot(w, x) + b for w, b in zip(coef.tolist(),
                                                                   intercept.tolist())]
                              for x in X.tolist()]
    for size, rank in ((5, 5), (6, 3), (4, 0)):
        B = rng.normal(size=(size, rank))
        A = B @ B.T + (np.diag(rng.random(size)) if rank == size else 0.0)
        b = rng.normal(size=size)
        x = np.empty(size)
        fast_linalg.solve_dropping_dependent(A, b, 1e-10, x)
        expected, kept = linalg.solve_dropping_dependent(A.tolist(), b.tolist(), 1e-10)
        assert x.tolist() == expected and len(kept) == rank


@pytest.mark.fast
def test_threaded_hessian_rows_cover_every_row_once():
    """The row ranges given to the threads: starts at multiples of four (or p), increasing, from
    0 to p, work split evenly enough; on data large enough for the threaded path, the Hessian
    equals the row-by-row kernel's."""
    import numpy as np

    from refml_fast.linear import logistic_binary as binary
    from refml_fast.linear import logistic_hessian as hessian
    from refml_fast.linear import logistic_kernels as kernels

    for p in range(1, 70):
        for parts in range(1, 5):
            bounds = hessian.row_bounds(p, parts).tolist()
            assert len(bounds) == parts + 1 and bounds[0] == 0 and bounds[-1] == p
            assert bounds == sorted(bounds) and all(b % 4 == 0 or b == p for b in bounds)
        if p >= 40:    # the tile of rows r..r+3 costs 4 min(r + 4, p) columns, to 8
            cost = [4 * ((min(r + 4, p) + 7) // 8 * 8) for r in range(0, p, 4)]
            first, middle, last = hessian.row_bounds(p, 2).tolist()
            assert middle % 4 == 0       # off the even split by at most one tile's cost
            assert abs(sum(cost[:middle // 4]) - sum(cost[middle // 4:])) <= cost[-1]
    rng = np.random.default_rng(5)
    n, d = 2003, 80                         # the Hessian's work above PARALLEL_WORK
    assert n * ((d + 1) ** 2 + hessian.SAMPLE_SECONDS / hessian.ENTRY_SECONDS) > \
        hessian.PARALLEL_WORK
    X = rng.normal(size=(n, d))
    theta = rng.normal(size=d + 1) * 0.3
    weights = np.empty(n)
    binary.sample_weights_binary(X, theta, True, weights)
    expected, H = np.zeros((d + 1, d + 1)), np.zeros((d + 1, d + 1))
    kernels.hessian(X, theta, 1, True, 0.25, expected)
    hessian.hessian_binary(X, weights, True, 0.25, H)
    assert H.tolist() == expected.tolist()


@pytest.mark.fast
def test_newton_step_reuses_the_objectives_weights_only_at_the_same_theta():
    """refml_fast keeps P(1 - P) from the objective for the Newton step at the same theta;
    at another theta it scores the data again; either way refml's direction, and nothing of
    it is left on the fitted model."""
    import numpy as np

    import refml_fast
    from refml.linear import logistic_solvers as solvers

    rng = np.random.default_rng(11)
    X = rng.normal(size=(53, 4))
    codes = rng.integers(0, 2, size=53)
    model = quietly(refml_fast.LogisticRegression(alpha=0.1), X, codes)
    assert "_curvature" not in vars(model)
    theta_a, theta_b = rng.normal(size=5).tolist(), rng.normal(size=5).tolist()
    _, gradient_a = model._objective(X, codes, theta_a)
    for theta in (theta_a, theta_b, theta_a):
        _, gradient = solvers.objective(X.tolist(), codes.tolist(), theta, 2, True, 0.1)
        expected = solvers.newton_direction(X.tolist(), theta, gradient, 2, True, 0.1)
        assert model._newton_direction(X, theta, gradient) == expected


@pytest.mark.fast
def test_kernels_run_as_plain_python_with_the_same_result():
    """NUMBA_DISABLE_JIT=1 runs every logistic kernel body as Python (docs/style.md rule 8): the
    binary and multiclass fits of every solver give the same floats as the compiled run."""
    code = ("import warnings; warnings.simplefilter('ignore')\n"
            "import numpy as np, refml_fast\n"
            "rng = np.random.default_rng(4)\n"
            "X = rng.normal(size=(41, 3))\n"
            "for y in ((X[:, 0] > 0).astype(int), rng.integers(0, 3, size=41)):\n"
            "    for solver in ('newton', 'gd', 'sgd'):\n"
            "        m = refml_fast.LogisticRegression(solver=solver, max_iter=5,\n"
            "                                          random_state=1).fit(X, y)\n"
            "        print(m.coef_.tolist(), m.intercept_.tolist(),\n"
            "              m.predict_proba(X[:5]).tolist())\n")
    compiled, plain = compiled_and_plain(code)
    assert plain == compiled and compiled.count("\n") == 6


@pytest.mark.fast
def test_a_fit_through_the_threaded_objective_is_refmls():
    import numpy as np

    import refml
    import refml_fast
    from refml_fast.linear import logistic_binary as binary

    rng = np.random.default_rng(4)
    n = binary.PARALLEL_ENTRIES // 3 + 5
    X = rng.normal(size=(n, 3))
    y = (X @ [1.0, -2.0, 0.5] + rng.logistic(size=n) > 0).astype(int)
    fast = refml_fast.LogisticRegression().fit(X, y)
    reference = refml.LogisticRegression().fit(X.tolist(), y.tolist())
    assert fast.n_iter_ == reference.n_iter_
    assert fast.coef_.tolist() == np.asarray(reference.coef_).tolist()
    assert np.asarray(fast.intercept_).tolist() == np.asarray(reference.intercept_).tolist()


@pytest.mark.fast
def test_the_multinomial_terms_shared_by_runs_give_the_blocks_sums(monkeypatch):
    """With fewer blocks of samples than the threads can share evenly, ``runs_parallel``
    computes every sample's residuals and loss term in even shares of runs, then each
    block's sums in sample order: the same bytes as ``blocks_serial`` for one to seven
    blocks, odd and even numbers of free classes, with and without the intercept, and a
    fit through it is refml's."""
    import numba
    import numpy as np

    import refml
    import refml_fast
    from refml_fast.linear import logistic_multinomial as multinomial

    rng = np.random.default_rng(12)
    block = multinomial.SUM_BLOCK
    for n, d, n_classes, fit_intercept in ((1, 1, 3, True), (63, 4, 4, False),
                                           (block, 9, 12, True), (block + 1, 2, 5, True),
                                           (2 * block + 524, 5, 12, False),
                                           (7 * block - 3, 17, 3, True)):
        X = rng.normal(size=(n, d)) * rng.choice([0.01, 1.0, 30.0], size=d)
        codes = rng.integers(0, n_classes, size=n)
        n_free, p = n_classes - 1, d + fit_intercept
        theta_t = np.ascontiguousarray(rng.normal(size=(n_free, p)).T)
        n_blocks = (n + block - 1) // block
        losses, gradients = np.empty(n_blocks), np.empty((n_blocks, n_free * p))
        multinomial.blocks_serial(X, codes, theta_t, n_free, fit_intercept, losses, gradients)
        for tasks in (1, 2, 3, numba.get_num_threads()):
            shared_losses, shared = np.empty(n_blocks), np.empty((n_blocks, n_free * p))
            residuals = np.full((n, (n_free + 1) // 2 * 2), np.nan)
            residuals[:, n_free:] = 0.0
            multinomial.runs_parallel(X, codes, theta_t, n_free, fit_intercept,
                                      shared_losses, shared, residuals, np.empty(n), tasks)
            assert shared_losses.tobytes() == losses.tobytes(), (n, tasks)
            assert shared.tobytes() == gradients.tobytes(), (n, tasks)
    from refml_fast.runtime import threads as _config

    calls = []
    original = multinomial.runs_parallel

    def counted(*args):
        calls.append(args[0].shape[0])
        return original(*args)

    monkeypatch.setattr(multinomial, "runs_parallel", counted)
    monkeypatch.setattr(_config, "SURE_SECONDS", 0.0)     # launch, whatever the cores do
    monkeypatch.setattr(_config, "_HELD_UNTIL", [0.0])
    X = rng.normal(size=(6_000, 4))
    y = rng.integers(0, 8, size=6_000)
    fast = refml_fast.LogisticRegression(max_iter=8).fit(X, y)
    reference = refml.LogisticRegression(max_iter=8).fit(X.tolist(), y.tolist())
    assert calls and set(calls) == {6_000}
    assert fast.coef_.tolist() == np.asarray(reference.coef_).tolist()
    assert np.asarray(fast.intercept_).tolist() == np.asarray(reference.intercept_).tolist()
