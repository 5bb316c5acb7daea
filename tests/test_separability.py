"""Linear separability by LP (refml.linear.separability / refml_fast.linear.separability): small
data sets whose answer is known by geometry, degenerate and near-degenerate cases, random
instances separable or not by construction, the returned separator, input checks, and the fast
path's exact certification and fallback."""

import random
from fractions import Fraction

import pytest

from tests.helpers import as_list

# One feature: 0 and 1 are class 0, 3 is class 1; every b + w x with y (b + w x) >= 1 works.
LINE_X = [[0.0], [1.0], [3.0]]
LINE_Y = [0, 0, 1]
# XOR: the diagonals' midpoints coincide, so the hulls meet at (1/2, 1/2).
XOR_X = [[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]]
XOR_Y = [0, 0, 1, 1]
# Two equal points with opposite labels: the smallest non-separable set.
TWIN_X = [[1.0, 2.0], [1.0, 2.0]]
TWIN_Y = ["a", "b"]
# Touching hulls: (1, 0) of class 1 is the midpoint of class 0's segment from (0, 0) to (2, 0);
# not separable, though it fails only by a single point of contact.
TOUCH_X = [[0.0, 0.0], [2.0, 0.0], [1.0, 0.0], [1.0, 1.0]]
TOUCH_Y = [0, 0, 1, 1]
# The same with (1, 0) lifted by 1e-9: separable, with a margin a float LP would round away.
NEAR_X = [[0.0, 0.0], [2.0, 0.0], [1.0, 1e-9], [1.0, 1.0]]
NEAR_Y = [0, 0, 1, 1]
# All points at the origin, both labels: degenerate (every column of A' is 0 but the bias).
ZERO_X = [[0.0, 0.0]] * 5
ZERO_Y = [0, 1, 0, 1, 1]
# A constant feature and a useful one, string labels: separable by the second feature alone.
CONSTANT_X = [[5.0, -1.0], [5.0, -2.0], [5.0, 3.0], [5.0, 4.0]]
CONSTANT_Y = ["low", "low", "up", "up"]


def separates_exactly(X, y, w):
    """y_i (w_0 + sum_j w_j x_ij) > 0 for all i, computed in rationals (y: classes_[0] -> -1)."""
    classes = sorted(set(y))
    w = [Fraction(float(v)) for v in as_list(w)]
    for x, label in zip(X, y):
        sign = -1 if label == classes[0] else 1
        score = w[0] + sum((wj * Fraction(float(xj)) for wj, xj in zip(w[1:], x)), Fraction(0))
        if not sign * score > 0:
            return False
    return True


def smallest_margin(X, y, w):
    classes = sorted(set(y))
    w = as_list(w)
    return min((-1 if label == classes[0] else 1) * (w[0] + sum(a * b for a, b in zip(w[1:], x)))
               for x, label in zip(X, y))


@pytest.mark.parametrize("X, y", [(LINE_X, LINE_Y), (NEAR_X, NEAR_Y), (CONSTANT_X, CONSTANT_Y)],
                         ids=["line", "near-touching", "constant-feature"])
def test_separable_sets_get_a_separator_with_margins_at_least_one(lib, X, y):
    separable, w = lib.linear_separability(X, y)
    assert separable is True
    assert len(as_list(w)) == len(X[0]) + 1
    assert separates_exactly(X, y, w)
    assert smallest_margin(X, y, w) >= 1.0 - 1e-9   # >= 1 exactly before rounding w to floats


def test_line_separator_is_the_lp_vertex(lib):
    # Bland's rule reaches the vertex b = -2, w = 1: y (b + w x) = 2, 1, 1.
    assert as_list(lib.linear_separability(LINE_X, LINE_Y)[1]) == [-2.0, 1.0]


@pytest.mark.parametrize("X, y", [(XOR_X, XOR_Y), (TWIN_X, TWIN_Y), (TOUCH_X, TOUCH_Y),
                                  (ZERO_X, ZERO_Y)], ids=["xor", "twins", "touching", "zeros"])
def test_non_separable_sets_are_recognised(lib, X, y):
    assert lib.linear_separability(X, y) == (False, None)


def random_instance(seed, separable):
    """Points on both sides of a random hyperplane with margin, on the grid of multiples of
    1/1024; if not separable, add the midpoint of two class-0 points with the label of class 1.
    (On the grid the midpoint is exact: a convex combination rounded to floats leaves the
    segment, and the data may then be separable after all, by a w of norm 1e17.)"""
    rng = random.Random(seed)
    d = rng.randint(1, 4)
    normal = [rng.gauss(0, 1) for _ in range(d)]
    X, y = [], []
    for i in range(rng.randint(4, 20)):
        label = i % 2
        x = [rng.gauss(0, 2) for _ in range(d)]
        score = sum(a * b for a, b in zip(normal, x))
        shift = ((0.1 + rng.random()) * (1 if label else -1) - score) / sum(a * a for a in normal)
        X.append([round((a + shift * b) * 1024) / 1024 for a, b in zip(x, normal)])
        y.append(label)
    if not separable:
        first, second = [x for x, label in zip(X, y) if label == 0][:2]
        X.append([(a + b) / 2 for a, b in zip(first, second)])
        y.append(1)
    return X, y


@pytest.mark.parametrize("seed", range(12))
def test_random_instances_separable_or_not_by_construction(lib, seed):
    X, y = random_instance(seed, separable=True)
    separable, w = lib.linear_separability(X, y)
    assert separable and separates_exactly(X, y, w)
    X, y = random_instance(seed, separable=False)
    assert lib.linear_separability(X, y) == (False, None)


def test_inputs_are_checked_and_left_unchanged(lib):
    X, y = [list(row) for row in XOR_X], list(XOR_Y)
    lib.linear_separability(X, y)
    assert X == XOR_X and y == XOR_Y
    with pytest.raises(ValueError, match="class"):
        lib.linear_separability(LINE_X, [0, 0, 0])
    with pytest.raises(ValueError, match="class"):
        lib.linear_separability(LINE_X, [0, 1, 2])
    with pytest.raises(ValueError, match="NaN"):
        lib.linear_separability([[0.0], [float("nan")], [1.0]], LINE_Y)
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        lib.linear_separability(LINE_X, LINE_Y[:2])
    with pytest.raises(ValueError, match="Expected 2D"):
        lib.linear_separability([0.0, 1.0, 3.0], LINE_Y)


def test_many_duplicates_and_ties_terminate(lib):
    # Degenerate pivots (zero ratios everywhere): Bland's rule must still stop.
    X = [[float(i % 2), float(i % 3)] for i in range(30)]
    y = [i % 2 for i in range(30)]                  # class = first feature: separable
    separable, w = lib.linear_separability(X, y)
    assert separable and separates_exactly(X, y, w)
    y[0] = 1                                        # (0, 0) now carries both labels
    assert lib.linear_separability(X, y) == (False, None)


@pytest.mark.fast
def test_fast_returns_numpy_and_matches_refml_on_the_vertex():
    import numpy as np

    import refml
    import refml_fast

    separable, w = refml_fast.linear_separability(np.array(LINE_X), np.array(LINE_Y))
    assert separable and isinstance(w, np.ndarray) and w.dtype == np.float64
    assert w.tolist() == refml.linear_separability(LINE_X, LINE_Y)[1]


@pytest.mark.fast
@pytest.mark.parametrize("X, y, expected", [(NEAR_X, NEAR_Y, True), (XOR_X, XOR_Y, False),
                                            (TOUCH_X, TOUCH_Y, False)])
def test_fast_falls_back_to_the_exact_lp_when_the_floats_give_no_proof(monkeypatch, X, y,
                                                                       expected):
    import refml_fast.linear.separability as fast

    calls = []

    def exact(X, y):
        calls.append(1)
        return original(X, y)

    original = fast.reference.linear_separability
    monkeypatch.setattr(fast.reference, "linear_separability", exact)
    monkeypatch.setattr(fast, "simplex_phase_one", lambda *args: False)   # pivot cap hit
    assert fast.linear_separability(X, y)[0] is expected
    assert calls == [1]


@pytest.mark.fast
def test_fast_proofs_check_their_claims():
    import numpy as np

    import refml_fast.linear.separability as fast

    # XOR rows y_i x~_i; the basis {lambda_0, lambda_1, lambda_2} proves non-separability:
    # 1/4 of each point balances (the hulls meet at the centre); a basis of artificials
    # proves nothing.
    signs = np.array([-1.0, -1.0, 1.0, 1.0])
    augmented = np.hstack([np.ones((4, 1)), np.array(XOR_X)]) * signs[:, None]
    assert fast.prove_not_separable(augmented, np.array([0, 1, 2, 3])) == (False, None)
    assert fast.prove_not_separable(augmented, np.array([4, 5, 6, 7])) is None
    assert fast.prove_separable(augmented, np.array([4, 5, 6, 7])) is None
    assert fast.separates(augmented, np.array([1.0, 0.0, 0.0])) is False
    line = np.hstack([np.ones((3, 1)), np.array(LINE_X)]) * np.array([-1.0, -1.0, 1.0])[:, None]
    assert fast.separates(line, np.array([-2.0, 1.0])) is True
    assert fast.exact_solve([[Fraction(1), Fraction(2)], [Fraction(2), Fraction(4)]],
                            [Fraction(1), Fraction(1)]) is None
