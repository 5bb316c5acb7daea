"""Parity (docs/design.md section 7, item 18): refml and refml_fast give identical predictions.

``parity_theorem`` builds a Theorem for one estimator: every instance is a random data set
(duplicates, exact ties, a single feature, K = 2..5, string labels) and a random setting of
hyper-parameters; both packages fit the same data and must predict the same labels, on the
training rows and on fresh query rows.  The slack is minus the number of disagreements.
"""

from ._harness import Theorem

STRING_CLASSES = ["ant", "bee", "cat", "dog", "eel"]


def random_dataset(rng, n_min=2, n_max=40, d_max=5, k_max=5, binary=False):
    """A random classification data set as plain lists: (X, y, X_query).

    Features are small integers half of the time (so duplicates and exact distance ties
    are common) and Gaussian otherwise; every one of the K classes appears at least once;
    labels are ints or strings.
    """
    k = 2 if binary else 2 + rng.randbelow(k_max - 1)
    n = max(n_min, k) + rng.randbelow(n_max - max(n_min, k) + 1)
    d = 1 + rng.randbelow(d_max)
    integer_grid = rng.random() < 0.5

    def point():
        if integer_grid:
            return [float(rng.randbelow(5) - 2) for _ in range(d)]
        return [rng.normal() for _ in range(d)]

    X = [point() for _ in range(n)]
    if rng.random() < 0.2:  # exact duplicate rows, possibly with different labels
        for _ in range(1 + rng.randbelow(3)):
            X[rng.randbelow(n)] = list(X[rng.randbelow(n)])
    codes = list(range(k)) + [rng.randbelow(k) for _ in range(n - k)]
    order = rng.permutation(n)
    codes = [codes[i] for i in order]
    labels = STRING_CLASSES if rng.random() < 0.3 else [3 * c - 2 for c in range(k)]
    y = [labels[c] for c in codes]
    X_query = [point() for _ in range(10)] + [list(row) for row in X[:5]]
    return X, y, X_query


def random_weights(rng, n, scales=(1.0,), floor=1e-3):
    """Random sample weights for n rows: None (unweighted), small integers (a weight m is m
    repeated rows; some rows get 0, one gets 1 so not all are 0), or positive reals at one of
    ``scales``, a tenth of them at the ``floor`` (scale * floor)."""
    kind = rng.randbelow(2 + len(scales))
    if kind == 0:
        return None
    if kind == 1:
        weights = [float(rng.randbelow(4)) for _ in range(n)]
        weights[rng.randbelow(n)] = 1.0
        return weights
    scale = scales[kind - 2]
    return [scale * rng.random() * (rng.random() < 0.9) + scale * floor for _ in range(n)]


def parity_theorem(title, make_estimator, make_data=random_dataset, quick=100,
                   default=300, full=3000, extra_outputs=(), learn=None):
    """A Theorem asserting identical predictions of ``make_estimator(refml, params)`` and
    ``make_estimator(refml_fast, params)``.

    ``make_estimator(package, rng)`` is called once per package with generators in the same
    state, so random hyper-parameters agree.  ``extra_outputs`` names further methods
    (e.g. "predict_proba") whose outputs must be the same floats (NaN matching NaN).
    ``learn(estimator, X, y, rng)`` replaces ``fit`` (a sequence of partial_fit calls, say);
    an estimator that refuses to predict must refuse in both packages, with the same
    exception class.
    """

    def make_instance(rng):
        X, y, X_query = make_data(rng)
        return {"X": X, "y": y, "X_query": X_query, "seed": rng.next_u64()}

    def check(instance):
        import warnings

        import refml
        import refml_fast
        from refml.core.random import Generator

        fitted = []
        for package in (refml, refml_fast):
            estimator = make_estimator(package, Generator(instance["seed"]))
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                if learn is None:
                    estimator.fit(instance["X"], instance["y"])
                else:
                    learn(estimator, instance["X"], instance["y"],
                          Generator(instance["seed"] + 1))
            fitted.append(estimator)
        reference, fast = fitted
        refusals = [_refusal(model, instance["X"]) for model in fitted]
        if refusals[0] or refusals[1]:
            return 0.0 if refusals[0] == refusals[1] else -1.0
        disagreements = 0
        for rows in (instance["X"], instance["X_query"]):
            expected = list(reference.predict(rows))
            found = list(fast.predict(rows))
            disagreements += sum(1 for a, b in zip(expected, found) if a != b)
            disagreements += abs(len(expected) - len(found))
            for method in extra_outputs:
                expected = [_flat(r) for r in getattr(reference, method)(rows)]
                found = [_flat(r) for r in getattr(fast, method)(rows)]
                disagreements += sum(1 for a, b in zip(expected, found) if not _same(a, b))
        return float(-disagreements)

    return Theorem(number=18, title=f"Parity: {title}", source="docs/design.md section 1",
                   make_instance=make_instance, check=check,
                   size=lambda inst: len(inst["X"]) * len(inst["X"][0]),
                   describe=lambda inst: f"X={inst['X']!r} y={inst['y']!r} "
                                         f"X_query={inst['X_query']!r} seed={inst['seed']}",
                   quick=quick, default=default, full=full, needs_fast=True)


def _refusal(model, rows):
    """The name of the exception class ``predict`` raises (None when it answers)."""
    try:
        model.predict(rows)
    except Exception as error:
        return type(error).__name__
    return None


def _flat(row):
    return [float(v) for v in row] if hasattr(row, "__iter__") else [float(row)]


def _same(a, b):
    return len(a) == len(b) and all(u == v or (u != u and v != v) for u, v in zip(a, b))
