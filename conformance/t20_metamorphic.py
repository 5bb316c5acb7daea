"""Item 20, metamorphic relations: transforming the training data in a way the algorithm
cannot see changes no prediction.

Each instance draws one classifier of the table below and a random data set without ties
(Gaussian classes around random centres, so no two feature values, distances or scores
coincide except by a probability-zero accident), fits it, then fits it again on each
transformed copy of the data the classifier's row of the table claims, and predicts the
training rows and fresh queries, transformed alike.  The slack is minus the number of
predictions that differ from the original model's (renamed back).  The relations:

- ``rows``: the training rows in another order;
- ``rename``: the classes renamed by a random permutation of their labels (so another
  class comes first in classes_), the predictions renamed alike;
- ``features``: the columns in another order (training rows and queries);
- ``scale``: every feature multiplied by 2^s, s in {-3, ..., 3} \\ {0} (exact in floats);
- ``duplicate``: every training row twice;
- ``weights``: sample_weight the same for every row (0.25, 3 or 1e-3) against none.

Which relations each classifier satisfies follows from its algorithm; those it does not
are left out, and here is why:

- GaussianNB: all six.
- NaiveBayes (gaussian marginals), QuadraticDiscriminantAnalysis, LeastSquaresClassifier,
  KNeighborsClassifier with k = 1: rows, rename, features, scale, duplicate (no weights in
  their fit).
- LinearDiscriminantAnalysis: rows, rename, features, scale.  Not duplicate: the pooled
  covariance divides by N - K ([Yan]'s unbiased estimate), and the scale this gives it
  weighs against the log priors (covariance="mle" divides by N and would keep it).
- LogisticRegression (alpha 0.1, Newton to rounding): rows, rename, features, duplicate.
  Not scale: the ridge penalises the slopes, whose size depends on the scale of x.
- KNeighborsClassifier, k = 3: rows, features, scale.  Not rename: a tied vote goes to the
  first class of classes_; not duplicate: each row then fills two of the k places.
- SVC with break_ties=True (tol 1e-9), rbf with gamma "scale" and linear: rows, rename,
  features; rbf also scale.  Not rename with the default break_ties=False: one-vs-one
  votes tie often with three classes or more, and a tie goes to the first class; not scale
  (linear): C weighs the slack against a margin measured in the features' units; not
  duplicate: C sum xi doubles.
- Perceptron, no intercept, one-vs-rest: rename, features, scale.  Not rows: it learns in
  the order of the rows; not scale with an intercept: the constant feature 1 does not
  scale; not duplicate: passes of another length.
- DecisionTreeClassifier: rows, rename, scale, duplicate, weights.  Not features: of splits
  that lower the impurity exactly equally (the impurity depends on class counts only, so
  such ties are common on small data) the first feature wins.
- RandomForestClassifier, BaggingClassifier: scale, weights.  Not rename: the members' votes
  tie (5 members, 3 classes: 2, 2, 1) and a tie goes to the first class; not rows nor
  duplicate: the bootstrap draws row indices; not features: the forest draws feature
  indices.
- AdaBoostClassifier: scale, weights.  Not rows nor duplicate: the weighted errors and the
  renormalisation sum the weights in row order, after a round the weights take few
  distinct values, and stumps whose errors tie in exact arithmetic are then told apart by
  the rounding of those sums; not rename: a stump's leaf may tie its weighted vote (the
  first class wins); not features: as the tree.
- KernelDensityClassifier: rows, rename, features, scale.  Not duplicate: Silverman's
  bandwidth shrinks with n.

Tolerances: the solvers run to rounding (Newton's polish) or to a KKT tolerance of 1e-9,
so the models of the transformed data differ from the original by rounding, and a query
would have to lie within about that of a decision boundary to change side.
"""

import warnings

from ._harness import Theorem

SOURCE = "each algorithm's definition (beyond the lectures: stated per classifier above)"
ALL = ("rows", "rename", "features", "scale", "duplicate", "weights")

CLASSIFIERS = [
    ("GaussianNB", lambda p: p.GaussianNB(), ALL),
    ("NaiveBayes", lambda p: p.NaiveBayes(), ALL[:5]),
    ("LinearDiscriminantAnalysis", lambda p: p.LinearDiscriminantAnalysis(), ALL[:4]),
    ("QuadraticDiscriminantAnalysis", lambda p: p.QuadraticDiscriminantAnalysis(), ALL[:5]),
    ("LogisticRegression", lambda p: p.LogisticRegression(solver="newton", alpha=0.1,
                                                          tol=1e-10),
     ("rows", "rename", "features", "duplicate")),
    ("LeastSquaresClassifier", lambda p: p.LeastSquaresClassifier(), ALL[:5]),
    ("KNeighborsClassifier(k=1)", lambda p: p.KNeighborsClassifier(n_neighbors=1), ALL[:5]),
    ("KNeighborsClassifier(k=3)", lambda p: p.KNeighborsClassifier(n_neighbors=3),
     ("rows", "features", "scale")),
    ("SVC(rbf)", lambda p: p.SVC(kernel="rbf", tol=1e-9, break_ties=True),
     ("rows", "rename", "features", "scale")),
    ("SVC(linear)", lambda p: p.SVC(kernel="linear", tol=1e-9, break_ties=True),
     ("rows", "rename", "features")),
    ("Perceptron", lambda p: p.Perceptron(fit_intercept=False, max_iter=20, tol=None),
     ("rename", "features", "scale")),
    ("DecisionTreeClassifier", lambda p: p.DecisionTreeClassifier(),
     ("rows", "rename", "scale", "duplicate", "weights")),
    ("RandomForestClassifier", lambda p: p.RandomForestClassifier(n_estimators=5,
                                                                  random_state=1),
     ("scale", "weights")),
    ("BaggingClassifier", lambda p: p.BaggingClassifier(n_estimators=5, random_state=2),
     ("scale", "weights")),
    ("AdaBoostClassifier", lambda p: p.AdaBoostClassifier(n_estimators=5),
     ("scale", "weights")),
    ("KernelDensityClassifier", lambda p: p.KernelDensityClassifier(),
     ("rows", "rename", "features", "scale")),
]


def make_instance(rng):
    K = 2 + rng.randbelow(3)
    d = 1 + rng.randbelow(4)
    per_class = 2 * d + 3                    # QDA: a non-singular covariance in each class
    n = K * per_class + rng.randbelow(20)
    centres = [[1.5 * rng.normal() for _ in range(d)] for _ in range(K)]
    codes = list(range(K)) * per_class + [rng.randbelow(K) for _ in range(n - K * per_class)]
    codes = [codes[i] for i in rng.permutation(n)]
    X = [[c + rng.normal() for c in centres[k]] for k in codes]
    queries = [[2.0 * rng.normal() for _ in range(d)] for _ in range(15)]
    names = [10 * k + 5 for k in range(K)]
    relabel = rng.permutation(K)
    return {"X": X, "y": [names[k] for k in codes], "queries": queries,
            "rows": rng.permutation(n), "renamed": {names[k]: names[relabel[k]]
                                                    for k in range(K)},
            "features": rng.permutation(d), "scale": 2.0 ** [-3, -2, -1, 1, 2, 3][
                rng.randbelow(6)], "weight": [0.25, 3.0, 1e-3][rng.randbelow(3)]}


def transformed(instance, relation):
    """(X, y, queries, fit keywords, how a prediction maps back) for one relation."""
    X, y, Q = instance["X"], instance["y"], instance["queries"]
    same = dict(zip(y, y))
    if relation == "rows":
        order = instance["rows"]
        return [X[i] for i in order], [y[i] for i in order], Q, {}, same
    if relation == "rename":
        renamed = instance["renamed"]
        return X, [renamed[label] for label in y], Q, {}, {v: k for k, v in renamed.items()}
    if relation == "features":
        order = instance["features"]
        return ([[row[j] for j in order] for row in X], y,
                [[row[j] for j in order] for row in Q], {}, same)
    if relation == "scale":
        c = instance["scale"]
        return [[c * v for v in row] for row in X], y, [[c * v for v in row] for row in Q], \
            {}, same
    if relation == "duplicate":
        return X + X, y + y, Q, {}, same
    return X, y, Q, {"sample_weight": [instance["weight"]] * len(y)}, same


def fitted(make, package, X, y, keywords):
    model = make(package)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return model.fit(X, y, **keywords)


def relations_check(package_name):
    def check(instance):
        import importlib

        package = importlib.import_module(package_name)
        _, make, relations = CLASSIFIERS[instance["which"]]
        original = fitted(make, package, instance["X"], instance["y"], {})
        expected = list(original.predict(instance["X"])) + list(
            original.predict(instance["queries"]))
        failures = 0
        for relation in relations:
            X, y, Q, keywords, back = transformed(instance, relation)
            model = fitted(make, package, X, y, keywords)
            # the original training points, transformed as the queries are
            rows = X if relation in ("features", "scale") else instance["X"]
            found = [back[label] for label in list(model.predict(rows)) + list(
                model.predict(Q))]
            failures += sum(1 for a, b in zip(expected, found) if a != b)
        return float(-failures)
    return check


def make_any(rng):
    """An instance for a classifier drawn from the table."""
    instance = make_instance(rng)
    instance["which"] = rng.randbelow(len(CLASSIFIERS))
    return instance


def describe(instance):
    name, _, relations = CLASSIFIERS[instance["which"]]
    return (f"{name} under {', '.join(relations)}: X={instance['X']!r} y={instance['y']!r} "
            f"queries={instance['queries']!r}")


THEOREMS = [
    Theorem(20, f"Metamorphic relations, {package}: rows, names, features, scale, "
                "duplicates, uniform weights (per classifier)",
            SOURCE, make_any, relations_check(package),
            size=lambda inst: len(inst["X"]) * len(inst["X"][0]), describe=describe,
            quick=32, default=320, full=3200, needs_fast=package == "refml_fast")
    for package in ("refml", "refml_fast")
]
