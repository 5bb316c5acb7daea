"""partial_fit (refml.core.online): scikit-learn's contract, chunked equal to batch where the
statistics add up, online learners that learn, and refml equal to refml_fast."""

import math
import random
import warnings

import pytest

from tests.helpers import as_list

ONLINE = {
    "Perceptron": lambda lib: lib.Perceptron(),
    "LogisticRegression": lambda lib: lib.LogisticRegression(solver="sgd", random_state=0),
    "GaussianNB": lambda lib: lib.GaussianNB(),
    "NaiveBayes": lambda lib: lib.NaiveBayes(marginal="histogram", bins=4),
    "LinearDiscriminantAnalysis": lambda lib: lib.LinearDiscriminantAnalysis(),
    "QuadraticDiscriminantAnalysis": lambda lib: lib.QuadraticDiscriminantAnalysis(),
}
STATISTICS = ["GaussianNB", "LinearDiscriminantAnalysis", "QuadraticDiscriminantAnalysis"]


def blobs(n_classes, n_per_class, d, spread, seed, labels=None):
    rng = random.Random(seed)
    centres = [[rng.gauss(0.0, 3.0) for _ in range(d)] for _ in range(n_classes)]
    names = labels or list(range(n_classes))
    rows = [([c + rng.gauss(0.0, spread) for c in centres[k]], names[k])
            for k in range(n_classes) for _ in range(n_per_class)]
    rng.shuffle(rows)
    return [x for x, _ in rows], [y for _, y in rows]


def chunks(X, y, sizes):
    start = 0
    for size in sizes:
        yield X[start:start + size], y[start:start + size]
        start += size


def stream(model, X, y, sizes, classes):
    for X_chunk, y_chunk in chunks(X, y, sizes):
        model.partial_fit(X_chunk, y_chunk, classes=classes)
    return model


def close(a, b, tol=1e-10):
    a = as_list(a) if hasattr(a, "__len__") or hasattr(a, "tolist") else a
    b = as_list(b) if hasattr(b, "__len__") or hasattr(b, "tolist") else b
    if isinstance(a, list):
        return len(a) == len(b) and all(close(u, v, tol) for u, v in zip(a, b))
    return abs(a - b) <= tol * max(1.0, abs(a), abs(b))


# ----------------------------------------------------------------------------------------
# The contract.


@pytest.mark.parametrize("name", sorted(ONLINE))
def test_first_call_needs_classes(lib, name):
    X, y = blobs(3, 10, 2, 0.5, 1)
    model = ONLINE[name](lib)
    with pytest.raises(ValueError, match="classes must be passed on the first call"):
        model.partial_fit(X, y)
    assert not [key for key in vars(model) if key.endswith("_") and not key.startswith("_")]


@pytest.mark.parametrize("name", sorted(ONLINE))
def test_unseen_labels_features_and_classes_are_refused_and_nothing_changes(lib, name):
    X, y = blobs(3, 20, 2, 0.5, 2)
    model = ONLINE[name](lib).partial_fit(X, y, classes=[0, 1, 2])
    before = as_list(model.predict(X))
    state = {key: repr(value) for key, value in vars(model).items()}
    with pytest.raises(ValueError, match="label 7"):
        model.partial_fit(X[:5], [0, 1, 7, 2, 1])
    with pytest.raises(ValueError, match="3 features"):
        model.partial_fit([x + [1.0] for x in X[:5]], y[:5])
    with pytest.raises(ValueError, match="not the same as on the first call"):
        model.partial_fit(X[:5], y[:5], classes=[0, 1])
    assert {key: repr(value) for key, value in vars(model).items()} == state
    assert as_list(model.predict(X)) == before


@pytest.mark.parametrize("name", sorted(ONLINE))
def test_a_changed_parameter_between_calls_is_refused(lib, name):
    X, y = blobs(3, 20, 2, 0.5, 3)
    model = ONLINE[name](lib).partial_fit(X, y, classes=[0, 1, 2])
    parameter = {"Perceptron": ("learning_rate", 0.5),
                 "LogisticRegression": ("power_t", 0.75),
                 "GaussianNB": ("var_smoothing", 1e-3),
                 "NaiveBayes": ("bins", 7),
                 "LinearDiscriminantAnalysis": ("reg_param", 0.5),
                 "QuadraticDiscriminantAnalysis": ("reg_param", 0.5)}[name]
    model.set_params(**{parameter[0]: parameter[1]})
    with pytest.raises(ValueError, match=f"hyper-parameter {parameter[0]} was changed"):
        model.partial_fit(X, y)


@pytest.mark.parametrize("name", sorted(ONLINE))
def test_fit_starts_over(lib, name):
    X, y = blobs(3, 20, 2, 0.8, 4)
    X2, y2 = blobs(3, 15, 2, 0.8, 5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        streamed = ONLINE[name](lib).partial_fit(X2, y2, classes=[0, 1, 2]).fit(X, y)
        fresh = ONLINE[name](lib).fit(X, y)
    assert as_list(streamed.predict(X2)) == as_list(fresh.predict(X2))
    for attribute in ("coef_", "class_count_", "covariance_", "n_iter_"):
        if hasattr(fresh, attribute):
            assert repr(getattr(streamed, attribute)) == repr(getattr(fresh, attribute))


def test_sample_weight_is_refused_where_fit_takes_none(lib):
    X, y = blobs(2, 10, 2, 0.5, 6)
    with pytest.raises(ValueError, match="takes no sample_weight"):
        lib.LinearDiscriminantAnalysis().partial_fit(X, y, classes=[0, 1],
                                                     sample_weight=[1.0] * len(y))


def test_string_labels_and_a_class_missing_from_a_chunk(lib):
    X, y = blobs(3, 30, 2, 0.5, 7, labels=["setosa", "versicolor", "virginica"])
    model = lib.GaussianNB()
    first = [i for i, label in enumerate(y) if label != "virginica"][:20]
    model.partial_fit([X[i] for i in first], [y[i] for i in first],
                      classes=["virginica", "setosa", "versicolor"])
    with pytest.raises(lib.NotFittedError, match="'virginica' has no sample yet"):
        model.predict(X)
    rest = [i for i in range(len(y)) if i not in set(first)]
    model.partial_fit([X[i] for i in rest], [y[i] for i in rest])
    assert as_list(model.classes_) == ["setosa", "versicolor", "virginica"]
    assert as_list(model.predict(X)) == as_list(lib.GaussianNB().fit(X, y).predict(X))


def test_kde_marginals_and_batch_solvers_have_no_partial_fit(lib):
    X, y = blobs(2, 10, 2, 0.5, 8)
    with pytest.raises(ValueError, match="marginal='kde'"):
        lib.NaiveBayes(marginal="kde").partial_fit(X, y, classes=[0, 1])
    with pytest.raises(ValueError, match="solver='newton'"):
        lib.LogisticRegression(solver="newton").partial_fit(X, y, classes=[0, 1])


# ----------------------------------------------------------------------------------------
# Statistics that add up: chunked equals batch.


@pytest.mark.parametrize("name", STATISTICS)
@pytest.mark.parametrize("seed", [0, 1])
def test_chunked_statistics_equal_the_batch_fit(lib, name, seed):
    X, y = blobs(3, 40, 3, 1.0, 10 + seed)
    rng = random.Random(seed)
    sizes = []
    while sum(sizes) < len(y):
        sizes.append(rng.randint(1, 30))
    make = ONLINE[name]
    batch = make(lib).fit(X, y)
    chunked = stream(make(lib), X, y, sizes, [0, 1, 2])
    assert close(chunked.means_ if hasattr(batch, "means_") else chunked.theta_,
                 batch.means_ if hasattr(batch, "means_") else batch.theta_)
    assert close(chunked.covariance_ if hasattr(batch, "covariance_") else chunked.var_,
                 batch.covariance_ if hasattr(batch, "covariance_") else batch.var_)
    assert as_list(chunked.predict(X)) == as_list(batch.predict(X))
    one_call = make(lib).partial_fit(X, y, classes=[0, 1, 2])
    assert as_list(one_call.predict_proba(X)) == as_list(batch.predict_proba(X))


def test_gaussian_nb_weights_in_chunks_equal_repeated_rows(lib):
    X, y = blobs(3, 20, 2, 1.0, 12)
    weights = [float(i % 3) for i in range(len(y))]
    model = lib.GaussianNB()
    for start in range(0, len(y), 13):
        model.partial_fit(X[start:start + 13], y[start:start + 13], classes=[0, 1, 2],
                          sample_weight=weights[start:start + 13])
    repeated_X = [x for x, w in zip(X, weights) for _ in range(int(w))]
    repeated_y = [label for label, w in zip(y, weights) for _ in range(int(w))]
    repeated = lib.GaussianNB().fit(repeated_X, repeated_y)
    assert close(model.theta_, repeated.theta_) and close(model.var_, repeated.var_)
    assert close(model.class_count_, repeated.class_count_)


def test_histogram_chunks_equal_the_batch_counts_on_a_given_range(lib):
    rng = random.Random(13)
    X = [[rng.gauss(0.0, 1.0), rng.gauss(0.0, 2.0)] for _ in range(300)]
    batch = lib.Histogram(bins=6, range=[(-3, 3), (-5, 5)]).fit(X)
    chunked = lib.Histogram(bins=6, range=[(-3, 3), (-5, 5)])
    for start in range(0, 300, 47):
        chunked.partial_fit(X[start:start + 47])
    assert chunked.counts_ == batch.counts_ and chunked.n_samples_ == 300
    assert as_list(chunked.pdf(X[:40])) == as_list(batch.pdf(X[:40]))


def test_histogram_marginals_keep_the_first_calls_bins(lib):
    X, y = blobs(2, 30, 2, 0.5, 14)
    model = lib.NaiveBayes(marginal="histogram", bins=5).partial_fit(X[:30], y[:30],
                                                                     classes=[0, 1])
    low, high = as_list(model.bin_low_), as_list(model.bin_high_)
    model.partial_fit(X[30:], y[30:])
    assert as_list(model.bin_low_) == low and as_list(model.bin_high_) == high
    assert sum(as_list(model.class_count_)) == 60


def test_qda_waits_for_a_non_singular_covariance(lib):
    X, y = blobs(2, 30, 3, 1.0, 15)
    model = lib.QuadraticDiscriminantAnalysis()
    model.partial_fit(X[:4], [0, 0, 1, 1], classes=[0, 1])
    with pytest.raises(lib.NotFittedError, match="singular"):
        model.predict(X)
    model.partial_fit(X[4:], y[4:])
    assert len(as_list(model.predict(X))) == 60


# ----------------------------------------------------------------------------------------
# Online learners.


def separable(n, n_classes, seed, margin=0.3):
    """Points of the plane labelled by argmax_k theta*_k'x~, theta*_k = [0, cos a_k, sin a_k]
    with the angles a_k evenly spread (so every class has a cone of the square), kept only
    when the best class wins by ``margin``: (X, y, Theta*)."""
    rng = random.Random(seed)
    turn = rng.uniform(0.0, 2.0 * math.pi)
    theta = [[0.0, math.cos(turn + 2.0 * math.pi * k / n_classes),
              math.sin(turn + 2.0 * math.pi * k / n_classes)] for k in range(n_classes)]
    X, y = [], []
    while len(X) < n:
        x = [rng.uniform(-2.0, 2.0), rng.uniform(-2.0, 2.0)]
        scores = sorted(((sum(t * v for t, v in zip(row, [1.0] + x)), k)
                         for k, row in enumerate(theta)), reverse=True)
        if scores[0][0] - scores[1][0] > margin:
            X.append(x)
            y.append(scores[0][1])
    return X, y, theta


@pytest.mark.parametrize("multi_class", ["ovr", "multinomial"])
def test_online_perceptron_learns_separable_data(lib, multi_class):
    X, y, _ = separable(200, 3, 16)
    model = lib.Perceptron(multi_class=multi_class)
    for _ in range(50):
        for start in range(0, 200, 25):
            model.partial_fit(X[start:start + 25], y[start:start + 25], classes=[0, 1, 2])
    assert model.score(X, y) >= 0.97


@pytest.mark.parametrize("order", ["cyclic", "batch", "random", "uniform"])
def test_multiclass_perceptron_stays_within_its_bound(lib, order):
    X, y, theta = separable(120, 4, 17, margin=0.6)
    bound = lib.multiclass_mistake_bound(X, y, theta)
    model = lib.Perceptron(multi_class="multinomial", order=order, tol=None, max_iter=100000,
                           random_state=3).fit(X, y)
    assert model.converged_ and model.score(X, y) == 1.0
    assert 0 < model.n_mistakes_ <= bound
    streamed = lib.Perceptron(multi_class="multinomial", order=order, random_state=3)
    for _ in range(200):
        for start in range(0, 120, 17):
            streamed.partial_fit(X[start:start + 17], y[start:start + 17],
                                 classes=[0, 1, 2, 3])
    assert streamed.n_mistakes_ <= bound


def test_binary_perceptron_bound_holds_across_calls(lib):
    X, y, _ = separable(100, 2, 18, margin=0.5)
    bound = lib.mistake_bound(X, y)
    model = lib.Perceptron(order="random", random_state=1)
    for _ in range(300):
        for start in range(0, 100, 9):
            model.partial_fit(X[start:start + 9], y[start:start + 9], classes=[0, 1])
    assert model.score(X, y) == 1.0 and model.n_mistakes_ <= bound


def test_multiclass_bound_refuses_a_theta_that_does_not_separate(lib):
    X, y, theta = separable(30, 3, 19)
    with pytest.raises(ValueError, match="does not separate"):
        lib.multiclass_mistake_bound(X, y, [theta[1], theta[0], theta[2]])
    with pytest.raises(ValueError, match="3 rows"):
        lib.multiclass_mistake_bound(X, y, theta[:2])


def test_multinomial_update_moves_the_true_and_the_rival_class(lib):
    # From theta = 0 every class ties: the first point (class 2) is a mistake, the rival is
    # class 0 (the first best other class); theta_2 gains x~, theta_0 loses it.
    model = lib.Perceptron(multi_class="multinomial", max_iter=1, tol=None,
                           store_trajectory=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model.fit([[1.0, 2.0], [0.0, -1.0], [2.0, 0.0]], [2, 0, 1])
    first = as_list(model.trajectory_)[1]
    assert first == [[-1.0, -1.0, -2.0], [0.0, 0.0, 0.0], [1.0, 1.0, 2.0]]


def test_sgd_logistic_regression_learns_online(lib):
    X, y = blobs(3, 100, 2, 0.6, 20)
    model = lib.LogisticRegression(solver="sgd", random_state=0)
    for _ in range(10):
        for start in range(0, 300, 30):
            model.partial_fit(X[start:start + 30], y[start:start + 30], classes=[0, 1, 2])
    assert model.score(X, y) >= 0.95 and model.n_iter_ == 100
    assert model.loss_curve_[-1] < model.loss_curve_[0] and not model.converged_


# ----------------------------------------------------------------------------------------
# refml equals refml_fast on the same sequence of chunks.


@pytest.mark.fast
@pytest.mark.parametrize("name", sorted(ONLINE))
def test_refml_and_refml_fast_agree_on_chunk_sequences(name):
    import numpy as np

    import refml
    import refml_fast

    X, y = blobs(3, 40, 3, 1.5, 21)
    sizes = [7, 30, 1, 22, 40, 20]
    models = []
    for lib in (refml, refml_fast):
        model = ONLINE[name](lib)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for _ in range(3):
                data = (X, y) if lib is refml else (np.array(X), np.array(y))
                for X_chunk, y_chunk in chunks(*data, sizes):
                    model.partial_fit(X_chunk, y_chunk, classes=[0, 1, 2])
        models.append(model)
    Q = [[x + 0.25 for x in row] for row in X]
    assert as_list(models[0].predict(Q)) == as_list(models[1].predict(np.array(Q)))
    for attribute in ("coef_", "intercept_", "theta_", "var_", "means_", "covariance_",
                      "class_count_", "bin_counts_"):
        if hasattr(models[0], attribute):
            assert as_list(getattr(models[0], attribute)) == \
                as_list(getattr(models[1], attribute)), attribute


@pytest.mark.fast
@pytest.mark.parametrize("order", ["cyclic", "batch", "random", "uniform"])
@pytest.mark.parametrize("schedule", ["constant", "decreasing"])
def test_multinomial_perceptron_parity(order, schedule):
    import numpy as np

    import refml
    import refml_fast

    X, y = blobs(4, 25, 3, 1.5, 22)
    kwargs = dict(multi_class="multinomial", order=order, schedule=schedule, max_iter=20,
                  random_state=5, store_trajectory=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = refml.Perceptron(**kwargs).fit(X, y)
        b = refml_fast.Perceptron(**kwargs).fit(np.array(X), np.array(y))
    assert as_list(a.coef_) == as_list(b.coef_) and a.n_mistakes_ == b.n_mistakes_
    assert as_list(a.trajectory_) == as_list(b.trajectory_)
    assert as_list(a.decision_function(X)) == as_list(b.decision_function(np.array(X)))
    assert not math.isnan(sum(sum(row) for row in as_list(a.coef_)))


def test_a_chunk_of_zero_weights_teaches_nothing(lib):
    X, y = blobs(2, 20, 2, 0.5, 23)
    model = lib.GaussianNB().partial_fit(X[:20], y[:20], classes=[0, 1])
    theta = as_list(model.theta_)
    model.partial_fit(X[20:], y[20:], sample_weight=[0.0] * 20)
    assert as_list(model.theta_) == theta
    with pytest.raises(ValueError, match="negative"):
        model.partial_fit(X[20:], y[20:], sample_weight=[-1.0] + [0.0] * 19)


@pytest.mark.parametrize("solver", ["sgd", "gd"])
def test_all_zero_rows_without_intercept_give_a_model_not_a_zero_division(lib, solver):
    """x~ = 0 everywhere and alpha = 0: L is the constant log K, its smoothness constant 0;
    the default step is then 1.0 (no step moves theta), never 1/0 (conformance item 18
    found the partial_fit case: a first chunk of zero rows)."""
    model = lib.LogisticRegression(solver=solver, fit_intercept=False).fit(
        [[0.0], [0.0], [0.0]], [0, 1, 1])
    assert as_list(model.coef_) == [[0.0]] and model.learning_rate_ == 1.0
    online = lib.LogisticRegression(solver="sgd", fit_intercept=False, random_state=0)
    online.partial_fit([[0.0], [0.0]], [0, 1], classes=[0, 1])
    online.partial_fit([[2.0], [-2.0], [1.0]], [1, 0, 1])
    assert online.learning_rate_ == 1.0 and as_list(online.predict([[3.0], [-3.0]])) == [1, 0]


@pytest.mark.parametrize("order", ["cyclic", "random"])
def test_the_perceptrons_partial_fit_after_fit_is_its_next_pass(lib, order):
    """fit counts the points it examined (t = n_iter_ * n), so partial_fit's pass goes on
    with the decreasing step gamma_t = 1/t where the fit stopped: fit with max_iter=3 and one
    partial_fit equal fit with max_iter=4 (a fault counted n_iter_ * d)."""
    rng = random.Random(5)
    X = [[rng.gauss(0, 1), rng.gauss(0, 1)] for _ in range(30)]
    y = [int(x[0] + 0.3 * rng.gauss(0, 1) > 0) for x in X]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        settings = dict(schedule="decreasing", tol=None, order=order, random_state=2)
        stepped = lib.Perceptron(max_iter=3, **settings).fit(X, y).partial_fit(X, y)
        longer = lib.Perceptron(max_iter=4, **settings).fit(X, y)
    assert not longer.converged_ and longer.n_iter_ == stepped.n_iter_ == 4
    assert as_list(stepped.coef_) == as_list(longer.coef_)
    assert float(stepped.intercept_) == float(longer.intercept_)
