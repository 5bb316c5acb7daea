"""LDA and QDA (refml.discriminant / refml_fast.discriminant): coefficients against the
closed forms computed here with exact fractions, the logistic form, priors, ties, singular
covariances, overflow, hyper-parameters, and the kernels run as plain Python."""

import math
import warnings
from fractions import Fraction

import pytest

from tests.helpers import as_list

# Three classes in the plane built so that the scatter matrices are small integers:
# class "a" has deviations (-1,-1), (1,1), (0,-1), (0,1) about (1, 1): S = [[2, 2], [2, 4]];
# class "b" is class "a" moved by (4, 0); class "c" has two points about (1, 5):
# S = [[2, 2], [2, 2]] (singular on its own).  Pooled: W = [[6, 6], [6, 10]], N - K = 7.
A_POINTS = [[0.0, 0.0], [2.0, 2.0], [1.0, 0.0], [1.0, 2.0]]
B_POINTS = [[x + 4.0, y] for x, y in A_POINTS]
C_POINTS = [[0.0, 4.0], [2.0, 6.0]]
X3 = A_POINTS + B_POINTS + C_POINTS
Y3 = ["a"] * 4 + ["b"] * 4 + ["c"] * 2
QUERIES = [[0.0, 0.0], [3.0, 1.5], [1.0, 4.0], [-2.0, 7.0], [10.0, -3.0]]

# Two classes for QDA with unequal covariances: "a" as above (Sigma = [[1/2, 1/2], [1/2, 1]])
# and a square about (5, 1) (deviations (+-1, +-1): Sigma = I).
SQUARE = [[4.0, 0.0], [6.0, 0.0], [4.0, 2.0], [6.0, 2.0]]
XQ = A_POINTS + SQUARE
YQ = [0] * 4 + [1] * 4

# One feature, symmetric about 0: means -1.5 and 1.5, pooled variance 1/2, so w = 6 and,
# with equal priors, b = 0: x = 0 lies exactly on the boundary (a tie).
LINE_X = [[-1.0], [-2.0], [1.0], [2.0]]
LINE_Y = [0, 0, 1, 1]

# The second feature is twice the first: every covariance is singular.
COLLINEAR_X = [[t, 2.0 * t] for t in (0.0, 1.0, 2.0, 3.0, 5.0, 6.0, 7.0, 9.0)]
COLLINEAR_Y = [0, 0, 0, 0, 1, 1, 1, 1]
# The same up to noise of 1e-9: singular to working precision (1 - R^2 ~ 1e-19).
NEAR_COLLINEAR_X = [[t, 2.0 * t + 1e-9 * (-1) ** i] for i, (t, _) in enumerate(COLLINEAR_X)]


def F(matrix):
    return [[Fraction(v) for v in row] for row in matrix]


def inverse_2x2(S):
    """[[a, b], [c, d]]^{-1} = [[d, -b], [-c, a]] / (ad - bc), exactly."""
    (a, b), (c, d) = S
    det = a * d - b * c
    return [[d / det, -b / det], [-c / det, a / det]], det


def mat_vec(M, v):
    return [sum(m * x for m, x in zip(row, v)) for row in M]


def dot(u, v):
    return sum(a * b for a, b in zip(u, v))


def close(a, b, tol=1e-12):
    return math.isclose(float(a), float(b), rel_tol=tol, abs_tol=tol)


def rows(values):
    return [[float(v) for v in row] for row in as_list(values)]


# --- LDA against the closed forms -------------------------------------------------------------

def test_lda_multiclass_coefficients_match_the_closed_forms(lib):
    model = lib.LinearDiscriminantAnalysis().fit(X3, Y3)
    Sigma = [[Fraction(6, 7), Fraction(6, 7)], [Fraction(6, 7), Fraction(10, 7)]]
    inverse, _ = inverse_2x2(Sigma)
    means = [[Fraction(1), Fraction(1)], [Fraction(5), Fraction(1)], [Fraction(1), Fraction(5)]]
    priors = [Fraction(4, 10), Fraction(4, 10), Fraction(2, 10)]
    assert rows(model.covariance_) == [[6 / 7, 6 / 7], [6 / 7, 10 / 7]]
    assert rows(model.means_) == [[1.0, 1.0], [5.0, 1.0], [1.0, 5.0]]
    assert as_list(model.priors_) == [0.4, 0.4, 0.2]
    for k, (mu, omega) in enumerate(zip(means, priors)):
        a_k = mat_vec(inverse, mu)                    # Sigma^{-1} mu_k
        c_k = -dot(mu, a_k) / 2                       # -1/2 mu_k' Sigma^{-1} mu_k
        assert all(close(u, v) for u, v in zip(as_list(model.coef_)[k], a_k))
        assert close(as_list(model.intercept_)[k], float(c_k) + math.log(omega))
    for x, scores in zip(QUERIES, rows(model.decision_function(QUERIES))):
        expected = [float(dot(F([x])[0], mat_vec(inverse, mu)) - dot(mu, mat_vec(inverse, mu)) / 2)
                    + math.log(omega) for mu, omega in zip(means, priors)]
        assert all(close(s, e) for s, e in zip(scores, expected))


@pytest.mark.parametrize("covariance, divisor", [("pooled", 6), ("mle", 8)])
def test_binary_lda_is_fisher_with_the_corrected_intercept(lib, covariance, divisor):
    X, y = A_POINTS + B_POINTS, ["a"] * 4 + ["b"] * 4
    model = lib.LinearDiscriminantAnalysis(covariance=covariance).fit(X, y)
    Sigma = [[Fraction(4, divisor), Fraction(4, divisor)],
             [Fraction(4, divisor), Fraction(8, divisor)]]
    inverse, _ = inverse_2x2(Sigma)
    mu_0, mu_1 = [Fraction(1), Fraction(1)], [Fraction(5), Fraction(1)]
    w = mat_vec(inverse, [p - q for p, q in zip(mu_1, mu_0)])     # Sigma^{-1}(mu_1 - mu_0)
    b = -dot([p + q for p, q in zip(mu_1, mu_0)], w) / 2        # + log(1/2 / 1/2) = 0
    coef = rows(model.coef_)
    assert len(coef) == 1 and all(close(u, v) for u, v in zip(coef[0], w))
    assert close(as_list(model.intercept_)[0], b)
    for x, p in zip(QUERIES, rows(model.predict_proba(QUERIES))):
        s = float(dot(F([x])[0], w) + b)
        posterior = 1.0 / (1.0 + math.exp(-s))        # sigma(w'x + b)
        assert close(p[1], posterior) and close(p[0], 1.0 - posterior)
        # The lecture's printed (1 + exp(w'x + b))^{-1} is the posterior of the other class.
        assert close(1.0 / (1.0 + math.exp(s)), p[0])


def test_priors_enter_the_intercept_as_the_log_odds(lib):
    model = lib.LinearDiscriminantAnalysis(priors=[0.2, 0.8]).fit(LINE_X, LINE_Y)
    assert close(as_list(model.coef_)[0][0], 6.0) and close(model.intercept_[0], math.log(4.0))
    assert as_list(model.predict([[-0.2]])) == [1]   # boundary moved to -log(4)/6 = -0.231
    plain = lib.LinearDiscriminantAnalysis().fit(LINE_X, LINE_Y)
    assert as_list(plain.predict([[-0.2]])) == [0]


def test_a_tiny_prior_gives_a_finite_intercept(lib):
    # log(omega_1 / omega_0) overflows for omega_0 = 5e-324; log omega_1 - log omega_0 does not.
    model = lib.LinearDiscriminantAnalysis(priors=[5e-324, 1.0]).fit(LINE_X, LINE_Y)
    assert close(model.intercept_[0], -math.log(5e-324))
    assert as_list(model.predict([[-2.0]])) == [1]


def test_a_score_of_exactly_zero_goes_to_the_first_class(lib):
    model = lib.LinearDiscriminantAnalysis().fit(LINE_X, LINE_Y)
    assert as_list(model.decision_function([[0.0]])) == [0.0]
    assert as_list(model.predict([[0.0]])) == [0]
    assert rows(model.predict_proba([[0.0]])) == [[0.5, 0.5]]


@pytest.mark.parametrize("estimator", ["LinearDiscriminantAnalysis",
                                       "QuadraticDiscriminantAnalysis"])
def test_identical_classes_tie_to_the_first_in_classes_order(lib, estimator):
    # Classes "c" and "d" have the same points, so delta_c(x) = delta_d(x) for every x.
    X = A_POINTS + SQUARE + SQUARE
    y = ["a"] * 4 + ["d"] * 4 + ["c"] * 4
    model = getattr(lib, estimator)().fit(X, y)
    scores = rows(model.decision_function(SQUARE))
    assert all(row[1] == row[2] for row in scores)
    assert as_list(model.predict(SQUARE)) == ["c"] * 4


# --- QDA against the closed forms -------------------------------------------------------------

def test_qda_matches_the_closed_forms(lib):
    model = lib.QuadraticDiscriminantAnalysis().fit(XQ, YQ)
    Sigma_0 = [[Fraction(1, 2), Fraction(1, 2)], [Fraction(1, 2), Fraction(1)]]
    Sigma_1 = [[Fraction(1), Fraction(0)], [Fraction(0), Fraction(1)]]
    assert [rows(S) for S in as_list(model.covariance_)] == [[[0.5, 0.5], [0.5, 1.0]],
                                                             [[1.0, 0.0], [0.0, 1.0]]]
    means = [[Fraction(1), Fraction(1)], [Fraction(5), Fraction(1)]]
    deltas = []
    for x in QUERIES:
        row = []
        for mu, Sigma in zip(means, (Sigma_0, Sigma_1)):
            inverse, det = inverse_2x2(Sigma)
            c = [Fraction(v) - m for v, m in zip(x, mu)]
            quadratic = dot(c, mat_vec(inverse, c))
            row.append(-0.5 * (math.log(det) + float(quadratic)) + math.log(0.5))
        deltas.append(row)
    decision = as_list(model.decision_function(QUERIES))
    for d, (delta_0, delta_1) in zip(decision, deltas):
        assert close(d, delta_1 - delta_0)
    for p, (delta_0, delta_1) in zip(rows(model.predict_proba(QUERIES)), deltas):
        assert close(p[1], 1.0 / (1.0 + math.exp(delta_0 - delta_1)))
        assert close(p[0] + p[1], 1.0)
    expected = [1 if d1 > d0 else 0 for d0, d1 in deltas]
    assert as_list(model.predict(QUERIES)) == expected


def test_qda_multiclass_posteriors_sum_to_one_and_agree_with_predict(lib):
    model = lib.QuadraticDiscriminantAnalysis(reg_param=0.1).fit(X3, Y3)
    probabilities = rows(model.predict_proba(QUERIES))
    predicted = as_list(model.predict(QUERIES))
    for p, label in zip(probabilities, predicted):
        assert close(sum(p), 1.0)
        assert model.classes_[p.index(max(p))] == label
    assert len(rows(model.decision_function(QUERIES))[0]) == 3


def test_reg_param_shrinks_towards_the_identity(lib):
    model = lib.QuadraticDiscriminantAnalysis(reg_param=0.25).fit(XQ, YQ)
    # (1 - r) [[1/2, 1/2], [1/2, 1]] + r I with r = 1/4.
    assert rows(as_list(model.covariance_)[0]) == [[0.625, 0.375], [0.375, 1.0]]
    lda = lib.LinearDiscriminantAnalysis(reg_param=1.0).fit(X3, Y3)
    assert rows(lda.covariance_) == [[1.0, 0.0], [0.0, 1.0]]


# --- singular covariances ---------------------------------------------------------------------

@pytest.mark.parametrize("X", [COLLINEAR_X, NEAR_COLLINEAR_X], ids=["exact", "near"])
def test_qda_refuses_collinear_features_unless_shrunk(lib, X):
    model = lib.QuadraticDiscriminantAnalysis()
    with pytest.raises(ValueError, match=r"singular.*feature 1.*reg_param") as info:
        model.fit(X, COLLINEAR_Y)
    assert "covariance" in str(info.value)
    assert not [a for a in vars(model) if a.endswith("_") and not a.startswith("_")]
    model.set_params(reg_param=0.1).fit(X, COLLINEAR_Y)
    assert as_list(model.predict([[0.5, 1.0], [8.0, 16.0]])) == [0, 1]


@pytest.mark.parametrize("X", [COLLINEAR_X, NEAR_COLLINEAR_X], ids=["exact", "near"])
def test_lda_leaves_out_a_collinear_feature_with_a_warning(lib, X):
    model = lib.LinearDiscriminantAnalysis()
    with pytest.warns(UserWarning, match=r"collinear.*feature\(s\) \[1\].*reg_param"):
        model.fit(X, COLLINEAR_Y)
    assert as_list(model.dependent_features_) == [1]
    # The model is LDA on feature 0 alone: the same floats as a fit of that column.
    alone = lib.LinearDiscriminantAnalysis().fit([[x[0]] for x in X], COLLINEAR_Y)
    assert rows(model.coef_) == [[rows(alone.coef_)[0][0], 0.0]]
    assert as_list(model.intercept_) == as_list(alone.intercept_)
    assert as_list(model.dependent_features_) == [1] and as_list(alone.dependent_features_) == []
    assert as_list(model.predict([[0.5, 1.0], [8.0, 16.0]])) == [0, 1]
    with warnings.catch_warnings():
        warnings.simplefilter("error")            # shrinkage keeps both, silently
        shrunk = lib.LinearDiscriminantAnalysis(reg_param=0.1).fit(X, COLLINEAR_Y)
    assert as_list(shrunk.dependent_features_) == [] and 0.0 not in rows(shrunk.coef_)[0]


def test_lda_leaves_out_constant_and_dependent_features_among_several(lib):
    """Three classes, five features: feature 1 constant, feature 3 = feature 0 - 2 feature 2.
    The fit equals LDA on features 0, 2, 4, float for float, zeros elsewhere."""
    from refml.core.random import Generator

    rng = Generator(11)
    X, y = [], []
    for i in range(30):
        a, b, c = rng.random() + (i % 3), rng.random(), rng.random() - 0.3 * (i % 3)
        X.append([a, 7.0, b, a - 2.0 * b, c])
        y.append(i % 3)
    with pytest.warns(UserWarning, match=r"feature\(s\) \[1, 3\]"):
        model = lib.LinearDiscriminantAnalysis().fit(X, y)
    reduced = lib.LinearDiscriminantAnalysis().fit([[x[0], x[2], x[4]] for x in X], y)
    for full, small in zip(rows(model.coef_), rows(reduced.coef_)):
        assert full == [small[0], 0.0, small[1], 0.0, small[2]]
    assert as_list(model.intercept_) == as_list(reduced.intercept_)
    assert as_list(model.predict(X)) == as_list(reduced.predict([[x[0], x[2], x[4]] for x in X]))


def test_lda_refuses_when_every_feature_is_constant_within_the_classes(lib):
    X = [[0.0, 3.0], [0.0, 3.0], [1.0, 3.0], [1.0, 3.0]]
    model = lib.LinearDiscriminantAnalysis()
    with pytest.raises(ValueError, match="every feature is constant within every class"):
        model.fit(X, [0, 0, 1, 1])
    assert not hasattr(model, "coef_")


def test_qda_names_the_class_with_one_sample(lib):
    X, y = XQ + [[9.0, 9.0]], YQ + [2]
    with pytest.raises(ValueError, match=r"class 2 \(1 sample\(s\)\) is singular"):
        lib.QuadraticDiscriminantAnalysis().fit(X, y)
    model = lib.QuadraticDiscriminantAnalysis(reg_param=0.5).fit(X, y)
    assert as_list(model.predict([[9.0, 9.0]])) == [2]
    # LDA pools the scatter: a class with one sample is no problem there.
    assert as_list(lib.LinearDiscriminantAnalysis().fit(X, y).predict([[9.0, 9.0]])) == [2]


def test_pooled_covariance_needs_more_samples_than_classes(lib):
    with pytest.raises(ValueError, match="N - K = 0"):
        lib.LinearDiscriminantAnalysis().fit([[0.0], [1.0]], [0, 1])
    model = lib.LinearDiscriminantAnalysis(covariance="mle", reg_param=0.5)
    assert as_list(model.fit([[0.0], [1.0]], [0, 1]).predict([[0.2], [0.9]])) == [0, 1]


# --- numeric extremes ------------------------------------------------------------------------

def test_far_points_give_stable_probabilities(lib):
    lda = lib.LinearDiscriminantAnalysis().fit(LINE_X, LINE_Y)
    assert rows(lda.predict_proba([[-1e6], [1e6]])) == [[1.0, 0.0], [0.0, 1.0]]
    multi = lib.LinearDiscriminantAnalysis().fit(X3, Y3)
    for p in rows(multi.predict_proba([[1e7, -1e7], [-1e8, 1e8]])):
        assert all(math.isfinite(v) for v in p) and close(sum(p), 1.0)


def test_overflowing_data_raise_instead_of_answering(lib):
    huge = [[x * 1e200, 0.0 + x] for x in (0.0, 1.0, 5.0, 6.0)]
    with pytest.raises(ValueError, match="overflows the float range"):
        lib.LinearDiscriminantAnalysis().fit(huge, [0, 0, 1, 1])
    with pytest.raises(ValueError, match="class mean overflows"):
        lib.QuadraticDiscriminantAnalysis().fit([[1e308], [1.7e308], [0.0], [1.0]],
                                                [0, 0, 1, 1])
    model = lib.QuadraticDiscriminantAnalysis().fit(XQ, YQ)
    with pytest.raises(ValueError, match="scores .* overflow"):
        model.predict([[1e200, 0.0]])


# --- hyper-parameters -------------------------------------------------------------------------

@pytest.mark.parametrize("params, name", [
    ({"covariance": "unbiased"}, "covariance"),
    ({"reg_param": -0.1}, "reg_param"),
    ({"reg_param": 1.5}, "reg_param"),
    ({"reg_param": "0.1"}, "reg_param"),
    ({"priors": [0.5]}, "priors"),
    ({"priors": [0.7, 0.7]}, "priors"),
    ({"priors": [1.0, 0.0]}, "priors"),
    ({"priors": "ab"}, "priors"),
    ({"priors": [0.5, float("nan")]}, "priors"),
])
def test_bad_hyper_parameters_are_named_at_fit(lib, params, name):
    estimator = "LinearDiscriminantAnalysis"
    if "covariance" not in params:
        estimator = "QuadraticDiscriminantAnalysis" if "reg" in name else estimator
    model = getattr(lib, estimator)(**params)
    with pytest.raises(ValueError, match=name):
        model.fit(XQ, YQ)
    assert not [a for a in vars(model) if a.endswith("_") and not a.startswith("_")]


# --- the kernels as plain Python (coverage of their bodies; same numbers) ----------------------

@pytest.mark.fast
def test_scores_on_threads_are_the_serial_scores():
    """The parallel twins of the LDA and QDA score kernels (chunks of rows on threads, the
    last chunk short) give the serial kernels' floats; so do the scores predict computes on
    a large X, where it launches them when the cores are free."""
    import numpy as np

    from refml_fast.discriminant import analysis as fast

    rng = np.random.default_rng(5)
    X = rng.normal(size=(2 * fast.CHUNK + 77, 6))
    codes = rng.integers(0, 4, size=X.shape[0])
    qda = fast.QuadraticDiscriminantAnalysis().fit(X, codes)
    args = (X, qda.means_, qda._factors_transposed, qda._log_dets, qda._log_priors)
    serial, threaded = np.empty((X.shape[0], 4)), np.empty((X.shape[0], 4))
    fast.quadratic_scores(*args, serial, 0, X.shape[0])
    fast.quadratic_scores_parallel(*args, threaded, 0, X.shape[0])
    assert np.array_equal(serial, threaded)
    lda = fast.LinearDiscriminantAnalysis().fit(X, codes)
    coef_t = np.ascontiguousarray(lda.coef_.T)
    fast.linear_scores(X, coef_t, lda.intercept_, serial, 0, X.shape[0])
    fast.linear_scores_parallel(X, coef_t, lda.intercept_, threaded, 0, X.shape[0])
    assert np.array_equal(serial, threaded)
    big = rng.normal(size=(40_000, 30))          # enough work for predict to launch
    labels = rng.integers(0, 5, size=big.shape[0])
    expected = np.empty((big.shape[0], 5))
    qda = fast.QuadraticDiscriminantAnalysis().fit(big, labels)
    fast.quadratic_scores(big, qda.means_, qda._factors_transposed, qda._log_dets,
                          qda._log_priors, expected, 0, big.shape[0])
    assert np.array_equal(qda._discriminant_scores(big), expected)
    lda = fast.LinearDiscriminantAnalysis().fit(big, labels)
    fast.linear_scores(big, np.ascontiguousarray(lda.coef_.T), lda.intercept_, expected, 0,
                       big.shape[0])
    assert np.array_equal(lda._discriminant_scores(big), expected)


@pytest.mark.fast
def test_kernels_run_as_plain_python_with_the_same_floats():
    import numpy as np

    from refml_fast.discriminant import analysis as fast

    def plain(kernel):  # the Python function under the kernel (itself with NUMBA_DISABLE_JIT)
        return getattr(kernel, "py_func", kernel)

    rng = np.random.default_rng(3)
    X = rng.normal(size=(23, 4))
    codes = np.array([0, 1, 2] * 7 + [0, 0], dtype=np.int64)
    results = []
    for run in (fast.class_statistics, plain(fast.class_statistics)):
        counts, means, S = np.zeros(3, np.int64), np.zeros((3, 4)), np.zeros((3, 4, 4))
        run(X, codes, counts, means, S)
        results.append((counts, means, S))
    for a, b in zip(*results):
        assert np.array_equal(a, b)
    model = fast.QuadraticDiscriminantAnalysis().fit(X, codes)
    args = (X, model.means_, model._factors_transposed, model._log_dets, model._log_priors)
    outputs = [np.empty((23, 3)), np.empty((23, 3))]
    fast.quadratic_scores(*args, outputs[0], 0, 23)
    plain(fast.quadratic_scores)(*args, outputs[1], 0, 23)
    assert np.array_equal(outputs[0], outputs[1])
    lda = fast.LinearDiscriminantAnalysis().fit(X, codes)
    coef_t = np.ascontiguousarray(lda.coef_.T)
    fast.linear_scores(X, coef_t, lda.intercept_, outputs[0], 0, 23)
    plain(fast.linear_scores)(X, coef_t, lda.intercept_, outputs[1], 0, 23)
    assert np.array_equal(outputs[0], outputs[1])
    probabilities = [np.empty((23, 3)), np.empty((23, 3))]
    posterior = fast._linalg        # the posteriors' kernels, shared with AdaBoost
    posterior.softmax_posterior(outputs[0], probabilities[0])
    plain(posterior.softmax_posterior)(outputs[0], probabilities[1])
    assert np.array_equal(probabilities[0], probabilities[1])
    binary = [np.empty((23, 2)), np.empty((23, 2))]
    posterior.logistic_posterior(outputs[0][:, 0].copy(), binary[0])
    plain(posterior.logistic_posterior)(outputs[0][:, 0].copy(), binary[1])
    assert np.array_equal(binary[0], binary[1])
