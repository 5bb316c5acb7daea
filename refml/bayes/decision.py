"""The Bayes decision from a posterior: the 0-1 rule and the rule of a loss matrix.

[Wainwright-L2] eq. 2.4 for two classes (decide classes[1] iff eta(x) >= 1/2), [Yan]
("Bayes optimal classifier") for K classes and for a general loss matrix L: decide the class
j of smallest expected loss sum_k L[k][j] P(Y = k | x).  Ties: docs/design.md section 4.
"""

import math


def bayes_decision(probabilities, loss=None):
    """The class index the Bayes rule picks from [P(Y = k | x) for each k].

    0-1 loss (``loss`` None).  Two classes: 1 iff P(Y = classes[1] | x) >= 1/2 (eq. 2.4, a
    tie goes to classes[1]).  More: the argmax, the first class on a tie.

    A loss matrix L ([Yan], "general loss": L[k][j] the loss of deciding class j when
    the truth is class k): the j with the smallest expected loss sum_k L[k][j] P(Y = k | x)
    (summed over k in order), ties broken as above (two classes: classes[1]; more: the
    first).  The 0-1 matrix gives the same rule up to the rounding of the sums.
    """
    if loss is None:
        if len(probabilities) == 2:
            return 1 if probabilities[1] >= 0.5 else 0
        best = 0
        for k in range(1, len(probabilities)):
            if probabilities[k] > probabilities[best]:
                best = k
        return best
    costs = expected_losses(probabilities, loss)
    if len(costs) == 2:
        return 1 if costs[1] <= costs[0] else 0
    best = 0
    for j in range(1, len(costs)):
        if costs[j] < costs[best]:
            best = j
    return best


def expected_losses(probabilities, loss):
    """[sum_k L[k][j] p_k for each decision j], each sum over k in order."""
    costs = []
    for j in range(len(loss)):
        total = 0.0
        for k, p in enumerate(probabilities):
            total += loss[k][j] * p
        costs.append(total)
    return costs


def check_loss(loss, n_classes, name="loss"):
    """The loss matrix as K x K floats (None stays None: the 0-1 loss); ValueError unless
    it is a square table of finite numbers, one row and column per class."""
    if loss is None:
        return None
    message = (f"Invalid parameter {name}={loss!r}: must be None (the 0-1 loss) or a "
               f"{n_classes} x {n_classes} table of finite numbers, L[k][j] the loss of "
               "deciding classes[j] when the truth is classes[k]")
    try:
        rows = [[float(v) for v in row] for row in loss]
    except (TypeError, ValueError):
        raise ValueError(message) from None
    if len(rows) != n_classes or any(len(row) != n_classes for row in rows) or not all(
            math.isfinite(v) for row in rows for v in row):
        raise ValueError(message)
    return rows


def decision_index(k, prediction):
    """A prediction's class index, for a loss matrix (which has no column for others)."""
    if k is None:
        raise ValueError(f"the classifier predicted {prediction!r}, which is not a class of "
                         "the distribution: the loss matrix has no column for it")
    return k
