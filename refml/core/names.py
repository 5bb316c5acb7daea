"""Where each public name lives: the lecture-to-module map of docs/design.md section 6.

Both packages import their public names lazily from this one table, so that
``import refml`` stays cheap and ``from refml import Perceptron`` works for every name.
"""

PUBLIC_NAMES = {
    "core.base": ["NotFittedError", "ConvergenceWarning", "clone"],
    "core.metrics": ["accuracy_score", "bias_variance_decomposition"],
    "bayes": ["zero_one_loss", "square_loss", "logistic_loss", "perceptron_loss", "hinge_loss",
              "empirical_risk", "FiniteDistribution", "GaussianClasses", "PassFailExample",
              "make_separable", "BayesClassifier", "PlugInClassifier", "risk", "bayes_decision"],
    "linear": ["LeastSquaresClassifier", "LogisticRegression", "sigmoid", "log_likelihood",
               "log_likelihood_gradient", "projected_sgd", "linear_separability"],
    "discriminant": ["LinearDiscriminantAnalysis", "QuadraticDiscriminantAnalysis"],
    "perceptron": ["Perceptron", "mistake_bound", "multiclass_mistake_bound",
                   "perceptron_criterion"],
    "neighbors": ["KNeighborsClassifier"],
    "svm": ["SVC", "max_margin_separator"],
    "density": ["Histogram", "histogram_cv_risk", "KernelDensity", "silverman_bandwidth",
                "kde_cv_risk", "KernelDensityClassifier", "NaiveBayes", "GaussianNB"],
    "tree": ["DecisionTreeClassifier"],
    "ensemble": ["BaggingClassifier", "RandomForestClassifier", "AdaBoostClassifier"],
}


def lazy_exports(package_name, package_globals):
    """Install PEP 562 ``__getattr__``/``__dir__`` and ``__all__`` for a package.

    Only modules present in the package are exported, so the table can name chapters
    that a package does not have yet.
    """
    import importlib
    import importlib.util

    location = {}
    for module, names in PUBLIC_NAMES.items():
        if importlib.util.find_spec(f"{package_name}.{module}") is None:
            continue
        for name in names:
            location[name] = module

    def __getattr__(name):
        module = location.get(name)
        if module is None:
            raise AttributeError(f"module {package_name!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package_name}.{module}"), name)
        package_globals[name] = value
        return value

    def __dir__():
        return sorted(set(package_globals) | set(location))

    package_globals["__getattr__"] = __getattr__
    package_globals["__dir__"] = __dir__
    package_globals["__all__"] = sorted(location)
