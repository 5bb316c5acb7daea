"""What refml's specification would take, in seconds, and what compiling refml_fast's
kernels takes: the two sides of ``refml_fast.runtime.spec_first``'s decision.

Fitted on the 2-core AMD EPYC of docs/performance.md (Python 3.11), refml's fits and
predictions of 300-3,000 rows, 5-40 features, 2-5 classes (1,000-3,000 rows for the
discriminants, least squares and Gaussian naive Bayes); each formula is set at or above
the largest of those times, since an estimate too low makes a user wait for the
specification where compiling would have paid.  The compile seconds are the compiling
first calls of ``python -m benchmarks.run --cold`` (1,000 x 10, three classes) on that
machine on 2026-11-29 (the ensembles': their default sizes).
Both sides scale with the machine's speed alike (Python and LLVM both run on one core), so
the decision carries over.  An estimator without a formula here never uses the
specification first (None).
"""

import math

COMPILE_SECONDS = {"svm": 21.0, "neighbors": 13.0, "linear": 8.0, "tree": 9.0,
                   "ensemble": 9.0, "discriminant": 2.2, "density": 1.2, "perceptron": 2.8}
BAGGED_MEMBER = 0.45   # a bagged member's fit against its estimate on all the rows


def fit_seconds(estimator, n, d, n_classes):
    """refml's seconds to fit ``estimator`` on n rows of d features (None: no formula)."""
    cost = FIT.get(type(estimator).__name__)
    return None if cost is None else cost(estimator, n, d, n_classes)


def pass_seconds(estimator, n, d, n_classes):
    """refml's seconds for one pass of a fit that runs passes until its own rule stops it,
    at most ``max_iter`` (None: not such a fit, or no formula)."""
    cost = PASS.get(type(estimator).__name__)
    return None if cost is None else cost(estimator, n, d, n_classes)


def answer_seconds(estimator, q, d, n_train):
    """refml's seconds to answer q rows with ``estimator``, fitted on n_train rows."""
    cost = ANSWER.get(type(estimator).__name__)
    return None if cost is None else cost(estimator, q, d, n_train)


def svc_fit(svc, n, d, n_classes):
    """The SMO's steps grow with n and with C (1,000 x 10: 1.9 s at C = 1, 36.7 at C = 100);
    each step reads a kernel row of n x d.  The pairs of one-vs-one split the rows."""
    return 130e-9 * n * n * (d + 5) * max(1.0, float(svc.C)) ** 0.7


def svc_answer(svc, q, d, n_train):
    """Linear: the primal weights; otherwise a kernel value per support vector (<= n_train)."""
    if svc.kernel == "linear":
        return 1e-6 * q * (d + 5)
    return 1e-7 * q * n_train * (d + 5)


def knn_fit(knn, n, d, n_classes):
    return 1e-6 * n * (d + 5)


def knn_answer(knn, q, d, n_train):
    """Every distance from a query to a training row."""
    return 9e-8 * q * n_train * (d + 10)


def logistic_fit(model, n, d, n_classes):
    """L-BFGS and Newton: tens of passes over n x d for each class's coefficients;
    stochastic gradient: ``max_iter`` epochs (1,000 when None) of one pass each."""
    if model.solver == "sgd":
        return 2e-6 * n * (d + 1) * n_classes * (model.max_iter or 1000)
    return 3e-5 * n * (d + 1) * n_classes


def logistic_answer(model, q, d, n_train):
    return 1e-6 * q * (d + 1)


def moments_fit(model, n, d, n_classes):
    """Class means and a d x d scatter (LDA, QDA, least squares: its normal equations)."""
    return 1e-7 * n * (d + 5) ** 2


def linear_answer(model, q, d, n_train):
    """A score per class from d features (LDA, least squares, Gaussian naive Bayes)."""
    return 1e-6 * q * (d + 5) * len(model.classes_)


def quadratic_answer(model, q, d, n_train):
    """A quadratic form in d features per class."""
    return 1e-7 * q * (d + 5) ** 2 * len(model.classes_)


def gaussian_nb_fit(model, n, d, n_classes):
    return 3e-6 * n * (d + 5)


def perceptron_pass(model, n, d, n_classes):
    """A margin (and maybe an update) of d + 1 weights a row, for each class's machine or
    score when K > 2; the pass's perceptron loss too with ``tol`` (83-250 ns a row-weight
    measured)."""
    return 3e-7 * n * (d + 1) * (n_classes if n_classes > 2 else 1)


def perceptron_fit(model, n, d, n_classes):
    """All ``max_iter`` passes: the passes its rules stop it after are not known ahead."""
    return model.max_iter * perceptron_pass(model, n, d, n_classes)


def tree_fit(tree, n, d, n_classes):
    """Each level sorts and scans the rows once per searched feature (d, or fewer with
    ``max_features``); about log2 n levels unless ``max_depth`` stops sooner."""
    return 2e-6 * tree_units(tree, n, d)


def tree_units(tree, n, d):
    """n log2 n x (the features searched per split, the tree's own ``_n_candidates``, + 2),
    cut to the levels ``max_depth`` allows."""
    levels = math.log2(max(n, 2))
    depth = 1.0 if tree.max_depth is None else min(1.0, (tree.max_depth + 0.5) / levels)
    return n * levels * (tree._n_candidates(d) + 2) * depth


def tree_answer(tree, q, d, n_train):
    return 2e-6 * q * math.log2(max(n_train, 2))


def forest_fit(forest, n, d, n_classes):
    """A forest's tree searches few features on a bootstrap sample, each threshold's cost
    summed over the K classes: 0.26-1.08 us a unit of ``tree_units`` measured (10 trees,
    exact or ``max_bins=256``; the most at 40 features and 5 classes), under
    0.19 + 0.11 K + 0.005 d us."""
    member = forest._tree_class(max_features=forest.max_features, max_depth=forest.max_depth)
    per_unit = 1e-6 * (0.19 + 0.11 * n_classes + 0.005 * d)
    return forest.n_estimators * per_unit * tree_units(member, n, d)


def bagging_fit(bagging, n, d, n_classes):
    """A member on a bootstrap sample (about 0.6 of the rows distinct): 0.17-0.41 of the
    member's estimate on all n rows measured (trees, 5 members), so 0.45 of it."""
    member = member_seconds(bagging, n, d, n_classes)
    return None if member is None else bagging.n_estimators * BAGGED_MEMBER * member


def boosting_fit(boosting, n, d, n_classes):
    """Each round fits a member on all n rows and asks it about them: 0.25-0.55 of
    member + 2 us a row measured (stumps, 20 rounds), so 0.6 of it."""
    member = member_seconds(boosting, n, d, n_classes)
    return None if member is None else 0.6 * boosting.n_estimators * (member + 2e-6 * n)


def committee_answer(committee, q, d, n_train):
    """A walk down each member (1.4-2.0 us a row and tree measured)."""
    return 2.5e-6 * committee.n_estimators * q


def member_seconds(committee, n, d, n_classes):
    template = committee.estimator or committee._default_estimator()
    return fit_seconds(template, n, d, n_classes)


FIT = {"SVC": svc_fit, "KNeighborsClassifier": knn_fit, "LogisticRegression": logistic_fit,
       "DecisionTreeClassifier": tree_fit, "RandomForestClassifier": forest_fit,
       "BaggingClassifier": bagging_fit, "AdaBoostClassifier": boosting_fit,
       "LinearDiscriminantAnalysis": moments_fit, "QuadraticDiscriminantAnalysis": moments_fit,
       "LeastSquaresClassifier": moments_fit, "GaussianNB": gaussian_nb_fit,
       "Perceptron": perceptron_fit}
PASS = {"Perceptron": perceptron_pass}
ANSWER = {"SVC": svc_answer, "KNeighborsClassifier": knn_answer,
          "LogisticRegression": logistic_answer, "DecisionTreeClassifier": tree_answer,
          "RandomForestClassifier": committee_answer, "BaggingClassifier": committee_answer,
          "AdaBoostClassifier": committee_answer, "LinearDiscriminantAnalysis": linear_answer,
          "QuadraticDiscriminantAnalysis": quadratic_answer,
          "LeastSquaresClassifier": linear_answer, "GaussianNB": linear_answer,
          "Perceptron": linear_answer}
