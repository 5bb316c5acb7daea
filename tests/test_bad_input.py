"""docs/design.md section 5, row by row, for every classifier of both packages.

Each row feeds one kind of bad input to ``fit`` or ``predict`` and checks the exception type
and the words of its message; the last tests check that nothing is mutated, nothing is
half-fitted, pickling keeps predictions, and predict leaves the estimator unchanged.
"""

import copy
import importlib
import pickle
import warnings

import pytest

from tests.estimators import REGISTRY, data_for


def _cases():
    """(package, name) for every registered classifier each package has (refml_fast's
    package module imports without numpy, so collection works in the bare run too)."""
    cases = []
    for package in ("refml", "refml_fast"):
        names = set(importlib.import_module(package).__all__)
        marks = [pytest.mark.fast] if package == "refml_fast" else []
        cases += [pytest.param((package, name), id=f"{package}-{name}", marks=marks)
                  for name in REGISTRY if name in names]
    return cases


@pytest.fixture(params=_cases())
def case(request):
    package, name = request.param
    factory, binary = REGISTRY[name]
    X, y = data_for(binary)
    return factory(importlib.import_module(package)), X, y


def fitted(estimator, X, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return estimator.fit(X, y)


FIT_ROWS = [
    # (description, transform(X, y) -> (X, y), exception, words)
    ("NaN in X", lambda X, y: ([[float("nan")] + r[1:] for r in X[:1]] + X[1:], y), ValueError,
     "NaN"),
    ("inf in X", lambda X, y: (X[:-1] + [[float("inf"), 0.0]], y), ValueError, "infinity"),
    ("NaN in y", lambda X, y: (X, [float("nan")] + [float(v) for v in y[1:]]), ValueError, "NaN"),
    ("0 samples", lambda X, y: ([], []), ValueError, "0 sample(s)"),
    ("0 features", lambda X, y: ([[] for _ in X], y), ValueError, "0 feature(s)"),
    ("ragged rows", lambda X, y: ([X[0] + [1.0]] + X[1:], y), ValueError, "inconsistent"),
    ("len(X) != len(y)", lambda X, y: (X, y[:-1]), ValueError, "inconsistent numbers of samples"),
    ("1-D X", lambda X, y: ([r[0] for r in X], y), ValueError, "Expected 2D"),
    ("one class", lambda X, y: (X, [y[0]] * len(y)), ValueError, "class"),
    ("continuous labels", lambda X, y: (X, [0.5 + i for i in range(len(y))]), ValueError,
     "Unknown label type"),
    ("complex X", lambda X, y: ([[complex(1, 1), 0.0]] + X[1:], y), (TypeError, ValueError),
     "omplex"),
    ("string X", lambda X, y: ([["a", 0.0]] + X[1:], y), (TypeError, ValueError), "str"),
]


@pytest.mark.parametrize("row", FIT_ROWS, ids=[r[0] for r in FIT_ROWS])
def test_fit_rejects_bad_input(case, row):
    estimator, X, y = case
    description, transform, exception, words = row
    bad_X, bad_y = transform(copy.deepcopy(X), list(y))
    with pytest.raises(exception, match=_escape(words)):
        estimator.fit(bad_X, bad_y)
    assert not [a for a in vars(estimator) if a.endswith("_") and not a.startswith("_")], \
        f"{description}: a failed fit left learned state behind"


def _escape(words):
    import re
    return re.escape(words)


PREDICT_ROWS = [
    ("NaN in X", lambda X: [[float("nan"), 0.0]], ValueError, "NaN"),
    ("inf in X", lambda X: [[0.0, float("-inf")]], ValueError, "infinity"),
    ("1-D X", lambda X: [0.0, 1.0], ValueError, "Expected 2D"),
    ("ragged rows", lambda X: [[0.0, 1.0], [1.0]], ValueError, "inconsistent"),
    ("too many features", lambda X: [[0.0, 1.0, 2.0]], ValueError, "3 features"),
    ("too few features", lambda X: [[0.0]], ValueError, "expecting 2 features"),
]


@pytest.mark.parametrize("row", PREDICT_ROWS, ids=[r[0] for r in PREDICT_ROWS])
def test_predict_rejects_bad_input(case, row):
    estimator, X, y = case
    fitted(estimator, X, y)
    description, make_X, exception, words = row
    with pytest.raises(exception, match=_escape(words)):
        estimator.predict(make_X(X))


def test_predict_before_fit_raises_not_fitted(case):
    estimator, X, y = case
    import refml

    if type(estimator).__name__ == "BayesClassifier":
        # The Bayes rule of a known distribution needs no fit: it answers at once, the
        # same as after a fit.
        before_fit = list(estimator.predict(X))
        assert before_fit == list(fitted(estimator, X, y).predict(X))
        return
    with pytest.raises(refml.NotFittedError) as info:
        estimator.predict(X)
    assert isinstance(info.value, ValueError) and isinstance(info.value, AttributeError)


def test_fit_mutates_nothing_and_predict_changes_nothing(case):
    estimator, X, y = case
    X_before, y_before = copy.deepcopy(X), list(y)
    fitted(estimator, X, y)
    assert X == X_before and y == y_before
    state = pickle.dumps(estimator)
    estimator.predict(X)
    assert pickle.dumps(estimator) == state


def test_pickle_round_trip_keeps_predictions(case):
    estimator, X, y = case
    fitted(estimator, X, y)
    restored = pickle.loads(pickle.dumps(estimator))
    assert list(restored.predict(X)) == list(estimator.predict(X))
    assert set(estimator.predict(X)) <= set(estimator.classes_)


def test_params_repr_and_clone(case):
    estimator, X, y = case
    import refml

    params = estimator.get_params()
    twin = refml.clone(estimator)
    assert type(twin) is type(estimator) and twin.get_params().keys() == params.keys()
    assert repr(estimator).startswith(type(estimator).__name__ + "(")
    with pytest.raises(ValueError, match="Invalid parameter"):
        estimator.set_params(no_such_parameter=1)


@pytest.mark.parametrize("scale", [1e300, 1e-300, 1e150])
def test_numeric_extremes_fit_or_fail_clearly(case, scale):
    """docs/design.md section 5, extremes: no overflow crash, no NaN: a stable answer or a
    clear error."""
    import math

    estimator, X, y = case
    extreme = [[value * scale for value in row] for row in X]
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # numpy's overflow / invalid value
        warnings.simplefilter("ignore", UserWarning)    # ConvergenceWarning and friends
        try:
            estimator.fit(extreme, y)
        except ValueError as error:
            assert str(error), "the error must say what went wrong"
            assert not [a for a in vars(estimator) if a.endswith("_") and not a.startswith("_")]
            return
        predictions = list(estimator.predict(extreme))
        assert set(predictions) <= set(estimator.classes_)
        if hasattr(estimator, "predict_proba"):
            for row in estimator.predict_proba(extreme):
                assert all(math.isfinite(p) and 0.0 <= p <= 1.0 for p in row)
                assert math.isclose(sum(row), 1.0, rel_tol=1e-9)
