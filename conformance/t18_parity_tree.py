"""Item 18 for the classification tree: refml and refml_fast build the same tree.

- Predictions: ``parity_theorem`` on random data (duplicates, exact ties, one feature, string
  labels) with random hyper-parameters (criterion, max_depth, min_samples_split,
  min_samples_leaf, max_features with a random_state, ccp_alpha, max_bins); labels and
  predict_proba must agree.
- Structure with weights: the whole ``tree_`` (children, features, thresholds, class totals,
  impurities, row counts, weights) must be *equal*, float for float, and so must the
  predictions, the probabilities, the text rendering and the state of a shared
  ``Generator`` after the fit, on random data with random sample weights (unit, integer with
  zeros, real, tiny and huge scales) and a ccp_alpha that is often exactly the weakest link
  g(t) of the grown tree, where pruning decides a tie.  The slack is minus the number of
  fields and rows that differ.
"""

from ._harness import Theorem
from ._parity import parity_theorem, random_dataset, random_weights

CRITERIA = ("gini", "entropy")
MAX_FEATURES = (None, None, 1, 2, "sqrt", "log2", 0.5)


def random_params(rng):
    return {"criterion": CRITERIA[rng.randbelow(2)],
            "max_depth": (None, None, 1, 2, 3, 5)[rng.randbelow(6)],
            "min_samples_split": 2 + rng.randbelow(4),
            "max_features": MAX_FEATURES[rng.randbelow(len(MAX_FEATURES))],
            "ccp_alpha": (0.0, 0.0, 0.005, 0.02, 0.1)[rng.randbelow(5)],
            "random_state": rng.randbelow(2 ** 31),
            "min_samples_leaf": (1, 1, 1, 2, 3, 0.1)[rng.randbelow(6)],
            "max_bins": (None, None, None, 2, 3, 8, 64)[rng.randbelow(7)]}


def make_tree(package, rng):
    params = random_params(rng)
    if isinstance(params["max_features"], int):  # must not exceed d, and d may be 1
        params["max_features"] = 1
    return package.DecisionTreeClassifier(**params)


def make_weighted(rng):
    X, y, X_query = random_dataset(rng)
    params = random_params(rng)
    if isinstance(params["max_features"], int):
        params["max_features"] = min(params["max_features"], len(X[0]))
    weights = random_weights(rng, len(y), scales=(1.0, 1e-3, 1e6))
    return {"X": X, "y": y, "X_query": X_query, "weights": weights,
            "params": params, "weakest_link": rng.random() < 0.5, "seed": rng.next_u64()}


def weakest_link_alpha(instance):
    """g(t) = (R(t) - R(T_t)) / (|T_t| - 1) of the internal node with the smallest g, in
    refml's floats: pruning at exactly this alpha must collapse that node (a tie)."""
    import refml
    from refml.tree.classifier import WEIGHTED_IMPURITY
    from refml.tree.prune import leaf_risks
    from refml.tree.split import CRITERIA as CODES

    params = dict(instance["params"], ccp_alpha=0.0)
    tree = refml.DecisionTreeClassifier(**params).fit(
        instance["X"], instance["y"], sample_weight=instance["weights"]).tree_
    risk = leaf_risks(tree, WEIGHTED_IMPURITY[CODES[params["criterion"]]])
    below, leaves = list(risk), [1] * tree.node_count
    alphas = []
    for t in reversed(range(tree.node_count)):
        left, right = tree.children_left[t], tree.children_right[t]
        if left != -1:
            below[t] = below[left] + below[right]
            leaves[t] = leaves[left] + leaves[right]
            alphas.append((risk[t] - below[t]) / (leaves[t] - 1))
    return min(alphas) if alphas else 0.0


def check_weighted(instance):
    import refml
    import refml_fast
    from refml.core.random import Generator
    from refml.tree.split import Tree

    params = dict(instance["params"])
    if instance["weakest_link"]:
        params["ccp_alpha"] = max(0.0, weakest_link_alpha(instance))
    fitted, generators = [], []
    for package in (refml, refml_fast):
        generator = Generator(params["random_state"])
        model = package.DecisionTreeClassifier(**dict(params, random_state=generator))
        fitted.append(model.fit(instance["X"], instance["y"], sample_weight=instance["weights"]))
        generators.append(generator.state)
    reference, fast = fitted
    differences = int(generators[0] != generators[1])
    for name in Tree.FIELDS:
        differences += int(_lists(getattr(reference.tree_, name))
                           != _lists(getattr(fast.tree_, name)))
    for rows in (instance["X"], instance["X_query"]):
        differences += sum(a != b for a, b in zip(_lists(reference.predict(rows)),
                                                  _lists(fast.predict(rows))))
        differences += sum(a != b for a, b in zip(_lists(reference.predict_proba(rows)),
                                                  _lists(fast.predict_proba(rows))))
    differences += int(reference.to_text(show_weights=True) != fast.to_text(show_weights=True))
    return -float(differences)


def _lists(values):
    return values.tolist() if hasattr(values, "tolist") else list(values)


THEOREMS = [
    parity_theorem("DecisionTreeClassifier, random data and hyper-parameters", make_tree,
                   extra_outputs=("predict_proba",)),
    Theorem(18, "Parity: DecisionTreeClassifier tree_ with sample weights, float for float",
            "docs/design.md section 1", make_weighted, check_weighted,
            size=lambda inst: len(inst["X"]) * len(inst["X"][0]), describe=repr,
            needs_fast=True),
]
