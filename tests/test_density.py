"""Histogram, kernel density estimate, bandwidths and cross-validation risks (refml.density).

Every expected value is computed here by hand or from the printed formula, never by the
code under test.  Floats: math.isclose with the tolerance stated at each test.
"""

import math

import pytest

from tests.helpers import as_list

SQRT2PI = math.sqrt(2.0 * math.pi)

# Six points on [0, 1], four bins of width 1/4: counts (2, 3, 0, 1); the last point's bin
# is the closed right end, an empty bin checks the zero density.
SIX = [0.05, 0.1, 0.3, 0.35, 0.38, 0.9]
# Four points with sample standard deviation sqrt(8.75/3) (mean 1.75): Silverman by hand.
FOUR = [0.0, 1.0, 2.0, 4.0]
# Two features on different scales (the second is 10 times the first, plus a shift):
# Silverman's H must scale with the variance, sigma^2, not with sigma.
SCALED = [[v, 10.0 * v + 3.0] for v in [0.0, 0.5, 1.5, 2.0, 3.5, 4.0, 6.0]]
# A constant feature: Silverman's rule has sigma = 0 there.
CONSTANT = [[1.0, 2.0], [1.0, 3.0], [1.0, 5.0]]


def column(values):
    return [[v] for v in values]


def gaussian(u):
    return math.exp(-0.5 * u * u) / SQRT2PI


def epanechnikov(u):
    return 3.0 / (4.0 * math.sqrt(5.0)) * (1.0 - u * u / 5.0) if abs(u) < math.sqrt(5.0) else 0.0


def integrate(f, a, b, pieces=2000):
    """Composite Simpson's rule on [a, b]."""
    h = (b - a) / pieces
    total = f(a) + f(b)
    for i in range(1, pieces):
        total += (4 if i % 2 else 2) * f(a + i * h)
    return total * h / 3.0


# ----------------------------------------------------------------------------------------
# Kernels.


def test_kernels_have_the_lecture_moments():
    from refml.density import kernels as _kernels

    for name, K, radius in (("gaussian", gaussian, 12.0),
                            ("epanechnikov", epanechnikov, math.sqrt(5.0))):
        assert math.isclose(integrate(K, -radius, radius), 1.0, rel_tol=1e-9)
        assert abs(integrate(lambda x: x * K(x), -radius, radius)) < 1e-12
        assert math.isclose(integrate(lambda x: x * x * K(x), -radius, radius), 1.0,
                            rel_tol=1e-9)
        assert math.isclose(_kernels.roughness(name),
                            integrate(lambda x: K(x) ** 2, -radius, radius), rel_tol=1e-9)
        for x in (0.0, 0.7, -2.1, 3.0):
            assert math.isclose(_kernels.kernel_function(name)(x), K(x), rel_tol=1e-14)


def test_convolutions_match_a_numerical_convolution():
    from refml.density import kernels as _kernels

    for name, K, radius in (("gaussian", gaussian, 12.0),
                            ("epanechnikov", epanechnikov, math.sqrt(5.0))):
        for x in (0.0, 0.4, 1.3, 2.9, 4.0, 4.6):
            expected = integrate(lambda y: K(x - y) * K(y), -radius, radius, pieces=20000)
            assert math.isclose(_kernels.convolution(name, x), expected, rel_tol=1e-6,
                                abs_tol=1e-12), (name, x)


def test_radial_epanechnikov_normaliser_in_two_dimensions():
    # c_2 = (d + 2) / (2 V_2 r^2) = 4 / (2 pi 6) = 1 / (3 pi) with r^2 = d + 4 = 6
    from refml.density import kernels as _kernels

    assert math.isclose(math.exp(_kernels.log_normaliser("epanechnikov", 2)), 1 / (3 * math.pi),
                        rel_tol=1e-14)
    assert math.isclose(math.exp(_kernels.log_normaliser("epanechnikov", 1)),
                        3 / (4 * math.sqrt(5)), rel_tol=1e-14)


# ----------------------------------------------------------------------------------------
# Histogram.


def test_histogram_by_hand(lib):
    model = lib.Histogram(bins=4, range=(0, 1)).fit(column(SIX))
    # f_hat = p_j / h: (2/6)/0.25, (3/6)/0.25, 0, (1/6)/0.25; x = 1 is in the last bin
    expected = [4 / 3, 2.0, 0.0, 2 / 3, 2 / 3, 0.0, 0.0]
    found = as_list(model.pdf(column([0.2, 0.26, 0.6, 0.9, 1.0, 1.5, -0.1])))
    assert all(math.isclose(a, b, rel_tol=1e-14) for a, b in zip(found, expected))
    logs = as_list(model.score_samples(column([0.2, 0.6])))
    assert math.isclose(logs[0], math.log(4 / 3), rel_tol=1e-14) and logs[1] == -math.inf


def test_histogram_fitted_range_and_constant_feature(lib):
    model = lib.Histogram(bins=2).fit([[0.0, 7.0], [4.0, 7.0], [1.0, 7.0]])
    assert as_list(model.low_) == [0.0, 6.5] and as_list(model.high_) == [4.0, 7.5]
    # cell (0, 0) holds 2 of 3 points, volume 2 x 0.5
    assert math.isclose(as_list(model.pdf([[1.5, 7.0]]))[0], 2 / 3 / 1.0, rel_tol=1e-14)
    assert as_list(model.pdf([[3.0, 7.6]]))[0] == 0.0


def test_histogram_rejects_bad_hyper_parameters(lib):
    for params, word in (({"bins": 0}, "bins"), ({"bins": 2.5}, "bins"),
                         ({"range": (1, 0)}, "range"), ({"range": (0, math.inf)}, "range"),
                         ({"range": [(0, 1)] * 3}, "range")):
        with pytest.raises(ValueError, match=word):
            lib.Histogram(**params).fit(column(SIX))


def test_histogram_cv_closed_form_by_hand_and_against_the_print(lib):
    # n = 6, h = 1/4, sum p^2 = 14/36: J = 2/((n-1)h) - (n+1)/((n-1)h) sum p^2 = -20.8/36
    n, h, squares = 6, 0.25, 14 / 36
    for method in ("closed_form", "definition"):
        assert math.isclose(lib.histogram_cv_risk(SIX, 4, method=method), -20.8 / 36,
                            rel_tol=1e-12)
    printed = 2 / ((n - 1) * h) - (n + 1) / (n - 1) * squares
    assert abs(printed - lib.histogram_cv_risk(SIX, 4, method="definition")) > 1.0


def test_histogram_cv_counts_points_outside_the_range_in_n(lib):
    x = [0.1, 0.15, 0.6, 1.7, -0.2]  # two points outside [0, 1]
    a = lib.histogram_cv_risk(x, 2, method="closed_form")
    b = lib.histogram_cv_risk(x, 2, method="definition")
    # by hand: n = 5, h = 1/2, N = (2, 1): int f^2 = (0.16 + 0.04)/0.5 = 0.4,
    # leave-one-out sum 2 x 1/(4 x 0.5) = 1, J = 0.4 - (2/5) 1
    assert math.isclose(a, 0.0, abs_tol=1e-15) and math.isclose(b, 0.0, abs_tol=1e-15)


def test_histogram_cv_rejects_bad_input(lib):
    with pytest.raises(ValueError, match="bins"):
        lib.histogram_cv_risk(SIX, 0)
    with pytest.raises(ValueError, match="2 samples"):
        lib.histogram_cv_risk([0.5], 3)
    with pytest.raises(ValueError, match="one variable"):
        lib.histogram_cv_risk([[v, v] for v in SIX], 3)
    with pytest.raises(ValueError, match="NaN"):
        lib.histogram_cv_risk([0.1, float("nan")], 3)


def test_histograms_near_the_float_limits_raise_a_clear_error(lib):
    # high - low (or (high - low) bins) overflows: every bin index would be NaN or inf
    # ("cannot convert float NaN to integer" before)
    with pytest.raises(ValueError, match="overflows"):
        lib.Histogram().fit([[1e308], [-1e308]])
    with pytest.raises(ValueError, match="overflows"):
        lib.Histogram(bins=10, range=(-1e308, 1e307)).fit([[1.0]])
    with pytest.raises(ValueError, match="overflows"):
        lib.histogram_cv_risk([0.0, 1.0], 2, range=(-1e308, 1e308))
    with pytest.raises(ValueError, match="overflows"):
        lib.NaiveBayes(marginal="histogram").fit([[1e308], [-1e308]], [0, 1])
    # wide but representable: the counts land in the end bins
    model = lib.Histogram(bins=2).fit([[4e307], [-4e307]])
    assert as_list(model.pdf([[4e307], [-4e307], [0.0]])) == [1 / 8e307] * 3


# ----------------------------------------------------------------------------------------
# Kernel density estimate.


def test_kde_matches_the_formula_in_one_dimension(lib):
    data, h = [0.0, 0.3, 1.7, 2.0, 5.5], 0.6
    queries = [-1.0, 0.1, 1.0, 2.2, 4.0, 5.0]
    for name, K in (("gaussian", gaussian), ("epanechnikov", epanechnikov)):
        model = lib.KernelDensity(kernel=name, bandwidth=h).fit(column(data))
        found = as_list(model.pdf(column(queries)))
        logs = as_list(model.score_samples(column(queries)))
        for x, value, log_value in zip(queries, found, logs):
            expected = sum(K((x - xi) / h) for xi in data) / (len(data) * h)
            assert math.isclose(value, expected, rel_tol=1e-12, abs_tol=0.0), (name, x)
            if expected > 0:
                assert math.isclose(log_value, math.log(expected), rel_tol=1e-12)
            else:
                assert log_value == -math.inf


def test_kde_matches_the_formula_with_a_full_bandwidth_matrix(lib):
    data = [[0.0, 0.0], [1.0, 0.5], [-0.5, 2.0], [2.0, 2.0]]
    H = [[0.5, 0.2], [0.2, 0.3]]
    det = H[0][0] * H[1][1] - H[0][1] * H[1][0]
    inverse = [[H[1][1] / det, -H[0][1] / det], [-H[1][0] / det, H[0][0] / det]]
    model = lib.KernelDensity(bandwidth=H).fit(data)
    queries = [[0.2, 0.1], [1.0, 1.0], [3.0, -1.0]]
    for x, value in zip(queries, as_list(model.pdf(queries))):
        total = 0.0
        for xi in data:
            u = [x[0] - xi[0], x[1] - xi[1]]
            q = sum(u[a] * inverse[a][b] * u[b] for a in range(2) for b in range(2))
            total += math.exp(-0.5 * q) / (2 * math.pi)
        assert math.isclose(value, total / (len(data) * math.sqrt(det)), rel_tol=1e-12)
    assert as_list(model.bandwidth_matrix_) == H or all(
        math.isclose(a, b, rel_tol=1e-15) for r, s in zip(model.bandwidth_matrix_, H)
        for a, b in zip(r, s))


def test_score_samples_is_finite_far_in_the_tails(lib):
    model = lib.KernelDensity(bandwidth=1.0).fit([[0.0], [0.0]])
    far = as_list(model.score_samples([[1e3], [-1e5]]))
    assert as_list(model.pdf([[1e3]]))[0] == 0.0  # underflows, as the formula does
    assert math.isclose(far[0], -0.5e6 - 0.5 * math.log(2 * math.pi), rel_tol=1e-14)
    assert math.isclose(far[1], -0.5e10 - 0.5 * math.log(2 * math.pi), rel_tol=1e-14)
    assert math.isclose(model.score([[1e3], [-1e5]]), far[0] + far[1], rel_tol=1e-14)


def test_silverman_by_hand_and_with_sigma_squared(lib):
    sigma = math.sqrt(8.75 / 3)
    h = (4 / (4 * 3)) ** (1 / 5) * sigma  # (4/(n(d+2)))^(1/(d+4)) sigma, n = 4, d = 1
    assert math.isclose(lib.silverman_bandwidth(column(FOUR))[0], h, rel_tol=1e-14)
    model = lib.KernelDensity(bandwidth="silverman").fit(SCALED)
    H = as_list(model.bandwidth_matrix_)
    # the second feature has 10 times the first one's sigma: H_22 = 100 H_11
    assert math.isclose(H[1][1], 100.0 * H[0][0], rel_tol=1e-12)
    assert H[0][1] == 0.0 and H[1][0] == 0.0
    factor = (4 / (7 * 4)) ** (2 / 6)  # (4/(n(d+2)))^(2/(d+4)), n = 7, d = 2
    mean = sum(r[0] for r in SCALED) / 7
    variance = sum((r[0] - mean) ** 2 for r in SCALED) / 6
    assert math.isclose(H[0][0], factor * variance, rel_tol=1e-12)


def test_silverman_is_the_amise_optimum_for_gaussian_data():
    # Theorem 2.6 with K Gaussian and f = N(0, s^2): int f''^2 = 3 / (8 sqrt(pi) s^5), and
    # h* = (4/(3n))^(1/5) s: Silverman's rule at d = 1 with sigma (so H = h^2 ~ sigma^2).
    from refml.density.kde import kde_optimal_bandwidth

    for s, n in ((0.3, 50), (4.0, 10_000)):
        h_star = kde_optimal_bandwidth(n, 3 / (8 * math.sqrt(math.pi) * s ** 5))
        assert math.isclose(h_star, (4 / (3 * n)) ** 0.2 * s, rel_tol=1e-12)


def test_histogram_optimal_bandwidth_minimises_the_amise():
    from refml.density.kde import histogram_amise, histogram_optimal_bandwidth

    n, roughness = 500, 7.3
    h_star = histogram_optimal_bandwidth(n, roughness)
    grid = [h_star * (1 + k / 1000) for k in range(-300, 301)]
    best = min(grid, key=lambda h: histogram_amise(h, n, roughness))
    assert math.isclose(best, h_star, rel_tol=2e-3)
    # MISE(h*) = C n^(-2/3), C = (3/4)^(2/3) (int f'^2)^(1/3)  ([Yan], Theorem 2.5)
    assert math.isclose(histogram_amise(h_star, n, roughness),
                        (3 / 4) ** (2 / 3) * roughness ** (1 / 3) / n ** (2 / 3), rel_tol=1e-12)


def test_kde_optimal_bandwidth_minimises_the_amise():
    """Theorem 2.6 for both kernels: h* minimises R(h) = h^4/4 mu2^2 int f''^2 + R(K)/(n h),
    and R(h*) = 5/4 (mu2^2 int f''^2)^(1/5) R(K)^(4/5) n^(-4/5)."""
    from refml.density import kernels
    from refml.density.kde import kde_amise, kde_optimal_bandwidth

    n, roughness = 400, 0.9
    for kernel in ("gaussian", "epanechnikov"):
        h_star = kde_optimal_bandwidth(n, roughness, kernel)
        grid = [h_star * (1 + k / 1000) for k in range(-300, 301)]
        best = min(grid, key=lambda h: kde_amise(h, n, roughness, kernel))
        assert math.isclose(best, h_star, rel_tol=2e-3)
        mu2, r_k = kernels.second_moment(kernel), kernels.roughness(kernel)
        assert math.isclose(kde_amise(h_star, n, roughness, kernel),
                            1.25 * (mu2 * mu2 * roughness) ** 0.2 * r_k ** 0.8 / n ** 0.8,
                            rel_tol=1e-12)
        assert kde_amise(0.5, 10, 2.0, kernel) == (0.5 ** 4 / 4.0 * mu2 * mu2 * 2.0
                                                   + r_k / (10 * 0.5))


def test_zero_bandwidth_constant_feature_and_bad_parameters(lib):
    for bandwidth in (0.0, -1.0, math.inf, math.nan, "scott", [0.5], [[1.0, 2.0], [2.0, 1.0]],
                      [[1.0, 0.5], [0.4, 1.0]], [0.5, 0.0], True):
        with pytest.raises(ValueError, match="bandwidth"):
            lib.KernelDensity(bandwidth=bandwidth).fit(SCALED)
    with pytest.raises(ValueError, match="kernel"):
        lib.KernelDensity(kernel="box").fit(SCALED)
    with pytest.raises(ValueError, match="bandwidth='silverman'.*constant"):
        lib.KernelDensity(bandwidth="silverman").fit(CONSTANT)
    with pytest.raises(ValueError, match="constant"):
        lib.silverman_bandwidth(CONSTANT)
    with pytest.raises(ValueError, match="bandwidth='cv'"):
        lib.KernelDensity(kernel="epanechnikov", bandwidth="cv").fit(SCALED)
    model = lib.KernelDensity(bandwidth=0.0)
    with pytest.raises(ValueError):
        model.fit(SCALED)
    assert not [a for a in vars(model) if a.endswith("_")]


def test_kde_input_validation(lib):
    import refml

    model = lib.KernelDensity()
    with pytest.raises(refml.NotFittedError):
        model.pdf([[0.0]])
    with pytest.raises(ValueError, match="NaN"):
        model.fit([[0.0], [float("nan")]])
    with pytest.raises(ValueError, match="NaN"):
        model.fit([0.0, float("nan")])          # flat 1-D data, validated alike
    model.fit(SCALED)
    with pytest.raises(ValueError, match="features"):
        model.score_samples([[0.0]])
    assert repr(lib.KernelDensity(bandwidth="cv")) == "KernelDensity(bandwidth='cv')"
    assert refml.clone(model).get_params() == {"bandwidth": 1.0, "kernel": "gaussian"}


def test_cv_bandwidth_takes_the_first_minimum_of_its_grid(lib):
    from refml.density.kde import CV_SCALES

    data = column([0.1, 0.5, 0.55, 0.9, 1.4, 2.2, 2.3, 2.35, 3.0, 4.1])
    model = lib.KernelDensity(bandwidth="cv").fit(data)
    scales = [s for s, _ in model.cv_scores_]
    risks = [risk for _, risk in model.cv_scores_]
    assert scales == CV_SCALES and len(scales) == 33
    best = risks.index(min(risks))
    silverman = lib.silverman_bandwidth(data)[0]
    assert math.isclose(model.bandwidth_cholesky_[0][0], CV_SCALES[best] * silverman,
                        rel_tol=1e-14)
    x = [row[0] for row in data]
    for s, risk in model.cv_scores_[::8]:
        assert math.isclose(risk, lib.kde_cv_risk(x, s * silverman, method="definition"),
                            rel_tol=1e-9)


def test_kde_cv_risk_by_hand_for_two_points(lib):
    # x = (0, 1), h = 1, Gaussian.  int f_hat^2 = 1/4 [2 K2(0) + 2 K2(1)] with K2 the N(0, 2)
    # density; f_hat_(-i)(X_i) = K(1) for both points: J = int f_hat^2 - (2/2) 2 K(1).
    def K2(u):
        return math.exp(-u * u / 4) / (2 * math.sqrt(math.pi))

    expected = (2 * K2(0) + 2 * K2(1)) / 4 - 2 * gaussian(1.0)
    for method in ("formula", "definition"):
        assert math.isclose(lib.kde_cv_risk([0.0, 1.0], 1.0, method=method), expected,
                            rel_tol=1e-13)
    # the lecture's approximation: 1/(n^2 h) sum K*(.) + 2 K(0)/(n h), K* = K2 - 2K
    lecture = (2 * (K2(0) - 2 * gaussian(0)) + 2 * (K2(1) - 2 * gaussian(1))) / 4 \
        + 2 * gaussian(0) / 2
    assert math.isclose(lib.kde_cv_risk([0.0, 1.0], 1.0, method="lecture"), lecture,
                        rel_tol=1e-13)


def test_kde_cv_risk_rejects_bad_input(lib):
    for bandwidth in (0.0, -0.5, math.inf):
        with pytest.raises(ValueError, match="bandwidth"):
            lib.kde_cv_risk(FOUR, bandwidth)
    with pytest.raises(ValueError, match="method"):
        lib.kde_cv_risk(FOUR, 1.0, method="fast")
    with pytest.raises(ValueError, match="2 samples"):
        lib.kde_cv_risk([1.0], 1.0)


# ----------------------------------------------------------------------------------------
# docs/design.md section 5 for the two density estimators (the classifiers: test_bad_input.py).

BAD_FIT = [
    ("NaN", [[float("nan"), 1.0], [0.0, 1.0]], ValueError, "NaN"),
    ("infinity", [[float("inf"), 1.0], [0.0, 1.0]], ValueError, "infinity"),
    ("0 samples", [], ValueError, "0 sample(s)"),
    ("0 features", [[], []], ValueError, "0 feature(s)"),
    ("ragged", [[0.0, 1.0], [1.0]], ValueError, "inconsistent"),
    ("3-D", [[[0.0], [1.0]], [[1.0], [0.0]]], ValueError, "more than 2 dimensions"),
    ("complex", [[complex(1, 1), 0.0], [0.0, 1.0]], (TypeError, ValueError), "omplex"),
    ("string", [["a", 0.0], [0.0, 1.0]], (TypeError, ValueError), "str"),
]


@pytest.mark.parametrize("name", ["KernelDensity", "Histogram"])
@pytest.mark.parametrize("row", BAD_FIT, ids=[r[0] for r in BAD_FIT])
def test_density_estimators_reject_bad_input(lib, name, row):
    _, X, exception, words = row
    model = getattr(lib, name)()
    with pytest.raises(exception, match=__import__("re").escape(words)):
        model.fit(X)
    assert not [a for a in vars(model) if a.endswith("_") and not a.startswith("_")]


@pytest.mark.parametrize("name", ["KernelDensity", "Histogram"])
def test_density_estimators_predict_checks_and_pickle(lib, name):
    import copy
    import pickle

    import refml

    model = getattr(lib, name)()
    with pytest.raises(refml.NotFittedError):
        model.score_samples([[0.0, 0.0]])
    X = copy.deepcopy(SCALED)
    model.fit(X)
    assert X == SCALED
    for bad, words in (([[0.0, 1.0, 2.0]], "3 features"), ([[float("nan"), 0.0]], "NaN"),
                       ([0.0, 1.0], "X has 1 features")):   # flat: one column
        with pytest.raises(ValueError, match=words):
            model.pdf(bad)
    state = pickle.dumps(model)
    values = as_list(model.score_samples(SCALED))
    assert pickle.dumps(model) == state
    assert as_list(pickle.loads(state).score_samples(SCALED)) == values


@pytest.mark.fast
def test_kernels_as_plain_python_give_the_same_values(monkeypatch):
    """The Numba kernels' Python bodies (what NUMBA_DISABLE_JIT=1 runs), against refml."""
    import refml
    import refml_fast
    from refml_fast.density import kernels as _kernels

    for name, value in vars(_kernels).items():
        if hasattr(value, "py_func"):
            monkeypatch.setattr(_kernels, name, value.py_func)
    X = [[0.0, 1.0], [0.5, -0.2], [2.0, 2.0], [1.0, 1.0]]
    for kernel, bandwidth in (("gaussian", [[0.5, 0.1], [0.1, 0.3]]), ("epanechnikov", 0.9),
                              ("gaussian", "cv")):
        expected = refml.KernelDensity(kernel=kernel, bandwidth=bandwidth).fit(X)
        found = refml_fast.KernelDensity(kernel=kernel, bandwidth=bandwidth).fit(X)
        assert as_list(found.score_samples(X + [[9.0, 9.0]])) == \
            expected.score_samples(X + [[9.0, 9.0]])
        assert as_list(found.pdf(X)) == expected.pdf(X)
    x = [row[0] for row in X]
    for method in ("formula", "definition", "lecture"):
        assert refml_fast.kde_cv_risk(x, 0.4, "epanechnikov", method) == \
            refml.kde_cv_risk(x, 0.4, "epanechnikov", method)
