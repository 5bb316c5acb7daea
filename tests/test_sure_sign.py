"""refml_fast's signs of dot products known without refml's order (``sure_sign``): whenever
``sure`` says so, the sign of the lanes' sum is the sign of refml's left-to-right sum, never
zero, on sums built to cancel, at every scale, with subnormals, infinities and NaN."""

import pytest


def left_to_right(theta, x, offset):
    """refml's margin: from 0.0, the bias first, then each product, in IEEE doubles."""
    total = 0.0
    if offset:
        total += theta[0] * 1.0
    for j, value in enumerate(x):
        total += theta[offset + j] * value
    return total


def cancelling_row(rng, theta, offset, d):
    """A row x whose products theta_j x_j (exact: theta holds powers of two) are large
    values that cancel in pairs, at random places, and small ones between them, so that
    the order of the additions decides what is left, and often its sign."""
    products = [rng.uniform(-1, 1) * 10.0 ** -rng.randint(0, 17) for _ in range(d)]
    places = list(range(d))
    rng.shuffle(places)
    for a, b in zip(places[0::2], places[1::2]):
        big = rng.choice([1.0, 3.0, 7.0, 1e8]) * rng.choice([1.0, -1.0])
        products[a], products[b] = big, -big * rng.choice([1.0, 1.0 + 2.0 ** -52, 1.0])
    return [products[j] / theta[offset + j] for j in range(d)]


@pytest.mark.fast
def test_a_sure_sign_is_the_sign_of_refmls_sum():
    import random

    import numpy as np

    from refml_fast.runtime.sure_sign import lane_dot, sign_bound, sure

    rng = random.Random(5)
    checked = differ = sure_count = 0
    for trial in range(400):
        d, offset = rng.randint(1, 40), rng.randint(0, 1)
        theta = [rng.choice([1.0, -1.0, 0.5, 2.0, -4.0]) for _ in range(d + offset)]
        rows = [cancelling_row(rng, theta, offset, d) for _ in range(6)]
        scale = 10.0 ** rng.choice([0, 0, -150, 150, -310, 300])
        rows += [[rng.gauss(0, 1) * scale for _ in range(d)] for _ in range(4)]
        if trial % 10 == 0:
            rows[0][rng.randrange(d)] = rng.choice([float("inf"), -float("inf"), float("nan")])
        X = np.array(rows)
        weights = np.array([theta])
        bound = sign_bound(d + offset)
        for i, x in enumerate(X.tolist()):
            m, s = lane_dot(weights, X, i, offset)
            exact = left_to_right(theta, x, offset)
            checked += 1
            differ += (m > 0) != (exact > 0) or (m == 0) != (exact == 0)
            if sure(m, s, bound):
                sure_count += 1
                assert exact != 0.0 and (exact > 0) == (m > 0), (trial, i)
                assert np.isfinite(X[i]).all()
    assert differ >= 50            # the orders really disagree, and the bound caught it
    assert sure_count >= checked // 3


@pytest.mark.fast
def test_most_rows_of_ordinary_data_are_decided_in_lanes():
    """The lanes' path is the common one: Gaussian rows and weights, 99% decided there."""
    import numpy as np

    from refml_fast.runtime.sure_sign import lane_dot, sign_bound, sure

    rng = np.random.default_rng(3)
    for d in (1, 7, 8, 50, 301):
        X = rng.normal(size=(500, d))
        weights = rng.normal(size=(1, d + 1))
        decided = sum(sure(*lane_dot(weights, X, i, 1), sign_bound(d + 1))
                      for i in range(500))
        assert decided >= 495, d


@pytest.mark.fast
def test_where_the_lanes_leave_a_remainder_and_refml_zero_nothing_is_sure():
    """x = [1, u, ..., u, -1] with u = 2^-53 and theta = 1: from left to right each u is
    lost against 1 (a tie, to even) and the sum is 0; the lanes add the u's among
    themselves and keep them.  Not sure, so refml's path decides."""
    import numpy as np

    from refml_fast.runtime.sure_sign import lane_dot, sign_bound, sure

    for d in (9, 17, 41, 201):
        x = [1.0] + [2.0 ** -53] * (d - 2) + [-1.0]
        m, s = lane_dot(np.ones((1, d)), np.array([x]), 0, 0)
        assert left_to_right([1.0] * d, x, 0) == 0.0 and m > 0.0
        assert not sure(m, s, sign_bound(d))


@pytest.mark.fast
def test_the_perceptron_runs_the_same_as_plain_python():
    """NUMBA_DISABLE_JIT=1 (docs/style.md rule 8): numpy stands in for the lanes, the
    magnitudes and the prefetch hints, and the fits give the same floats."""
    from tests.helpers import compiled_and_plain

    code = (
        "import warnings, numpy as np, refml_fast\n"
        "warnings.simplefilter('ignore')\n"
        "rng = np.random.default_rng(4)\n"
        "for X in (rng.normal(size=(200, 11)), np.round(2 * rng.normal(size=(200, 3)))):\n"
        "    y = (X @ rng.normal(size=X.shape[1]) > 0) ^ (rng.random(200) < 0.2)\n"
        "    for order in ('cyclic', 'batch', 'random', 'uniform'):\n"
        "        m = refml_fast.Perceptron(order=order, max_iter=6, random_state=1).fit(X, y)\n"
        "        print(order, m.coef_.tolist(), m.intercept_, m.n_mistakes_, m.n_iter_)\n")
    compiled, plain = compiled_and_plain(code)
    assert compiled == plain and compiled.count("cyclic") == 2
