"""The Bayes rule, the plug-in rule and the risk, in both packages."""

import math

import pytest

from tests.estimators import X3, Y3
from tests.helpers import as_list

# Four points, three classes, built for the tie rules:
#   (0,0): 0.2 / 0.05 / 0.05   class 0 wins
#   (1,0): 0.1 / 0.1  / 0.05   classes 0 and 1 tie -> the first, 0
#   (0,1): 0.0 / 0.1  / 0.1    classes 1 and 2 tie -> 1
#   (1,1): 0.0 / 0.05 / 0.2    class 2 wins
POINTS = [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
TABLE3 = [[0.2, 0.05, 0.05], [0.1, 0.1, 0.05], [0.0, 0.1, 0.1], [0.0, 0.05, 0.2]]
# Two classes "no" < "yes": eta = P(yes | x) is 0.8, 0.5 (a tie: the lecture's >= gives
# "yes"), 0.25, and the point (1, 1) has mass 0 (prior: P(yes) = 0.5 -> "yes").
TABLE2 = [[0.1, 0.4], [0.15, 0.15], [0.15, 0.05], [0.0, 0.0]]


class LinearRule:
    """A fitted linear classifier stub: classes_[1] iff w'x + b > 0 (or lying about it)."""

    def __init__(self, w, b, classes=(0, 1), lie=False):
        self.coef_, self.intercept_, self.classes_ = [list(w)], [b], list(classes)
        self.lie = lie

    def predict(self, X):
        out = []
        for x in X:
            positive = sum(a * v for a, v in zip(self.coef_[0], x)) + self.intercept_[0] > 0
            out.append(self.classes_[int(positive != self.lie)])
        return out


def test_bayes_multiclass_argmax_with_ties_to_the_first_class(lib):
    d = lib.FiniteDistribution(POINTS, TABLE3, classes=["a", "b", "c"])
    model = lib.BayesClassifier(distribution=d).fit(POINTS, ["a", "b", "c", "c"])
    assert as_list(model.predict(POINTS)) == ["a", "a", "b", "c"]
    assert list(model.classes_) == ["a", "b", "c"] and model.n_features_in_ == 2
    proba = as_list(model.predict_proba([[1.0, 1.0]]))
    assert proba[0] == pytest.approx([0.0, 0.2, 0.8], rel=1e-12)


def test_bayes_binary_tie_goes_to_the_second_class_and_off_support_to_the_prior(lib):
    d = lib.FiniteDistribution(POINTS, TABLE2, classes=["no", "yes"])
    model = lib.BayesClassifier(distribution=d).fit(POINTS, ["no", "yes", "no", "yes"])
    assert as_list(model.predict(POINTS + [[5.0, 5.0]])) == ["yes", "yes", "no", "yes", "yes"]
    # risk of the Bayes rule: 0.1 + 0.15 + 0.05 = 0.3 = bayes_risk
    assert math.isclose(lib.risk(model, d), 0.3, rel_tol=1e-12)
    assert math.isclose(d.bayes_risk(), 0.3, rel_tol=1e-12)


def test_bayes_fit_records_the_distribution_classes_and_checks_the_data(lib):
    d = lib.FiniteDistribution(POINTS, TABLE3)
    model = lib.BayesClassifier(distribution=d).fit(POINTS[:2], [0, 2])
    assert list(model.classes_) == [0, 1, 2]
    with pytest.raises(ValueError, match="not classes of the distribution"):
        lib.BayesClassifier(distribution=d).fit(POINTS, [0, 1, 2, 5])
    with pytest.raises(ValueError, match="distribution"):
        lib.BayesClassifier(distribution=d).fit([[0.0], [1.0]], [0, 1])
    with pytest.raises(ValueError, match="distribution"):
        lib.BayesClassifier().fit(POINTS, [0, 1, 2, 2])
    unfitted = lib.BayesClassifier(distribution=d)
    with pytest.raises(ValueError):
        unfitted.fit(POINTS, [0, 1, 2, 5])
    assert not [a for a in vars(unfitted) if a.endswith("_")]


def test_bayes_rule_of_the_pass_fail_example_is_the_threshold_rule(lib):
    p = lib.PassFailExample()
    grid = [[i / 4, j / 4] for i in range(0, 40) for j in range(0, 40)]
    model = lib.BayesClassifier(distribution=p).fit([[0.0, 0.0], [9.0, 9.0]], [1, -1])
    expected = [1 if x1 + x2 <= 7 - math.log(2) else -1 for x1, x2 in grid]
    assert as_list(model.predict(grid)) == expected


def test_bayes_rule_of_gaussian_classes(lib):
    # equal variances and priors: the boundary is the midpoint 1.0
    d = lib.GaussianClasses([0.5, 0.5], [[0.0], [2.0]], [[[1.0]], [[1.0]]], classes=[-1, 1])
    model = lib.BayesClassifier(distribution=d).fit([[0.0], [2.0]], [-1, 1])
    assert as_list(model.predict([[-3.0], [0.9], [1.1], [40.0]])) == [-1, -1, 1, 1]
    # equal covariances: the Bayes rule is the line x = 1, so its risk is exact, Phi(-1)
    value, error = lib.risk(model, d, n_samples=2000, return_error=True)
    assert error == 0.0 and math.isclose(value, 0.15865525393145707, rel_tol=1e-12)
    # unequal variances: Monte Carlo, within its Hoeffding bound of the exact 1-D risk
    wide = lib.GaussianClasses([0.5, 0.5], [[0.0], [2.0]], [[[1.0]], [[4.0]]])
    value, error = lib.risk(lib.BayesClassifier(distribution=wide), wide, n_samples=2000,
                            return_error=True)
    assert 0.0 < error < 0.05 and abs(value - wide.bayes_risk()) <= error


def test_risk_of_a_linear_rule_under_gaussians_is_exact(lib):
    # Sigma = I, mu_0 = 0, mu_1 = (2, 0), priors 1/4, 3/4: the Bayes rule is linear,
    # w = Sigma^{-1}(mu_1 - mu_0) = (2, 0), b = -(1/2)(mu_1'mu_1) + log(pi_1 / pi_0) = -2 + log 3
    identity = [[1.0, 0.0], [0.0, 1.0]]
    d = lib.GaussianClasses([0.25, 0.75], [[0.0, 0.0], [2.0, 0.0]], [identity, identity])
    lda = LinearRule([2.0, 0.0], -2.0 + math.log(3.0))
    value, error = lib.risk(lda, d, return_error=True)
    assert error == 0.0 and math.isclose(value, d.bayes_risk(), rel_tol=1e-12)
    # the rule x1 > 0: errs with P(X1 > 0 | Y = 0) = 1/2 and P(X1 < 0 | Y = 1) = Phi(-2)
    expected = 0.25 * 0.5 + 0.75 * 0.5 * math.erfc(2 / math.sqrt(2))
    assert math.isclose(lib.risk(LinearRule([1.0, 0.0], 0.0), d), expected, rel_tol=1e-12)


def test_risk_falls_back_to_monte_carlo_when_the_linear_form_is_not_confirmed(lib):
    identity = [[1.0, 0.0], [0.0, 1.0]]
    d = lib.GaussianClasses([0.5, 0.5], [[0.0, 0.0], [2.0, 0.0]], [identity, identity])
    liar = LinearRule([1.0, 0.0], -1.0, lie=True)  # predicts the opposite of its coef_
    value, error = lib.risk(liar, d, n_samples=3000, return_error=True)
    # the opposite of the Bayes rule errs with probability 1 - Phi(-1) = 0.8413
    assert error == pytest.approx(math.sqrt(math.log(2000) / 6000), rel=1e-12)
    assert abs(value - (1 - 0.15865525393145707)) <= error


def test_monte_carlo_risk_of_the_pass_fail_bayes_rule(lib):
    p = lib.PassFailExample()
    model = lib.BayesClassifier(distribution=p).fit([[0.0, 0.0], [9.0, 9.0]], [1, -1])
    value, error = lib.risk(model, p, n_samples=4000, random_state=1, return_error=True)
    assert abs(value - p.bayes_risk()) <= error
    assert error == pytest.approx(math.sqrt(math.log(2000) / 8000), rel=1e-12)
    with pytest.raises(TypeError):
        lib.risk(model, object())


def test_plug_in_with_a_known_posterior_and_its_tie(lib):
    def eta_hat(x):  # P(Y = 1 | x) estimated as 0.5 on the diagonal, else by the sign
        value = 0.5 if x[0] == x[1] else (0.9 if x[0] > x[1] else 0.2)
        return [1.0 - value, value]

    model = lib.PlugInClassifier(posterior=eta_hat).fit(POINTS, [0, 1, 0, 1])
    assert as_list(model.predict(POINTS)) == [1, 1, 0, 1]
    assert as_list(model.predict_proba([[2.0, 1.0]]))[0] == pytest.approx([0.1, 0.9])


def test_plug_in_default_is_one_nearest_neighbour(lib):
    model = lib.PlugInClassifier().fit(X3, Y3)
    one_nn = lib.KNeighborsClassifier(n_neighbors=1).fit(X3, Y3)
    queries = [[0.4, 0.2], [3.6, 3.1], [0.2, 3.8], [2.0, 2.0]]
    assert as_list(model.predict(queries)) == as_list(one_nn.predict(queries))
    assert as_list(model.predict(X3)) == Y3
    assert as_list(model.predict_proba([[0.1, 0.1]])) == [[1.0, 0.0, 0.0]]


def test_plug_in_clones_and_fits_the_given_estimator(lib):
    template = lib.KNeighborsClassifier(n_neighbors=3)
    model = lib.PlugInClassifier(estimator=template).fit(X3, Y3)
    assert model.estimator_ is not template and not hasattr(template, "classes_")
    expected = as_list(lib.KNeighborsClassifier(n_neighbors=3).fit(X3, Y3).predict_proba(X3))
    assert as_list(model.predict_proba(X3)) == expected


def test_plug_in_refuses_bad_parameters(lib):
    with pytest.raises(ValueError, match="not both"):
        lib.PlugInClassifier(estimator=lib.KNeighborsClassifier(),
                             posterior=lambda x: [0.5, 0.5]).fit(POINTS, [0, 1, 0, 1])
    with pytest.raises(ValueError, match="posterior"):
        lib.PlugInClassifier(posterior=3).fit(POINTS, [0, 1, 0, 1])
    model = lib.PlugInClassifier(posterior=lambda x: [1.0]).fit(POINTS, [0, 1, 0, 1])
    with pytest.raises(ValueError, match="one per class"):
        model.predict(POINTS)


def test_theorem_2_2_as_printed_is_false_and_the_proved_form_holds(lib):
    # Two points of mass 1/2; eta = (0.6, 0.4), eta_hat = (0.4, 0.6): both decisions flip.
    d = lib.FiniteDistribution([[0.0], [1.0]], [[0.2, 0.3], [0.3, 0.2]])
    bayes = lib.BayesClassifier(distribution=d).fit([[0.0], [1.0]], [0, 1])
    flipped = {0.0: 0.4, 1.0: 0.6}
    plug_in = lib.PlugInClassifier(posterior=lambda x: [1 - flipped[x[0]], flipped[x[0]]])
    plug_in.fit([[0.0], [1.0]], [0, 1])
    excess = lib.risk(plug_in, d) - lib.risk(bayes, d)
    assert math.isclose(excess, 0.2, rel_tol=1e-12)
    # printed: excess < 2 |E[eta - eta_hat]| = 2 |0.5 (0.2) + 0.5 (-0.2)| = 0: false
    assert not excess < 0.0
    # proved (eq. 2.22): excess <= 2 E|eta - eta_hat| = 0.4: true
    assert excess <= 0.4
    # and with eta_hat = eta the strict "<" fails: 0 < 0
    exact = lib.PlugInClassifier(posterior=lambda x: list(d.posterior(x))).fit([[0.0], [1.0]],
                                                                              [0, 1])
    assert lib.risk(exact, d) - lib.risk(bayes, d) == 0.0


# --- a general loss ([Yan]) -----------------------------------------------------------

SIGN_POINTS = [[0.0], [1.0], [2.0]]
SIGN_TABLE = [[0.2, 0.1], [0.15, 0.15], [0.05, 0.35]]
SIGN_LOSS = [[0.0, 1.0], [10.0, 0.0]]     # reading "go" at a stop sign costs 10, the reverse 1


def test_loss_matrix_bayes_rule_and_risk_by_hand(lib):
    """Expected losses at x = 0: decide go 10 * 0.1 = 1.0, stop 1 * 0.2 = 0.2 -> stop; at
    x = 1: 1.5 vs 0.15 -> stop; at x = 2: 3.5 vs 0.05 -> stop.  R_L = 0.2 + 0.15 + 0.05 = 0.4;
    the 0-1 rule says go at x = 0 and pays 10 * 0.1 + 0.15 + 0.05 = 1.2 under L."""
    d = lib.FiniteDistribution(SIGN_POINTS, SIGN_TABLE, classes=["go", "stop"])
    rule = lib.BayesClassifier(distribution=d, loss=SIGN_LOSS)
    assert as_list(rule.predict(SIGN_POINTS)) == ["stop", "stop", "stop"]
    assert math.isclose(lib.risk(rule, d, loss=SIGN_LOSS), 0.4, rel_tol=1e-12)
    assert math.isclose(d.bayes_risk(loss=SIGN_LOSS), 0.4, rel_tol=1e-12)
    zero_one = lib.BayesClassifier(distribution=d)
    assert as_list(zero_one.predict(SIGN_POINTS)) == ["go", "stop", "stop"]
    assert math.isclose(lib.risk(zero_one, d, loss=SIGN_LOSS), 1.2, rel_tol=1e-12)
    assert math.isclose(lib.risk(zero_one, d), 0.3, rel_tol=1e-12)


def test_loss_matrix_bayes_risk_of_gaussian_classes_in_closed_form(lib):
    """N(0, 1) vs N(2, 1), priors 1/2, L01 = 1, L10 = 5: decide 1 iff 2x - 2 >= log(1/5),
    x >= t = 1 + log(0.2)/2; R_L = 0.5 (1 - Phi(t)) + 2.5 Phi(t - 2)."""
    d = lib.GaussianClasses([0.5, 0.5], [[0.0], [2.0]], [[[1.0]], [[1.0]]])
    loss = [[0.0, 1.0], [5.0, 0.0]]
    t = 1.0 + math.log(0.2) / 2.0
    phi = lambda z: 0.5 * math.erfc(-z / math.sqrt(2.0))  # noqa: E731
    expected = 0.5 * (1.0 - phi(t)) + 2.5 * phi(t - 2.0)
    value, error = d.bayes_risk(loss=loss, return_error=True)
    assert error == 0.0 and math.isclose(value, expected, rel_tol=1e-12)
    rule = lib.BayesClassifier(distribution=d, loss=loss)         # no fit needed
    assert math.isclose(lib.risk(rule, d, loss=loss), expected, rel_tol=1e-12)


@pytest.mark.parametrize("loss", [[[0.0, 1.0]], [[0.0, 1.0], [1.0, "x"]],
                                  [[0.0, 1.0], [float("inf"), 0.0]], 3.0])
def test_a_bad_loss_matrix_is_refused(lib, loss):
    d = lib.FiniteDistribution(SIGN_POINTS, SIGN_TABLE)
    with pytest.raises(ValueError, match="loss"):
        lib.BayesClassifier(distribution=d, loss=loss).predict(SIGN_POINTS)
    with pytest.raises(ValueError, match="loss"):
        lib.risk(lib.BayesClassifier(distribution=d), d, loss=loss)
