"""The rbf kernel's exponential (refml.core.exponential): within a unit in the last place of
libm's exp, exact at the ends, and the same floats from refml_fast's scalar and eight-lane
kernels."""

import math
import random
import struct

import pytest

from refml.core.exponential import exp_nonpositive


def ulps_apart(a, b):
    """How many floats lie between a and b (both >= 0), b itself counted."""
    bits = [struct.unpack("<q", struct.pack("<d", value))[0] for value in (a, b)]
    return abs(bits[0] - bits[1])


def arguments(seed, count):
    """x <= 0 spread over every scale the rbf kernel meets, the subnormal results included."""
    rng = random.Random(seed)
    values = [0.0, -0.0, -5e-324, -1e-300, -1e-17, -0.34657359027997264, -0.5, -1.0,
              -708.3964185322641, -708.4, -744.4, -745.1, -745.13321910194122, -745.2,
              -746.0, -1e10, -math.inf]
    for _ in range(count):
        scale = rng.choice([1e-8, 1.0, 40.0, 760.0])
        values.append(-rng.uniform(0.0, scale))
    values += [-rng.uniform(700.0, 746.0) for _ in range(count // 4)]
    return values


def test_within_one_unit_in_the_last_place_of_libms_exp():
    worst, differing = 0, 0
    values = arguments(3, 40_000)
    for x in values:
        expected = math.exp(x) if x > -1e300 else 0.0
        apart = ulps_apart(exp_nonpositive(x), expected)
        worst = max(worst, apart)
        differing += apart > 0
    assert worst <= 1
    assert 0 < differing < len(values) // 4         # a recipe of its own, mostly libm's floats


def test_exact_at_the_ends():
    assert exp_nonpositive(0.0) == 1.0 and exp_nonpositive(-0.0) == 1.0
    assert exp_nonpositive(-1e-300) == 1.0
    assert exp_nonpositive(-745.2) == 0.0 and exp_nonpositive(-math.inf) == 0.0
    assert exp_nonpositive(-745.1) == 5e-324              # the smallest subnormal, once
    assert exp_nonpositive(-math.log(2.0) * 1022) == pytest.approx(2.0 ** -1022, rel=1e-15)


def test_the_values_decrease_with_x():
    values = [exp_nonpositive(-0.01 * i) for i in range(80_000)]
    assert all(a >= b for a, b in zip(values, values[1:]))


@pytest.mark.fast
def test_refml_fast_computes_the_same_floats_one_at_a_time_and_in_lanes():
    import numpy as np

    from refml_fast.core.exponential import exp_lanes
    from refml_fast.core.exponential import exp_nonpositive as fast_exp
    from refml_fast.runtime.lanes import load, store
    from refml_fast.runtime.options import kernel

    @kernel
    def one_at_a_time(xs, out):
        for i in range(xs.shape[0]):
            out[i] = fast_exp(xs[i])

    @kernel
    def eight_at_a_time(xs, out):
        for i in range(xs.shape[0]):
            store(out, i, 0, exp_lanes(load(xs, i, 0)))

    values = arguments(5, 20_000)
    values += [0.0] * (-len(values) % 8)
    xs = np.array(values)
    expected = np.array([exp_nonpositive(x) for x in values])
    out = np.empty_like(xs)
    one_at_a_time(xs, out)
    assert np.array_equal(out, expected)
    lanes = np.empty((len(values) // 8, 8))
    eight_at_a_time(xs.reshape(-1, 8), lanes)
    assert np.array_equal(lanes.ravel(), expected)
