"""LogisticRegression's sums over samples in blocks (issue 12: SUM_BLOCK samples, and
BINARY_SUM_BLOCK in the objective of two classes): the objective, its gradient and the
Hessian give refml's floats on every path, one thread or several."""

import pytest


@pytest.mark.fast
@pytest.mark.parametrize("n, d, fit_intercept", [(4 * 2048 + 37, 5, True),
                                                 (2 * 2048 + 3, 20, False),
                                                 (3 * 2048, 1, True)])
def test_the_hessian_over_blocks_is_refmls_on_every_path(n, d, fit_intercept):
    """Several blocks of SUM_BLOCK samples: one thread, rows on threads, blocks on threads,
    the general kernel and refml all give the same floats."""
    import numpy as np

    from refml.core import summation
    from refml.linear import logistic_solvers as solvers
    from refml_fast.linear import logistic_binary as binary
    from refml_fast.linear import logistic_hessian as hessian
    from refml_fast.linear import logistic_kernels as kernels

    assert hessian.SUM_BLOCK == summation.SUM_BLOCK == 2048
    rng = np.random.default_rng(n)
    X = rng.normal(size=(n, d)) * rng.choice([0.5, 3.0], size=d)
    theta = rng.normal(size=d + fit_intercept)
    weights = np.empty(n)
    binary.sample_weights_binary(X, theta, fit_intercept, weights)
    p = theta.size
    width = (p + 1 + 7) // 8 * 8
    n_blocks = (n + 2047) // 2048
    found = []
    for path, partials, bounds in [
            (hessian.hessian_serial, (1, width, width), hessian.row_bounds(p, 1)),
            (hessian.hessian_by_rows, (2, width, width), hessian.row_bounds(p, 2)),
            (hessian.hessian_by_blocks, (n_blocks, width, width), hessian.row_bounds(p, 1))]:
        S = np.zeros((width, width))
        path(X, weights, fit_intercept, S, np.empty(partials), bounds)
        H = np.zeros((p, p))
        hessian.finish_hessian(S, n, d, 0.5, H)
        found.append(H.tolist())
    H = np.zeros((p, p))
    kernels.hessian(X, theta, 1, fit_intercept, 0.5, H)
    found.append(H.tolist())
    reference = solvers.hessian(X.tolist(), theta.tolist(), 2, fit_intercept, 0.5)
    assert all(H == reference for H in found)



@pytest.mark.fast
def test_every_tile_width_and_run_of_samples_gives_refmls_hessian():
    """p from 1 to 27 with and without an intercept: tiles of 8, 16 and 24 columns, a last
    tile of rows that runs past p, and more samples than one run of ``pack`` (a run that
    ends mid-block); entries of very different sizes, so that a term added out of order or
    a product fused with its sum changes the floats.  The oracle is refml's ``hessian``."""
    import numpy as np

    from refml.linear import logistic_solvers as solvers
    from refml_fast.linear import logistic_binary as binary
    from refml_fast.linear import logistic_hessian as hessian

    rng = np.random.default_rng(27)
    for p in range(1, 28):
        for fit_intercept in (True, False):
            d = p - fit_intercept
            if d == 0:
                continue
            width = (p + 1 + 7) // 8 * 8
            n = max(hessian.RUN_SAMPLES, hessian.RUN_FLOATS // width) + 3   # 2nd run: 3
            X = rng.normal(size=(n, d)) * rng.choice([1e-3, 1.0, 1e3], size=d)
            theta = rng.normal(size=p) * 1e-3
            weights = np.empty(n)
            binary.sample_weights_binary(X, theta, fit_intercept, weights)
            H = np.zeros((p, p))
            hessian.hessian_binary(X, weights, fit_intercept, 0.5, H)
            reference = solvers.hessian(X.tolist(), theta.tolist(), 2, fit_intercept, 0.5)
            assert H.tolist() == reference, (p, fit_intercept)


@pytest.mark.fast
def test_the_binary_objective_on_threads_gives_the_serial_floats(monkeypatch):
    """Blocks of BINARY_SUM_BLOCK samples on every core, then their sums in order: the loss, the
    gradient and the Hessian weights of ``objective_binary``, bit for bit (a last block
    shorter than the others and n mod 8 tails included), and refml's."""
    import numpy as np

    from refml.core import summation
    from refml.linear import logistic_solvers as solvers
    from refml_fast.linear import logistic_binary as binary
    from refml_fast.runtime import threads as _config

    monkeypatch.setattr(_config, "SURE_SECONDS", 0.0)    # launch whenever the size allows
    rng = np.random.default_rng(9)
    block = binary.BINARY_SUM_BLOCK
    assert block == summation.objective_block(2)
    assert summation.objective_block(3) == summation.SUM_BLOCK
    for n, d in [(2 * block + 99, 3), (block + 1, 16), (3 * block, 2), (9, 5),
                 (9 * block + 13, 40)]:
        X = rng.normal(size=(n, d)) * rng.choice([1e-3, 1.0, 30.0])
        codes = rng.integers(0, 2, size=n).astype(np.int64)
        for fit_intercept in (True, False):
            theta = rng.normal(size=d + fit_intercept) * 3.0
            for alpha in (0.0, 0.25):
                results = []
                for threads in (False, True):
                    monkeypatch.setattr(binary, "PARALLEL_ENTRIES", 1 if threads else 10 ** 15)
                    gradient, weights = np.empty(theta.shape[0]), np.empty(n)
                    loss = binary.objective(X, codes, theta, fit_intercept, alpha, gradient,
                                            weights)
                    results.append((loss, gradient.tolist(), weights.tolist()))
                assert results[0] == results[1]
                if n < 3 * block:
                    reference = solvers.objective(X.tolist(), codes.tolist(), theta.tolist(),
                                                  2, fit_intercept, alpha)
                    assert (results[0][0], results[0][1]) == reference


@pytest.mark.fast
def test_the_multinomial_objective_on_threads_gives_refmls_floats(monkeypatch):
    """K = 3, 4, 5 and 6 over several blocks of SUM_BLOCK samples, with 2 to 37 features
    (the lanes' tiles of 32 and 8 columns, their padding, an odd number of free classes):
    threads or not, refml's."""
    import numpy as np

    from refml.linear import logistic_solvers as solvers
    from refml_fast.linear import logistic_kernels as kernels
    from refml_fast.linear import logistic_multinomial as multinomial
    from refml_fast.runtime import threads as _config

    monkeypatch.setattr(_config, "SURE_SECONDS", 0.0)
    rng = np.random.default_rng(12)
    n = 2 * multinomial.SUM_BLOCK + 37
    for K, d, fit_intercept in [(3, 2, True), (5, 4, False), (4, 37, True), (6, 8, False),
                                (3, 31, True)]:
        X = rng.normal(size=(n, d)) * (2.0 if d < 8 else 0.4)
        codes = rng.integers(0, K, size=n).astype(np.int64)
        theta = rng.normal(size=(K - 1) * (d + fit_intercept))
        results = []
        for threads in (False, True):
            monkeypatch.setattr(multinomial, "PARALLEL_UNITS", 1 if threads else 10 ** 15)
            gradient = np.empty(theta.shape[0])
            loss = multinomial.objective(X, codes, theta, K - 1, fit_intercept, 0.1, gradient)
            results.append((loss, gradient.tolist()))
        gradient = np.empty(theta.shape[0])
        loss = kernels.objective(X, codes, theta, K - 1, fit_intercept, 0.1, gradient)
        results.append((loss, gradient.tolist()))
        assert results[0] == results[1] == results[2]
        assert results[0] == solvers.objective(X.tolist(), codes.tolist(), theta.tolist(), K,
                                               fit_intercept, 0.1)
