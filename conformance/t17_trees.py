"""Item 17: classification trees ([Yan], "Impurity function" and "How to grow a
classification tree?").

- Concavity: the Gini index sum_k p_k (1 - p_k) and the cross-entropy -sum_k p_k log p_k are
  concave in p, so splitting a node R into any R1, R2 never raises the weighted impurity:
      |R1| gamma(R1) + |R2| gamma(R2) <= |R| gamma(R)
  (R = R1 u R2, |.| the total weight).  Checked on random labels, random non-negative weights
  (integers, reals, tiny and huge scales) and random partitions, for both criteria, with
  refml's own |R| gamma(R) (``refml.tree.weighted_gini`` / ``weighted_entropy``), which
  must also equal the lecture's formula |R| sum_k p_k (1 - p_k) / -|R| sum_k p_k log p_k.
  The slack is |R| gamma(R) - (|R1| gamma(R1) + |R2| gamma(R2)) + 1e-12 |R| gamma-scale.
- The same inequality on every split of fitted trees (refml, random hyper-parameters and
  weights), read from ``tree_``: impurity x weighted_n_node_samples.
- A fully grown tree (min_samples_split = 2, no depth limit) fits any training set without
  conflicting duplicates exactly: random data (integer grids with many duplicate rows, given
  one label each, or Gaussians), random weights, criterion and max_features.  n0 counts
  points by weight, so the weights are scaled to make every row at least one point (the
  smallest weight 1); then any node of two distinct rows holds >= 2 points.  The slack is
  minus the number of training rows predicted wrong.
- Beyond the lectures, histogram trees (``max_bins``, ``refml.tree.histogram``): when no
  feature takes more than max_bins distinct values, each value is a bin of its own, and the
  histogram tree has exact CART's nodes (features, class totals, row counts) and puts every
  training row in the same leaf, on random data, weights and settings (the random feature
  draws included).  Its thresholds may differ (the bins' edges lie halfway between values
  adjacent in the whole training set, exact CART's halfway between values adjacent in the
  node), so new points are not checked.
"""

import math

from ._harness import Theorem
from ._parity import random_dataset

SOURCE = "[Yan] Classification tree, Impurity function"
CRITERIA = ("gini", "entropy")


def random_weights(rng, n):
    """Positive weights of a random kind: unit, small integers, reals, tiny or huge scales."""
    kind = rng.randbelow(5)
    if kind == 0:
        return [1.0] * n
    if kind == 1:
        return [float(1 + rng.randbelow(5)) for _ in range(n)]
    scale = (1.0, 1e-200, 1e200)[kind - 2]
    return [scale * (0.01 + rng.random()) for _ in range(n)]


def make_partition(rng):
    """Random class weights of a node and a random split of its rows into two non-empty sides."""
    k = 2 + rng.randbelow(4)
    n = 2 + rng.randbelow(30)
    codes = [rng.randbelow(k) for _ in range(n)]
    weights = random_weights(rng, n)
    left = [rng.random() < 0.5 for _ in range(n)]
    left[0], left[1] = True, False
    return {"k": k, "codes": codes, "weights": weights, "left": left}


def class_weights(instance, keep):
    counts = [0.0] * instance["k"]
    for code, weight, side in zip(instance["codes"], instance["weights"], instance["left"]):
        if keep(side):
            counts[code] += weight
    return counts


def lecture_weighted_impurity(counts, criterion):
    """|R| gamma(R) with p_k = c_k / |R|, exactly as the lecture prints gamma."""
    total = math.fsum(counts)
    p = [c / total for c in counts]
    if criterion == "gini":
        return total * math.fsum(pk * (1 - pk) for pk in p)
    return -total * math.fsum(pk * math.log(pk) for pk in p if pk > 0)


def check_partition(instance):
    from refml.tree.classifier import WEIGHTED_IMPURITY
    from refml.tree.split import CRITERIA as CODES
    from refml.tree.split import total_weight

    slack = math.inf
    parts = [class_weights(instance, lambda side: True),
             class_weights(instance, lambda side: side),
             class_weights(instance, lambda side: not side)]
    for criterion in CRITERIA:
        impurity = WEIGHTED_IMPURITY[CODES[criterion]]
        values = [impurity(counts, total_weight(counts)) for counts in parts]
        scale = 1e-12 * total_weight(parts[0]) * math.log(instance["k"] + 1)
        slack = min(slack, values[0] - (values[1] + values[2]) + scale)
        for counts, value in zip(parts, values):  # refml's formula is the lecture's
            slack = min(slack, scale - abs(value - lecture_weighted_impurity(counts, criterion)))
    return slack / (1e-300 + total_weight(parts[0]))  # relative to the node's weight


def random_tree_setting(rng):
    return {"criterion": CRITERIA[rng.randbelow(2)],
            "max_features": (None, 1, "sqrt", 0.5)[rng.randbelow(4)],
            "random_state": rng.randbelow(2 ** 31)}


def make_fitted(rng):
    X, y, _ = random_dataset(rng)
    params = random_tree_setting(rng)
    params["max_depth"] = (None, 1, 2, 4)[rng.randbelow(4)]
    return {"X": X, "y": y, "weights": random_weights(rng, len(y)), "params": params}


def check_fitted_splits(instance):
    import refml

    model = refml.DecisionTreeClassifier(**instance["params"])
    tree = model.fit(instance["X"], instance["y"], sample_weight=instance["weights"]).tree_
    slack = math.inf
    for node in range(tree.node_count):
        left, right = tree.children_left[node], tree.children_right[node]
        if left == -1:
            continue
        parent = tree.impurity[node] * tree.weighted_n_node_samples[node]
        children = (tree.impurity[left] * tree.weighted_n_node_samples[left]
                    + tree.impurity[right] * tree.weighted_n_node_samples[right])
        scale = 1e-12 * tree.weighted_n_node_samples[node]
        slack = min(slack, (parent - children + scale) / tree.weighted_n_node_samples[node])
    return slack if slack < math.inf else 0.0


def make_consistent(rng):
    """Random data whose duplicate rows share one label (the first occurrence's)."""
    X, y, _ = random_dataset(rng, n_max=40)
    first_label = {}
    for i, row in enumerate(X):
        y[i] = first_label.setdefault(tuple(row), y[i])
    if len(set(y)) < 2:  # every row a duplicate of one labelled point: add a distinct one
        X.append([max(row[0] for row in X) + 1.0] + X[0][1:])
        y.append("zzz" if isinstance(y[0], str) else max(y) + 1)
    weights = random_weights(rng, len(y))
    smallest = min(weights)  # in units of points, every row at least one point (n0 = 2)
    return {"X": X, "y": y, "weights": [w / smallest for w in weights],
            "params": random_tree_setting(rng)}


def check_fully_grown(instance):
    import refml

    model = refml.DecisionTreeClassifier(min_samples_split=2, max_depth=None,
                                         **instance["params"])
    model.fit(instance["X"], instance["y"], sample_weight=instance["weights"])
    predicted = model.predict(instance["X"])
    return float(-sum(1 for a, b in zip(predicted, instance["y"]) if a != b))


def make_few_values(rng):
    """Random data, weights and tree settings, and a ``max_bins`` at least the largest
    number of distinct values of a feature (often exactly it)."""
    instance = make_fitted(rng)
    distinct = max(len({row[j] for row in instance["X"]}) for j in range(len(instance["X"][0])))
    instance["max_bins"] = max(2, distinct + (0, 0, 1, 7)[rng.randbelow(4)])
    return instance


def check_histogram_partition(instance):
    """Exact CART and the histogram tree (``refml.tree.histogram``) with at most max_bins
    distinct values per feature: the same nodes with the same features, class totals and
    row counts, and every training row in the same leaf.  Slack: minus the number of nodes
    and rows that differ."""
    import refml

    def fitted(**more):
        return refml.DecisionTreeClassifier(**instance["params"], **more).fit(
            instance["X"], instance["y"], sample_weight=instance["weights"])

    exact, binned = fitted(), fitted(max_bins=instance["max_bins"])
    differences = abs(exact.tree_.node_count - binned.tree_.node_count)
    for name in ("feature", "value", "n_node_samples", "children_left"):
        differences += sum(a != b for a, b in zip(getattr(exact.tree_, name),
                                                  getattr(binned.tree_, name)))
    differences += sum(a != b for a, b in zip(exact.apply(instance["X"]),
                                              binned.apply(instance["X"])))
    return float(-differences)


def describe(instance):
    return repr(instance)


THEOREMS = [
    Theorem(17, "Gini and entropy are concave: no split raises the weighted impurity",
            SOURCE, make_partition, check_partition, size=lambda inst: len(inst["codes"]),
            describe=describe),
    Theorem(17, "Every split of a fitted tree keeps or lowers the weighted impurity",
            SOURCE, make_fitted, check_fitted_splits, size=lambda inst: len(inst["y"]),
            describe=describe),
    Theorem(17, "A fully grown tree fits data without conflicting duplicates exactly",
            SOURCE, make_consistent, check_fully_grown, size=lambda inst: len(inst["y"]),
            describe=describe),
    Theorem(17, "With at most max_bins values a feature, the histogram tree partitions the "
            "training rows as exact CART (beyond the lectures)", SOURCE, make_few_values,
            check_histogram_partition, size=lambda inst: len(inst["y"]), describe=describe),
]
