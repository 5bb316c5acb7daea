"""The shared SplitMix64 generator: reference values, determinism, and the fast twin."""

import math

import pytest

from refml.core.random import Generator, check_random_state

# SplitMix64 from seed 0: the first outputs published with the algorithm's reference code
# (Vigna's splitmix64.c), written here as literals, not computed by the code under test.
SEED0_FIRST = [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


def test_matches_the_published_splitmix64_stream():
    generator = Generator(0)
    assert [generator.next_u64() for _ in range(3)] == SEED0_FIRST


def test_same_seed_same_stream_different_seed_different_stream():
    a, b, c = Generator(7), Generator(7), Generator(8)
    draws_a = [a.random() for _ in range(50)]
    assert draws_a == [b.random() for _ in range(50)]
    assert draws_a != [c.random() for _ in range(50)]


def test_random_is_in_unit_interval_and_roughly_uniform():
    generator = Generator(1)
    draws = [generator.random() for _ in range(20000)]
    assert all(0.0 <= u < 1.0 for u in draws)
    # mean of U(0,1) is 1/2 with sd 1/sqrt(12 n) ~ 0.002: 0.01 is 5 sd
    assert abs(sum(draws) / len(draws) - 0.5) < 0.01


def test_randbelow_covers_every_value_and_nothing_else():
    generator = Generator(2)
    counts = [0] * 7
    for _ in range(7000):
        counts[generator.randbelow(7)] += 1
    assert all(800 < c < 1200 for c in counts)  # expected 1000, sd ~ 31


def test_permutation_is_a_permutation():
    generator = Generator(3)
    for n in (0, 1, 2, 10):
        assert sorted(generator.permutation(n)) == list(range(n))


def test_choice_follows_the_probabilities_and_skips_zero_mass():
    generator = Generator(4)
    counts = [0, 0, 0]
    for _ in range(10000):
        counts[generator.choice([0.2, 0.0, 0.8])] += 1
    assert counts[1] == 0 and 1800 < counts[0] < 2200


def test_normal_and_exponential_moments():
    generator = Generator(5)
    normals = [generator.normal() for _ in range(20000)]
    mean = sum(normals) / len(normals)
    variance = sum((z - mean) ** 2 for z in normals) / len(normals)
    assert abs(mean) < 0.05 and abs(variance - 1.0) < 0.05
    exponentials = [generator.exponential() for _ in range(20000)]
    assert all(e >= 0 and math.isfinite(e) for e in exponentials)
    assert abs(sum(exponentials) / len(exponentials) - 1.0) < 0.05


def test_check_random_state():
    generator = Generator(9)
    assert check_random_state(generator) is generator
    assert check_random_state(9).state == Generator(9).state
    assert isinstance(check_random_state(None), Generator)
    for bad in (-1, 1.5, True, "0"):
        with pytest.raises(ValueError, match="random_state"):
            check_random_state(bad)


@pytest.mark.fast
def test_fast_kernels_draw_the_identical_stream():
    from refml_fast.core import random as fast

    reference = Generator(123456789)
    state = fast.state_array(Generator(123456789))
    for n in (1, 2, 3, 10, 1000, 2 ** 40 + 1):
        assert [reference.randbelow(n) for _ in range(200)] == \
            [fast.randbelow(state, n) for _ in range(200)]
    assert [reference.random() for _ in range(200)] == [fast.random(state) for _ in range(200)]
    carried = Generator(0)
    fast.store_state(carried, state)
    assert carried.state == reference.state
