"""SMO's Newton step on the free multipliers (refml/svm/smo_newton.py, ``newton_step`` in
refml/svm/smo.py): what one step does to the dual, that it shortens SMO's last phase, and that
refml_fast takes exactly the same steps."""

import math
import random

import pytest

from refml.svm import smo as _smo
from tests.test_smo_shrinking import overlapping


def dual(alpha, y, rows):
    """f(alpha) = 1/2 alpha'Q alpha - sum alpha, from its definition."""
    n = len(y)
    quadratic = sum(alpha[s] * alpha[t] * y[s] * y[t] * rows(s)[t]
                    for s in range(n) for t in range(n))
    return 0.5 * quadratic - sum(alpha)


def gradient_by_definition(alpha, y, rows):
    n = len(y)
    return [y[t] * sum(alpha[s] * y[s] * rows(s)[t] for s in range(n)) - 1.0
            for t in range(n)]


def state_after(X, y, kernel, C, steps):
    """SMO stopped after ``steps`` pair steps: (rows, alpha, gradient, G_bar)."""
    rows = _smo.KernelRows(X, kernel, 0.5, 3, 0.0)
    alpha, n_iter, status, gradient = _smo.smo(rows, rows.diagonal(), y, C, 1e-12, steps)
    assert status == _smo.MAX_ITER
    at_bound = [sum(C * y[s] * y[t] * rows(s)[t] for s in range(len(y)) if alpha[s] == C)
                for t in range(len(y))]
    return rows, alpha, gradient, at_bound


def free_points(alpha, C):
    return [t for t, a in enumerate(alpha) if 0.0 < a < C]


def check_consistent(alpha, gradient, at_bound, y, rows, C):
    """The box, sum alpha y = 0, G = Q alpha - 1 and G_bar, all after the step."""
    assert all(0.0 <= a <= C for a in alpha)
    assert sum(a * s for a, s in zip(alpha, y)) == pytest.approx(0.0, abs=1e-9)
    for g, e in zip(gradient, gradient_by_definition(alpha, y, rows)):
        assert math.isclose(g, e, rel_tol=1e-9, abs_tol=1e-9)
    for t in range(len(y)):
        expected = sum(C * y[s] * y[t] * rows(s)[t] for s in range(len(y)) if alpha[s] == C)
        assert math.isclose(at_bound[t], expected, rel_tol=1e-9, abs_tol=1e-9)


def test_a_newton_step_solves_the_free_set_when_no_bound_is_met():
    """rbf: Q_FF is positive definite, and here the full Newton step stays in the box.  After
    it every free point has the same v_t = -y_t G_t (the bias that puts it on its margin):
    the free set's equations are solved, up to the 1e-10 ridge."""
    X, y = overlapping(40, seed=5)
    C = 10.0
    rows, alpha, gradient, at_bound = state_after(X, y, "rbf", C, 40)
    free = free_points(alpha, C)
    before = dual(alpha, y, rows)
    spread_before = max(-y[t] * gradient[t] for t in free) - min(-y[t] * gradient[t]
                                                                   for t in free)
    _smo.newton_step(list(range(len(y))), rows, alpha, gradient, at_bound, y, C, 10 ** 9)
    assert free_points(alpha, C) == free                     # no bound met
    check_consistent(alpha, gradient, at_bound, y, rows, C)
    v = [-y[t] * gradient[t] for t in free]
    assert len(free) >= 5 and spread_before > 0.1
    assert max(v) - min(v) < 1e-7
    assert dual(alpha, y, rows) < before - 1e-3


def test_on_a_flat_direction_the_box_cuts_the_step():
    """Linear kernel in 2 dimensions with more than 3 free points: Q_FF is singular, the
    ridge makes the direction long along its null space, and the step stops where the
    first multiplier meets 0 or C, exactly."""
    X, y = overlapping(60, seed=4, d=2)
    C = 1.0
    rows, alpha, gradient, at_bound = state_after(X, y, "linear", C, 40)
    free = free_points(alpha, C)
    assert len(free) > 3
    before = dual(alpha, y, rows)
    _smo.newton_step(list(range(len(y))), rows, alpha, gradient, at_bound, y, C, 10 ** 9)
    assert len(free_points(alpha, C)) < len(free)            # at least one reached a bound
    assert any(alpha[t] in (0.0, C) for t in free)
    check_consistent(alpha, gradient, at_bound, y, rows, C)
    assert dual(alpha, y, rows) < before


def test_no_step_with_one_free_point_or_beyond_the_work_budget():
    X, y = overlapping(60, seed=4, d=2)
    rows, alpha, gradient, at_bound = state_after(X, y, "linear", 1.0, 40)
    size = len(free_points(alpha, 1.0))
    saved = (list(alpha), list(gradient), list(at_bound))
    _smo.newton_step(list(range(len(y))), rows, alpha, gradient, at_bound, y, 1.0,
                     size ** 3 - 1)
    assert (alpha, gradient, at_bound) == saved
    one = [0.0] * len(y)
    one[0], one[1] = 0.5, 0.5                                 # y_0 = -1, y_1 = +1
    gradient = gradient_by_definition(one, y, rows)
    fixed = (list(one), list(gradient))
    _smo.newton_step([0, 2, 3], rows, one, gradient, [0.0] * len(y), y, 1.0, 10 ** 9)
    assert (one, gradient) == fixed                            # only point 0 free: nothing


def spy_on_newton(monkeypatch):
    """Counts the Newton steps that moved some multiplier, in refml's SMO."""
    moved = []
    real = _smo.newton_step

    def counting(active, row, alpha, gradient, at_bound, y, C, work):
        before = list(alpha)
        real(active, row, alpha, gradient, at_bound, y, C, work)
        moved.append(alpha != before)

    monkeypatch.setattr(_smo, "newton_step", counting)
    return moved


def test_the_newton_step_shortens_the_zig_zag(monkeypatch):
    """Linear kernel, 200 points in 12 dimensions: 6,439 pair steps without the Newton step,
    1,210 with it (six of them), to the same tolerance."""
    X, y = overlapping(200, seed=4, d=12)
    rows = _smo.KernelRows(X, "linear", 0.5, 3, 0.0)
    moved = spy_on_newton(monkeypatch)
    alpha, with_newton, status, gradient = _smo.smo(rows, rows.diagonal(), y, 1.0, 1e-3,
                                                    10 ** 7)
    assert status == _smo.CONVERGED and sum(moved) >= 1
    i, m, M = _smo.maximal_violation(range(len(y)), alpha, gradient, y, 1.0)
    assert m - M <= 1e-3
    monkeypatch.setattr(_smo, "newton_step", lambda *arguments: None)
    _, without, status, _ = _smo.smo(rows, rows.diagonal(), y, 1.0, 1e-3, 10 ** 7)
    assert status == _smo.CONVERGED
    assert with_newton < 0.3 * without


@pytest.mark.fast
@pytest.mark.parametrize("kernel, C, n, d, seed, slots", [
    ("linear", 1.0, 200, 12, 4, None),
    ("linear", 1.0, 200, 12, 4, 3),          # a tiny row cache: rows fetched one at a time
    ("poly", 2.0, 200, 4, 2, None),
    ("linear", math.inf, 200, 12, 4, None),  # the hard margin
])
def test_refml_fast_takes_the_same_newton_steps(monkeypatch, kernel, C, n, d, seed, slots):
    import numpy as np

    import refml
    import refml_fast
    from refml_fast.svm import kernel_rows as _kernel_rows

    X, y = overlapping(n, seed, d)
    if C == math.inf:   # separable through a hyperplane, with a random margin
        rng = random.Random(seed)
        w = [rng.gauss(0.0, 1.0) for _ in range(d)]
        X = [x for x in X if abs(sum(a * b for a, b in zip(w, x))) > 0.2]
        y = [1.0 if sum(a * b for a, b in zip(w, x)) > 0 else -1.0 for x in X]
    if slots is not None:
        monkeypatch.setattr(_kernel_rows, "CACHE_BYTES", slots * len(y) * 8)
    moved = spy_on_newton(monkeypatch)
    reference = refml.SVC(kernel=kernel, C=C, gamma=0.5).fit(X, y)
    assert sum(moved) >= 1                                    # Newton steps were taken
    fast = refml_fast.SVC(kernel=kernel, C=C, gamma=0.5).fit(np.array(X), np.array(y))
    assert reference.n_iter_ == fast.n_iter_
    assert list(reference.support_) == fast.support_.tolist()
    assert list(reference.dual_coef_) == fast.dual_coef_.ravel().tolist()
    assert reference.intercept_ == fast.intercept_
    assert reference.predict(X) == fast.predict(np.array(X)).tolist()


@pytest.mark.parametrize("X, y, C, tol", [
    # a solved free set: the direction is 1e-17 of noise, which a line search had
    # stretched by 1e15 (sum alpha y = -0.06)
    ([[1.0, -2.0], [0.0, 2.0], [0.0, -2.0], [0.0, 0.0], [-2.0, 2.0]], [1, -2, 1, -2, -2],
     0.1, 1e-5),
    # three free points in 2-d: Q_FF singular, the constraint removes its null direction;
    # combining H^{-1}G and H^{-1}y had left sum alpha y = -1.1e-7
    ([[1.0, -2.0], [-1.0, -2.0], [-1.0, 2.0]], [-2, 1, -2], 1.0, 0.01),
])
def test_newton_steps_keep_the_multipliers_feasible(monkeypatch, X, y, C, tol):
    """Conformance 10 found both (seeds 31 and 0): after the fit, sum alpha_i y_i = 0 to
    rounding and every multiplier in [0, C], with the Newton step tried on the way."""
    import refml

    moved = spy_on_newton(monkeypatch)
    model = refml.SVC(kernel="linear", C=C, tol=tol).fit(X, y)
    assert len(moved) >= 1
    assert abs(sum(model.dual_coef_)) <= 1e-12                 # dual_coef_ = alpha_s y_s
    assert all(0.0 < abs(c) <= C for c in model.dual_coef_)
    assert model.kkt_violation_ <= tol


@pytest.mark.fast
def test_compacted_rows_are_the_cached_rows_at_the_active_points():
    """``compact_row`` copies row i of K (a cache slot) to the active points' positions,
    once per phase (epoch); slots are reused first in, first out, never the
    protected one, and an evicted point's copy is made again when asked for; how many
    copies are kept depends on the number of points."""
    import numpy as np

    from refml_fast.svm import smo as _smo

    cache = np.arange(40.0).reshape(4, 10)            # row s of "K" in slot s
    active = np.array([1, 4, 5, 9], dtype=np.int64)
    rows = np.full((2, 10), np.nan)
    slot_of = np.full(10, -1, dtype=np.int64)
    owner = np.full(2, -1, dtype=np.int64)
    epochs = np.full(2, -1, dtype=np.int64)
    clock = np.zeros(1, dtype=np.int64)

    def compact(i, protect, slot, epoch, n_active=4):
        return _smo.compact_row(i, protect, slot, cache, active, n_active, rows, slot_of,
                                owner, epochs, epoch, clock)

    a = compact(7, -1, 2, 0)
    assert rows[a, :4].tolist() == [21.0, 24.0, 25.0, 29.0]
    b = compact(3, a, 1, 0)
    assert b != a and rows[b, :4].tolist() == [11.0, 14.0, 15.0, 19.0]
    assert compact(7, -1, 2, 0) == a                    # kept
    c = compact(8, -1, 3, 0)                            # the oldest slot, a's, reused
    assert c == a and slot_of[7] == -1 and rows[c, :4].tolist() == [31.0, 34.0, 35.0, 39.0]
    d = compact(6, b, 0, 0)                             # the next is b's, protected: skipped
    assert d == c and slot_of[8] == -1 and slot_of[3] == b
    assert rows[d, :4].tolist() == [1.0, 4.0, 5.0, 9.0]
    active[:2] = [0, 2]                                 # a new active list: copied again
    assert compact(3, -1, 1, 1, n_active=2) == b and rows[b, :2].tolist() == [10.0, 12.0]
    # At most 4,096 copies, in at most 64 MB (two at least), of the phase's length.
    from refml_fast.svm.smo_scans import compact_store, compacted_rows

    store = compact_store(20_000)
    assert [compacted_rows(store, p).shape for p in (2_494, 20_000, 1_000)] == [
        (3_363, 2_494), (419, 20_000), (4_096, 1_000)]
    assert compacted_rows(compact_store(2), 2).shape == (2, 2)
    assert compacted_rows(compact_store(10 ** 7), 10 ** 7).shape == (2, 10 ** 7)
