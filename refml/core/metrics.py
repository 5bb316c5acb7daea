"""Accuracy and the bias-variance decomposition ([NN-Notes], section on decompositions)."""

from refml.core import linalg, validation


def accuracy_score(y_true, y_pred):
    """The fraction of positions where y_pred equals y_true: 1 - empirical 0-1 risk."""
    truth = validation.as_labels(y_true)
    predicted = validation.as_labels(y_pred)
    validation.check_consistent_length(len(truth), len(predicted))
    if not truth:
        raise ValueError("accuracy_score needs at least 1 sample, found 0 sample(s)")
    correct = 0
    for a, b in zip(truth, predicted):
        if a == b:
            correct += 1
    return correct / len(truth)


def bias_variance_decomposition(predictions, targets, optimal):
    """Split the mean squared error of a learning method into noise, bias and variance.

    [NN-Notes], "bias-variance decompositions":
        E_Z E_{x,y} (y - y_Z(x))^2 = E (y - y*(x))^2            noise
                                   + E_x (y*(x) - E_Z y_Z(x))^2   bias (squared)
                                   + E_x E_Z (y_Z(x) - E_Z y_Z(x))^2   variance.

    Parameters
    ----------
    predictions : predictions[r][i], the prediction at test point i of the model fitted on
        the r-th training set Z_r.
    targets : targets[i], the observed y at test point i.
    optimal : optimal[i] = y*(x_i) = E[Y | X = x_i], the regression function.

    Returns a dict with ``total``, ``noise``, ``bias``, ``variance`` and ``cross``: the
    sample average of 2 (y - y*)(y* - mean_Z y_Z), which has expectation 0 and makes
    ``total = noise + bias + variance + cross`` hold exactly on any finite sample.
    """
    n_sets, n_points = len(predictions), len(targets)
    if n_sets == 0 or n_points == 0 or any(len(row) != n_points for row in predictions) \
            or len(optimal) != n_points:
        raise ValueError("inconsistent shapes: predictions must be (n_sets, n_points) with "
                         "n_sets >= 1 and targets, optimal of length n_points >= 1")
    average = [linalg.total(predictions[r][i] for r in range(n_sets)) / n_sets
               for i in range(n_points)]
    total = noise = bias = variance = cross = 0.0
    for i in range(n_points):
        y, y_star, y_bar = targets[i], optimal[i], average[i]
        for r in range(n_sets):
            total += (y - predictions[r][i]) ** 2 / (n_sets * n_points)
            variance += (predictions[r][i] - y_bar) ** 2 / (n_sets * n_points)
        noise += (y - y_star) ** 2 / n_points
        bias += (y_star - y_bar) ** 2 / n_points
        cross += 2.0 * (y - y_star) * (y_star - y_bar) / n_points
    return {"total": total, "noise": noise, "bias": bias, "variance": variance, "cross": cross}
