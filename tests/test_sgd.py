"""projected_sgd (refml.linear.sgd / refml_fast.linear.sgd): [MATH412]'s Algorithm 1 traced by
hand, the projection, the averaging, the seed, the rate theorem on a linear objective (and the
slip in its printed assumption)."""

import math

import pytest

from tests.helpers import as_list


def constant(gradient):
    """A deterministic 'stochastic' gradient G(theta) = gradient (f linear)."""
    return lambda theta, rng: list(gradient)


def test_iterates_follow_gamma_k_equal_c_k_to_the_minus_alpha(lib):
    # theta_0 = 0, G = 1, gamma_k = 2 / sqrt(k): theta_k = -2 (1 + 1/sqrt 2 + ... + 1/sqrt k).
    result = lib.projected_sgd(constant([1.0]), [0.0], 4, step=2.0, power=0.5)
    iterates = [0.0, -2.0, -2.0 - 2.0 / math.sqrt(2.0), -2.0 - 2.0 / math.sqrt(2.0)
                - 2.0 / math.sqrt(3.0)]
    assert math.isclose(as_list(result.theta_last)[0], iterates[-1], rel_tol=1e-15)
    assert math.isclose(as_list(result.theta_average)[0], sum(iterates) / 4, rel_tol=1e-15)
    assert as_list(result.theta) == as_list(result.theta_average)
    # power = 1: gamma_k = 1/k.
    result = lib.projected_sgd(constant([1.0]), [0.0], 3, step=1.0, power=1.0)
    assert math.isclose(as_list(result.theta_last)[0], -1.5, rel_tol=1e-15)


def test_n_steps_one_returns_theta_zero_without_a_gradient(lib):
    def never(theta, rng):
        raise AssertionError("no update when n = 1")

    result = lib.projected_sgd(never, [0.5, -0.5], 1)
    assert as_list(result.theta) == as_list(result.theta_last) == [0.5, -0.5]


def test_the_projection_keeps_every_iterate_in_the_ball(lib):
    seen = []

    def outward(theta, rng):   # pushes towards +x, far beyond the ball
        seen.append([float(v) for v in theta])
        return [-10.0, 0.0]

    result = lib.projected_sgd(outward, [3.0, 4.0], 20, radius=1.0)
    # theta_0 = [3, 4] is projected to [0.6, 0.8] first.
    assert all(math.isclose(a, b, rel_tol=1e-15) for a, b in zip(seen[0], [0.6, 0.8]))
    assert all(math.hypot(*theta) <= 1.0 + 1e-15 for theta in seen)
    last = as_list(result.theta_last)
    assert math.isclose(math.hypot(*last), 1.0, rel_tol=1e-14) and last[0] > 0.99


def test_average_false_returns_the_last_iterate(lib):
    result = lib.projected_sgd(constant([1.0]), [0.0], 5, average=False)
    assert result.theta_average is None
    assert as_list(result.theta) == as_list(result.theta_last)


def median_gradient(theta, rng):
    """A subgradient of f(theta) = E|theta - U|, U uniform on {-1, 0, 3}: minimiser 0."""
    u = [-1.0, 0.0, 3.0][rng.randbelow(3)]
    return [1.0 if theta[0] > u else -1.0 if theta[0] < u else 0.0]


def test_reaches_the_minimiser_and_is_reproducible(lib):
    first = lib.projected_sgd(median_gradient, [2.0], 2000, step=3.0, radius=3.0,
                              random_state=0)
    again = lib.projected_sgd(median_gradient, [2.0], 2000, step=3.0, radius=3.0,
                              random_state=0)
    other = lib.projected_sgd(median_gradient, [2.0], 2000, step=3.0, radius=3.0,
                              random_state=1)
    assert abs(as_list(first.theta)[0]) < 0.2
    assert as_list(first.theta) == as_list(again.theta) != as_list(other.theta)


def test_the_rate_bound_holds_with_norm_g_at_most_b_and_fails_with_the_printed_square(lib):
    # f(theta) = c theta on D = [-1, 1], theta_* = -1, G = c exactly, theta_0 = 1, n = 100.
    c, D, n = 0.01, 1.0, 100
    result = lib.projected_sgd(constant([c]), [D], n, step=D / c, radius=D)
    # ||G|| <= B with B = c, f B-Lipschitz (the theorem as it holds): within 3BD/sqrt(n).
    assert c * (as_list(result.theta)[0] + D) <= 3 * c * D / math.sqrt(n)


def test_the_printed_square_lets_noise_break_the_rate(lib):
    """The slide's ||G||^2 <= B, with every other hypothesis kept: f = B theta is
    B-Lipschitz on D = [-1, 1] (B = 0.01), G = B +- (sqrt(B) - B) with probability 1/2 each
    is unbiased with ||G||^2 <= B, and the theorem's steps D/(B sqrt(k)) then give a mean
    excess near 0.0092 at n = 100, three times 3BD/sqrt(n) = 0.003.  400 runs: each excess
    lies in [0, 2BD], so by Hoeffding the mean is within 0.0026 of its expectation with
    probability 0.999, far from 0.003."""
    B, D, n, runs = 0.01, 1.0, 100, 400

    def noisy(theta, rng):
        return [B + (math.sqrt(B) - B) * (1.0 if rng.random() < 0.5 else -1.0)]

    total = 0.0
    for seed in range(runs):
        result = lib.projected_sgd(noisy, [D], n, step=D / B, radius=D, random_state=seed)
        total += B * (float(as_list(result.theta)[0]) + D)    # f(theta_bar) - f(theta_*)
    assert total / runs - 0.0026 > 3 * B * D / math.sqrt(n)


@pytest.mark.parametrize("params, name", [
    ({"n_steps": 0}, "n_steps"), ({"step": 0.0}, "step"), ({"step": -1.0}, "step"),
    ({"power": 0.0}, "power"), ({"power": 1.5}, "power"), ({"radius": 0.0}, "radius"),
    ({"average": 1}, "average"), ({"random_state": -3}, "random_state")])
def test_bad_arguments_are_named(lib, params, name):
    arguments = {"n_steps": 5, **params}
    n_steps = arguments.pop("n_steps")
    with pytest.raises(ValueError, match=name):
        lib.projected_sgd(constant([1.0]), [0.0], n_steps, **arguments)


@pytest.mark.fast
def test_fast_returns_arrays_with_the_identical_values():
    import numpy as np

    import refml
    import refml_fast

    a = refml.projected_sgd(median_gradient, [2.0], 300, step=3.0, radius=3.0, random_state=5)
    b = refml_fast.projected_sgd(median_gradient, np.array([2.0]), 300, step=3.0, radius=3.0,
                                 random_state=5)
    assert isinstance(b.theta, np.ndarray)
    assert b.theta.tolist() == a.theta and b.theta_last.tolist() == a.theta_last
