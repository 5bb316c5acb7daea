"""SVC with more than two classes (refml.svm.one_vs_one / refml_fast): one binary SVM per
pair of classes, votes, and scikit-learn's layout of the attributes.  Checked against
scikit-learn's SVC (LIBSVM) on the same C and gamma, against a one-vs-one built by hand from
the binary SVC, and refml against refml_fast exactly."""

import random

import pytest

from tests.helpers import as_list

# Three points a class on three corners of a square, a class each: every pair is linearly
# separable with a wide margin, so every rule agrees on the training points.
CORNERS_X = [[0.0, 0.0], [0.2, 0.0], [0.0, 0.2],
             [4.0, 0.0], [4.2, 0.0], [4.0, 0.2],
             [0.0, 4.0], [0.2, 4.0], [0.0, 4.2]]
CORNERS_Y = ["a"] * 3 + ["b"] * 3 + ["c"] * 3


def blobs(n_classes, n_per_class, d, spread, seed):
    """Gaussian classes around random centres, labels 0..K-1 shuffled in row order."""
    rng = random.Random(seed)
    centres = [[rng.gauss(0.0, 2.0) for _ in range(d)] for _ in range(n_classes)]
    rows = [([c + rng.gauss(0.0, spread) for c in centres[k]], k)
            for k in range(n_classes) for _ in range(n_per_class)]
    rng.shuffle(rows)
    return [x for x, _ in rows], [k for _, k in rows]


def test_three_separated_classes_are_learned_with_the_pairs_layout(lib):
    model = lib.SVC(kernel="linear", C=10.0).fit(CORNERS_X, CORNERS_Y)
    assert as_list(model.predict(CORNERS_X)) == CORNERS_Y
    assert as_list(model.predict([[3.9, 0.1], [0.1, 3.9], [0.1, 0.1]])) == ["b", "c", "a"]
    assert len(as_list(model.intercept_)) == 3 and len(as_list(model.dual_coef_)) == 2
    assert len(as_list(model.coef_)) == 3 and len(model.estimators_) == 3
    assert sum(as_list(model.n_support_)) == len(as_list(model.support_))
    # support vectors grouped by class, ascending within a class
    support = as_list(model.support_)
    classes = [CORNERS_Y[t] for t in support]
    assert classes == sorted(classes)
    values = as_list(model.decision_function(CORNERS_X))
    assert len(values) == 9 and all(len(row) == 3 for row in values)
    model.set_params(decision_function_shape="ovo")
    model.fit(CORNERS_X, CORNERS_Y)
    pair_values = as_list(model.decision_function(CORNERS_X))
    assert all(len(row) == 3 for row in pair_values)
    # LIBSVM's sign: pair (a, b) is positive at class a's points, negative at class b's
    assert pair_values[0][0] > 0 and pair_values[3][0] < 0


def test_the_pairs_are_the_binary_svms_of_the_pairs_of_classes(lib):
    X, y = blobs(4, 12, 3, 1.5, seed=3)
    model = lib.SVC(kernel="rbf", C=2.0).fit(X, y)
    gamma = model.gamma_
    k = 0
    for i in range(4):
        for j in range(i + 1, 4):
            rows = [t for t in range(len(y)) if y[t] in (i, j)]
            binary = lib.SVC(kernel="rbf", C=2.0, gamma=gamma).fit(
                [X[t] for t in rows], [0 if y[t] == i else 1 for t in rows])
            pair = model.estimators_[k]
            assert as_list(pair.dual_coef_) == as_list(binary.dual_coef_)
            assert as_list(model.intercept_)[k] == -binary.intercept_
            k += 1
    assert k == 6


def test_votes_follow_libsvms_rule_and_break_ties_takes_the_decision_function(lib):
    X, y = blobs(5, 10, 2, 2.5, seed=11)           # overlapping: many close votes
    queries, _ = blobs(5, 20, 2, 4.0, seed=12)
    model = lib.SVC(kernel="rbf", C=1.0).fit(X, y)
    pair_values = [as_list(pair.decision_function(queries)) for pair in model.estimators_]
    pairs = [(i, j) for i in range(5) for j in range(i + 1, 5)]
    expected = []
    for r in range(len(queries)):
        votes = [0] * 5
        for (i, j), values in zip(pairs, pair_values):
            votes[j if values[r] >= 0.0 else i] += 1
        expected.append(votes.index(max(votes)))    # the first class among the most voted
    assert as_list(model.predict(queries)) == expected
    tied = lib.SVC(kernel="rbf", C=1.0, break_ties=True).fit(X, y)
    ovr = as_list(tied.decision_function(queries))
    assert as_list(tied.predict(queries)) == [row.index(max(row)) for row in ovr]


@pytest.mark.fast
def test_refml_and_refml_fast_agree_exactly_on_many_classes():
    import refml
    import refml_fast

    for seed, (K, kernel) in enumerate([(3, "linear"), (4, "rbf"), (5, "poly"), (3, "rbf")]):
        X, y = blobs(K, 9, 3, 1.8, seed=seed)
        labels = [f"class {k}" for k in y]
        for shape in ("ovr", "ovo"):
            a = refml.SVC(kernel=kernel, C=1.5, decision_function_shape=shape).fit(X, labels)
            b = refml_fast.SVC(kernel=kernel, C=1.5, decision_function_shape=shape).fit(
                X, labels)
            for name in ("support_", "n_support_", "dual_coef_", "intercept_", "n_iter_"):
                assert as_list(getattr(a, name)) == as_list(getattr(b, name)), name
            assert as_list(a.predict(X)) == as_list(b.predict(X))
            assert as_list(a.decision_function(X)) == as_list(b.decision_function(X))


@pytest.mark.fast
@pytest.mark.sklearn
@pytest.mark.parametrize("kernel", ["linear", "rbf"])
def test_predictions_agree_with_libsvm_on_ten_classes(kernel):
    """scikit-learn's SVC is LIBSVM's one-vs-one: the same C and gamma give the same votes
    but where a pair's decision is within the solvers' tolerances of 0."""
    import numpy as np
    from sklearn.datasets import load_digits
    from sklearn.svm import SVC

    import refml_fast

    X, y = load_digits(return_X_y=True)
    X = X / 16.0
    train, test = slice(0, 1200), slice(1200, None)
    ours = refml_fast.SVC(kernel=kernel, C=1.0).fit(X[train], y[train])
    theirs = SVC(kernel=kernel, C=1.0).fit(X[train], y[train])
    agreement = np.mean(ours.predict(X[test]) == theirs.predict(X[test]))
    assert agreement >= 0.99, agreement
    assert ours.decision_function(X[test]).shape == (len(X[test]), 10)
    assert list(ours.n_support_) == pytest.approx(list(theirs.n_support_), abs=3)
    assert np.mean(ours.predict(X[test]) == y[test]) > 0.9


@pytest.mark.sklearn
def test_iris_cross_validates(lib):
    from sklearn.datasets import load_iris
    from sklearn.model_selection import cross_val_score

    X, y = load_iris(return_X_y=True)
    if lib.__name__ == "refml":
        X, y = X.tolist(), y.tolist()
    scores = cross_val_score(lib.SVC(kernel="rbf"), X, y, cv=3)
    assert min(scores) > 0.9


def test_break_ties_needs_the_ovr_shape(lib):
    with pytest.raises(ValueError, match="break_ties"):
        lib.SVC(break_ties=True, decision_function_shape="ovo").fit(CORNERS_X, CORNERS_Y)
    with pytest.raises(ValueError, match="decision_function_shape"):
        lib.SVC(decision_function_shape="ovx").fit(CORNERS_X, CORNERS_Y)


def test_two_classes_keep_the_binary_model(lib):
    model = lib.SVC(C=float("inf")).fit([[0.0], [1.0], [3.0], [4.0]], [0, 0, 1, 1])
    assert as_list(model.coef_) == [1.0] and model.intercept_ == -2.0
    assert len(as_list(model.decision_function([[0.0], [4.0]]))) == 2
    assert not hasattr(model, "estimators_") and model.margin_ == 1.0


@pytest.mark.fast
@pytest.mark.parametrize("kernel", ["rbf", "poly", "linear"])
def test_pairs_on_threads_fit_what_the_loop_fits(monkeypatch, kernel):
    """refml_fast's pairs on threads fit exactly what one pair after another fits."""
    from concurrent.futures import ThreadPoolExecutor

    import numpy as np

    import refml_fast
    from refml_fast.svm import svc as fast_svc

    X, y = blobs(6, 120, 5, 1.5, 31)
    X, y = np.array(X), np.array(y)
    monkeypatch.setattr(fast_svc, "PAIRS_ON_THREADS_FROM", 0)
    monkeypatch.setattr(fast_svc._config, "cores_free", lambda *args: True)
    pools = []
    monkeypatch.setattr(fast_svc, "ThreadPoolExecutor",
                        lambda **kw: pools.append(kw) or ThreadPoolExecutor(**kw))
    threaded = refml_fast.SVC(kernel=kernel, C=2.0).fit(X, y)
    assert pools or fast_svc._config.numba.get_num_threads() < 2
    monkeypatch.setattr(fast_svc, "PAIRS_ON_THREADS_FROM", 10 ** 9)
    looped = refml_fast.SVC(kernel=kernel, C=2.0).fit(X, y)
    for name in ("support_", "n_support_", "dual_coef_", "intercept_", "n_iter_"):
        assert np.array_equal(getattr(threaded, name), getattr(looped, name)), name
    assert np.array_equal(threaded.decision_function(X), looped.decision_function(X))


@pytest.mark.fast
@pytest.mark.parametrize("kernel", ["rbf", "poly"])
def test_pair_scores_find_each_pairs_support_vectors_among_the_models(kernel):
    """refml_fast scores all pairs from one kernel value per support vector of the model:
    each pair's support vectors and coefficients are found, in the pair's order, among the
    model's (those serving several pairs once)."""
    import numpy as np

    import refml_fast

    X, y = blobs(5, 40, 3, 1.5, 7)
    X, y = np.array(X), np.array(y)
    model = refml_fast.SVC(kernel=kernel, C=3.0).fit(X, y)
    starts, positions, coefficients, SV = model._pair_layout()
    assert len(starts) == 11 and len(positions) > len(SV)          # shared support vectors
    for p, pair in enumerate(model.estimators_):
        own = slice(starts[p], starts[p + 1])
        assert np.array_equal(SV[positions[own]], pair.support_vectors_)
        assert np.array_equal(coefficients[own], pair.dual_coef_)


@pytest.mark.fast
@pytest.mark.parametrize("kernel", ["rbf", "poly"])
def test_pair_scores_equal_each_pairs_own_scores(monkeypatch, kernel):
    """Both thread twins of the shared pair scores give every pair's own binary floats, and a
    model whose pairs are not found among its support vectors scores pair by pair."""
    import numpy as np

    import refml_fast
    from refml_fast.svm import pair_scores
    from refml_fast.svm import svc as fast_svc

    X, y = blobs(5, 40, 3, 1.5, 7)
    X, y = np.array(X), np.array(y)
    model = refml_fast.SVC(kernel=kernel, C=3.0, decision_function_shape="ovo").fit(X, y)
    each_pair = -np.column_stack([pair._decision_values(X) for pair in model.estimators_])
    for twin in ("pair_scores", "pair_scores_parallel"):
        calls = []
        monkeypatch.setattr(fast_svc, "run_parallel", lambda parallel, serial, size, *args,
                            twin=twin, **kw: calls.append(twin) or getattr(pair_scores, twin)(
                                *args))
        assert np.array_equal(model.decision_function(X), each_pair)
        assert calls == [twin]
    monkeypatch.undo()
    model.estimators_[3].support_vectors_ = model.estimators_[3].support_vectors_ + 1.0
    assert model._pair_layout() is None
    shifted = -np.column_stack([pair._decision_values(X) for pair in model.estimators_])
    assert not np.array_equal(shifted, each_pair)
    assert np.array_equal(model.decision_function(X), shifted)


@pytest.mark.parametrize("kernel", ["rbf", "poly"])
def test_refml_scores_the_pairs_from_one_kernel_value_per_support_vector(kernel):
    """refml computes K(x_s, x) once per support vector of the model and sums each pair's
    terms in its own order: every pair's own binary floats; a model whose pair support
    vectors were changed by hand scores pair by pair."""
    import refml
    from refml.svm import one_vs_one

    X, y = blobs(4, 15, 3, 1.5, 8)
    model = refml.SVC(kernel=kernel, C=3.0, decision_function_shape="ovo").fit(X, y)
    positions = model._pair_positions()
    assert sum(map(len, positions)) > len(model.support_)          # shared support vectors
    assert positions == one_vs_one.pair_support_positions(
        4, list(model.support_), list(model.n_support_), model.dual_coef_)
    for (i, j), pair, places in zip(one_vs_one.pairs(4), model.estimators_, positions):
        rows = [t for t, label in enumerate(y) if label in (i, j)]   # the pair's training rows
        assert [model.support_[p] for p in places] == [rows[s] for s in pair.support_]
    each_pair = [[-v for v in pair._decision_values(X)] for pair in model.estimators_]
    assert model.decision_function(X) == [list(row) for row in zip(*each_pair)]
    model.estimators_[2].support_vectors_ = [[v + 1.0 for v in z]
                                             for z in model.estimators_[2].support_vectors_]
    assert model._pair_positions() is None
    shifted = [[-v for v in pair._decision_values(X)] for pair in model.estimators_]
    assert shifted != each_pair
    assert model.decision_function(X) == [list(row) for row in zip(*shifted)]
