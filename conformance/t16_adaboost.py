"""Item 16: AdaBoost's training error ([Yan], "AdaBoost"; the bound is Freund and
Schapire, 1997, Theorem 6):

    (1/n) sum_i 1{f(X_i) != Y_i} <= prod_m 2 sqrt(err_m (1 - err_m))   while every err_m < 1/2.

The lecture's alpha_m = log((1 - err_m)/err_m) is twice Freund and Schapire's, which changes
neither sign(sum_m alpha_m f_m) nor the normalised weights (a miss gains (1 - err)/err
relative to a hit in both), so the bound applies to the algorithm as printed.

On random binary data sets (duplicates, ties, string labels; refml.random_dataset) with
random weak learners (stumps, depth-2 Gini or depth-3 entropy trees), random M = 1..40 and
random starting weights (uniform, integers with zeros, reals): with the weights w^0 that
``sample_weight`` gives, normalised, the training error is sum_i w^0_i 1{miss_i}, and must not
exceed the product over the members kept (the implementation stops before a learner with
err_m >= 1/2, so every kept err_m < 1/2, which is checked too; a perfect learner makes the
product 0 and must leave no training error).  The slack is product - error (+ 1e-12), or
minus the discrepancy when the replay below disagrees.

The same instances also replay the printed algorithm independently of the implementation:
w_i = w^0_i, err_m = sum w_i 1{miss} / sum w_i from each member's own predictions,
alpha_m = log((1 - err_m)/err_m) (or the documented 1 + sum_{j<m} alpha_j when err_m = 0),
w_i <- w_i exp(alpha_m 1{miss}) (divided by sum_i w_i, a common factor err_m ignores, so
that nothing overflows), and f(x) = sign(sum alpha_m f_m(x)); err_m, alpha_m (relative
1e-9) and the predictions must be the implementation's.  A second check does the same for
K = 3..5 classes with SAMME's alpha_m + log(K - 1), threshold 1 - 1/K and argmax vote.
"""

import math

from ._harness import Theorem
from ._parity import random_dataset, random_weights

SOURCE = "[Yan] AdaBoost"
TOLERANCE = 1e-9


def make_instance(rng, binary=True):
    X, y, _ = random_dataset(rng, n_min=4, n_max=40, binary=binary, k_max=5)
    return {"X": X, "y": y, "weights": random_weights(rng, len(y), floor=0.05),
            "learner": rng.randbelow(4), "M": 1 + rng.randbelow(40)}


def fit(instance):
    import refml

    learner = [None, refml.DecisionTreeClassifier(max_depth=1),
               refml.DecisionTreeClassifier(max_depth=2),
               refml.DecisionTreeClassifier(max_depth=3, criterion="entropy")]
    model = refml.AdaBoostClassifier(estimator=learner[instance["learner"]],
                                     n_estimators=instance["M"])
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # an empty ensemble (err_1 = 1/2) is allowed
        return model.fit(instance["X"], instance["y"], sample_weight=instance["weights"])


def start_weights(instance):
    weights = instance["weights"] or [1.0] * len(instance["y"])
    total = math.fsum(weights)
    return [w / total for w in weights]


def replay_discrepancy(model, instance):
    """The largest relative gap between the implementation and the printed algorithm
    (err_m, alpha_m), plus one for every prediction that differs."""
    X, y = instance["X"], instance["y"]
    classes = list(model.classes_)
    K = len(classes)
    w = start_weights(instance)
    scores = [[0.0] * K for _ in X]
    gap, earlier = 0.0, []
    for member, alpha, err in zip(model.estimators_, model.estimator_weights_,
                                  model.estimator_errors_):
        predicted = list(member.predict(X))
        missed = [p != label for p, label in zip(predicted, y)]
        err_printed = math.fsum(w_i for w_i, miss in zip(w, missed) if miss) / math.fsum(w)
        if err_printed == 0.0:
            alpha_printed = 1.0 + sum(earlier)  # the documented weight of a perfect learner
        else:
            alpha_printed = math.log((1 - err_printed) / err_printed) + math.log(K - 1)
        gap = max(gap, abs(err_printed - err) / max(err, 1e-300) if err_printed else err,
                  abs(alpha_printed - alpha) / max(1.0, abs(alpha)))
        earlier.append(alpha)
        if err_printed > 0.0:
            w = [w_i * math.exp(alpha_printed * miss) for w_i, miss in zip(w, missed)]
            total = math.fsum(w)
            w = [w_i / total for w_i in w]
        for i, label in enumerate(predicted):
            scores[i][classes.index(label)] += alpha
    if K == 2:  # sign(sum alpha_m f_m), f in {-1, +1}, 0 -> classes_[0]
        vote = [classes[1] if s[1] - s[0] > 0 else classes[0] for s in scores]
    else:
        vote = [classes[s.index(max(s))] for s in scores]
    return gap, sum(1 for a, b in zip(vote, model.predict(X)) if a != b)


def check_bound(instance):
    model = fit(instance)
    errors = list(model.estimator_errors_)
    if any(err >= 0.5 for err in errors):
        return -1.0  # a kept learner at or above 1/2: the stopping policy failed
    bound = 1.0
    for err in errors:
        bound *= 2.0 * math.sqrt(err * (1.0 - err))
    w = start_weights(instance)
    predicted = model.predict(instance["X"])
    training_error = math.fsum(w_i for w_i, p, label in zip(w, predicted, instance["y"])
                               if p != label)
    gap, wrong_votes = replay_discrepancy(model, instance)
    if gap > TOLERANCE or wrong_votes:
        return -(gap + wrong_votes)
    return bound - training_error + 1e-12


def check_samme(instance):
    model = fit(instance)
    K = len(model.classes_)
    if any(err >= 1.0 - 1.0 / K for err in model.estimator_errors_):
        return -1.0
    gap, wrong_votes = replay_discrepancy(model, instance)
    return TOLERANCE - gap if not wrong_votes else -float(wrong_votes)


def make_multiclass(rng):
    instance = make_instance(rng, binary=False)
    while len(set(instance["y"])) < 3:
        instance = make_instance(rng, binary=False)
    return instance


THEOREMS = [
    Theorem(16, "AdaBoost: training error <= prod 2 sqrt(err_m (1 - err_m)); printed updates",
            SOURCE, make_instance, check_bound, size=lambda inst: len(inst["y"]),
            describe=repr, quick=40),
    Theorem(16, "AdaBoost, SAMME (K > 2): the printed updates with alpha_m + log(K - 1)",
            SOURCE + " (SAMME, beyond the lecture)", make_multiclass, check_samme,
            size=lambda inst: len(inst["y"]), describe=repr, quick=20),
]
