"""SplitMix64 as Numba kernels: the same stream as ``refml.core.random.Generator``.

The state lives in a one-element ``uint64`` array so that a kernel can advance it; wrap a
refml ``Generator`` with ``state_array`` before a kernel call and ``store_state`` after, and
the Python generator continues exactly where the kernel stopped.
"""

import numpy as np

from refml_fast.runtime.options import kernel

GOLDEN_GAMMA = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)
SHIFT11 = np.uint64(11)
SHIFT27 = np.uint64(27)
SHIFT30 = np.uint64(30)
SHIFT31 = np.uint64(31)
TWO_POW_MINUS_53 = 2.0 ** -53


@kernel(inline=True)
def mix(z):
    """SplitMix64's output for the advanced state z: the k-th output after state s is
    mix(s + k GOLDEN_GAMMA), so a run of draws needs no chain from one to the next."""
    z = (z ^ (z >> SHIFT30)) * MIX1
    z = (z ^ (z >> SHIFT27)) * MIX2
    return z ^ (z >> SHIFT31)


@kernel
def next_u64(state):
    """Advance ``state[0]`` and return the next 64 random bits (uint64 wraps mod 2^64)."""
    state[0] = state[0] + GOLDEN_GAMMA
    return mix(state[0])


@kernel(inline=True)
def unit_interval(bits):
    """64 random bits as a uniform float on [0, 1) with 53 of them."""
    return np.float64(bits >> SHIFT11) * TWO_POW_MINUS_53


@kernel(inline=True)
def below(u, n):
    """floor(u * n) for u uniform on [0, 1), kept below n."""
    k = np.int64(u * n)
    return k if k < n else n - 1


@kernel
def random(state):
    """Uniform on [0, 1) with 53 random bits."""
    return unit_interval(next_u64(state))


@kernel
def randbelow(state, n):
    """Uniform integer in {0, ..., n-1}: floor(u * n), kept below n."""
    return below(random(state), n)


def state_array(generator):
    """The generator's state as a kernel-writable uint64[1]."""
    return np.array([generator.state], dtype=np.uint64)


def store_state(generator, state):
    """Write a kernel-advanced state back into the Python generator."""
    generator.state = int(state[0])
