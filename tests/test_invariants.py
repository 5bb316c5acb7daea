"""Checks against independent values, for the injected bugs that parity alone cannot catch
(a bug shared by both packages passes every parity check): the default gradient step, the
tree's split midpoint, the uniformity of random permutations, SMO's tie rule, and the
logistic Hessian against its closed form."""

import math

import pytest

from tests.estimators import X3, Y3

# ----------------------------------------------------------------------------------------
# The default step of gradient descent and SGD: 1/L with L = B lambda_max(X~'X~)/n + alpha,
# B = 1/4 for two classes and 1/2 for more (Boehning's bound).  One feature, no intercept:
# X~'X~ = sum x_i^2 exactly, so L is known by hand.

X1 = [[1.0], [2.0], [2.0], [1.0], [3.0], [1.0]]   # sum x^2 = 20, max x^2 = 9, n = 6


@pytest.mark.filterwarnings("ignore::refml.core.base.ConvergenceWarning")
@pytest.mark.parametrize("labels, gd_step, sgd_step", [
    ([0, 1, 0, 1, 1, 0], 1.0 / (0.25 * 20 / 6), 1.0 / (0.25 * 9)),
    ([0, 1, 2, 1, 2, 0], 1.0 / (0.5 * 20 / 6), 1.0 / (0.5 * 9)),
], ids=["K=2", "K=3"])
def test_default_steps_are_one_over_the_smoothness_bound(lib, labels, gd_step, sgd_step):
    gd = lib.LogisticRegression(solver="gd", fit_intercept=False, max_iter=50).fit(X1, labels)
    assert gd.learning_rate_ == pytest.approx(gd_step, rel=1e-15)
    sgd = lib.LogisticRegression(solver="sgd", fit_intercept=False, max_iter=2,
                                 random_state=0).fit(X1, labels)
    assert sgd.learning_rate_ == pytest.approx(sgd_step, rel=1e-15)


@pytest.mark.filterwarnings("ignore::refml.core.base.ConvergenceWarning")
def test_default_gd_step_never_increases_the_objective(lib):
    """With eta = 1/L every step of gradient descent decreases L(theta) (the descent lemma);
    a doubled step for K > 2 breaks this on these data."""
    model = lib.LogisticRegression(solver="gd", max_iter=200).fit(X3, Y3)
    curve = list(model.loss_curve_)
    assert len(curve) > 10
    assert all(b <= a + 1e-15 for a, b in zip(curve, curve[1:])), curve


# ----------------------------------------------------------------------------------------
# The tree's threshold lies strictly between neighbouring values.

def test_split_midpoint_between_adjacent_floats(lib):
    """x = 1 + 2^-52 and 1 + 2^-51 are adjacent floats: their midpoint rounds onto one of
    them, and a threshold t must still send the lower left (x <= t) and the upper right."""
    low, high = 1.0 + 2.0 ** -52, 1.0 + 2.0 ** -51
    X, y = [[low], [high]], [0, 1]
    tree = lib.DecisionTreeClassifier().fit(X, y)
    assert list(tree.predict(X)) == y
    assert list(tree.predict([[high], [low]])) == [1, 0]


# ----------------------------------------------------------------------------------------
# Random permutations: every ordering equally likely (Sattolo's variant gives only cycles).

@pytest.mark.parametrize("n, draws", [(3, 6000), (4, 24000)])
def test_permutations_are_uniform(n, draws):
    from refml.core.random import Generator

    generator = Generator(12345)
    counts = {}
    for _ in range(draws):
        key = tuple(generator.permutation(n))
        counts[key] = counts.get(key, 0) + 1
    orderings = math.factorial(n)
    expected = draws / orderings
    assert len(counts) == orderings, sorted(counts)
    # Each count is Binomial(draws, 1/n!): 6 standard deviations fail with probability
    # below 1e-8 per count.
    sd = math.sqrt(draws * (1 / orderings) * (1 - 1 / orderings))
    assert all(abs(c - expected) < 6 * sd for c in counts.values()), counts
    # Fixed points exist (a cyclic-only shuffle has none).
    assert any(key[0] == 0 for key in counts)


# ----------------------------------------------------------------------------------------
# SMO's working-set selection: the first maximal violator, the first best second index.

def test_smo_first_index_ties_go_to_the_lowest_index():
    from refml.svm.smo import maximal_violation

    # alpha = 0: every y = +1 point is in I_up with v = -y g = 1, every y = -1 point in
    # I_low with v = -1.  Four points tie for the maximum: the first, index 1, is chosen.
    y = [-1.0, 1.0, 1.0, -1.0, 1.0]
    i, m, M = maximal_violation(range(5), [0.0] * 5, [-1.0] * 5, y, 1.0)
    assert (i, m, M) == (1, 1.0, -1.0)


def test_smo_second_index_ties_go_to_the_lowest_index():
    from refml.svm.smo import second_index

    # i = 0 (y = +1); candidates t = 1, 2, 3 (y = -1, alpha = 0: in I_low) with the same
    # gain b^2 / a (equal gradients, equal kernel distances): t = 1 is chosen.
    y = [1.0, -1.0, -1.0, -1.0]
    gradient = [-1.0, -1.0, -1.0, -1.0]
    row_i = [1.0, 0.0, 0.0, 0.0]
    diagonal = [1.0, 1.0, 1.0, 1.0]
    j = second_index(range(4), 0, 1.0, row_i, diagonal, [0.0] * 4, gradient, y, 1.0)
    assert j == 1
    # A strictly better later candidate wins: t = 3 closer in kernel distance.
    row_i = [1.0, 0.0, 0.0, 0.5]
    assert second_index(range(4), 0, 1.0, row_i, diagonal, [0.0] * 4, gradient, y, 1.0) == 3


@pytest.mark.fast
def test_fast_smo_scans_keep_the_same_tie_rule():
    import numpy as np

    from refml_fast.svm import smo as _smo

    y = np.array([-1.0, 1.0, 1.0, -1.0, 1.0])
    v = -y * np.array([-1.0] * 5)          # v = -y g, g = -1
    up, low = y > 0, y < 0                 # alpha = 0
    active = np.arange(5, dtype=np.int64)
    assert _smo.active_scan(active, 5, v, v.view(np.int64), up, low) == (1, 1.0, -1.0)
    yy = np.array([1.0, -1.0, -1.0, -1.0])
    vv = -yy * np.array([-1.0] * 4)
    low2 = yy < 0
    diagonal = np.ones(4)
    everyone = np.arange(4, dtype=np.int64)
    rows = np.array([[1.0, 0.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.5]])   # row 0 of K, two ways

    def scratch(n):
        scores = np.empty(n)
        return scores, scores.view(np.int64)

    # All points active: position k is point k.
    assert _smo.active_second_index(1.0, rows, 0, 1.0, diagonal, vv, low2, everyone, 4,
                                    *scratch(4)) == 1
    assert _smo.active_second_index(1.0, rows, 1, 1.0, diagonal, vv, low2, everyone, 4,
                                    *scratch(4)) == 3
    # Shrunk to the points 2 and 3, the row compacted (row 0 of K at the points 2, 3 in
    # positions 0, 1): indices come back as the points', ties still to the lowest.
    some = np.array([2, 3], dtype=np.int64)
    packed = np.array([[0.0, 0.0], [0.0, 0.5]])
    assert _smo.active_second_index(1.0, packed, 0, 1.0, diagonal[some], vv[some],
                                    low2[some], some, 2, *scratch(2)) == 2
    assert _smo.active_second_index(1.0, packed, 1, 1.0, diagonal[some], vv[some],
                                    low2[some], some, 2, *scratch(2)) == 3
    vs = v[some]
    assert _smo.active_scan(some, 2, vs, vs.view(np.int64), up[some], low[some]) == (2, 1.0,
                                                                              -1.0)


# ----------------------------------------------------------------------------------------
# The Hessian of the logistic objective against its closed form:
# H[(k, j), (l, jj)] = 1/n sum_i P_ik (1{k = l} - P_il) x~_ij x~_ijj
#                      + alpha (1{k = l} - s) 1{j = jj < d},  s = 1/K for K > 2, else 0
# (the penalty on all K classes' slopes, derived in refml/linear/logistic_solvers.py).

def _closed_form_hessian(X, theta, n_classes, alpha):
    n_free, p, d = n_classes - 1, len(X[0]) + 1, len(X[0])
    size = n_free * p
    H = [[0.0] * size for _ in range(size)]
    for x in X:
        xt = list(x) + [1.0]
        z = [sum(theta[k * p + j] * xt[j] for j in range(p)) for k in range(n_free)]
        top = max([0.0] + z)
        e = [math.exp(-top)] + [math.exp(v - top) for v in z]
        P = [v / sum(e) for v in e]
        for k in range(n_free):
            for l in range(n_free):
                w = P[k + 1] * ((1.0 if k == l else 0.0) - P[l + 1])
                for j in range(p):
                    for jj in range(p):
                        H[k * p + j][l * p + jj] += w * xt[j] * xt[jj] / len(X)
    share = 1.0 / n_classes if n_classes > 2 else 0.0
    for k in range(n_free):
        for l in range(n_free):
            for j in range(d):
                H[k * p + j][l * p + j] += alpha * ((1.0 if k == l else 0.0) - share)
    return H


@pytest.mark.parametrize("n_classes", [2, 3, 4])
def test_logistic_hessian_matches_its_closed_form(n_classes):
    from refml.core.random import Generator
    from refml.linear.logistic_solvers import hessian

    g = Generator(n_classes)
    X = [[g.normal() for _ in range(3)] for _ in range(20)]
    theta = [g.normal() for _ in range((n_classes - 1) * 4)]
    expected = _closed_form_hessian(X, theta, n_classes, 0.1)
    H = hessian(X, theta, n_classes, True, 0.1)
    for r in range(len(H)):
        for c in range(r + 1):  # refml keeps the lower triangle
            assert H[r][c] == pytest.approx(expected[r][c], rel=1e-12, abs=1e-14), (r, c)
    # The closed form is symmetric, as a Hessian must be.
    assert all(expected[r][c] == pytest.approx(expected[c][r], rel=1e-12, abs=1e-15)
               for r in range(len(H)) for c in range(len(H)))


@pytest.mark.fast
@pytest.mark.parametrize("n_classes", [2, 3])
def test_fast_logistic_hessians_match_the_closed_form(n_classes):
    import numpy as np

    from refml.core.random import Generator
    from refml_fast.linear import (
        logistic_binary as _logistic_binary,
    )
    from refml_fast.linear import (
        logistic_hessian as _logistic_hessian,
    )
    from refml_fast.linear import (
        logistic_kernels as _logistic_kernels,
    )

    g = Generator(10 + n_classes)
    X = [[g.normal() for _ in range(3)] for _ in range(20)]
    theta = [g.normal() for _ in range((n_classes - 1) * 4)]
    expected = np.tril(np.array(_closed_form_hessian(X, theta, n_classes, 0.1)))
    Xa, th = np.array(X), np.array(theta)
    H = np.zeros_like(expected)
    _logistic_kernels.hessian(Xa, th, n_classes - 1, True, 0.1, H)
    assert np.allclose(H, expected, rtol=1e-12, atol=1e-14)
    if n_classes == 2:
        weights = np.empty(len(X))
        _logistic_binary.sample_weights_binary(Xa, th, True, weights)
        H2 = np.zeros_like(expected)
        _logistic_hessian.hessian_binary(Xa, weights, True, 0.1, H2)
        assert np.allclose(H2, expected, rtol=1e-12, atol=1e-14)


@pytest.mark.fast
@pytest.mark.parametrize("lowest, highest, trials", [(1, 40, 400), (512, 3000, 40)])
def test_fast_smo_keyed_scan_is_refmls_maximal_violation(lowest, highest, trials):
    """refml_fast's scan finds m and M as integer extremes of ordered keys, then the first
    point at the maximum: on values with ties, zeros of both signs, infinities and NaN,
    and every mix of I_up / I_low, its (i, m, M) are refml's, the sign of a zero included;
    short phases and long ones (searched block by block, ``smo_scans.blocked_search``)."""
    import math

    import numpy as np

    from refml.svm import smo as reference
    from refml_fast.svm import smo as _smo
    from refml_fast.svm.smo_scans import BLOCKS_FROM

    assert lowest >= BLOCKS_FROM or highest < BLOCKS_FROM
    rng = np.random.default_rng(5 + lowest)
    specials = [0.0, -0.0, math.inf, -math.inf, math.nan, -math.nan, 1.5, -1.5]
    for trial in range(trials):
        n = int(rng.integers(lowest, highest))
        v = np.round(rng.normal(size=n), 1) * (1 if trial % 3 else 0)
        for k in np.flatnonzero(rng.random(n) < 0.3):
            v[k] = specials[rng.integers(len(specials))] if trial % 5 else specials[
                rng.integers(2)]
        kind = rng.integers(0, 3, size=n)               # 0: I_up only, 1: I_low only, 2: both
        C = 1.0
        alpha = np.where(kind == 0, 0.0, np.where(kind == 1, C, 0.5))
        y = np.ones(n)
        gradient = -v                                   # v = -y G
        i, m, M = reference.maximal_violation(list(range(n)), alpha.tolist(),
                                              gradient.tolist(), y.tolist(), C)
        vc = v.copy()
        fast = _smo.active_scan(np.arange(n), n, vc, vc.view(np.int64), kind != 1, kind != 0)
        assert fast[0] == i
        for a, b in ((fast[1], m), (fast[2], M)):
            assert (a == b and math.copysign(1, a) == math.copysign(1, b)) or (
                math.isnan(a) and math.isnan(b)), (v, kind, fast, (i, m, M))


@pytest.mark.fast
def test_fast_smo_keyed_second_index_is_refmls_second_index():
    """refml_fast's j (branch-free scores, the smallest as an integer minimum of ordered
    keys, then the first point with it) is refml's ``second_index`` on ties, kernel
    values that make a <= 0 or NaN (the NaN of inf - inf has its sign bit set, and would
    rank first), and gradients that leave no candidate."""
    import math

    import numpy as np

    from refml.svm import smo as reference
    from refml_fast.svm import smo as _smo

    rng = np.random.default_rng(8)
    for trial in range(400):
        n = int(rng.integers(1, 30))
        v = np.round(rng.normal(size=n), 1)
        row = np.round(rng.normal(size=n), 1)
        for k in np.flatnonzero(rng.random(n) < 0.15):
            row[k] = [math.inf, -math.inf, math.nan, 5.0][rng.integers(4)]
        diagonal = np.round(rng.random(n) + 0.5, 1)
        for k in np.flatnonzero(rng.random(n) < 0.1):   # a = inf - inf: NaN
            diagonal[k] = row[k] = math.inf
        i = int(rng.integers(n))
        m = float(np.round(rng.normal(), 1)) if trial % 4 else 1e-160
        alpha = np.where(rng.random(n) < 0.6, 0.5, 0.0)     # I_low: alpha > 0 (y = +1)
        y = np.ones(n)
        expected = reference.second_index(list(range(n)), i, m, row.tolist(),
                                          diagonal.tolist(), alpha.tolist(), (-v).tolist(),
                                          y.tolist(), 1.0)
        scores = np.empty(n)
        rows = row.reshape(1, n).copy()
        got = _smo.active_second_index(m, rows, 0, diagonal[i], diagonal, v.copy(),
                                       alpha > 0.0, np.arange(n), n, scores,
                                       scores.view(np.int64))
        assert got == expected, (trial, v, row, m, got, expected)
