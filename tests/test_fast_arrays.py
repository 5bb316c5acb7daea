"""refml_fast's scans over the float bits (issue 12): the finiteness check behind every
estimator's validation and the largest magnitude behind the solvers' stopping rules give
the answers of the plain float loops they replaced, NaN, infinities and signed zeros
included."""

import pytest

pytestmark = pytest.mark.fast


def plain_non_finite(X):
    import numpy as np

    return bool(np.isnan(X).any()), bool(np.isinf(X).any())


def plain_largest(X):
    import numpy as np

    largest = 0.0
    for value in np.asarray(X).ravel():
        if abs(value) > largest:   # False for NaN: NaN entries are passed over
            largest = abs(value)
    return largest


def arrays():
    import numpy as np

    rng = np.random.default_rng(3)
    base = rng.normal(size=(37, 11)) * 10.0 ** rng.integers(-300, 300, size=(37, 11))
    yield base
    for specials in ([np.inf], [-np.inf], [np.nan], [np.nan, np.inf], [-0.0, np.nan],
                     [np.finfo(float).max, -np.finfo(float).tiny]):
        X = base.copy()
        for value in specials:
            X[rng.integers(37), rng.integers(11)] = value
        yield X
    yield np.full((3, 2), np.nan)
    yield np.array([[-0.0, 0.0]])
    yield base[:, 2:9]                                   # not C-contiguous


def test_non_finite_tells_nan_and_infinity_apart_like_numpy():
    import numpy as np

    from refml_fast._arrays import non_finite

    for X in arrays():
        has_nan, has_infinity = non_finite(np.ascontiguousarray(X))
        expected_nan, expected_infinity = plain_non_finite(X)
        assert has_nan == expected_nan
        if not has_nan:          # the scan stops at the first NaN
            assert has_infinity == expected_infinity


def test_largest_magnitude_is_the_plain_loops_maximum():
    from refml_fast.least_squares import largest_magnitude

    for X in arrays():
        assert largest_magnitude(X) == plain_largest(X)
        assert largest_magnitude(X[0]) == plain_largest(X[0])
