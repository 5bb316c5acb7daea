"""refml_fast's eight-lane float64 values (``lanes``): each lane's sum and product are the
IEEE operations on that lane, as refml's scalar ``a + b`` and ``a * b`` are."""

import pytest

from tests.helpers import compiled_and_plain

# Special values a lane must carry through untouched by its neighbours: signed zeros,
# infinities, NaN, the smallest subnormal, the largest float, and numbers whose product
# and sum round (a fused multiply-add would round once instead of twice).
SPECIALS = [0.0, -0.0, float("inf"), -float("inf"), float("nan"), 5e-324, 1.7976931348623157e308,
            0.1, 1.0 / 3.0, -2.5, 1e-300, 7.0]


@pytest.mark.fast
def test_lanes_add_and_multiply_as_scalars_do():
    """s + a * x lane by lane, loaded from and stored to a row at any offset, equals the
    scalar sum of the rounded product (NaN where the scalar is NaN)."""
    import math
    import random

    import numpy as np
    from numba import njit

    from refml_fast.runtime.lanes import load, splat, store

    @njit
    def update(S, X, a, row, column):
        store(S, row, column, load(S, row, column) + splat(a) * load(X, row, column))

    rng = random.Random(8)
    for _ in range(200):
        S = np.array([[rng.choice(SPECIALS) * rng.choice([1.0, 3.0]) for _ in range(11)]
                      for _ in range(3)])
        X = np.array([[rng.choice(SPECIALS) for _ in range(11)] for _ in range(3)])
        a, row, column = rng.choice(SPECIALS), rng.randrange(3), rng.randrange(4)
        expected, x = S.tolist(), X.tolist()          # Python floats: IEEE doubles
        for c in range(column, column + 8):
            expected[row][c] = expected[row][c] + a * x[row][c]
        update(S, X, a, row, column)
        for got, want in zip(S.ravel().tolist(), np.array(expected).ravel().tolist()):
            assert got == want or (math.isnan(got) and math.isnan(want))
            if got == 0.0:
                assert math.copysign(1.0, got) == math.copysign(1.0, want)


@pytest.mark.fast
def test_float32_lanes_fuse_within_one_rounding():
    """Sixteen float32 lanes: ``fused`` (the k-NN screen's multiply-add) lands within one
    float32 rounding of the exact u v + w (the product of two float32 is exact in float64,
    and so is the sum here: magnitudes within 2^20 of each other), lane by lane, from any
    offset of a row; lanes outside the sixteen are untouched."""
    import numpy as np
    from numba import njit

    from refml_fast.runtime.lanes import fused, load, splat, store

    @njit
    def step(S, W, x, row, column):
        store(S, row, column, fused(splat(x), load(W, row, column), load(S, row, column)))

    rng = np.random.default_rng(16)
    for _ in range(200):
        S = rng.normal(size=(2, 40)).astype(np.float32)
        W = (rng.normal(size=(2, 40)) * 8.0).astype(np.float32)
        x, row, column = np.float32(rng.normal()), int(rng.integers(2)), int(rng.integers(25))
        before = S.copy()
        step(S, W, x, row, column)
        exact = np.float64(x) * W[row].astype(np.float64) + before[row].astype(np.float64)
        inside = np.zeros(40, dtype=bool)
        inside[column:column + 16] = True
        got = S[row].astype(np.float64)
        assert np.all(np.abs(got - exact)[inside] <= np.spacing(np.abs(exact[inside]).astype(
            np.float32)).astype(np.float64))
        assert S[row][~inside].tolist() == before[row][~inside].tolist()
        assert S[1 - row].tolist() == before[1 - row].tolist()


@pytest.mark.fast
def test_lanes_subtract_round_to_float32_and_add_up():
    """u - v lane by lane as IEEE subtraction; ``float32_values`` and ``store_rounded`` as
    numpy's rounding to float32 (the store touches its eight entries only); ``lane`` reads
    each lane; ``lane_sum`` adds the eight lanes (exactly here:
    small integers, whose sums no order rounds)."""
    import numpy as np
    from numba import njit

    from refml_fast.runtime.lanes import float32_values, lane, lane_sum, load, store_rounded

    @njit
    def parts(A, B, narrow):
        difference = load(A, 0, 0) - load(B, 0, 0)
        rounded = float32_values(difference)
        store_rounded(narrow, 1, 3, difference)
        lanes = [lane(rounded, k) for k in range(8)]
        return ([lane(difference, k) for k in range(8)], lanes, lane_sum(load(B, 1, 0)))

    rng = np.random.default_rng(32)
    for _ in range(100):
        A = rng.normal(size=(2, 8)) * 10.0 ** rng.integers(-40, 40, size=(2, 8))
        B = rng.normal(size=(2, 8)) * 10.0 ** rng.integers(-40, 40, size=(2, 8))
        B[1] = rng.integers(-1000, 1000, size=8)
        narrow = np.full((3, 16), 7.0, dtype=np.float32)
        difference, rounded, total = parts(A, B, narrow)
        assert difference == (A[0] - B[0]).tolist()
        with np.errstate(over="ignore"):        # beyond float32's range: infinities
            expected = (A[0] - B[0]).astype(np.float32).astype(np.float64).tolist()
        assert rounded == expected
        assert narrow[1, 3:11].astype(np.float64).tolist() == expected   # only these eight
        assert (narrow[1, :3] == 7.0).all() and (narrow[1, 11:] == 7.0).all()
        assert (narrow[[0, 2]] == 7.0).all()
        assert total == float(sum(B[1].tolist()))


@pytest.mark.fast
def test_lanes_run_as_plain_python_with_the_same_result():
    """NUMBA_DISABLE_JIT=1 (docs/style.md rule 8): numpy stands in for the lanes, and a
    binary logistic fit whose Hessian uses them gives the compiled floats."""
    code = ("import numpy as np, refml_fast\n"
            "rng = np.random.default_rng(5)\n"
            "X = rng.normal(size=(300, 19)); y = (X[:, 0] + rng.normal(size=300) > 0) * 1\n"
            "m = refml_fast.LogisticRegression(solver='newton').fit(X, y)\n"
            "print(m.n_iter_, m.coef_.tolist(), m.intercept_.tolist())\n")
    compiled, plain = compiled_and_plain(code)
    assert plain == compiled and compiled.count("\n") == 1


@pytest.mark.fast
def test_transpose_gives_the_columns_of_eight_rows():
    """``transpose`` turns eight loaded rows into the eight columns, each value moved
    untouched (signed zeros, NaN, subnormals included), compiled and as plain numpy."""
    import numpy as np
    from numba import njit

    from refml_fast.runtime import lanes as _lanes

    def columns(A, out):
        rows = (_lanes.load(A, 0, 1), _lanes.load(A, 1, 1), _lanes.load(A, 2, 1),
                _lanes.load(A, 3, 1), _lanes.load(A, 4, 1), _lanes.load(A, 5, 1),
                _lanes.load(A, 6, 1), _lanes.load(A, 7, 1))
        result = _lanes.transpose(rows)
        for j in range(8):
            _lanes.store(out, j, 0, result[j])

    compiled = njit(columns)
    rng = np.random.default_rng(3)
    for _ in range(20):
        A = rng.choice(np.array(SPECIALS), size=(8, 10)) * rng.normal(size=(8, 10))
        A[rng.random((8, 10)) < 0.2] = -0.0
        out = np.full((8, 8), 5.0)
        compiled(A, out)
        expected = A[:, 1:9].T
        assert np.array_equal(out, expected, equal_nan=True)
        assert np.array_equal(np.signbit(out), np.signbit(expected))


@pytest.mark.fast
def test_eight_distances_are_the_left_to_right_sums():
    """``eight_distances``: each of the eight rows' sum of squared differences is the float
    of a scalar sum from 0.0 in feature order, for widths with and without a tail of
    features past the last block of eight, on rows of mixed scales (where another order
    of summation gives another float)."""
    import numpy as np

    from refml_fast.neighbors.distance_sums import eight_distances

    rng = np.random.default_rng(11)
    for d in (1, 7, 8, 9, 16, 23, 64, 101):
        Z = rng.normal(size=(30, d)) * 10.0 ** rng.integers(-6, 6, size=(30, d))
        Xq = rng.normal(size=(2, d)) * 10.0 ** rng.integers(-6, 6, size=(2, d))
        rows = rng.permutation(30)[:12].astype(np.int64)
        sums = np.empty(8)
        eight_distances(Xq, 1, Z, rows, 3, sums)
        x = Xq[1].tolist()
        for lane in range(8):
            z = Z[rows[3 + lane]].tolist()
            total = 0.0
            for j in range(d):
                total += (x[j] - z[j]) * (x[j] - z[j])
            assert sums[lane] == total, (d, lane)


@pytest.mark.fast
def test_knn_runs_as_plain_python_with_the_same_neighbours():
    """NUMBA_DISABLE_JIT=1: the k-NN's tiles (filled through ``transpose`` and ``put``), its
    screen and its exact pass of eight rows at a time run as numpy, with the compiled
    answers (d = 13: a block of eight features and a tail; 530 rows: two tiles)."""
    code = ("import numpy as np, refml_fast\n"
            "rng = np.random.default_rng(4)\n"
            "X = rng.normal(size=(530, 13)); y = (X[:, 0] > 0) * 1\n"
            "Q = rng.normal(size=(40, 13))\n"
            "m = refml_fast.KNeighborsClassifier(n_neighbors=12, algorithm='brute').fit(X, y)\n"
            "d, i = m.kneighbors(Q)\n"
            "print(d.tolist(), i.tolist())\n")
    compiled, plain = compiled_and_plain(code)
    assert plain == compiled and compiled.count("\n") == 1


@pytest.mark.fast
def test_widened_float32_lanes_and_the_bits_of_a_comparison():
    """``widened``: eight float32 values as float64, exactly; ``at_most_bits``: bit l set
    where u_l <= v_l, NaN never (their numpy stand-ins run in the k-NN's plain-Python test
    above)."""
    import numpy as np
    from numba import njit

    from refml_fast.runtime import lanes as _lanes

    def bits_of(A, B, i, j):
        return _lanes.at_most_bits(_lanes.widened(A, i, j), _lanes.load(B, i, j))

    compiled = njit(bits_of)
    rng = np.random.default_rng(9)
    for _ in range(50):
        A = rng.normal(size=(2, 12)).astype(np.float32)
        B = A.astype(np.float64) + rng.choice([-1e-9, 0.0, 1e-9], size=(2, 12))
        B[rng.random((2, 12)) < 0.1] = np.nan
        expected = sum(1 << lane for lane in range(8)
                       if float(A[1, 3 + lane]) <= B[1, 3 + lane])
        assert compiled(A, B, 1, 3) == expected


@pytest.mark.fast
def test_larger_chooses_one_of_its_two_floats_lane_by_lane():
    """``larger(u, v)``: lane l is u_l where u_l > v_l, else v_l (so v_l on a tie, -0.0
    against 0.0 included, and where either is NaN).  Its numpy stand-in runs in the k-NN's
    plain-Python test (the k-d tree's box bounds)."""
    import math
    import random

    import numpy as np
    from numba import njit

    from refml_fast.runtime import lanes as _lanes

    def choose(U, V, out, i, j):
        _lanes.store(out, i, j, _lanes.larger(_lanes.load(U, i, j), _lanes.load(V, i, j)))

    rng = random.Random(11)
    compiled = njit(choose)
    for _ in range(200):
        U = np.array([[rng.choice(SPECIALS) for _ in range(10)] for _ in range(2)])
        V = np.array([[rng.choice(SPECIALS) for _ in range(10)] for _ in range(2)])
        out = np.zeros((2, 10))
        i, j = rng.randrange(2), rng.randrange(3)
        compiled(U, V, out, i, j)
        for lane in range(8):
            u, v = U[i, j + lane], V[i, j + lane]
            want = u if u > v else v
            got = out[i, j + lane]
            assert (got == want and math.copysign(1.0, got) == math.copysign(1.0, want)
                    or (math.isnan(got) and math.isnan(want)))
