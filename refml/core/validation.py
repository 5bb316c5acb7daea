"""Input validation shared by refml and refml_fast (docs/design.md section 5).

Every check and every message lives here once.  ``as_matrix`` turns any sequence of rows
into ``list[list[float]]`` for refml; refml_fast converts numeric numpy arrays with numpy
(``refml_fast.core.arrays``) and hands everything else to ``as_matrix`` first, so that both
packages raise the same exception with the same words for the same bad input.

The order of the checks is part of the contract: dimension, row lengths, element types,
emptiness, then NaN before infinity.
"""

import math
import numbers

from refml.core import interop

# ----------------------------------------------------------------------------------------
# Messages (used by both packages, so that the words are the same).


def not_2d_message(found):
    """Message for a design matrix that is not a table of rows."""
    return (f"Expected 2D array, got {found} instead. Reshape your data: pass X as a "
            "sequence of rows (a single feature as one-element rows, a single sample as one "
            "row)")


def ragged_message():
    return "X has inconsistent row lengths: every row must have the same number of features"


def empty_samples_message(n_features):
    return (f"Found array with 0 sample(s) (shape=(0, {n_features})) "
            "while a minimum of 1 is required.")


def empty_features_message(n_samples):
    return (f"Found array with 0 feature(s) (shape=({n_samples}, 0)) "
            "while a minimum of 1 is required.")


def non_finite_message(name, what):
    """``what`` is "NaN" or "infinity"."""
    return f"Input {name} contains {what}"


def complex_message(name):
    return f"Complex data not supported: {name} contains complex numbers"


def non_numeric_message(name, value):
    return (f"{name} must contain real numbers, found a value of type "
            f"{type(value).__name__}: {value!r}")


def non_number_object_message(name, value):
    """For an element that is neither a number nor a string (a dict, a set, an object)."""
    return (f"{name} must contain real numbers: an element's argument must be a string or a "
            f"number, not {type(value).__name__!r} ({value!r})")


def n_features_message(found, expected, estimator_name):
    return (f"X has {found} features, but {estimator_name} is expecting "
            f"{expected} features as input")


def inconsistent_samples_message(n_x, n_y):
    return f"Found input variables with inconsistent numbers of samples: [{n_x}, {n_y}]"


# ----------------------------------------------------------------------------------------
# The design matrix X.


def _is_row(obj):
    """A row is a sequence of numbers: anything iterable that is not a string or bytes."""
    if isinstance(obj, (str, bytes, dict, set, frozenset)):
        return False
    if getattr(obj, "ndim", None) == 0:  # numpy scalars and 0-d arrays are single values
        return False
    return hasattr(obj, "__iter__") or hasattr(obj, "__getitem__")


def _to_float(value, name):
    """One element of X as a float, or the exception of docs/design.md section 5."""
    if isinstance(value, float):
        return value
    if isinstance(value, (str, bytes)) or value is None:
        raise ValueError(non_numeric_message(name, value))
    if isinstance(value, numbers.Complex) and not isinstance(value, numbers.Real):
        raise ValueError(complex_message(name))
    if isinstance(value, numbers.Real) or hasattr(value, "__float__"):
        try:
            return float(value)
        except OverflowError:
            # An integer beyond the float range would become infinity.
            raise ValueError(non_finite_message(name, "infinity")) from None
        except (TypeError, ValueError):
            raise ValueError(non_numeric_message(name, value)) from None
    raise TypeError(non_number_object_message(name, value))


def as_matrix(X, name="X"):
    """X as a fresh ``list[list[float]]``, validated; the input is never modified.

    A pandas DataFrame or any object with ``__array__``/``to_numpy`` is read through its
    values; sparse matrices are refused with ``TypeError``.
    """
    X = interop.dense(X, name)
    if not _is_row(X):
        raise ValueError(not_2d_message("scalar"))
    if hasattr(X, "tolist") and callable(X.tolist):  # numpy arrays and friends
        X = X.tolist()
        if not isinstance(X, list):
            raise ValueError(not_2d_message("scalar"))
    rows = list(X)
    if len(rows) == 0:
        raise ValueError(empty_samples_message(0))
    is_row = [_is_row(row) for row in rows]
    if not any(is_row):
        raise ValueError(not_2d_message("1D array"))
    if not all(is_row):
        raise ValueError(ragged_message())
    rows = [list(row) for row in rows]
    n_features = len(rows[0])
    for row in rows:
        if len(row) != n_features:
            raise ValueError(ragged_message())
        for value in row:
            if _is_row(value):
                raise ValueError(not_2d_message("an array with more than 2 dimensions"))
    matrix = [[_to_float(value, name) for value in row] for row in rows]
    if n_features == 0:
        raise ValueError(empty_features_message(len(matrix)))
    check_finite(matrix, name)
    return matrix


def check_finite(matrix, name="X"):
    """Raise if a list of rows holds NaN (checked first) or an infinity."""
    for row in matrix:
        for value in row:
            if value != value:
                raise ValueError(non_finite_message(name, "NaN"))
    for row in matrix:
        for value in row:
            if value in (math.inf, -math.inf):
                raise ValueError(non_finite_message(name, "infinity"))


def check_n_features(n_found, n_expected, estimator_name):
    if n_found != n_expected:
        raise ValueError(n_features_message(n_found, n_expected, estimator_name))


# ----------------------------------------------------------------------------------------
# The labels y.


def as_labels(y):
    """y as a fresh list of hashable labels, validated for classification.

    Accepted: ints, bools, strings, and floats with integral values (1.0, 0.0), as
    scikit-learn accepts them.  Refused with ``ValueError``: NaN or infinity, non-integral
    floats ("Unknown label type: continuous"), a mix of strings and numbers, 2-D y.
    """
    y = interop.dense(y, "y")
    if isinstance(y, (str, bytes)) or not _is_row(y):
        raise ValueError("y should be a 1d array of labels, got a scalar instead")
    if getattr(getattr(y, "dtype", None), "kind", None) in ("i", "u", "b") \
            and getattr(y, "ndim", None) == 1:
        return y.tolist()  # a 1-D integer or bool array: every entry is a valid label
    if hasattr(y, "tolist") and callable(y.tolist):
        y = y.tolist()
    labels = list(y)
    if labels and all(_is_row(label) and len(label) == 1 for label in labels):
        interop.warn_column_vector()
        labels = [label[0] for label in labels]
    has_str = has_number = has_bool = False
    for label in labels:
        if _is_row(label):
            raise ValueError("y should be a 1d array of labels, got a 2d array instead")
        if isinstance(label, (str, bytes)):
            has_str = True
            continue
        if _is_missing(label):
            raise ValueError(non_finite_message("y", "NaN"))
        if is_bool(label):
            has_bool = True
        if isinstance(label, complex) or not isinstance(label, numbers.Real):
            try:
                hash(label)
                label < label  # labels must be sortable
            except TypeError:
                raise ValueError(f"Unknown label type: {type(label).__name__} "
                                 f"({label!r}) is not hashable and sortable") from None
            if isinstance(label, numbers.Complex):
                raise ValueError("Unknown label type: complex")
            continue
        has_number = True
        value = float(label)
        if value != value:
            raise ValueError(non_finite_message("y", "NaN"))
        if value in (math.inf, -math.inf):
            raise ValueError(non_finite_message("y", "infinity"))
        if isinstance(label, float) and value != math.floor(value):
            raise ValueError(
                "Unknown label type: continuous. Labels must be classes (ints, strings, "
                "bools, or integral floats), not real-valued targets")
    if has_str and has_number:
        raise ValueError("Unknown label type: mix of strings and numbers in y")
    if has_bool and not all(is_bool(label) for label in labels):
        raise ValueError("Unknown label type: mix of booleans and numbers in y (True would "
                         "be the class 1 and False the class 0): give one kind of label")
    if has_str and len({isinstance(label, bytes) for label in labels}) > 1:
        raise ValueError("Unknown label type: mix of str and bytes labels in y (decode the "
                         "bytes, or encode the strings, so that the labels can be sorted)")
    return labels


def _is_missing(label):
    """A missing value that is not a float NaN: pandas' NA (``NA == NA`` is NA, whose truth
    value raises TypeError) or NaT (``NaT == NaT`` is False)."""
    try:
        return not bool(label == label)
    except TypeError:
        return True


def check_consistent_length(n_x, n_y):
    if n_x != n_y:
        raise ValueError(inconsistent_samples_message(n_x, n_y))


def encode_labels(labels):
    """(classes_, codes): the sorted distinct labels and each label's index among them."""
    classes = sorted(set(labels))
    index = {label: k for k, label in enumerate(classes)}
    return classes, [index[label] for label in labels]


def check_n_classes(classes, minimum, estimator_name):
    if len(classes) < minimum:
        raise ValueError(
            f"{estimator_name} needs samples of at least {minimum} classes in the data, "
            f"but the data contains only {len(classes)} class: {list(classes)!r}")


def check_binary(classes, estimator_name):
    if len(classes) != 2:
        raise ValueError(
            f"Only binary classification is supported. {estimator_name} is a binary "
            f"classifier and needs exactly 2 classes, got {len(classes)} class(es): "
            f"{list(classes)!r}")


# ----------------------------------------------------------------------------------------
# Hyper-parameters: checked at fit, never in __init__.

INT64_MAX = 2 ** 63 - 1


def check_scalar(value, name, kind, low=None, high=None, low_open=False, high_open=False):
    """Check a numeric hyper-parameter; ``kind`` is "int" or "real".

    Raises ``ValueError`` naming the parameter, its value, and the allowed range.
    """
    if kind == "int":
        ok_type = isinstance(value, numbers.Integral) and not isinstance(value, bool)
    else:
        ok_type = isinstance(value, numbers.Real) and not isinstance(value, bool)
    if not ok_type:
        raise ValueError(f"Invalid parameter {name}={value!r}: must be "
                         f"{'an integer' if kind == 'int' else 'a real number'}")
    if kind == "real" and value != value:
        raise ValueError(f"Invalid parameter {name}={value!r}: must not be NaN")
    if kind == "int" and abs(value) > INT64_MAX:
        # Counts and sizes travel as 64-bit integers in refml_fast's kernels; a larger
        # value would wrap around there.  2**63 - 1 is already effectively unlimited.
        raise ValueError(f"Invalid parameter {name}={value!r}: must be at most 2**63 - 1 "
                         "in absolute value (use 2**63 - 1 for 'effectively unlimited')")
    too_low = low is not None and (value <= low if low_open else value < low)
    too_high = high is not None and (value >= high if high_open else value > high)
    if too_low or too_high:
        left = "(" if low_open else "["
        right = ")" if high_open else "]"
        lo = "-inf" if low is None else low
        hi = "inf" if high is None else high
        raise ValueError(f"Invalid parameter {name}={value!r}: must be in {left}{lo}, {hi}{right}")
    return value


def check_option(value, name, options):
    """Check that a string hyper-parameter is one of ``options``."""
    if not isinstance(value, str) or value not in options:
        raise ValueError(f"Invalid parameter {name}={value!r}: must be one of "
                         f"{', '.join(repr(o) for o in options)}")
    return value


# ----------------------------------------------------------------------------------------
# Sample weights (estimators whose fit takes ``sample_weight``).


def as_sample_weight(sample_weight, n_samples):
    """sample_weight as a fresh list of n_samples floats (None: all 1.0), validated.

    Refused with ``ValueError``: not 1-D, a length other than n_samples ("inconsistent
    numbers of samples"), a non-real entry, NaN, infinity, a negative weight, weights that
    are all zero, a total weight that overflows.
    """
    if sample_weight is None:
        return [1.0] * n_samples
    sample_weight = interop.as_plain_array(sample_weight)
    if isinstance(sample_weight, (str, bytes)) or not _is_row(sample_weight):
        raise ValueError("sample_weight should be a 1d array of weights, got a scalar instead")
    if hasattr(sample_weight, "tolist") and callable(sample_weight.tolist):
        sample_weight = sample_weight.tolist()
    values = list(sample_weight)
    for value in values:
        if _is_row(value):
            raise ValueError("sample_weight should be a 1d array of weights, got a 2d array")
    weights = [_to_float(value, "sample_weight") for value in values]
    check_consistent_length(n_samples, len(weights))
    return check_weight_values(weights)


def check_weight_values(weights):
    """The value checks of ``as_sample_weight`` on a list of floats."""
    for w in weights:
        if w != w:
            raise ValueError(non_finite_message("sample_weight", "NaN"))
    if any(w in (math.inf, -math.inf) for w in weights):
        raise ValueError(non_finite_message("sample_weight", "infinity"))
    if any(w < 0.0 for w in weights):
        raise ValueError("sample_weight contains a negative weight: weights must be >= 0")
    total = 0.0
    for w in weights:
        total += w
    if total == 0.0:
        raise ValueError("sample_weight is all zero: at least one weight must be positive")
    if total == math.inf:
        raise ValueError("sample_weight sums to infinity: rescale the weights")
    return weights


def relative_weights(weights):
    """w_i / min{w_j : w_j > 0}: the weights in units of the lightest row (beyond the
    lectures).  Where only their ratios matter (trees, bagging, boosting), dividing by the
    smallest makes uniform weights exactly 1.0 whatever their scale, so that splits whose
    impurities tie exactly stay tied as without weights (at a scale such as 1e-3 every
    weighted count rounds, and another split can win), and integer weights that include a 1
    stay those integers.  Left as given if a ratio would overflow."""
    lightest = min(w for w in weights if w > 0.0)
    if max(weights) / lightest == math.inf:
        return list(weights)
    return [w / lightest for w in weights]


def flat_as_column(X):
    """One-dimensional data given flat (n numbers: a list, a 1-D array, a Series) as the
    column n x 1; anything else unchanged (rows, to be validated as usual)."""
    if getattr(X, "ndim", None) == 1:
        values = X.to_numpy() if hasattr(X, "to_numpy") else X
        return values.reshape(-1, 1)
    if isinstance(X, (list, tuple)) and X and not any(
            isinstance(v, (str, bytes)) or hasattr(v, "__iter__") for v in X):
        return [[v] for v in X]
    return X


def is_bool(value):
    """True or False, Python's or numpy's (``numpy.True_``, what a grid built from a numpy
    array hands over); not 1, not "yes"."""
    kind = type(value)
    return isinstance(value, bool) or (kind.__module__ == "numpy"
                                       and kind.__name__ in ("bool", "bool_"))


def check_bool(value, name):
    """ValueError unless ``value`` is True or False (``is_bool``)."""
    if not is_bool(value):
        raise ValueError(f"Invalid parameter {name}={value!r}: must be True or False")
