"""Known distributions: validation, posteriors, exact Bayes risks, samplers, make_separable."""

import math

import pytest

from refml.core.random import Generator
from tests.helpers import as_list

# Three points, two classes: the table of the examples below (sum 1).
#   point      P(., class 0)  P(., class 1)   Bayes picks   mass lost
#   (0, 0)     0.1            0.2             class 1       0.1
#   (1, 0)     0.3            0.1             class 0       0.1
#   (0, 1)     0.15           0.15            tie -> 1      0.15
POINTS = [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]
TABLE = [[0.1, 0.2], [0.3, 0.1], [0.15, 0.15]]


def simpson(f, a, b, n=2000):
    """Composite Simpson rule, n even (independent of the code under test)."""
    h = (b - a) / n
    total = f(a) + f(b)
    for i in range(1, n):
        total += (4 if i % 2 else 2) * f(a + i * h)
    return total * h / 3


# ------------------------------------------------------------------- FiniteDistribution


def test_finite_bayes_risk_and_posterior_by_hand(lib):
    d = lib.FiniteDistribution(POINTS, TABLE)
    assert d.classes == [0, 1]
    assert math.isclose(d.bayes_risk(), 0.35, rel_tol=1e-12)
    assert as_list(d.posterior([1.0, 0.0])) == pytest.approx([0.75, 0.25], rel=1e-15)
    assert as_list(d.posterior([0.0, 1.0])) == [0.5, 0.5]
    # outside the support the conditional is undefined: the class prior (0.55, 0.45)
    assert [round(p, 12) for p in as_list(d.posterior([2.0, 2.0]))] == [0.55, 0.45]


def test_finite_zero_mass_point_gives_the_prior(lib):
    d = lib.FiniteDistribution([[0.0], [1.0]], [[0.0, 0.0], [0.25, 0.75]])
    assert as_list(d.posterior([0.0])) == [0.25, 0.75]


def test_unsorted_classes_are_sorted_with_their_columns(lib):
    d = lib.FiniteDistribution(POINTS, [[0.2, 0.1], [0.1, 0.3], [0.15, 0.15]],
                               classes=["pass", "fail"])
    assert d.classes == ["fail", "pass"]
    assert as_list(d.probabilities) == TABLE


@pytest.mark.parametrize("points, table, classes, words", [
    (POINTS, [[0.1, 0.2], [0.3, 0.1], [0.35, -0.05]], None, "non-negative"),
    (POINTS, [[0.1, 0.2], [0.3, 0.1], [0.15, 0.16]], None, "sum to 1"),
    (POINTS, TABLE[:2], None, "one row"),
    ([[0.0, 0.0], [1.0, 0.0], [0.0, 0.0]], TABLE, None, "distinct"),
    (POINTS, TABLE, ["a", "b", "c"], "classes has 3"),
    (POINTS, TABLE, ["a", "a"], "distinct"),
    ([[0.0, float("nan")], [1.0, 0.0], [0.0, 1.0]], TABLE, None, "NaN"),
])
def test_finite_refuses_bad_tables(lib, points, table, classes, words):
    with pytest.raises(ValueError, match=words):
        lib.FiniteDistribution(points, table, classes)


def test_finite_repeats_are_reported_alike_in_both_packages(lib):
    # two repeated points (index 3 repeats 1, index 4 repeats 0) and -0.0 == 0.0
    points = [[0.0, 1.0], [1.0, 1.0], [2.0, 2.0], [1.0, 1.0], [-0.0, 1.0]]
    with pytest.raises(ValueError, match=r"points\[3\] = \[1.0, 1.0\] repeats points\[1\]"):
        lib.FiniteDistribution(points, [[0.1, 0.1]] * 5)
    with pytest.raises(ValueError, match=r"points\[1\] = \[-0.0, 1.0\] repeats points\[0\]"):
        lib.FiniteDistribution([points[0], points[4]], [[0.25, 0.25]] * 2)


@pytest.mark.fast
def test_fast_finite_takes_numpy_arrays():
    import numpy as np

    import refml_fast

    d = refml_fast.FiniteDistribution(np.array(POINTS), np.array(TABLE))
    assert d.points.tolist() == POINTS and d.prior.tolist() == pytest.approx([0.55, 0.45])
    assert math.isclose(d.bayes_risk(), 0.35, rel_tol=1e-12)
    with pytest.raises(ValueError, match="non-negative, found -0.05"):
        refml_fast.FiniteDistribution(np.array(POINTS), np.array([[0.1, 0.25], [0.3, 0.1],
                                                                  [0.35, -0.05]]))
    with pytest.raises(ValueError, match="features"):
        d.posterior([0.0])


def test_finite_sampling_is_generator_choice_over_the_flattened_table():
    import refml

    d = refml.FiniteDistribution(POINTS, TABLE, classes=["a", "b"])
    X, y = d.sample(200, random_state=11)
    generator = Generator(11)
    flat = [0.1, 0.2, 0.3, 0.1, 0.15, 0.15]  # row-major: j = 2 i + k
    drawn = [generator.choice(flat) for _ in range(200)]
    assert X == [POINTS[j // 2] for j in drawn]
    assert y == [["a", "b"][j % 2] for j in drawn]


def test_finite_sampling_frequencies(lib):
    d = lib.FiniteDistribution(POINTS, TABLE)
    X, y = d.sample(20000, random_state=1)
    count = sum(1 for x, label in zip(as_list(X), as_list(y)) if x == [1.0, 0.0] and label == 0)
    # P = 0.3; sd of the frequency sqrt(0.21 / 20000) ~ 0.0032: 0.02 is > 6 sd
    assert abs(count / 20000 - 0.3) < 0.02


@pytest.mark.fast
def test_fast_sampling_is_the_same_stream_and_continues_it():
    import refml
    import refml_fast

    generator = Generator(0)
    points = [[float(i), float(i % 7)] for i in range(300)]
    weights = [[float((3 * i + k) % 5) for k in range(3)] for i in range(300)]
    total = sum(map(sum, weights))
    table = [[w / total for w in row] for row in weights]
    draws = []
    for lib in (refml, refml_fast):
        shared = Generator(42)
        d = lib.FiniteDistribution(points, table, classes=["x", "y", "z"])
        X, y = d.sample(500, shared)
        draws.append((as_list(X), as_list(y), shared.random()))
    assert draws[0] == draws[1]
    assert generator.random() != draws[0][2]  # (the stream moved on)


def test_finite_risk_of_predictions_by_hand(lib):
    d = lib.FiniteDistribution(POINTS, TABLE)
    # rule 0, 0, 1: wrong mass 0.2 + 0.1 + 0.15
    assert math.isclose(d.risk_of_predictions([0, 0, 1]), 0.45, rel_tol=1e-12)
    # a label that is no class is always wrong
    assert math.isclose(d.risk_of_predictions([7, 7, 7]), 1.0, rel_tol=1e-12)


# ------------------------------------------------------------------- GaussianClasses


def test_gaussian_posterior_against_the_densities(lib):
    d = lib.GaussianClasses([0.3, 0.7], [[0.0], [2.0]], [[[1.0]], [[4.0]]])
    for x in (-3.0, 0.0, 1.1, 5.0):
        f0 = 0.3 * math.exp(-x * x / 2) / math.sqrt(2 * math.pi)
        f1 = 0.7 * math.exp(-(x - 2) ** 2 / 8) / math.sqrt(8 * math.pi)
        expected = [f0 / (f0 + f1), f1 / (f0 + f1)]
        found = as_list(d.posterior([x]))
        assert all(math.isclose(a, b, rel_tol=1e-12) for a, b in zip(found, expected))


def test_gaussian_posterior_is_stable_far_away(lib):
    d = lib.GaussianClasses([0.5, 0.5], [[0.0, 0.0], [1.0, 0.0]],
                            [[[1.0, 0.0], [0.0, 1.0]], [[1.0, 0.0], [0.0, 1.0]]])
    # densities underflow to 0 at x = 1e5; the log-sum-exp posterior does not
    assert as_list(d.posterior([1e5, 0.0])) == [0.0, 1.0]
    assert as_list(d.posterior([-1e5, 3.0])) == [1.0, 0.0]


def test_gaussian_refuses_singular_and_inconsistent_parameters(lib):
    with pytest.raises(ValueError, match="positive definite"):
        lib.GaussianClasses([0.5, 0.5], [[0.0, 0.0], [1.0, 1.0]],
                            [[[1.0, 1.0], [1.0, 1.0]], [[1.0, 0.0], [0.0, 1.0]]])
    with pytest.raises(ValueError, match="sum to 1"):
        lib.GaussianClasses([0.5, 0.6], [[0.0], [1.0]], [[[1.0]], [[1.0]]])
    with pytest.raises(ValueError, match="one entry per class"):
        lib.GaussianClasses([0.5, 0.5], [[0.0], [1.0]], [[[1.0]]])
    with pytest.raises(ValueError, match="symmetric"):
        lib.GaussianClasses([1.0], [[0.0, 0.0]], [[[1.0, 0.5], [0.0, 1.0]]])


def test_gaussian_equal_covariance_closed_form(lib):
    # Delta = 2, equal priors: R* = Phi(-1) = 0.15865525393145707
    d = lib.GaussianClasses([0.5, 0.5], [[0.0, 0.0], [2.0, 0.0]],
                            [[[1.0, 0.0], [0.0, 1.0]], [[1.0, 0.0], [0.0, 1.0]]])
    assert d.bayes_risk(return_error=True) == (pytest.approx(0.15865525393145707, rel=1e-14),
                                               0.0)


def test_gaussian_one_dimensional_risk_against_quadrature(lib):
    # unequal priors, variances and three classes: integrate sum - max of pi_k f_k
    priors, mus, sds = [0.2, 0.5, 0.3], [-1.0, 0.5, 2.5], [0.5, 1.5, 0.8]
    d = lib.GaussianClasses(priors, [[m] for m in mus], [[[s * s]] for s in sds])

    def conditional_error(x):
        g = [p * math.exp(-(x - m) ** 2 / (2 * s * s)) / (s * math.sqrt(2 * math.pi))
             for p, m, s in zip(priors, mus, sds)]
        return sum(g) - max(g)

    # the integrand has kinks: many Simpson panels keep the error below 1e-7
    expected = simpson(conditional_error, -15.0, 15.0, n=60000)
    assert math.isclose(d.bayes_risk(), expected, abs_tol=1e-7)
    # the equal-covariance closed form and the 1-D exact path agree
    two = lib.GaussianClasses([0.3, 0.7], [[0.0], [2.0]], [[[1.0]], [[1.0]]])
    assert math.isclose(two.bayes_risk(), two._one_dimensional_risk(), rel_tol=1e-12)


def test_gaussian_monte_carlo_risk_within_its_bound():
    import refml

    # d = 2, unequal covariances: Monte Carlo; compare with a 2-D grid integral
    d = refml.GaussianClasses([0.4, 0.6], [[0.0, 0.0], [1.5, 0.5]],
                              [[[1.0, 0.3], [0.3, 0.5]], [[2.0, 0.0], [0.0, 1.0]]])
    value, bound = d.bayes_risk(return_error=True, n_samples=4000)
    h, total = 0.05, 0.0
    for i in range(-160, 200):
        for j in range(-140, 140):
            x = [(i + 0.5) * h, (j + 0.5) * h]
            weighted = [math.exp(s) for s in d.log_scores(x)]  # pi_k N_k(x) (2 pi)^{d/2}
            total += (sum(weighted) - max(weighted)) * h * h / (2 * math.pi)
    assert 0.0 < bound < 0.05
    assert abs(value - total) <= bound


def test_gaussian_sample_moments_and_unsorted_classes(lib):
    d = lib.GaussianClasses([0.25, 0.75], [[5.0, 0.0], [-1.0, 2.0]],
                            [[[1.0, 0.0], [0.0, 1.0]], [[4.0, 1.0], [1.0, 1.0]]],
                            classes=["b", "a"])
    assert d.classes == ["a", "b"] and d.priors == [0.75, 0.25]
    X, y = d.sample(4000, random_state=3)
    rows = [x for x, label in zip(as_list(X), as_list(y)) if label == "a"]
    assert abs(len(rows) / 4000 - 0.75) < 0.03       # sd 0.007
    mean0 = sum(r[0] for r in rows) / len(rows)
    assert abs(mean0 - (-1.0)) < 0.15                # sd 2 / sqrt(3000) ~ 0.037
    var0 = sum((r[0] - mean0) ** 2 for r in rows) / len(rows)
    assert abs(var0 - 4.0) < 0.5


# ------------------------------------------------------------------- PassFailExample


def test_pass_fail_eta_at_hand_computed_points(lib):
    p = lib.PassFailExample()
    assert math.isclose(p.eta([0.0, 0.0]), 1 - math.exp(-7), rel_tol=1e-15)
    assert p.eta([3.0, 4.0]) == 0.0 and p.eta([6.0, 9.0]) == 0.0
    assert math.isclose(p.eta([1.0, 6.0 - math.log(2)]), 0.5, rel_tol=1e-12)
    assert as_list(p.posterior([2.0, 1.0])) == pytest.approx([math.exp(-4), 1 - math.exp(-4)],
                                                             rel=1e-14)
    assert p.classes == [-1, 1]


def _pass_fail_conditional_error(x1, x2):
    eta = max(0.0, 1.0 - math.exp(-(7.0 - x1 - x2)))
    return math.exp(-x1 - x2) * min(eta, 1.0 - eta)


def test_pass_fail_bayes_risk_against_a_two_dimensional_quadrature(lib):
    """R* = int int min(eta, 1 - eta) e^{-x1 - x2}, cut where the integrand has kinks
    (x1 + x2 = 7 - log 2 and = 7), Simpson in x2 inside Simpson in x1."""
    t = 7.0 - math.log(2.0)

    def inner(x1):
        a, b = max(0.0, t - x1), max(0.0, 7.0 - x1)
        return (simpson(lambda x2: _pass_fail_conditional_error(x1, x2), 0.0, a, 200)
                + simpson(lambda x2: _pass_fail_conditional_error(x1, x2), a, b, 200))

    expected = simpson(inner, 0.0, t, 200) + simpson(inner, t, 7.0, 200)
    assert math.isclose(lib.PassFailExample().bayes_risk(), expected, rel_tol=1e-9)
    assert math.isclose(lib.PassFailExample().bayes_risk(), 0.01996118570436891,
                        rel_tol=1e-14)


@pytest.mark.parametrize("tau", [-1.0, 0.0, 2.5, 6.0, 7.0, 8.5])
def test_pass_fail_threshold_risk_against_quadrature(tau):
    import refml

    # R(tau) = int_0^tau s e^{-s} (1 - eta(s)) ds + int_tau^inf s e^{-s} eta(s) ds, eta from
    # eq. 2.16; the integrand jumps at tau, so each branch is integrated on its own panels
    def eta(s):
        return max(0.0, 1.0 - math.exp(-(7.0 - s)))

    def wrong_if_pass(s):
        return s * math.exp(-s) * (1.0 - eta(s))

    def wrong_if_fail(s):
        return s * math.exp(-s) * eta(s)

    tau_clipped = min(max(tau, 0.0), 40.0)
    expected = 0.0
    for a, b, f in [(0.0, min(tau_clipped, 7.0), wrong_if_pass),
                    (7.0, max(tau_clipped, 7.0), wrong_if_pass),
                    (tau_clipped, max(tau_clipped, 7.0), wrong_if_fail)]:
        if b > a:
            expected += simpson(f, a, b, 4000)
    assert math.isclose(refml.PassFailExample().threshold_risk(tau), expected, rel_tol=1e-9)


def test_pass_fail_bayes_threshold_minimises_the_threshold_risk():
    import refml

    p = refml.PassFailExample()
    best = p.threshold_risk(p.bayes_threshold)
    assert best == pytest.approx(p.bayes_risk(), rel=1e-14)
    assert all(p.threshold_risk(p.bayes_threshold + h) > best for h in (-0.5, -1e-3, 1e-3, 0.5))


def test_pass_fail_sampling(lib):
    X, y = lib.PassFailExample().sample(20000, random_state=5)
    labels = as_list(y)
    # P(Y = +1) = P(Gamma(3, 1) <= 7) = 1 - 32.5 e^{-7} = 0.97036; sd 0.0012
    assert abs(labels.count(1) / 20000 - (1 - 32.5 * math.exp(-7))) < 0.008
    assert set(labels) == {-1, 1} and all(min(x) >= 0.0 for x in as_list(X))
    generator = Generator(5)
    x1, x2, x3 = (generator.exponential() for _ in range(3))
    assert as_list(X)[0] == [x1, x2] and labels[0] == (1 if x1 + x2 + x3 <= 7 else -1)


# ------------------------------------------------------------------- make_separable


@pytest.mark.parametrize("n, d, margin", [(2, 1, 0.5), (30, 3, 0.1), (100, 5, 2.0)])
def test_make_separable_has_the_stated_margin(lib, n, d, margin):
    X, y, theta = lib.make_separable(n, d, margin, random_state=n + d,
                                     return_separator=True)
    X, y, theta = as_list(X), as_list(y), as_list(theta)
    assert len(X) == n and all(len(x) == d for x in X) and set(y) == {-1, 1}
    assert math.isclose(sum(t * t for t in theta), 1.0, rel_tol=1e-12)
    margins = [label * sum(t * v for t, v in zip(theta, x)) for x, label in zip(X, y)]
    # eq. (2.25): delta = min_i y_i <theta*, x_i> / ||theta*|| equals the requested margin
    assert math.isclose(min(margins), margin, rel_tol=1e-9, abs_tol=1e-12)


def test_make_separable_is_reproducible_and_checks_parameters(lib):
    a = lib.make_separable(20, 2, 1.0, random_state=3)
    b = lib.make_separable(20, 2, 1.0, random_state=3)
    assert as_list(a[0]) == as_list(b[0]) and as_list(a[1]) == as_list(b[1])
    for bad in ({"margin": 0.0}, {"n": 1}, {"d": 0}, {"margin": float("nan")}):
        kwargs = {"n": 5, "d": 2, "margin": 1.0, **bad}
        with pytest.raises(ValueError, match=list(bad)[0]):
            lib.make_separable(**kwargs)


@pytest.mark.fast
def test_fast_samplers_return_refml_values_as_arrays():
    import numpy as np

    import refml
    import refml_fast

    for make in (lambda lib: lib.PassFailExample(),
                 lambda lib: lib.GaussianClasses([0.5, 0.5], [[0.0], [1.0]],
                                                 [[[1.0]], [[2.0]]])):
        X_ref, y_ref = make(refml).sample(50, random_state=9)
        X_fast, y_fast = make(refml_fast).sample(50, random_state=9)
        assert isinstance(X_fast, np.ndarray) and X_fast.tolist() == X_ref
        assert y_fast.tolist() == y_ref
    X_ref, y_ref = refml.make_separable(10, 3, 0.5, random_state=1)
    X_fast, y_fast = refml_fast.make_separable(10, 3, 0.5, random_state=1)
    assert X_fast.tolist() == X_ref and y_fast.tolist() == y_ref
