"""Item 18 for the ensembles: refml and refml_fast give the same bagging, forests and AdaBoost.

- Predictions: ``parity_theorem`` on random data (duplicates, exact ties, one feature, K = 2..5,
  string labels) with random hyper-parameters, for BaggingClassifier (default trees, shallow
  entropy trees, or 1-NN members fitted on the drawn rows themselves), RandomForestClassifier
  (refml_fast often on 2 threads, exact or histogram trees) and AdaBoostClassifier (stumps
  or deeper trees); labels and predict_proba / decision_function must agree.
- Float for float with sample weights (unit, integers with zeros, reals): every member's
  ``tree_`` (children, features, thresholds, class totals), AdaBoost's alpha_m and err_m,
  predict_proba and decision_function must be *equal* between refml (members fitted in
  order) and refml_fast fitted on 1 thread and on 2 threads.  The slack is minus the number
  of fields and rows that differ.
"""

from ._harness import Theorem
from ._parity import parity_theorem, random_dataset, random_weights

CRITERIA = ("gini", "entropy")


def make_bagging(package, rng):
    kind = rng.randbelow(3)
    estimator = None
    if kind == 1:
        estimator = package.DecisionTreeClassifier(max_depth=1 + rng.randbelow(3),
                                                   criterion="entropy")
    elif kind == 2:
        estimator = package.KNeighborsClassifier(n_neighbors=1)
    return package.BaggingClassifier(estimator=estimator, n_estimators=1 + rng.randbelow(8),
                                     random_state=rng.randbelow(2 ** 31))


def forest_params(rng):
    return {"n_estimators": 1 + rng.randbelow(8),
            "max_features": ("sqrt", "log2", 1, None, 0.5)[rng.randbelow(5)],
            "criterion": CRITERIA[rng.randbelow(2)],
            "max_depth": (None, None, 1, 3)[rng.randbelow(4)],
            "min_samples_split": 2 + rng.randbelow(3),
            "random_state": rng.randbelow(2 ** 31),
            "max_bins": (None, None, 2, 4, 16)[rng.randbelow(5)]}


def make_forest(package, rng):
    params = forest_params(rng)
    n_jobs = (None, 2)[rng.randbelow(2)]
    return package.RandomForestClassifier(n_jobs=n_jobs, **params)


def adaboost_params(package, rng):
    depth = (None, 1, 2, 3)[rng.randbelow(4)]
    estimator = None if depth is None else package.DecisionTreeClassifier(
        max_depth=depth, criterion=CRITERIA[rng.randbelow(2)])
    return {"estimator": estimator, "n_estimators": 1 + rng.randbelow(25)}


def make_adaboost(package, rng):
    return package.AdaBoostClassifier(**adaboost_params(package, rng))


# --- float for float, with weights ------------------------------------------------------------


def make_weighted(rng):
    X, y, X_query = random_dataset(rng)
    return {"X": X, "y": y, "X_query": X_query, "weights": random_weights(rng, len(y)),
            "kind": rng.randbelow(3), "seed": rng.next_u64()}


def build(package, instance, n_jobs):
    from refml.core.random import Generator

    rng = Generator(instance["seed"])
    if instance["kind"] == 0:
        return package.BaggingClassifier(n_estimators=1 + rng.randbelow(6),
                                         random_state=rng.randbelow(2 ** 31), n_jobs=n_jobs)
    if instance["kind"] == 1:
        return package.RandomForestClassifier(n_jobs=n_jobs, **forest_params(rng))
    return package.AdaBoostClassifier(**adaboost_params(package, rng))


def outputs(model, instance):
    """Everything that must be equal, as plain lists."""
    found = {"trees": [[_lists(getattr(member.tree_, name))
                        for name in ("children_left", "children_right", "feature",
                                     "threshold", "value")] for member in model.estimators_]}
    for rows in ("X", "X_query"):
        found["predict " + rows] = _lists(model.predict(instance[rows]))
        method = "decision_function" if hasattr(model, "decision_function") else "predict_proba"
        found[method + " " + rows] = _lists(getattr(model, method)(instance[rows]))
    for name in ("estimator_weights_", "estimator_errors_"):
        if hasattr(model, name):
            found[name] = _lists(getattr(model, name))
    return found


def check_weighted(instance):
    import warnings

    import refml
    import refml_fast

    results = []
    for package, n_jobs in ((refml, None), (refml_fast, None), (refml_fast, 2)):
        model = build(package, instance, n_jobs)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model.fit(instance["X"], instance["y"], sample_weight=instance["weights"])
        results.append(outputs(model, instance))
    reference = results[0]
    differences = 0
    for found in results[1:]:
        differences += sum(1 for key in reference if reference[key] != found[key])
    return -float(differences)


def _lists(values):
    return values.tolist() if hasattr(values, "tolist") else [
        _lists(v) if hasattr(v, "__len__") and not isinstance(v, str) else v for v in values]


THEOREMS = [
    parity_theorem("BaggingClassifier (trees, entropy trees, 1-NN), random data", make_bagging,
                   extra_outputs=("predict_proba",), quick=100),
    parity_theorem("RandomForestClassifier (often on 2 threads), random data", make_forest,
                   extra_outputs=("predict_proba",), quick=100),
    parity_theorem("AdaBoostClassifier (stumps, deeper trees, SAMME), random data",
                   make_adaboost, extra_outputs=("decision_function",), quick=100),
    Theorem(18, "Parity: ensembles with sample weights, float for float, 1 and 2 threads",
            "docs/design.md section 1", make_weighted, check_weighted,
            size=lambda inst: len(inst["X"]) * len(inst["X"][0]), describe=repr,
            needs_fast=True, quick=100),
]
