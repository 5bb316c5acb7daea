"""How refml meets numpy, pandas and scikit-learn without depending on any of them.

None of this is part of the lectures; it is the plumbing that lets an estimator sit in a
scikit-learn ``Pipeline``, ``GridSearchCV``, ``VotingClassifier`` or
``CalibratedClassifierCV``.  Nothing here imports a third-party package at module level:
numpy is imported only when the caller's data already is a numpy (or pandas) object, so it
is loaded anyway, and scikit-learn only inside ``sklearn_tags``, which only scikit-learn
calls.

The representation rule (docs/design.md, "Representation"):

- refml answers in the representation it is asked in.  Given Python lists (or tuples) it
  returns lists: ``classes_``, predictions, probabilities, decision values, densities.
  Given an array-like (a numpy array, a pandas DataFrame or Series, anything with
  ``__array__`` or ``to_numpy``) it returns numpy arrays, as scikit-learn's meta-estimators
  expect (they index ``proba[:, 1]`` and compare ``classes_ == label``).
- refml_fast always answers with numpy arrays.

``DataEstimator.__init_subclass__`` applies ``answer_like_input`` to every public answering
method and ``fit_like_input`` to every ``fit``, so the algorithm modules never see any of it.
"""

import functools
import sys

from refml.core import caller

ANSWERING_METHODS = ("predict", "predict_proba", "predict_log_proba", "decision_function",
                     "pdf", "score_samples")


# ----------------------------------------------------------------------------------------
# What kind of object the caller handed us.


def is_sparse(obj):
    """A scipy.sparse matrix or array (recognised without importing scipy)."""
    module = type(obj).__module__ or ""
    return module.startswith("scipy.sparse") or (hasattr(obj, "tocsr") and hasattr(obj, "nnz"))


def sparse_message(name="X"):
    return (f"Sparse data is not supported: {name} is a sparse matrix. refml and refml_fast "
            "work on dense data; densify it first with X.toarray() (it then needs "
            "n_samples x n_features floats of memory)")


def is_array_like(obj):
    """True for numpy arrays, pandas objects and anything else exposing ``__array__`` or
    ``to_numpy``; False for lists, tuples and plain Python values."""
    if isinstance(obj, (list, tuple, str, bytes)):
        return False
    return hasattr(obj, "__array__") or hasattr(obj, "to_numpy")


def dense(obj, name="X"):
    """``as_plain_array(obj)``, after refusing a sparse matrix with ``TypeError``."""
    if is_sparse(obj):
        raise TypeError(sparse_message(name))
    return as_plain_array(obj)


def as_plain_array(obj):
    """The array behind an array-like: a DataFrame's or Series' values (``to_numpy``), or
    ``__array__()`` of an object that has no ``tolist``; anything else unchanged."""
    if isinstance(obj, (list, tuple, str, bytes)):
        return obj
    if hasattr(obj, "to_numpy"):
        return obj.to_numpy()
    if hasattr(obj, "__array__") and not hasattr(obj, "tolist"):
        return obj.__array__()
    return obj


def as_numpy(values):
    """A computed list as a numpy array (numpy is already loaded: the caller's data is)."""
    import numpy

    return numpy.asarray(values)


def labels_as_numpy(labels):
    """A list of class labels as a 1-D numpy array: numeric labels keep their dtype;
    strings and mixed objects become an object array, as scikit-learn keeps them."""
    import numpy

    if all(isinstance(label, (str, bytes)) for label in labels):
        return numpy.array(labels, dtype=object)
    values = numpy.asarray(labels)
    if values.ndim != 1 or (values.dtype.kind == "f"
                            and all(isinstance(c, int) for c in labels)):
        values = numpy.empty(len(labels), dtype=object)
        values[:] = labels
    return values


def plain_labels(classes):
    """``classes_`` as a Python list, whatever its representation."""
    return classes.tolist() if hasattr(classes, "tolist") else list(classes)


# ----------------------------------------------------------------------------------------
# Feature names (pandas DataFrames with string column names).


def feature_names(X):
    """The column names of a DataFrame-like X when all are strings; None otherwise.

    Mixed string and non-string names are refused with ``TypeError``, and a string name
    that appears twice with ``ValueError``, as scikit-learn refuses them.
    """
    if isinstance(X, (list, tuple)) or not hasattr(X, "columns") or is_sparse(X):
        return None
    names = list(X.columns)
    if not names:
        return None
    kinds = sorted({type(name).__qualname__ for name in names})
    if len(kinds) > 1 and "str" in kinds:
        raise TypeError(
            "Feature names are only supported if all input features have string names, but "
            f"your input has {kinds} as feature name / column name types. Convert them all "
            "to strings (X.columns = X.columns.astype(str)) or remove them.")
    if kinds != ["str"]:
        return None
    seen, repeated = set(), set()
    for name in names:
        (repeated if name in seen else seen).add(name)
    if repeated:
        raise ValueError("Feature names must be unique, but these columns appear more than "
                         f"once: {sorted(repeated)[:5]!r}. Rename them (a model could not "
                         "tell them apart at predict).")
    return names


def store_feature_names(estimator, names, as_array):
    """Set ``feature_names_in_`` after a fit (delete it when the new X has no names)."""
    if names is None:
        estimator.__dict__.pop("feature_names_in_", None)
    elif as_array:
        import numpy

        estimator.feature_names_in_ = numpy.array(names, dtype=object)
    else:
        estimator.feature_names_in_ = list(names)


def check_feature_names(estimator, X):
    """At predict: X's column names must be the fitted ones, in the same order."""
    fitted = getattr(estimator, "feature_names_in_", None)
    names = feature_names(X)
    if fitted is None and names is None:
        return
    name = type(estimator).__name__
    if fitted is None:
        caller.warn(f"X has feature names, but {name} was fitted without feature names",
                      UserWarning)
        return
    if names is None:
        caller.warn(f"X does not have valid feature names, but {name} was fitted with "
                      "feature names", UserWarning)
        return
    fitted = [str(f) for f in fitted]
    if fitted == names:
        return
    message = "The feature names should match those that were passed during fit.\n"
    unseen = sorted(set(names) - set(fitted))
    missing = sorted(set(fitted) - set(names))
    if unseen:
        message += "Feature names unseen at fit time:\n" + _listed(unseen)
    if missing:
        message += "Feature names seen at fit time, yet now missing:\n" + _listed(missing)
    if not unseen and not missing:
        message += "Feature names must be in the same order as they were in fit.\n"
    raise ValueError(message)


def _listed(names, most=5):
    lines = [f"- {n}\n" for n in names[:most]]
    return "".join(lines) + ("- ...\n" if len(names) > most else "")


# ----------------------------------------------------------------------------------------
# The wrappers that DataEstimator applies to its subclasses' methods.


def answer_like_input(method):
    """Wrap an answering method: a list answer to an array-like X becomes a numpy array."""
    if getattr(method, "_answers_like_input", False):
        return method

    @functools.wraps(method)
    def answer(self, X, *args, **kwargs):
        result = method(self, X, *args, **kwargs)
        if isinstance(result, list) and is_array_like(X):
            return as_numpy(result)
        return result

    answer._answers_like_input = True
    return answer


def fit_like_input(fit):
    """Wrap ``fit``: record X's feature names, and give ``classes_`` the caller's
    representation (``_answers_in_numpy`` decides; refml_fast always says yes)."""
    if getattr(fit, "_answers_like_input", False):
        return fit

    @functools.wraps(fit)
    def fit_(self, X, *args, **kwargs):
        names = feature_names(X)
        self.__dict__.pop("_fitted_params", None)
        result = fit(self, X, *args, **kwargs)
        self._fitted_params = param_snapshot(self)
        as_array = self._answers_in_numpy(X)
        store_feature_names(self, names, as_array)
        classes = self.__dict__.get("classes_")
        if as_array and isinstance(classes, list):
            self.classes_ = labels_as_numpy(classes)
        return result

    fit_._answers_like_input = True
    return fit_


# ----------------------------------------------------------------------------------------
# One rule for state: a fitted model answers with the hyper-parameters it was fitted with.

#: Hyper-parameters that may change between fit and predict: they do not change an answer.
FREE_AFTER_FIT = ("n_jobs",)


def param_snapshot(estimator):
    """The hyper-parameters at the end of a successful fit: values by a copy (a list changed
    in place is noticed too), nested estimators by their repr, other objects (a
    distribution, a function) by identity and repr."""
    import copy

    snapshot = {}
    for name, value in estimator.get_params(deep=False).items():
        if name in FREE_AFTER_FIT:
            continue
        if hasattr(value, "get_params"):
            snapshot[name] = ("estimator", repr(value))
        elif type(value).__eq__ is object.__eq__:
            snapshot[name] = ("object", (value, repr(value)))
        else:
            try:
                snapshot[name] = ("value", copy.deepcopy(value))
            except Exception:  # not copyable: by identity and repr
                snapshot[name] = ("object", (value, repr(value)))
    return snapshot


def _unchanged(kind, before, now):
    if kind == "estimator":
        return hasattr(now, "get_params") and repr(now) == before
    if kind == "object":
        return now is before[0] and repr(now) == before[1]
    if now is before:
        return True
    try:
        equal = now == before
        if hasattr(equal, "all"):  # numpy arrays
            return getattr(now, "shape", None) == getattr(before, "shape", None) \
                and bool(equal.all())
        return type(now) is type(before) and bool(equal)
    except Exception:
        return False


def check_params_unchanged(estimator):
    """Raise ``ValueError`` when a hyper-parameter was changed after fit: the fitted model
    and the new setting would otherwise be mixed (or, for k-NN, read past the data)."""
    snapshot = estimator.__dict__.get("_fitted_params")
    if snapshot is None:
        return
    params = estimator.get_params(deep=False)
    for name, (kind, before) in snapshot.items():
        now = params.get(name)
        if not _unchanged(kind, before, now):
            shown = before if kind == "estimator" else \
                repr(before[0] if kind == "object" else before)
            raise ValueError(
                f"{type(estimator).__name__}: the hyper-parameter {name} was changed after "
                f"fit (fitted with {shown}, now {now!r}); the fitted model answers only with "
                f"the settings it was fitted with. Call fit again, or set {name} back")


def partial_fit_like_input(partial_fit):
    """Wrap ``partial_fit``: the first call records X's feature names and the parameters, as
    ``fit_like_input`` does; a later call first checks both against the first call's."""
    if getattr(partial_fit, "_answers_like_input", False):
        return partial_fit

    @functools.wraps(partial_fit)
    def partial_fit_(self, X, *args, **kwargs):
        if "n_features_in_" not in self.__dict__:
            return fit_like_input(partial_fit)(self, X, *args, **kwargs)
        check_params_unchanged(self)
        check_feature_names(self, X)
        return partial_fit(self, X, *args, **kwargs)

    partial_fit_._answers_like_input = True
    return partial_fit_


def wrap_methods(cls):
    """Apply the wrappers to the methods ``cls`` itself defines."""
    for name in ANSWERING_METHODS:
        if name in cls.__dict__:
            setattr(cls, name, answer_like_input(cls.__dict__[name]))
    if "fit" in cls.__dict__:
        setattr(cls, "fit", fit_like_input(cls.__dict__["fit"]))
    if "partial_fit" in cls.__dict__:
        setattr(cls, "partial_fit", partial_fit_like_input(cls.__dict__["partial_fit"]))


# ----------------------------------------------------------------------------------------
# scikit-learn's protocols: the not-fitted error and the estimator tags.

_BRIDGED = {}


def _bridged(base, sklearn_name):
    """``base`` itself, or, when scikit-learn is loaded, a subclass of ``base`` and of
    ``sklearn.exceptions.<sklearn_name>`` (made once), so that code catching or filtering
    scikit-learn's class sees refml's too.  scikit-learn is never imported here."""
    sklearn_exceptions = sys.modules.get("sklearn.exceptions")
    if sklearn_exceptions is None:
        return base
    if base not in _BRIDGED:
        _BRIDGED[base] = type(base.__name__, (base, getattr(sklearn_exceptions, sklearn_name)),
                              {"__module__": base.__module__, "__doc__": base.__doc__})
    return _BRIDGED[base]


def not_fitted_error(base, message):
    """``base(message)``: refml's NotFittedError, also scikit-learn's when it is loaded."""
    return _bridged(base, "NotFittedError")(message)


class DataConversionWarning(UserWarning):
    """y was a column vector (n x 1) and was flattened (scikit-learn's name and words)."""


def warn_column_vector():
    caller.warn("A column-vector y was passed when a 1d array was expected. Please change "
                  "the shape of y to (n_samples, ), for example using ravel().",
                  _bridged(DataConversionWarning, "DataConversionWarning"))


def sklearn_tags(estimator):
    """scikit-learn's ``Tags`` for a refml estimator (called only by scikit-learn >= 1.6)."""
    from sklearn.utils import ClassifierTags, InputTags, Tags, TargetTags

    kind = getattr(estimator, "_estimator_type", None)
    tags = Tags(estimator_type=kind,
                target_tags=TargetTags(required=kind == "classifier"),
                input_tags=InputTags(two_d_array=True, sparse=False, allow_nan=False),
                requires_fit=getattr(estimator, "_requires_fit", True),
                _skip_test=getattr(estimator, "_skip_common_checks", False))
    if kind == "classifier":
        tags.classifier_tags = ClassifierTags(
            multi_class=not getattr(estimator, "_binary_only", False))
    return tags
