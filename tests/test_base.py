"""The estimator contract of refml.core.base on a tiny classifier defined here."""

import pickle

import pytest

from refml.core.base import (
    BaseEstimator,
    Classifier,
    ConvergenceWarning,
    NotFittedError,
    clone,
    warn_not_converged,
)


class MajorityClassifier(Classifier):
    """Predicts the most frequent training class (ties: the first in classes_ order)."""

    def __init__(self, *, offset=0, name="m", fail=False):
        self.offset = offset
        self.name = name
        self.fail = fail

    def _check_params(self, X):
        if self.offset < 0:
            raise ValueError("Invalid parameter offset")

    def _fit(self, X, codes):
        if self.fail:
            raise RuntimeError("boom")
        counts = [list(codes).count(k) for k in range(len(self.classes_))]
        self.majority_ = counts.index(max(counts))

    def _predict_codes(self, X):
        return [self.majority_] * len(X)


class Wrapper(BaseEstimator):
    def __init__(self, *, inner=None, size=1):
        self.inner = inner
        self.size = size


X = [[0.0], [1.0], [2.0], [3.0]]


def test_fit_sets_classes_and_features_and_predicts_from_classes():
    model = MajorityClassifier().fit(X, ["b", "a", "b", "c"])
    assert model.classes_ == ["a", "b", "c"] and model.n_features_in_ == 1
    assert model.predict([[5.0], [6.0]]) == ["b", "b"]
    assert model.score(X, ["b", "b", "a", "b"]) == 0.75


def test_majority_tie_goes_to_first_class():
    assert MajorityClassifier().fit(X, [2, 1, 2, 1]).predict([[0.0]]) == [1]


def test_get_set_params_and_repr():
    model = MajorityClassifier(offset=2)
    assert model.get_params() == {"fail": False, "name": "m", "offset": 2}
    assert repr(model) == "MajorityClassifier(offset=2)"
    assert model.set_params(name="z") is model and model.name == "z"
    with pytest.raises(ValueError, match="Invalid parameter 'nope'"):
        model.set_params(nope=1)


def test_parameter_names_are_each_classs_own_and_a_fresh_list():
    """The names are read from ``__init__`` once per class: a subclass with another
    ``__init__`` gets its own, the parent keeps its, and a caller may change the list it
    got."""
    class Wider(MajorityClassifier):
        def __init__(self, *, offset=0, name="m", fail=False, extra=1):
            super().__init__(offset=offset, name=name, fail=fail)
            self.extra = extra

    assert MajorityClassifier._param_names() == ["fail", "name", "offset"]
    assert Wider._param_names() == ["extra", "fail", "name", "offset"]
    assert MajorityClassifier._param_names() == ["fail", "name", "offset"]
    names = Wider._param_names()
    names.append("changed")
    assert Wider._param_names() == ["extra", "fail", "name", "offset"]
    assert Wider(extra=5).get_params() == {"extra": 5, "fail": False, "name": "m",
                                           "offset": 0}


def test_nested_params_and_clone():
    outer = Wrapper(inner=MajorityClassifier(offset=1), size=3)
    assert outer.get_params()["inner__offset"] == 1
    outer.set_params(inner__offset=4)
    assert outer.inner.offset == 4
    twin = clone(outer)
    assert twin.inner is not outer.inner and twin.inner.offset == 4 and twin.size == 3


def test_failed_fit_leaves_no_learned_state():
    model = MajorityClassifier(fail=True)
    with pytest.raises(RuntimeError):
        model.fit(X, [0, 1, 0, 1])
    assert not hasattr(model, "classes_")
    with pytest.raises(NotFittedError):
        model.predict(X)


def test_bad_hyper_parameter_is_reported_at_fit_not_init():
    model = MajorityClassifier(offset=-1)
    with pytest.raises(ValueError, match="offset"):
        model.fit(X, [0, 1, 0, 1])
    assert not hasattr(model, "classes_")


def test_not_fitted_error_is_value_and_attribute_error():
    with pytest.raises(ValueError):
        MajorityClassifier().predict(X)
    with pytest.raises(AttributeError):
        MajorityClassifier().predict(X)


def test_pickle_round_trip():
    model = MajorityClassifier().fit(X, [0, 1, 1, 1])
    assert pickle.loads(pickle.dumps(model)).predict(X) == model.predict(X)


def test_convergence_warning_is_a_user_warning():
    with pytest.warns(ConvergenceWarning, match="cap"):
        warn_not_converged("stopped at the cap")


@pytest.mark.fast
@pytest.mark.filterwarnings("ignore::refml.core.base.ConvergenceWarning")
@pytest.mark.parametrize("dtype", ["int64", "int32", "uint8", "uint64", "bool"])
def test_integer_label_arrays_give_refml_classes_and_predictions(dtype):
    """refml_fast encodes 1-D integer and bool label arrays with numpy: classes_ (Python
    values, sorted), the codes and so the predictions equal refml's, for every classifier
    (uint64 labels above 2^63 came back as floats from predict before labels kept their
    values in an object array)."""
    import numpy as np

    import refml
    import refml_fast
    from tests.estimators import X3, Y2, Y3, available

    mapping = {"int64": [-7, 0, 12], "int32": [3, -2, 5], "uint8": [255, 0, 9],
               "uint64": [2 ** 64 - 1, 2 ** 63, 1], "bool": [True, False, True]}[dtype]
    for name, factory, binary in available(refml_fast):
        codes = Y2 if binary or dtype == "bool" else Y3
        y = np.array([mapping[code] for code in codes], dtype=dtype)
        outcomes = []
        for lib, X in ((refml, X3), (refml_fast, np.array(X3))):
            try:
                model = factory(lib).fit(X, y if lib is refml_fast else y.tolist())
                classes = model.classes_
                if lib is refml_fast:  # numpy arrays: compare their Python values
                    assert isinstance(classes, np.ndarray), name
                    classes = classes.tolist()
                outcomes.append((classes, [type(c) for c in classes],
                                 list(model.predict(X))))
            except (ValueError, TypeError) as error:
                outcomes.append((type(error), str(error)))
        assert outcomes[0] == outcomes[1], name
        assert name == "BayesClassifier" or len(outcomes[0]) == 3, (name, outcomes[0])


@pytest.mark.parametrize("name, args, expected", [
    ("KNeighborsClassifier", (5,), {"n_neighbors": 5}),
    ("RandomForestClassifier", (20,), {"n_estimators": 20}),
    ("BaggingClassifier", (None, 7), {"estimator": None, "n_estimators": 7}),
    ("AdaBoostClassifier", (None,), {"estimator": None}),
])
def test_the_first_hyper_parameters_are_positional_where_scikit_learns_are(lib, name, args,
                                                                         expected):
    import inspect

    model = getattr(lib, name)(*args)
    assert {key: model.get_params()[key] for key in expected} == expected
    with pytest.raises(TypeError):
        getattr(lib, name)(*args, *([None] * 3))     # the rest stay keyword-only
    kinds = [p.kind for p in inspect.signature(type(model).__init__).parameters.values()]
    assert kinds.count(inspect.Parameter.POSITIONAL_OR_KEYWORD) == 1 + len(args)   # + self


# Rows that no line separates (XOR), so that a perceptron stopped by max_iter warns; a third
# feature equal to the first, so that LDA warns of collinear features; overlapping classes
# on a line, so that logistic regression stopped at one step warns.
XOR = ([[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]], [0, 0, 1, 1])
COLLINEAR = ([[0.0, 0.0, 0.0], [1.0, 1.0, 1.0], [0.0, 1.0, 0.0], [1.0, 0.0, 1.0]], [0, 0, 1, 1])
OVERLAPPING = ([[0.0], [1.0], [2.0], [3.0], [4.0]], [0, 1, 0, 1, 1])


@pytest.mark.parametrize("make, data", [
    (lambda lib: lib.Perceptron(max_iter=3, tol=None), XOR),
    (lambda lib: lib.LogisticRegression(solver="gd", max_iter=1, tol=1e-12), OVERLAPPING),
    (lambda lib: lib.LinearDiscriminantAnalysis(), COLLINEAR),
], ids=["perceptron", "logistic", "lda"])
def test_warnings_point_at_the_callers_line(lib, make, data):
    """A warning names the user's file and line, not refml's (both packages, any depth)."""
    import inspect
    import warnings

    X, y = data
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        line = inspect.currentframe().f_lineno + 1
        make(lib).fit(X, y)
    assert caught, "no warning was raised"
    for warning in caught:
        assert warning.filename == __file__ and warning.lineno == line, (
            f"{warning.category.__name__} points at {warning.filename}:{warning.lineno}")
