"""refml_fast on Dask (README, "Beyond one machine"): dask-ml's Incremental streams a dask
array's blocks through partial_fit, ParallelPostFit answers block by block, and joblib's dask
backend spreads a grid search, each giving what the same estimator gives in memory, bit for
bit.  An in-process cluster for most tests, two worker processes for one.

Marked dask: run by .ci/run's Dask step (``pytest -m dask``) after installing the dask extra;
the README's test command deselects them (setup.cfg's addopts).
"""

import warnings

import pytest

pytestmark = [pytest.mark.dask, pytest.mark.fast, pytest.mark.sklearn]

CLASSES = [0, 1, 2]


@pytest.fixture(scope="module")
def client():
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        yield client


def stream_data(n=6_000, d=5, block=1_000, seed=0):
    """A dask array of n rows in blocks, three classes from a noisy linear rule, made from
    numpy so that the in-memory comparison sees the same floats."""
    import dask.array as da
    import numpy as np

    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = ((X[:, 0] + 0.5 * X[:, 1] + 0.3 * rng.normal(size=n) > 0).astype(np.int64)
         + (X[:, 2] > 1.0).astype(np.int64))
    return da.from_array(X, chunks=(block, d)), da.from_array(y, chunks=block), X, y


ONLINE = {
    "Perceptron": lambda lib: lib.Perceptron(multi_class="multinomial"),
    "LogisticRegression": lambda lib: lib.LogisticRegression(solver="sgd", random_state=0),
    "GaussianNB": lambda lib: lib.GaussianNB(),
    "LinearDiscriminantAnalysis": lambda lib: lib.LinearDiscriminantAnalysis(),
    "QuadraticDiscriminantAnalysis": lambda lib: lib.QuadraticDiscriminantAnalysis(),
}


@pytest.mark.parametrize("name", sorted(ONLINE))
def test_incremental_equals_streaming_in_memory(client, name):
    import numpy as np
    from dask_ml.wrappers import Incremental

    import refml_fast

    X, y, X_memory, y_memory = stream_data()
    wrapped = Incremental(ONLINE[name](refml_fast), shuffle_blocks=False)
    wrapped.fit(X, y, classes=CLASSES)
    memory = ONLINE[name](refml_fast)
    for start in range(0, X_memory.shape[0], 1_000):
        memory.partial_fit(X_memory[start:start + 1_000], y_memory[start:start + 1_000],
                           classes=CLASSES)
    assert np.array_equal(wrapped.predict(X).compute(), memory.predict(X_memory))
    for attribute in ("coef_", "intercept_", "theta_", "var_", "covariance_"):
        if hasattr(memory, attribute):
            assert np.array_equal(getattr(wrapped.estimator_, attribute),
                                  getattr(memory, attribute)), attribute


POST_FIT = {
    "GaussianNB": lambda lib: lib.GaussianNB(),
    "KNeighborsClassifier": lambda lib: lib.KNeighborsClassifier(n_neighbors=5),
    "SVC": lambda lib: lib.SVC(kernel="rbf"),
    "LogisticRegression": lambda lib: lib.LogisticRegression(),
    "RandomForestClassifier": lambda lib: lib.RandomForestClassifier(n_estimators=10,
                                                                     random_state=0),
}


@pytest.mark.parametrize("name", sorted(POST_FIT))
def test_parallel_post_fit_answers_as_in_memory(client, name):
    import dask.dataframe as dd
    import numpy as np
    import pandas as pd
    from dask_ml.wrappers import ParallelPostFit

    import refml_fast

    X, _, X_memory, y_memory = stream_data(n=4_000)
    model = ParallelPostFit(POST_FIT[name](refml_fast)).fit(X_memory[:1_500],
                                                            y_memory[:1_500])
    fitted = model.estimator          # ParallelPostFit fits the estimator it wraps
    assert np.array_equal(model.predict(X).compute(), fitted.predict(X_memory))
    frame = dd.from_pandas(pd.DataFrame(X_memory), npartitions=4)
    assert np.array_equal(np.asarray(model.predict(frame).compute()),
                          fitted.predict(X_memory))
    if hasattr(fitted, "predict_proba"):
        assert np.array_equal(model.predict_proba(X).compute(),
                              fitted.predict_proba(X_memory))


def test_grid_search_on_the_dask_backend_equals_one_job(client):
    import joblib
    import numpy as np
    from sklearn.model_selection import GridSearchCV

    import refml_fast

    _, _, X, y = stream_data(n=600)
    grid = {"C": [0.1, 1.0, 10.0], "kernel": ["linear", "rbf"]}
    local = GridSearchCV(refml_fast.SVC(), grid, cv=3, n_jobs=1).fit(X, y)
    with joblib.parallel_config(backend="dask"):
        spread = GridSearchCV(refml_fast.SVC(), grid, cv=3, n_jobs=2).fit(X, y)
    assert spread.best_params_ == local.best_params_
    assert np.array_equal(spread.cv_results_["mean_test_score"],
                          local.cv_results_["mean_test_score"])
    assert np.array_equal(spread.predict(X), local.predict(X))


def test_two_worker_processes_give_the_in_memory_answers():
    """Workers in their own processes import refml_fast and load its kernels themselves;
    the answers are still the in-memory ones."""
    import numpy as np
    from dask_ml.wrappers import Incremental, ParallelPostFit
    from distributed import Client, LocalCluster

    import refml_fast

    X, y, X_memory, y_memory = stream_data(n=4_000)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster, Client(cluster):
            wrapped = Incremental(refml_fast.GaussianNB(), shuffle_blocks=False)
            wrapped.fit(X, y, classes=CLASSES)
            answers = wrapped.predict(X).compute()
            post = ParallelPostFit(refml_fast.KNeighborsClassifier()).fit(X_memory, y_memory)
            neighbours = post.predict(X).compute()
    memory = refml_fast.GaussianNB()
    for start in range(0, X_memory.shape[0], 1_000):
        memory.partial_fit(X_memory[start:start + 1_000], y_memory[start:start + 1_000],
                           classes=CLASSES)
    assert np.array_equal(answers, memory.predict(X_memory))
    knn = refml_fast.KNeighborsClassifier().fit(X_memory, y_memory)
    assert np.array_equal(neighbours, knn.predict(X_memory))


def test_the_readmes_example_runs(capsys):
    """examples/beyond_one_machine.py, the README's example, on a small stream (its own
    cluster of two worker processes)."""
    import importlib.util
    import os

    path = os.path.join(os.path.dirname(os.path.dirname(__file__)), "examples",
                        "beyond_one_machine.py")
    spec = importlib.util.spec_from_file_location("beyond_one_machine", path)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        example.main(["--rows", "6000", "--block", "1000"])
    printed = capsys.readouterr().out
    assert "6,000 rows x 20" in printed and "on 2 workers" in printed
    accuracy = float(printed.split("GaussianNB: accuracy on the first block ")[1].split()[0])
    assert accuracy > 0.7
    assert "grid search: {" in printed


@pytest.mark.parametrize("k", [1, 5, 12])
def test_partitioned_knn_equals_the_in_memory_knn(client, k):
    """Training rows in uneven blocks of a dask array, on a grid (exact ties across
    blocks): predictions, probabilities and neighbours of the in-memory estimator."""
    import dask.array as da
    import numpy as np

    import refml_fast
    from refml_fast.neighbors.partitions import PartitionedKNeighborsClassifier

    rng = np.random.default_rng(k)
    X = rng.integers(-3, 4, size=(2_000, 3)).astype(np.float64)
    y = np.array(["ant", "bee", "cat"])[rng.integers(0, 3, size=2_000)]
    Q = rng.integers(-3, 4, size=(300, 3)).astype(np.float64)
    chunks = (300, 700, 1, 599, 400)
    model = PartitionedKNeighborsClassifier(n_neighbors=k).fit(
        da.from_array(X, chunks=(chunks, 3)), da.from_array(y, chunks=(chunks,)))
    memory = refml_fast.KNeighborsClassifier(n_neighbors=k).fit(X, y)
    assert np.array_equal(model.predict(Q), memory.predict(Q))
    assert np.array_equal(model.predict_proba(Q), memory.predict_proba(Q))
    distances, indices = model.kneighbors(Q)
    expected_distances, expected_indices = memory.kneighbors(Q)
    assert np.array_equal(indices, expected_indices)
    assert np.array_equal(distances, expected_distances)


@pytest.mark.parametrize("name", ["RandomForestClassifier", "BaggingClassifier"])
def test_a_committee_fitted_through_the_dask_backend_equals_the_local_one(client, name):
    """With joblib's dask backend chosen and n_jobs set, the members are fitted as tasks on
    the cluster; each member comes from its own seed, so the committee is the local one."""
    import joblib
    import numpy as np
    from distributed import get_task_stream

    import refml_fast

    _, _, X, y = stream_data(n=1_500)
    make = getattr(refml_fast, name)
    local = make(n_estimators=12, random_state=3, n_jobs=1).fit(X, y)
    with joblib.parallel_config(backend="dask"), get_task_stream(client) as tasks:
        spread = make(n_estimators=12, random_state=3, n_jobs=2).fit(X, y)
    assert len(tasks.data) >= 1                 # the members ran on the cluster
    assert np.array_equal(spread.predict_proba(X), local.predict_proba(X))
    for a, b in zip(spread.estimators_, local.estimators_):
        assert np.array_equal(a.predict_proba(X), b.predict_proba(X))
