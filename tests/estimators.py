"""The registry of every classifier, for the tests that run on all of them.

Each entry: public name -> (factory(lib) building a default instance, binary_only).
An entry whose class a package does not have yet is left out for that package, so the
registry can list every public estimator; ``available(lib)`` gives what is there.
"""


def _bayes(lib):
    distribution = lib.FiniteDistribution(
        points=[[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]],
        probabilities=[[0.2, 0.05, 0.0], [0.05, 0.2, 0.05], [0.0, 0.05, 0.2],
                       [0.1, 0.05, 0.05]])
    return lib.BayesClassifier(distribution=distribution)


REGISTRY = {
    "Perceptron": (lambda lib: lib.Perceptron(max_iter=20, random_state=0), False),
    "KNeighborsClassifier": (lambda lib: lib.KNeighborsClassifier(n_neighbors=3), False),
    "BayesClassifier": (_bayes, False),
    "PlugInClassifier": (lambda lib: lib.PlugInClassifier(), False),
    "LeastSquaresClassifier": (lambda lib: lib.LeastSquaresClassifier(), False),
    "LogisticRegression": (lambda lib: lib.LogisticRegression(), False),
    "LinearDiscriminantAnalysis": (lambda lib: lib.LinearDiscriminantAnalysis(), False),
    "QuadraticDiscriminantAnalysis": (
        lambda lib: lib.QuadraticDiscriminantAnalysis(reg_param=0.1), False),
    "SVC": (lambda lib: lib.SVC(C=1.0), False),
    "KernelDensityClassifier": (lambda lib: lib.KernelDensityClassifier(), False),
    "NaiveBayes": (lambda lib: lib.NaiveBayes(), False),
    "GaussianNB": (lambda lib: lib.GaussianNB(), False),
    "DecisionTreeClassifier": (lambda lib: lib.DecisionTreeClassifier(random_state=0), False),
    "BaggingClassifier": (lambda lib: lib.BaggingClassifier(random_state=0), False),
    "RandomForestClassifier": (
        lambda lib: lib.RandomForestClassifier(n_estimators=5, random_state=0), False),
    "AdaBoostClassifier": (lambda lib: lib.AdaBoostClassifier(n_estimators=5), False),
}


def available(lib):
    """(name, factory, binary_only) for every registered classifier that ``lib`` has."""
    names = set(lib.__all__)
    return [(name, factory, binary) for name, (factory, binary) in REGISTRY.items()
            if name in names]


# A small 3-class data set with a little overlap, on the grid (so values are exact).
X3 = [[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0], [3.0, 3.0], [3.0, 4.0],
      [4.0, 3.0], [4.0, 4.0], [0.0, 4.0], [1.0, 4.0], [0.0, 3.0], [1.0, 3.5]]
Y3 = [0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 2, 2]
# The same points with two classes, linearly separable by x1 + x2 = 3.
Y2 = [0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1]


def data_for(binary):
    return (X3, Y2) if binary else (X3, Y3)
