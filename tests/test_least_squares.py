"""LeastSquaresClassifier (refml.linear.least_squares / refml_fast.linear.least_squares): a fit
by hand, agreement with an independent solver, rank-deficient designs, the tie rule, exact
parity."""

import math

import pytest

from tests.helpers import as_list

# One feature, by hand: y = -1, -1, +1, +1 at x = 0, 1, 3, 4.  x_bar = 2, y_bar = 0,
# x_c = -2, -1, 1, 2: S_xx = 10, S_xy = 6, so w = 0.6 and b = 0 - 0.6 * 2 = -1.2.
HAND_X = [[0.0], [1.0], [3.0], [4.0]]
HAND_Y = ["a", "a", "b", "b"]

# A small, well-conditioned 3-feature design (no two columns related), for the solve checks.
WELL_X = [[0.5, -1.0, 2.0], [1.5, 0.3, -0.7], [-1.2, 2.2, 0.4], [0.1, -0.4, -1.9],
          [2.3, 1.1, 0.8], [-0.6, -2.0, 1.3], [1.0, 0.9, -0.2], [-1.8, 0.6, -1.1]]
WELL_Y = [1, 0, 1, 0, 1, 1, 0, 0]

# Rank-deficient designs: column 3 duplicates column 1; a constant column; n < d.
DUPLICATE_X = [row + [row[0]] for row in WELL_X]
CONSTANT_X = [row + [5.0] for row in WELL_X]
WIDE_X = [[1.0, 2.0, 0.0, 1.0, 3.0], [0.0, 1.0, 1.0, 2.0, -1.0], [2.0, 0.0, 1.0, -1.0, 0.5]]
WIDE_Y = [0, 1, 1]

# Symmetric data: f(0) = 0 exactly, so the tie rule decides the prediction at x = 0.
TIE_X = [[-1.0], [1.0]]
TIE_Y = ["left", "right"]


def close(a, b, tol=1e-9):
    return math.isclose(a, b, rel_tol=tol, abs_tol=tol)


def gauss_jordan_solve(A, b):
    """An independent solver for the test: Gauss-Jordan elimination with partial pivoting."""
    n = len(A)
    M = [list(map(float, row)) + [float(v)] for row, v in zip(A, b)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(M[r][col]))
        M[col], M[pivot] = M[pivot], M[col]
        for r in range(n):
            if r != col:
                factor = M[r][col] / M[col][col]
                M[r] = [a - factor * c for a, c in zip(M[r], M[col])]
    return [M[r][n] / M[r][r] for r in range(n)]


def ols_by_augmented_normal_equations(X, y):
    """(w, b) from [X, 1]'[X, 1] theta = [X, 1]'y (no centring, a different solver)."""
    Z = [list(row) + [1.0] for row in X]
    p = len(Z[0])
    A = [[sum(z[j] * z[k] for z in Z) for k in range(p)] for j in range(p)]
    b = [sum(z[j] * t for z, t in zip(Z, y)) for j in range(p)]
    theta = gauss_jordan_solve(A, b)
    return theta[:-1], theta[-1]


def test_the_fit_by_hand(lib):
    model = lib.LeastSquaresClassifier().fit(HAND_X, HAND_Y)
    assert close(as_list(model.coef_)[0], 0.6) and close(model.intercept_, -1.2)
    assert model.rank_ == 1
    assert as_list(model.predict([[1.5], [2.5], [2.0 + 1e-9]])) == ["a", "b", "b"]
    values = as_list(model.decision_function([[0.0], [10.0]]))
    assert close(values[0], -1.2) and close(values[1], 4.8)


def test_agrees_with_an_independent_solver(lib):
    signs = [1.0 if label == 1 else -1.0 for label in WELL_Y]
    w, b = ols_by_augmented_normal_equations(WELL_X, signs)
    model = lib.LeastSquaresClassifier().fit(WELL_X, WELL_Y)
    assert all(close(u, v, 1e-9) for u, v in zip(as_list(model.coef_), w))
    assert close(model.intercept_, b, 1e-9)
    assert model.rank_ == 3


def test_without_intercept_solves_x_transpose_x(lib):
    signs = [1.0 if label == 1 else -1.0 for label in WELL_Y]
    A = [[sum(x[j] * x[k] for x in WELL_X) for k in range(3)] for j in range(3)]
    b = [sum(x[j] * t for x, t in zip(WELL_X, signs)) for j in range(3)]
    model = lib.LeastSquaresClassifier(fit_intercept=False).fit(WELL_X, WELL_Y)
    assert all(close(u, v, 1e-9) for u, v in zip(as_list(model.coef_), gauss_jordan_solve(A, b)))
    assert model.intercept_ == 0.0


def test_a_duplicated_column_is_dropped_and_the_fit_is_unchanged(lib):
    full = lib.LeastSquaresClassifier().fit(WELL_X, WELL_Y)
    model = lib.LeastSquaresClassifier().fit(DUPLICATE_X, WELL_Y)
    coef = as_list(model.coef_)
    assert model.rank_ == 3 and coef[3] == 0.0
    assert all(close(u, v, 1e-8) for u, v in zip(coef[:3], as_list(full.coef_)))
    assert close(model.intercept_, full.intercept_, 1e-8)
    assert as_list(model.predict(DUPLICATE_X)) == as_list(full.predict(WELL_X))


def test_a_constant_column_gets_coefficient_zero(lib):
    full = lib.LeastSquaresClassifier().fit(WELL_X, WELL_Y)
    model = lib.LeastSquaresClassifier().fit(CONSTANT_X, WELL_Y)
    assert model.rank_ == 3 and as_list(model.coef_)[3] == 0.0
    assert close(model.intercept_, full.intercept_, 1e-9)


def test_fewer_samples_than_features_interpolates_the_labels(lib):
    model = lib.LeastSquaresClassifier().fit(WIDE_X, WIDE_Y)
    assert model.rank_ == 2  # 3 centred rows summing to 0 span 2 dimensions
    values = as_list(model.decision_function(WIDE_X))
    assert all(close(v, t, 1e-9) for v, t in zip(values, [-1.0, 1.0, 1.0]))
    assert as_list(model.predict(WIDE_X)) == WIDE_Y


def test_all_columns_constant_predicts_the_majority(lib):
    model = lib.LeastSquaresClassifier().fit([[1.0], [1.0], [1.0]], [0, 1, 1])
    assert model.rank_ == 0 and as_list(model.coef_) == [0.0]
    assert close(model.intercept_, 1.0 / 3.0)
    assert as_list(model.predict([[7.0]])) == [1]


def test_f_equal_to_zero_goes_to_the_second_class_as_sign_0_is_plus_1(lib):
    model = lib.LeastSquaresClassifier().fit(TIE_X, TIE_Y)
    assert as_list(model.decision_function([[0.0]])) == [0.0]
    assert as_list(model.predict([[0.0], [0.5], [-0.5]])) == ["right", "right", "left"]


def test_features_whose_squares_overflow_raise_a_clear_error(lib):
    with pytest.raises(ValueError, match="rescale"):
        lib.LeastSquaresClassifier().fit([[1e300], [-1e300], [2e300]], [0, 1, 1])
    model = lib.LeastSquaresClassifier().fit([[v * 1e150] for v in (0.0, 1.0, 3.0, 4.0)],
                                             HAND_Y)
    assert close(as_list(model.coef_)[0] * 1e150, 0.6) and close(model.intercept_, -1.2)


def test_three_classes_by_hand(lib):
    """x = 0, 1, 2 of classes 0, 1, 2: x_bar = 1, X_c'X_c = 2, and the +-1 targets give
    w = (-1, 0, 1), b = (2/3, -1/3, -4/3): class 0 left, class 2 right."""
    model = lib.LeastSquaresClassifier().fit([[0.0], [1.0], [2.0]], [0, 1, 2])
    coef, intercept = as_list(model.coef_), as_list(model.intercept_)
    for found, expected in zip(coef, [[-1.0], [0.0], [1.0]]):
        assert found[0] == pytest.approx(expected[0], abs=1e-12)
    assert intercept == pytest.approx([2 / 3, -1 / 3, -4 / 3], abs=1e-12)
    assert as_list(model.predict([[-1.0], [0.0], [2.0], [3.0]])) == [0, 0, 2, 2]
    assert len(as_list(model.decision_function([[0.0], [1.0]]))[0]) == 3


@pytest.mark.sklearn
def test_many_classes_match_an_independent_least_squares_fit(lib):
    """Each class's (w_k, b_k) is the OLS fit to its +-1 targets (numpy's lstsq)."""
    import numpy as np

    rng = np.random.default_rng(4)
    X = rng.normal(size=(60, 3))
    y = rng.integers(0, 4, size=60)
    model = lib.LeastSquaresClassifier().fit(X.tolist(), y.tolist())
    design = np.column_stack([X, np.ones(60)])
    for k in range(4):
        solution = np.linalg.lstsq(design, np.where(y == k, 1.0, -1.0), rcond=None)[0]
        assert as_list(model.coef_)[k] == pytest.approx(solution[:3].tolist(), abs=1e-10)
        assert as_list(model.intercept_)[k] == pytest.approx(solution[3], abs=1e-10)
    values = design @ np.column_stack([np.linalg.lstsq(
        design, np.where(y == k, 1.0, -1.0), rcond=None)[0] for k in range(4)])
    assert as_list(model.predict(X.tolist())) == np.argmax(values, axis=1).tolist()


@pytest.mark.fast
def test_many_classes_are_identical_in_both_packages():
    import refml
    import refml_fast

    X = [[float((i * 7) % 5), float((i * 3) % 4) - 1.5, 0.25 * i] for i in range(30)]
    y = [f"k{i % 4}" for i in range(30)]
    a = refml.LeastSquaresClassifier().fit(X, y)
    b = refml_fast.LeastSquaresClassifier().fit(X, y)
    assert as_list(a.coef_) == as_list(b.coef_) and as_list(a.intercept_) == as_list(b.intercept_)
    assert as_list(a.predict(X)) == as_list(b.predict(X))
    assert as_list(a.decision_function(X)) == as_list(b.decision_function(X))


@pytest.mark.parametrize("params, name", [({"tol": -0.1}, "tol"), ({"tol": 1.0}, "tol"),
                                          ({"fit_intercept": 1}, "fit_intercept")])
def test_bad_hyper_parameters_are_named_at_fit(lib, params, name):
    with pytest.raises(ValueError, match=name):
        lib.LeastSquaresClassifier(**params).fit(HAND_X, HAND_Y)


@pytest.mark.fast
def test_agrees_with_numpy_least_squares():
    # An independent solver (LAPACK's SVD-based lstsq) on the augmented design [1, X]
    # (scikit-learn is only in the bench extra, so the README's test install lacks it).
    import numpy as np

    import refml_fast

    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 6))
    y = (X[:, 0] - X[:, 2] + rng.normal(size=300) > 0).astype(int)
    solution = np.linalg.lstsq(np.hstack([np.ones((300, 1)), X]), 2.0 * y - 1.0, rcond=None)[0]
    model = refml_fast.LeastSquaresClassifier().fit(X, y)
    assert np.allclose(model.coef_, solution[1:], rtol=1e-9, atol=1e-12)
    assert math.isclose(model.intercept_, solution[0], rel_tol=1e-9, abs_tol=1e-12)


@pytest.mark.fast
def test_fast_gives_the_identical_coefficients():
    import numpy as np

    import refml
    import refml_fast
    from refml.core.random import Generator

    rng = Generator(11)
    for trial in range(60):
        n, d = 2 + rng.randbelow(25), 1 + rng.randbelow(5)
        grid = trial % 2 == 0   # small integers: duplicates, collinear and constant columns
        X = [[float(rng.randbelow(3) - 1) if grid else rng.normal() for _ in range(d)]
             for _ in range(n)]
        y = [0, 1] + [rng.randbelow(2) for _ in range(n - 2)]
        for fit_intercept in (True, False):
            a = refml.LeastSquaresClassifier(fit_intercept=fit_intercept).fit(X, y)
            b = refml_fast.LeastSquaresClassifier(fit_intercept=fit_intercept).fit(
                np.array(X), np.array(y))
            assert b.coef_.tolist() == a.coef_ and b.intercept_ == a.intercept_
            assert b.rank_ == a.rank_
            assert b.decision_function(X).tolist() == a.decision_function(X)
