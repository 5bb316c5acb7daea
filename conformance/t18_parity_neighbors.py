"""Parity of KNeighborsClassifier (docs/design.md section 7, item 18): refml and refml_fast agree.

Three checks:
- the generic parity harness on ``random_dataset`` (integer grids full of exact distance
  ties, duplicate rows, one feature, K = 2..5, string labels), Euclidean, k in 1..7 (data
  with at least 7 rows), comparing predict and predict_proba;
- on ``random_dataset`` from n = 2 up, k in 1..min(7, n), both metrics: predict,
  predict_proba and kneighbors must be equal float for float, and where Sigma is singular
  both packages must refuse the fit with the same message;
- the same on larger instances, queries only (refml is slow over every training row):
  up to 1,500 rows and 40 features (8 for Mahalanobis), so several training tiles and
  query groups of refml_fast; integer grids with thousands of ties, far offsets, and
  scales near 1e-160 and 1e17, which send refml_fast's screening to its exhaustive path.
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


def _make_large_instance(rng):
    n = 2 + rng.randbelow(1500)
    metric = "mahalanobis" if rng.random() < 0.5 else "euclidean"
    wide = metric == "euclidean" and rng.random() < 0.5  # refml's d^2 forms are slow
    d = 1 + (rng.randbelow(40) if wide else rng.randbelow(8))
    kind = rng.randbelow(5)
    scale, offset = [(1.0, 0.0), (1.0, 0.0), (1e-3, 1e6), (1e-160, 0.0), (1e17, 0.0)][kind]

    def point():
        if kind == 0:
            return [float(rng.randbelow(3)) for _ in range(d)]
        return [offset + scale * rng.normal() for _ in range(d)]

    X = [point() for _ in range(n)]
    y = [rng.randbelow(3) for _ in range(n)]
    y[0], y[1] = 0, 1  # at least two classes
    k = 1 + rng.randbelow(min(7, n))
    return {"X": X, "y": y, "X_query": [point() for _ in range(9)] + X[:3], "k": k,
            "metric": metric, "queries_only": True}


def _outputs(package, instance):
    """(error message, None) if the fit fails, else (None, every output as plain lists)."""
    estimator = package.KNeighborsClassifier(n_neighbors=instance["k"],
                                             metric=instance["metric"])
    try:
        estimator.fit(instance["X"], instance["y"])
    except ValueError as error:
        return str(error), None
    outputs = []
    for rows in ([instance["X_query"]] if instance.get("queries_only")
                 else (instance["X"], instance["X_query"])):
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
            source="docs/design.md section 1; [IML-L5] section 5",
            make_instance=_make_instance, check=_check,
            size=lambda inst: len(inst["X"]) * len(inst["X"][0]),
            describe=lambda inst: repr(inst), needs_fast=True),
    Theorem(number=18, title="Parity: KNeighborsClassifier on large instances (tiles, "
                             "thousands of ties, extreme scales)",
            source="docs/design.md section 1; [IML-L5] section 5",
            make_instance=_make_large_instance, check=_check,
            size=lambda inst: len(inst["X"]) * len(inst["X"][0]),
            describe=lambda inst: repr(inst), quick=6, default=40, full=300,
            needs_fast=True),
]
