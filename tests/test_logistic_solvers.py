"""LogisticRegression's solvers beyond the lectures' Newton: L-BFGS, the "auto" choice, and
Newton polished to the maximum-likelihood estimate (issues 12 and 14)."""

import pytest

from tests.test_logistic import THREE_X, THREE_Y, WELL_Y, quietly, theta_of  # noqa: F401


@pytest.mark.parametrize("width, solver", [(1, "newton"), (47, "newton"), (48, "lbfgs")])
def test_auto_picks_newton_for_two_classes_up_to_48_unknowns(lib, width, solver):
    """d + 1 <= 48 unknowns: Newton; one feature more: L-BFGS."""
    X = [[x[0]] + [x[1] * (j + 1) % 1.3 for j in range(width - 1)] for x in THREE_X]
    model = quietly(lib.LogisticRegression(alpha=0.1, max_iter=3), X, WELL_Y)
    assert model.solver_ == solver


def test_auto_picks_lbfgs_for_more_than_two_classes(lib):
    model = lib.LogisticRegression().fit(THREE_X, THREE_Y)       # (3 - 1) x 3 = 6 rows
    assert model.solver_ == "lbfgs" and model.converged_
    newton = lib.LogisticRegression(solver="newton").fit(THREE_X, THREE_Y)
    scale = max(abs(b) for b in theta_of(newton))     # both near the MLE (tol = 1e-4)
    for a, b in zip(theta_of(model), theta_of(newton)):
        assert abs(a - b) <= 1e-3 * scale
    wide = [[x[0], x[1]] + [x[0] * (j + 1) % 1.7 for j in range(30)] for x in THREE_X]
    model = lib.LogisticRegression(alpha=0.1, tol=1e-10).fit(wide, THREE_Y)  # 2 x 33 rows
    assert model.solver_ == "lbfgs" and model.converged_
    newton = lib.LogisticRegression(solver="newton", alpha=0.1, tol=1e-10).fit(wide, THREE_Y)
    for a, b in zip(theta_of(model), theta_of(newton)):
        assert abs(a - b) <= 1e-6


def test_lbfgs_on_many_classes_reaches_the_score_equations(lib):
    """Ten classes: the solver for large Hessians meets max |grad| <= tol at its answer."""
    from refml.core.random import Generator
    from refml.linear import logistic_solvers as solvers

    rng = Generator(5)
    X = [[rng.normal() for _ in range(3)] for _ in range(200)]
    y = [min(9, max(0, int(2 * x[0] + x[1] + 5 + rng.normal()))) for x in X]
    model = lib.LogisticRegression(solver="lbfgs", tol=1e-7, alpha=0.01).fit(X, y)
    assert model.converged_ and model.n_iter_ > 5
    codes = [sorted(set(y)).index(v) for v in y]
    _, gradient = solvers.objective(X, codes, theta_of(model), len(set(y)), True, 0.01)
    assert max(abs(g) for g in gradient) <= 1e-7


@pytest.mark.sklearn
@pytest.mark.parametrize("dataset, n_features", [("breast_cancer", 8), ("wine", 4)])
def test_newton_at_its_defaults_reaches_the_mle(lib, dataset, n_features):
    """Against scikit-learn's newton-cholesky at tol = 1e-14 (an independent solver; its
    lbfgs stops on the change of the loss near 1e-9 gradients, short of the MLE on this
    ill-conditioned sample): relative error <= 1e-8, binary and multinomial, at refml's
    default tol = 1e-4."""
    import warnings

    import numpy as np
    import sklearn.datasets
    from sklearn.linear_model import LogisticRegression as Reference

    X, y = getattr(sklearn.datasets, f"load_{dataset}")(return_X_y=True)
    X = X[:, :n_features]
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    model = lib.LogisticRegression(solver="newton").fit(
        X.tolist() if lib.__name__ == "refml" else X, y.tolist())
    assert model.solver_ == "newton" and model.converged_
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # its newton-cholesky may warn near rounding
        reference = Reference(C=np.inf, solver="newton-cholesky", tol=1e-14,
                              max_iter=1000).fit(X, y)
    ours = np.hstack([np.asarray(model.coef_, dtype=float),
                      np.asarray(model.intercept_, dtype=float)[:, None]])
    theirs = np.hstack([reference.coef_, reference.intercept_[:, None]])
    if len(reference.classes_) > 2:   # scikit-learn's symmetric parameters -> class 0 reference
        theirs = (theirs - theirs[0])[1:]
    assert np.max(np.abs(ours - theirs)) <= 1e-8 * np.max(np.abs(theirs))


def _two_loop(gradient, pairs, gamma):
    """Plain L-BFGS two-loop recursion with H_0 = gamma I (Nocedal & Wright, Alg. 7.4)."""
    q = list(gradient)
    alphas = []
    for s, y in reversed(pairs):
        a = sum(si * qi for si, qi in zip(s, q)) / sum(si * yi for si, yi in zip(s, y))
        q = [qi - a * yi for qi, yi in zip(q, y)]
        alphas.append(a)
    r = [gamma * qi for qi in q]
    for (s, y), a in zip(pairs, reversed(alphas)):
        b = sum(yi * ri for yi, ri in zip(y, r)) / sum(si * yi for si, yi in zip(s, y))
        r = [ri + (a - b) * si for ri, si in zip(r, s)]
    return [-ri for ri in r]


def test_preconditioned_lbfgs_is_lbfgs_in_the_symmetric_parametrisation():
    """class_coupling's claim: the reference-class direction with H_0 = gamma (I + 1 1') is A
    times the plain L-BFGS direction in phi (one vector per class), theta_k = phi_k - phi_0,
    for steps phi in the sum-zero subspace that L-BFGS from phi = 0 stays in."""
    import random

    from refml.linear.logistic_solvers import class_coupling, lbfgs_direction

    rng = random.Random(7)
    K, p = 4, 3

    def A(phi):      # theta_k = phi_k - phi_0, k = 1..K-1
        return [phi[k * p + j] - phi[j] for k in range(1, K) for j in range(p)]

    def A_T(theta):  # the adjoint: phi_0 = -sum_k theta_k, phi_k = theta_k
        first = [-sum(theta[(k - 1) * p + j] for k in range(1, K)) for j in range(p)]
        return first + list(theta)

    def sum_zero(values):
        means = [sum(values[k * p + j] for k in range(K)) / K for j in range(p)]
        return [values[k * p + j] - means[j] for k in range(K) for j in range(p)]

    pairs_phi, pairs_theta = [], []
    for _ in range(4):
        s_phi = sum_zero([rng.gauss(0, 1) for _ in range(K * p)])
        y_theta = [rng.gauss(0, 1) for _ in range((K - 1) * p)]
        s_theta = A(s_phi)
        if sum(a * b for a, b in zip(s_theta, y_theta)) <= 0:
            y_theta = [-v for v in y_theta]
        pairs_phi.append((s_phi, A_T(y_theta)))
        rho = 1.0 / sum(a * b for a, b in zip(s_theta, y_theta))
        pairs_theta.append((s_theta, y_theta, rho))
    gradient = [rng.gauss(0, 1) for _ in range((K - 1) * p)]
    s_last, y_last = pairs_phi[-1]
    gamma = sum(a * b for a, b in zip(s_last, y_last)) / sum(b * b for b in y_last)
    expected = A(_two_loop(A_T(gradient), pairs_phi, gamma))
    found = lbfgs_direction(gradient, pairs_theta, class_coupling(p))
    assert all(abs(a - b) <= 1e-12 * (1 + abs(a)) for a, b in zip(found, expected))
    # and the coupling is A A' itself
    q = [rng.gauss(0, 1) for _ in range((K - 1) * p)]
    assert all(abs(a - b) <= 1e-12 for a, b in zip(class_coupling(p)(q), A(A_T(q))))


def test_binary_lbfgs_steps_are_plain_lbfgs_steps():
    """K = 2: P = 2 I, and the direction equals plain L-BFGS's with gamma = s'y / y'y (1 at
    the start) bit for bit (the factors 2 and 1/2 are exact)."""
    import random

    from refml.linear.logistic_solvers import class_coupling, lbfgs_direction

    rng = random.Random(3)
    p = 5
    gradient = [rng.gauss(0, 1) for _ in range(p)]
    assert lbfgs_direction(gradient, [], class_coupling(p)) == [-g for g in gradient]
    pairs = []
    for _ in range(3):
        s = [rng.gauss(0, 1) for _ in range(p)]
        y = [si + 0.1 * rng.gauss(0, 1) for si in s]
        pairs.append((s, y, 1.0 / sum(a * b for a, b in zip(s, y))))
    plain = lbfgs_direction(gradient, pairs, lambda q: list(q))
    coupled = lbfgs_direction(gradient, pairs, class_coupling(p))
    assert coupled == plain


@pytest.mark.fast
def test_the_array_two_loop_recursion_is_refmls_float_for_float():
    """refml_fast's kernel against refml's list code, 0 to 10 pairs, 2 and 4 blocks."""
    import numpy as np

    from refml.linear.logistic_solvers import class_coupling, lbfgs_direction
    from refml_fast.linear import lbfgs as _lbfgs

    rng = np.random.default_rng(11)
    for n_free, p in ((1, 7), (3, 5)):
        n = n_free * p
        gradient = rng.normal(size=n)
        S, Y, rho = rng.normal(size=(10, n)), rng.normal(size=(10, n)), rng.random(10) + 0.1
        for count in range(11):
            pairs = [(S[c].tolist(), Y[c].tolist(), float(rho[c])) for c in range(count)]
            expected = lbfgs_direction(gradient.tolist(), pairs, class_coupling(p))
            found = np.empty(n)
            _lbfgs.direction(gradient, S, Y, rho, count, p, found)
            assert found.tolist() == expected


@pytest.mark.fast
def test_lbfgs_on_arrays_takes_refmls_steps_past_the_memory_of_ten_pairs():
    import numpy as np

    import refml
    import refml_fast

    rng = np.random.default_rng(2)
    X = rng.normal(size=(300, 12))
    y = np.argmax(X[:, :5] + rng.normal(size=(300, 5)), axis=1)
    fitted = [lib.LogisticRegression(solver="lbfgs", tol=1e-9).fit(data, y)
              for lib, data in ((refml, X.tolist()), (refml_fast, X))]
    assert fitted[0].n_iter_ > 10                        # the oldest pairs were dropped
    assert fitted[1].n_iter_ == fitted[0].n_iter_
    assert list(fitted[1].loss_curve_) == list(fitted[0].loss_curve_)
    assert np.asarray(fitted[1].coef_).tolist() == np.asarray(fitted[0].coef_).tolist()


def test_the_lbfgs_scaling_falls_back_when_it_is_not_a_positive_number():
    """gamma = 1 / (y'Py / s'y), or the first step's 1/2 when that denominator is 0, infinite
    or NaN (near the optimum y'Py can underflow to 0)."""
    from refml.linear.logistic_solvers import initial_scale

    assert initial_scale(0.0) == 0.5 and initial_scale(float("inf")) == 0.5
    assert initial_scale(float("nan")) == 0.5 and initial_scale(4.0) == 0.25
