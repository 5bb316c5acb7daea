"""Ensembles (refml.ensemble / refml_fast.ensemble): bagging and forests rebuilt by hand from
the documented seeds, votes and their tie rule, AdaBoost traced by hand with a scripted
weak learner (binary and SAMME, both stopping rules), weights (zero, negative, all zero,
scale, integer = repeated rows), constant features, bad parameters, and exact agreement of
the two packages (forests fitted on threads included)."""

import math
import warnings

import pytest

from refml.core.base import BaseEstimator
from refml.core.random import Generator
from tests.helpers import as_list, compiled_and_plain, run_python


# Two overlapping 2-D classes (every bootstrap of 24 rows holds both, trees disagree).
def _blobs(n, seed):
    rng = Generator(seed)
    X, y = [], []
    for i in range(n):
        label = i % 2
        X.append([rng.normal() + 1.2 * label, rng.normal() - 0.8 * label])
        y.append(label)
    return X, y


BLOB_X, BLOB_Y = _blobs(24, 5)
# Three classes on a grid with string labels (multiclass votes and SAMME).
GRID_X = [[float(i % 4), float(i // 4)] for i in range(16)]
GRID_Y = ["ant" if x + 0.5 * z < 2 else "bee" if x < 2.5 else "cat" for x, z in GRID_X]
# XOR: every stump has weighted error exactly 1/2, so AdaBoost stops in round 1.
XOR_X = [[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]]
XOR_Y = ["a", "b", "b", "a"]
# Feature 0 constant: no tree may split on it.
CONST_X = [[7.0, float(i)] for i in range(10)]
CONST_Y = [0, 0, 0, 1, 1, 0, 1, 1, 1, 1]
# Every feature constant, labels 2:3: a stump is a single leaf voting for class 1.
FLAT_X = [[1.0, 2.0]] * 5
FLAT_Y = [0, 1, 1, 0, 1]
# Three rows, one of class 1: bootstrap samples without it are common (about 30%).
THIN_X = [[0.0], [1.0], [2.0]]
THIN_Y = [0, 0, 1]
QUERY = [[-2.0 + 0.5 * i, -2.0 + 0.5 * j] for i in range(10) for j in range(10)]


def tree_fields(tree):
    return {name: as_list(getattr(tree.tree_, name))
            for name in ("children_left", "feature", "threshold", "value")}


# --- bagging and forests: the documented randomness, rebuilt by hand ---------------------

@pytest.mark.parametrize("forest", [False, True])
def test_member_b_is_a_tree_on_the_bootstrap_sample_drawn_from_seed_b(lib, forest):
    import refml

    n, seed = len(BLOB_Y), 7
    if forest:
        model = lib.RandomForestClassifier(n_estimators=4, max_features=1, random_state=seed)
    else:
        model = lib.BaggingClassifier(n_estimators=4, random_state=seed)
    model.fit(BLOB_X, BLOB_Y)
    master = Generator(seed)
    seeds = [master.next_u64() for _ in range(4)]  # drawn before any member is fitted
    for member_seed, member in zip(seeds, model.estimators_):
        rng = Generator(member_seed)
        drawn = [rng.randbelow(n) for _ in range(n)]
        labels = [BLOB_Y[i] for i in drawn]
        assert len(set(labels)) == 2
        by_hand = refml.DecisionTreeClassifier(max_features=1 if forest else None,
                                               random_state=rng.next_u64())
        by_hand.fit([BLOB_X[i] for i in drawn], labels)  # the sample itself, repeated rows
        assert tree_fields(member) == tree_fields(by_hand)
        assert as_list(member.predict(QUERY)) == as_list(by_hand.predict(QUERY))


def test_the_first_members_are_the_smaller_ensemble(lib):
    big = lib.RandomForestClassifier(n_estimators=6, random_state=3).fit(GRID_X, GRID_Y)
    small = lib.RandomForestClassifier(n_estimators=2, random_state=3).fit(GRID_X, GRID_Y)
    for a, b in zip(big.estimators_, small.estimators_):
        assert tree_fields(a) == tree_fields(b)
    other = lib.RandomForestClassifier(n_estimators=2, random_state=4).fit(GRID_X, GRID_Y)
    assert any(tree_fields(a) != tree_fields(b)
               for a, b in zip(other.estimators_, small.estimators_))


def test_a_forest_without_feature_draws_is_bagging_of_trees(lib):
    forest = lib.RandomForestClassifier(n_estimators=3, max_features=None, random_state=9)
    bagging = lib.BaggingClassifier(n_estimators=3, random_state=9)
    forest.fit(BLOB_X, BLOB_Y)
    bagging.fit(BLOB_X, BLOB_Y)
    assert [tree_fields(t) for t in forest.estimators_] == \
           [tree_fields(t) for t in bagging.estimators_]


def test_forest_trees_search_floor_sqrt_d_features(lib):
    X = [[float((i * (j + 3)) % 7) for j in range(10)] for i in range(30)]
    y = [i % 3 for i in range(30)]
    forest = lib.RandomForestClassifier(n_estimators=3, random_state=0).fit(X, y)
    assert [tree.max_features_ for tree in forest.estimators_] == [3, 3, 3]  # isqrt(10)
    assert forest.estimator_.max_features == "sqrt"


# --- votes ---------------------------------------------------------------------------------

def test_predict_is_the_majority_vote_and_proba_the_vote_fractions(lib):
    model = lib.BaggingClassifier(n_estimators=5, random_state=1).fit(GRID_X, GRID_Y)
    member_votes = [as_list(member.predict(QUERY)) for member in model.estimators_]
    proba = as_list(model.predict_proba(QUERY))
    predicted = as_list(model.predict(QUERY))
    classes = list(model.classes_)
    for i in range(len(QUERY)):
        counts = [sum(1 for votes in member_votes if votes[i] == c) for c in classes]
        assert proba[i] == [count / 5 for count in counts]
        assert predicted[i] == classes[counts.index(max(counts))]


def test_a_tied_vote_goes_to_the_first_class(lib):
    model = lib.BaggingClassifier(n_estimators=2, random_state=2).fit(BLOB_X, BLOB_Y)
    first, second = (as_list(m.predict(QUERY)) for m in model.estimators_)
    tied = [i for i in range(len(QUERY)) if first[i] != second[i]]
    assert tied  # the two trees disagree somewhere on the query grid
    predicted, proba = as_list(model.predict(QUERY)), as_list(model.predict_proba(QUERY))
    assert all(predicted[i] == 0 and proba[i] == [0.5, 0.5] for i in tied)


def test_any_base_estimator_even_without_sample_weight(lib):
    model = lib.BaggingClassifier(estimator=lib.KNeighborsClassifier(n_neighbors=1),
                                  n_estimators=20, random_state=0).fit(THIN_X, THIN_Y)
    kinds = {type(member).__name__ for member in model.estimators_}
    assert kinds == {"KNeighborsClassifier", "SingleClassVoter"}  # some samples miss class 1
    for member in model.estimators_:
        if type(member).__name__ == "SingleClassVoter":
            assert as_list(member.predict([[2.0]])) == [0]
    votes_for_1 = sum(as_list(m.predict([[2.0]])) == [1] for m in model.estimators_)
    assert as_list(model.predict_proba([[2.0]]))[0][1] == votes_for_1 / 20
    with pytest.raises(ValueError, match="sample_weight"):
        model.fit(THIN_X, THIN_Y, sample_weight=[1.0, 2.0, 1.0])


# --- weights, zeros, constant features --------------------------------------------------

@pytest.mark.parametrize("name", ["BaggingClassifier", "RandomForestClassifier",
                                  "AdaBoostClassifier"])
@pytest.mark.parametrize("weights, words", [([0.0] * 24, "all zero"),
                                            ([1.0] * 23 + [-1.0], "negative"),
                                            ([1.0] * 23 + [float("nan")], "NaN"),
                                            ([1.0] * 23, "inconsistent numbers of samples")])
def test_bad_sample_weights_are_refused_and_nothing_is_fitted(lib, name, weights, words):
    model = getattr(lib, name)(n_estimators=2)
    with pytest.raises(ValueError, match=words):
        model.fit(BLOB_X, BLOB_Y, sample_weight=weights)
    assert not [a for a in vars(model) if a.endswith("_") and not a.startswith("_")]


def test_rows_of_weight_zero_are_never_drawn(lib):
    weights = [0.0 if i < 8 else 1.0 for i in range(24)]
    model = lib.BaggingClassifier(n_estimators=5, random_state=4)
    model.fit(BLOB_X, BLOB_Y, sample_weight=weights)
    for tree in model.estimators_:
        root = as_list(tree.tree_.value)[0]
        assert sum(root) == 16.0  # 16 draws from the 16 rows of positive weight
    # a class whose rows all weigh 0 stays in classes_ and never gets a vote
    weights = [0.0 if label == "bee" else 1.0 for label in GRID_Y]
    model.fit(GRID_X, GRID_Y, sample_weight=weights)
    assert list(model.classes_) == ["ant", "bee", "cat"]
    assert all(row[1] == 0.0 for row in as_list(model.predict_proba(QUERY)))


def test_a_constant_feature_is_never_split_on(lib):
    forest = lib.RandomForestClassifier(n_estimators=5, max_features=1, random_state=0)
    forest.fit(CONST_X, CONST_Y)
    boost = lib.AdaBoostClassifier(n_estimators=5).fit(CONST_X, CONST_Y)
    for tree in list(forest.estimators_) + list(boost.estimators_):
        assert 0 not in as_list(tree.tree_.feature)
    assert as_list(forest.predict(CONST_X)) == CONST_Y  # fully grown trees, no conflicts


def test_adaboost_on_constant_features_predicts_the_weighted_majority(lib):
    model = lib.AdaBoostClassifier(n_estimators=10).fit(FLAT_X, FLAT_Y)
    # round 1: one leaf voting 1, err = 2/5; round 2: class weights 3 : 3, err = 1/2: stop
    assert as_list(model.estimator_errors_) == [0.4]
    assert math.isclose(as_list(model.estimator_weights_)[0], math.log(1.5), rel_tol=1e-12)
    assert as_list(model.predict([[1.0, 2.0], [5.0, 5.0]])) == [1, 1]


def test_adaboost_is_invariant_to_the_scale_of_the_weights(lib):
    unit = lib.AdaBoostClassifier(n_estimators=8).fit(BLOB_X, BLOB_Y)
    for scale in (1e-300, 1e300):
        scaled = lib.AdaBoostClassifier(n_estimators=8)
        scaled.fit(BLOB_X, BLOB_Y, sample_weight=[scale] * 24)
        assert as_list(scaled.predict(QUERY)) == as_list(unit.predict(QUERY))
        for a, b in zip(as_list(scaled.estimator_weights_), as_list(unit.estimator_weights_)):
            assert math.isclose(a, b, rel_tol=1e-9)


def test_adaboost_integer_weights_are_repeated_rows(lib):
    weights = [float(1 + i % 3) for i in range(24)]
    repeated_X = [row for row, w in zip(BLOB_X, weights) for _ in range(int(w))]
    repeated_y = [label for label, w in zip(BLOB_Y, weights) for _ in range(int(w))]
    weighted = lib.AdaBoostClassifier(n_estimators=6).fit(BLOB_X, BLOB_Y, sample_weight=weights)
    repeated = lib.AdaBoostClassifier(n_estimators=6).fit(repeated_X, repeated_y)
    assert as_list(weighted.predict(QUERY)) == as_list(repeated.predict(QUERY))
    for a, b in zip(as_list(weighted.estimator_errors_), as_list(repeated.estimator_errors_)):
        assert math.isclose(a, b, rel_tol=1e-9)


# --- AdaBoost traced by hand -------------------------------------------------------------

class ScriptedLearner(BaseEstimator):
    """A weak learner whose m-th fit predicts ``script[m]`` on the training rows; it records
    the sample weights each fit receives in ``log`` (shared by every clone)."""

    def __init__(self, *, script=(), log=None):
        self.script = script
        self.log = log

    def fit(self, X, y, sample_weight=None):
        self.round_ = len(self.log)
        self.log.append([float(w) for w in sample_weight])
        self.rows_ = [tuple(float(v) for v in row) for row in X]
        return self

    def predict(self, X):
        answer = dict(zip(self.rows_, self.script[self.round_]))
        return [answer[tuple(float(v) for v in row)] for row in X]


FOUR_X = [[0.0], [1.0], [2.0], [3.0]]
FOUR_Y = [0, 0, 1, 1]


def close_lists(a, b, tolerance=1e-12):
    return len(a) == len(b) and all(math.isclose(u, v, rel_tol=tolerance, abs_tol=1e-15)
                                    for u, v in zip(a, b))


def test_adaboost_trace_with_a_perfect_third_learner(lib):
    log = []
    script = [[0, 0, 1, 0],   # misses row 3: err = 1/4, alpha = log 3
              [1, 0, 1, 1],   # misses row 0: err = (2/3)/4 = 1/6, alpha = log 5
              [0, 0, 1, 1],   # perfect: err = 0, alpha = 1 + log 3 + log 5, stop
              [1, 1, 1, 1]]
    model = lib.AdaBoostClassifier(estimator=ScriptedLearner(script=script, log=log),
                                   n_estimators=4).fit(FOUR_X, FOUR_Y)
    assert len(model.estimators_) == 3 and len(log) == 3
    assert close_lists(as_list(model.estimator_errors_), [1 / 4, 1 / 6, 0.0])
    alphas = [math.log(3), math.log(5), 1 + math.log(3) + math.log(5)]
    assert close_lists(as_list(model.estimator_weights_), alphas)
    # weights start at 1 (mean 1); the miss gains e^alpha = 3, then back to mean 1 ...
    assert close_lists(log[0], [1.0, 1.0, 1.0, 1.0])
    assert close_lists(log[1], [2 / 3, 2 / 3, 2 / 3, 2.0])
    assert close_lists(log[2], [2.0, 0.4, 0.4, 1.2])  # [10/3, 2/3, 2/3, 2] * 4 / (20/3)
    # sum_m alpha_m f_m(x), f in {-1, +1}: the perfect learner decides
    expected = [-alphas[0] + alphas[1] - alphas[2], -alphas[0] - alphas[1] - alphas[2],
                alphas[0] + alphas[1] + alphas[2], -alphas[0] + alphas[1] + alphas[2]]
    assert close_lists(as_list(model.decision_function(FOUR_X)), expected)
    assert as_list(model.predict(FOUR_X)) == FOUR_Y


def test_adaboost_stops_before_a_learner_no_better_than_chance(lib):
    log = []
    script = [[0, 0, 1, 0],   # err = 1/4
              [0, 0, 0, 0]]   # misses rows 2, 3 of weights 2/3, 2: err = 2/3 >= 1/2
    model = lib.AdaBoostClassifier(estimator=ScriptedLearner(script=script, log=log),
                                   n_estimators=5).fit(FOUR_X, FOUR_Y)
    assert len(log) == 2 and len(model.estimators_) == 1
    assert close_lists(as_list(model.estimator_errors_), [0.25])
    assert as_list(model.predict(FOUR_X)) == [0, 0, 1, 0]


def test_samme_keeps_a_three_class_learner_with_error_above_one_half(lib):
    log = []
    X, y = [[0.0], [1.0], [2.0], [3.0], [4.0]], [0, 0, 1, 1, 2]
    script = [[1, 2, 0, 1, 2],   # misses rows 0-2: err = 3/5 < 1 - 1/3
              [0, 0, 1, 1, 2]]   # perfect
    model = lib.AdaBoostClassifier(estimator=ScriptedLearner(script=script, log=log),
                                   n_estimators=3).fit(X, y)
    alpha = math.log(0.4 / 0.6) + math.log(2)  # = log(4/3) > 0
    assert close_lists(as_list(model.estimator_weights_), [alpha, 1.0 + alpha])
    assert close_lists(log[1], [10 / 9, 10 / 9, 10 / 9, 5 / 6, 5 / 6])  # misses x 4/3
    scores = as_list(model.decision_function([[0.0]]))[0]
    assert close_lists(scores, [1.0 + alpha, alpha, 0.0])
    assert as_list(model.predict(X)) == y


def test_adaboost_on_xor_is_empty_warns_and_predicts_the_first_class(lib):
    with pytest.warns(UserWarning, match="no better than chance"):
        model = lib.AdaBoostClassifier(n_estimators=5).fit(XOR_X, XOR_Y)
    assert len(model.estimators_) == 0 and len(model.estimator_weights_) == 0
    assert as_list(model.decision_function(XOR_X)) == [0.0] * 4
    assert as_list(model.predict(XOR_X)) == ["a"] * 4


def test_adaboost_default_stumps_and_decision_function(lib):
    model = lib.AdaBoostClassifier(n_estimators=10).fit(BLOB_X, BLOB_Y)
    assert all(tree.get_depth() == 1 for tree in model.estimators_)
    assert all(0.0 < err < 0.5 for err in as_list(model.estimator_errors_))
    scores = [0.0] * len(QUERY)
    for alpha, tree in zip(as_list(model.estimator_weights_), model.estimators_):
        for i, label in enumerate(as_list(tree.predict(QUERY))):
            scores[i] += alpha * (1.0 if label == 1 else -1.0)
    assert close_lists(as_list(model.decision_function(QUERY)), scores)
    assert as_list(model.predict(QUERY)) == [1 if s > 0 else 0 for s in scores]
    multi = lib.AdaBoostClassifier(n_estimators=4).fit(GRID_X, GRID_Y)
    scores = as_list(multi.decision_function(QUERY))
    labels = as_list(multi.predict(QUERY))
    assert all(label == multi.classes_[row.index(max(row))] for label, row in zip(labels, scores))


# --- hyper-parameters ----------------------------------------------------------------------

@pytest.mark.parametrize("name, params, words", [
    ("BaggingClassifier", {"n_estimators": 0}, "n_estimators"),
    ("BaggingClassifier", {"n_jobs": 0}, "n_jobs"),
    ("BaggingClassifier", {"random_state": -1}, "random_state"),
    ("BaggingClassifier", {"estimator": "tree"}, "estimator"),
    ("RandomForestClassifier", {"max_features": "half"}, "max_features"),
    ("RandomForestClassifier", {"max_depth": 0}, "max_depth"),
    ("RandomForestClassifier", {"criterion": "gain"}, "criterion"),
    ("AdaBoostClassifier", {"n_estimators": 2.5}, "n_estimators"),
])
def test_bad_hyper_parameters_fail_at_fit_naming_themselves(lib, name, params, words):
    model = getattr(lib, name)(**params)  # __init__ only stores
    with pytest.raises(ValueError, match=words):
        model.fit(BLOB_X, BLOB_Y)


def test_adaboost_needs_a_weighted_base_estimator(lib):
    model = lib.AdaBoostClassifier(estimator=lib.KNeighborsClassifier())
    with pytest.raises(ValueError, match="sample_weight"):
        model.fit(BLOB_X, BLOB_Y)


def test_nested_parameters_and_repr(lib):
    model = lib.BaggingClassifier(estimator=lib.DecisionTreeClassifier(max_depth=2))
    assert model.get_params()["estimator__max_depth"] == 2
    model.set_params(estimator__max_depth=3, n_estimators=4)
    assert model.estimator.max_depth == 3
    assert repr(model) == ("BaggingClassifier(estimator=DecisionTreeClassifier(max_depth=3), "
                           "n_estimators=4)")


# --- the two packages agree ----------------------------------------------------------------

@pytest.mark.fast
def test_forest_on_threads_equals_forest_in_order_and_refml(monkeypatch):
    import refml
    import refml_fast
    from refml_fast.ensemble import committees

    monkeypatch.setattr(committees, "MEMBER_WORK_FOR_THREADS", 0)  # threads at 60 rows
    X, y = _blobs(60, 8)
    models = [refml.RandomForestClassifier(n_estimators=6, random_state=5),
              refml_fast.RandomForestClassifier(n_estimators=6, random_state=5),
              refml_fast.RandomForestClassifier(n_estimators=6, random_state=5, n_jobs=2),
              refml_fast.RandomForestClassifier(n_estimators=6, random_state=5, n_jobs=-1)]
    for model in models:
        model.fit(X, y)
    reference = [tree_fields(t) for t in models[0].estimators_]
    for model in models[1:]:
        assert [tree_fields(t) for t in model.estimators_] == reference
        assert as_list(model.predict_proba(QUERY)) == as_list(models[0].predict_proba(QUERY))


@pytest.mark.fast
@pytest.mark.parametrize("n_rows, n_jobs, threads", [
    (3_000, None, 2), (3_000, -1, 2), (3_000, 1, 1), (60, None, 1), (60, -1, 1)])
def test_members_go_to_threads_when_they_pay_for_them(monkeypatch, n_rows, n_jobs, threads):
    """n_jobs=None is every core (Numba's thread count); members too small to pay for a
    thread (60 rows) are fitted on one whatever n_jobs says."""
    import numba

    import refml_fast
    from refml_fast.ensemble import committees

    monkeypatch.setattr(numba, "get_num_threads", lambda: 2)
    monkeypatch.setattr(committees.os, "cpu_count", lambda: 2)
    pools = []

    class Recording(committees.ThreadPoolExecutor):
        def __init__(self, max_workers):
            pools.append(max_workers)
            super().__init__(max_workers=max_workers)

    monkeypatch.setattr(committees, "ThreadPoolExecutor", Recording)
    X, y = _blobs(n_rows, 8)
    refml_fast.RandomForestClassifier(n_estimators=4, random_state=0, n_jobs=n_jobs).fit(X, y)
    assert pools == ([threads] if threads > 1 else [])


@pytest.mark.fast
def test_adaboost_weights_agree_float_for_float():
    import refml
    import refml_fast

    X, y = _blobs(40, 9)
    weights = [0.5 + (i % 5) for i in range(40)]
    fitted = [lib.AdaBoostClassifier(n_estimators=15).fit(X, y, sample_weight=weights)
              for lib in (refml, refml_fast)]
    for name in ("estimator_weights_", "estimator_errors_"):
        assert as_list(getattr(fitted[0], name)) == as_list(getattr(fitted[1], name))
    assert as_list(fitted[0].decision_function(QUERY)) == \
           as_list(fitted[1].decision_function(QUERY))


@pytest.mark.fast
def test_a_refml_tree_inside_refml_fast_adaboost_votes_like_refml():
    # A refml member returns its codes as a list; the fast score sum once compared that list
    # with 1 as a whole (False), so every member voted -1 (46 of 100 QUERY rows wrong).
    import refml
    import refml_fast

    stump = refml.DecisionTreeClassifier(max_depth=2)
    fitted = [lib.AdaBoostClassifier(estimator=stump, n_estimators=3).fit(BLOB_X, BLOB_Y)
              for lib in (refml, refml_fast)]
    assert as_list(fitted[1].decision_function(QUERY)) == \
           as_list(fitted[0].decision_function(QUERY))
    assert as_list(fitted[1].predict(QUERY)) == as_list(fitted[0].predict(QUERY))


@pytest.mark.fast
@pytest.mark.parametrize("member", ["tree", "GaussianNB", "KNeighborsClassifier"])
def test_members_of_either_package_in_ensembles_of_either_package_vote_alike(member):
    """A refml_fast member in a refml ensemble once failed with AttributeError ('list' has
    no 'shape': it was handed the ensemble's lists); a member of the other package now goes
    through its public fit and predict, and all four pairings give refml's votes."""
    import numpy as np

    import refml
    import refml_fast

    def make(lib):
        if member == "tree":
            return lib.DecisionTreeClassifier(max_depth=3, random_state=1)
        return getattr(lib, member)()

    results = {}
    for outer in (refml, refml_fast):
        X = BLOB_X if outer is refml else np.array(BLOB_X)
        for inner in (refml, refml_fast):
            ensembles = [outer.BaggingClassifier(estimator=make(inner), n_estimators=4,
                                                 random_state=3)]
            if member == "tree":
                ensembles.append(outer.AdaBoostClassifier(estimator=make(inner),
                                                          n_estimators=3))
            results[outer.__name__, inner.__name__] = [
                (as_list(model.fit(X, BLOB_Y).predict(QUERY)),
                 as_list(model.predict_proba(QUERY) if hasattr(model, "predict_proba")
                         else model.decision_function(QUERY))) for model in ensembles]
    expected = results["refml", "refml"]
    assert all(outcome == expected for outcome in results.values()), results.keys()


@pytest.mark.fast
@pytest.mark.parametrize("rows", [1, 7, 9, 3000])  # fewer rows than slots, more; all cores
def test_forest_votes_from_the_packed_table_are_the_members_own_predictions(rows):
    """refml_fast counts a forest's votes from one table of all trees (children side by
    side, rows walking in groups); each member's vote must still be its own predict."""
    import numpy as np

    import refml_fast

    rng = np.random.default_rng(4)
    X = rng.normal(size=(300, 4))
    y = np.array(["ant", "bee", "cat"])[rng.integers(0, 3, 300)]
    Q = 2.0 * rng.normal(size=(rows, 4))
    Q[0] = X[0]
    for forest in (refml_fast.RandomForestClassifier(n_estimators=12, random_state=0),
                   refml_fast.BaggingClassifier(n_estimators=5, random_state=1)):
        forest.fit(X, y)
        assert forest._packed_trees() is not None
        for m, member in enumerate(forest.estimators_[:rows]):   # rows exactly on a threshold
            root = member.tree_
            Q[m, root.feature[0]] = root.threshold[0]             # (<= goes left)
        expected = np.zeros((rows, 3), dtype=np.int64)
        for member in forest.estimators_:
            expected[np.arange(rows), np.searchsorted(forest.classes_, member.predict(Q))] += 1
        assert np.array_equal(forest._votes(Q), expected)
    import pickle

    from refml.core import model_files

    for loaded in (pickle.loads(pickle.dumps(forest)),   # the table is made again at the
                   model_files.loads(model_files.dumps(forest), "refml_fast")):  # first call
        assert loaded._packed.members is None
        attributes = dict(vars(loaded))
        assert np.array_equal(loaded._votes(Q), expected)
        assert loaded._packed.members == tuple(loaded.estimators_) and vars(loaded) == attributes
    forest.estimators_ = forest.estimators_[::-1][:3]   # other members: packed afresh
    expected = np.zeros((rows, 3), dtype=np.int64)
    for member in forest.estimators_:
        expected[np.arange(rows), np.searchsorted(forest.classes_, member.predict(Q))] += 1
    assert np.array_equal(forest._votes(Q), expected)
    flat = refml_fast.RandomForestClassifier(n_estimators=3, random_state=0).fit(FLAT_X, FLAT_Y)
    assert [m.tree_.node_count for m in flat.estimators_] == [1, 1, 1]   # single leaves
    leaf_votes = [m.predict([[1.0, 2.0]])[0] for m in flat.estimators_]
    assert flat._votes(np.array([[1.0, 2.0]] * rows)).tolist() == \
           [[leaf_votes.count(0), leaf_votes.count(1)]] * rows


@pytest.mark.fast
def test_kernels_run_as_plain_python_with_the_same_result():
    """NUMBA_DISABLE_JIT=1 runs the kernel bodies as Python (coverage, docs/style.md rule 8)."""
    code = ("import refml_fast\n"
            "from tests.test_ensemble import BLOB_X, BLOB_Y, QUERY\n"
            "f = refml_fast.RandomForestClassifier(n_estimators=3, random_state=2, n_jobs=2)\n"
            "print(f.fit(BLOB_X, BLOB_Y, sample_weight=[0.0] + [1.0] * 23)\n"
            "      .predict_proba(QUERY).tolist())\n"
            "a = refml_fast.AdaBoostClassifier(n_estimators=5).fit(BLOB_X, BLOB_Y)\n"
            "print(a.estimator_weights_.tolist(), a.decision_function(QUERY).tolist())\n")
    compiled, plain = compiled_and_plain(code)
    assert plain == compiled and compiled.count("[") > 10


def test_fit_leaves_inputs_alone(lib):
    X, y = [list(row) for row in BLOB_X], list(BLOB_Y)
    weights = [1.0] * 24
    for model in (lib.RandomForestClassifier(n_estimators=2, random_state=0),
                  lib.AdaBoostClassifier(n_estimators=3)):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            model.fit(X, y, sample_weight=weights)
        assert X == BLOB_X and y == BLOB_Y and weights == [1.0] * 24


@pytest.mark.fast
def test_members_with_parallel_kernels_fit_on_threads_under_the_workqueue_layer():
    """Members whose kernels run in parallel (LogisticRegression's Hessian, GaussianNB's
    densities) fitted on two threads: Numba's workqueue layer aborted the process when both
    launched a parallel kernel at once; refml_fast launches one at a time (the other runs
    the serial twin), and the votes equal those of a one-thread fit."""
    code = ("import warnings; warnings.simplefilter('ignore')\n"
            "import numpy as np, numba, refml_fast\n"
            "rng = np.random.default_rng(0)\n"
            "X = rng.normal(size=(20000, 60)); y = (X[:, 0] + rng.normal(size=20000) > 0)\n"
            "for member in (refml_fast.LogisticRegression(solver='newton'),\n"
            "               refml_fast.GaussianNB()):\n"
            "    votes = [refml_fast.BaggingClassifier(estimator=member, n_estimators=6,\n"
            "             n_jobs=jobs, random_state=0).fit(X, y).predict_proba(X).tolist()\n"
            "             for jobs in (2, 1)]\n"
            "    print(votes[0] == votes[1], numba.threading_layer())\n")
    run = run_python(code, check=False, NUMBA_THREADING_LAYER="workqueue")
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.split() == ["True", "workqueue"] * 2


@pytest.mark.fast
def test_a_committees_shared_ranks_pickle_without_their_lock():
    """The members' fits sent to joblib's backend (Dask) carry the committee and its shared
    ranks: they pickle, keep what was computed, and get a lock of their own."""
    import pickle

    import numpy as np

    from refml_fast.ensemble.committees import SharedRanks

    X = np.array([[3.0, 1.0], [1.0, 1.0], [2.0, 5.0]])
    shared = SharedRanks(X)
    ranks = shared(X, True)
    copy = pickle.loads(pickle.dumps(shared))
    assert np.array_equal(copy(X, True), ranks) and copy._lock is not shared._lock
    bins, values = copy.few_values(X, ranks)
    assert bins.tolist() == [[2, 0, 1], [0, 0, 1]] and values[1, :2].tolist() == [1.0, 5.0]


@pytest.mark.fast
def test_forest_votes_in_chunks_of_rows_equal_the_votes_tree_by_tree():
    """Where X outgrows the cache the votes come in chunks of rows, every tree walking a
    chunk before the next; any cut into chunks must count the same votes, and chunks are
    chosen only for a large X under trees that are small beside it."""
    import numpy as np

    import refml_fast
    from refml_fast.ensemble import kernels

    rng = np.random.default_rng(8)
    X = rng.normal(size=(400, 5))
    y = rng.integers(0, 3, 400)
    forest = refml_fast.RandomForestClassifier(n_estimators=9, random_state=2).fit(X, y)
    Q = 1.5 * rng.normal(size=(101, 5))
    links, split_threshold, roots = forest._packed_trees()
    whole = np.zeros((101, 3), dtype=np.int64)
    kernels.chunk_votes(Q, links, split_threshold, roots, 0, 101, whole)
    expected = np.zeros((101, 3), dtype=np.int64)
    for member in forest.estimators_:
        expected[np.arange(101), member.predict(Q)] += 1
    assert np.array_equal(whole, expected)
    for size in (1, 3, 8, 9, 50, 100):
        chunked = np.zeros((101, 3), dtype=np.int64)
        for start in range(0, 101, size):
            kernels.chunk_votes(Q, links, split_threshold, roots, start, min(start + size, 101),
                                chunked)
        assert np.array_equal(chunked, expected), size
    assert kernels.chunk_rows(101, 5, links.shape[0]) == 101          # X in cache
    assert kernels.chunk_rows(100_000, 100, 80_000) == 327            # 80 MB of X, 1.3 MB trees
    assert kernels.chunk_rows(100_000, 100, 1_000_000) == 100_000     # trees of 16 MB
    assert kernels.chunk_rows(300_000, 20, 520_000) == 300_000        # trees beyond X / 8
    assert kernels.chunk_rows(10_000_000, 1, 1_000) == 4096           # the most rows a chunk
    assert kernels.chunk_rows(20_000, 20_000, 1_000) == 64            # the fewest
