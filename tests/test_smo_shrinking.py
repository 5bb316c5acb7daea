"""SMO's shrinking (refml/svm/smo.py): points leave the active set and come back, the gradient
rebuilt for them is the gradient by definition, the stopping rule holds on every point, and
refml_fast takes exactly the same steps (issue 12)."""

import math
import random

import pytest

from refml.svm import smo as _smo
from tests.helpers import compiled_and_plain


def overlapping(n, seed, d=3):
    """Two heavily overlapping Gaussian classes: many multipliers end at C or at 0, so
    shrinking has points to remove."""
    rng = random.Random(seed)
    X, y = [], []
    for i in range(n):
        sign = 1.0 if i % 2 else -1.0
        X.append([rng.gauss(0.3 * sign, 1.0) for _ in range(d)])
        y.append(sign)
    return X, y


def run_smo(X, y, C=1.0, tol=1e-3, kernel="linear"):
    rows = _smo.KernelRows(X, kernel, 0.5, 3, 0.0)
    return _smo.smo(rows, rows.diagonal(), y, C, tol, 10 ** 7)


def test_shrinking_keeps_the_gradient_and_the_stopping_rule_exact():
    X, y = overlapping(300, seed=1)
    alpha, n_iter, status, gradient = run_smo(X, y)
    assert status == _smo.CONVERGED
    assert n_iter > _smo.shrink_period(len(y))        # at least one shrinking happened
    # G = Q alpha - 1, recomputed from its definition for every point
    for t in range(len(y)):
        total = sum(alpha[s] * y[s] * y[t] * sum(a * b for a, b in zip(X[s], X[t]))
                    for s in range(len(y)))
        assert math.isclose(gradient[t], total - 1.0, rel_tol=1e-9, abs_tol=1e-9)
    # m - M <= tol over all points, not only the active ones
    i, m, M = _smo.maximal_violation(range(len(y)), alpha, gradient, y, 1.0)
    assert m - M <= 1e-3
    assert sum(alpha[t] * y[t] for t in range(len(y))) == pytest.approx(0.0, abs=1e-9)
    assert all(0.0 <= a <= 1.0 for a in alpha)
    assert sum(1 for a in alpha if a == 1.0) > 50      # many at C: shrinking had work


def test_shrink_removes_only_bounded_points_beyond_the_violating_pair():
    # y = +1 with alpha = 0: only in I_up; y = -1 with alpha = 0: only in I_low.
    y = [1.0, 1.0, -1.0, -1.0, 1.0]
    alpha = [0.0, 0.0, 0.0, 0.0, 0.5]                  # the last one is free
    v = [0.9, -2.0, 0.5, 3.0, -5.0]                    # v_t = -y_t G_t
    gradient = [-y_t * v_t for y_t, v_t in zip(y, v)]
    # over all points: m = max_{I_up} v = 0.9, M = min_{I_low} v = -5.0 (the free point)
    kept, unshrunk = _smo.shrink(list(range(5)), True, None, alpha, gradient, [0.0] * 5,
                                 y, 1.0, 1e-3)
    # Point 3 (only in I_low, v = 3 > m) goes.  Point 1 (only in I_up, v = -2, not below
    # M = -5), point 2 (only in I_low, v = 0.5, not above m), the maximal violator 0 and the
    # free point 4 stay, in index order.
    assert kept == [0, 1, 2, 4] and unshrunk


def test_rebuilt_gradient_equals_the_definition_after_a_forced_shrink():
    X, y = overlapping(60, seed=3)
    rows = _smo.KernelRows(X, "rbf", 0.5, 3, 0.0)
    C = 2.0
    rng = random.Random(5)
    alpha = [0.0] * len(y)
    for t in range(len(y)):
        alpha[t] = rng.choice([0.0, C, rng.uniform(0, C)])
    exact = [y[t] * sum(alpha[s] * y[s] * rows(s)[t] for s in range(len(y))) - 1.0
             for t in range(len(y))]
    at_bound = [sum(C * y[s] * y[t] * rows(s)[t] for s in range(len(y)) if alpha[s] == C)
                for t in range(len(y))]
    gradient = list(exact)
    active = [t for t in range(len(y)) if t % 3 == 0]
    for t in range(len(y)):
        if t % 3:
            gradient[t] = float("nan")                  # stale values of shrunk points
    everyone = _smo.rebuild_gradient(active, rows, alpha, gradient, at_bound, y, C)
    assert everyone == list(range(len(y)))
    for g, e in zip(gradient, exact):
        assert math.isclose(g, e, rel_tol=1e-12, abs_tol=1e-12)


@pytest.mark.fast
@pytest.mark.parametrize("kernel, C", [("linear", 1.0), ("rbf", 5.0), ("poly", 0.5)])
def test_refml_fast_shrinks_the_same_points_and_returns_the_same_alphas(kernel, C):
    import numpy as np

    import refml
    import refml_fast

    X, y = overlapping(400, seed=7)
    reference = refml.SVC(kernel=kernel, C=C, gamma=0.5).fit(X, y)
    fast = refml_fast.SVC(kernel=kernel, C=C, gamma=0.5).fit(np.array(X), np.array(y))
    assert reference.n_iter_ == fast.n_iter_
    if kernel != "poly":
        assert reference.n_iter_ > _smo.shrink_period(400)   # shrinking took place
    assert list(reference.support_) == fast.support_.tolist()
    assert list(reference.dual_coef_) == fast.dual_coef_.ravel().tolist()
    assert reference.intercept_ == fast.intercept_


@pytest.mark.fast
@pytest.mark.parametrize("compacted_bytes", [None, 1])
def test_a_tiny_row_cache_changes_nothing(monkeypatch, compacted_bytes):
    """Three cached rows for 400 points: rows are evicted, recomputed at the active points
    only, completed for G_bar (also when a step read them compacted and the cache no longer
    holds them), and rebuilt from scratch; with room for two compacted rows as well, every
    step fetches again.  The answer is refml's all the same."""
    import numpy as np

    import refml
    import refml_fast
    from refml_fast.svm import kernel_rows as _kernel_rows
    from refml_fast.svm import smo_scans as _smo_scans

    X, y = overlapping(400, seed=11)
    monkeypatch.setattr(_kernel_rows, "CACHE_BYTES", 3 * 400 * 8)
    if compacted_bytes is not None:
        monkeypatch.setattr(_smo_scans, "COMPACT_BYTES", compacted_bytes)
        assert _smo_scans.compact_store(400).shape[0] == 2 * 400
    assert _kernel_rows.row_cache(400).shape[0] == 3
    reference = refml.SVC(kernel="rbf", C=5.0, gamma=0.5).fit(X, y)
    fast = refml_fast.SVC(kernel="rbf", C=5.0, gamma=0.5).fit(np.array(X), np.array(y))
    assert reference.n_iter_ == fast.n_iter_
    assert list(reference.dual_coef_) == fast.dual_coef_.ravel().tolist()
    assert reference.intercept_ == fast.intercept_


@pytest.mark.fast
def test_panels_hold_x_transposed():
    """``panels_of``: panels[p, k, c] = X[p w + c, k] for every row and feature, zeros past
    the last row, on one thread and on the threads (blocks of eight rows and eight
    features, and the features and rows left over)."""
    import numpy as np

    from refml_fast.svm import kernel_rows as _kernel_rows

    rng = np.random.default_rng(43)
    for n, d in ((1, 1), (7, 3), (8, 8), (64, 16), (301, 17), (1162, 81), (5003, 41)):
        X = rng.normal(size=(n, d))
        for parts in (1, 2, 3):
            for held in (False, True):
                panels = _kernel_rows.panels_of(X, parts, launch_held=held)
                width = panels.shape[2]
                flat = np.concatenate(list(panels), axis=1)     # d x (parts * width)
                assert flat[:, :n].tolist() == X.T.tolist()
                assert (flat[:, n:] == 0.0).all() and width % 8 == 0


@pytest.mark.fast
@pytest.mark.parametrize("kernel", ["linear", "rbf", "poly"])
def test_a_row_from_panels_is_the_full_rows_floats(kernel):
    """A row of K from X.T in panels (one per thread, ``kernel_rows.panels_of``), computed
    panel after panel or a panel on each thread, complete or at the active points (four
    features a pass): at every column its value is refml's ``kernel_value``, bit for bit,
    for d from 1 to 9 (whole passes of four and the features after them), complete and at
    the active points (the other columns hold whatever the computation left there)."""
    import numpy as np

    from refml_fast.svm import gram as _gram
    from refml_fast.svm import kernel_rows as _kernel_rows

    rng = np.random.default_rng(41)
    code = _gram.KERNEL_CODES[kernel]
    for d in range(1, 10):
        Z = rng.normal(size=(301, d)) * rng.choice([1e-3, 1.0, 1e3], size=d)
        x = Z[17] + rng.normal(size=d)
        full = np.array([_smo.kernel_value(kernel, x.tolist(), z, 0.7, 3, 0.5)
                         for z in Z.tolist()])
        active = np.sort(rng.choice(301, size=113, replace=False)).astype(np.int64)
        everyone = np.arange(301)
        for parts in (1, 2, 3, 7):
            panels = _kernel_rows.panels_of(Z, parts)
            assert panels.shape[2] % 8 == 0
            for compute in (_kernel_rows.row_into, _kernel_rows.row_on_threads):
                row = np.full(301, -1.0)
                compute(x, panels, 301, everyone, 301, code, 0.7, 3, 0.5, row)
                assert row.tolist() == full.tolist()
                at = np.full(301, -1.0)
                compute(x, panels, 301, active, len(active), code, 0.7, 3, 0.5, at)
                assert at[active].tolist() == full[active].tolist()


@pytest.mark.fast
def test_a_long_row_on_the_threads_is_the_full_rows_floats():
    """Rows of THREADS_FROM products and more go to the threads from ``row_into`` itself:
    the same floats as refml's ``kernel_value``, complete and at the active points."""
    import numpy as np

    from refml_fast.svm import gram as _gram
    from refml_fast.svm import kernel_rows as _kernel_rows

    rng = np.random.default_rng(42)
    n, d = 5003, 41
    Z = rng.normal(size=(n, d))
    panels = _kernel_rows.panels_of(Z, 2)
    active = np.sort(rng.choice(n, size=2 * n // 3, replace=False)).astype(np.int64)
    assert len(active) * d >= _kernel_rows.THREADS_FROM
    for kernel, code in _gram.KERNEL_CODES.items():
        full = np.array([_smo.kernel_value(kernel, Z[5].tolist(), z, 0.01, 3, 0.5)
                         for z in Z.tolist()])
        row = np.empty(n)
        _kernel_rows.row_into(Z[5], panels, n, active, n, code, 0.01, 3, 0.5, row)
        assert row.tolist() == full.tolist()
        at = np.full(n, -1.0)
        _kernel_rows.row_into(Z[5], panels, n, active, len(active), code, 0.01, 3, 0.5, at)
        assert at[active].tolist() == full[active].tolist()


@pytest.mark.fast
def test_panels_are_x_transposed_with_zero_padding():
    """``panels_of`` (8 x 8 blocks transposed in registers, the rows after the last whole
    block and the features after the last eight one by one, on the threads or not, through
    ``run_parallel`` or launched by a caller holding the launch lock) is X.T
    cut into panels of columns, zeros past the last row, for shapes around every edge of
    the blocks and panel counts that leave panels empty."""
    import numpy as np

    from refml_fast.svm import kernel_rows as _kernel_rows

    rng = np.random.default_rng(43)
    for n, d in [(1, 1), (7, 9), (8, 8), (9, 16), (13, 5), (17, 1), (64, 23), (301, 40),
                 (1001, 3), (4099, 66)]:
        Z = rng.normal(size=(n, d))
        for parts in (1, 2, 3, 7):
            panels = _kernel_rows.panels_of(Z, parts)
            width = panels.shape[2]
            expected = np.zeros((parts, d, width))
            for p in range(parts):
                rows = Z[p * width:(p + 1) * width]
                expected[p, :, :len(rows)] = rows.T
            assert np.array_equal(panels, expected), (n, d, parts)
            held = _kernel_rows.panels_of(Z, parts, launch_held=True)   # launched at once
            assert np.array_equal(held, expected), (n, d, parts)
            for transpose in (_kernel_rows.transpose_serial, _kernel_rows.transpose_parallel):
                again = np.zeros_like(panels)
                transpose(Z, again, 5)
                assert np.array_equal(again, expected), (n, d, parts, transpose)


@pytest.mark.fast
@pytest.mark.parametrize("kernel", ["rbf", "poly"])
def test_scores_in_lanes_are_refmls_sums(kernel):
    """``gram.raw_scores`` adds eight rows' scores at once in the lanes of a vector and
    four support vectors' kernel sums at a time: each row's score is refml's
    ``sum_s a_s K(x_s, x)`` (``refml.svm.smo.kernel_value``, support vectors in order) bit for
    bit, for numbers of rows that leave the last vector partly empty, numbers of support
    vectors around the groups of four, scales from 1e-3 to 1e3 and a row of 1e200 (poly's
    cubes overflow to inf and meet -inf: NaN; rbf's exp(-inf) = 0), and the threads' twin
    the same."""
    import numpy as np

    from refml_fast.svm import gram as _gram

    rng = np.random.default_rng(44)
    code = _gram.KERNEL_CODES[kernel]
    for n, d, n_sv in [(1, 1, 1), (7, 3, 3), (8, 5, 4), (13, 2, 5), (29, 9, 7), (70, 4, 13),
                       (130, 17, 9)]:
        X = rng.normal(size=(n, d)) * rng.choice([1e-3, 1.0, 1e3], size=(n, 1))
        SV = rng.normal(size=(n_sv, d)) * rng.choice([1e-3, 1.0, 1e3], size=(n_sv, 1))
        a = rng.normal(size=n_sv)
        if n > 1:
            X[-1] = 1e200       # poly: infinite cubes, of both signs (NaN); rbf: exp(-inf)
        gamma = 0.37 if kernel == "rbf" else 1e-3
        expected = []
        for x in X.tolist():
            total = 0.0
            for coefficient, z in zip(a.tolist(), SV.tolist()):
                total += coefficient * _smo.kernel_value(kernel, z, x, gamma, 3, 0.5)
            expected.append(total)
        expected = np.array(expected)
        for scores_of in (_gram.raw_scores, _gram.raw_scores_parallel):
            out = np.full(n, -7.0)
            scores_of(X, code, np.empty(0), a, SV, gamma, 3, 0.5, out)
            assert np.array_equal(out, expected, equal_nan=True), (n, d, n_sv, scores_of)
            assert np.array_equal(np.isnan(out), np.isnan(expected))
            finite = np.isfinite(expected)
            assert (out[finite].view(np.int64) == expected[finite].view(np.int64)).all()


@pytest.mark.fast
def test_svc_runs_as_plain_python_with_the_same_answers():
    """NUMBA_DISABLE_JIT=1 (docs/style.md rule 8): the panels copied through ``transpose``
    and ``store``, SMO's rows from them, and the scores of eight rows in lanes run as numpy,
    with the compiled answers (d = 11: a block of eight features and a tail; 61 rows: a
    partly empty last vector)."""
    code = ("import numpy as np, refml_fast\n"
            "rng = np.random.default_rng(5)\n"
            "X = rng.normal(size=(61, 11)); y = (X[:, 0] + 0.5 * X[:, 1] > 0) * 1\n"
            "for kernel in ('rbf', 'poly'):\n"
            "    m = refml_fast.SVC(kernel=kernel, C=3.0).fit(X, y)\n"
            "    print(m.dual_coef_.tolist(), m.decision_function(X[:29]).tolist())\n")
    compiled, plain = compiled_and_plain(code)
    assert plain == compiled and compiled.count("\n") == 2


@pytest.mark.fast
def test_a_first_fit_in_a_fresh_process_runs():
    """SMO's compiled code calls the rows' parallel kernel.  Compiled code that does so,
    loaded from Numba's cache into a process whose threading layer was never loaded, can
    call a null address (seen with a compiled loop calling ``row_into``), so
    ``kernel_rows.row_panels`` loads the layer before SMO runs.  Two fresh interpreters
    in a row (the second loads the kernels from the cache the first wrote), each fitting
    SVCs first thing."""
    import subprocess
    import sys

    script = ("import numpy as np, refml_fast\n"
              "X = np.random.default_rng(0).normal(size=(300, 4))\n"
              "y = (X[:, 0] > 0).astype(int)\n"
              "for kernel in ('linear', 'rbf', 'poly'):\n"
              "    refml_fast.SVC(kernel=kernel).fit(X, y)\n"
              "print('fitted')\n")
    for _ in range(2):
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                              timeout=600)
        assert done.returncode == 0, done.stderr[-2000:]
        assert done.stdout.strip().endswith("fitted")


def test_the_shrinking_period_is_libsvms():
    """Shrinking every min(n, 1000) steps, as LIBSVM and refml_fast's kernel do (a fault
    waited 1,001 steps past 1,000 points, which only a parity run on more than 1,000 points
    would show)."""
    assert _smo.shrink_period(300) == 300
    assert _smo.shrink_period(1000) == _smo.shrink_period(5000) == 1000
