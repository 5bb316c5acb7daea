"""e^x for x <= 0 as a fixed sequence of float operations: the rbf kernel's exponential.

The rbf kernel exp(-gamma ||x - z||^2) is computed millions of times a fit.  A library's
exp (libm's, which Python's ``math.exp`` calls) is accurate, but its floats are whatever
that library's algorithm gives, one value per call; refml_fast must reproduce refml's
kernel values bit for bit, and wants to compute eight of them at once in a vector
register.  So both packages compute e^x by this one recipe, made only of additions,
multiplications, ``floor`` and exact powers of two, whose floats are the same wherever
IEEE 754 arithmetic is (no fused multiply-add, no reordering):

1. Reduce: k = floor(x / ln 2 + 1/2) and r = (x - k LN2_HIGH) - k LN2_LOW, so that
   e^x = 2^k e^r with |r| <= ln(2)/2 + a little.  ln 2 is split in two (Cody and Waite):
   LN2_HIGH has its last 21 bits zero, so k LN2_HIGH is exact for the k that occur, and
   x - k LN2_HIGH is exact too (Sterbenz); LN2_LOW carries the rest of ln 2.
2. Approximate: e^r by its Taylor polynomial of degree 13, by Horner's rule from the
   highest term.  The first term left out, r^14 / 14!, is below 5e-18 for |r| <= 0.35:
   far below the rounding error of the sum (about 1e-16).
3. Scale: 2^k e^r, rounded once (``math.ldexp``).  A vector unit has no ldexp:
   refml_fast multiplies by 2^max(k, -1021) (exact: e^r >= 1/2, so the result stays a
   normal number), then by 2^(k - max(k, -1021)), which rounds once, so that a result
   below 2^-1022 (a subnormal number) is rounded exactly once there too: the same float.

Against libm's exp the result differs by at most a unit or two in the last place (checked
in tests/test_exponential.py over random x); it is exactly 1.0 at x = 0 and 0.0 below
-745.2 (where e^x is below half of the smallest positive float).  Beyond the lectures,
which write exp and mean the real function.
"""

import math

LN2_HIGH = 6.93147180369123816490e-01      # ln 2 to 32 bits: k LN2_HIGH is exact
LN2_LOW = 1.90821492927058770002e-10       # ln 2 - LN2_HIGH
INVERSE_LN2 = 1.44269504088896338700e+00   # 1 / ln 2
LOWEST = -1400.0                           # below it, e^x is 0.0 all the same
# 1/n! for n = 13, 12, ..., 0: the Taylor coefficients of e^r, highest first (Horner).
TAYLOR = tuple(1.0 / math.factorial(n) for n in range(13, -1, -1))
C13, C12, C11, C10, C9, C8, C7, C6, C5, C4, C3, C2, C1, C0 = TAYLOR


def exp_nonpositive(x):
    """e^x for x <= 0 (including -inf), by the recipe of the module docstring."""
    x = max(x, LOWEST)
    k = math.floor(x * INVERSE_LN2 + 0.5)
    r = (x - k * LN2_HIGH) - k * LN2_LOW
    p = C13 * r + C12                       # Horner's rule, written out: the hot path of an
    p = p * r + C11                         # rbf SVM in pure Python
    p = p * r + C10
    p = p * r + C9
    p = p * r + C8
    p = p * r + C7
    p = p * r + C6
    p = p * r + C5
    p = p * r + C4
    p = p * r + C3
    p = p * r + C2
    p = p * r + C1
    p = p * r + C0
    return math.ldexp(p, k)                 # 2^k p, rounded once (the two steps above)
