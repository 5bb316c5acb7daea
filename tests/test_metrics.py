"""accuracy_score and bias_variance_decomposition (refml.core.metrics), values by hand.

Floats: math.isclose with rel_tol 1e-12 (every value below is a short sum of exact binary
fractions).
"""

import math

import pytest

from tests.helpers import as_list

# Two training sets Z_1, Z_2 (rows) predicting at two test points (columns), with the
# observed targets and the regression function y* at those points.  By hand:
#   mean_Z y_Z = (2, 3)
#   total    = ((2-1)^2 + (5-2)^2 + (2-3)^2 + (5-4)^2) / 4 = 3
#   noise    = ((2-1.5)^2 + (5-3)^2) / 2                   = 2.125
#   bias     = ((1.5-2)^2 + (3-3)^2) / 2                   = 0.125
#   variance = ((1-2)^2 + (2-3)^2 + (3-2)^2 + (4-3)^2) / 4 = 1
#   cross    = 2 ((2-1.5)(1.5-2) + (5-3)(3-3)) / 2         = -0.25
PREDICTIONS = [[1.0, 2.0], [3.0, 4.0]]
TARGETS = [2.0, 5.0]
OPTIMAL = [1.5, 3.0]
BY_HAND = {"total": 3.0, "noise": 2.125, "bias": 0.125, "variance": 1.0, "cross": -0.25}


def test_accuracy_counts_equal_positions(lib):
    assert lib.accuracy_score(["a", "b", "c", "a"], ["a", "c", "c", "b"]) == 0.5
    assert lib.accuracy_score([1, 2, 3], [1, 2, 3]) == 1.0
    assert lib.accuracy_score([True, False], [False, True]) == 0.0


def test_accuracy_equals_score_of_a_fitted_classifier(lib):
    X = [[0.0], [1.0], [2.0], [3.0]]
    y = [0, 0, 1, 1]
    model = lib.KNeighborsClassifier(n_neighbors=1).fit(X, y)
    queries, truth = [[0.4], [1.6], [2.4], [0.6]], [0, 0, 1, 1]
    assert as_list(model.predict(queries)) == [0, 1, 1, 0]   # nearest: 0, 2, 2, 1
    assert lib.accuracy_score(truth, model.predict(queries)) == 0.5
    assert model.score(queries, truth) == 0.5


def test_accuracy_rejects_bad_input(lib):
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        lib.accuracy_score([1, 2, 3], [1, 2])
    with pytest.raises(ValueError, match="0 sample"):
        lib.accuracy_score([], [])


def test_bias_variance_decomposition_by_hand(lib):
    parts = lib.bias_variance_decomposition(PREDICTIONS, TARGETS, OPTIMAL)
    assert set(parts) == set(BY_HAND)
    for name, value in BY_HAND.items():
        assert math.isclose(parts[name], value, rel_tol=1e-12, abs_tol=1e-15), name


def test_bias_variance_without_noise_has_no_cross_term(lib):
    # targets equal to y*: noise and cross vanish, total = bias + variance exactly
    parts = lib.bias_variance_decomposition(PREDICTIONS, OPTIMAL, OPTIMAL)
    assert parts["noise"] == 0.0 and parts["cross"] == 0.0
    assert math.isclose(parts["total"], 0.125 + 1.0, rel_tol=1e-12)


def test_bias_variance_rejects_inconsistent_shapes(lib):
    for predictions, targets, optimal in (([], [1.0], [1.0]), ([[1.0, 2.0], [1.0]], [1.0, 2.0],
                                          [1.0, 2.0]), ([[1.0]], [1.0], [1.0, 2.0])):
        with pytest.raises(ValueError, match="inconsistent shapes"):
            lib.bias_variance_decomposition(predictions, targets, optimal)
