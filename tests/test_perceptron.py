"""Perceptron (refml.perceptron / refml_fast.perceptron): runs traced by hand, the orders,
the steps, the bias, non-convergence, the mistake bound, and exact parity of the floats."""

import math
import warnings

import pytest

from tests.helpers import as_list

# Three points separable through the origin by theta* = [1, 3], chosen so that an update on
# z2 = y2 x2 breaks the earlier z1: cyclic order then corrects z3 next while the batch order
# (Algorithm 5) goes back to z1, and the two trajectories differ.  String labels: "no" is
# classes_[0] (y = -1), "yes" is classes_[1] (y = +1).
THREE_X = [[1.0, 0.0], [-2.0, 1.0], [-1.0, -1.0]]
THREE_Y = ["yes", "yes", "no"]
# By hand, z = y x = [1, 0], [-2, 1], [1, 1]; a mistake is theta'z <= 0 and adds z.
THREE_CYCLIC = [[0, 0], [1, 0], [-1, 1], [0, 2], [1, 2], [-1, 3], [0, 3], [1, 3]]
THREE_BATCH = [[0, 0], [1, 0], [-1, 1], [0, 1], [1, 1], [-1, 2], [0, 2], [1, 2], [-1, 3],
               [0, 3], [1, 3]]

# One feature and a bias: x = 0 is class 0, x = 2 is class 1.  By hand, on x~ = [1, x]:
# [0, 0] -> [-1, 0] (x = 0 at f = 0) -> [0, 2] (x = 2 at f = -1) -> [-1, 2] (x = 0 at
# f = 0); then a clean pass.  The boundary is 2x - 1 = 0 ([IML-L5]: w = 2, b = 1).
LINE_X = [[0.0], [2.0]]
LINE_Y = [0, 1]

# XOR: not linearly separable, so the perceptron cannot converge.
XOR_X = [[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]]
XOR_Y = [0, 0, 1, 1]


def fit_quietly(model, X, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return model.fit(X, y)


def rows(values):
    return [[float(v) for v in row] for row in as_list(values)]


# --- the orders, traced by hand -------------------------------------------------------------

def test_cyclic_order_follows_the_hand_trace(lib):
    model = lib.Perceptron(fit_intercept=False, store_trajectory=True).fit(THREE_X, THREE_Y)
    assert rows(model.trajectory_) == THREE_CYCLIC
    assert as_list(model.coef_) == [1.0, 3.0] and model.intercept_ == 0.0
    assert (model.n_mistakes_, model.n_iter_, model.converged_) == (7, 5, True)
    assert as_list(model.predict(THREE_X)) == THREE_Y


def test_batch_order_corrects_the_first_mistake_of_each_scan(lib):
    model = lib.Perceptron(order="batch", fit_intercept=False, store_trajectory=True)
    model.fit(THREE_X, THREE_Y)
    assert rows(model.trajectory_) == THREE_BATCH
    # 16 points examined (scans of 1, 2, 1, 1, 2, 1, 1, 2, 1, 1, 3 points): ceil(16/3) passes.
    assert (model.n_mistakes_, model.n_iter_, model.converged_) == (10, 6, True)


def test_random_order_updates_only_on_mistakes_and_is_reproducible(lib):
    z = [[1.0, 0.0], [-2.0, 1.0], [1.0, 1.0]]
    for seed in range(20):
        model = lib.Perceptron(order="random", fit_intercept=False, random_state=seed,
                               store_trajectory=True).fit(THREE_X, THREE_Y)
        path = rows(model.trajectory_)
        for before, after in zip(path, path[1:]):
            step = [a - b for a, b in zip(after, before)]
            assert step in z, "every update adds one y_i x_i"
            assert before[0] * step[0] + before[1] * step[1] <= 0.0, "on a mistake"
        assert model.converged_ and model.n_iter_ == model.n_mistakes_ // 3 + 1
        twin = lib.Perceptron(order="random", fit_intercept=False, random_state=seed,
                              store_trajectory=True).fit(THREE_X, THREE_Y)
        assert rows(twin.trajectory_) == path


def test_random_order_draws_uniformly_from_the_shared_stream(lib):
    from refml.core.random import Generator

    counts = [0, 0, 0]
    for seed in range(300):
        model = lib.Perceptron(order="random", fit_intercept=False, max_iter=1,
                               random_state=seed, store_trajectory=True)
        fit_quietly(model, THREE_X, THREE_Y)
        first = rows(model.trajectory_)[1]
        # From theta^0 = 0 all three points are mistakes: the first draw is randbelow(3).
        index = [[1.0, 0.0], [-2.0, 1.0], [1.0, 1.0]].index(first)
        assert index == Generator(seed).randbelow(3)
        counts[index] += 1
    assert all(60 <= c <= 140 for c in counts), counts


def test_theta_zero_is_a_mistake_so_the_first_point_updates(lib):
    # The strict form y theta'x < 0 ([Wainwright-L2], [MATH412]) would stop at once with theta = 0;
    # [IML-L5]'s (1/2)(y - y_hat) with sign(0) = +1 would skip a first y = +1 point.
    model = lib.Perceptron(fit_intercept=False, store_trajectory=True).fit(THREE_X, THREE_Y)
    assert rows(model.trajectory_)[1] == [1.0, 0.0]


# --- steps and bias ---------------------------------------------------------------------------

def test_constant_step_scales_theta_and_keeps_the_mistakes(lib):
    model = lib.Perceptron(fit_intercept=False, learning_rate=0.5).fit(THREE_X, THREE_Y)
    assert as_list(model.coef_) == [0.5, 1.5] and model.n_mistakes_ == 7


def test_decreasing_steps_follow_gamma_t_equal_one_over_t(lib):
    # By hand: updates at t = 1 (z1), 2 (z2), 4 (z1), 5 (z2), 7 (z1), 10 (z1), so
    # theta = (1 + 1/4 + 1/7 + 1/10) z1 + (1/2 + 1/5) z2 = [13/140, 7/10].
    model = lib.Perceptron(fit_intercept=False, schedule="decreasing").fit(THREE_X, THREE_Y)
    coef = as_list(model.coef_)
    assert math.isclose(coef[0], 13 / 140, rel_tol=1e-12)
    assert math.isclose(coef[1], 0.7, rel_tol=1e-12)
    assert (model.n_mistakes_, model.n_iter_, model.converged_) == (6, 5, True)


def test_bias_through_the_augmented_x(lib):
    model = lib.Perceptron(store_trajectory=True).fit(LINE_X, LINE_Y)
    assert rows(model.trajectory_) == [[0, 0], [-1, 0], [0, 2], [-1, 2]]
    assert as_list(model.coef_) == [2.0] and model.intercept_ == -1.0
    assert (model.n_mistakes_, model.n_iter_) == (3, 3)
    # The same run without intercept on explicit rows [1, x] gives the same theta~.
    augmented = lib.Perceptron(fit_intercept=False).fit([[1.0, 0.0], [1.0, 2.0]], LINE_Y)
    assert as_list(augmented.coef_) == [-1.0, 2.0]


def test_decision_function_and_sign_zero_goes_to_the_second_class(lib):
    model = lib.Perceptron().fit(LINE_X, LINE_Y)
    assert as_list(model.decision_function([[0.0], [0.5], [2.0]])) == [-1.0, 0.0, 3.0]
    assert as_list(model.predict([[0.0], [0.5], [2.0]])) == [0, 1, 1]
    assert model.score(LINE_X, LINE_Y) == 1.0


# --- non-convergence and the pass cap ---------------------------------------------------------

@pytest.mark.parametrize("order", ["cyclic", "batch", "random", "uniform"])
@pytest.mark.parametrize("schedule", ["constant", "decreasing"])
def test_non_separable_data_warns_and_leaves_a_usable_model(lib, order, schedule):
    import refml

    model = lib.Perceptron(order=order, schedule=schedule, max_iter=7, tol=None,
                           random_state=3)
    with pytest.warns(refml.ConvergenceWarning, match="did not converge"):
        model.fit(XOR_X, XOR_Y)
    assert model.converged_ is False and model.n_iter_ == 7
    assert set(as_list(model.predict(XOR_X))) <= {0, 1}
    assert model.n_mistakes_ >= 7


# --- the early stop (tol, n_iter_no_change: scikit-learn's rule) -------------------------------

def noisy_line(n, seed):
    """n points of x uniform on [-1, 1], label 1 when x + noise > 0: overlapping classes."""
    from refml.core.random import Generator

    rng = Generator(seed)
    X = [[2.0 * rng.random() - 1.0, 2.0 * rng.random() - 1.0] for _ in range(n)]
    y = [int(x[0] + 0.3 * x[1] + 0.8 * (rng.random() - 0.5) > 0.0) for x in X]
    return X, y


def cyclic_pass_losses(X, y, passes):
    """The lectures' cyclic perceptron (gamma = 1, bias), replayed by hand: the summed
    -y_i theta'x~_i over each pass's mistakes, the margin taken before the update."""
    theta = [0.0] * (len(X[0]) + 1)
    losses = []
    for _ in range(passes):
        loss = 0.0
        for x, label in zip(X, y):
            sign = 1.0 if label == 1 else -1.0
            margin = 0.0
            for theta_j, x_j in zip(theta, [1.0] + x):
                margin += theta_j * x_j
            if not sign * margin > 0.0:
                loss += -(sign * margin)
                theta = [t + sign * x_j for t, x_j in zip(theta, [1.0] + x)]
        losses.append(loss)
    return losses


@pytest.mark.parametrize("tol, patience", [(1e-3, 5), (0.0, 3), (0.05, 1), (0.01, 2)])
def test_the_early_stop_counts_passes_without_improvement(lib, tol, patience):
    import refml

    X, y = noisy_line(60, 7)
    losses = cyclic_pass_losses(X, y, 300)
    best, count, expected = math.inf, 0, None
    for n_pass, loss in enumerate(losses, start=1):     # the rule, stated once more
        count = count + 1 if loss > best - tol * len(X) else 0
        best = min(best, loss)
        if count >= patience:
            expected = n_pass
            break
    assert expected is not None and expected < 300
    model = lib.Perceptron(tol=tol, n_iter_no_change=patience, max_iter=300)
    with pytest.warns(refml.ConvergenceWarning, match=f"n_iter_no_change={patience}"):
        model.fit(X, y)
    assert model.n_iter_ == expected and model.converged_ is False
    assert model.score(X, y) > 0.6


@pytest.mark.parametrize("order", ["cyclic", "batch", "random", "uniform"])
def test_the_default_stops_early_on_overlapping_classes_and_tol_none_does_not(lib, order):
    import refml

    X, y = noisy_line(80, 3)
    with pytest.warns(refml.ConvergenceWarning, match="n_iter_no_change=5"):
        early = lib.Perceptron(order=order, random_state=1).fit(X, y)
    assert early.converged_ is False and 6 <= early.n_iter_ <= 20
    assert early.score(X, y) > 0.75
    with pytest.warns(refml.ConvergenceWarning, match="max_iter=40 passes"):
        full = lib.Perceptron(order=order, random_state=1, max_iter=40, tol=None).fit(X, y)
    assert full.n_iter_ == 40 and full.n_mistakes_ > early.n_mistakes_


def test_the_default_still_separates_data_with_a_clear_margin(lib):
    X, y = [[-2.0, 1.0], [-1.5, -1.0], [-3.0, 0.0], [2.0, 0.5], [1.0, -1.0], [2.5, 2.0]], \
        [0, 0, 0, 1, 1, 1]
    model = lib.Perceptron().fit(X, y)
    assert model.converged_ and model.score(X, y) == 1.0


@pytest.mark.parametrize("order", ["cyclic", "batch", "random", "uniform"])
def test_overflowing_margins_are_mistakes_and_overflowing_theta_raises(lib, order):
    # After the first update theta = (-1, -4e199, 2e199); at the second point theta'x~ =
    # -1 - inf + inf = NaN, which the test "y theta'x <= 0" called correct (converged_ with
    # training accuracy 1/2).  Counted as a mistake, the run ends at a true separator.
    X, y = [[4e199, -2e199], [8e199, 4e199]], [0, 1]
    model = lib.Perceptron(order=order, random_state=0).fit(X, y)
    assert model.converged_ is True and as_list(model.predict(X)) == y
    assert (as_list(model.coef_), model.intercept_, model.n_mistakes_) == ([0.0, 8e199], -1.0, 3)
    # theta = -2 x 1e308 overflows: a clear error, nothing fitted
    model = lib.Perceptron(fit_intercept=False, learning_rate=2.0)
    with pytest.raises(ValueError, match="overflowed"):
        model.fit([[1e308], [-1e308]], [0, 1])
    assert not hasattr(model, "coef_") and not hasattr(model, "classes_")


def test_pass_cap_of_the_batch_order_counts_points_examined(lib):
    import refml

    model = lib.Perceptron(order="batch", fit_intercept=False, max_iter=1)
    with pytest.warns(refml.ConvergenceWarning):
        model.fit(THREE_X, THREE_Y)
    # Scans: z1 (mistake), z1 z2 (mistake), then the cap of 3 points examined.
    assert as_list(model.coef_) == [-1.0, 1.0]
    assert (model.n_mistakes_, model.n_iter_, model.converged_) == (2, 1, False)


def test_trajectory_is_none_unless_asked(lib):
    assert lib.Perceptron().fit(LINE_X, LINE_Y).trajectory_ is None


@pytest.mark.parametrize("params, name", [
    ({"order": "zigzag"}, "order"), ({"learning_rate": 0.0}, "learning_rate"),
    ({"learning_rate": -1.0}, "learning_rate"), ({"learning_rate": math.inf}, "learning_rate"),
    ({"schedule": "sqrt"}, "schedule"), ({"fit_intercept": 1}, "fit_intercept"),
    ({"max_iter": 0}, "max_iter"), ({"max_iter": 2.5}, "max_iter"),
    ({"random_state": -1}, "random_state"), ({"store_trajectory": "yes"}, "store_trajectory"),
    ({"tol": -1e-3}, "tol"), ({"tol": math.nan}, "tol"), ({"tol": math.inf}, "tol"),
    ({"tol": "1e-3"}, "tol"), ({"n_iter_no_change": 0}, "n_iter_no_change"),
    ({"n_iter_no_change": 1.5}, "n_iter_no_change"),
])
def test_bad_hyper_parameters_are_named_at_fit(lib, params, name):
    model = lib.Perceptron(**params)
    with pytest.raises(ValueError, match=name):
        model.fit(LINE_X, LINE_Y)
    assert not hasattr(model, "coef_")


# --- Theorem 2.3 ------------------------------------------------------------------------------

def test_mistake_bound_by_hand(lib):
    # R^2 = ||[-2, 1]||^2 = 5; delta = min(1, 1, 4) / ||[1, 3]|| so delta^2 = 1/10: 50.
    assert math.isclose(lib.mistake_bound(THREE_X, THREE_Y, [1.0, 3.0], fit_intercept=False),
                        50.0, rel_tol=1e-12)
    # Augmented rows [1, 0], [1, 2] and theta~ = [-1, 2]: R^2 = 5, delta^2 = 1/5: 25.
    assert math.isclose(lib.mistake_bound(LINE_X, LINE_Y, [-1.0, 2.0], fit_intercept=True),
                        25.0, rel_tol=1e-12)


def test_mistake_bound_without_theta_uses_the_max_margin_separator(lib):
    # The hard-margin separator through the origin of z = y x on THREE is [1, 3]: it is
    # 7 z1 + 3 z2 with z1'theta = z2'theta = 1 (KKT with alphas 7, 3 >= 0), ||theta||^2 = 10
    # and R^2 = 5, so R^2 / delta^2 = R^2 ||theta||^2 = 50.
    assert math.isclose(lib.mistake_bound(THREE_X, THREE_Y, fit_intercept=False), 50.0,
                        rel_tol=1e-12)


@pytest.mark.parametrize("order", ["cyclic", "batch", "random", "uniform"])
def test_every_order_makes_at_most_the_bound(lib, order):
    for seed in range(5):
        model = lib.Perceptron(order=order, fit_intercept=False, tol=None, random_state=seed)
        assert model.fit(THREE_X, THREE_Y).n_mistakes_ <= 50
        assert model.converged_


def test_mistake_bound_rejects_what_is_not_a_separator(lib):
    with pytest.raises(ValueError, match="does not separate"):
        # z2 = [-2, 1] is on the wrong side
        lib.mistake_bound(THREE_X, THREE_Y, [1.0, 0.0], fit_intercept=False)
    with pytest.raises(ValueError, match="does not separate"):
        lib.mistake_bound(THREE_X, THREE_Y, [0.0, 0.0], fit_intercept=False)
    with pytest.raises(ValueError, match="entries"):
        lib.mistake_bound(THREE_X, THREE_Y, [1.0, 3.0], fit_intercept=True)
    with pytest.raises(ValueError, match="no separator"):
        lib.mistake_bound(XOR_X, XOR_Y, fit_intercept=True)
    with pytest.raises(ValueError, match="NaN"):
        lib.mistake_bound([[math.nan, 0.0]] + THREE_X[1:], THREE_Y, [1.0, 3.0],
                          fit_intercept=False)


# --- parity: the same floats in both packages ---------------------------------------------------

@pytest.mark.fast
def test_fast_gives_the_identical_coefficients_and_trajectory():
    import refml
    import refml_fast
    from conformance._parity import random_dataset
    from refml.core.random import Generator

    for seed in range(15):
        X, y, X_query = random_dataset(Generator(seed), binary=True)
        for order in ("cyclic", "batch", "random", "uniform"):
            for schedule in ("constant", "decreasing"):
                for fit_intercept in (True, False):
                    params = dict(order=order, schedule=schedule, fit_intercept=fit_intercept,
                                  learning_rate=0.3, max_iter=10, random_state=seed,
                                  tol=(None, 1e-3, 0.5)[seed % 3],
                                  n_iter_no_change=1 + seed % 3, store_trajectory=True)
                    a = fit_quietly(refml.Perceptron(**params), X, y)
                    b = fit_quietly(refml_fast.Perceptron(**params), X, y)
                    assert b.coef_.tolist() == a.coef_ and b.intercept_ == a.intercept_
                    assert b.trajectory_.tolist() == a.trajectory_
                    assert (b.n_mistakes_, b.n_iter_, b.converged_) == \
                        (a.n_mistakes_, a.n_iter_, a.converged_)
                    assert b.decision_function(X_query).tolist() == \
                        a.decision_function(X_query)
                    assert b.predict(X_query).tolist() == a.predict(X_query)


@pytest.mark.fast
@pytest.mark.parametrize("kind", ["whole numbers", "gaussian", "large"])
def test_fast_mistakes_decided_in_lanes_or_in_refmls_order_give_the_same_floats(kind):
    """refml_fast decides a mistake from a sum in lanes when its sign is sure, else from
    refml's sum (``sure_sign``).  Whole numbers make margins of exactly 0 (refml's path,
    counted below on refml's trajectory); Gaussian rows are nearly all decided in lanes; a
    matrix of 2^20 entries also asks for rows ahead (``prefetch_row``).  Labels flipped at
    random keep the mistakes frequent.  With the early stop on, a mistake's margin is
    refml's float too.  Every update and the counts must match refml's."""
    import refml
    import refml_fast
    from refml.core.random import Generator

    g = Generator(len(kind))
    n, d = (65_536, 16) if kind == "large" else (300, 6)
    w = [g.normal() for _ in range(d)]
    X = [[float(round(2 * g.normal())) if kind == "whole numbers" else g.normal()
          for _ in range(d)] for _ in range(n)]
    y = [int(sum(a * b for a, b in zip(w, x)) + 0.3 > 0) ^ (g.random() < 0.15) for x in X]
    for tol, fit_intercept in ((None, True), (1e-3, False), (1e-3, True)):
        params = dict(order="cyclic", fit_intercept=fit_intercept, tol=tol,
                      max_iter=2 if kind == "large" else 8, store_trajectory=kind != "large")
        a = fit_quietly(refml.Perceptron(**params), X, y)
        b = fit_quietly(refml_fast.Perceptron(**params), X, y)
        assert b.coef_.tolist() == a.coef_ and b.intercept_ == a.intercept_
        assert (b.n_mistakes_, b.n_iter_) == (a.n_mistakes_, a.n_iter_)
        if kind != "large":
            assert b.trajectory_.tolist() == a.trajectory_
    if kind == "whole numbers":   # margins of exactly 0 met on the way: refml's path ran
        theta = a.trajectory_
        zeros = sum(sum(t * v for t, v in zip(theta[k], [1.0] + x)) == 0.0
                    for k in range(min(len(theta), 40)) for x in X[:50])
        assert zeros >= 20


def test_mistake_bound_and_the_perceptron_share_their_intercept_default(lib):
    """Both default to fit_intercept=True, so the bound describes the default model."""
    import inspect

    bound_default = inspect.signature(lib.mistake_bound).parameters["fit_intercept"].default
    assert bound_default is lib.Perceptron().fit_intercept is True
    assert lib.mistake_bound(LINE_X, LINE_Y, [-1.0, 2.0]) == lib.mistake_bound(
        LINE_X, LINE_Y, [-1.0, 2.0], fit_intercept=True)


def test_perceptron_criterion_sums_the_distances_of_the_mistakes(lib):
    """[Yan]: sigma(theta) = -sum_{M} y_i x~_i'theta = ||theta|| sum_{M} dist(x~_i, H), with
    rows x~ = [1, x]; it is 0 at a separator the perceptron found."""
    X, y = [[0.0], [2.0], [3.0], [0.5]], [1, 0, 1, 0]
    theta = [-1.0, 1.0]              # x~'theta = x - 1: -1, 1, 2, -0.5
    # signs +1, -1, +1, -1 -> margins -1, -1, 2, 0.5: M = {0, 1}, sigma = 1 + 1 = 2
    assert lib.perceptron_criterion(theta, X, y) == 2.0
    norm = math.sqrt(2.0)
    distances = [abs(x[0] - 1.0) / norm for x in (X[0], X[1])]   # |x~'theta| / ||theta||
    assert math.isclose(lib.perceptron_criterion(theta, X, y), norm * sum(distances),
                        rel_tol=1e-15)
    separable_X, separable_y = [[3.0], [0.5], [0.0], [2.5]], [1, 0, 0, 1]
    model = lib.Perceptron(order="batch").fit(separable_X, separable_y)
    separator = [float(model.intercept_)] + [float(v) for v in as_list(model.coef_)]
    assert model.converged_
    assert lib.perceptron_criterion(separator, separable_X, separable_y) == 0.0


def test_uniform_order_draws_from_all_points_and_updates_only_on_mistakes(lib):
    """[MATH412]'s decreasing-step perceptron: i uniform among all n points (SplitMix64),
    an update only when i is a mistake, gamma_t = C / t with t counting draws."""
    from refml.core.random import Generator

    X, y = [[1.0], [2.0], [-1.0], [-3.0]], [1, 1, 0, 0]
    model = lib.Perceptron(order="uniform", schedule="decreasing", fit_intercept=False,
                           random_state=5, store_trajectory=True).fit(X, y)
    rng, theta, expected = Generator(5), 0.0, [[0.0]]
    signs = [1.0, 1.0, -1.0, -1.0]
    for t in range(1, 5):                    # the first pass, replayed by hand
        i = rng.randbelow(4)
        if not signs[i] * theta * X[i][0] > 0.0:
            theta += (1.0 / t) * signs[i] * X[i][0]
            expected.append([theta])
    assert model.converged_ and model.n_iter_ == 1
    assert as_list(model.trajectory_) == expected


# --- more than two classes: one-vs-rest (beyond the lectures) ------------------------------
# Three separated clusters on a line: each class is separable from the rest only for the
# outer two; the middle class's perceptron does not converge, and argmax still decides.
LINE3_X = [[0.0], [0.5], [5.0], [5.5], [10.0], [10.5]]
LINE3_Y = ["left", "left", "middle", "middle", "right", "right"]


def test_three_classes_take_one_perceptron_per_class(lib):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = lib.Perceptron(tol=None, max_iter=50).fit(LINE3_X, LINE3_Y)
        for k, label in enumerate(["left", "middle", "right"]):
            alone = lib.Perceptron(tol=None, max_iter=50).fit(
                LINE3_X, [1 if y == label else 0 for y in LINE3_Y])
            assert list(map(float, model.coef_[k])) == list(map(float, alone.coef_))
            assert float(model.intercept_[k]) == float(alone.intercept_)
    scores = [list(map(float, row)) for row in model.decision_function(LINE3_X)]
    assert len(scores) == 6 and all(len(row) == 3 for row in scores)
    expected = [["left", "middle", "right"][row.index(max(row))] for row in scores]
    assert list(model.predict(LINE3_X)) == expected
    assert len(model.estimators_) == 3 and model.trajectory_ is None


@pytest.mark.sklearn
def test_one_vs_rest_is_scikit_learns_perceptron(lib):
    """scikit-learn's Perceptron (no shuffle, constant step 1, no penalty) is one-vs-rest with
    the same updates: the same coefficients on iris."""
    import warnings

    import numpy as np
    from sklearn.datasets import load_iris
    from sklearn.linear_model import Perceptron as ScikitPerceptron

    X, y = load_iris(return_X_y=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = lib.Perceptron(tol=None, max_iter=30).fit(X.tolist(), y.tolist())
    theirs = ScikitPerceptron(tol=None, max_iter=30, shuffle=False).fit(X, y)
    assert np.allclose(np.asarray(ours.coef_, dtype=float), theirs.coef_, rtol=0, atol=1e-9)
    assert np.allclose(np.asarray(ours.intercept_, dtype=float), theirs.intercept_, rtol=0,
                       atol=1e-9)
    assert list(ours.predict(X.tolist())) == theirs.predict(X).tolist()


@pytest.mark.fast
def test_one_vs_rest_is_identical_in_both_packages():
    import warnings

    import refml
    import refml_fast
    from conformance._parity import random_dataset
    from refml.core.random import Generator

    for seed in range(20):
        X, y, X_query = random_dataset(Generator(seed), n_min=6, k_max=5)
        for order in ("cyclic", "random"):
            a = refml.Perceptron(order=order, max_iter=8, random_state=seed)
            b = refml_fast.Perceptron(order=order, max_iter=8, random_state=seed)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                a.fit(X, y)
                b.fit(X, y)
            assert [list(map(float, r)) for r in (a.coef_ if len(a.classes_) > 2
                                                  else [a.coef_])] == [
                list(map(float, r)) for r in (b.coef_ if len(b.classes_) > 2 else [b.coef_])]
            assert list(a.predict(X_query)) == list(b.predict(X_query))
