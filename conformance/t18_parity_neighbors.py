"""Parity of KNeighborsClassifier (SPEC section 7, item 18): refml and refml_fast agree.

Two checks on ``random_dataset`` instances (integer grids full of exact distance ties,
duplicate rows, one feature, K = 2..5, string labels):
- the generic parity harness, Euclidean, k in 1..7 (data with at least 7 rows), comparing
  predict and predict_proba;
- every n from 2 up, k in 1..min(7, n), both metrics: predict, predict_proba and kneighbors
  must be equal float for float, and where Sigma is singular both packages must refuse
  the fit with the same message.
"""

from ._harness import Theorem
from ._parity import parity_theorem, random_dataset


def _euclidean(package, rng):
    return package.KNeighborsClassifier(n_neighbors=1 + rng.randbelow(7))


def _at_least_seven_rows(rng):
    return random_dataset(rng, n_min=7)


def _make_instance(rng):
    X, y, X_query = random_dataset(rng)
    k = 1 + rng.randbelow(min(7, len(X)))
    metric = "mahalanobis" if rng.random() < 0.5 else "euclidean"
    return {"X": X, "y": y, "X_query": X_query, "k": k, "metric": metric}


def _outputs(package, instance):
    """(error message, None) if the fit fails, else (None, every output as plain lists)."""
    estimator = package.KNeighborsClassifier(n_neighbors=instance["k"],
                                             metric=instance["metric"])
    try:
        estimator.fit(instance["X"], instance["y"])
    except ValueError as error:
        return str(error), None
    outputs = []
    for rows in (instance["X"], instance["X_query"]):
        distances, indices = estimator.kneighbors(rows)
        for values in (estimator.predict(rows), estimator.predict_proba(rows), distances,
                       indices):
            outputs.append(values.tolist() if hasattr(values, "tolist") else list(values))
    return None, outputs


def _check(instance):
    """Minus the number of outputs (rows of predictions, probabilities, distances, indices)
    that differ; a fit refused by one package only, or with other words, counts as one."""
    import refml
    import refml_fast

    reference_error, reference = _outputs(refml, instance)
    fast_error, fast = _outputs(refml_fast, instance)
    if reference_error is not None or fast_error is not None:
        return 0.0 if reference_error == fast_error else -1.0
    differing = 0
    for expected, found in zip(reference, fast):
        differing += sum(1 for a, b in zip(expected, found) if a != b)
        differing += abs(len(expected) - len(found))
    return float(-differing)


THEOREMS = [
    parity_theorem("KNeighborsClassifier (euclidean, k = 1..7)", _euclidean,
                   make_data=_at_least_seven_rows, extra_outputs=("predict_proba",)),
    Theorem(number=18, title="Parity: KNeighborsClassifier (both metrics, kneighbors, "
                             "k <= n, singular Sigma refused alike)",
            source="SPEC.md section 1; lecture 004 section 5",
            make_instance=_make_instance, check=_check,
            size=lambda inst: len(inst["X"]) * len(inst["X"][0]),
            describe=lambda inst: repr(inst), needs_fast=True),
]
