"""The margin losses of [MATH412] and the empirical risk, in both packages."""

import math

import pytest

from tests.helpers import as_list

# Margins chosen to hit each loss's kink: m = 0 (0-1 and perceptron), m = 1 (hinge), and
# points on both sides.  Expected values are written by hand from the lecture's formulas.
MARGINS = [-2.0, -0.5, 0.0, 0.5, 1.0, 3.0]
EXPECTED = {
    "zero_one_loss": [1.0, 1.0, 1.0, 0.0, 0.0, 0.0],         # 1{m <= 0}
    "square_loss": [9.0, 2.25, 1.0, 0.25, 0.0, 4.0],          # (1 - m)^2
    "perceptron_loss": [2.0, 0.5, 0.0, 0.0, 0.0, 0.0],        # max(-m, 0)
    "hinge_loss": [3.0, 1.5, 1.0, 0.5, 0.0, 0.0],             # max(1 - m, 0)
}
NAMES = ["zero_one_loss", "square_loss", "logistic_loss", "perceptron_loss", "hinge_loss"]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_piecewise_losses_at_hand_computed_margins(lib, name):
    loss = getattr(lib, name)
    assert [loss(m) for m in MARGINS] == EXPECTED[name]
    assert as_list(loss(MARGINS)) == EXPECTED[name]


def test_logistic_loss_values(lib):
    # log(1 + e^0) = log 2; log(1 + e^{-1}); log(1 + e^{2}): literals from a calculator
    for m, expected in [(0.0, 0.6931471805599453), (1.0, 0.31326168751822286),
                        (-2.0, 2.1269280110429727)]:
        assert math.isclose(lib.logistic_loss(m), expected, rel_tol=1e-15)


def test_logistic_loss_does_not_overflow_for_large_margins(lib):
    # e^{-m} overflows a float for m < -709.8; the stable form never evaluates it.
    assert lib.logistic_loss(-1000.0) == 1000.0
    assert lib.logistic_loss(-1e300) == 1e300
    assert lib.logistic_loss(1000.0) == 0.0
    assert math.isclose(lib.logistic_loss(40.0), 4.248354255291589e-18, rel_tol=1e-12)
    assert lib.logistic_loss(math.inf) == 0.0 and lib.logistic_loss(-math.inf) == math.inf


@pytest.mark.parametrize("name", NAMES)
def test_score_and_label_form_equals_the_margin_form(lib, name):
    loss = getattr(lib, name)
    scores = [-1.5, -0.25, 0.0, 0.75, 2.0]
    for a in scores:
        for y in (-1, 1):
            assert loss(a, y) == loss(y * a)
    labels = [1, -1, 1, -1, -1]
    assert as_list(loss(scores, labels)) == [loss(y * a) for a, y in zip(scores, labels)]


def test_zero_one_loss_of_labels_is_the_disagreement_indicator(lib):
    # [MATH412]: for a, y in {-1, +1}, 1{a y <= 0} = 1{a != y}
    for a in (-1, 1):
        for y in (-1, 1):
            assert lib.zero_one_loss(a, y) == (1.0 if a != y else 0.0)


def test_surrogates_upper_bound_the_zero_one_loss(lib):
    # [MATH412] "Comparing losses": hinge, square and logistic / log 2 lie above 1{m <= 0}
    for i in range(-400, 401):
        m = i / 100
        zero_one = lib.zero_one_loss(m)
        assert lib.hinge_loss(m) >= zero_one
        assert lib.square_loss(m) >= zero_one
        assert lib.logistic_loss(m) / math.log(2) >= zero_one - 1e-15
        assert lib.perceptron_loss(m) <= lib.hinge_loss(m)


def test_empirical_risk_is_the_mean_loss(lib):
    scores, labels = [2.0, -1.0, 0.5, -3.0], [1, 1, -1, -1]
    # margins 2, -1, -0.5, 3: hinge losses 0, 2, 1.5, 0
    assert lib.empirical_risk(lib.hinge_loss, scores, labels) == 3.5 / 4
    assert lib.empirical_risk(lib.zero_one_loss, [2.0, -1.0, -0.5, 3.0]) == 0.5
    assert lib.empirical_risk(lambda m: m * m, [1.0, 3.0]) == 5.0


@pytest.mark.fast
def test_fast_losses_return_arrays_and_accept_numpy():
    import numpy as np

    import refml_fast

    out = refml_fast.hinge_loss(np.array([0.0, 2.0]), np.array([1.0, -1.0]))
    assert isinstance(out, np.ndarray) and out.tolist() == [1.0, 3.0]
    assert isinstance(refml_fast.hinge_loss(np.float64(0.5)), float)


def test_bad_input_is_refused_clearly(lib):
    with pytest.raises(ValueError, match="-1 or \\+1"):
        lib.hinge_loss(1.0, 0)
    with pytest.raises(ValueError, match="NaN"):
        lib.logistic_loss(float("nan"))
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        lib.square_loss([1.0, 2.0], [1])
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        lib.empirical_risk(lib.square_loss, [1.0, 2.0], [1])
    with pytest.raises(ValueError, match="0 sample"):
        lib.empirical_risk(lib.square_loss, [])
    with pytest.raises(ValueError, match="number"):
        lib.zero_one_loss("a")
    with pytest.raises(TypeError, match="complex"):
        lib.zero_one_loss(1j)
