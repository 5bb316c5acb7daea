"""The fuzz run's findings, each as a test over both packages: nothing crashes, nothing is
silently wrong, and only ValueError, TypeError or NotFittedError reach the user.

The state rule (docs/design.md, "State"): what predict depends on is fixed at fit.  A
hyper-parameter changed after fit makes predict raise ValueError naming it (``n_jobs``
excepted: it changes no answer); setting it back, or fitting again, answers again.
"""

import math
import os
import subprocess
import sys

import pytest

from tests.estimators import REGISTRY, X3, Y3, data_for

# (estimator, hyper-parameter, value set after fit) for every hyper-parameter that predict
# reads; the five the fuzz run found silently changing answers come first.
CHANGED_AFTER_FIT = [
    ("SVC", {"kernel": "linear"}, {"kernel": "rbf"}),
    ("KNeighborsClassifier", {"n_neighbors": 3}, {"n_neighbors": 50}),
    ("KNeighborsClassifier", {"n_neighbors": 3}, {"n_neighbors": 0}),
    ("KNeighborsClassifier", {"n_neighbors": 3}, {"metric": "mahalanobis"}),
    ("NaiveBayes", {}, {"marginal": "kde"}),
    ("KernelDensityClassifier", {}, {"kernel": "epanechnikov"}),
    ("SVC", {"kernel": "poly"}, {"degree": 5}),
    ("SVC", {"kernel": "rbf"}, {"gamma": 10.0}),
    ("LogisticRegression", {}, {"fit_intercept": False}),
    ("DecisionTreeClassifier", {}, {"max_depth": 1}),
    ("QuadraticDiscriminantAnalysis", {"reg_param": 0.1}, {"priors": [0.2, 0.3, 0.5]}),
]


@pytest.mark.parametrize("case", CHANGED_AFTER_FIT, ids=lambda c: f"{c[0]}-{list(c[2])[0]}")
def test_a_hyper_parameter_changed_after_fit_is_refused_at_predict(lib, case):
    name, params, changed = case
    factory, binary = REGISTRY[name]
    X, y = data_for(binary)
    model = factory(lib).set_params(**params).fit(X, y)
    expected = list(model.predict(X))
    before = {key: getattr(model, key) for key in changed}
    model.set_params(**changed)
    with pytest.raises(ValueError, match=f"hyper-parameter {list(changed)[0]} was changed"):
        model.predict(X)
    model.set_params(**before)
    assert list(model.predict(X)) == expected


def test_density_hyper_parameters_changed_after_fit(lib):
    model = lib.Histogram(bins=4).fit([[0.0], [1.0], [2.0]])
    model.set_params(bins=0)
    with pytest.raises(ValueError, match="bins was changed"):
        model.pdf([[0.5]])
    kde = lib.KernelDensity().fit([[0.0], [1.0], [2.0]])
    kde.set_params(kernel="bogus")
    with pytest.raises(ValueError, match="kernel was changed"):
        kde.score_samples([[0.5]])


def test_n_jobs_may_change_after_fit(lib):
    model = lib.RandomForestClassifier(n_estimators=3, random_state=0).fit(X3, Y3)
    expected = list(model.predict(X3))
    model.set_params(n_jobs=2)
    assert list(model.predict(X3)) == expected


def test_a_list_changed_in_place_after_fit_is_noticed(lib):
    priors = [0.2, 0.3, 0.5]
    model = lib.LinearDiscriminantAnalysis(priors=priors).fit(X3, Y3)
    priors[0], priors[2] = 0.5, 0.2
    with pytest.raises(ValueError, match="priors was changed"):
        model.predict(X3)


@pytest.mark.fast
def test_knn_with_more_neighbours_after_fit_does_not_crash_the_process():
    """Was exit 139 (a segfault): the kernel read past the training rows."""
    code = ("import numpy as np, refml_fast as f\n"
            "X = np.random.RandomState(0).rand(6, 2)\n"
            "m = f.KNeighborsClassifier(n_neighbors=3).fit(X, [0, 1, 0, 1, 0, 1])\n"
            "m.set_params(n_neighbors=50)\n"
            "try:\n    m.predict(X)\nexcept ValueError as e:\n    print('refused')\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            cwd=os.path.dirname(os.path.dirname(__file__)), timeout=300)
    assert result.returncode == 0 and result.stdout.strip() == "refused", result


@pytest.mark.parametrize("make", [
    lambda lib: lib.Perceptron(max_iter=2 ** 63),
    lambda lib: lib.DecisionTreeClassifier(max_depth=2 ** 63),
    lambda lib: lib.SVC(kernel="poly", degree=2 ** 63),
    lambda lib: lib.LogisticRegression(max_iter=2 ** 64),
    lambda lib: lib.KNeighborsClassifier(n_neighbors=-2 ** 63 - 1),
], ids=["perceptron", "tree", "svc", "logistic", "knn"])
def test_integer_hyper_parameters_beyond_int64_are_a_clear_error(lib, make):
    with pytest.raises(ValueError, match=r"must be at most 2\*\*63 - 1"):
        make(lib).fit(X3, [0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1])


def test_the_largest_max_iter_means_unlimited(lib):
    X, y = data_for(True)
    model = lib.Perceptron(max_iter=2 ** 63 - 1).fit(X, y)
    assert model.converged_ and list(model.predict(X)) == y


def test_mixed_str_and_bytes_labels_are_a_value_error(lib):
    with pytest.raises(ValueError, match="mix of str and bytes"):
        lib.GaussianNB().fit([[0.0], [1.0], [2.0], [3.0]], ["a", b"b", "a", b"b"])


@pytest.mark.parametrize("x, expected", [(1e155, [0.0, 1.0]), (-1e155, [1.0, 0.0]),
                                         (1e300, [0.0, 1.0]), (0.5, [0.5, 0.5])])
def test_bayes_posterior_far_from_the_means(lib, x, expected):
    """Equal variances: log-odds x - 1/2 (means 0 and 1); the squared distances overflow
    beyond |x| = 1e154, their difference does not."""
    d = lib.GaussianClasses(priors=[0.5, 0.5], means=[[0.0], [1.0]],
                            covariances=[[[1.0]], [[1.0]]])
    rule = lib.BayesClassifier(distribution=d)
    assert [list(row) for row in rule.predict_proba([[x]])] == [expected]
    assert list(rule.predict([[x]])) == [expected.index(max(expected))] or x == 0.5


def test_bayes_posterior_far_away_with_unequal_covariances(lib):
    """The wider class has the heavier tail: far along x1 it wins; far along x2 the class
    whose mean is ahead there (same covariance as class 0) wins."""
    d = lib.GaussianClasses(priors=[0.3, 0.3, 0.4], means=[[0.0, 0.0], [1.0, 0.0], [0.0, 3.0]],
                            covariances=[[[1.0, 0.0], [0.0, 1.0]], [[2.0, 0.0], [0.0, 1.0]],
                                         [[1.0, 0.0], [0.0, 1.0]]])
    table = [list(row) for row in lib.BayesClassifier(distribution=d).predict_proba(
        [[1e155, 0.0], [0.0, 1e160], [3.0, 4.0]])]
    assert table[0] == [0.0, 1.0, 0.0] and table[1] == [0.0, 0.0, 1.0]
    assert all(math.isfinite(p) for p in table[2]) and abs(sum(table[2]) - 1.0) < 1e-12


def test_kde_far_from_the_data_is_minus_infinity_not_nan(lib):
    for bandwidth in (1.0, "silverman", [[1.0, 0.5], [0.5, 1.0]]):
        model = lib.KernelDensity(bandwidth=bandwidth).fit([[0.0, 1.0], [1.0, 0.0], [2.0, 2.0]])
        logs = list(model.score_samples([[1e308, 0.0], [-1.7e308, 1e308]]))
        assert logs == [-math.inf, -math.inf]
        assert list(model.pdf([[1e308, 0.0]])) == [0.0]


@pytest.mark.parametrize("make", [
    lambda lib: lib.KernelDensity(bandwidth=5e-324),
    lambda lib: lib.KernelDensity(bandwidth=1e200),
    lambda lib: lib.KernelDensityClassifier(bandwidth=5e-324),
    lambda lib: lib.NaiveBayes(marginal="kde", bandwidth=5e-324),
], ids=["kde-tiny", "kde-huge", "kdc-tiny", "naive-bayes-tiny"])
def test_bandwidths_outside_float64_are_refused(lib, make):
    with pytest.raises(ValueError, match="outside what float64 can square"):
        make(lib).fit([[0.0], [1.0], [2.0], [3.0]], [0, 0, 1, 1])


@pytest.mark.parametrize("X", [[[1e308], [-1e308], [0.0]], [[1e308], [1e308], [1.7e308]]])
def test_silverman_on_data_that_overflows_is_refused(lib, X):
    with pytest.raises(ValueError, match="too large for float64"):
        lib.KernelDensity(bandwidth="silverman").fit(X)


def test_histogram_with_an_underflowing_bin_volume(lib):
    """Two features of range 1e-200: the volume (1e-201)^2 underflows to 0.  The log density
    is log(1/2) + 2 * 201 log 10, the density itself beyond the float range."""
    model = lib.Histogram().fit([[0.0, 0.0], [1e-200, 1e-200]])
    (log_density, outside) = list(model.score_samples([[0.0, 0.0], [1.0, 1.0]]))
    assert log_density == pytest.approx(math.log(0.5) - 2 * math.log(1e-201), rel=1e-14)
    assert outside == -math.inf
    assert list(model.pdf([[0.0, 0.0]])) == [math.inf]


def test_histogram_bins_of_zero_width_are_refused(lib):
    with pytest.raises(ValueError, match="zero bin width"):
        lib.Histogram(bins=10).fit([[0.0], [1e-323]])


@pytest.mark.fast
@pytest.mark.parametrize("bandwidth", ["silverman", 0.7, [0.5, 1.0, 2.0, 3.0],
                                       [[2.0, 0.3, 0.1, 0.0], [0.3, 1.0, 0.2, 0.1],
                                        [0.1, 0.2, 1.5, 0.3], [0.0, 0.1, 0.3, 1.2]]],
                         ids=["silverman", "scalar", "diagonal", "matrix"])
def test_wide_data_paths_keep_the_floats(bandwidth):
    """refml_fast builds diagonal factors and H = L L' with numpy and a kernel (5 x 1,000
    KDE fits took a minute in pure Python); the floats stay refml's."""
    import numpy as np

    import refml
    import refml_fast

    rng = np.random.RandomState(1)
    X = rng.randn(30, 4)
    a = refml.KernelDensity(bandwidth=bandwidth).fit(X.tolist())
    b = refml_fast.KernelDensity(bandwidth=bandwidth).fit(X)
    assert np.array_equal(np.array(a.bandwidth_matrix_), b.bandwidth_matrix_)
    assert np.array_equal(np.array(a.bandwidth_cholesky_), b.bandwidth_cholesky_)
    assert a.score_samples(X.tolist()) == b.score_samples(X).tolist()
    y = [0] * 15 + [1] * 15
    if not isinstance(bandwidth, str) or bandwidth == "silverman":
        p = refml.KernelDensityClassifier(bandwidth=bandwidth).fit(X.tolist(), y)
        q = refml_fast.KernelDensityClassifier(bandwidth=bandwidth).fit(X, y)
        assert p.predict_proba(X.tolist()) == q.predict_proba(X).tolist()


@pytest.mark.fast
def test_knn_keeps_a_c_contiguous_float64_x_without_copying_it():
    import numpy as np

    import refml_fast

    rng = np.random.RandomState(0)
    X = rng.randn(40000, 3)   # several blocks of tiles
    y = rng.randint(0, 3, 40000)
    model = refml_fast.KNeighborsClassifier(n_neighbors=3).fit(X, y)
    assert np.shares_memory(model._fit_X, X)
    Q = rng.randn(200, 3)
    distances = ((Q[:, None, :] - X[None, :, :]) ** 2).sum(axis=2)
    nearest = np.argsort(distances, axis=1, kind="stable")[:, :3]
    votes = np.array([np.bincount(y[row], minlength=3) for row in nearest])
    assert model.predict(Q).tolist() == np.argmax(votes, axis=1).tolist()
