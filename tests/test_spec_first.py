"""refml_fast answering with refml's specification while its kernels are cold
(refml_fast.runtime.spec_first): the same answers as the kernels, only while it pays, and
never where the kernels are what is asked for."""

import warnings

import pytest

pytestmark = pytest.mark.fast

CHAPTERS = ("svm", "neighbors", "linear", "tree", "ensemble", "discriminant", "density",
            "perceptron")


@pytest.fixture
def cold(monkeypatch):
    """Every chapter's kernels taken as cold, nothing spent yet, the specification on;
    (numpy, refml_fast, spec_first, spec_costs), imported here (the bare CI run has none)."""
    import numpy as np

    import refml_fast as rf
    from refml_fast.runtime import spec_costs, spec_first

    monkeypatch.setenv("REFML_SPEC_FIRST", "1")
    monkeypatch.setattr(spec_first, "_COMPILED", set())
    monkeypatch.setattr(spec_first, "_SPENT", {})
    monkeypatch.setattr(spec_first, "_TOLD", set())
    monkeypatch.setattr(spec_first, "_USED", set())
    monkeypatch.setattr(spec_first, "_CACHED", {chapter: False for chapter in CHAPTERS})
    return np, rf, spec_first, spec_costs


MAKERS = {
    "svc linear": lambda rf: rf.SVC(C=0.5),
    "svc rbf": lambda rf: rf.SVC(kernel="rbf", C=3.0),
    "svc poly ovo": lambda rf: rf.SVC(kernel="poly", degree=2, decision_function_shape="ovo"),
    "knn": lambda rf: rf.KNeighborsClassifier(5),
    "logistic": lambda rf: rf.LogisticRegression(),
    "logistic penalised": lambda rf: rf.LogisticRegression(alpha=0.5),
    "tree": lambda rf: rf.DecisionTreeClassifier(max_depth=4, max_features=2, random_state=2),
    "forest": lambda rf: rf.RandomForestClassifier(n_estimators=8, random_state=3),
    "bagging": lambda rf: rf.BaggingClassifier(n_estimators=5, random_state=1),
    "bagging of logistic": lambda rf: rf.BaggingClassifier(rf.LogisticRegression(alpha=0.1),
                                                        n_estimators=3, random_state=4),
    "boosting": lambda rf: rf.AdaBoostClassifier(n_estimators=6),
    "lda": lambda rf: rf.LinearDiscriminantAnalysis(),
    "lda, maximum likelihood": lambda rf: rf.LinearDiscriminantAnalysis(
        covariance="mle", reg_param=0.1),
    "qda": lambda rf: rf.QuadraticDiscriminantAnalysis(reg_param=0.05),
    "least squares": lambda rf: rf.LeastSquaresClassifier(),
    "gaussian nb": lambda rf: rf.GaussianNB(),
    "perceptron": lambda rf: rf.Perceptron(),
    "perceptron random multinomial": lambda rf: rf.Perceptron(
        order="random", multi_class="multinomial", schedule="decreasing", random_state=1),
    "perceptron uniform, the lectures' loop": lambda rf: rf.Perceptron(
        order="uniform", tol=None, max_iter=30, random_state=2),
}
WEIGHTED = {"tree", "forest", "bagging", "boosting"}


def problem(seed, n_classes, n=120, d=4):
    import numpy as np

    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = rng.integers(0, n_classes, n)
    X[:, 0] += y
    labels = np.array(["north", "east", "south", "west"])[y]
    weights = rng.uniform(0.2, 3.0, n)
    return X, labels, weights, rng.normal(size=(30, d))


def answers(model, Xt):
    out = {"predict": model.predict(Xt)}
    for name in ("predict_proba", "predict_log_proba", "decision_function"):
        if hasattr(model, name):
            out[name] = getattr(model, name)(Xt)
    return out


def fitted(make, X, y, weights, use_weights, monkeypatch, on):
    import refml_fast

    monkeypatch.setenv("REFML_SPEC_FIRST", "1" if on else "0")
    model = make(refml_fast)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if use_weights:
            model.fit(X, y, sample_weight=weights)
        else:
            model.fit(X, y)
    return model


@pytest.mark.parametrize("name", sorted(MAKERS))
@pytest.mark.parametrize("n_classes", [2, 3, 4])
def test_same_answers_and_state_as_the_kernels(cold, monkeypatch, name, n_classes):
    np, rf, spec_first, spec_costs = cold
    X, y, weights, Xt = problem(7 * n_classes + len(name), n_classes)
    use_weights = name in WEIGHTED
    first = fitted(MAKERS[name], X, y, weights, use_weights, monkeypatch, on=True)
    assert first in spec_first._TWINS          # refml fitted it
    kernels = fitted(MAKERS[name], X, y, weights, use_weights, monkeypatch, on=False)
    assert kernels not in spec_first._TWINS
    expected = answers(kernels, Xt)
    spec_first._COMPILED.clear()                # the kernels ran: cold again for the twin
    monkeypatch.setenv("REFML_SPEC_FIRST", "1")
    got = answers(first, Xt)
    assert sorted(got) == sorted(expected)
    for method, values in expected.items():
        assert got[method].dtype == values.dtype and got[method].shape == values.shape
        np.testing.assert_array_equal(got[method], values, err_msg=method)
    assert first in spec_first._TWINS          # and answered every call
    for attribute, value in vars(kernels).items():
        if attribute.endswith("_") and isinstance(value, np.ndarray):
            mine = getattr(first, attribute)
            assert mine.dtype == value.dtype, attribute
            np.testing.assert_array_equal(mine, value, err_msg=attribute)


def test_other_methods_run_the_kernels_on_the_converted_state(cold, monkeypatch):
    np, rf, spec_first, spec_costs = cold
    X, y, _, Xt = problem(3, 3)
    first = fitted(lambda rf: rf.KNeighborsClassifier(4), X, y, None, False, monkeypatch, True)
    kernels = fitted(lambda rf: rf.KNeighborsClassifier(4), X, y, None, False, monkeypatch, False)
    for a, b in zip(first.kneighbors(Xt), kernels.kneighbors(Xt)):
        np.testing.assert_array_equal(a, b)
    tree = fitted(lambda rf: rf.DecisionTreeClassifier(random_state=0), X, y, None, False,
                  monkeypatch, True)
    np.testing.assert_array_equal(tree.apply(Xt), fitted(
        lambda rf: rf.DecisionTreeClassifier(random_state=0), X, y, None, False, monkeypatch,
        False).apply(Xt))


def test_first_use_only_then_the_kernels(cold, monkeypatch):
    """A class's first fit and the first call of each answering method; a second fit, or a
    second call of a method, compiles the kernels, and then every twin of the chapter
    steps aside (a benchmark's repeated calls time the kernels)."""
    np, rf, spec_first, spec_costs = cold
    X, y, _, Xt = problem(1, 3)
    first, second = rf.LogisticRegression().fit(X, y), rf.LogisticRegression().fit(X, y)
    assert first in spec_first._TWINS and second not in spec_first._TWINS
    assert "linear" in spec_first._COMPILED
    spec_first._COMPILED.clear()                # another setting is a first use of its own
    assert rf.LogisticRegression(alpha=0.25, random_state=3).fit(X, y) in spec_first._TWINS
    # a numpy generator is no plain value: the kernels take it
    spec_first._COMPILED.clear()
    numpy_seeded = rf.LogisticRegression(alpha=0.5, random_state=np.random.RandomState(0))
    assert numpy_seeded.fit(X, y) not in spec_first._TWINS
    spec_first._COMPILED.clear()                # cold again: the twin answers once a method
    once = first.predict_proba(Xt)
    assert first in spec_first._TWINS
    np.testing.assert_array_equal(first.predict(Xt), second.predict(Xt))
    assert first in spec_first._TWINS
    np.testing.assert_array_equal(first.predict_proba(Xt), once)   # the second: kernels
    assert first not in spec_first._TWINS and "linear" in spec_first._COMPILED
    np.testing.assert_array_equal(once, second.predict_proba(Xt))


def test_refml_is_asked_for_no_more_than_the_compile(cold, monkeypatch):
    """The estimated seconds add up per chapter, over its classes; past the chapter's
    compile seconds the kernels fit."""
    np, rf, spec_first, spec_costs = cold
    X, y, _, _ = problem(2, 2)
    forest = rf.RandomForestClassifier(n_estimators=5, random_state=0)
    bagging = rf.BaggingClassifier(n_estimators=5, random_state=0)
    boosting = rf.AdaBoostClassifier(n_estimators=5)
    costs = [spec_costs.fit_seconds(m, *X.shape, 2) for m in (forest, bagging, boosting)]
    monkeypatch.setitem(spec_costs.COMPILE_SECONDS, "ensemble", costs[0] + costs[1] * 1.01)
    fitted_by = [m.fit(X, y) in spec_first._TWINS for m in (forest, bagging, boosting)]
    assert fitted_by == [True, True, False]
    assert spec_first._SPENT["ensemble"] == pytest.approx(costs[0] + costs[1])
    monkeypatch.setitem(spec_costs.COMPILE_SECONDS, "svm", 0.0)
    assert rf.SVC().fit(X, y) not in spec_first._TWINS


def test_large_work_compiles_and_answers_the_same(cold, monkeypatch):
    np, rf, spec_first, spec_costs = cold
    X, y, _, _ = problem(2, 3)
    model = rf.KNeighborsClassifier(3).fit(X, y)
    assert model in spec_first._TWINS
    budget = spec_costs.COMPILE_SECONDS["neighbors"]
    rows = int(budget / spec_costs.knn_answer(model, 1, X.shape[1], len(X))) + 10
    many = np.random.default_rng(0).normal(size=(rows, X.shape[1]))
    got = model.predict(many)                       # too much for the specification
    assert model not in spec_first._TWINS and "neighbors" in spec_first._COMPILED
    monkeypatch.setenv("REFML_SPEC_FIRST", "0")
    np.testing.assert_array_equal(got, rf.KNeighborsClassifier(3).fit(X, y).predict(many))


def test_not_used_when_off_cached_or_inside_another_fit(cold, monkeypatch):
    np, rf, spec_first, spec_costs = cold
    X, y, _, _ = problem(4, 2)
    monkeypatch.setenv("REFML_SPEC_FIRST", "0")
    assert rf.DecisionTreeClassifier().fit(X, y) not in spec_first._TWINS
    monkeypatch.setenv("REFML_SPEC_FIRST", "1")
    spec_first._CACHED["svm"] = True
    assert rf.SVC().fit(X, y) not in spec_first._TWINS
    # an ensemble whose chapter is compiled fits refml_fast trees: none of them by refml
    spec_first._COMPILED.add("ensemble")
    forest = rf.RandomForestClassifier(n_estimators=3, random_state=0).fit(X, y)
    assert forest not in spec_first._TWINS
    assert not any(type(m).__name__ == "DecisionTreeClassifier" for m in spec_first._TWINS)


def test_partial_fit_and_refit_drop_the_twin(cold, monkeypatch):
    np, rf, spec_first, spec_costs = cold
    X, y, _, Xt = problem(5, 3)
    first = rf.LogisticRegression(random_state=0).fit(X, y)
    assert first in spec_first._TWINS
    first.partial_fit(X[:40], y[:40])
    assert first not in spec_first._TWINS
    monkeypatch.setenv("REFML_SPEC_FIRST", "0")
    kernels = rf.LogisticRegression(random_state=0).fit(X, y).partial_fit(X[:40], y[:40])
    np.testing.assert_array_equal(first.predict_proba(Xt), kernels.predict_proba(Xt))
    monkeypatch.setenv("REFML_SPEC_FIRST", "1")
    again = rf.SVC().fit(X, y)
    assert again in spec_first._TWINS
    spec_first._COMPILED.add("svm")
    again.fit(X, y)
    assert again not in spec_first._TWINS


def test_bad_input_gets_the_kernels_errors_and_nothing_is_kept(cold):
    np, rf, spec_first, spec_costs = cold
    X, y, _, _ = problem(6, 2)
    with pytest.raises(ValueError):
        rf.SVC(C=-1.0).fit(X, y)
    model = rf.DecisionTreeClassifier().fit(X, y)
    with pytest.raises(ValueError):
        model.predict(X[:, :2])
    with pytest.raises(ValueError):
        model.predict(np.full_like(X, np.nan))
    assert "svm" not in spec_first._SPENT       # refused before any estimate


def test_says_so_once_per_chapter(cold, capsys):
    np, rf, spec_first, spec_costs = cold
    X, y, _, _ = problem(8, 2)
    rf.DecisionTreeClassifier().fit(X, y)
    rf.DecisionTreeClassifier(max_depth=2).fit(X, y)
    rf.SVC().fit(X, y)
    err = capsys.readouterr().err
    assert err.count("answers with refml's specification") == 2
    assert "tree kernels" in err and "svm kernels" in err


def perceptron_problem(np, separable):
    rng = np.random.default_rng(11)
    X = rng.normal(size=(200, 3))
    y = (X[:, 0] + 0.5 * X[:, 1] > 0).astype(int)
    if not separable:
        y[:20] = 1 - y[:20]
    return X, y


def fit_recording(model, X, y):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model.fit(X, y)
    return model, [str(w.message) for w in caught]


def test_a_fit_of_passes_runs_as_many_as_the_budget_has_room_for(cold, monkeypatch):
    """The perceptron's passes stop by its own rule, not known ahead: refml runs at most the
    passes the chapter's budget has room for; stopped by its rule within them, its fit is the
    kernels' (warnings included) and the passes it did not run are given back; stopped by
    that cap, the kernels fit, the cap's passes counted as spent, no warning of the cap."""
    np, rf, spec_first, spec_costs = cold
    X, y = perceptron_problem(np, separable=False)
    per_pass = spec_costs.pass_seconds(rf.Perceptron(), *X.shape, 2)
    monkeypatch.setitem(spec_costs.COMPILE_SECONDS, "perceptron", 4.5 * per_pass)
    capped, messages = fit_recording(rf.Perceptron(tol=None, max_iter=50), X, y)
    assert capped not in spec_first._TWINS and "perceptron" in spec_first._COMPILED
    assert spec_first._SPENT["perceptron"] == pytest.approx(4 * per_pass)
    assert capped.n_iter_ == 50
    assert len(messages) == 1 and "max_iter=50 passes" in messages[0]

    spec_first._COMPILED.clear()
    spec_first._SPENT.clear()
    monkeypatch.setitem(spec_costs.COMPILE_SECONDS, "perceptron", 40.5 * per_pass)
    patient, messages = fit_recording(rf.Perceptron(tol=0.5, max_iter=50), X, y)
    assert patient in spec_first._TWINS and 5 < patient.n_iter_ < 40
    assert spec_first._SPENT["perceptron"] == pytest.approx(patient.n_iter_ * per_pass)
    monkeypatch.setenv("REFML_SPEC_FIRST", "0")
    kernels, expected = fit_recording(rf.Perceptron(tol=0.5, max_iter=50), X, y)
    assert messages == expected and len(expected) == 1
    for name in ("coef_", "intercept_", "n_iter_", "n_mistakes_", "converged_"):
        np.testing.assert_array_equal(getattr(patient, name), getattr(kernels, name))

    monkeypatch.setenv("REFML_SPEC_FIRST", "1")
    spec_first._COMPILED.clear()
    X, y = perceptron_problem(np, separable=True)
    separated, messages = fit_recording(rf.Perceptron(tol=None, max_iter=1000), X, y)
    assert separated in spec_first._TWINS and separated.converged_ and messages == []


def test_partial_fit_goes_on_from_the_twins_perceptron(cold, monkeypatch):
    """The perceptron's stream (theta, the rows examined, the random state) comes over from
    refml's fit: partial_fit then goes on as after the kernels' fit."""
    np, rf, spec_first, spec_costs = cold
    X, y, _, Xt = problem(9, 3)
    for params in ({}, {"multi_class": "multinomial", "order": "random", "random_state": 1}):
        spec_first._COMPILED.clear()
        first = rf.Perceptron(**params).fit(X, y)
        assert first in spec_first._TWINS
        first.partial_fit(X[:40], y[:40])
        monkeypatch.setenv("REFML_SPEC_FIRST", "0")
        kernels = rf.Perceptron(**params).fit(X, y).partial_fit(X[:40], y[:40])
        monkeypatch.setenv("REFML_SPEC_FIRST", "1")
        for name in ("coef_", "intercept_", "n_iter_", "n_mistakes_"):
            np.testing.assert_array_equal(getattr(first, name), getattr(kernels, name))
        np.testing.assert_array_equal(first.decision_function(Xt), kernels.decision_function(Xt))
