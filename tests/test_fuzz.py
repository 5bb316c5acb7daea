"""Property-based parity of the two packages (hypothesis), for every estimator.

On random small data, with duplicate rows, exact ties on a grid, one to three features,
integer or string labels and optional sample weights, refml (on lists) and refml_fast (on
numpy arrays) must agree: the same predicted labels, the same probabilities and decision
values float for float (NaN matching NaN), or the same exception type and message.  Bad
input, one corrupted entry at a time, must raise the same ValueError or TypeError in both.

The examples are derandomised, so CI sees the same ones every run (well under a minute).
``REFML_FUZZ_SCALE=1000`` multiplies the number of examples and draws them afresh.
"""

import inspect
import math
import os
import warnings

import pytest

hypothesis = pytest.importorskip("hypothesis")  # in the test extra: never skipped in CI
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from tests.estimators import REGISTRY  # noqa: E402

pytestmark = pytest.mark.fast

SCALE = int(os.environ.get("REFML_FUZZ_SCALE", "1"))
SETTINGS = settings(max_examples=12 * SCALE, deadline=None, derandomize=SCALE == 1,
                    suppress_health_check=list(HealthCheck), database=None)
ANSWERS = ("predict_proba", "predict_log_proba", "decision_function")


@st.composite
def data_sets(draw, binary):
    """(X, y, weights): rows on a coarse grid (duplicates and ties) or free floats."""
    n_features = draw(st.integers(1, 3))
    n_classes = 2 if binary else draw(st.integers(2, 3))
    n = draw(st.integers(n_classes * 2, 12))
    if draw(st.booleans()):
        value = st.sampled_from([-1.0, 0.0, 0.5, 1.0, 2.0])
    else:
        value = st.floats(-10.0, 10.0, allow_nan=False, width=64)
    X = [[draw(value) for _ in range(n_features)] for _ in range(n)]
    codes = [k % n_classes for k in range(n_classes)] + [
        draw(st.integers(0, n_classes - 1)) for _ in range(n - n_classes)]
    codes = draw(st.permutations(codes))
    labels = draw(st.sampled_from(["int", "str"]))
    names = {"int": [3, 7, 11], "str": ["ant", "bee", "cat"]}[labels]
    y = [names[c] for c in codes]
    weights = None
    if draw(st.booleans()):
        weights = [draw(st.sampled_from([0.0, 0.5, 1.0, 2.0, 3.0])) for _ in range(n)]
        if not any(weights):
            weights[0] = 1.0
    return X, y, weights


def _outcome(lib_name, name, X, y, weights, queries):
    """What one package answers: ("ok", labels, extra outputs) or ("error", type, message)."""
    import importlib

    import numpy as np

    lib = importlib.import_module(lib_name)
    factory, _ = REGISTRY[name]
    model = factory(lib)
    fast = lib_name == "refml_fast"
    as_data = (lambda rows: np.array(rows)) if fast else (lambda rows: rows)
    kwargs = {}
    if weights is not None and "sample_weight" in inspect.signature(model.fit).parameters:
        kwargs["sample_weight"] = np.array(weights) if fast else list(weights)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model.fit(as_data(X), np.array(y) if fast else y, **kwargs)
            labels = [_plain(v) for v in model.predict(as_data(queries))]
            extra = {}
            for method in ANSWERS:
                if hasattr(model, method):
                    extra[method] = _floats(getattr(model, method)(as_data(queries)))
    except (ValueError, TypeError) as error:
        return ("error", type(error).__name__, str(error))
    return ("ok", labels, extra)


def _plain(value):
    return value.item() if hasattr(value, "item") else value


def _floats(values):
    """Nested lists of floats, NaN as the string 'nan' (so that NaN equals NaN)."""
    values = values.tolist() if hasattr(values, "tolist") else values
    if isinstance(values, list):
        return [_floats(v) for v in values]
    return "nan" if math.isnan(values) else float(values)


def _check_parity(name, X, y, weights):
    queries = X + [[v + 0.25 for v in row] for row in X[:3]]
    reference = _outcome("refml", name, X, y, weights, queries)
    fast = _outcome("refml_fast", name, X, y, weights, queries)
    assert reference == fast


@pytest.mark.parametrize("name", sorted(n for n in REGISTRY if n != "BayesClassifier"))
def test_parity_on_random_data(name):
    binary = REGISTRY[name][1]

    @SETTINGS
    @given(data_sets(binary))
    def check(data):
        _check_parity(name, *data)

    check()


BAD_VALUES = [math.nan, math.inf, -math.inf, "a", None, complex(1, 1), {"k": 1}, 1e400]


@pytest.mark.parametrize("name", sorted(n for n in REGISTRY if n != "BayesClassifier"))
def test_bad_input_raises_the_same_error_in_both(name):
    binary = REGISTRY[name][1]

    @SETTINGS
    @given(data_sets(binary), st.sampled_from(BAD_VALUES), st.data())
    def check(data, bad, choice):
        X, y, weights = data
        i = choice.draw(st.integers(0, len(X) - 1))
        j = choice.draw(st.integers(0, len(X[0]) - 1))
        corrupted = [list(row) for row in X]
        corrupted[i][j] = bad
        reference = _bad_outcome("refml", name, corrupted, y)
        fast = _bad_outcome("refml_fast", name, corrupted, y)
        assert reference[0] == "error", reference
        assert reference == fast

    check()


def _bad_outcome(lib_name, name, X, y):
    import importlib

    lib = importlib.import_module(lib_name)
    model = REGISTRY[name][0](lib)
    try:
        model.fit(X, y)   # the same Python lists for both: one validation module decides
    except (ValueError, TypeError) as error:
        return ("error", type(error).__name__, str(error))
    return ("fitted",)


@SETTINGS
@given(data_sets(False))
def test_density_parity_on_random_data(data):
    import numpy as np

    import refml
    import refml_fast

    X, _, _ = data
    queries = X + [[v + 0.25 for v in row] for row in X[:3]]
    for make in (lambda lib: lib.KernelDensity(bandwidth=0.7),
                 lambda lib: lib.KernelDensity(kernel="epanechnikov", bandwidth=1.5),
                 lambda lib: lib.Histogram(bins=3)):
        outcomes = []
        for lib, convert in ((refml, list), (refml_fast, np.array)):
            try:
                model = make(lib).fit(convert(X))
                outcomes.append((_floats(model.pdf(convert(queries))),
                                 _floats(model.score_samples(convert(queries)))))
            except (ValueError, TypeError) as error:
                outcomes.append((type(error).__name__, str(error)))
        assert outcomes[0] == outcomes[1]
