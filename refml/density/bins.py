"""The histogram's bins: which bin holds x, and the checks on ranges and bin widths.

Shared by ``density.Histogram`` and the histogram marginals of ``naive_bayes.NaiveBayes``.
Bin j of m equal bins on [low, high] is [low + j h, low + (j + 1) h), h = (high - low) / m,
the last bin closed at high.
"""

import math

from refml.density.bandwidth import _is_number


def check_bin_widths(low, high, m, name):
    """(high_j - low_j) m finite for every feature, so that every bin index is: a clear
    error instead of a NaN index for data near the float limits (docs/design.md section 5)."""
    for j, (a, b) in enumerate(zip(low, high)):
        if not math.isfinite((b - a) * m):
            raise ValueError(f"{name}: the range [{a!r}, {b!r}] of feature {j} times bins={m} "
                             "overflows float64; rescale the data")
        if not (b - a) / m > 0.0:
            raise ValueError(f"{name}: the range [{a!r}, {b!r}] of feature {j} divided into "
                             f"bins={m} bins underflows to a zero bin width; rescale the data")


def bin_index(x, low, high, m):
    """floor((x - low) m / (high - low)), x = high in bin m - 1; None outside [low, high]."""
    if not low <= x <= high:
        return None
    return min(math.floor((x - low) * m / (high - low)), m - 1)


def _cell(row, low, high, m):
    cell = []
    for j, x in enumerate(row):
        index = bin_index(x, low[j], high[j], m)
        if index is None:
            return None
        cell.append(index)
    return tuple(cell)


def _check_range(value, d):
    if value is not None:
        _range_pairs(value, d)


def _range_pairs(value, d):
    """[(low_j, high_j)] from a pair or d pairs; ValueError naming ``range``."""
    message = (f"Invalid parameter range={value!r}: must be None, a pair (low, high) with "
               f"low < high, or {d} such pairs (one per feature)")
    try:
        items = list(value)
        if len(items) == 2 and all(_is_number(v) for v in items):
            pairs = [tuple(items)] * d
        else:
            pairs = [tuple(p) for p in items]
    except TypeError:
        raise ValueError(message) from None
    if len(pairs) != d or any(len(p) != 2 or not all(_is_number(v) for v in p)
                              for p in pairs):
        raise ValueError(message)
    for low, high in pairs:
        if not (math.isfinite(low) and math.isfinite(high) and low < high):
            raise ValueError(message)
    return pairs
