"""The estimator contract shared by every classifier (docs/design.md section 3).

``BaseEstimator`` gives ``get_params``, ``set_params`` and ``__repr__`` from the keyword-only
``__init__``.  ``Classifier`` adds the shared fit/predict plumbing: input validation, the
sorted ``classes_``, label codes 0..K-1, the {-1, +1} and {0, 1} views of a binary problem,
``score`` and the not-fitted check.

refml_fast reuses all of this unchanged.  Its classes mix in ``refml_fast.core.base.FastMixin``,
which overrides only the representation hooks (``_as_matrix``, ``_as_output``,
``_n_rows_cols`` of ``DataEstimator``; ``_as_codes``, ``_labels_from_codes`` of
``Classifier``; ``_as_weights`` of ``Classifier``) so that data travel as numpy
arrays.  Density estimators (``refml.density``) share ``DataEstimator``.
"""

import inspect

from refml.core import caller, interop, validation


class NotFittedError(ValueError, AttributeError):
    """Raised when an estimator is used before ``fit``.

    When scikit-learn is loaded, the instance raised is also one of
    ``sklearn.exceptions.NotFittedError`` (``interop.not_fitted_error``).
    """


class ConvergenceWarning(UserWarning):
    """An iterative fit stopped at its iteration cap before converging."""


class BaseEstimator:
    """Parameters from the keyword-only ``__init__``; learned state ends in ``_``."""

    # scikit-learn common checks that do not apply, by name, each with its reason
    # (docs/design.md lists them); see ``expected_failed_checks``.
    _expected_failed_checks = {}

    @classmethod
    def _param_names(cls):
        """The names of ``__init__``'s parameters, sorted; read from its signature once per
        class (``inspect.signature`` is slow to ask at every fit and predict)."""
        names = cls.__dict__.get("_param_names_of_init")
        if names is None:
            signature = inspect.signature(cls.__init__)
            names = tuple(sorted(
                name for name, p in signature.parameters.items()
                if name != "self" and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)))
            cls._param_names_of_init = names       # this class's own, not its subclasses'
        return list(names)

    def get_params(self, deep=True):
        """The hyper-parameters as a dict (nested estimators as ``name__param`` if deep)."""
        params = {}
        for name in self._param_names():
            value = getattr(self, name)
            params[name] = value
            if deep and isinstance(value, BaseEstimator):
                for sub_name, sub_value in value.get_params(deep=True).items():
                    params[f"{name}__{sub_name}"] = sub_value
        return params

    def set_params(self, **params):
        """Set hyper-parameters by name (``name__param`` reaches a nested estimator)."""
        valid = self._param_names()
        for key, value in params.items():
            name, _, sub_name = key.partition("__")
            if name not in valid:
                raise ValueError(f"Invalid parameter {name!r} for estimator "
                                 f"{type(self).__name__}. Valid parameters are: {valid!r}")
            if sub_name:
                getattr(self, name).set_params(**{sub_name: value})
            else:
                setattr(self, name, value)
        return self

    def __repr__(self):
        signature = inspect.signature(type(self).__init__)
        shown = []
        for name in self._param_names():
            value = getattr(self, name)
            default = signature.parameters[name].default
            if not _same_value(value, default):
                shown.append(f"{name}={value!r}")
        return f"{type(self).__name__}({', '.join(shown)})"

    def _check_is_fitted(self):
        fitted = [name for name in vars(self) if name.endswith("_") and not name.startswith("_")]
        if not fitted:
            raise interop.not_fitted_error(NotFittedError, (
                f"This {type(self).__name__} instance is not fitted yet. Call 'fit' with "
                "appropriate arguments before using this estimator."))

    def __sklearn_tags__(self):
        """scikit-learn's estimator tags (scikit-learn is imported only here)."""
        return interop.sklearn_tags(self)


def _same_value(a, b):
    try:
        return type(a) is type(b) and bool(a == b) or (a != a and b != b)
    except Exception:
        return a is b


def clone(estimator):
    """A new, unfitted estimator of the same class with the same hyper-parameters."""
    params = estimator.get_params(deep=False)
    return type(estimator)(**{name: clone(value) if isinstance(value, BaseEstimator) else value
                              for name, value in params.items()})


def warn_not_converged(message):
    """Emit a ``ConvergenceWarning`` pointing at the caller of ``fit``."""
    caller.warn(message, ConvergenceWarning)


class DataEstimator(BaseEstimator):
    """An estimator of rows X: the data representation hooks and the predict-time check.

    refml_fast's ``FastMixin`` overrides the three representation hooks (and the label
    hooks of ``Classifier``) so that data travel as numpy arrays.

    Every subclass's ``fit`` and answering methods (predict, predict_proba, ...) are
    wrapped by ``interop``: answers come back in the caller's representation (lists for
    lists, numpy arrays for array-likes), and a DataFrame's column names are recorded in
    ``feature_names_in_`` and checked at predict.
    """

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        interop.wrap_methods(cls)

    @staticmethod
    def _answers_in_numpy(X):
        """Whether fitted ``classes_`` and names are numpy arrays: when X was array-like."""
        return interop.is_array_like(X)

    # --- representation hooks ---
    @staticmethod
    def _as_matrix(X):
        return validation.as_matrix(X)

    @staticmethod
    def _as_output(values):
        """Wrap a computed list (probabilities, scores) for the caller."""
        return values

    @staticmethod
    def _n_rows_cols(X):
        return len(X), len(X[0])

    def _validate_predict(self, X):
        """X validated against the fitted number of features."""
        self._check_is_fitted()
        interop.check_params_unchanged(self)
        interop.check_feature_names(self, X)
        X = self._as_matrix(X)
        validation.check_n_features(self._n_rows_cols(X)[1], self.n_features_in_,
                                    type(self).__name__)
        return X

    def _forget(self):
        """Drop every learned attribute (used when a fit fails half-way)."""
        for name in [n for n in vars(self) if n.endswith("_") and not n.startswith("_")]:
            delattr(self, name)
        for name in ("_fitted_params", "_stream", "_not_ready"):   # (``refml.core.online``)
            self.__dict__.pop(name, None)


class DensityEstimator(DataEstimator):
    """fit(X) / pdf(X) / score_samples(X) / score(X) of the density estimators
    (``refml.density.histogram``, ``refml.density``).  One-dimensional data may come flat: n
    numbers (a list, a 1-D array, a Series) are the column n x 1, in fit, pdf and
    score_samples alike."""

    _estimator_type = "density_estimator"
    # A 1-D density's data may come flat (see ``fit``), where scikit-learn expects 2-D X.
    _expected_failed_checks = {
        "check_fit1d": "one-dimensional data may come flat: n numbers are the column n x 1",
    }

    def fit(self, X, y=None):
        """Learn the density of the rows of X (y is ignored); returns self."""
        X = self._as_matrix(validation.flat_as_column(X))
        self._check_params(X)
        self.n_features_in_ = self._n_rows_cols(X)[1]
        try:
            self._fit(X)
        except BaseException:
            self._forget()
            raise
        return self

    def _validate_predict(self, X):
        return super()._validate_predict(validation.flat_as_column(X))

    def pdf(self, X):
        """The estimated density f_hat(x) at each row x of X."""
        raise NotImplementedError

    def score_samples(self, X):
        """log f_hat(x) at each row of X (-inf where f_hat is 0)."""
        raise NotImplementedError

    def score(self, X, y=None):
        """The log-likelihood sum_x log f_hat(x) of the rows of X."""
        total = 0.0
        for value in self.score_samples(X):
            total += float(value)
        return total


def as_sample(x, estimator):
    """One variable's sample as a column (n x 1) in the estimator's representation: n
    numbers flat, or n rows of one number (the same convention as the estimators)."""
    if isinstance(x, (str, bytes)) or not hasattr(x, "__iter__"):
        raise ValueError(f"x must be a flat sequence of numbers, got {type(x).__name__}")
    data = estimator._as_matrix(validation.flat_as_column(x))
    if estimator._n_rows_cols(data)[1] != 1:
        raise ValueError("x must be one variable: a flat sequence of numbers or rows of one "
                         f"number, got rows of {estimator._n_rows_cols(data)[1]}")
    return data


class Classifier(DataEstimator):
    """Shared plumbing of every classifier; subclasses write ``_fit`` and ``_predict_codes``.

    Subclasses whose model is defined for two classes only set ``_binary_only = True``;
    every classifier needs at least ``_min_classes`` classes (2 unless a subclass says).
    """

    _estimator_type = "classifier"
    _binary_only = False
    _min_classes = 2

    # --- label representation hooks (refml_fast overrides these) ---
    @staticmethod
    def _encode_labels(y):
        """(classes, codes) of y, validated: the sorted distinct labels and the index of
        each label among them."""
        return validation.encode_labels(validation.as_labels(y))

    @staticmethod
    def _as_codes(codes):
        return codes

    @staticmethod
    def _as_weights(sample_weight, n_samples):
        """Validated sample weights (``validation.as_sample_weight``; refml_fast: an
        array), for the fits and partial_fits that take them."""
        return validation.as_sample_weight(sample_weight, n_samples)

    @staticmethod
    def _relative_weights(weights):
        """``validation.relative_weights`` (refml_fast: on an array)."""
        return validation.relative_weights(weights)

    def _labels_from_codes(self, codes):
        classes = interop.plain_labels(self._classes())
        return [classes[code] for code in codes]

    def _classes(self):
        """The labels that codes index: ``classes_`` (a rule that needs no fit says
        otherwise)."""
        return self.classes_

    # --- fit / predict plumbing ---
    def _validate_fit(self, X, y):
        """(X, codes, classes, n_features) from validated X and y; stores nothing."""
        X = self._as_matrix(X)
        classes, codes = self._encode_labels(y)
        n_samples, n_features = self._n_rows_cols(X)
        validation.check_consistent_length(n_samples, len(codes))
        name = type(self).__name__
        if self._binary_only:
            validation.check_binary(classes, name)
        else:
            validation.check_n_classes(classes, self._min_classes, name)
        return X, self._as_codes(codes), classes, n_features

    def fit(self, X, y):
        """Validate, then learn; nothing is stored if validation or learning fails."""
        X, codes, classes, n_features = self._validate_fit(X, y)
        return self._learn(X, codes, classes, n_features)

    def _learn(self, X, codes, classes, n_features, *fit_args):
        """Check hyper-parameters, record the classes, call ``_fit(X, codes, *fit_args)``.
        A fit starts over: what an earlier fit or partial_fit learned is dropped first."""
        self._check_params(X)
        self._forget()
        self.classes_ = classes
        self.n_features_in_ = n_features
        try:
            self._fit(X, codes, *fit_args)
        except BaseException:
            self._forget()
            raise
        return self

    def _check_params(self, X):
        """Hyper-parameter checks at fit time; subclasses extend."""

    def predict(self, X):
        """The predicted class label of each row of X, drawn from ``classes_``."""
        X = self._validate_predict(X)
        return self._labels_from_codes(self._predict_codes(X))

    def score(self, X, y):
        """Accuracy: the fraction of rows of X whose prediction equals y."""
        from refml.core.metrics import accuracy_score

        return accuracy_score(y, self.predict(X))

    @staticmethod
    def _class_counts(codes, n_classes):
        """n_k, the number of training rows of each class (refml_fast: a bincount)."""
        counts = [0] * n_classes
        for code in codes:
            counts[code] += 1
        return counts

    # --- helpers for binary algorithms (docs/design.md section 2) ---
    @staticmethod
    def signs_from_codes(codes):
        """classes_[0] -> -1, classes_[1] -> +1: the lectures' y in {-1, +1}."""
        return [1.0 if code == 1 else -1.0 for code in codes]


class WeightedClassifier(Classifier):
    """A classifier whose ``fit`` takes ``sample_weight``; ``_fit(X, codes, weights)``.

    Weights are validated by ``validation.as_sample_weight`` (non-negative, finite, not all
    zero; None means all 1).  refml_fast overrides ``_as_weights`` to return an array.
    """

    def fit(self, X, y, sample_weight=None):
        """Fit on X, y with optional non-negative sample weights (None: all 1)."""
        X, codes, classes, n_features = self._validate_fit(X, y)
        weights = self._as_weights(sample_weight, len(codes))
        return self._learn(X, codes, classes, n_features, weights)
