"""What every known distribution of this chapter shares: checks of its parameters, and risks
estimated from draws (Monte Carlo, with Hoeffding's bound on the error).
"""

import math

from refml.bayes.decision import decision_index, expected_losses
from refml.core import linalg, validation

PROBABILITY_TOLERANCE = 1e-9


def hoeffding_bound(n, confidence, value_range=1.0):
    """t with P(|mean of n iid draws in an interval of length r - expectation| >= t) <= 1 - c.

    Hoeffding's inequality: P(|mean - E| >= t) <= 2 exp(-2 n t^2 / r^2), so
    t = r sqrt(log(2 / (1 - c)) / (2 n)).
    """
    return value_range * math.sqrt(math.log(2.0 / (1.0 - confidence)) / (2.0 * n))


def check_dimension(found, expected):
    """A point x must have the distribution's dimension d."""
    if found != expected:
        raise ValueError(f"x has {found} features, but the distribution is over "
                         f"{expected} features")


def check_sample_size(n, name="n"):
    return validation.check_scalar(n, name, "int", low=1)


def check_confidence(confidence):
    return validation.check_scalar(confidence, "confidence", "real", low=0.0, high=1.0,
                                   low_open=True, high_open=True)


def check_probability_vector(values, name):
    """A list of non-negative floats summing to 1 (to within 1e-9)."""
    values = validation.as_matrix([values], name=name)[0]
    for value in values:
        if value < 0.0:
            raise ValueError(f"{name} must be non-negative, found {value!r}")
    total = linalg.total(values)
    if abs(total - 1.0) > PROBABILITY_TOLERANCE:
        raise ValueError(f"{name} must sum to 1 (to within {PROBABILITY_TOLERANCE}), "
                         f"they sum to {total!r}")
    return values


def check_classes(classes, n_classes, what):
    """The class labels (default 0..K-1) and the order that sorts them."""
    if classes is None:
        return list(range(n_classes)), list(range(n_classes))
    labels = validation.as_labels(classes)
    if len(labels) != n_classes:
        raise ValueError(f"classes has {len(labels)} labels but {what} has {n_classes}")
    if len(set(labels)) != len(labels):
        raise ValueError(f"classes must be distinct, got {labels!r}")
    order = sorted(range(n_classes), key=lambda k: labels[k])
    return [labels[k] for k in order], order


def monte_carlo_bayes_risk(distribution, n_samples, random_state, confidence):
    """(estimate, bound) of R* = E[1 - max_k eta_k(X)] from n_samples draws of X.

    Each term 1 - max_k eta_k(X_i) lies in [0, 1]: Hoeffding's bound at ``confidence``.
    """
    check_sample_size(n_samples, "n_samples")
    check_confidence(confidence)
    X, _ = distribution.sample(n_samples, random_state)
    total = 0.0
    for probabilities in distribution._posterior_rows(X):
        total += 1.0 - max(probabilities)
    return float(total / n_samples), hoeffding_bound(n_samples, confidence)


def monte_carlo_risk(decide, distribution, n_samples, random_state, confidence, loss=None):
    """(estimate, bound) of the risk of the rule X -> ``decide(X)`` (labels), from
    n_samples draws of X: the mean of the conditional losses, 1 - P(Y = g(X_i) | X_i) under
    the 0-1 loss, sum_k L[k][g(X_i)] P(Y = k | X_i) under a loss matrix; Hoeffding's bound
    scaled by the range of the loss."""
    check_sample_size(n_samples, "n_samples")
    check_confidence(confidence)
    X, _ = distribution.sample(n_samples, random_state)
    predictions = list(decide(X))
    code = {label: k for k, label in enumerate(distribution.classes)}
    total = 0.0
    for prediction, probabilities in zip(predictions, distribution._posterior_rows(X)):
        k = code.get(prediction)
        if loss is None:
            total += 1.0 if k is None else 1.0 - probabilities[k]
        else:
            total += expected_losses(probabilities, loss)[decision_index(k, prediction)]
    spread = 1.0 if loss is None else max(max(r) for r in loss) - min(min(r) for r in loss)
    return float(total / n_samples), hoeffding_bound(n_samples, confidence, max(spread, 0.0))
