"""The one seeded random generator of refml (docs/design.md section 4).

SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators",
OOPSLA 2014): a 64-bit counter advanced by the golden-ratio constant, then mixed.  It is a
few lines of integer arithmetic, so ``refml_fast.core.random`` repeats it as a Numba kernel
over ``uint64`` and both packages draw the identical stream for the same ``random_state``.

Integer draws go through a float in [0, 1) with 53 random bits, ``floor(u * n)``: the same
IEEE operations in Python and in a kernel, hence the same indices.  Normal and exponential
draws (used by the samplers only, never inside a kernel) are Box-Muller and inversion.
"""

import math
import numbers
import os

from refml.core import linalg

MASK64 = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB
TWO_POW_MINUS_53 = 2.0 ** -53


class Generator:
    """SplitMix64; ``state`` is a Python int in [0, 2^64)."""

    def __init__(self, seed):
        self.state = seed & MASK64

    def next_u64(self):
        """The next 64 random bits."""
        self.state = (self.state + GOLDEN_GAMMA) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * MIX1) & MASK64
        z = ((z ^ (z >> 27)) * MIX2) & MASK64
        return z ^ (z >> 31)

    def random(self):
        """Uniform on [0, 1) with 53 random bits."""
        return (self.next_u64() >> 11) * TWO_POW_MINUS_53

    def randbelow(self, n):
        """Uniform integer in {0, ..., n-1}: floor(u * n), kept below n."""
        k = int(self.random() * n)
        return k if k < n else n - 1

    def permutation(self, n):
        """A random ordering of range(n) (Fisher-Yates, from the last position down)."""
        order = list(range(n))
        for i in range(n - 1, 0, -1):
            j = self.randbelow(i + 1)
            order[i], order[j] = order[j], order[i]
        return order

    def choice(self, probabilities):
        """An index k drawn with P(k) = probabilities[k] (inversion of the running sum)."""
        u = self.random() * linalg.total(probabilities)
        running = 0.0
        for k, p in enumerate(probabilities):
            running += p
            if u < running:
                return k
        return max(k for k, p in enumerate(probabilities) if p > 0)

    def normal(self):
        """Standard normal by Box-Muller (one of the pair is used)."""
        u1 = 1.0 - self.random()  # in (0, 1], so the log is finite
        u2 = self.random()
        return math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)

    def exponential(self, rate=1.0):
        """Exp(rate) by inversion: -log(1 - U) / rate."""
        return -math.log(1.0 - self.random()) / rate


def check_random_state(random_state):
    """A ``Generator`` for ``random_state`` (``validate_random_state`` lists what it takes):
    an int seeds it; a Generator is shared (its draws go on); None seeds it from fresh
    entropy; a numpy ``RandomState`` or ``Generator`` gives one seed below 2^62 from its
    own stream (advancing it, as every use of a shared numpy generator does in
    scikit-learn), and that seed starts refml's own SplitMix64 stream.  So the same numpy
    generator state gives the same model in refml and refml_fast."""
    validate_random_state(random_state)
    if isinstance(random_state, Generator):
        return random_state
    if random_state is None:
        return Generator(int.from_bytes(os.urandom(8), "little"))
    if hasattr(random_state, "integers"):            # numpy.random.Generator
        return Generator(int(random_state.integers(0, SEED_BOUND, dtype="int64")))
    if hasattr(random_state, "randint"):             # numpy.random.RandomState
        return Generator(int(random_state.randint(0, SEED_BOUND, dtype="int64")))
    return Generator(int(random_state))


SEED_BOUND = 2 ** 62


def validate_random_state(random_state):
    """ValueError unless ``random_state`` is None, a non-negative integer (Python's or
    numpy's), a refml ``Generator``, or a numpy ``RandomState`` or ``Generator`` (what
    scikit-learn takes).  Draws nothing."""
    if random_state is None or isinstance(random_state, Generator):
        return
    if type(random_state).__name__ in ("RandomState", "Generator") and (
            hasattr(random_state, "integers") or hasattr(random_state, "randint")):
        return
    if isinstance(random_state, bool) or not isinstance(random_state, numbers.Integral):
        raise ValueError(f"Invalid parameter random_state={random_state!r}: must be a "
                         "non-negative integer, a numpy RandomState or Generator, or None")
    if random_state < 0:
        raise ValueError(f"Invalid parameter random_state={random_state!r}: must be a "
                         "non-negative integer, a numpy RandomState or Generator, or None")
