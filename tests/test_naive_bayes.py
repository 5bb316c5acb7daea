"""Kernel density classifier, naive Bayes and GaussianNB (refml.density.naive_bayes).

Expected values are computed here from the lecture's formulas (priors n_k / n times a
density, normalised), never by the code under test.  Labels: exact; floats: math.isclose
with the stated tolerance.
"""

import math
import random

import pytest

from tests.helpers import as_list

# One feature, two classes: class "a" at 0 and 2, class "b" at 4, 6, 8.  GaussianNB by
# hand: theta = (1, 6), MLE variances (1, 8/3), overall variance 8 (epsilon = 8e-9).
X_LINE = [[0.0], [2.0], [4.0], [6.0], [8.0]]
Y_LINE = ["a", "a", "b", "b", "b"]
# Three classes in the plane; class 2 has a single sample, far from the others.
X_SINGLE = [[0.0, 0.0], [1.0, 0.5], [0.5, 1.0], [4.0, 4.0], [5.0, 4.5], [4.5, 5.0],
            [20.0, -20.0]]
Y_SINGLE = [0, 0, 0, 1, 1, 1, 2]
# A constant second feature (zero variance overall and in every class).
X_CONSTANT = [[0.0, 3.0], [1.0, 3.0], [0.5, 3.0], [4.0, 3.0], [5.0, 3.0], [4.5, 3.0]]
Y_CONSTANT = [0, 0, 0, 1, 1, 1]

ALL = [("KernelDensityClassifier", {}), ("KernelDensityClassifier", {"kernel": "epanechnikov"}),
       ("KernelDensityClassifier", {"bandwidth": "cv"}), ("NaiveBayes", {}),
       ("NaiveBayes", {"marginal": "histogram"}), ("NaiveBayes", {"marginal": "kde"}),
       ("NaiveBayes", {"marginal": "kde", "bandwidth": "cv"}), ("GaussianNB", {})]


def normal_pdf(x, mean, variance):
    return math.exp(-0.5 * (x - mean) ** 2 / variance) / math.sqrt(2 * math.pi * variance)


def close_rows(found, expected, tolerance):
    return all(math.isclose(a, b, rel_tol=tolerance, abs_tol=tolerance)
               for row_a, row_b in zip(found, expected) for a, b in zip(row_a, row_b))


def test_gaussian_nb_by_hand(lib):
    model = lib.GaussianNB().fit(X_LINE, Y_LINE)
    epsilon = 1e-9 * 8.0
    assert math.isclose(model.epsilon_, epsilon, rel_tol=1e-12)
    assert close_rows(as_list(model.theta_), [[1.0], [6.0]], 1e-14)
    assert close_rows(as_list(model.var_), [[1.0 + epsilon], [8 / 3 + epsilon]], 1e-14)
    joint = [0.4 * normal_pdf(3.0, 1.0, 1.0 + epsilon),
             0.6 * normal_pdf(3.0, 6.0, 8 / 3 + epsilon)]
    expected = [p / sum(joint) for p in joint]
    assert close_rows(as_list(model.predict_proba([[3.0]])), [expected], 1e-12)
    assert expected[1] > expected[0]  # 0.4 N(3; 1, 1) < 0.6 N(3; 6, 8/3)
    assert as_list(model.predict([[3.0], [2.0], [-1.0], [7.0]])) == ["b", "a", "a", "b"]
    logs = as_list(model.predict_log_proba([[3.0]]))[0]
    assert close_rows([logs], [[math.log(p) for p in expected]], 1e-12)
    assert model.get_params() == {"var_smoothing": 1e-9}


@pytest.mark.fast
def test_gaussian_nb_agrees_with_the_formula_in_numpy():
    # Written independently in numpy (scikit-learn is only in the bench extra): per-class
    # means and divisor-n_k variances plus epsilon = 1e-9 max_j Var(X_j), priors n_k / n,
    # and the normalised product of normal densities.
    import numpy as np

    import refml_fast

    rng = np.random.default_rng(3)
    y = rng.integers(0, 3, size=300)
    X = rng.normal(size=(300, 4)) * (1 + y[:, None]) + y[:, None]
    queries = rng.normal(size=(100, 4)) * 3
    ours = refml_fast.GaussianNB().fit(X, y)
    epsilon = 1e-9 * X.var(axis=0).max()
    means = np.array([X[y == k].mean(axis=0) for k in range(3)])
    variances = np.array([X[y == k].var(axis=0) for k in range(3)]) + epsilon
    priors = np.bincount(y) / len(y)
    squares = ((queries[:, None, :] - means[None]) ** 2 / variances[None]).sum(axis=2)
    log_joint = (np.log(priors)[None, :]
                 - 0.5 * np.log(2 * np.pi * variances).sum(axis=1)[None, :] - 0.5 * squares)
    posterior = np.exp(log_joint - log_joint.max(axis=1, keepdims=True))
    posterior /= posterior.sum(axis=1, keepdims=True)
    assert np.allclose(ours.var_, variances, rtol=1e-12)
    assert np.allclose(ours.theta_, means, rtol=1e-12, atol=1e-14)
    assert np.allclose(ours.predict_proba(queries), posterior, rtol=1e-9, atol=1e-12)
    assert np.array_equal(ours.predict(queries), np.argmax(log_joint, axis=1))


def test_kernel_density_classifier_by_hand(lib):
    h = 1.5
    model = lib.KernelDensityClassifier(bandwidth=h).fit(X_LINE, Y_LINE)
    for x in (3.0, 4.9, -10.0):
        f_a = sum(normal_pdf(x, m, h * h) for m in (0.0, 2.0)) / 2
        f_b = sum(normal_pdf(x, m, h * h) for m in (4.0, 6.0, 8.0)) / 3
        joint = [0.4 * f_a, 0.6 * f_b]
        expected = [p / sum(joint) for p in joint]
        assert close_rows(as_list(model.predict_proba([[x]])), [expected], 1e-12)
        assert as_list(model.predict([[x]])) == [["a", "b"][expected[1] > expected[0]]]


def test_naive_bayes_kde_is_a_product_of_one_dimensional_kdes(lib):
    h = 0.8
    model = lib.NaiveBayes(marginal="kde", bandwidth=h).fit(X_SINGLE[:6], Y_SINGLE[:6])
    x = [2.0, 1.5]
    joint = []
    for k in (0, 1):
        rows = [r for r, c in zip(X_SINGLE[:6], Y_SINGLE[:6]) if c == k]
        f = 1.0
        for j in (0, 1):
            f *= sum(normal_pdf(x[j], r[j], h * h) for r in rows) / len(rows)
        joint.append(0.5 * f)
    expected = [p / sum(joint) for p in joint]
    assert close_rows(as_list(model.predict_proba([x])), [expected], 1e-12)


def test_naive_bayes_histogram_by_hand(lib):
    # range [0, 8], 2 bins of width 4: class a has (2, 0), class b has (0, 3) (x = 4 is in
    # bin 1).  At x = 1: f_a = 2 / (2 * 4), f_b = 0.
    model = lib.NaiveBayes(marginal="histogram", bins=2).fit(X_LINE, Y_LINE)
    assert as_list(model.predict_proba([[1.0]])) == [[1.0, 0.0]]
    assert close_rows(as_list(model.predict_proba([[6.0]])), [[0.0, 1.0]], 1e-15)
    # outside the range every class has density 0: the posterior is the prior
    assert close_rows(as_list(model.predict_proba([[9.0], [-0.1]])), [[0.4, 0.6]] * 2, 1e-15)
    assert as_list(model.predict([[9.0]])) == ["b"]


def test_zero_density_everywhere_gives_the_prior(lib):
    model = lib.KernelDensityClassifier(kernel="epanechnikov", bandwidth=0.5)
    model.fit(X_LINE, Y_LINE)
    assert close_rows(as_list(model.predict_proba([[100.0]])), [[0.4, 0.6]], 1e-15)
    assert close_rows(as_list(model.predict_log_proba([[100.0]])),
                      [[math.log(0.4), math.log(0.6)]], 1e-14)
    # equal priors: ties go to the first class
    tied = lib.KernelDensityClassifier(kernel="epanechnikov", bandwidth=0.5)
    tied.fit([[0.0], [1.0], [5.0], [6.0]], [1, 1, 0, 0])
    assert as_list(tied.predict([[100.0], [0.2]])) == [0, 1]


def test_probabilities_are_finite_far_in_the_tails(lib):
    for name, params in ALL:
        model = getattr(lib, name)(**params).fit(X_SINGLE, Y_SINGLE)
        for row in as_list(model.predict_proba([[1e6, -1e6], [-3e4, 2e5]])):
            assert all(0.0 <= p <= 1.0 for p in row), (name, params, row)
            assert math.isclose(sum(row), 1.0, rel_tol=1e-12), (name, params)


def test_a_class_with_a_single_sample(lib):
    for name, params in ALL:
        model = getattr(lib, name)(**params).fit(X_SINGLE, Y_SINGLE)
        assert as_list(model.predict([[20.0, -20.0], [0.5, 0.5], [4.5, 4.5]])) == [2, 0, 1], \
            (name, params)


def test_a_constant_feature_changes_nothing(lib):
    # The constant feature has the same estimate in every class, so the labels are those
    # learned without it.
    queries = [[0.2, 3.0], [2.4, 3.0], [2.6, 3.0], [7.0, 3.0]]
    for name, params in ALL:
        with_it = getattr(lib, name)(**params).fit(X_CONSTANT, Y_CONSTANT)
        without = getattr(lib, name)(**params).fit([r[:1] for r in X_CONSTANT], Y_CONSTANT)
        assert as_list(with_it.predict(queries)) == as_list(without.predict(
            [r[:1] for r in queries])), (name, params)


def test_every_feature_constant(lib):
    # Every marginal estimate is the same in both classes for the Gaussian and histogram
    # marginals: the posterior is the prior (0.4, 0.6).  The kernel estimates use the
    # fallback sigma = 1 and Silverman's factor of n_k, so at the point itself
    # f_k = c / prod_j h_kj grows with n_k: the larger class wins there too.
    X = [[1.0, 2.0]] * 5
    y = [0, 1, 1, 0, 1]
    for name, params in ALL:
        model = getattr(lib, name)(**params).fit(X, y)
        assert as_list(model.predict([[1.0, 2.0]])) == [1], (name, params)
        if params.get("marginal") in ("histogram", None) and name != "KernelDensityClassifier":
            assert close_rows(as_list(model.predict_proba([[1.0, 2.0]])), [[0.4, 0.6]], 1e-9)
    model = lib.KernelDensityClassifier().fit(X, y)
    h = [(4 / (n_k * 4)) ** (1 / 6) for n_k in (2, 3)]  # d = 2, sigma = 1
    joint = [0.4 / h[0] ** 2, 0.6 / h[1] ** 2]
    assert close_rows(as_list(model.predict_proba([[1.0, 2.0]])),
                      [[p / sum(joint) for p in joint]], 1e-12)


def test_overflowing_variances_raise_instead_of_nan_probabilities(lib):
    # docs/design.md section 5, extremes: (1e300)^2 overflows, and inf / inf used to give NaN
    # posteriors and a silent prediction of classes_[0].
    X = [[1e300, 0.0], [-1e300, 1.0], [1e300, 2.0], [-1e300, 3.0]]
    for model in (lib.GaussianNB(), lib.NaiveBayes()):
        with pytest.raises(ValueError, match="overflows"):
            model.fit(X, [0, 1, 0, 1])
        assert not hasattr(model, "classes_")
    # near the edge, but representable: finite probabilities
    model = lib.GaussianNB().fit([[1e150], [-1e150], [2e150], [-2e150]], [0, 1, 0, 1])
    assert all(math.isfinite(p) for p in as_list(model.predict_proba([[1e150]]))[0])


def test_bad_hyper_parameters_name_the_parameter(lib):
    cases = [("NaiveBayes", {"marginal": "poisson"}, "marginal"),
             ("NaiveBayes", {"marginal": "histogram", "bins": 0}, "bins"),
             ("NaiveBayes", {"marginal": "kde", "bandwidth": 0.0}, "bandwidth"),
             ("NaiveBayes", {"marginal": "kde", "bandwidth": "scott"}, "bandwidth"),
             ("NaiveBayes", {"marginal": "kde", "kernel": "box"}, "kernel"),
             ("GaussianNB", {"var_smoothing": 0.0}, "var_smoothing"),
             ("KernelDensityClassifier", {"bandwidth": -1.0}, "bandwidth"),
             ("KernelDensityClassifier", {"bandwidth": [1.0, 0.0]}, "bandwidth"),
             ("KernelDensityClassifier", {"kernel": "epanechnikov", "bandwidth": "cv"},
              "bandwidth")]
    for name, params, word in cases:
        model = getattr(lib, name)(**params)
        with pytest.raises(ValueError, match=word):
            model.fit(X_SINGLE, Y_SINGLE)
        assert not [a for a in vars(model) if a.endswith("_")]


@pytest.mark.fast
def test_kernels_as_plain_python_give_the_same_predictions(monkeypatch):
    """The Numba kernels' Python bodies (what NUMBA_DISABLE_JIT=1 runs), against refml."""
    import refml
    import refml_fast
    from refml_fast.density import kernels as _kernels
    from refml_fast.density import naive_bayes

    for module in (_kernels, naive_bayes):
        for name, value in vars(module).items():
            if hasattr(value, "py_func"):
                monkeypatch.setattr(module, name, value.py_func)
    queries = X_SINGLE + [[2.0, 2.0], [30.0, 0.0]]
    for name, params in ALL + [("KernelDensityClassifier", {"kernel": "epanechnikov",
                                                             "bandwidth": 0.3})]:
        expected = getattr(refml, name)(**params).fit(X_SINGLE, Y_SINGLE)
        found = getattr(refml_fast, name)(**params).fit(X_SINGLE, Y_SINGLE)
        assert as_list(found.predict(queries)) == expected.predict(queries), (name, params)
        assert as_list(found.predict_proba(queries)) == expected.predict_proba(queries)


# --- GaussianNB's sample weights (beyond the lectures, as scikit-learn's) ---------------
# Four rows of two classes with weights 2, 1, 1, 3: the weighted moments by hand.
WEIGHTED_X = [[0.0], [2.0], [10.0], [14.0]]
WEIGHTED_Y = ["a", "a", "b", "b"]
WEIGHTS = [2.0, 1.0, 1.0, 3.0]


def test_gaussian_nb_weights_give_the_weighted_moments_by_hand(lib):
    """Class a: W = 3, mean (2*0 + 2)/3 = 2/3, variance (2 (2/3)^2 + (4/3)^2)/3 = 8/9;
    class b: W = 4, mean (10 + 42)/4 = 13, variance (9 + 3)/4 = 3; priors 3/7, 4/7."""
    model = lib.GaussianNB(var_smoothing=1e-300).fit(WEIGHTED_X, WEIGHTED_Y,
                                                      sample_weight=WEIGHTS)
    theta, var = [list(map(float, row)) for row in model.theta_], [
        list(map(float, row)) for row in model.var_]
    assert theta[0][0] == pytest.approx(2 / 3) and theta[1][0] == pytest.approx(13.0)
    assert var[0][0] == pytest.approx(8 / 9) and var[1][0] == pytest.approx(3.0)
    assert [float(p) for p in model.class_prior_] == pytest.approx([3 / 7, 4 / 7])


def test_gaussian_nb_whole_number_weights_equal_repeated_rows(lib):
    rng = random.Random(5)
    X = [[rng.gauss(0, 1), rng.gauss(2, 3)] for _ in range(30)]
    y = [rng.randrange(3) for _ in range(30)]
    w = [float(rng.randrange(4)) for _ in range(30)]
    for k in range(3):                     # every class keeps some weight
        w[y.index(k)] = 1.0
    weighted = lib.GaussianNB().fit(X, y, sample_weight=w)
    rows = [t for t in range(30) for _ in range(int(w[t]))]
    repeated = lib.GaussianNB().fit([X[t] for t in rows], [y[t] for t in rows])
    for a, b in ((weighted.theta_, repeated.theta_), (weighted.var_, repeated.var_)):
        for row_a, row_b in zip(a, b):
            assert list(map(float, row_a)) == pytest.approx(list(map(float, row_b)), rel=1e-12)
    assert list(weighted.predict(X)) == list(repeated.predict(X))


def test_gaussian_nb_unit_weights_are_the_unweighted_fit_exactly(lib):
    plain = lib.GaussianNB().fit(WEIGHTED_X, WEIGHTED_Y)
    ones = lib.GaussianNB().fit(WEIGHTED_X, WEIGHTED_Y, sample_weight=[1.0] * 4)
    assert [list(map(float, r)) for r in plain.var_] == [list(map(float, r)) for r in ones.var_]
    assert [list(map(float, r)) for r in plain.theta_] == [
        list(map(float, r)) for r in ones.theta_]


def test_gaussian_nb_refuses_a_class_of_zero_weight(lib):
    with pytest.raises(ValueError, match="all 0"):
        lib.GaussianNB().fit(WEIGHTED_X, WEIGHTED_Y, sample_weight=[1.0, 1.0, 0.0, 0.0])
    with pytest.raises(ValueError):
        lib.GaussianNB().fit(WEIGHTED_X, WEIGHTED_Y, sample_weight=[1.0, -1.0, 1.0, 1.0])


@pytest.mark.sklearn
def test_the_joint_log_density_is_scikit_learns_and_gives_the_log_posterior(lib):
    """predict_joint_log_proba: log pi_k + sum_j log N(x_j; theta_kj, var_kj), scikit-learn's
    GaussianNB's to rounding (its -1/2 log(2 pi var) constants included: a fault in them
    shifted every class alike, which the posteriors cannot show); the log posterior is it
    minus its logsumexp."""
    import numpy as np
    from sklearn.naive_bayes import GaussianNB as Theirs

    rng = np.random.default_rng(21)
    X = rng.normal(size=(80, 3)) * [1.0, 5.0, 0.2]
    y = rng.integers(0, 3, 80)
    X[:, 0] += y
    Q = rng.normal(size=(15, 3)) * [1.0, 5.0, 0.2]
    ours = lib.GaussianNB().fit(X.tolist(), y.tolist())
    joint = np.asarray(ours.predict_joint_log_proba(Q.tolist()))
    np.testing.assert_allclose(joint, Theirs().fit(X, y).predict_joint_log_proba(Q),
                               rtol=1e-12)
    top = joint.max(axis=1, keepdims=True)
    posterior = joint - (top + np.log(np.exp(joint - top).sum(axis=1, keepdims=True)))
    np.testing.assert_allclose(np.asarray(ours.predict_log_proba(Q.tolist())), posterior,
                               rtol=1e-12, atol=1e-12)
