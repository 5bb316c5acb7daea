"""Both packages inside scikit-learn: Pipeline + GridSearchCV (n_jobs=2), cross_val_score,
VotingClassifier (hard and soft), CalibratedClassifierCV, clone, and pandas DataFrames with
``feature_names_in_``, for every classifier of the registry, on data sets that ship with
scikit-learn (iris for multi-class models, breast cancer for the binary-only ones).

Marked ``sklearn``: the bare standard-library CI run deselects these tests (it has neither
scikit-learn nor pandas), it never skips them.
"""

import importlib
import warnings

import pytest

from tests.estimators import REGISTRY

pytestmark = [pytest.mark.fast, pytest.mark.sklearn]

# One hyper-parameter per classifier for the grid search (two values each).
GRID = {
    "Perceptron": ("max_iter", [5, 20]),
    "KNeighborsClassifier": ("n_neighbors", [1, 5]),
    "PlugInClassifier": ("estimator", None),   # filled in below: two base estimators
    "LeastSquaresClassifier": ("fit_intercept", [True, False]),
    "LogisticRegression": ("max_iter", [50, 100]),
    "LinearDiscriminantAnalysis": ("covariance", ["pooled", "mle"]),
    "QuadraticDiscriminantAnalysis": ("reg_param", [0.1, 0.5]),
    "SVC": ("C", [0.1, 1.0]),
    "KernelDensityClassifier": ("bandwidth", [0.5, 1.0]),
    "NaiveBayes": ("marginal", ["gaussian", "histogram"]),
    "GaussianNB": ("var_smoothing", [1e-9, 1e-3]),
    "DecisionTreeClassifier": ("max_depth", [2, 4]),
    "BaggingClassifier": ("n_estimators", [3, 5]),
    "RandomForestClassifier": ("max_features", ["sqrt", None]),
    "AdaBoostClassifier": ("n_estimators", [3, 6]),
}
NAMES = sorted(GRID)
LIBS = ["refml", "refml_fast"]


def _data(binary, as_frame=False):
    """(X, y): iris (150 x 4, 3 classes), or the first 8 features of breast cancer on 240
    rows (binary), standardised inside the pipelines that need it."""
    from sklearn.datasets import load_breast_cancer, load_iris

    if not binary:
        return load_iris(return_X_y=True, as_frame=as_frame)
    X, y = load_breast_cancer(return_X_y=True, as_frame=as_frame)
    rows = slice(0, 240)
    if as_frame:
        return X.iloc[rows, :8], y.iloc[rows]
    return X[rows, :8], y[rows]


def _model(lib_name, name):
    lib = importlib.import_module(lib_name)
    factory, binary = REGISTRY[name]
    return factory(lib), binary


def _grid(lib_name, name):
    param, values = GRID[name]
    if name == "PlugInClassifier":
        lib = importlib.import_module(lib_name)
        values = [lib.GaussianNB(), lib.LinearDiscriminantAnalysis()]
    return {f"clf__{param}": values}


def _pipeline(model):
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import StandardScaler

    return Pipeline([("scale", StandardScaler()), ("clf", model)])


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # ConvergenceWarning and friends
        yield


@pytest.mark.parametrize("lib_name", LIBS)
@pytest.mark.parametrize("name", NAMES)
def test_pipeline_in_grid_search_with_two_jobs(lib_name, name):
    from sklearn.model_selection import GridSearchCV

    model, binary = _model(lib_name, name)
    X, y = _data(binary)
    search = GridSearchCV(_pipeline(model), _grid(lib_name, name), cv=3, n_jobs=2,
                          error_score="raise").fit(X, y)
    assert search.best_score_ > 0.6, search.cv_results_["mean_test_score"]
    predictions = search.predict(X)
    assert predictions.shape == (len(y),) and set(predictions) <= set(y)
    assert search.score(X, y) > 0.6


@pytest.mark.parametrize("lib_name", LIBS)
@pytest.mark.parametrize("name", NAMES)
def test_cross_val_score_and_clone(lib_name, name):
    from sklearn.base import clone, is_classifier
    from sklearn.model_selection import cross_val_score

    model, binary = _model(lib_name, name)
    assert is_classifier(model)
    twin = clone(model)
    assert type(twin) is type(model) and twin.get_params() == model.get_params()
    X, y = _data(binary)
    scores = cross_val_score(_pipeline(model), X, y, cv=3, error_score="raise")
    assert scores.shape == (3,) and scores.min() > 0.5, scores
    f1 = cross_val_score(_pipeline(model), X, y, cv=3, scoring="f1_macro",
                         error_score="raise")
    assert f1.min() > 0.4, f1


@pytest.mark.parametrize("lib_name", LIBS)
@pytest.mark.parametrize("name", NAMES)
def test_voting_hard_and_soft(lib_name, name):
    from sklearn.ensemble import VotingClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.naive_bayes import GaussianNB

    model, binary = _model(lib_name, name)
    X, y = _data(binary)
    members = [("ours", _pipeline(model)), ("nb", GaussianNB()),
               ("lr", _pipeline(LogisticRegression()))]
    hard = VotingClassifier(members, voting="hard").fit(X, y)
    assert hard.score(X, y) > 0.8
    if not hasattr(model, "predict_proba"):
        # Perceptron, least squares and the SVM give no probabilities, as scikit-learn's
        # Perceptron and SVC(probability=False) do not; soft voting needs them.
        with pytest.raises(AttributeError):
            VotingClassifier(members, voting="soft").fit(X, y).predict_proba(X)
        return
    soft = VotingClassifier(members, voting="soft").fit(X, y)
    proba = soft.predict_proba(X)
    assert proba.shape == (len(y), len(set(y)))
    assert abs(proba.sum(axis=1) - 1).max() < 1e-9
    assert soft.score(X, y) > 0.8


@pytest.mark.parametrize("lib_name", LIBS)
@pytest.mark.parametrize("name", NAMES)
def test_calibrated_classifier(lib_name, name):
    import numpy as np
    from sklearn.calibration import CalibratedClassifierCV

    model, binary = _model(lib_name, name)
    X, y = _data(binary)
    calibrated = CalibratedClassifierCV(_pipeline(model), cv=3).fit(X, y)
    proba = calibrated.predict_proba(X)
    assert proba.shape == (len(y), len(np.unique(y)))
    assert np.allclose(proba.sum(axis=1), 1.0)
    assert calibrated.score(X, y) > 0.6


@pytest.mark.parametrize("lib_name", LIBS)
@pytest.mark.parametrize("name", NAMES)
def test_dataframe_in_series_out_and_feature_names(lib_name, name):
    import numpy as np

    model, binary = _model(lib_name, name)
    X, y = _data(binary, as_frame=True)
    y = y.map(lambda k: f"class {k}").astype("category")   # categorical string labels
    model.fit(X, y)
    assert isinstance(model.feature_names_in_, np.ndarray)
    assert model.feature_names_in_.tolist() == list(X.columns)
    assert isinstance(model.classes_, np.ndarray)
    assert sorted(model.classes_.tolist()) == model.classes_.tolist() == sorted(set(y))
    predictions = model.predict(X)
    assert isinstance(predictions, np.ndarray) and set(predictions) <= set(y)
    assert (predictions == np.asarray(y)).mean() > 0.6
    with pytest.raises(ValueError, match="Feature names must be in the same order"):
        model.predict(X[X.columns[::-1]])
    renamed = X.rename(columns={X.columns[0]: "something else"})
    with pytest.raises(ValueError, match="Feature names unseen at fit time"):
        model.predict(renamed)
    with pytest.warns(UserWarning, match="X does not have valid feature names"):
        model.predict(X.to_numpy())
    # Refitting on a plain array forgets the names.
    model.fit(X.to_numpy(), y)
    assert not hasattr(model, "feature_names_in_")
