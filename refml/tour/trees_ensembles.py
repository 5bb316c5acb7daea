"""Tour: a classification tree, then bagging, a random forest and AdaBoost as the number of
members grows ([Yan], "Classification tree" to "AdaBoost: insights").

Two Gaussian classes with equal covariances, so the Bayes rule is linear (a diagonal line
here, which axis-parallel splits can only approximate by a staircase) and its risk R* has a
closed form (``GaussianClasses.bayes_risk``).  A single fully grown tree fits its training
set exactly and pays in variance; averaging B bootstrapped trees removes part of it (the
part (1 - rho) sigma^2 / B), a random forest lowers rho with m = 1 of d = 2 features per
split, and AdaBoost attacks the bias of a stump instead.

The first b members of an ensemble fitted with B members are the b-member ensemble (the
member seeds are drawn in order before fitting, and AdaBoost's round b only depends on
the rounds before it), so one fit per method gives its whole column.
"""

import copy

from refml.tour import format_table

TITLE = "Trees and ensembles: CART as text, bagging, random forests, AdaBoost vs B ([Yan])"
N_TRAIN, N_TEST = 300, 2000
MEMBERS = (1, 3, 10, 30, 100)


def run(lib, show):
    classes = lib.GaussianClasses(priors=[0.5, 0.5], means=[[0.0, 0.0], [1.2, 1.2]],
                                  covariances=[[[1.0, 0.0], [0.0, 1.0]]] * 2)
    X, y = classes.sample(N_TRAIN, random_state=1)
    X_test, y_test = classes.sample(N_TEST, random_state=2)
    bayes = classes.bayes_risk()
    show("Y in {0, 1} with probability 1/2 each; X | Y = k ~ N(mu_k, I), mu_0 = (0, 0), "
         "mu_1 = (1.2, 1.2).")
    show(f"The Bayes rule is x1 + x2 >= 1.2; its risk R* = Phi(-|mu_1 - mu_0|/2) = {bayes:.4f}.")
    show(f"n = {N_TRAIN} training points; errors below are test errors on {N_TEST} fresh "
         "points (standard error about 0.009).")
    show("")
    _tree_as_text(lib, X, y, show)
    _members_table(lib, X, y, X_test, y_test, bayes, show)


def _tree_as_text(lib, X, y, show):
    tree = lib.DecisionTreeClassifier(max_depth=2).fit(X, y)
    show("A depth-2 Gini tree (each leaf: its weighted class counts and its majority vote):")
    for line in tree.to_text(feature_names=["x1", "x2"], show_weights=True).splitlines():
        show("  " + line)
    full = lib.DecisionTreeClassifier().fit(X, y)
    show(f"Grown fully (n0 = 2) the tree has {full.get_n_leaves()} leaves and depth "
         f"{full.get_depth()}, and fits the training set exactly "
         f"(training error {1 - full.score(X, y):.3f}).")
    show("")


def _members_table(lib, X, y, X_test, y_test, bayes, show):
    largest = max(MEMBERS)
    models = [lib.BaggingClassifier(n_estimators=largest, random_state=0),
              lib.RandomForestClassifier(n_estimators=largest, random_state=0),
              lib.AdaBoostClassifier(n_estimators=largest)]
    for model in models:
        model.fit(X, y)
    tree_error = 1 - lib.DecisionTreeClassifier().fit(X, y).score(X_test, y_test)
    stump_error = 1 - lib.DecisionTreeClassifier(max_depth=1).fit(X, y).score(X_test, y_test)
    rows = []
    for b in MEMBERS:
        rows.append([b] + [1 - first_members(model, b).score(X_test, y_test)
                           for model in models])
    show("Test error with B members (bagging and the forest: fully grown Gini trees;")
    show("the forest draws m = floor(sqrt 2) = 1 candidate feature per split; AdaBoost: stumps):")
    headers = ["B", "bagging", "random forest", "AdaBoost"]
    for line in format_table(headers, rows):
        show("  " + line)
    show(f"For reference: one fully grown tree {tree_error:.4f}, one stump {stump_error:.4f}, "
         f"the Bayes risk R* = {bayes:.4f}.")
    show("Averaging bootstrapped trees removes part of the single tree's variance, then levels")
    show("off: (1 - rho) sigma^2 / B shrinks with B, rho sigma^2 does not.  AdaBoost starts from")
    show("a stump (B = 1), removes much of its bias in the first rounds, and later rounds chase")
    show("noisy training points.  (Differences below about 0.02 are within the test noise.)")


def first_members(model, b):
    """The ensemble of the first b members (see the module docstring), without refitting."""
    prefix = copy.copy(model)
    prefix.estimators_ = model.estimators_[:b]
    if hasattr(model, "estimator_weights_"):
        prefix.estimator_weights_ = model.estimator_weights_[:b]
        prefix.estimator_errors_ = model.estimator_errors_[:b]
    return prefix
