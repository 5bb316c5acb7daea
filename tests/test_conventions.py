"""What scikit-learn users rely on beyond the lectures, and the stray errors of the third
reliability round (issue 40): numpy scalars as hyper-parameters, numpy random generators,
joblib's n_jobs, labels as pandas and numpy hand them over, duplicated column names,
AdaBoost's class probabilities, and weights of any scale in trees, forests and bagging.
Each for both packages; numpy and pandas are needed (marked sklearn: the bare run has
neither)."""

import numpy as np
import pytest

pytestmark = [pytest.mark.fast, pytest.mark.sklearn]


def data(n=60, d=3, K=3, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = np.digitize(X[:, 0] + 0.4 * rng.normal(size=n), np.linspace(-0.6, 0.6, K - 1))
    return X, y


def answers(model, X):
    return np.asarray(model.predict(X)).tolist()


# --- hyper-parameters as numpy gives them -------------------------------------------------

@pytest.mark.parametrize("name, params", [
    ("LogisticRegression", {"fit_intercept": np.True_}),
    ("LeastSquaresClassifier", {"fit_intercept": np.False_}),
    ("Perceptron", {"fit_intercept": np.True_, "max_iter": np.int64(5)}),
    ("KNeighborsClassifier", {"n_neighbors": np.int64(3)}),
    ("LogisticRegression", {"alpha": np.float32(0.25), "max_iter": np.int32(50)}),
    ("SVC", {"C": np.float64(2.0), "break_ties": np.False_}),
    ("RandomForestClassifier", {"n_estimators": np.int64(3), "random_state": np.uint8(4)}),
])
def test_numpy_scalars_are_taken_as_the_python_values(lib, name, params):
    X, y = data(K=2)
    plain = {key: value.item() for key, value in params.items()}
    ours = getattr(lib, name)(**params).fit(X.tolist(), y.tolist())
    reference = getattr(lib, name)(**plain).fit(X.tolist(), y.tolist())
    assert answers(ours, X.tolist()) == answers(reference, X.tolist())


@pytest.mark.parametrize("value", [np.int64(1), "yes", 1])
def test_a_flag_is_still_true_or_false_only(lib, value):
    X, y = data(K=2)
    with pytest.raises(ValueError, match="fit_intercept"):
        lib.LogisticRegression(fit_intercept=value).fit(X.tolist(), y.tolist())


@pytest.mark.parametrize("name", ["RandomForestClassifier", "BaggingClassifier",
                                  "Perceptron", "LogisticRegression", "AdaBoostClassifier"])
def test_numpy_random_generators_seed_the_projects_stream(name):
    """A numpy RandomState or Generator gives one seed from its own stream: the same state
    gives the same model in both packages, and the generator moves on (a second fit with it
    is another draw, as in scikit-learn)."""
    import refml
    import refml_fast

    X, y = data(K=2)
    params = {"solver": "sgd", "max_iter": 3} if name == "LogisticRegression" else {}
    for make in (np.random.RandomState, np.random.default_rng):
        fitted = [getattr(package, name)(random_state=make(7), **params).fit(X.tolist() if
                  package is refml else X, y.tolist() if package is refml else y)
                  for package in (refml, refml_fast)]
        assert answers(fitted[0], X.tolist()) == answers(fitted[1], X)
        again = getattr(refml_fast, name)(random_state=make(7), **params).fit(X, y)
        assert answers(again, X) == answers(fitted[1], X)


def test_a_shared_numpy_generator_moves_on_between_fits():
    import refml_fast

    X, y = data(n=80, K=2, seed=3)
    shared = np.random.RandomState(0)
    first = refml_fast.RandomForestClassifier(n_estimators=5, random_state=shared).fit(X, y)
    second = refml_fast.RandomForestClassifier(n_estimators=5, random_state=shared).fit(X, y)
    assert first.predict_proba(X).tolist() != second.predict_proba(X).tolist()


@pytest.mark.parametrize("bad", [-1, 1.5, "seed", np.True_])
def test_random_state_refuses_what_scikit_learn_refuses(lib, bad):
    X, y = data(K=2)
    with pytest.raises(ValueError, match="random_state"):
        lib.RandomForestClassifier(n_estimators=2, random_state=bad).fit(X.tolist(), y.tolist())


@pytest.mark.parametrize("n_jobs", [-2, -1, -100, 2])
def test_n_jobs_counts_as_joblib_does(lib, n_jobs):
    """-1 every core, -2 all but one (at least one thread): the forest is the same."""
    X, y = data()
    forest = lib.RandomForestClassifier(n_estimators=4, random_state=1, n_jobs=n_jobs)
    alone = lib.RandomForestClassifier(n_estimators=4, random_state=1, n_jobs=1)
    assert answers(forest.fit(X.tolist(), y.tolist()), X.tolist()) == answers(
        alone.fit(X.tolist(), y.tolist()), X.tolist())


def test_n_jobs_zero_is_refused(lib):
    X, y = data()
    with pytest.raises(ValueError, match="n_jobs=0"):
        lib.BaggingClassifier(n_estimators=2, n_jobs=0).fit(X.tolist(), y.tolist())


# --- labels as pandas and numpy hand them over --------------------------------------------

def test_str_and_numpy_str_labels_are_one_kind(lib):
    X, _ = data(n=40)
    y = np.array(["a"] * 20 + [np.str_("b")] * 20, dtype=object)
    model = lib.GaussianNB().fit(X, y)
    assert list(model.classes_) == ["a", "b"]


def test_str_mixed_with_bytes_is_still_refused(lib):
    X, _ = data(n=4)
    with pytest.raises(ValueError, match="str and bytes"):
        lib.GaussianNB().fit(X.tolist(), ["a", b"b", "a", b"b"])


def test_a_missing_label_of_pandas_is_reported_as_nan(lib):
    import pandas as pd

    X, _ = data(n=40)
    for y in (pd.Series([True, False] * 19 + [pd.NA, True], dtype="boolean"),
              pd.Series([0, 1] * 19 + [pd.NA, 1], dtype="Int64"),
              pd.Series(["a", "b"] * 19 + [pd.NA, "a"], dtype="string")):
        with pytest.raises(ValueError, match="y contains NaN"):
            lib.GaussianNB().fit(X, y)


def test_booleans_mixed_with_numbers_are_refused(lib):
    X, _ = data(n=40)
    for y in (np.array([True, 0] * 20, dtype=object), [True, 2] * 20, [1.0, False] * 20):
        with pytest.raises(ValueError, match="mix of booleans and numbers"):
            lib.GaussianNB().fit(X.tolist(), y)
    model = lib.GaussianNB().fit(X.tolist(), np.array([True, False] * 20, dtype=object))
    assert list(model.classes_) == [False, True]


def test_duplicated_column_names_are_refused(lib):
    import pandas as pd

    X, y = data(n=40)
    frame = pd.DataFrame(X, columns=["a", "a", "b"])
    with pytest.raises(ValueError, match="unique.*'a'"):
        lib.GaussianNB().fit(frame, y)
    model = lib.GaussianNB().fit(pd.DataFrame(X, columns=["a", "c", "b"]), y)
    with pytest.raises(ValueError, match="unique"):
        model.predict(frame)


# --- stray errors -------------------------------------------------------------------------

@pytest.mark.parametrize("solver", ["auto", "newton", "lbfgs", "gd", "sgd"])
def test_logistic_regression_with_tol_zero_runs_to_its_cap(lib, solver):
    """tol = 0: the solver runs to max_iter or to a step that changes nothing; L-BFGS's
    scaling y'Py / s'y underflowed to 0 near the optimum (a ZeroDivisionError)."""
    import warnings

    rng = np.random.default_rng(1)
    for trial in range(6):
        n, d = 8 + 3 * trial, 1 + trial % 3
        X = rng.normal(size=(n, d)) * [1.0, 1e-3, 1e3][trial % 3]
        y = (X[:, 0] > 0).astype(int) if trial % 2 else rng.integers(0, 3, n)
        y[:2] = [0, 1]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = lib.LogisticRegression(tol=0, solver=solver, max_iter=200).fit(
                X.tolist(), y.tolist())
        P = np.asarray(model.predict_proba(X.tolist()))
        assert np.all(np.isfinite(P)) and np.allclose(P.sum(axis=1), 1.0)


# --- AdaBoost's class probabilities -------------------------------------------------------

@pytest.mark.parametrize("K", [2, 3, 5])
def test_adaboost_predict_proba_is_samme_from_the_decision_function(lib, K):
    """P(k | x) = softmax_k(f_k / (K - 1)), f the decision function over sum alpha (K > 2:
    the K scores; K = 2: (-d/2, d/2)), written here in numpy from decision_function."""
    X, y = data(n=90, K=K, seed=K)
    model = lib.AdaBoostClassifier(n_estimators=8).fit(X.tolist(), y.tolist())
    decision = np.asarray(model.decision_function(X.tolist())) / np.sum(
        model.estimator_weights_)
    scores = np.column_stack([-decision / 2, decision / 2]) if K == 2 else decision / (K - 1)
    expected = np.exp(scores - scores.max(axis=1, keepdims=True))
    expected /= expected.sum(axis=1, keepdims=True)
    P = np.asarray(model.predict_proba(X.tolist()))
    assert np.allclose(P, expected, rtol=1e-12, atol=1e-15)
    codes = np.searchsorted(np.asarray(model.classes_), np.asarray(model.predict(X.tolist())))
    assert np.array_equal(P.argmax(axis=1), codes)


def test_adaboost_probabilities_are_identical_in_both_packages():
    import refml
    import refml_fast

    for K in (2, 4):
        X, y = data(n=70, K=K, seed=10 + K)
        slow = refml.AdaBoostClassifier(n_estimators=6).fit(X.tolist(), y.tolist())
        fast = refml_fast.AdaBoostClassifier(n_estimators=6).fit(X, y)
        assert np.array_equal(np.asarray(slow.predict_proba(X.tolist())), fast.predict_proba(X))


# --- weights of any scale -----------------------------------------------------------------

@pytest.mark.parametrize("name, params", [
    ("DecisionTreeClassifier", {}),
    ("DecisionTreeClassifier", {"min_samples_split": 6}),
    ("RandomForestClassifier", {"n_estimators": 20, "random_state": 3}),
    ("BaggingClassifier", {"n_estimators": 10, "random_state": 5}),
])
@pytest.mark.parametrize("scale", [1e-5, 1.0 / 40, 8.0])
def test_uniform_weights_of_any_scale_give_the_unweighted_model(lib, name, params, scale):
    """min_samples_split counts rows, not weight (scikit-learn's reading): weights all
    1e-5 used to stop a tree at its root, and a forest of weights 1/40 fell to 0.575
    training accuracy.  (The scales are chosen so that no near-tie of impurities rounds
    differently: exact in general only up to such rounding.)"""
    X, y = data(n=40, K=2, seed=2)
    weighted = getattr(lib, name)(**params).fit(X.tolist(), y.tolist(),
                                                sample_weight=[scale] * 40)
    plain = getattr(lib, name)(**params).fit(X.tolist(), y.tolist())
    assert answers(weighted, X.tolist()) == answers(plain, X.tolist())
    if "min_samples_split" not in params:
        assert np.mean(np.asarray(answers(weighted, X.tolist())) == y) > 0.9


# --- the scale guard ----------------------------------------------------------------------

def test_the_svc_says_when_the_scale_of_x_makes_its_dual_hopeless(lib):
    """Twelve rows near 1e19, linear kernel: K(x, x) about 1e38, so float64 rounds the
    dual's gradient by about 1e22, far above tol: a warning says so and what to do.  The
    same rows standardised, or rbf with gamma='scale', get no such warning."""
    import warnings

    rng = np.random.default_rng(0)
    X = rng.normal(size=(12, 2)) * 1e19
    y = [0, 1] * 6
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        lib.SVC(kernel="linear", max_iter=2_000).fit(X.tolist(), y)
    messages = [str(w.message) for w in caught]
    assert any("Standardise X" in m and "cannot converge" in m for m in messages), messages
    for kernel, data_ in (("linear", X / 1e19), ("rbf", X)):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            lib.SVC(kernel=kernel, max_iter=2_000).fit(data_.tolist(), y)
        assert not any("Standardise X" in str(w.message) for w in caught)


def test_the_scale_guard_is_the_rounding_of_one_term_against_tol():
    from refml.svm.svc import hopeless_scale

    assert hopeless_scale(1e38, 1.0, 1e-3) and not hopeless_scale(1e6, 1.0, 1e-3)
    assert hopeless_scale(1e13, 1.0, 1e-3) and not hopeless_scale(1e13, 0.1, 1e-3)
    assert not hopeless_scale(1e300, float("inf"), 1e-3)    # the hard margin: not measured
