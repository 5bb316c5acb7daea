"""Checks for the faults a mutation run (python -m conformance.mutants) left uncaught
(issue 40, item 6): each asserts a definition the tests and theorem checks did not pin
down, in code both packages share (so parity could not tell)."""

import math
import warnings

import pytest

from refml.core.random import Generator
from refml.linear import logistic_solvers as solvers
from tests.helpers import as_list


def blobs(n=60, d=3, K=2, seed=3):
    rng = Generator(seed)
    X = [[rng.normal() + 1.5 * (i % K) for _ in range(d)] for i in range(n)]
    return X, [i % K for i in range(n)]


def test_partial_fit_counts_its_passes_and_mistakes(lib):
    """One partial_fit is one pass: the perceptron's mistakes are those of fit with
    max_iter=1 (a fault started the count at 1); n_iter_ counts the calls (a fault
    counted down), for the perceptron and SGD logistic regression."""
    X, y = blobs()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        streamed = lib.Perceptron(random_state=0).partial_fit(X, y, classes=[0, 1])
        once = lib.Perceptron(max_iter=1, tol=None, random_state=0).fit(X, y)
        assert streamed.n_mistakes_ == once.n_mistakes_ and streamed.n_iter_ == 1
        assert streamed.partial_fit(X, y).n_iter_ == 2
        sgd = lib.LogisticRegression(solver="sgd", random_state=0)
        sgd.partial_fit(X, y, classes=[0, 1]).partial_fit(X, y)
    assert sgd.n_iter_ == 2 and len(sgd.loss_curve_) == 2


def test_histogram_naive_bayes_bins_span_the_training_range(lib):
    X, y = blobs(K=3)
    for model in (lib.NaiveBayes(marginal="histogram", bins=4).fit(X, y),
                  lib.NaiveBayes(marginal="histogram", bins=4).partial_fit(
                      X, y, classes=[0, 1, 2])):
        for j in range(3):
            column = [row[j] for row in X]
            assert model.bin_width_[j] == (max(column) - min(column)) / 4


def test_the_svc_margin_is_one_over_the_norm_of_beta(lib):
    X, y = blobs(K=2, seed=8)
    model = lib.SVC(kernel="linear", C=10.0).fit(X, y)
    beta = [float(v) for v in list(model.coef_)[0]] if hasattr(model.coef_[0], "__len__") \
        else [float(v) for v in model.coef_]
    assert math.isclose(model.margin_, 1.0 / math.sqrt(sum(v * v for v in beta)),
                        rel_tol=1e-9)


def test_default_gd_step_for_more_than_two_classes(lib):
    """K > 2: L = (1/2) lambda_bound(X~'X~) / n + alpha (Boehning's bound 1/2)."""
    X, n = [[1.0], [2.0], [3.0]], 3        # X~'X~ = [[14, 6], [6, 3]]: lambda_bound 17
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = lib.LogisticRegression(solver="gd", max_iter=1, alpha=0.5).fit(X, [0, 1, 2])
    assert math.isclose(model.learning_rate_, 1.0 / (0.5 * 17.0 / n + 0.5), rel_tol=1e-15)


@pytest.mark.parametrize("solver", ["gd", "sgd"])
def test_default_step_on_a_small_scale_is_above_one(lib, solver):
    """A smoothness bound below 1 gives a default step 1/L above 1 (a fault kept 1.0 for
    every L <= 1): X = 0.01 [1, 2, 3] without intercept and alpha = 0, K = 2: gd's
    L = (1/4) 0.0014 / 3, sgd's L_1 = (1/4) 0.0009."""
    X = [[0.01], [0.02], [0.03]]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = lib.LogisticRegression(solver=solver, fit_intercept=False, alpha=0.0,
                                       max_iter=1, random_state=0).fit(X, [0, 1, 0])
    bound = 0.0014 / 3 if solver == "gd" else 0.0009
    assert math.isclose(model.learning_rate_, 1.0 / (0.25 * bound), rel_tol=1e-12)


def test_support_set_search_gives_up_beyond_its_count():
    """max_margin_by_support_sets tries the sets of 1..D rows only while there are at most
    MAX_SUPPORT_SETS of them: 200 rows in 2 features have 200 + 19,900 = 20,100 > 20,000
    (a fault counted from the pairs on, 19,900, and searched)."""
    from refml.svm import separator

    assert separator.MAX_SUPPORT_SETS == 20_000
    rows = [[1.0, 0.01 * i] for i in range(100)] + [[-1.0, 0.01 * i] for i in range(100)]
    signs = [1] * 100 + [-1] * 100
    assert separator.max_margin_by_support_sets(rows, signs) is None
    assert separator.max_margin_by_support_sets(rows[:3] + rows[100:102],
                                                signs[:3] + signs[100:102]) is not None


def test_a_double_root_at_zero_is_zero():
    """A x^2 = 0 (B = C = 0: two weighted normal densities touching at x = 0) has the
    root 0 (a fault returned 1.0 for it)."""
    from refml.bayes.gaussian import _quadratic_roots

    assert _quadratic_roots(-0.375, 0.0, 0.0) == [0.0]
    assert _quadratic_roots(1.0, 0.0, -4.0) == [-2.0, 2.0]


@pytest.mark.parametrize("K", [2, 3])
def test_qda_decision_function_of_one_row(lib, K):
    """One row asked: one value (K = 2) or one row of K (a fault read the second row)."""
    X, y = blobs(n=60, d=2, K=K)
    model = lib.QuadraticDiscriminantAnalysis().fit(X, y)
    one = as_list(model.decision_function(X[:1]))
    assert one == as_list(model.decision_function(X[:2]))[:1]
    assert len(one) == 1 and (K == 2) == isinstance(one[0], float)


def test_newton_stops_when_its_direction_does_not_descend():
    """delta with grad' delta = 0 exactly is no descent direction: Newton stops there, not
    converged, theta untouched (a fault searched along it: L = theta_0 - theta_1^2 falls
    along (0, 1) at slope 0)."""
    def objective(theta):
        return theta[0] - theta[1] ** 2, [1.0, -2.0 * theta[1]]

    theta, n_iter, converged, curve = solvers.newton(
        objective, lambda theta, gradient: [0.0, 1.0], [0.0, 0.0], 5, 1e-8)
    assert (theta, n_iter, converged, curve) == ([0.0, 0.0], 0, False, [0.0])


def test_gaussian_nb_smoothing_scales_with_a_variance_below_one(lib):
    """epsilon = var_smoothing times the largest feature variance, as scikit-learn's, also
    when that variance is below 1 (a fault took var_smoothing alone there)."""
    import statistics

    X, y = blobs(n=40, d=2)
    X = [[0.1 * v for v in row] for row in X]
    largest = max(statistics.pvariance([row[j] for row in X]) for j in range(2))
    assert largest < 1.0
    model = lib.GaussianNB(var_smoothing=1e-3).fit(X, y)
    assert math.isclose(float(model.epsilon_), 1e-3 * largest, rel_tol=1e-9)


def test_the_risk_under_a_finite_distribution_is_exact(lib):
    distribution = lib.FiniteDistribution(points=[[0.0], [1.0]],
                                          probabilities=[[0.3, 0.1], [0.2, 0.4]])
    rule = lib.BayesClassifier(distribution=distribution)
    value, error = lib.risk(rule, distribution, return_error=True)
    assert error == 0.0 and math.isclose(value, 0.3, rel_tol=1e-15)


def test_make_separable_draws_both_labels_about_equally(lib):
    _, y = lib.make_separable(400, 2, 0.1, random_state=5)
    positives = sum(1 for label in y if label == 1)
    assert 140 <= positives <= 260        # Binomial(400, 1/2): 6 standard deviations


def test_make_separable_draws_its_separator_at_random(lib):
    """theta* is a uniformly random unit vector: five seeds give five directions, none of
    them the diagonal (a fault started the draw loop at a nonzero vector, so it never
    drew, and every seed gave (1, 1, 1) / sqrt(3))."""
    thetas = set()
    for seed in range(5):
        _, _, theta = lib.make_separable(20, 3, 0.5, random_state=seed,
                                         return_separator=True)
        theta = tuple(float(t) for t in theta)
        assert math.isclose(math.fsum(t * t for t in theta), 1.0, rel_tol=1e-12)
        assert not all(math.isclose(t, 3 ** -0.5) for t in theta)
        thetas.add(theta)
    assert len(thetas) == 5


def test_the_histogram_density_when_its_volume_overflows(lib):
    """n prod h_j out of float range: log f = log N_cell - log n - sum_j log h_j, each
    cell of one point included (a fault sent counts of 1 to -inf)."""
    X = [[0.0] * 40, [1e10] * 40]
    model = lib.Histogram(bins=2).fit(X)
    expected = -math.log(2.0) - 40 * math.log(5e9)
    for value in model.score_samples(X):
        assert math.isclose(value, expected, rel_tol=1e-12)


def test_the_perceptron_loss_of_a_point_classified_right_is_zero():
    """max(0, -y theta'x): 0 for a right point, |theta'x| for a wrong one, 0 on the
    boundary (a fault gave right points a loss of 1, which the early stop sums)."""
    from refml.perceptron.perceptron import mistake_loss

    assert mistake_loss([1.0, 2.0], [0.5, 0.25], 1) == 0.0
    assert mistake_loss([1.0, 2.0], [0.5, 0.25], -1) == 1.0
    assert mistake_loss([1.0, -2.0], [1.0, 0.5], 1) == 0.0


def test_kde_naive_bayes_uses_silverman_s_one_dimensional_rule_per_class(lib):
    """Each class and feature: h = Silverman's rule on that class's column alone (d = 1)."""
    X, y = blobs(n=45, K=3, seed=9)
    model = lib.NaiveBayes(marginal="kde").fit(X, y)
    for k in range(3):
        rows = [x for x, label in zip(X, y) if label == k]
        for j in range(3):
            expected = lib.silverman_bandwidth([[row[j]] for row in rows])[0]
            assert math.isclose(model.bandwidths_[k][j], expected, rel_tol=1e-12)


def test_risk_refuses_a_confidence_outside_the_unit_interval(lib):
    distribution = lib.GaussianClasses([0.5, 0.5], [[0.0], [1.0]], [[[1.0]], [[1.0]]])
    rule = lib.BayesClassifier(distribution=distribution)
    for bad in (1.0, 1.5, 0.0):
        with pytest.raises(ValueError, match="confidence"):
            lib.risk(rule, distribution, confidence=bad)


def test_the_quadratic_roots_of_a_boundary_solve_it():
    """Both roots of A x^2 + B x + C from the stable form, for either sign of B (a fault in
    the form kept one root right and sent the other elsewhere)."""
    from refml.bayes.gaussian import _quadratic_roots

    for A, B, C in ((1.0, -3.0, 2.0), (2.0, 5.0, -3.0), (-0.5, 0.25, 1.0), (1.0, 1e8, 1.0)):
        roots = _quadratic_roots(A, B, C)
        assert len(roots) == 2
        for x in roots:
            assert abs(A * x * x + B * x + C) <= 1e-9 * max(1.0, abs(B * x), abs(C))


def test_sgd_returns_the_average_of_its_iterates(lib):
    """[MATH412]'s Algorithm 1 returns theta_bar = (theta_0 + ... + theta_k) / (k + 1): with
    one epoch from theta_0 = 0 on n rows, k = n, and the running sum is in the stream."""
    X, y = blobs(n=30, K=2, seed=4)
    model = lib.LogisticRegression(solver="sgd", random_state=1).partial_fit(X, y,
                                                                             classes=[0, 1])
    stream = model._stream
    total = [float(v) for v in stream["total"]]
    k = int(stream["k"])
    assert k == 30
    coef = [float(v) for v in (list(model.coef_[0]) if hasattr(model.coef_[0], "__len__")
                               else list(model.coef_))]
    for j in range(3):
        assert coef[j] == total[j] / (k + 1)


def test_the_early_stop_counts_its_passes_in_every_order(lib):
    """scikit-learn's early stop: with tol so large that no pass ever improves on the first,
    the fit stops after the first pass and n_iter_no_change more, whatever the order of
    the passes (a fault in the random order's count of passes stopped one pass late)."""
    rng = Generator(11)
    X = [[rng.normal(), rng.normal()] for _ in range(30)]
    y = [rng.randbelow(2) for _ in range(30)]
    # Two equal points with opposite labels: passes of two rows, where a count of passes
    # off by two rows is off by a whole pass.
    samples = [(X, y), ([[1.0, 2.0], [1.0, 2.0]], [0, 1])]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for (rows, labels), patience in [(sample, p) for sample in samples for p in (1, 3, 5)]:
            for order in ("cyclic", "batch", "random", "uniform"):
                model = lib.Perceptron(order=order, tol=1e9, n_iter_no_change=patience,
                                       max_iter=50, random_state=0).fit(rows, labels)
                assert (model.n_iter_, model.converged_) == (patience + 1, False), order


def test_a_singular_covariance_names_the_first_dependent_feature(lib):
    """The second feature is the first within 1e-6 of a combination of the ones before it
    (1 - R^2 near 1e-12, under the 1e-10 tolerance): QDA refuses the class and names feature
    1, although the leading 2 x 2 block still factors with a tiny positive pivot (a fault in
    the pivot test passed it by and named feature 2)."""
    rng = Generator(12)
    rows = [[rng.normal(), rng.normal()] for _ in range(40)]
    X = [[a, a + 1e-6 * rng.normal(), b] for a, b in rows]
    y = [i % 2 for i in range(40)]
    with pytest.raises(ValueError, match=r"singular to working precision: feature 1 \(0-based\)"):
        lib.QuadraticDiscriminantAnalysis().fit(X, y)


def test_partial_fit_continues_the_decreasing_step(lib):
    """With schedule="decreasing", gamma_t = learning_rate / t counts the points examined
    from t = 1 across calls: one partial_fit is fit with max_iter=1, two are max_iter=2,
    float for float (a fault started the count of the first call at 1, so t = 2, 3, ...)."""
    X, y = blobs(n=40, K=2, seed=6)
    y = [v if i % 7 else 1 - v for i, v in enumerate(y)]       # not separable: every pass
    with warnings.catch_warnings():                             # makes mistakes
        warnings.simplefilter("ignore")
        for passes in (1, 2):
            streamed = lib.Perceptron(schedule="decreasing", random_state=0)
            streamed.partial_fit(X, y, classes=[0, 1])
            for _ in range(passes - 1):
                streamed.partial_fit(X, y)
            fitted = lib.Perceptron(schedule="decreasing", max_iter=passes, tol=None,
                                    random_state=0).fit(X, y)
            # Binary: coef_ is one vector and intercept_ one number.
            assert [float(v) for v in list(streamed.coef_)] == [
                float(v) for v in list(fitted.coef_)]
            assert float(streamed.intercept_) == float(fitted.intercept_)


def test_a_tie_of_expected_losses_goes_to_the_first_class(lib):
    """Under a loss matrix, K > 2 classes whose expected losses tie exactly: the first of
    them (docs/design.md section 4; a fault took the last)."""
    zero_one = [[0.0, 1.0, 1.0], [1.0, 0.0, 1.0], [1.0, 1.0, 0.0]]
    assert lib.bayes_decision([0.2, 0.4, 0.4], loss=zero_one) == 1
    assert lib.bayes_decision([0.4, 0.2, 0.4], loss=zero_one) == 0


def test_samme_probabilities_are_the_softmax_of_the_scaled_scores(lib):
    """P(k | x) = exp(f_k / (K - 1)) / sum_l exp(f_l / (K - 1)) with f_k the class score
    over the sum of the members' weights (a fault multiplied by K - 1)."""
    X, y = blobs(n=60, d=2, K=4, seed=7)
    model = lib.AdaBoostClassifier(n_estimators=5, random_state=0).fit(X, y)
    total = sum(float(a) for a in list(model.estimator_weights_))
    for scores, row in zip(list(model.decision_function(X[:10])),
                           list(model.predict_proba(X[:10]))):
        scaled = [float(s) / total / 3.0 for s in list(scores)]
        top = max(scaled)
        exps = [math.exp(v - top) for v in scaled]
        for p, e in zip(list(row), exps):
            assert abs(float(p) - e / sum(exps)) <= 1e-12


def test_a_converged_soft_margin_meets_its_kkt_measures(lib):
    """Overlapping classes, C = 1: at convergence every KKT measure is within tol, the
    primal one (slack xi_i = (1 - g_i)_+ absorbs every violated margin) at rounding level
    (a fault measured the slack as 1 + g_i)."""
    rng = Generator(3)
    X = [[rng.normal(), rng.normal()] for _ in range(60)]
    y = [int(a + b + 0.8 * rng.normal() > 0) for a, b in X]
    model = lib.SVC(C=1.0).fit(X, y)
    measures = model.kkt_violations_
    assert model.converged_ and float(model.kkt_violation_) <= 1e-3
    assert float(measures["primal feasibility"]) <= 1e-12
    assert float(measures["complementary slackness"]) <= 1e-3


def test_the_dual_feasibility_measure_is_the_distance_of_alpha_from_its_box():
    """[Yan]'s dual feasibility 0 <= alpha_i <= C, measured as the largest of -alpha_i and
    alpha_i - C (a fault measured alpha_i + C): an SMO's multipliers stay in the box, so
    only a multiplier put outside it shows the measure."""
    from refml.svm.svc import kkt_violations

    y, scores = [1, -1, 1], [1.0, -1.0, 2.0]
    assert kkt_violations([0.5, 0.5, 0.0], y, scores, 0.0, 1.0)[1] == 0.0
    assert kkt_violations([1.25, 0.5, 0.0], y, scores, 0.0, 1.0)[1] == 0.25
    assert kkt_violations([0.5, -0.75, 0.0], y, scores, 0.0, 1.0)[1] == 0.75


def test_backtracking_halves_the_step_max_halvings_times_then_gives_up():
    """Armijo backtracking tries t = 1, 1/2, ..., 2^-(MAX_HALVINGS - 1) and no further (a
    fault stopped one halving early): an objective that decreases only for t at or below
    the last of them is accepted there, one that needs one more halving is not."""
    last = 2.0 ** -(solvers.MAX_HALVINGS - 1)

    def objective_below(limit):
        def objective(theta):
            return (1.0 - theta[0] if theta[0] <= limit else 2.0), [0.0]
        return objective

    steps = solvers.ListSteps(1)
    accepted = solvers._backtrack(objective_below(last), steps, [0.0], 1.0, [-1.0], [1.0],
                                  -1.0)
    assert accepted is not None and accepted[0] == [last]
    assert solvers._backtrack(objective_below(last / 2.0), steps, [0.0], 1.0, [-1.0], [1.0],
                              -1.0) is None


def test_far_from_the_means_the_posterior_still_has_every_class():
    """x so far out (1e160) that the squared Mahalanobis distances overflow: the posterior
    comes from differences of log scores (a fault left out the last class's), and along
    the line of the means it is 1 for the class whose mean lies furthest out."""
    from refml.bayes import GaussianClasses

    model = GaussianClasses([0.3, 0.3, 0.4], [[0.0], [1.0], [2.0]], [[[1.0]]] * 3)
    posterior = model.posterior([1e160])
    assert posterior == [0.0, 0.0, 1.0]
    assert model.posterior([-1e160]) == [1.0, 0.0, 0.0]


def test_blands_rule_enters_the_first_column_with_a_negative_reduced_cost():
    """Every column but the right-hand side (the last) may enter (a fault left out the
    last variable column, ending phase I early)."""
    from fractions import Fraction

    from refml.linear.separability import bland_entering

    assert bland_entering([Fraction(1), Fraction(0), Fraction(-2), Fraction(-5)]) == 2
    assert bland_entering([Fraction(1), Fraction(0), Fraction(-1), Fraction(7)]) == 2
    assert bland_entering([Fraction(1), Fraction(0), Fraction(0), Fraction(-3)]) is None


def test_a_pair_whose_decision_is_exactly_zero_votes_for_its_second_class():
    """LIBSVM's rule: pair (i, j) votes c_j where f_ij(x) >= 0 (a fault gave a zero
    decision to c_i)."""
    from refml.svm.one_vs_one import votes

    # three classes: pairs (0, 1), (0, 2), (1, 2); one row
    assert votes(3, [[0.0], [-1.0], [-1.0]]) == [[1, 2, 0]]
    assert votes(3, [[0.0], [0.0], [0.0]]) == [[0, 1, 2]]


def test_a_newton_direction_that_is_not_a_descent_is_not_taken():
    """tau = 0 when G_F' delta >= 0, the slope exactly 0 included (a fault stepped along
    a direction of zero slope, to the nearest bound)."""
    from refml.svm.smo_newton import newton_length

    assert newton_length([0, 1], [0.0, 0.0], [1.0, -1.0], [0.5, 0.5], 1.0) == (0.0, -1)
    assert newton_length([0, 1], [1.0, 1.0], [1.0, -1.0], [0.5, 0.5], 1.0) == (0.0, -1)
    tau, hit = newton_length([0, 1], [-1.0, 0.0], [1.0, -1.0], [0.5, 0.5], 1.0)
    assert tau == 0.5 and hit in (0, 1)


def test_an_empty_adaboost_ensemble_gives_equal_probabilities():
    """No stump beats chance on XOR rows: the ensemble is empty, every score 0, and
    predict_proba is 1/2 for both classes (a fault divided 0 by a zero weight total)."""
    from refml import AdaBoostClassifier

    X, y = [[0.0], [0.0], [1.0], [1.0]], [0, 1, 0, 1]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = AdaBoostClassifier(n_estimators=3).fit(X, y)
    assert len(model.estimators_) == 0
    assert model.predict_proba([[0.0], [1.0]]) == [[0.5, 0.5], [0.5, 0.5]]


def test_the_closed_form_bayes_risk_reports_no_error():
    """Two Gaussian classes with one covariance: R* in closed form, its error bound 0 (a
    fault reported 1)."""
    from refml.bayes import GaussianClasses

    model = GaussianClasses([0.5, 0.5], [[0.0, 0.0], [2.0, 0.0]], [[[1.0, 0.0], [0.0, 1.0]]] * 2)
    value, error = model.bayes_risk(return_error=True)
    assert error == 0.0 and abs(value - 0.15865525393145707) < 1e-12      # Phi(-1)


def test_a_class_constant_in_the_first_feature_names_feature_0(lib):
    """The first feature's own variance is 0 in a class: QDA names feature 0 (a fault
    began the search at the 2 x 2 block and named feature 1)."""
    rng = Generator(13)
    X = [[0.0 if i % 2 == 0 else rng.normal(), rng.normal()] for i in range(30)]
    y = [i % 2 for i in range(30)]
    with pytest.raises(ValueError, match=r"feature 0 \(0-based\)"):
        lib.QuadraticDiscriminantAnalysis().fit(X, y)


def test_a_monte_carlo_bayes_risk_of_separated_classes_is_zero():
    """Three Gaussian classes 1,000 standard deviations apart: every posterior is 1.0 in
    floats, so the Monte Carlo estimate of R* = E[1 - max_k eta_k(X)] is 0.0 exactly (a
    fault started its sum at 1.0)."""
    from refml.bayes import GaussianClasses

    identity = [[1.0, 0.0], [0.0, 1.0]]
    model = GaussianClasses([0.2, 0.3, 0.5], [[0.0, 0.0], [1000.0, 0.0], [0.0, 1000.0]],
                            [identity] * 3)
    value, error = model.bayes_risk(n_samples=500, random_state=0, return_error=True)
    assert value == 0.0 and 0.0 < error < 0.1


def test_a_chunk_of_zero_rows_leaves_the_step_to_the_first_chunk_with_a_row(lib):
    """Without an intercept or a penalty a chunk of zero rows sets no step size C: the
    first chunk with a non-zero row does, C = 1/L_1 of that chunk (a fault let the zero
    chunk set C = 1)."""
    X, y = blobs(n=40, d=3)
    X = [[10.0 * v for v in row] for row in X]
    zeros = [[0.0, 0.0, 0.0]] * 6
    first = lib.LogisticRegression(solver="sgd", fit_intercept=False, random_state=0)
    first.partial_fit(zeros, [0, 1] * 3, classes=[0, 1]).partial_fit(X, y)
    alone = lib.LogisticRegression(solver="sgd", fit_intercept=False, random_state=0)
    alone.partial_fit(X, y, classes=[0, 1])
    assert alone.learning_rate_ < 0.1
    assert first.learning_rate_ == alone.learning_rate_


def test_the_scale_guard_weighs_c_times_the_largest_kernel_value():
    """hopeless_scale: float64 cannot meet tol when EPSILON C max K > tol (a fault divided
    by C): a large C on moderate values is hopeless, a small C on large values is not."""
    from refml.svm.svc import hopeless_scale

    assert hopeless_scale(1e4, 1e10, 1e-3)            # 2.2e-16 * 1e14 = 0.022 > 1e-3
    assert not hopeless_scale(1e12, 1e-10, 1e-3)      # 2.2e-16 * 1e2 = 2.2e-14
    assert not hopeless_scale(1e40, math.inf, 1e-3)   # the hard margin: no C to weigh


def test_the_exact_max_margin_accepts_multipliers_below_one():
    """Two points through the origin, z = (2, 0) and (4, 0.1): the optimum is theta =
    z_1 / ||z_1||^2 = (1/2, 0) with the single multiplier 1/4, which the exact solve accepts
    (a fault refused every multiplier below 1 instead of below 0)."""
    from refml.svm.separator import max_margin_by_support_sets
    from refml.svm.smo import exact_max_margin

    rows, signs = [[2.0, 0.0], [4.0, 0.1]], [1.0, 1.0]
    assert exact_max_margin(rows, signs, [0]) == [0.5, 0.0]
    assert max_margin_by_support_sets(rows, signs) == [0.5, 0.0]


def test_the_ovr_votes_give_a_zero_decision_to_the_first_class():
    """scikit-learn's "ovr" transformation counts pair (i, j) for c_i where f_ij(x) = 0,
    unlike LIBSVM's voting rule (a fault counted it for c_j)."""
    from refml.svm.one_vs_one import ovr_values

    assert ovr_values(2, [[0.0]]) == [[1.0, 0.0]]
    # three classes, pairs (0, 1), (0, 2), (1, 2) with f = 0, 2, 0: one vote each for
    # c_0, c_2, c_1; summed confidences s = -2, 0, 2, each s / (3 (|s| + 1)) added
    values = ovr_values(3, [[0.0], [2.0], [0.0]])[0]
    assert values == [1.0 + -2.0 / 9.0, 1.0, 1.0 + 2.0 / 9.0]


def rising_by(amount):
    """An objective whose every trial is L = 1 + amount with a smaller gradient (0.25)."""
    def objective(theta):
        return 1.0 + amount, [0.25]
    return objective


def downhill(theta, gradient):
    return [-1.0]


def test_the_polish_rejects_a_step_that_raises_the_loss_beyond_rounding():
    """A polishing step is kept only if L rises by at most 16 eps |L| (a fault let any
    rise through as long as the gradient shrank)."""
    direction = downhill
    kept = solvers._polish(rising_by(1e-9), direction, [0.0], 1.0, [1.0], 0, 10, [])
    assert kept == ([0.0], 0)
    within = solvers._polish(rising_by(2.0 * solvers.EPSILON), direction, [0.0], 1.0, [1.0],
                             0, 10, [])
    assert within[0] != [0.0] and within[1] >= 1


def test_lbfgs_keeps_the_last_ten_pairs():
    """L-BFGS's memory: the direction sees at most the 10 most recent (s, y) pairs (a fault
    kept 11); both packages share this loop, so parity cannot tell."""
    d = 30
    scales = [1.0 + 3.0 * j for j in range(d)]     # an ill-conditioned quadratic

    def objective(theta):
        return (0.5 * sum(s * t * t for s, t in zip(scales, theta)),
                [s * t for s, t in zip(scales, theta)])

    seen = []

    class Recording(solvers.ListSteps):
        def direction(self, gradient, pairs):
            seen.append(len(pairs))
            return super().direction(gradient, pairs)

    theta, n_iter, converged, _ = solvers.lbfgs(objective, [1.0] * d, Recording(1), 200,
                                                1e-10)
    assert n_iter > 12 and max(seen) == 10 and seen.count(10) >= 2


def test_a_loss_that_costs_nothing_for_one_error_has_no_bayes_line():
    """bayes_line needs L01 > L00 and L10 > L11: with L01 = L00 the rule is constant, not
    a line (a fault went on with a = 0 and took the log of 0)."""
    from refml.bayes.distributions import GaussianClasses
    from refml.bayes.gaussian import bayes_line

    d = GaussianClasses([0.5, 0.5], [[0.0], [2.0]], [[[1.0]], [[1.0]]])
    assert bayes_line(d, [[0.0, 0.0], [1.0, 0.0]]) is None
    assert bayes_line(d, [[0.0, 1.0], [0.0, 0.0]]) is None
    assert bayes_line(d, [[0.0, 1.0], [1.0, 0.0]]) is not None


def test_the_bayes_line_weighs_the_losses_of_both_errors():
    """N(0, 1) against N(2, 1), equal priors, L = [[0, 1], [2, 0.5]]: decide 1 iff
    p_1 (L10 - L11) >= p_0 (L01 - L00), so w = 2 and b = -2 - log(1 / 1.5) (a fault
    added L11 instead of subtracting it: b = -2 + log 2.5)."""
    from refml.bayes.distributions import GaussianClasses
    from refml.bayes.gaussian import bayes_line

    d = GaussianClasses([0.5, 0.5], [[0.0], [2.0]], [[[1.0]], [[1.0]]])
    w, b, classes = bayes_line(d, [[0.0, 1.0], [2.0, 0.5]])
    assert w == [2.0] and classes == [0, 1]
    assert math.isclose(b, -2.0 + math.log(1.5), rel_tol=1e-12)


def test_kde_naive_bayes_cross_validates_a_class_of_two_rows(lib):
    """bandwidth="cv" searches from n_k = 2 rows on (a fault kept Silverman's h there):
    the two-row class's LSCV picks twice Silverman's bandwidth on these data."""
    import statistics

    from refml.density.bandwidth import silverman_factor

    X = [[0.0], [0.3], [0.5], [0.9], [1.4], [5.0], [5.6]]
    y = [0, 0, 0, 0, 0, 1, 1]
    model = lib.NaiveBayes(marginal="kde", bandwidth="cv").fit(X, y)
    silverman = silverman_factor(2, 1) * statistics.stdev([5.0, 5.6])
    assert math.isclose(float(model.bandwidths_[1][0]), 2.0 * silverman, rel_tol=1e-12)


def test_the_exact_max_margin_solves_a_support_set_of_two():
    """Two support vectors are enough for the exact system (a fault required three):
    SMO's approximate multipliers become the exact 1/2, 1/2."""
    from refml.svm.smo import exact_hard_margin

    alpha = exact_hard_margin([[1.0, 0.0], [-1.0, 0.0], [3.0, 1.0]], [1, -1, 1],
                              [0.4999, 0.5001, 0.0], "linear", 1.0, 3, 0.0)
    assert alpha == [0.5, 0.5, 0.0]


def test_a_draw_past_the_last_running_sum_takes_the_last_possible_outcome():
    """When rounding leaves u * total at or past every running sum, the draw is the last
    outcome of positive probability (a fault looked for p > 1 and found none)."""
    from refml.bayes.distributions import _invert_running_sum

    probabilities = [0.2, 0.8, 0.0]
    assert _invert_running_sum(probabilities, [0.2, 1.0, 1.0], 1.0, 1.0) == 1
    assert _invert_running_sum(probabilities, [0.2, 1.0, 1.0], 1.0, 0.5) == 1
    assert _invert_running_sum(probabilities, [0.2, 1.0, 1.0], 1.0, 0.1) == 0


def test_bagging_takes_zero_one_weights_for_a_member_without_sample_weight(lib):
    """Weights of 0 and 1 select rows, which any member can do (a fault refused them for
    k-NN); other weights need a member whose fit takes sample_weight."""
    X, y = blobs(n=40)
    weights = [float(i % 3 != 0) for i in range(40)]
    bagged = lib.BaggingClassifier(lib.KNeighborsClassifier(n_neighbors=3), n_estimators=3,
                                   random_state=0).fit(X, y, sample_weight=weights)
    assert len(bagged.estimators_) == 3
    with pytest.raises(ValueError, match="sample_weight other than 0 and 1"):
        lib.BaggingClassifier(lib.KNeighborsClassifier(n_neighbors=3), n_estimators=3,
                              random_state=0).fit(X, y, sample_weight=[0.5, 1.0] * 20)


def test_mahalanobis_calls_a_feature_within_4_n_u_of_its_mean_constant(lib):
    """A feature whose spread is within the rounding of its mean, sqrt(Sigma_jj) <= 4 n u
    |mu_j|, counts as constant (a fault divided by n instead): ten values of 1e6, half of
    them 4 units in the last place higher."""
    import statistics

    base = 1e6
    high = base + 4 * math.ulp(base)
    column = [base if i % 2 else high for i in range(10)]
    spread = math.sqrt(statistics.pvariance(column))
    assert 4.0 / 10 * 2.0 ** -53 * base < spread <= 4.0 * 10 * 2.0 ** -53 * base
    X = [[value, float(i)] for i, value in enumerate(column)]
    with pytest.raises(ValueError, match="feature 0 is constant"):
        lib.KNeighborsClassifier(metric="mahalanobis").fit(X, [i % 2 for i in range(10)])


def test_partial_fit_joins_the_trajectories_of_its_calls(lib):
    """store_trajectory with partial_fit: the calls' trajectories one after the other, each
    call's first entry (theta before it) not repeated (a fault read past the stored
    state)."""
    X, y = blobs(n=30)
    model = lib.Perceptron(store_trajectory=True, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model.partial_fit(X, y, classes=[0, 1])
        first = [list(map(float, theta)) for theta in model.trajectory_]
        model.partial_fit(X, y)
    both = [list(map(float, theta)) for theta in model.trajectory_]
    assert len(first) >= 2 and both[:len(first)] == first and len(both) > len(first)
    # one entry per update of the second call: as many as its mistakes
    assert len(both) - len(first) == int(model.n_mistakes_) - (len(first) - 1)
    last = [float(model.intercept_)] + [float(w) for w in model.coef_]
    assert both[-1] == last


def test_the_multiclass_perceptron_loss_is_zero_for_any_positive_margin():
    """max(0, theta_r'x - theta_c'x): zero at every positive margin, below 1 too (a fault
    gave margins in (0, 1] a negative loss)."""
    from refml.perceptron.multiclass import ClassesRule

    rule = ClassesRule([[1.0]], [0])
    assert rule.loss([[1.0], [0.5]], 0) == 0.0
    assert rule.loss([[1.0], [-1.0]], 0) == 0.0
    assert rule.loss([[0.5], [1.0]], 0) == 0.5


def test_sgd_averages_from_the_starting_iterate():
    """The Polyak-Ruppert average includes theta_0: the step count starts at 0 (a fault
    started it at 1, so the average divided by one iterate too many)."""
    from refml.linear.logistic import sgd

    seen = []

    def epoch(theta, total, k):
        seen.append(k)
        moved = [value + 2.0 for value in theta]
        return moved, [a + b for a, b in zip(total, moved)], k + 1

    def objective(theta):
        return 0.0, [1.0]

    average, n_iter, converged, _ = sgd(objective, epoch, [0.0], 1, 0.5)
    assert seen == [0] and average == [1.0] and n_iter == 1 and not converged


def test_smo_stops_when_the_violation_equals_the_tolerance():
    """The stopping rule is m - M <= tol, equality included (a fault kept stepping): at
    alpha = 0 two points x = 0 (y = -1) and x = 1 (y = +1) have m - M = 2 exactly."""
    from refml.svm import smo as _smo

    rows = _smo.KernelRows([[0.0], [1.0]], "linear", 1.0, 3, 0.0)
    alpha, n_iter, status, _ = _smo.smo(rows, rows.diagonal(), [-1.0, 1.0], 1.0, 2.0, 100)
    assert (alpha, n_iter, status) == ([0.0, 0.0], 0, _smo.CONVERGED)
    alpha, n_iter, status, _ = _smo.smo(rows, rows.diagonal(), [-1.0, 1.0], 1.0, 1.5, 100)
    assert n_iter >= 1 and alpha != [0.0, 0.0]


def test_projected_sgd_steps_by_one_over_root_k_by_default():
    """gamma_k = step k^(-power) with step = 1 and power = 1/2 by default (a fault doubled
    the default step): one update of a constant gradient 1 from 0 lands at -1."""
    from refml.linear.sgd import projected_sgd

    result = projected_sgd(lambda theta, rng: [1.0], [0.0], 2, random_state=0)
    assert result.theta_last == [-1.0] and result.theta_average == [-0.5]


def test_mahalanobis_refuses_a_feature_that_is_another_one_up_to_rounding(lib):
    """A Cholesky pivot with L_jj^2 <= 1e-10 Sigma_jj (relative to the feature's variance)
    names a linear combination, whatever the features' scale (a fault compared it with
    1e-10 / Sigma_jj, which a feature of variance 3e7 never meets).  Here x_2 = 2 x_1 +
    0.001 (-1)^i: a residual variance of about 1e-6, far above the rounding of the
    Cholesky step (about 1e-8) and far below 1e-10 Sigma_22."""
    X = [[1000.0 * i, 2000.0 * i + 1e-3 * (-1) ** i] for i in range(10)]
    with pytest.raises(ValueError, match="linear combination"):
        lib.KNeighborsClassifier(metric="mahalanobis").fit(X, [i % 2 for i in range(10)])


def test_a_finite_bayes_risk_under_a_loss_is_exact_too():
    """With a loss matrix the finite Bayes risk is still a finite sum: its reported error
    is 0.0 (a fault reported 1.0)."""
    from refml.bayes.distributions import FiniteDistribution

    d = FiniteDistribution([[0.0], [1.0]], [[0.3, 0.2], [0.1, 0.4]])
    risk, error = d.bayes_risk(loss=[[0.0, 1.0], [2.0, 0.0]], return_error=True)
    assert error == 0.0 and math.isclose(risk, min(0.3, 0.4) + min(0.1, 0.8))


def test_sgd_at_a_zero_gradient_stops_at_once_even_with_tol_0(lib):
    """Zero features and balanced classes: at theta = 0 every gradient entry is exactly 0
    (the intercept's is sum_i (1/2 - y_i) = 0), so max |grad L| > tol is false even for
    tol = 0 and SGD returns theta = 0 after no epoch, converged (a fault continued while
    the gradient was >= tol and ran to max_iter with a ConvergenceWarning)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model = lib.LogisticRegression(solver="sgd", tol=0.0, max_iter=5).fit(
            [[0.0, 0.0]] * 4, [0, 1, 0, 1])
    assert model.n_iter_ == 0
    assert [list(map(float, c)) for c in model.coef_] == [[0.0, 0.0]]


def test_default_step_when_the_smoothness_constant_is_zero(lib):
    """With every x~ = 0 (zero features, no intercept) and alpha = 0 the smoothness bound L
    is 0 and the default step is 1.0, not 1/0 (a fault took 1/L at L = 0 and divided by
    zero); L(theta) is the constant log 2, so theta stays 0."""
    for solver in ("gd", "sgd"):
        model = lib.LogisticRegression(solver=solver, alpha=0.0, fit_intercept=False).fit(
            [[0.0, 0.0]] * 4, [0, 1, 0, 1])
        assert [list(map(float, c)) for c in model.coef_] == [[0.0, 0.0]]


def test_lbfgs_does_not_search_along_a_direction_that_climbs():
    """L-BFGS line-searches only along a descent direction (slope grad'delta < 0); when
    its direction climbs and no memory is left to drop, it stops, not converged, where it
    is.  Here the steps' direction is +grad (slope 0.25 at theta = 0.5) on the non-convex
    f(theta) = theta^2 - theta^4, where a unit step along it would still pass Armijo's test
    (f(1.0) = 0 against f(0.5) = 0.1875); a fault searched along directions of slope below
    1."""
    class Climbing(solvers.ListSteps):
        def direction(self, gradient, pairs):
            return list(gradient)

    def objective(theta):
        t = theta[0]
        return t * t - t ** 4, [2.0 * t - 4.0 * t ** 3]

    theta, n_iter, converged, curve = solvers.lbfgs(objective, [0.5], Climbing(1), 10, 1e-8)
    assert (theta, n_iter, converged, curve) == ([0.5], 0, False, [0.1875])


def test_a_bandwidth_whose_square_overflows_is_refused(lib):
    """h = 2^512 is finite but h^2 = 2^1024 overflows to inf (a fault let h^2 = inf pass);
    the largest float whose square is finite, 2^512 (1 - 2^-53), is accepted."""
    X, y = [[0.0, 1.0], [1.0, 0.5], [2.0, 2.0], [3.0, 0.0]], [0, 0, 1, 1]
    for bandwidth in (2.0 ** 512, [1.0, 2.0 ** 512]):
        with pytest.raises(ValueError, match="outside what float64 can square"):
            lib.KernelDensityClassifier(bandwidth=bandwidth).fit(X, y)
    largest = 2.0 ** 512 * (1.0 - 2.0 ** -53)
    assert largest * largest < math.inf
    lib.KernelDensityClassifier(bandwidth=largest).fit(X, y)


def test_lbfgs_keeps_a_pair_whose_curvature_is_tiny_but_invertible():
    """A pair (s, y) enters the memory when s'y > 0 and rho = 1/s'y is finite (a fault
    asked 2/s'y to be finite).  On f(theta) = theta^2 / 4 from theta = 2^-510 the first
    step (along -grad) gives s'y = 2^-1023: 1/s'y = 2^1023 is finite, 2/s'y is not.  With
    the pair the second step is the exact Newton step to 0 (all numbers powers of two);
    without it L-BFGS would halve theta again."""
    def objective(theta):
        return 0.25 * theta[0] * theta[0], [0.5 * theta[0]]

    theta, n_iter, converged, _ = solvers.lbfgs(objective, [2.0 ** -510],
                                                solvers.ListSteps(1), 50, 0.0)
    assert (theta, n_iter, converged) == ([0.0], 2, True)


def test_pass_fail_sample_draws_n_rows(lib):
    """sample(n) gives n rows and n labels (a fault drew n - 1)."""
    X, y = lib.PassFailExample().sample(5, random_state=3)
    assert len(X) == 5 and len(y) == 5 and all(len(x) == 2 for x in X)


def test_monte_carlo_risk_draws_ten_thousand_points_by_default(lib):
    """risk's default Monte Carlo sample is n = 10,000 (documented): its Hoeffding bound
    at the default confidence 0.999 is sqrt(log(2 / 0.001) / (2 n)), and the estimate is
    the one n_samples=10_000 gives."""
    p = lib.PassFailExample()
    model = lib.BayesClassifier(distribution=p).fit([[0.0, 0.0], [9.0, 9.0]], [1, -1])
    value, error = lib.risk(model, p, return_error=True)
    assert error == pytest.approx(math.sqrt(math.log(2000) / 20000), rel=1e-12)
    assert value == lib.risk(model, p, n_samples=10_000)


def test_a_fractional_min_samples_leaf_below_one_row_allows_single_row_leaves(lib):
    """min_samples_leaf = 0.05 of 10 rows is ceil(0.5) = 1 row (a fault made the least
    leaf 2 rows): the lone row of class 1 gets its own leaf, as with min_samples_leaf=1."""
    X = [[float(i)] for i in range(10)]
    y = [0, 0, 0, 0, 1, 0, 0, 0, 0, 0]
    tree = lib.DecisionTreeClassifier(min_samples_leaf=0.05).fit(X, y)
    assert [int(v) for v in tree.predict(X)] == y
    assert tree.tree_.node_count == lib.DecisionTreeClassifier(
        min_samples_leaf=1).fit(X, y).tree_.node_count


def test_exact_risk_of_a_binary_linear_rule_counts_a_class_it_never_predicts(lib):
    """Under three Gaussian classes a binary rule "1 iff x > 1" predicting 0 or 1 is
    always wrong on class 2: R = 0.2 P(X > 1 | 0) + 0.3 P(X < 1 | 1) + 0.5 (a fault
    counted that class's error as 2.0)."""
    from tests.test_bayes import LinearRule

    d = lib.GaussianClasses([0.2, 0.3, 0.5], [[0.0], [2.0], [5.0]],
                            [[[1.0]], [[1.0]], [[1.0]]], classes=[0, 1, 2])
    value, error = lib.risk(LinearRule([1.0], -1.0), d, return_error=True)
    phi = 0.5 * math.erfc(1.0 / math.sqrt(2.0))            # P(Z > 1) = P(Z < -1)
    assert error == 0.0 and math.isclose(value, 0.2 * phi + 0.3 * phi + 0.5, rel_tol=1e-12)


def test_a_tie_of_expected_losses_between_two_classes_goes_to_the_second(lib):
    """Two classes: the rule decides classes[1] when its expected loss is at most the
    other's, as without a loss (p_1 >= 1/2 -> classes[1]); a fault sent ties to class 0."""
    assert lib.bayes_decision([0.5, 0.5]) == 1
    assert lib.bayes_decision([0.5, 0.5], [[0.0, 1.0], [1.0, 0.0]]) == 1
    assert lib.bayes_decision([0.6, 0.4], [[0.0, 2.0], [3.0, 0.0]]) == 1   # 1.2 against 1.2


def test_histogram_densities_when_n_times_the_volume_leaves_the_float_range(lib):
    """f_hat = N / (n prod_j h_j) goes through logarithms when n prod_j h_j is not a
    positive finite float (a fault tested n / prod_j h_j instead): bins of 1e-200 x 1e-200
    (a volume that underflows to 0) give a finite log density, not a division by zero;
    one bin of about 1e154 x 1e153 with n = 1,000 (n times the volume overflows, the
    volume itself does not) gives f_hat = 1 / volume > 0, not 1000 / inf = 0."""
    X = [[1e-200 * i, 1e-200 * (i % 3)] for i in range(10)]
    assert all(math.isfinite(v) for v in lib.Histogram(bins=2).fit(X).score_samples(X))
    X = [[1e151 * i, 5e152 * (i % 3)] for i in range(1000)]
    model = lib.Histogram(bins=1).fit(X)
    volume = model.bin_width_[0] * model.bin_width_[1]
    assert volume < math.inf and 1000 * volume == math.inf
    density = float(model.pdf(X[:1])[0])
    assert math.isclose(density, 1.0 / volume, rel_tol=1e-12)
    assert math.isclose(float(model.score_samples(X[:1])[0]), -math.log(volume),
                        rel_tol=1e-12)


def test_naive_bayes_histogram_widens_a_constant_feature_by_one_half_each_side(lib):
    """A constant feature's histogram range is [v - 0.5, v + 0.5] (documented; a fault
    widened the upper side by 1)."""
    X = [[3.0, 0.0], [3.0, 1.0], [3.0, 2.0], [3.0, 5.0]]
    model = lib.NaiveBayes(marginal="histogram").fit(X, [0, 0, 1, 1])
    assert [float(v) for v in model.bin_low_] == [2.5, 0.0]
    assert [float(v) for v in model.bin_high_] == [3.5, 5.0]


def test_polishing_refuses_a_step_that_raises_the_loss_beyond_its_rounding():
    """A polishing Newton step is kept only if L rises by at most 16 eps |L| (rounding) and
    max |grad| does not grow.  Here the step lowers the gradient but raises L = 0.5 by
    5e-15, above 16 eps 0.5 = 1.8e-15: refused, theta stays (a fault allowed a rise up to
    16 eps / |L| = 7.1e-15)."""
    def objective(theta):
        return (0.5, [1e-3]) if theta == [0.0] else (0.5 + 5e-15, [1e-4])

    curve = [0.5]
    theta, n_iter = solvers._polish(objective, lambda theta, gradient: [1.0], [0.0], 0.5,
                                    [1e-3], 4, 100, curve)
    assert (theta, n_iter, curve) == ([0.0], 4, [0.5])


def test_mahalanobis_calls_the_last_feature_constant_too(lib):
    """Every feature, the last included, is checked for being constant up to the rounding
    of its mean (a fault skipped the last): ten values 0.1 have a mean one ulp off and a
    variance about 1e-34, not 0."""
    X = [[float(i), 0.1] for i in range(10)]
    with pytest.raises(ValueError, match="feature 1 is constant"):
        lib.KNeighborsClassifier(metric="mahalanobis").fit(X, [i % 2 for i in range(10)])


def test_best_split_allows_one_row_leaves_by_default():
    """best_split's min_leaf defaults to 1 row (scikit-learn's min_samples_leaf; a fault
    made it 2): two rows of different classes split into one row each."""
    from refml.tree.classifier import GINI, best_split

    split = best_split([[0.0], [1.0]], [0, 1], [1.0, 1.0], [0, 1], [0], 2, GINI)
    assert split is not None
    feature, threshold, left, right = split[:4]
    assert (feature, threshold, list(left), list(right)) == (0, 0.5, [0], [1])


def test_the_scale_guard_fires_only_when_rounding_exceeds_tol():
    """hopeless_scale: the gradient's rounding EPSILON C max K must exceed tol (a fault
    fired at equality too): 2^-52 x 1 x 2^42 = 2^-10 = tol is still trusted."""
    from refml.svm.svc import hopeless_scale

    assert not hopeless_scale(2.0 ** 42, 1.0, 2.0 ** -10)
    assert hopeless_scale(2.0 ** 43, 1.0, 2.0 ** -10)
    assert not hopeless_scale(2.0 ** 60, math.inf, 2.0 ** -10)   # hard margin: no C bound


def test_pruning_by_a_tiny_alpha_keeps_the_tree_and_its_sides(lib):
    """Cost-complexity pruning with alpha far below every link's cost collapses nothing:
    the pruned tree is the grown one, each child on its own side (a fault hung left
    children on the right), so it predicts the training rows as the grown tree does."""
    X = [[float(i), float((7 * i) % 5)] for i in range(30)]
    y = [(i * i) % 3 for i in range(30)]
    grown = lib.DecisionTreeClassifier(random_state=0).fit(X, y)
    pruned = lib.DecisionTreeClassifier(random_state=0, ccp_alpha=1e-12).fit(X, y)
    assert list(pruned.tree_.children_left) == list(grown.tree_.children_left)
    assert [int(v) for v in pruned.predict(X)] == [int(v) for v in grown.predict(X)] == y


def test_root_impurity_when_the_weights_are_taken_as_given(lib):
    """Weights whose ratio overflows are taken as given, so a node's total W can be below 1:
    here W = 0.5 + 1e-310 with classes 0.25 + 1e-310 and 0.25, Gini about 1/2 (a fault
    reported 0 for every node with W <= 1)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no stray overflow warning either
        model = lib.DecisionTreeClassifier().fit([[0.0], [1.0], [2.0]], [0, 0, 1],
                                                 sample_weight=[1e-310, 0.25, 0.25])
    assert math.isclose(float(model.tree_.impurity[0]), 0.5, rel_tol=1e-9)


def test_armijo_backtracking_refuses_a_rise_beyond_the_rounding_of_the_loss():
    """A trial whose loss rises (here by 5e-15 at L = 0.5, above 16 eps |L| = 1.8e-15) is
    refused at every step length even though its gradient is smaller (a fault allowed
    rises up to 16 eps / |L|): backtracking returns None."""
    def objective(theta):
        return 0.5 + 5e-15, [1e-4]

    assert solvers._backtrack(objective, solvers.ListSteps(1), [0.0], 0.5, [1e-3], [-1.0],
                              -1e-3) is None


def test_armijo_sufficient_decrease_shrinks_with_the_step():
    """Armijo's test at t = 1/2 asks for a decrease of c t |slope| = 5e-5 (c = 1e-4), so a
    trial at L = 1 - 1e-4 is taken there; a fault asked for c / t |slope| = 2e-4 and, the
    trial's gradient being larger (no rounding allowance), kept halving and gave up."""
    def objective(theta):
        return (2.0 if theta[0] == 1.0 else 1.0 - 1e-4), [10.0]

    assert solvers.ARMIJO_FRACTION == 1e-4
    taken = solvers._backtrack(objective, solvers.ListSteps(1), [0.0], 1.0, [-1.0], [1.0],
                               -1.0)
    assert taken is not None and taken[0] == [0.5] and taken[1] == 1.0 - 1e-4


def test_armijo_backtracking_accepts_a_rise_of_exactly_the_rounding_of_the_loss():
    """The rounding allowance is inclusive: at L = 1 a trial whose loss is 1 + 16 eps
    (2^-48 above, exactly representable) with a smaller gradient is taken at t = 1 (a fault
    made the allowance strict and kept halving until it gave up)."""
    def objective(theta):
        return 1.0 + 2.0 ** -48, [1e-4]

    taken = solvers._backtrack(objective, solvers.ListSteps(1), [0.0], 1.0, [1e-3], [-1.0],
                               -1e-3)
    assert taken is not None and taken[0] == [-1.0] and taken[1] == 1.0 + 2.0 ** -48


def test_an_exact_support_set_may_hold_a_margin_point_of_zero_multiplier():
    """exact_max_margin accepts alpha >= 0: through the origin, z_1 = (1, 0) and
    z_2 = (1, 1) (x_2 = (-1, -1) of class -1) have G = [[1, 1], [1, 2]] and alpha = (1, 0),
    theta = (1, 0): the optimum, with z_2 on the margin at multiplier 0 (a fault refused
    alpha_s = 0, and the separator fell back on SMO's floats)."""
    from refml.svm.smo import exact_max_margin

    rows, signs = [[1.0, 0.0], [-1.0, -1.0]], [1, -1]
    assert exact_max_margin(rows, signs, [0, 1]) == [1.0, 0.0]
    assert exact_max_margin(rows, signs, [0]) == [1.0, 0.0]


def test_the_exact_max_margin_of_a_single_point():
    """One point z: the largest margin is theta = z / ||z||^2 (z'theta = 1 with the
    smallest norm), here z = (2, 0) and theta = (1/2, 0), which the exact solve gives (a
    fault read the width of the data from a second row, which there is not)."""
    from refml.svm.smo import exact_max_margin

    assert exact_max_margin([[2.0, 0.0]], [1.0], [0]) == [0.5, 0.0]
    assert exact_max_margin([[2.0, 0.0]], [-1.0], [0]) == [-0.5, 0.0]


def test_the_multiclass_mistake_bound_refuses_a_single_class_clearly(lib):
    """One class has no rival, so no margin: a ValueError that says so (it was min()'s
    "arg is an empty sequence")."""
    with pytest.raises(ValueError, match="at least 2 classes"):
        lib.multiclass_mistake_bound([[1.0], [2.0]], [0, 0], [[1.0, 1.0]])


def test_the_polish_allows_a_rise_of_16_eps_and_no_more():
    """At L = 1 the allowance is 16 eps = 2^-48 exactly: a rise of 2^-48 is kept, one of
    2^-47 refused (a fault doubled the allowance)."""
    direction = downhill
    assert 16.0 * solvers.EPSILON == 2.0 ** -48
    kept = solvers._polish(rising_by(2.0 ** -48), direction, [0.0], 1.0, [1.0], 0, 10, [])
    assert kept[0] != [0.0] and kept[1] >= 1
    refused = solvers._polish(rising_by(2.0 ** -47), direction, [0.0], 1.0, [1.0], 0, 10, [])
    assert refused == ([0.0], 0)


def test_histogram_densities_divide_while_n_times_the_volume_is_finite(lib):
    """f_hat = N / (n prod_j h_j) exactly while n prod_j h_j is finite, here 1.35e308 (twice
    it would overflow); the logarithms' route gives other last bits (7.416912861691102e-306
    against 7.416912861690671e-306), which a fault that started the volume at 2 took."""
    volume = 1.5 * 2.0 ** 1023 / 1000
    widths = (2.0 ** 510, volume / 2.0 ** 510)
    X = [[widths[0] * (i % 2), widths[1] * (i % 2)] for i in range(1000)]
    model = lib.Histogram(bins=1).fit(X)
    product = float(model.bin_width_[0]) * float(model.bin_width_[1])
    assert 1000 * product < math.inf and 2000 * product == math.inf
    assert float(model.pdf(X[:1])[0]) == 1000 / (1000 * product)


def test_blands_leaving_row_breaks_a_ratio_tie_by_the_lowest_basic_index():
    """Bland's rule, which keeps the simplex from cycling: among rows of equal minimum
    ratio the one whose basic variable has the lowest index leaves (a fault let the later
    row win every tie)."""
    from refml.linear.separability import bland_leaving

    rows = [[1.0, 2.0], [1.0, 2.0], [2.0, 8.0]]             # ratios 2, 2 and 4
    assert bland_leaving({"rows": rows, "basis": [0, 5, 1]}, 0) == 0
    assert bland_leaving({"rows": rows, "basis": [5, 0, 1]}, 0) == 1


def test_complementary_slackness_is_measured_at_every_positive_multiplier():
    """alpha_i > 0 asks g_i = 1 - xi_i: with alpha = 0.5 on both points and margins of 2
    the violation is |2 - 1| = 1 (a fault measured it only where alpha_i > 1)."""
    from refml.svm.svc import kkt_violations

    primal, dual, slackness, balance = kkt_violations([0.5, 0.5], [1, -1], [2.0, -2.0], 0.0,
                                                      1.0)
    assert (primal, dual, slackness, balance) == (0.0, 0.0, 1.0, 0.0)


def test_the_one_dimensional_gaussian_bayes_risk_is_exact_with_error_zero(lib):
    """One feature, unequal variances: R* from the normal CDF at the crossings of the
    weighted densities, exact, so its reported error is 0.0 (a fault reported 1.0)."""
    d = lib.GaussianClasses([0.3, 0.7], [[0.0], [2.0]], [[[1.0]], [[4.0]]])
    value, error = d.bayes_risk(return_error=True)
    assert error == 0.0 and 0.0 < value < 0.3


def test_lbfgs_leaves_out_a_pair_whose_inverse_curvature_overflows():
    """A pair (s, y) enters the memory only when rho = 1/s'y is finite (a fault tested
    1.0 * s'y instead, always finite).  On f(theta) = theta^2 / 4 from theta = 2^-512 the
    first step (along -grad, a binary fit's first direction) is s = -2^-513 with y = s / 2,
    so s'y = 2^-1027, a subnormal whose inverse 2^1027 overflows (and so on for every later
    step): no direction may be handed such a pair, and every step is theta -> theta / 2."""
    seen = []

    class Recording(solvers.ListSteps):
        def direction(self, gradient, pairs):
            seen.append([rho for _, _, rho in pairs])
            return super().direction(gradient, pairs)

    def objective(theta):
        return 0.25 * theta[0] * theta[0], [0.5 * theta[0]]

    theta, n_iter, converged, _ = solvers.lbfgs(objective, [2.0 ** -512], Recording(1), 4,
                                                0.0)
    assert seen == [[]] * 4 and (n_iter, converged) == (4, False)
    assert theta == [2.0 ** -516]


@pytest.mark.parametrize("shift", [1.5, -1.5])
def test_risk_probes_a_linear_rule_at_scores_plus_and_minus_one(shift):
    """risk takes the exact route for a classifier with coef_ and intercept_ only when its
    predict agrees with sign(w'x + b) at probes of score +1 and -1 beside each mean (faults
    probed at +2 or -2).  A rule that says classes_[1] only from w'x + b > 1.5 fails the
    probe at +1, one that says it from w'x + b > -1.5 fails the probe at -1: their risk
    comes from Monte Carlo, near the true P(Y = 1) P(N(1, 1) <= t) + P(Y = 0)
    P(N(-1, 1) > t), t the shift (the exact route would give the risk of t = 0)."""
    from refml.bayes.distributions import GaussianClasses
    from refml.bayes.rule import risk

    class ShiftedRule:
        coef_, intercept_, classes_ = [1.0], 0.0, [0, 1]

        @staticmethod
        def predict(X):
            return [1 if x[0] > shift else 0 for x in X]

    p = GaussianClasses([0.5, 0.5], [[-1.0], [1.0]], [[[1.0]], [[1.0]]])
    value, error = risk(ShiftedRule(), p, return_error=True)
    phi = lambda z: 0.5 * math.erfc(-z / math.sqrt(2.0))  # noqa: E731
    truth = 0.5 * phi(shift - 1.0) + 0.5 * (1.0 - phi(shift + 1.0))
    assert error > 0.0 and abs(value - truth) <= error


def test_kkt_violations_of_a_hard_margin_have_no_slack():
    """With C = inf there are no slacks (xi = 0): a point at margin g = 0.5 violates primal
    feasibility by 1 - g = 0.5 (a fault gave it the soft margin's slack 1 - g, hiding it),
    and complementary slackness at a positive multiplier by |g - 1| = 0.5."""
    from refml.svm.svc import kkt_violations

    primal, dual, slackness, balance = kkt_violations([0.5, 0.5], [1, -1], [0.5, -1.0], 0.0,
                                                      math.inf)
    assert (primal, dual, slackness, balance) == (0.5, 0.0, 0.5, 0.0)


def test_the_intercept_averages_over_every_free_multiplier_the_last_row_too():
    """beta_0 is the mean of y_i - f0(x_i) over the free multipliers, every row read (a
    fault stopped one row short): free rows with v = 0.8 and -0.4 give 0.2, whichever of
    them is last."""
    from refml.svm.svc import intercept

    assert intercept([0.5, 0.5], [1, -1], [0.2, -0.6], 1.0) == pytest.approx(0.2, abs=1e-15)
    assert intercept([0.5, 0.5], [-1, 1], [-0.6, 0.2], 1.0) == pytest.approx(0.2, abs=1e-15)


def test_smo_converged_holds_on_every_point_after_shrinking():
    """SMO says "converged" only when m - M <= tol over all points, the shrunk ones
    included: at a tie m - M = tol on the active set it rebuilds the gradient and checks
    all (a fault, ``<`` for ``<=``, stopped on the active set alone).  The instance, found
    by a search over small integer problems, reaches m - M = 0 on its active set after a
    shrinking, with tol = 0."""
    from refml.svm import smo

    X = [[-1, 0], [3, 1], [-2, 0], [1, 3], [-3, -2], [2, 3]]
    y = [1.0, -1.0, -1.0, 1.0, 1.0, -1.0]
    K = [[float(a[0] * b[0] + a[1] * b[1]) for b in X] for a in X]
    n, C = len(y), 4.0

    def row(i):
        return list(K[i])

    alpha, n_iter, status, _ = smo.smo(row, [K[i][i] for i in range(n)], y, C, 0.0, 1000)
    assert status == smo.CONVERGED and n_iter > smo.shrink_period(n)
    gradient = [sum(y[t] * y[s] * K[t][s] * alpha[s] for s in range(n)) - 1.0
                for t in range(n)]
    _, m, M = smo.maximal_violation(list(range(n)), alpha, gradient, y, C)
    assert m - M <= 1e-12


def test_boosting_keeps_unit_weights_exactly():
    """mean_one keeps unit weights as they are: normalised, (1 / n) n is not always 1.0
    (n = 49 gives 0.9999999999999999; a fault normalised them)."""
    from refml.ensemble import boosting

    assert (1.0 / 49) * 49 != 1.0
    assert boosting.mean_one([1.0] * 49) == [1.0] * 49


@pytest.mark.parametrize("bandwidth", [1e-170, [1.0, 1e-170], [1e160, 1.0]])
def test_a_bandwidth_whose_square_underflows_or_overflows_is_refused(lib, bandwidth):
    """h^2 must be a positive finite float: h = 1e-170 squares to 0 (a fault tested h / h
    there and let it through), h = 1e160 to inf."""
    X = [[0.0, 0.0], [1.0, 2.0], [2.0, 1.0]]
    with pytest.raises(ValueError, match="outside what float64 can square"):
        lib.KernelDensity(bandwidth=bandwidth).fit(X)


def test_a_pivot_exactly_at_the_singular_tolerance_names_its_feature(lib):
    """A pivot with L_jj^2 equal to SINGULAR_TOLERANCE * Sigma_jj fails (``<=``, as the
    factorisation's own test refuses it): the message names feature 1, not the feature
    after it (a fault, ``<``, let the tie pass and named feature 2).  The entries, found
    by a search, make 1e-10 * b = 87.890625 = 9.375^2 and b - a^2 = 87.890625 exactly."""
    from refml.discriminant import statistics

    a, b = 937499.999953125, 878906250000.0
    assert statistics.SINGULAR_TOLERANCE * b == b - a * a == 9.375 ** 2
    Sigma = [[1.0, a, 0.0], [a, b, 0.0], [0.0, 0.0, 1.0]]
    message = r"singular to working precision: feature 1 \(0-based\)"
    with pytest.raises(ValueError, match=message):
        if lib.__name__ == "refml":
            statistics.factor_covariance(Sigma, "the pooled covariance", 0.0)
        else:
            import numpy as np

            lib.LinearDiscriminantAnalysis._factor(np.array(Sigma), "the pooled covariance",
                                                    0.0)


def test_a_newton_step_that_moves_a_multiplier_by_exactly_one_updates_the_gradient():
    """After the Newton step G and G_bar are those of the new alpha: here both free
    multipliers go from 2 to C = 3, y_s times the change +1.0 and -1.0 (a fault skipped
    changes of 1.0 instead of 0.0: G [-2, 1] and G_bar [-1.5, 3] followed one change only)."""
    from refml.svm import smo

    X, y, C = [[0.5], [1.0]], [1.0, -1.0], 3.0
    K = [[a[0] * b[0] for b in X] for a in X]
    alpha, at_bound = [2.0, 2.0], [0.0, 0.0]
    gradient = [sum(y[t] * y[s] * K[t][s] * alpha[s] for s in range(2)) - 1.0
                for t in range(2)]
    smo.newton_step([0, 1], lambda i: list(K[i]), alpha, gradient, at_bound, y, C, 10 ** 6)
    assert alpha == [3.0, 3.0]
    assert gradient == [-1.75, 0.5] and at_bound == [-0.75, 1.5]


def test_a_separator_from_an_smo_stopped_at_alpha_zero_is_still_the_exact_one(lib):
    """With tol = 10 SMO stops at alpha = 0 (m - M = 2), so its theta is 0, which puts every
    row on the hyperplane: that is no separator (strictly positive margins, a fault took
    >= 0) and the support-set search gives the exact max-margin theta."""
    X = [[2.0, 1.0], [1.0, 3.0], [-1.0, -2.0], [-3.0, 0.5]]
    y = [1, 1, -1, -1]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exact = as_list(lib.max_margin_separator(X, y))
        stopped = as_list(lib.max_margin_separator(X, y, tol=10.0))
    assert exact == stopped == [5.0 / 13.0, 4.0 / 13.0]


def test_a_hard_margin_kkt_point_allows_margins_within_the_slack_inclusive():
    """is_hard_margin_kkt: every margin >= 1 - 1e-9 and, where alpha > 0, <= 1 + 1e-9, both
    bounds included (a fault excluded the upper one)."""
    from refml.svm.smo import HARD_MARGIN_SLACK, is_hard_margin_kkt

    upper, lower = 1.0 + HARD_MARGIN_SLACK, 1.0 - HARD_MARGIN_SLACK
    assert is_hard_margin_kkt([1.0, 1.0], [1, -1], [upper, -lower], 0.0)
    assert not is_hard_margin_kkt([1.0, 1.0], [1, -1], [math.nextafter(upper, 2.0), -1.0], 0.0)
    assert not is_hard_margin_kkt([1.0, 1.0], [1, -1], [1.0, -math.nextafter(lower, 0.0)], 0.0)


def test_the_pass_fail_bayes_risk_is_closed_form_with_error_zero(lib):
    """PassFailExample's R* is exact: return_error gives error 0.0 (a fault said 1.0)."""
    risk, error = lib.PassFailExample().bayes_risk(return_error=True)
    assert error == 0.0 and risk == lib.PassFailExample().bayes_risk()


def test_quantile_edges_are_strictly_increasing_under_heavy_ties():
    """Half the values are 0, so the 1/4 and 2/4 quantiles are both 0: one edge for them
    (a fault, >= for >, kept both: the same edge twice and a bin no value can fall in)."""
    from refml.tree.histogram import quantile_edges

    values = [0.0] * 50 + [1.0] * 30 + [float(v) for v in range(2, 22)]
    assert quantile_edges(values, 4) == [0.5, 1.5]


def test_a_histogram_tree_on_a_single_row_of_positive_weight(lib):
    """The bins are cut from the rows of positive weight, here one row (a fault read the
    number of features from a second row)."""
    X = [[1.0, 5.0], [2.0, 3.0], [3.0, 1.0]]
    model = lib.DecisionTreeClassifier(max_bins=4).fit(X, [0, 1, 1],
                                                       sample_weight=[1.0, 0.0, 0.0])
    assert as_list(model.predict(X)) == [0, 0, 0] and model.tree_.node_count == 1


def test_a_threshold_rounded_onto_the_upper_value_moves_down_to_the_lower(lib):
    """Between consecutive floats a < b whose midpoint rounds to b (ties to even), the
    threshold is a, so X <= t still separates them (a fault kept t = b, and both rows went
    left)."""
    a = math.nextafter(1.0, 2.0)
    b = math.nextafter(a, 2.0)
    assert 0.5 * a + 0.5 * b == b
    model = lib.DecisionTreeClassifier().fit([[a], [b]], [0, 1])
    assert as_list(model.tree_.threshold)[0] == a
    assert as_list(model.predict([[a], [b]])) == [0, 1]


def test_a_multiplier_exactly_free_margin_below_c_counts_as_at_c():
    """intercept: alpha within FREE_MARGIN max alpha of C counts as at C, the bound
    included.  Here no multiplier is free; the one of label -1 at C - tiny is in I_up only,
    so beta_0 is the midpoint of [-1, 1], 0 (a fault put it in I_low too: -1)."""
    from refml.svm.svc import FREE_MARGIN, intercept

    C = 1.0
    alpha = [C, C - FREE_MARGIN * C]
    assert intercept(alpha, [1, -1], [0.0, 0.0], C) == 0.0


def test_a_soft_margin_point_beyond_the_margin_violates_complementary_slackness():
    """g = 1.5 with alpha > 0 and C = 1: no slack (xi = (1 - g)_+ = 0), and complementary
    slackness is off by |g - 1| = 0.5 (a fault gave xi = 1 - g for g < 2, hiding it)."""
    from refml.svm.svc import kkt_violations

    assert kkt_violations([0.5], [1], [1.5], 0.0, 1.0) == (0.0, 0.0, 0.5, 0.5)


def test_the_sigmoid_of_a_non_negative_score_is_the_printed_formula(lib):
    """For z >= 0, sigma(z) = 1 / (1 + e^{-z}) as printed, bit for bit; e^z / (1 + e^z),
    the form for z < 0, differs from it in the last bit at 16 of z = 0, 1/64, ..., 63/64
    (a fault switched forms at z >= 1)."""
    import importlib

    sigmoid = importlib.import_module(f"{lib.__name__}.linear.logistic").sigmoid
    for k in range(64):
        z = k / 64
        assert sigmoid(z) == 1.0 / (1.0 + math.exp(-z)), z


def test_the_first_partial_fit_starts_sgd_at_theta_zero(lib):
    """The stream starts at theta_0 = 0: with a step of 1e-12 the first chunk leaves every
    coefficient within 1e-11 of 0 (a fault started at 1)."""
    X = [[1.0, 2.0], [2.0, -1.0], [-1.0, 0.5], [0.3, -2.0]]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = lib.LogisticRegression(solver="sgd", learning_rate=1e-12, random_state=0)
        model.partial_fit(X, [0, 1, 0, 1], classes=[0, 1])
    values = as_list(model.coef_)[0] + as_list(model.intercept_)
    assert all(abs(v) < 1e-11 for v in values) and any(v != 0.0 for v in values)


def test_a_finite_bayes_risk_without_a_loss_reports_no_error(lib):
    """FiniteDistribution's R* is exact under the 0-1 loss too: error 0.0 (a fault said
    1.0)."""
    distribution = lib.FiniteDistribution([[0.0], [1.0]], [[0.3, 0.2], [0.1, 0.4]])
    risk, error = distribution.bayes_risk(return_error=True)
    assert error == 0.0 and risk == pytest.approx(0.3, abs=1e-15)


def test_the_monte_carlo_bound_scales_with_a_loss_range_below_one():
    """Hoeffding's bound takes the loss matrix's range as it is: 0.5 here (a fault raised
    every range to at least 1)."""
    from refml import FiniteDistribution
    from refml.bayes.known import hoeffding_bound, monte_carlo_risk

    distribution = FiniteDistribution([[0.0], [1.0]], [[0.3, 0.2], [0.1, 0.4]])
    _, bound = monte_carlo_risk(lambda X: [0] * len(X), distribution, 100, 0, 0.95,
                                loss=[[0.0, 0.5], [0.5, 0.0]])
    assert bound == hoeffding_bound(100, 0.95, 0.5)


def test_histogram_cv_risk_takes_its_range_as_one_pair_in_a_list(lib):
    """One-dimensional data: range (low, high) or [(low, high)], the same risk; two pairs
    are one too many (a fault validated the range for two dimensions)."""
    import importlib

    cv_risk = importlib.import_module(f"{lib.__name__}.density").histogram_cv_risk
    x = [0.1, 0.25, 0.3, 0.55, 0.6, 0.9]
    assert cv_risk(x, 4, range=[(0.0, 1.0)]) == cv_risk(x, 4, range=(0.0, 1.0))
    with pytest.raises(ValueError, match="Invalid parameter range"):
        cv_risk(x, 4, range=[(0.0, 1.0), (0.0, 2.0)])


def test_mahalanobis_calls_a_feature_exactly_at_4_n_u_of_its_mean_constant():
    """The bound is inclusive: sqrt(Sigma_jj) = 2^-49 = 4 n u |mu_j| at n = 4, mu_j = 1
    (u = 2^-53) is a constant feature (a fault let the tie through)."""
    from refml.neighbors.knn import inverse_covariance

    with pytest.raises(ValueError, match="feature 0 is constant"):
        inverse_covariance([[2.0 ** -98]], [1.0], 4)


def test_the_perceptron_criterion_sums_margins_of_any_size(lib):
    """sigma(theta) = -sum_M y_i x~_i'theta with margins -2 and -0.25: 2.25 (a fault divided
    y_i by x~_i'theta: 0.5 + 4)."""
    X, y = [[3.0], [0.75], [2.0]], [0, 1, 1]
    theta = [-1.0, 1.0]              # x~'theta = x - 1: 2, -0.25, 1
    assert lib.perceptron_criterion(theta, X, y) == 2.25


def test_far_posteriors_of_equal_covariances_with_a_determinant_other_than_one(lib):
    """Far out (x = 1e160, where q_k overflows) with Sigma_k = Sigma_r = 4: the log-det
    terms cancel, and the log-odds are -(q_0 - q_1)/2 = -(2 x 1e-160)/(2 * 4) = -0.25 (a
    fault added log det Sigma_k + log det Sigma_r = 2 log 4 to them)."""
    model = lib.GaussianClasses(means=[[0.0], [1e-160]], covariances=[[[4.0]], [[4.0]]],
                                priors=[0.5, 0.5])
    posterior = as_list(model.posterior([1e160]))
    assert posterior[0] == pytest.approx(1.0 / (1.0 + math.exp(0.25)), rel=1e-12)


def test_a_point_beyond_a_crossing_of_2_to_the_53_is_beyond_it():
    """_point_inside(a, inf) lies strictly beyond a even where a + 1 rounds to a (a fault
    took a + 2, which showed that a + 1 itself was not inside from 2^53 on)."""
    from refml.bayes.gaussian import _point_inside

    for a in (0.5, 2.0 ** 53, 3.0e17):
        beyond, before = _point_inside(a, math.inf), _point_inside(-math.inf, -a)
        assert a < beyond < math.inf and -math.inf < before < -a
    assert _point_inside(0.5, math.inf) == 1.5 and _point_inside(-math.inf, -0.5) == -1.5


def test_the_equal_covariance_bayes_risk_at_distances_one_and_zero(lib):
    """Two classes with Sigma_0 = Sigma_1 = I, equal priors: R* = Phi(-Delta / 2), so
    Phi(-1/2) at Delta = 1 (a fault took Delta = 1 for Delta = 0 and gave min(pi) = 1/2),
    and min(pi_0, pi_1) = 1/2 at Delta = 0 (where the same fault divided by 0)."""
    identity = [[1.0, 0.0], [0.0, 1.0]]
    apart = lib.GaussianClasses([0.5, 0.5], [[0.0, 0.0], [1.0, 0.0]], [identity, identity])
    phi = 0.5 * math.erfc(0.5 / math.sqrt(2.0))                 # Phi(-1/2)
    assert math.isclose(apart.bayes_risk(), phi, rel_tol=1e-12)
    same = lib.GaussianClasses([0.5, 0.5], [[1.0, 2.0], [1.0, 2.0]], [identity, identity])
    assert same.bayes_risk() == 0.5


def test_naive_bayes_kde_gives_a_constant_feature_the_standard_deviation_one(lib):
    """A feature constant over the whole training set has sigma 1.0 in Silverman's rule
    (module notes), so its bandwidth in each class of two rows is (4 / (2 * 3))^(1/5)
    (a fault gave it sigma 2.0)."""
    X = [[0.0, 5.0], [1.0, 5.0], [2.0, 5.0], [4.0, 5.0]]
    model = lib.NaiveBayes(marginal="kde").fit(X, [0, 0, 1, 1])
    for h in model.bandwidths_:
        assert math.isclose(float(h[1]), (4.0 / 6.0) ** 0.2, rel_tol=1e-12)


def test_bagging_reads_a_member_that_never_saw_the_first_class(lib):
    """A member that cannot take weights is fit on its bootstrap rows, which may miss a
    class: 1-NN members on 20 rows, class 0 a single row.  Their votes are their
    predicted labels, so predict_proba is the fraction of members predicting each label
    (a fault read such a member's codes, relative to its own classes_, as the
    ensemble's)."""
    X = [[float(i)] for i in range(20)]
    y = [0] + [1] * 9 + [2] * 10
    model = lib.BaggingClassifier(lib.KNeighborsClassifier(n_neighbors=1), n_estimators=10,
                                  random_state=3).fit(X, y)
    missing = [m for m in model.estimators_ if 0 not in [int(c) for c in m.classes_]]
    assert missing                                   # the case at hand
    votes = [[0.0, 0.0, 0.0] for _ in X]
    for member in model.estimators_:
        for i, label in enumerate(member.predict(X)):
            votes[i][int(label)] += 1.0 / len(model.estimators_)
    for row, expected in zip(as_list(model.predict_proba(X)), votes):
        assert [round(v, 12) for v in row] == [round(v, 12) for v in expected]


def test_complementary_slackness_holds_at_a_margin_violator_at_c():
    """A point inside the margin (g = 0.5) with alpha = C has slack xi = 1 - g = 0.5 and
    g = 1 - xi: complementary slackness holds there, |g - 1 + xi| = 0, and the largest
    violation stays the 0.5 of a point before it (g = 1.5 at alpha = 0.5).  Faults tested
    |g - 1 - xi| = 1 or |g + 1 + xi| = 2 against it, and so replaced the 0.5 by the
    point's own 0."""
    from refml.svm.svc import kkt_violations

    assert kkt_violations([1.0, 1.0], [1, -1], [0.5, -0.5], 0.0, 1.0) == (0.0, 0.0, 0.0, 0.0)
    assert kkt_violations([0.5, 1.0], [1, 1], [1.5, 0.5], 0.0, 1.0) == (0.0, 0.0, 0.5, 1.5)


def test_a_one_feature_bandwidth_beyond_float_range_is_refused(lib):
    """One feature, a class of one row: its Silverman bandwidth comes from the spread of
    all rows (1.25e154 apart on both sides: h = inf), which H = h^2 cannot hold, so the
    fit refuses it naming the class (a fault checked every diagonal entry of L but the
    last, with one feature none)."""
    big = 1.25e154
    X, y = [[big], [big * (1 - 1e-3)], [-big]], [0, 0, 1]
    with pytest.raises(ValueError, match="bandwidth of class 1"):
        lib.KernelDensityClassifier().fit(X, y)


def test_histogram_naive_bayes_counts_each_row_once(lib):
    """bin_counts_[k][j][b] is the number of class-k rows whose feature j falls in bin b:
    two bins over [0, 1], class 0 at 0.0, 0.1 and 1.0, class 1 at 0.9 (a fault counted
    every row twice)."""
    X = [[0.0], [0.1], [1.0], [0.9]]
    model = lib.NaiveBayes(marginal="histogram", bins=2).fit(X, [0, 0, 0, 1])
    counts = [[[int(c) for c in feature] for feature in k] for k in model.bin_counts_]
    assert counts == [[[2, 1]], [[0, 1]]]


def test_an_empty_cell_of_a_histogram_beyond_float_range_has_log_density_minus_inf(lib):
    """n prod h_j underflows to 0 (bins 5e-201 wide): a point inside the range but in an
    empty cell gets log f_hat = -inf and f_hat = 0 (a fault took log 0 there)."""
    model = lib.Histogram(bins=2).fit([[0.0, 0.0], [1e-200, 1e-200]])
    empty = [[0.0, 1e-200], [1e-200, 0.0]]
    assert list(model.score_samples(empty)) == [-math.inf, -math.inf]
    assert list(model.pdf(empty)) == [0.0, 0.0]
    assert all(math.isfinite(v) for v in model.score_samples([[0.0, 0.0]]))


def test_each_pair_of_a_multiclass_svc_codes_its_classes_zero_and_one(lib):
    """estimators_ holds pair (i, j)'s binary SVC with class i coded 0 and class j coded 1
    (documented; a fault coded j as 2), in one_vs_one.pairs order."""
    X, y = blobs(n=60, d=2, K=3, seed=5)
    model = lib.SVC(kernel="linear").fit(X, [("a", "b", "c")[k] for k in y])
    assert len(model.estimators_) == 3
    for pair in model.estimators_:
        assert [int(c) for c in pair.classes_] == [0, 1]
        assert {int(c) for c in pair.predict(X)} <= {0, 1}


def test_normal_interval_keeps_its_precision_right_of_zero():
    """P(a < Z < b) for 0 <= a < b is Q(a) - Q(b): for a in [0.5, 1) Phi(a) is near 0.7-0.84
    and Q(a) near 0.16-0.31, so the difference of Q's carries about two bits more (a fault
    moved the switch to a >= 1).  On intervals of width 1e-9 against phi(midpoint) times
    the width (exact to 1e-19 there), the mean relative error over 199 points is 6.9e-8
    this way and 1.5e-7 the other."""
    from refml.bayes.gaussian import normal_interval

    errors = []
    for i in range(1, 200):
        a = 0.5 + 0.5 * i / 200
        b = a + 1e-9
        width = b - a
        middle = a + width / 2
        exact = math.exp(-middle * middle / 2) / math.sqrt(2 * math.pi) * width
        errors.append(abs(normal_interval(a, b) - exact) / exact)
    assert sum(errors) / len(errors) < 1e-7


def test_gaussian_classes_sample_n_draws_from_their_covariance():
    """sample(n) gives n draws (a fault gave n - 1), x = mu_k + L_k z with z of d standard
    normals: Sigma = diag(1, 4), 4,000 draws of variances within 10% of 1 and 4."""
    from refml.bayes.gaussian import GaussianClasses

    model = GaussianClasses([0.5, 0.5], [[0.0, 0.0], [0.0, 0.0]],
                            [[[1.0, 0.0], [0.0, 4.0]], [[1.0, 0.0], [0.0, 4.0]]])
    X, y = model.sample(4000, random_state=3)
    assert len(X) == len(y) == 4000
    assert len(model.sample(1, random_state=0)[0]) == 1
    for j, variance in enumerate((1.0, 4.0)):
        column = [row[j] for row in X]
        mean = sum(column) / len(column)
        assert abs(sum((v - mean) ** 2 for v in column) / len(column) - variance) < 0.1 * variance


def test_the_monte_carlo_bayes_risk_draws_20000_points_by_default():
    """bayes_risk's Monte Carlo (three classes, d = 2) takes n_samples = 20,000 unless told:
    its bound is Hoeffding's at 20,000 draws and confidence 0.999 (a fault drew 20,001)."""
    from refml.bayes.gaussian import GaussianClasses

    model = GaussianClasses([0.3, 0.3, 0.4], [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]],
                            [[[1.0, 0.0], [0.0, 1.0]]] * 3)
    value, bound = model.bayes_risk(return_error=True)
    assert bound == math.sqrt(math.log(2.0 / (1.0 - 0.999)) / (2.0 * 20000))
    assert value == model.bayes_risk(n_samples=20000, random_state=0)


def test_a_covariance_asymmetric_beyond_1e_12_is_refused():
    """S_ij and S_ji may differ by 1e-12 max(1, |S_ij|), no more (a fault allowed twice that
    for entries below 2): 1.5e-12 apart at 0.5 is refused, 0.5e-12 accepted."""
    from refml.bayes.gaussian import GaussianClasses

    def model(gap):
        S = [[1.0, 0.5], [0.5 + gap, 1.0]]
        return GaussianClasses([0.5, 0.5], [[0.0, 0.0], [1.0, 1.0]], [S, S])

    with pytest.raises(ValueError, match="symmetric"):
        model(1.5e-12)
    assert model(0.5e-12).n_features == 2


def test_histogram_naive_bayes_partial_fit_counts_each_classs_rows(lib):
    """partial_fit's class counts start at 0 (a fault started them at 1, so a class with no
    row yet passed for present): a chunk without class 2 leaves the model unfitted, and
    after the rest class_count_ holds the rows of each class."""
    X, y = blobs(n=60, d=2, K=3, seed=4)
    first = [i for i in range(60) if y[i] != 2]
    model = lib.NaiveBayes(marginal="histogram", bins=4)
    model.partial_fit([X[i] for i in first], [y[i] for i in first], classes=[0, 1, 2])
    with pytest.raises(lib.NotFittedError, match="class 2 has no sample yet"):
        model.predict(X)
    rest = [i for i in range(60) if y[i] == 2]
    model.partial_fit([X[i] for i in rest], [y[i] for i in rest])
    assert [int(c) for c in model.class_count_] == [20, 20, 20]


def test_separates_compares_each_score_with_the_reference_classs_zero():
    """A point is separated when its class's score beats every other, the reference class
    scoring 0 (a fault gave it 1): class 1 scores 0.5 at x = 0.5 and -0.5 at x = -0.5."""
    from refml.linear.logistic import separates

    theta = [1.0, 0.0]                   # x~ = [x, 1]: slope 1, intercept 0, score = x
    assert separates([[0.5], [-0.5]], [1, 0], theta, 2, True)
    assert not separates([[0.5], [-0.5]], [0, 1], theta, 2, True)


def test_the_phase_one_tableau_starts_in_canonical_form():
    """The artificial columns are the identity and their reduced costs 0 (the starting basis
    in canonical form; a fault put 2 on the diagonal, which moved the duals and so the
    returned separator); each lambda column's reduced cost is minus its column sum."""
    from fractions import Fraction

    from refml.linear.separability import farkas_columns, initial_tableau

    columns = farkas_columns([[0.0, 1.0], [2.0, -1.0], [1.0, 3.0]], [1, -1, 1])
    n, m = len(columns), len(columns[0])
    tableau = initial_tableau(columns)
    for r, row in enumerate(tableau["rows"]):
        assert row[n:n + m] == [Fraction(int(k == r)) for k in range(m)]
    assert tableau["cost"][n:n + m] == [Fraction(0)] * m
    assert tableau["cost"][:n] == [-sum(column) for column in columns]
    assert tableau["basis"] == list(range(n, n + m))


def test_a_fractional_min_samples_leaf_counts_the_rows_of_positive_weight(lib):
    """min_samples_leaf = 0.25 is a quarter of the rows of positive weight, rounded up
    (documented; a fault counted the rows of weight 0 too): 4 kept rows of 8 give leaves
    of 1 row, so the single row of class 0 is split off; counted as 8, leaves of 2 rows
    could not isolate it."""
    X = [[0.0], [1.0], [2.0], [3.0], [10.0], [11.0], [12.0], [13.0]]
    y = [0, 1, 1, 1, 0, 0, 1, 1]
    weights = [1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0]
    model = lib.DecisionTreeClassifier(min_samples_leaf=0.25).fit(X, y, sample_weight=weights)
    assert as_list(model.predict([[0.0], [1.0], [3.0]])) == [0, 1, 1]


def test_a_probability_vector_may_hold_zeros():
    """Non-negative entries summing to 1: a 0 is accepted, a negative refused (a fault
    refused 0 as well)."""
    from refml.bayes.known import check_probability_vector

    assert check_probability_vector([0.0, 0.25, 0.75], "p") == [0.0, 0.25, 0.75]
    with pytest.raises(ValueError, match="non-negative"):
        check_probability_vector([-0.25, 0.5, 0.75], "p")


def test_monte_carlo_risk_of_a_rule_that_is_surely_right_is_zero():
    """The estimate is the mean of the conditional losses, summed from 0 (a fault from 1,
    which added 1 / n): two classes 60 standard deviations apart, the Bayes rule's
    conditional errors 1 - P(Y = g(x) | x) are exactly 0 on every draw."""
    from refml.bayes.gaussian import GaussianClasses
    from refml.bayes.known import monte_carlo_risk

    model = GaussianClasses([0.5, 0.5], [[0.0], [60.0]], [[[1.0]], [[1.0]]])

    def decide(X):
        return [0 if x[0] < 30.0 else 1 for x in X]

    value, _ = monte_carlo_risk(decide, model, 500, 0, 0.99)
    assert value == 0.0


def test_adaboost_fits_n_estimators_members_unless_one_is_no_better_than_chance(lib):
    """The boosting loop runs n_estimators rounds (a fault ran one fewer): stumps on two
    overlapping classes, each better than chance, none perfect."""
    X, y = blobs(n=80, d=2, K=2, seed=6)
    model = lib.AdaBoostClassifier(n_estimators=7).fit(X, y)
    assert len(model.estimators_) == 7 and len(model.estimator_weights_) == 7


def test_sgd_partial_fit_after_fit_starts_from_the_fitted_coefficients(lib):
    """After fit, partial_fit continues from theta = (coef_, intercept_) (a fault built
    that theta with a list difference, a TypeError).  With C = 0.01, fit's 200 epochs reach
    slopes of about 0.35 and 0.39; one more pass moves them by under 0.02 (the step
    restarts at C), a first pass from 0 reaches about 0.03 and 0.04."""
    X, y = blobs(n=60, d=2, K=2, seed=9)
    model = lib.LogisticRegression(solver="sgd", max_iter=200, learning_rate=0.01,
                                   random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model.fit(X, y)
        fitted = [float(v) for v in as_list(model.coef_)[0]] + [float(as_list(
            model.intercept_)[0])]
        model.partial_fit(X, y)
    after = [float(v) for v in as_list(model.coef_)[0]] + [float(as_list(model.intercept_)[0])]
    assert min(fitted[:2]) > 0.3
    assert all(abs(a - b) < 0.05 for a, b in zip(after, fitted))


def test_the_multiclass_mistake_bound_refuses_a_theta_with_a_point_on_a_boundary():
    """min_i min_k (theta_c - theta_k)'x_i must be > 0: theta = 0 puts every point on every
    boundary (0), refused with the reason (a fault let 0 through, then divided by it)."""
    from refml.perceptron.theorem import multiclass_mistake_bound

    with pytest.raises(ValueError, match="does not separate"):
        multiclass_mistake_bound([[1.0], [2.0], [3.0]], [0, 1, 2], [[0.0, 0.0]] * 3)


def test_best_split_skips_a_boundary_with_no_weight_on_one_side():
    """A row of weight 0 alone on the left is no split (documented; a fault took the
    boundary and divided by its weight 0): the split falls between the two classes."""
    from refml.tree.classifier import best_split
    from refml.tree.split import GINI

    X = [[0.0], [1.0], [2.0], [3.0]]
    split = best_split(X, [0, 0, 1, 1], [0.0, 1.0, 1.0, 1.0], [0, 1, 2, 3], [0], 2, GINI)
    assert split[:4] == (0, 1.5, [0, 1], [2, 3])


def test_a_class_constant_in_a_feature_takes_the_features_overall_spread(lib):
    """Silverman's bandwidth of a class whose feature is constant falls back to that
    feature's standard deviation over all rows, so rescaling the column by 2 (exact)
    doubles it, whatever the spread (a fault took 1.0 for every spread up to 1).  The
    constant is 0.25, whose mean over six rows is exact (0.2's left a spread of 2e-17)."""
    X = [[0.1 * i, 0.25] for i in range(6)] + [[0.3 * i, 0.05 * i] for i in range(6)]
    y = [0] * 6 + [1] * 6
    doubled = [[a, 2.0 * b] for a, b in X]
    first = lib.KernelDensityClassifier().fit(X, y).bandwidth_cholesky_[0]
    second = lib.KernelDensityClassifier().fit(doubled, y).bandwidth_cholesky_[0]
    assert as_list(first)[1][1] > 0.0
    assert as_list(second)[1][1] == 2.0 * as_list(first)[1][1]
    assert as_list(second)[0][0] == as_list(first)[0][0]


def test_the_polish_takes_up_to_three_newton_steps():
    """Newton's polish past tol: at most POLISH_STEPS = 3 unit steps, all three while each
    lowers L and max |grad| and stays large (a fault took two)."""
    def improving(theta):
        return 1.0 - 0.1 * theta[0], [1.0 / (2.0 + theta[0])]

    def unit(theta, gradient):
        return [1.0]

    assert solvers._polish(improving, unit, [0.0], 1.0, [0.5], 0, 100, []) == ([3.0], 3)


def test_an_exact_hard_margin_candidate_violating_any_margin_is_refused(monkeypatch):
    """SVC(C=inf) replaces SMO's multipliers by the exact solution of the guessed support
    only if every row, the last included, then has y f(x) >= 1 - slack (a fault checked
    all rows but the last).  The candidate here is the maximum-margin separator of the
    first two rows, which the third, last row violates."""
    import refml
    from refml.svm import smo

    monkeypatch.setattr(smo, "is_hard_margin_kkt", lambda *args: False)
    monkeypatch.setattr(smo, "exact_hard_margin", lambda *args: [0.5, 0.5, 0.0])
    X, y = [[-1.0], [1.0], [0.5]], [0, 1, 1]
    model = refml.SVC(kernel="linear", C=math.inf, tol=1e-9).fit(X, y)
    margins = [(2 * label - 1) * value for label, value in
               zip(y, model.decision_function(X))]
    assert min(margins) >= 1.0 - 1e-6
    assert model.coef_[0] == pytest.approx(4.0 / 3.0, rel=1e-6)


class _Draws(Generator):
    """A generator whose exponential draws are the given numbers, in order."""

    def __init__(self, values):
        super().__init__(0)
        self._values = list(values)

    def exponential(self):
        return self._values.pop(0)


def test_pass_fail_labels_a_total_of_exactly_seven_plus_one(lib):
    """Y = +1 iff X1 + X2 + X3 <= 7: a total of exactly 7 (2 + 2 + 3, exact in floats) is
    a pass, one just above it a fail (a fault made the boundary a fail)."""
    above = 3.0 + 2.0 ** -50                # 2 + 2 + above: the float right after 7
    X, y = lib.PassFailExample().sample(2, random_state=_Draws([2.0, 2.0, 3.0, 2.0, 2.0,
                                                                above]))
    assert as_list(X) == [[2.0, 2.0], [2.0, 2.0]] and as_list(y) == [1, -1]


def test_an_exact_hard_margin_candidate_on_the_slack_is_accepted(monkeypatch):
    """The exact hard-margin candidate is kept when its lowest margin is 1 - slack or more,
    the slack included: here the third row's margin is exactly 1.0 - HARD_MARGIN_SLACK
    (f(x) = x, b = 0, all exact), and the model is the candidate's, beta = 1 (a fault
    refused the candidate on the boundary and kept SMO's beta, 1.0000000005)."""
    import refml
    from refml.svm import smo

    edge = 1.0 - smo.HARD_MARGIN_SLACK
    monkeypatch.setattr(smo, "is_hard_margin_kkt", lambda *args: False)
    monkeypatch.setattr(smo, "exact_hard_margin", lambda *args: [0.5, 0.5, 0.0])
    model = refml.SVC(kernel="linear", C=math.inf, tol=1e-12).fit(
        [[-1.0], [1.0], [edge]], [0, 1, 1])
    assert model.coef_[0] == 1.0 and model.intercept_ == 0.0
    assert model.decision_function([[edge]])[0] == edge



def test_adaboost_probabilities_of_one_member_are_sigmoid_of_one(lib):
    """SAMME's probabilities divide the score by sum_m alpha_m whatever its size, so a
    single member's normalised score is +-1 and P = sigmoid(+-1), here with alpha_1 =
    log(2/1) = 0.69 (two of six rows misclassified; a fault divided by 1 whenever the sum
    was at most 1)."""
    X = [[-2.0], [-1.0], [-0.5], [0.5], [1.0], [2.0]]
    y = [0, 1, 0, 1, 0, 1]
    model = lib.AdaBoostClassifier(n_estimators=1).fit(X, y)
    assert as_list(model.estimator_weights_) == [pytest.approx(math.log(2.0), rel=1e-12)]
    low, high = 1.0 / (1.0 + math.exp(1.0)), 1.0 / (1.0 + math.exp(-1.0))
    for row, label in zip(as_list(model.predict_proba(X)), as_list(model.predict(X))):
        assert row == pytest.approx([high, low] if label == 0 else [low, high], abs=1e-12)


def test_far_posteriors_keep_the_determinants_factor(lib):
    """Far from the means (x = (1e200, 0), where the squared Mahalanobis distances
    overflow) the posterior comes from score differences; with Sigma_0 = I and Sigma_1 =
    diag(1, 4) both distances are equal there, so P(Y = 1 | x) / P(Y = 0 | x) =
    (det Sigma_0 / det Sigma_1)^(1/2) = 1/2, as at x = (1, 0) (a fault weighed the log
    determinants by 1 instead of 1/2 on the far path: 1/4)."""
    model = lib.GaussianClasses(priors=[0.5, 0.5], means=[[0.0, 0.0], [0.0, 0.0]],
                                covariances=[[[1.0, 0.0], [0.0, 1.0]], [[1.0, 0.0], [0.0, 4.0]]])
    assert not all(math.isfinite(s) for s in as_list(model.log_scores([1e200, 0.0])))
    for x in ([1e200, 0.0], [1.0, 0.0]):
        assert as_list(model.posterior(x)) == pytest.approx([2.0 / 3.0, 1.0 / 3.0], rel=1e-12)


def test_histogram_densities_divide_when_n_times_the_volume_is_below_one(lib):
    """f_hat = N / (n prod_j h_j) by one division also while n prod_j h_j is below 1 (here
    0.2: two rows, one bin of width 0.1): 10.0, where the logarithms' route gives
    9.999999999999998 (a fault took it for every volume up to 1)."""
    model = lib.Histogram(bins=1).fit([[0.0], [0.1]])
    width = float(model.bin_width_[0])
    assert 2 * width < 1.0
    assert float(model.pdf([[0.0]])[0]) == 2 / (2 * width) == 10.0


def test_armijo_accepts_a_decrease_of_exactly_the_fraction():
    """Armijo's test is L(theta + t delta) <= L + c t slope, equality included: a trial
    whose loss is exactly L + c slope at t = 1 (and whose gradient is larger, so the
    rounding clause does not apply) is the step taken (a fault asked for a strict
    decrease and halved to t = 1/2)."""
    loss, slope = 1.0, -1.0
    exactly = loss + solvers.ARMIJO_FRACTION * 1.0 * slope

    def objective(theta):
        return exactly, [10.0]

    accepted = solvers._backtrack(objective, solvers.ListSteps(1), [0.0], loss, [-1.0],
                                  [1.0], slope)
    assert accepted is not None and accepted[0] == [1.0]


def _integrated_bayes_risk(priors, mus, sds, low=-40.0, high=40.0, steps=400_000):
    """1 - integral of max_k pi_k N(x; mu_k, s_k^2) dx by Simpson's rule (an independent
    reckoning of the risk, for comparison with the closed form)."""
    h = (high - low) / steps
    total = 0.0
    for i in range(steps + 1):
        x = low + i * h
        best = max(p * math.exp(-0.5 * ((x - m) / s) ** 2) / (s * math.sqrt(2.0 * math.pi))
                   for p, m, s in zip(priors, mus, sds))
        total += best * (1 if i in (0, steps) else 4 if i % 2 else 2)
    return 1.0 - total * h / 3.0


def test_the_one_dimensional_bayes_risk_finds_the_crossing_of_equal_variances(lib):
    """Three classes on one feature, two of them with the same variance: their log-density
    difference is linear (A = 0), B x + C with B = mu_0/s^2 - mu_1/s^2 = 1 here, and its
    root -C/B is a boundary of the Bayes rule (a fault took B = 1 for "no root"; the risk
    then missed the boundary between the two classes).  R* agrees with 1 - integral of
    max_k pi_k N_k by Simpson's rule."""
    priors, mus, sds = [0.3, 0.3, 0.4], [1.0, 0.0, 6.0], [1.0, 1.0, 2.0]
    d = lib.GaussianClasses(priors, [[m] for m in mus], [[[s * s]] for s in sds])
    value, error = d.bayes_risk(return_error=True)
    assert error == 0.0
    assert value == pytest.approx(_integrated_bayes_risk(priors, mus, sds), abs=1e-9)


def _heights(tree, node):
    """The height of the subtree below ``node``, by recursion over the children."""
    left, right = int(tree.children_left[node]), int(tree.children_right[node])
    if left < 0:
        return 0
    return 1 + max(_heights(tree, left), _heights(tree, right))


def test_a_truncated_branch_reports_its_own_height_not_its_sibling_s(lib):
    """``to_text(max_depth=0)`` reports each child of the root as "truncated branch of
    depth h", h the height of that child's own subtree (a fault let the left child's
    subtree run on into its right sibling's, reporting the sibling's height when it was
    the larger).  Labels 0 1 0 0 1 1 0 1 1 0 on x = 0..9: the root splits at 3.5, the left
    subtree has height 2 and the right one height 3 (heights by recursion over the
    children)."""
    X = [[float(i)] for i in range(10)]
    model = lib.DecisionTreeClassifier().fit(X, [0, 1, 0, 0, 1, 1, 0, 1, 1, 0])
    tree = model.tree_
    children = int(tree.children_left[0]), int(tree.children_right[0])
    assert [_heights(tree, c) for c in children] == [2, 3]
    assert model.to_text(max_depth=0, decimals=1).splitlines() == [
        "|--- x0 <= 3.5", "|   |--- truncated branch of depth 2",
        "|--- x0 >  3.5", "|   |--- truncated branch of depth 3"]


def test_make_separable_puts_exactly_one_point_on_the_margin(lib):
    """y_i theta*'x_i = margin + e_i with e_i ~ Exp(1) for every point but one, whose e_i
    is 0: the margin is attained at exactly one point, the others lie beyond it (a fault
    put every point but one on the margin)."""
    X, y, theta = lib.make_separable(40, 3, 0.5, random_state=11, return_separator=True)
    X, y, theta = as_list(X), as_list(y), as_list(theta)
    margins = sorted(label * sum(t * v for t, v in zip(theta, x)) for x, label in zip(X, y))
    assert math.isclose(margins[0], 0.5, rel_tol=1e-12)
    assert margins[1] > 0.5 + 1e-6


def test_the_exact_hard_margin_solves_a_support_set_of_the_largest_size(monkeypatch):
    """The exact system is solved for support sets of up to HARD_MARGIN_MAX_SUPPORT points
    and refused above (a fault refused the largest size too).  With the rbf kernel at
    gamma = 1000 on points one apart, K = I exactly (exp(-1000) underflows to 0), so with
    alternating labels Q alpha + y b = 1, y'alpha = 0 gives alpha = 1 and b = 0."""
    from refml.svm import smo

    monkeypatch.setattr(smo, "HARD_MARGIN_MAX_SUPPORT", 4)
    for size, expected in ((4, [1.0] * 4), (5, None)):
        rows = [[float(i)] for i in range(size)]
        labels = [1 if i % 2 == 0 else -1 for i in range(size)]
        alpha = smo.exact_hard_margin(rows, labels, [0.5] * size, "rbf", 1000.0, 3, 0.0)
        assert alpha == (expected if expected is None else pytest.approx(expected, abs=1e-12))


@pytest.mark.parametrize("max_features, n_features, expected", [
    ("sqrt", 3, 1), ("sqrt", 4, 2), ("log2", 1, 1), ("log2", 3, 1), ("log2", 4, 2)])
def test_max_features_by_name_searches_one_feature_at_least(lib, max_features, n_features,
                                                            expected):
    """m = max(1, floor(sqrt d)) or max(1, floor(log2 d)), as scikit-learn takes them: one
    feature of three under "sqrt", one of three under "log2" (a fault took at least 2)."""
    X = [[float((i * (j + 3)) % 7) for j in range(n_features)] for i in range(12)]
    y = [i % 2 for i in range(12)]
    model = lib.DecisionTreeClassifier(max_features=max_features, random_state=0).fit(X, y)
    assert model.max_features_ == expected


def test_a_positive_multiplier_exactly_free_margin_below_c_counts_as_at_c():
    """intercept, label +1: alpha = C - tiny counts as at C (I_low only), so with no free
    multiplier beta_0 is the midpoint of [max_{I_up} v, min_{I_low} v] = [-0.5, 0.5], 0 (a
    fault put it in I_up too, raising the lower end to its v = 0.5: 0.5).  Rows: (+1, C -
    tiny, v = 0.5), (-1, C, v = -1), (+1, 0, v = -0.5), (-1, 0, v = 1)."""
    from refml.svm.svc import FREE_MARGIN, intercept

    C = 1.0
    alpha = [C - FREE_MARGIN * C, C, 0.0, 0.0]
    assert intercept(alpha, [1, -1, 1, -1], [0.5, 0.0, 1.5, -2.0], C) == 0.0


def test_the_norm_of_beta_sums_over_the_support_only():
    """||beta||^2 = sum_i alpha_i y_i f0(x_i) over alpha_i > 0: a row outside the support
    adds nothing, even where its f0 is not finite (a fault summed alpha_i >= 0 and took
    0 * inf = NaN)."""
    from refml.svm.svc import beta_norm_squared

    assert beta_norm_squared([0.0, 1.0, 0.5], [1, -1, 1], [math.inf, -2.0, 4.0]) == 4.0


def test_bagging_a_member_without_weights_on_one_row_of_positive_weight(lib):
    """Weights 0, 1, 0 leave one row to draw from: each bootstrap sample is that row, of
    one class, so every member votes its label, 1 (a fault read the sample's second label,
    which a sample of one row does not have)."""
    model = lib.BaggingClassifier(lib.KNeighborsClassifier(n_neighbors=1), n_estimators=3,
                                  random_state=0)
    model.fit([[0.0], [1.0], [2.0]], [0, 1, 1], sample_weight=[0.0, 1.0, 0.0])
    assert as_list(model.predict([[0.0], [5.0]])) == [1, 1]


def test_priors_sum_to_one_within_one_millionth(lib):
    """The priors may miss 1 by at most 1e-6 (rounding in a user's arithmetic): off by
    0.5e-6 they are taken, by 1.5e-6 refused (a fault allowed 2e-6)."""
    X, y = [[0.0], [1.0], [3.0], [4.0]], [0, 0, 1, 1]
    kept = lib.LinearDiscriminantAnalysis(priors=[0.5, 0.5 + 0.5e-6]).fit(X, y)
    assert as_list(kept.priors_) == [0.5, 0.5 + 0.5e-6]
    with pytest.raises(ValueError, match="summing to 1"):
        lib.LinearDiscriminantAnalysis(priors=[0.5, 0.5 + 1.5e-6]).fit(X, y)


def test_backtracking_takes_a_rise_of_the_loss_within_16_eps_only():
    """Near the optimum a step that fails Armijo is taken when its loss rose by at most
    16 eps |L| (rounding) and its largest gradient entry fell: a rise of 12 eps is taken
    at t = 1, one of 20 eps never, at any t (a fault allowed 32 eps)."""
    from refml.linear.logistic_solvers import EPSILON, ListSteps, _backtrack

    for rise, taken in ((12.0, True), (20.0, False)):
        def objective(theta, rise=rise):
            return 1.0 + rise * EPSILON, [0.5]

        found = _backtrack(objective, ListSteps(1), [0.0], 1.0, [1.0], [-1.0], -1e-30)
        assert (found is not None) == taken
        if taken:
            assert found == ([-1.0], 1.0 + 12.0 * EPSILON, [0.5])


def test_histogram_naive_bayes_partial_fit_bins_start_empty(lib):
    """partial_fit's bin counts start at 0 (a fault started each bin at 1): after two
    chunks, each class's counts over one feature's bins add up to its rows, and they equal
    fit's on the same rows (the first chunk holds every row, so both take its grid)."""
    X, y = blobs(n=60, d=2, K=3, seed=5)
    model = lib.NaiveBayes(marginal="histogram", bins=4)
    model.partial_fit(X, y, classes=[0, 1, 2])
    model.partial_fit(X[:12], y[:12])
    rows = [y.count(k) + y[:12].count(k) for k in range(3)]
    counts = [[[float(c) for c in as_list(bins)] for bins in per_class]
              for per_class in model.bin_counts_]
    assert [[sum(bins) for bins in per_class] for per_class in counts] == [
        [float(r)] * 2 for r in rows]
    batch = lib.NaiveBayes(marginal="histogram", bins=4).fit(X + X[:12], y + y[:12])
    assert counts == [[[float(c) for c in as_list(bins)] for bins in per_class]
                      for per_class in batch.bin_counts_]


def test_a_covariance_is_symmetric_to_a_relative_1e_12():
    """Known Gaussian classes take a covariance whose S_ij and S_ji differ by at most
    1e-12 max(1, |S_ij|): entries of 1e6 apart by 1e-7 are symmetric (a fault divided,
    allowing 1e-18), apart by 1e-5 they are not."""
    from refml.bayes.gaussian import GaussianClasses

    def covariance(gap):
        return [[4e6, 1e6 + gap], [1e6, 4e6]]

    model = GaussianClasses([0.5, 0.5], [[0.0, 0.0], [1.0, 1.0]],
                            [covariance(1e-7), covariance(0.0)])
    assert model.covariances[0][0][1] == 1e6 + 1e-7
    with pytest.raises(ValueError, match="must be symmetric"):
        GaussianClasses([0.5, 0.5], [[0.0, 0.0], [1.0, 1.0]],
                        [covariance(1e-5), covariance(0.0)])


def test_primal_feasibility_is_a_violation_never_below_zero():
    """kkt_violations' primal entry is max(0, 1 - xi_i - g_i): with C finite and g = 0.1,
    xi = 0.9 and 1 - xi - g rounds to -2.8e-17, which is no violation, 0.0 (a fault
    compared 1 + xi - g and took the negative rounding as the largest violation)."""
    from refml.svm.svc import kkt_violations

    assert 1.0 - (1.0 - 0.1) - 0.1 < 0.0
    assert kkt_violations([0.5], [1], [0.1], 0.0, 1.0)[0] == 0.0


def test_histogram_cv_risk_evaluates_the_formula_its_method_names(monkeypatch):
    """method="definition" sums the leave-one-out terms and method="closed_form" uses the
    bin counts (a fault swapped them: the same risk up to rounding, each method the other
    one's formula); both give J = 2 / ((n - 1) h) - (n + 1) / ((n - 1) h) sum_j p_j^2,
    here in exact fractions: n = 6, h = 1/4, counts 2, 1, 0, 3."""
    from fractions import Fraction

    from refml.density import histogram

    called = []
    for name in ("histogram_risk_definition", "histogram_risk_closed_form"):
        def spy(*args, _formula=getattr(histogram, name), _name=name):
            called.append(_name)
            return _formula(*args)
        monkeypatch.setattr(histogram, name, spy)
    x = [0.1, 0.15, 0.4, 0.8, 0.85, 0.9]
    n, h = 6, Fraction(1, 4)
    exact = 2 / ((n - 1) * h) - Fraction(n + 1) / ((n - 1) * h) * sum(
        Fraction(c, n) ** 2 for c in (2, 1, 0, 3))
    for method in ("definition", "closed_form"):
        called.clear()
        risk = histogram.histogram_cv_risk(x, 4, method=method)
        assert called == ["histogram_risk_" + method]
        assert risk == pytest.approx(float(exact), rel=1e-12)


def test_lda_keeps_every_feature_without_a_warning_when_only_the_rounded_pivot_failed(lib):
    """Feature 1's pivot is 3.0 > 1e-10 * Sigma_11 = 2.9999999999999996, but
    sqrt(3.0)^2 is 2.9999999999999996 too: the plain factorisation's test refuses it, the
    one that drops dependent features keeps both, and LDA uses both without a collinearity
    warning (a fault warned whenever the plain factorisation failed, naming no feature)."""
    from refml.discriminant.statistics import SINGULAR_TOLERANCE

    r, s = 173205.08074822745, 29999999999.999992
    assert s - r * r == 3.0 and math.sqrt(3.0) ** 2 <= SINGULAR_TOLERANCE * s < 3.0
    Sigma = [[1.0, r], [r, s]]
    if lib.__name__ == "refml_fast":
        import numpy as np

        Sigma = np.array(Sigma)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        L, kept = lib.LinearDiscriminantAnalysis()._factor_independent(Sigma)
    assert kept == [0, 1]
    assert as_list(L)[1][1] == math.sqrt(3.0)


@pytest.mark.fast
def test_every_public_name_takes_the_same_parameters_and_defaults_in_both_trees():
    """refml_fast promises refml's names with their meaning, defaults included: each
    chapter's public functions and estimators (their __init__) have the same signature in
    both trees (a fault changed max_margin_separator's max_iter default in refml only)."""
    import importlib
    import inspect

    from tests.test_layout import CHAPTERS

    compared = 0
    for chapter in CHAPTERS:
        reference = importlib.import_module(f"refml.{chapter}")
        fast = importlib.import_module(f"refml_fast.{chapter}")
        for name in reference.__all__:
            pair = [getattr(module, name) for module in (reference, fast)]
            if not all(callable(f) for f in pair):
                continue
            signatures = [inspect.signature(f.__init__ if inspect.isclass(f) else f)
                          for f in pair]
            assert signatures[0] == signatures[1], (chapter, name)
            compared += 1
    assert compared >= 40


def test_a_newton_step_whose_length_rounds_to_0_moves_nothing():
    """SMO's Newton step on the free multipliers is cut where the first one meets its
    bound; when that length rounds to 0 (alpha_0 = 5e-324 leaving at speed 3: a room of
    1.7e-324) no multiplier moves and no gradient changes (a fault took the step of length
    0 and set alpha_0 to its bound)."""
    from refml.svm.smo import newton_step
    from refml.svm.smo_newton import newton_direction, newton_length

    K, y = [[1.0, 0.0], [0.0, 1.0]], [1.0, 1.0]
    alpha, gradient, at_bound = [5e-324, 0.5], [0.0, -6.0], [0.0, 0.0]
    delta = newton_direction(K, y, gradient)
    assert delta[0] < -2.0 and newton_length([0, 1], gradient, delta, alpha, 1.0) == (0.0, 0)
    newton_step([0, 1], lambda s: K[s], alpha, gradient, at_bound, y, 1.0, 1000)
    assert alpha == [5e-324, 0.5] and gradient == [0.0, -6.0] and at_bound == [0.0, 0.0]


def test_a_range_of_zero_width_is_refused_as_an_invalid_range(lib):
    """range=(a, a) holds no bin: the histogram and its cross-validated risk refuse it with
    the range's own message, low < high (a fault took low <= high)."""
    message = r"Invalid parameter range=\(1.0, 1.0\): must be None, a pair \(low, high\) with low"
    with pytest.raises(ValueError, match=message):
        lib.Histogram(range=(1.0, 1.0)).fit([[1.0], [1.0]])
    with pytest.raises(ValueError, match=message):
        lib.histogram_cv_risk([0.2, 1.0, 0.6], 4, range=(1.0, 1.0))


def test_a_histogram_cell_of_one_training_point_has_a_finite_log_density(lib):
    """log f_hat(x) = log(N_cell / (n h)) wherever the cell holds a training point, one
    included; -inf only in empty cells (a fault gave -inf to cells of one point)."""
    model = lib.Histogram(bins=2).fit([[0.0], [3.0], [3.5], [4.0]])   # cells [0, 2), [2, 4]
    scores = as_list(model.score_samples([[0.5], [3.2], [9.0]]))
    assert scores[0] == math.log(1.0 / (4 * 2.0))
    assert scores[1] == math.log(3.0 / (4 * 2.0))
    assert scores[2] == -math.inf


def test_an_exact_hard_margin_with_its_last_multiplier_negative_is_refused():
    """The exact system on the support set {0, 1, 2} solves to alpha = (0.594, 0.530,
    -0.065): not a dual point, so no candidate (a fault checked the signs of all but the
    last multiplier and returned it)."""
    from refml.svm.smo import exact_hard_margin

    rows = [[1.2, -1.4], [1.8, 0.5], [-2.4, -1.1]]
    assert exact_hard_margin(rows, [1, -1, 1], [0.5, 0.5, 0.5], "linear", 1.0, 3, 0.0) is None
    # the same set with its points reordered: the negative multiplier first, still refused
    reordered = [rows[2], rows[0], rows[1]]
    assert exact_hard_margin(reordered, [1, 1, -1], [0.5, 0.5, 0.5], "linear", 1.0, 3,
                             0.0) is None


def test_a_polish_step_that_keeps_the_largest_gradient_entry_is_taken():
    """Newton's polish keeps a step that increases neither L beyond its rounding nor the
    largest |gradient| entry, so one that leaves that entry equal is taken (a fault
    refused it and stopped the polish at its first step)."""
    curve = []
    theta, n_iter = solvers._polish(
        lambda theta: (1.0, [0.5, -0.25]),            # the same loss, the same max |g|
        lambda theta, gradient: [0.125, 0.0],
        [1.0, 2.0], 1.0, [-0.5, 0.25], 0, 100, curve)
    assert n_iter == solvers.POLISH_STEPS and len(curve) == solvers.POLISH_STEPS
    assert theta == [1.0 + 0.125 * solvers.POLISH_STEPS, 2.0]


def test_a_covariance_asymmetric_by_exactly_the_tolerance_is_accepted(lib):
    """A covariance is symmetric when |S_ij - S_ji| <= 1e-12 max(1, |S_ij|): an asymmetry
    of exactly that is accepted, twice that refused (a fault refused the first)."""
    lib.GaussianClasses([1.0], [[0.0, 0.0]], [[[1.0, 0.0], [1e-12, 1.0]]])
    with pytest.raises(ValueError, match="symmetric"):
        lib.GaussianClasses([1.0], [[0.0, 0.0]], [[[1.0, 0.0], [2e-12, 1.0]]])


def test_a_right_side_whose_weight_rounds_to_zero_is_no_threshold(lib):
    """A threshold whose side holds rows but no weight in floats (1e-20 next to 1.0 is lost
    in the class total) is skipped, not costed: the tree splits where both sides weigh
    something (a fault costed the empty side and divided by its zero weight)."""
    model = lib.DecisionTreeClassifier().fit([[0.0], [1.0], [2.0]], [1, 0, 0],
                                             sample_weight=[1.0, 1.0, 1e-20])
    assert as_list(model.tree_.feature)[0] == 0
    assert as_list(model.tree_.threshold)[0] == 0.5
    assert as_list(model.predict([[0.0], [1.0], [2.0]])) == [1, 0, 0]


def test_the_perceptrons_early_stop_is_the_same_on_data_scaled_by_a_power_of_two(lib):
    """With a constant step, data scaled by s = 2^-70 (exactly, in floats) scale theta by
    s and each pass's perceptron loss by s^2; with tol scaled by s^2 the early stop
    comes at the same pass and theta is theta * s, bit for bit (a fault started each pass's
    loss at 1.0 instead of 0, which hid every loss of the scaled run)."""
    X, y = blobs(n=80, d=2, seed=5)
    X = [[a - 0.75, b - 0.75] for a, b in X]          # overlapping: mistakes every pass
    s = 2.0 ** -70
    settings = dict(fit_intercept=False, n_iter_no_change=2, max_iter=60)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        plain = lib.Perceptron(tol=1e-3, **settings).fit(X, y)
        scaled = lib.Perceptron(tol=1e-3 * s * s, **settings).fit(
            [[s * a for a in row] for row in X], y)
    assert 2 < plain.n_iter_ < 60 and not plain.converged_
    assert scaled.n_iter_ == plain.n_iter_
    assert as_list(scaled.coef_) == [s * c for c in as_list(plain.coef_)]
