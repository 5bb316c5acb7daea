"""Fitted models saved and loaded without pickle (``refml.core.model_files``): the same
answers after a round trip in each package and across them, partial_fit going on after a
load, and files that are not model files, or that name anything but refml's own classes,
refused with ValueError before any object is built."""

import json
import warnings

import pytest

from refml.core.model_files import dumps, load_model, loads, save_model
from tests.estimators import REGISTRY

DATA_SEED = 4


def data(lib, K=3, n=90, d=3):
    from refml.core.random import Generator

    rng = Generator(DATA_SEED + K)
    X = [[rng.normal() + (i % K) for _ in range(d)] for i in range(n)]
    y = [["ant", "bee", "cat", "dog"][i % K] for i in range(n)]
    if lib.__name__ == "refml_fast":
        import numpy as np

        return np.array(X), np.array(y, dtype=object)
    return X, y


SETTINGS = {name: [factory] for name, (factory, _) in REGISTRY.items()}
SETTINGS["SVC"].append(lambda lib: lib.SVC(kernel="rbf", C=3.0))
SETTINGS["KNeighborsClassifier"].append(lambda lib: lib.KNeighborsClassifier(
    n_neighbors=4, algorithm="brute"))
SETTINGS["LogisticRegression"].append(lambda lib: lib.LogisticRegression(solver="sgd"))
SETTINGS["NaiveBayes"].append(lambda lib: lib.NaiveBayes(marginal="histogram"))
CASES = [(name, i) for name, makers in SETTINGS.items() for i in range(len(makers))
         if name != "BayesClassifier"]


def fitted(lib, name, i, K=3):
    X, y = data(lib, K)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return SETTINGS[name][i](lib).fit(X, y), X


def answers(model, X):
    out = {"predict": [str(v) for v in list(model.predict(X))]}
    if hasattr(model, "predict_proba"):
        out["predict_proba"] = [[float(p) for p in row] for row in model.predict_proba(X)]
    return out


@pytest.mark.parametrize("name, i", CASES)
def test_a_round_trip_in_refml_gives_the_same_answers(tmp_path, name, i):
    import refml

    model, X = fitted(refml, name, i)
    save_model(model, tmp_path / "model.json")
    again = load_model(tmp_path / "model.json")
    assert type(again) is type(model)
    assert answers(again, X) == answers(model, X)
    assert again.get_params() .keys() == model.get_params().keys()


@pytest.mark.fast
@pytest.mark.parametrize("name, i", CASES)
def test_files_cross_between_the_packages(name, i):
    """refml_fast's file into refml and refml's into refml_fast: the answers of the model
    that was saved, bit for bit (the packages agree after fitting, too)."""
    import refml
    import refml_fast

    for source, target in ((refml_fast, refml), (refml, refml_fast), (refml_fast, refml_fast)):
        model, X = fitted(source, name, i)
        text = dumps(model)
        loaded = loads(text, package=target.__name__)
        assert type(loaded).__module__.split(".")[0] == target.__name__
        X_target = data(target)[0]
        assert answers(loaded, X_target) == answers(model, X), (source.__name__,
                                                                target.__name__)


@pytest.mark.fast
@pytest.mark.parametrize("name, i", CASES)
def test_converted_in_memory_is_the_file_loaded(name, i):
    """``converted(model, package)`` (no text in between) builds what ``loads(dumps(model),
    package)`` builds: the same attributes, of the same types and values."""
    import numpy as np

    import refml
    import refml_fast
    from refml.core.model_files import converted

    def same(a, b):
        assert type(a) is type(b)
        if isinstance(a, np.ndarray):
            assert a.dtype == b.dtype and a.shape == b.shape
            assert np.array_equal(a, b, equal_nan=a.dtype.kind == "f")
        elif isinstance(a, (list, tuple)):
            assert len(a) == len(b)
            for u, v in zip(a, b):
                same(u, v)
        elif isinstance(a, dict):
            assert list(a) == list(b)
            for key in a:
                same(a[key], b[key])
        elif hasattr(a, "__dict__") and not isinstance(a, type):
            same(vars(a), vars(b))
        else:
            assert a == b or (a != a and b != b)

    for source in (refml, refml_fast):
        model = fitted(source, name, i)[0]
        for target in ("refml", "refml_fast"):
            same(converted(model, target), loads(dumps(model), package=target))


@pytest.mark.fast
@pytest.mark.parametrize("name, i", CASES)
def test_refmls_file_in_refml_fast_holds_what_a_fit_there_holds(name, i):
    """Each learned attribute of refml's model loaded into refml_fast has the type (and an
    array its dtype) that refml_fast's own fit gives it: an empty list of LDA's dependent
    features is an int64 array, as fitted (it stayed a list)."""
    import numpy as np

    import refml
    import refml_fast

    loaded = loads(dumps(fitted(refml, name, i)[0]), package="refml_fast")
    own = fitted(refml_fast, name, i)[0]
    for attribute, value in vars(own).items():
        if attribute.endswith("_") and not attribute.startswith("_"):
            theirs = getattr(loaded, attribute)
            assert type(theirs) is type(value), attribute
            if isinstance(value, np.ndarray):
                assert theirs.dtype == value.dtype, attribute


@pytest.mark.fast
@pytest.mark.parametrize("name", ["GaussianNB", "LinearDiscriminantAnalysis",
                                  "QuadraticDiscriminantAnalysis", "Perceptron",
                                  "LogisticRegression"])
def test_partial_fit_goes_on_after_a_load(name):
    """The running statistics travel in the file: saving between two chunks changes
    nothing, in either package and across them."""
    import refml
    import refml_fast

    params = {"solver": "sgd", "random_state": 0} if name == "LogisticRegression" else {}
    if name == "Perceptron":
        params = {"random_state": 0}
    for source, target in ((refml, refml_fast), (refml_fast, refml), (refml_fast, refml_fast)):
        X, y = data(source)
        Xt, yt = data(target)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            straight = getattr(target, name)(**params)
            straight.partial_fit(Xt[:40], yt[:40], classes=["ant", "bee", "cat"])
            straight.partial_fit(Xt[40:], yt[40:])
            first = getattr(source, name)(**params).partial_fit(
                X[:40], y[:40], classes=["ant", "bee", "cat"])
            resumed = loads(dumps(first), package=target.__name__).partial_fit(Xt[40:],
                                                                                yt[40:])
        assert answers(resumed, Xt) == answers(straight, Xt), (source.__name__, name)


def test_a_loaded_model_refuses_a_changed_hyper_parameter_as_a_fitted_one_does():
    import refml

    model, X = fitted(refml, "KNeighborsClassifier", 0)
    loaded = loads(dumps(model))
    loaded.set_params(n_neighbors=50)
    with pytest.raises(ValueError, match="changed after fit"):
        loaded.predict(X)


def test_an_unfitted_estimator_round_trips_unfitted():
    import refml
    from refml.core.base import NotFittedError

    loaded = loads(dumps(refml.SVC(C=2.0, kernel="rbf")))
    assert loaded.get_params()["C"] == 2.0
    with pytest.raises(NotFittedError):
        loaded.predict([[0.0]])


def document_of(model):
    return json.loads(dumps(model))


@pytest.mark.parametrize("tamper, message", [
    (lambda d: d.update(format="pickle"), "not a model file"),
    (lambda d: d.update(version=99), "version"),
    (lambda d: d.update({"class": "os.system"}), "not one of refml's estimators"),
    (lambda d: d.update({"package": "subprocess"}), "package"),
    (lambda d: d["state"].update(classes_={"__object__": ["refml", "Popen"], "state": {}}),
     "not one of refml's estimators"),
    (lambda d: d["state"].update(classes_={"__reduce__": ["os.system", "echo"]}),
     "unexpected value"),
    (lambda d: d["state"].update({"__class__": "x"}), "attribute name"),
    (lambda d: d["state"].update(coef_={"__array__": "float64", "shape": [2, 2],
                                        "data": [1.0]}), "holds 1 values"),
    (lambda d: d["state"].update(coef_={"__array__": "float64", "shape": [1, 1],
                                        "data": [{"__object__": ["refml", "SVC"],
                                                  "state": {}}]}), "numbers"),
    (lambda d: d["state"].update(coef_={"__float__": "1e400"}), "float"),
    (lambda d: d["state"].update(coef_=[[1.0, 2.0, 3.0, 4.0]]), "features"),
    (lambda d: d["state"].update(C=-1.0), "C"),
])
def test_files_that_are_not_honest_model_files_are_refused(tamper, message):
    import refml

    model, _ = fitted(refml, "SVC", 0, K=2)
    document = document_of(model)
    tamper(document)
    with pytest.raises(ValueError, match=message):
        loads(json.dumps(document))


def test_text_that_is_not_json_or_uses_bare_nan_is_refused():
    with pytest.raises(ValueError, match="not a model file"):
        loads("\x80\x04\x95 a pickle")
    with pytest.raises(ValueError, match="bare NaN"):
        loads('{"format": "refml-model", "version": 1, "x": NaN}')


def test_only_refml_estimators_are_saved():
    with pytest.raises(TypeError, match="estimators of refml"):
        dumps(object())
    import refml

    model = refml.PlugInClassifier(posterior=lambda x: [0.5, 0.5])
    with pytest.raises(TypeError, match="cannot save a value of type"):
        dumps(model)


def test_non_finite_floats_are_written_as_strict_json():
    import refml

    model = refml.SVC(C=float("inf"))
    text = dumps(model)
    json.loads(text, parse_constant=lambda name: pytest.fail(f"bare {name}"))
    assert loads(text).C == float("inf")
